"""A scorer of a known error made without greater_is_better=False (or of a known score made
with it) is refused: maximising an error selects the worst candidate and reverses every
verdict. The direction of each metric is checked against scikit-learn's own scorers."""

import numpy as np
import pytest
from sklearn.datasets import load_diabetes, make_classification
from sklearn.dummy import DummyRegressor
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import (
    accuracy_score,
    brier_score_loss,
    hinge_loss,
    log_loss,
    make_scorer,
    max_error,
    mean_absolute_error,
    mean_poisson_deviance,
    mean_squared_error,
    r2_score,
    roc_auc_score,
    root_mean_squared_error,
)
from sklearn.metrics import get_scorer as sklearn_get_scorer
from sklearn.metrics import get_scorer_names as sklearn_get_scorer_names
from sklearn.model_selection import GridSearchCV, KFold

from sklearn_fair import (
    NestedCV,
    nested_cross_val_predict,
    nested_cross_val_score,
    nested_cross_validate,
)
from sklearn_fair.benchmarking import benchmark
from sklearn_fair.exceptions import SklearnFairWarning
from sklearn_fair.metrics import get_scorer, get_scorer_names, metric_display_name
from sklearn_fair.metrics._names import check_scorer_direction

X_REG, Y_REG = load_diabetes(return_X_y=True)
X_REG, Y_REG = X_REG[:90], Y_REG[:90]
GRID = {"alpha": [0.01, 1e4]}
KW = dict(outer_cv=3, inner_cv=2, n_refits=1, random_state=0)


def test_maximising_mae_picks_the_worst_alpha():
    """The fault the check prevents, shown with scikit-learn alone: a scorer of the MAE with
    greater_is_better=True makes GridSearchCV choose the alpha of the larger MAE."""
    cv = KFold(3, shuffle=True, random_state=0)
    wrong = GridSearchCV(Ridge(), GRID, scoring=make_scorer(mean_absolute_error), cv=cv)
    right = GridSearchCV(Ridge(), GRID, scoring="neg_mean_absolute_error", cv=cv)
    assert wrong.fit(X_REG, Y_REG).best_params_ == {"alpha": 1e4}
    assert right.fit(X_REG, Y_REG).best_params_ == {"alpha": 0.01}


@pytest.mark.parametrize(
    "run",
    [
        lambda s: NestedCV(Ridge(), GRID, scoring=s, **KW).fit(X_REG, Y_REG),
        lambda s: nested_cross_validate(Ridge(), X_REG, Y_REG, param_grid=GRID, scoring=s, **KW),
        lambda s: nested_cross_val_score(Ridge(), X_REG, Y_REG, param_grid=GRID, scoring=s, **KW),
        lambda s: nested_cross_val_predict(Ridge(), X_REG, Y_REG, param_grid=GRID, scoring=s, **KW),
        lambda s: benchmark(
            {"ridge": (Ridge(), GRID), "dummy": (DummyRegressor(), None)},
            {"diabetes": (X_REG, Y_REG)},
            scoring=s,
            **KW,
        ),
    ],
    ids=["NestedCV", "validate", "score", "predict", "benchmark"],
)
def test_a_maximised_error_is_refused_everywhere(run):
    with pytest.raises(ValueError) as caught:
        run(make_scorer(mean_absolute_error))
    message = str(caught.value)
    assert "'scoring' parameter" in message
    assert "make_scorer(mean_absolute_error" in message and "MAE" in message
    assert "greater_is_better=False" in message and "'neg_mean_absolute_error'" in message


def test_a_maximised_error_in_a_dict_is_refused_where_it_selects_and_named_where_not():
    bad = make_scorer(mean_squared_error)
    with pytest.raises(ValueError, match="maps 'mse' to make_scorer\\(mean_squared_error"):
        NestedCV(Ridge(), GRID, scoring={"mse": bad, "r2": "r2"}, refit="mse", **KW).fit(
            X_REG, Y_REG
        )
    # reported beside the one that selects, as scikit-learn's cross_validate reports it (its
    # own test suite scores a make_scorer(mean_squared_error) so): a warning, where the user
    # looks, that its comparisons are reversed
    with pytest.warns(SklearnFairWarning, match="'mse'.*does not select.*reversed"):
        nested = NestedCV(Ridge(), GRID, scoring={"mse": bad, "r2": "r2"}, refit="r2", **KW)
        nested.fit(X_REG, Y_REG)
    reference = NestedCV(Ridge(), GRID, scoring="r2", **KW).fit(X_REG, Y_REG)
    np.testing.assert_array_equal(nested.outer_scores_, reference.outer_scores_)
    search = GridSearchCV(Ridge(), GRID, scoring=bad)
    with pytest.raises(ValueError, match="search given to nested_cross_validate.*'neg_mean_sq"):
        nested_cross_validate(search, X_REG, Y_REG, scoring="r2", **KW)


