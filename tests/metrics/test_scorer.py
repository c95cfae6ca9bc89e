import os
import pickle
import subprocess
import sys

import numpy as np
import pytest
import sklearn.metrics
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification, make_regression
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import cohen_kappa_score
from sklearn.model_selection import GridSearchCV, cross_validate

from sklearn_fair.metrics import (
    concordance_correlation_coefficient,
    get_scorer,
    get_scorer_names,
    kappa,
    make_ccc_scorer,
    make_kappa_scorer,
    make_npv_scorer,
    make_ppv_scorer,
    make_sensitivity_scorer,
    make_specificity_scorer,
    npv,
    ppv,
    score_range,
    sensitivity,
    specificity,
)

CLASSIFICATION = {
    "kappa": kappa,
    "sensitivity": sensitivity,
    "specificity": specificity,
    "ppv": ppv,
    "npv": npv,
}


@pytest.fixture(scope="module")
def classification():
    X, y = make_classification(n_samples=60, random_state=0)
    return X, y, LogisticRegression().fit(X, y)


@pytest.mark.parametrize("name", sorted(CLASSIFICATION))
def test_named_scorer_equals_metric(name, classification):
    X, y, model = classification
    assert get_scorer(name)(model, X, y) == pytest.approx(CLASSIFICATION[name](y, model.predict(X)))


def test_ccc_scorer_equals_metric():
    X, y = make_regression(n_samples=60, n_features=4, noise=20.0, random_state=0)
    model = Ridge().fit(X, y)
    expected = concordance_correlation_coefficient(y, model.predict(X))
    assert get_scorer("ccc")(model, X, y) == pytest.approx(expected)
    assert make_ccc_scorer(bias=False)(model, X, y) == pytest.approx(
        concordance_correlation_coefficient(y, model.predict(X), bias=False)
    )


@pytest.mark.parametrize("name", sorted(CLASSIFICATION))
def test_usable_in_sklearn_search_and_cross_validate(name):
    X, y = make_classification(n_samples=60, random_state=1)
    search = GridSearchCV(LogisticRegression(), {"C": [0.1, 1.0]}, scoring=get_scorer(name), cv=3)
    search.fit(X, y)
    assert np.isfinite(search.best_score_)
    result = cross_validate(
        LogisticRegression(), X, y, cv=3, scoring={name: get_scorer(name), "acc": "accuracy"}
    )
    assert result[f"test_{name}"].shape == (3,)


@pytest.mark.parametrize("name", ["accuracy", "roc_auc", "neg_log_loss", "r2", "f1_macro"])
def test_sklearn_names_are_delegated(name):
    ours = get_scorer(name)
    assert repr(ours) == repr(sklearn.metrics.get_scorer(name))


def test_names_include_ours_and_all_of_sklearn():
    names = get_scorer_names()
    assert {"kappa", "sensitivity", "specificity", "ppv", "npv", "ccc"} <= set(names)
    assert set(sklearn.metrics.get_scorer_names()) <= set(names)
    assert names == sorted(names)


def test_unknown_name_lists_valid_names():
    with pytest.raises(ValueError, match="'scoring'.*'kapa'.*Valid names:.*accuracy.*kappa"):
        get_scorer("kapa")


def test_callable_and_none_pass_through():
    scorer = make_ppv_scorer()
    assert get_scorer(scorer) is scorer
    assert get_scorer(None) is None


@pytest.mark.parametrize(
    "name, expected",
    # accuracy and PPV are proportions; kappa and MCC are correlations, in [-1, 1]; a log loss
    # and an RMSE are >= 0, unbounded above, so their negations lie in (-inf, 0]; R^2 <= 1
    [
        ("accuracy", (0.0, 1.0)),
        ("ppv", (0.0, 1.0)),
        ("kappa", (-1.0, 1.0)),
        ("matthews_corrcoef", (-1.0, 1.0)),
        ("neg_log_loss", (-np.inf, 0.0)),
        ("neg_root_mean_squared_error", (-np.inf, 0.0)),
        ("r2", (-np.inf, 1.0)),
    ],
)
def test_score_range_resolves_a_scorer_name(name, expected):
    # a name is the scorer get_scorer makes of it; before, any str was (-inf, inf)
    assert score_range(name) == expected


