"""A search given as the estimator that scores several metrics (a list, a dict, or a callable
returning a dict), selects by a callable refit, or is routed metadata: checked against
scikit-learn's own ``cross_validate(search, ...)`` on the same splits."""

import warnings

import numpy as np
import pytest
import sklearn
from sklearn.datasets import make_classification
from sklearn.experimental import enable_halving_search_cv  # noqa: F401
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, f1_score, log_loss, make_scorer
from sklearn.model_selection import (
    GridSearchCV,
    HalvingGridSearchCV,
    StratifiedKFold,
    cross_val_score,
    cross_validate,
)

from sklearn_fair import NestedCV, nested_cross_val_score, nested_cross_validate

X, y = make_classification(n_samples=120, n_features=10, flip_y=0.2, random_state=1)
OUTER = StratifiedKFold(4, shuffle=True, random_state=0)
INNER = StratifiedKFold(3, shuffle=True, random_state=1)
GRID = {"C": [0.001, 0.01, 0.1, 1, 10]}


def multi(estimator, X, y):
    predicted = estimator.predict(X)
    return {
        "acc": accuracy_score(y, predicted),
        "ll": -log_loss(y, estimator.predict_proba(X)),
        "f1": f1_score(y, predicted),
    }


def test_callable_dict_search_scored_with_its_refit_metric():
    # scoring=None scores as search.score does: the metric its refit names (F1), not the
    # first key of the dict (accuracy)
    search = GridSearchCV(LogisticRegression(), GRID, cv=INNER, scoring=multi, refit="f1")
    expected = cross_validate(search, X, y, cv=OUTER, return_estimator=True)
    validation = [s.best_score_ for s in expected["estimator"]]  # their mean validation F1

    ours = nested_cross_validate(search, X, y, cv=OUTER, n_refits=1, return_nested_info=True)
    assert sorted(k for k in ours if k.startswith("test_")) == ["test_score"]
    np.testing.assert_allclose(ours["test_score"], expected["test_score"])
    np.testing.assert_allclose(ours["validation_f1"], validation)  # each metric it scores
    scores = nested_cross_val_score(search, X, y, cv=OUTER, n_refits=1)
    np.testing.assert_allclose(scores, cross_val_score(search, X, y, cv=OUTER))

    nested = NestedCV(search, outer_cv=OUTER, n_refits=1, random_state=0).fit(X, y)
    np.testing.assert_allclose(nested.outer_scores_, expected["test_score"])
    np.testing.assert_allclose(nested.validation_scores_, validation)
    assert nested.validation_comparable_
    assert nested.optimism_ == pytest.approx(np.mean(validation) - np.mean(expected["test_score"]))
    assert nested.metrics_["score"].name == nested.selection_metric_.name == "F1"
    np.testing.assert_allclose(nested.score(X, y), search.fit(X, y).score(X, y))


def test_nestedcv_callable_dict_with_refit_true_raises():
    # as GridSearchCV, and as NestedCV does for a list of metrics: refit must name one
    nested = NestedCV(
        LogisticRegression(), GRID, outer_cv=OUTER, inner_cv=INNER, scoring=multi, refit=True
    )
    with pytest.raises(ValueError, match=r"must name the metric.*\['acc', 'f1', 'll'\]"):
        nested.fit(X, y)
    with pytest.raises(ValueError, match="refit must be set to a scorer key"):
        GridSearchCV(LogisticRegression(), GRID, cv=INNER, scoring=multi, refit=True).fit(X, y)


def _within(cv_results):
    """The lowest C whose mean ROC AUC is within 0.02 of the best."""
    means = cv_results["mean_test_roc_auc"]
    return int(np.flatnonzero(means >= means.max() - 0.02)[0])