@pytest.mark.parametrize(
    "function, kwargs, name",
    [
        (mean_squared_error, {}, "neg_mean_squared_error"),
        (root_mean_squared_error, {}, "neg_root_mean_squared_error"),
        (max_error, {}, "neg_max_error"),
        (mean_poisson_deviance, {}, "neg_mean_poisson_deviance"),
        (log_loss, {"response_method": "predict_proba"}, "neg_log_loss"),
        (brier_score_loss, {"response_method": "predict_proba"}, "neg_brier_score"),
        (hinge_loss, {"response_method": "decision_function"}, None),
    ],
)
def test_known_errors_must_be_negated(function, kwargs, name):
    with pytest.raises(ValueError, match="greater_is_better=False") as caught:
        check_scorer_direction(make_scorer(function, **kwargs), "NestedCV")
    if name is not None:  # the name suggested is scikit-learn's negated scorer of the function
        assert f"scorer name {name!r}" in str(caught.value)
        reference = sklearn_get_scorer(name)
        assert reference._score_func is function and reference._sign == -1
    negated = metric_display_name(make_scorer(function, greater_is_better=False, **kwargs))
    assert negated.sign == -1


@pytest.mark.parametrize(
    "function, kwargs, name",
    [
        (accuracy_score, {}, "accuracy"),
        (r2_score, {}, "r2"),
        (roc_auc_score, {"response_method": "predict_proba"}, "roc_auc"),
    ],
)
def test_known_scores_must_not_be_negated(function, kwargs, name):
    with pytest.raises(ValueError, match=f"minimises.*scorer name {name!r}"):
        check_scorer_direction(make_scorer(function, greater_is_better=False, **kwargs), "x")
    assert metric_display_name(make_scorer(function, **kwargs)).sign == 1


def test_a_negated_accuracy_is_refused_by_nested_cv():
    X, y = make_classification(n_samples=60, random_state=0)
    bad = make_scorer(accuracy_score, greater_is_better=False)
    with pytest.raises(ValueError, match="NestedCV.*minimises accuracy"):
        NestedCV(LogisticRegression(), {"C": [0.1, 1.0]}, scoring=bad, **KW).fit(X, y)


def test_every_named_scorer_passes():
    # scikit-learn's and our scorer names are the reference for the direction of each metric
    for name in get_scorer_names():
        metric_display_name(get_scorer(name))
    for name in sklearn_get_scorer_names():
        metric_display_name(sklearn_get_scorer(name))
    scores = NestedCV(Ridge(), GRID, scoring="neg_mean_absolute_error", **KW).fit(X_REG, Y_REG)
    assert np.all(np.asarray(scores.outer_scores_) < 0)


def test_functions_of_the_users_own_are_left_alone():
    def mean_absolute_error(y_true, y_pred):  # the same name, not scikit-learn's function
        return float(np.mean(np.abs(np.asarray(y_true) - np.asarray(y_pred))))

    assert metric_display_name(make_scorer(mean_absolute_error)).sign == 1
    assert metric_display_name(make_scorer(lambda t, p: 0.0, greater_is_better=False)).sign == -1


def test_the_directions_are_scikit_learns():
    from sklearn_fair.metrics._ranges import metric_direction

    for name in sklearn_get_scorer_names():
        scorer = sklearn_get_scorer(name)
        assert metric_direction(scorer._score_func) == scorer._sign, name
    assert metric_direction(hinge_loss) == -1 and metric_direction(lambda t, p: 0.0) is None


@pytest.mark.parametrize(
    "name",
    ["label_ranking_loss", "coverage_error", "label_ranking_average_precision_score",
     "ndcg_score", "dcg_score"],
)  # fmt: skip
def test_multilabel_ranking_metrics_have_their_direction(name):
    # (hunt SIGNS, SIGNS-1) make_scorer(label_ranking_loss) maximised a loss unrefused; the
    # direction is read off scikit-learn's values: a perfect ranking against a reversed one
    import sklearn.metrics

    from sklearn_fair.metrics import score_range

    function = getattr(sklearn.metrics, name)
    y = np.array([[1, 0, 0], [0, 1, 1], [1, 1, 0], [0, 0, 1]])
    perfect, reversed_ = y + 0.1 * np.arange(3), 1 - y + 0.1 * np.arange(3)
    lower_is_better = bool(function(y, perfect) < function(y, reversed_))
    kwargs = {"response_method": "decision_function"}
    wrong = make_scorer(function, greater_is_better=lower_is_better, **kwargs)
    right = make_scorer(function, greater_is_better=not lower_is_better, **kwargs)
    with pytest.raises(ValueError, match="greater_is_better=False|minimises"):
        check_scorer_direction(wrong, "NestedCV")
    check_scorer_direction(right, "NestedCV")
    low, high = score_range(right)
    for value in (function(y, perfect), function(y, reversed_)):
        assert low <= (-value if lower_is_better else value) <= high
    if name == "dcg_score":  # of negative relevances, which scikit-learn takes, negative
        assert low <= function(-y, perfect) < 0