def test_score_range_refuses_an_unknown_name():
    # the message names score_range's own parameter, 'scorer' (it said 'scoring')
    with pytest.raises(
        ValueError, match="'scorer' parameter of score_range.*'acuracy'.*Valid names:.*accuracy"
    ):
        score_range("acuracy")


def test_get_scorer_returns_fresh_copies():
    assert get_scorer("ppv") is not get_scorer("ppv")


@pytest.mark.parametrize("prevalence", [0.05, 0.5, 0.9])
def test_ppv_npv_factories_with_prevalence(prevalence, classification):
    X, y, model = classification
    predicted = model.predict(X)
    assert make_ppv_scorer(prevalence=prevalence)(model, X, y) == pytest.approx(
        ppv(y, predicted, prevalence=prevalence)
    )
    assert make_npv_scorer(prevalence=prevalence)(model, X, y) == pytest.approx(
        npv(y, predicted, prevalence=prevalence)
    )


def test_pos_label_factories(classification):
    X, y, model = classification
    predicted = model.predict(X)
    assert make_sensitivity_scorer(pos_label=0)(model, X, y) == pytest.approx(
        sensitivity(y, predicted, pos_label=0)
    )
    assert make_specificity_scorer(pos_label=0)(model, X, y) == pytest.approx(
        specificity(y, predicted, pos_label=0)
    )
    assert make_kappa_scorer(weights="linear", labels=[0, 1])(model, X, y) == pytest.approx(
        kappa(y, predicted, weights="linear")
    )


class _Predicts(ClassifierMixin, BaseEstimator):
    def __init__(self, y_pred=None):
        self.y_pred = y_pred

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return self.y_pred


def test_weighted_kappa_scorer_needs_the_scale():
    # a fold without grade 1 scored quadratic kappa 0.1538 on the grades it holds, 0.2258
    # (scikit-learn's, with labels=[0, 1, 2, 3]) on the scale of all four
    y_true = np.array([0, 0, 2, 2, 3, 3, 0, 2, 3, 0])
    y_pred = np.array([0, 2, 2, 3, 3, 0, 0, 2, 2, 3])
    with pytest.raises(ValueError, match="make_kappa_scorer.weights='quadratic'. needs the 'l"):
        make_kappa_scorer(weights="quadratic")
    model = _Predicts(y_pred).fit(np.zeros((4, 1)), [0, 1, 2, 3])
    scorer = make_kappa_scorer(weights="quadratic", labels=[0, 1, 2, 3])
    expected = cohen_kappa_score(y_true, y_pred, weights="quadratic", labels=[0, 1, 2, 3])
    assert scorer(model, np.zeros((10, 1)), y_true) == pytest.approx(expected)
    assert expected == pytest.approx(0.2258, abs=1e-4)
    assert cohen_kappa_score(y_true, y_pred, weights="quadratic") == pytest.approx(0.1538, abs=1e-4)


@pytest.mark.parametrize("factory", [make_ppv_scorer, make_npv_scorer])
def test_bad_prevalence_fails_at_creation(factory):
    with pytest.raises(ValueError, match=f"'prevalence' parameter of {factory.__name__}"):
        factory(prevalence=1.5)
    with pytest.raises(ValueError, match=f"'zero_division' parameter of {factory.__name__}"):
        factory(zero_division=True)
    with pytest.raises(ValueError, match=f"'pos_label' parameter of {factory.__name__}"):
        factory(pos_label=None)


def test_bad_factory_parameters_fail_at_creation():
    with pytest.raises(ValueError, match="'weights' parameter of make_kappa_scorer"):
        make_kappa_scorer(weights="cubic")
    with pytest.raises(ValueError, match="'bias' parameter of make_ccc_scorer .*Got 'yes'"):
        make_ccc_scorer(bias="yes")
    with pytest.raises(ValueError, match="'scoring' parameter of get_scorer .*Got 5"):
        get_scorer(5)


@pytest.mark.parametrize("name", ["kappa", "ppv", "ccc"])
def test_scorers_pickle(name, classification):
    X, y, model = classification
    scorer = pickle.loads(pickle.dumps(get_scorer(name)))
    if name != "ccc":
        assert scorer(model, X, y) == pytest.approx(get_scorer(name)(model, X, y))