def test_multimetric_search_with_callable_refit():
    scoring = ["accuracy", "roc_auc"]
    search = GridSearchCV(LogisticRegression(), GRID, cv=INNER, scoring=scoring, refit=_within)
    expected = cross_validate(search, X, y, cv=OUTER, scoring=scoring, return_estimator=True)
    chosen = [s.best_index_ for s in expected["estimator"]]
    ours = nested_cross_validate(
        search, X, y, cv=OUTER, scoring=scoring, n_refits=1, return_nested_info=True
    )
    for name in scoring:
        np.testing.assert_allclose(ours[f"test_{name}"], expected[f"test_{name}"])
    assert ours["best_params"] == [s.best_params_ for s in expected["estimator"]]
    # the validation score is the search's own of the outer metric that the function reports
    # first (accuracy), of the candidate its rule chose
    accuracy = [
        s.cv_results_["mean_test_accuracy"][i] for s, i in zip(expected["estimator"], chosen)
    ]
    np.testing.assert_allclose(ours["validation_score"], accuracy)

    nested = NestedCV(
        search, outer_cv=OUTER, scoring="roc_auc", n_refits=1, refit=False, random_state=0
    ).fit(X, y)
    np.testing.assert_allclose(nested.outer_scores_, expected["test_roc_auc"])
    roc_auc = [s.cv_results_["mean_test_roc_auc"][i] for s, i in zip(expected["estimator"], chosen)]
    np.testing.assert_allclose(nested.validation_scores_, roc_auc)
    # ROC AUC did not select (the rule did): no optimism, and the name says what was read
    assert not nested.validation_comparable_ and np.isnan(nested.optimism_)
    assert nested.selection_metric_.name == "ROC AUC of the candidate a callable refit chose"

    # an outer metric that the search does not have: no validation score, not another one
    nested = NestedCV(
        search, outer_cv=OUTER, scoring="f1", n_refits=1, refit=False, random_state=0
    ).fit(X, y)
    np.testing.assert_allclose(nested.outer_scores_, cross_validate(search, X, y, cv=OUTER,
                               scoring="f1")["test_score"])  # fmt: skip
    assert np.isnan(nested.validation_scores_).all() and not nested.validation_comparable_

    # scoring=None: search.score has no metric here (scikit-learn's fails too)
    with pytest.raises(ValueError, match="callable 'refit' among several metrics"):
        NestedCV(search, outer_cv=OUTER, refit=False).fit(X, y)


def test_search_run_whole_gets_the_metadata_its_scorer_requests():
    rng = np.random.RandomState(0)
    X, y = make_classification(n_samples=160, n_features=10, flip_y=0.25, random_state=3)
    weights = rng.uniform(0.05, 6, size=len(y)) ** 2
    grid = {"C": [0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1, 10]}
    with sklearn.config_context(enable_metadata_routing=True):
        estimator = LogisticRegression().set_fit_request(sample_weight=False)
        weighted = make_scorer(
            log_loss, response_method="predict_proba", greater_is_better=False
        ).set_score_request(sample_weight=True)
        outer_scorer = make_scorer(accuracy_score).set_score_request(sample_weight=False)
        search = HalvingGridSearchCV(
            estimator, grid, cv=INNER, scoring=weighted, random_state=0, factor=2
        )
        params = {"sample_weight": weights}
        expected = cross_validate(
            search, X, y, cv=OUTER, scoring=outer_scorer, params=params, return_estimator=True
        )
        ours = nested_cross_validate(
            search, X, y, cv=OUTER, scoring=outer_scorer, n_refits=1, params=params,
            return_nested_info=True,
        )  # fmt: skip
        nested = NestedCV(
            search, outer_cv=OUTER, scoring=outer_scorer, n_refits=1, refit=False,
            random_state=0,
        ).fit(X, y, sample_weight=weights)  # fmt: skip
    best = [s.best_params_ for s in expected["estimator"]]
    assert ours["best_params"] == best
    assert nested.best_params_per_fold_ == best
    np.testing.assert_allclose(ours["test_score"], expected["test_score"])
    np.testing.assert_allclose(nested.outer_scores_, expected["test_score"])


def test_search_run_whole_gets_its_estimators_aliased_metadata_as_cross_validate_routes_it():
    # the search's fit got the weights as "w" (its request) and as "sample_weight" (the
    # estimator's own routed name) too, and refused the second: UnsetMetadataPassedError
    weights = np.random.default_rng(0).uniform(0.1, 3, len(y))
    with sklearn.config_context(enable_metadata_routing=True):
        estimator = LogisticRegression().set_fit_request(sample_weight="w")
        search = HalvingGridSearchCV(estimator, GRID, cv=INNER, factor=2, random_state=0)
        expected = cross_validate(search, X, y, cv=OUTER, params={"w": weights})
        ours = nested_cross_validate(search, X, y, cv=OUTER, n_refits=1, params={"w": weights})
    np.testing.assert_allclose(ours["test_score"], expected["test_score"])


def test_no_warning_for_an_outer_scorer_without_sample_weight():
    # the search's own scorer selects, with the weights; the outer one selects nothing
    weights = np.random.RandomState(0).uniform(0.1, 5, size=len(y))
    search = GridSearchCV(LogisticRegression(), {"C": [0.01, 0.1, 1]}, cv=3, scoring="neg_log_loss")

    def accuracy(estimator, X, y):
        return accuracy_score(y, estimator.predict(X))

    params = {"sample_weight": weights}
    expected = cross_validate(search, X, y, cv=OUTER, scoring=accuracy, params=params)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        ours = nested_cross_validate(
            search, X, y, cv=OUTER, scoring=accuracy, n_refits=1, params=params
        )
    np.testing.assert_allclose(ours["test_score"], expected["test_score"])