BLOCK_PANDAS = """
import sys


class BlockPandas:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "pandas":
            raise ImportError("pandas blocked by the test")


sys.meta_path.insert(0, BlockPandas())
import sklearn_fair.metrics, sklearn_fair.stats
print(sorted(m for m in ("torch", "pandas") if m in sys.modules))
"""


def test_import_needs_neither_torch_nor_pandas():
    # scikit-learn itself imports pandas when it is installed (sklearn.utils.fixes), so
    # check instead that our sub-packages import with pandas unimportable, and that they
    # do not import torch.
    output = subprocess.run(
        [sys.executable, "-c", BLOCK_PANDAS], capture_output=True, text=True, env=dict(os.environ)
    )
    assert output.returncode == 0, output.stderr
    assert output.stdout.strip() == "[]"


# -- our one-class names on a multiclass y -----------------------------------------------------


class _CountingClassifier(LogisticRegression):
    fits = 0

    def fit(self, X, y, sample_weight=None):
        type(self).fits += 1
        return super().fit(X, y, sample_weight=sample_weight)


@pytest.mark.parametrize(
    "scoring",
    ["sensitivity", ["accuracy", "npv"], {"main": "ppv"}],
    ids=["name", "list", "dict"],
)
def test_one_class_names_are_refused_on_a_multiclass_y_before_any_fit(scoring):
    from sklearn_fair import NestedCV, nested_cross_validate

    X, y = make_classification(n_samples=90, n_classes=3, n_informative=4, random_state=0)
    # scikit-learn refuses its own one-class name on such a y
    with pytest.raises(ValueError, match="multiclass"):
        get_scorer("recall")(LogisticRegression().fit(X, y), X, y)
    refit = (
        "main" if isinstance(scoring, dict) else "accuracy" if isinstance(scoring, list) else True
    )
    _CountingClassifier.fits = 0
    with pytest.raises(ValueError, match=r"class 1 against the rest .* y holds 3 classes"):
        NestedCV(
            _CountingClassifier(), {"C": [1.0]}, scoring=scoring, refit=refit, random_state=0
        ).fit(X, y)
    with pytest.raises(ValueError, match=r"make_\w+_scorer\(pos_label=\.\.\.\)"):
        nested_cross_validate(
            _CountingClassifier(), X, y, param_grid={"C": [1.0]}, scoring=scoring, refit=refit
        )
    assert _CountingClassifier.fits == 0


def test_a_one_class_scorer_made_on_purpose_scores_that_class_on_a_multiclass_y():
    from sklearn.metrics import recall_score

    from sklearn_fair import NestedCV

    X, y = make_classification(n_samples=90, n_classes=3, n_informative=4, random_state=0)
    search = NestedCV(
        LogisticRegression(), {"C": [1.0]}, scoring=make_sensitivity_scorer(pos_label=2),
        outer_cv=3, random_state=0,
    )  # fmt: skip
    search.fit(X, y)
    by_hand = [
        recall_score(
            y[test] == 2, LogisticRegression().fit(X[train], y[train]).predict(X[test]) == 2
        )
        for train, test in search.outer_cv_.split(X, y)
    ]
    np.testing.assert_allclose(search.outer_scores_, by_hand)


def test_one_class_names_are_refused_for_labels_without_the_class_1_and_name_their_owner():
    from sklearn_fair import NestedCV

    X, y = make_classification(n_samples=60, random_state=0)
    labels = np.array(["ill", "well"])[y]
    # every fold's score failed (NaN, with a warning per fold), as sklearn's "recall" does
    with pytest.raises(
        ValueError, match=r"y holds 2 classes \('ill', 'well'\), and class 1 is not one of them"
    ):
        NestedCV(LogisticRegression(), {"C": [1.0]}, scoring="sensitivity").fit(X, labels)
    X3, y3 = make_classification(n_samples=90, n_classes=3, n_informative=4, random_state=0)
    search = GridSearchCV(
        LogisticRegression(), {"C": [1.0]}, scoring={"a": "accuracy", "n": "npv"}, refit="a"
    )
    with pytest.raises(
        ValueError, match="'scoring' parameter of the GridSearchCV given as estimator names 'npv'"
    ):
        NestedCV(search, scoring="accuracy").fit(X3, y3)
