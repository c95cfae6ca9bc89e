"""Selection knows ties (issue 33.4): a warning when the validation data cannot separate most
candidates, no edge-of-grid warning for an edge that won on a tie, and ``select="one_se"``."""

import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.datasets import load_wine, make_regression
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.experimental import enable_halving_search_cv  # noqa: F401
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import HalvingGridSearchCV, KFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_fair import NestedCV, benchmark, nested_cross_validate
from sklearn_fair.exceptions import SearchSpaceEdgeWarning, SelectionTieWarning

C_VALUES = [0.01, 0.1, 1, 10, 100]


def _wine(grid_order, **kwargs):
    X, y = load_wine(return_X_y=True)
    grid = {"logisticregression__C": C_VALUES[::grid_order]}
    nested = NestedCV(make_pipeline(StandardScaler(), LogisticRegression()), grid, outer_cv=5,
                      random_state=0, n_refits=1, refit=False, **kwargs)  # fmt: skip
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nested.fit(X, y)
    return nested, [
        w for w in caught if issubclass(w.category, (SearchSpaceEdgeWarning, SelectionTieWarning))
    ]


@pytest.mark.parametrize("grid_order", [1, -1])
def test_wine_hold_out_ties_are_said_and_the_edge_is_not_blamed(grid_order):
    # 15 validation rows (a 10% hold-out of ~142): most C values reach the same accuracy
    nested, caught = _wine(grid_order)
    n_tied = [len(f["tied_candidates"]) for f in nested.outer_results_]
    assert sorted(n_tied) == [4, 5, 5, 5, 5]
    # the first of the tied candidates in grid order wins: the grid's order decides
    first = C_VALUES[::grid_order][0]
    assert [p["logisticregression__C"] for p in nested.best_params_per_fold_][1:] == [first] * 4
    assert [w.category for w in caught] == [SelectionTieWarning]
    message = str(caught[0].message)
    assert "In 5 of the 5 outer folds" in message and "up to 5 of the 5 tie" in message
    assert "15 validation rows" in message and "select='one_se'" in message
    # the ties are in cv_results_ too: equal mean validation accuracies
    cv = nested.cv_results_
    fold = cv["outer_fold"] == 1
    assert np.unique(cv["mean_test_score"][fold]).size == 1


def test_untied_selection_keeps_the_edge_warning_and_no_tie_warning():
    X, y = load_wine(return_X_y=True)
    with pytest.warns(SearchSpaceEdgeWarning, match="C=0.001, on the edge"):
        with warnings.catch_warnings():
            warnings.simplefilter("error", SelectionTieWarning)
            NestedCV(make_pipeline(StandardScaler(), LogisticRegression()),
                     {"logisticregression__C": [1e-5, 1e-4, 1e-3]}, outer_cv=3, inner_cv=3,
                     random_state=0, n_refits=1, refit=False).fit(X, y)  # fmt: skip


@pytest.mark.parametrize("order", [1, -1])
@pytest.mark.parametrize(
    "own, other, edges",
    [
        ([1, 10, 100, 1e4], [0.01, 0.1, 1], "[1, 10000.0]"),
        ([100, 1000, 1e4], [1e4, 1e5, 1e6], "[100, 10000.0]"),
    ],
)
def test_the_edge_of_a_list_of_grids_is_the_edge_of_the_winners_grid(order, own, other, edges):
    # Ridge on a noise target of mean 5: the largest alpha with an intercept wins every fold;
    # it is the top of its own grid, whether the other grid's alphas lie below it (only the
    # last grid's range was read: listed last, it hid the edge) or above it (pooled, the two
    # grids' range would put it in the middle)
    rng = np.random.RandomState(0)
    X, y = rng.randn(120, 20), rng.randn(120) + 5
    grids = [{"alpha": own, "fit_intercept": [True]},
             {"alpha": other, "fit_intercept": [False]}][::order]  # fmt: skip
    with pytest.warns(SearchSpaceEdgeWarning, match=rf"alpha=10000\.0, .* grid \{edges[:-1]}\]"):
        nested = NestedCV(Ridge(), grids, outer_cv=5, inner_cv=5, random_state=0).fit(X, y)
    chosen = [(p["alpha"], p["fit_intercept"]) for p in nested.best_params_per_fold_]
    assert chosen.count((1e4, True)) >= 4


@pytest.mark.parametrize("scale", [1.0, 1e-7])
def test_ties_do_not_depend_on_the_units_of_the_target(scale):
    # a target in mol/L: validation MSEs near 1e-11 that differ by 16% and more are no tie
    X, y = make_regression(n_samples=120, n_features=10, noise=5, random_state=0)
    nested = NestedCV(Ridge(), {"alpha": [0.01, 1.0, 3.0, 10.0]}, outer_cv=KFold(4),
                      inner_cv=KFold(3), scoring="neg_mean_squared_error", refit=False,
                      n_refits=1)  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("error", SelectionTieWarning)
        nested.fit(X, y * scale)
    for fold in nested.outer_results_:
        means = nested.cv_results_["mean_test_score"][
            nested.cv_results_["outer_fold"] == fold["outer_fold"]
        ]
        # tied: equal to the best up to rounding, by numpy's own relative comparison
        expected = np.flatnonzero(np.isclose(means, means.max(), rtol=1e-9, atol=0)).tolist()
        assert fold["tied_candidates"] == expected == [int(np.argmax(means))]


class _Shrunk(RegressorMixin, BaseEstimator):
    """Least squares, its predictions multiplied by ``shrink`` (1e4: a diverged candidate)."""

    def __init__(self, shrink=1.0):
        self.shrink = shrink

    def fit(self, X, y):
        self.coef_ = np.linalg.lstsq(X, y, rcond=None)[0]
        return self

    def predict(self, X):
        return self.shrink * X @ self.coef_


def test_a_diverged_candidate_ties_no_others():
    # mean validation MSEs near 1.1, 1.2 and 2.2 beside one of 1.26e9: the large one set
    # the tolerance, and the three others "tied"
    rng = np.random.RandomState(0)
    X = rng.randn(200, 3)
    y = X @ [1.0, 2.0, 3.0] + rng.randn(200)
    nested = NestedCV(_Shrunk(), {"shrink": [0.5, 0.7, 0.9, 1.0, 1e4]}, outer_cv=KFold(4),
                      inner_cv=KFold(3), scoring="neg_mean_squared_error", random_state=0,
                      n_refits=1, refit=False)  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("error", SelectionTieWarning)
        nested.fit(X, y)
    results = nested.cv_results_
    for fold in nested.outer_results_:
        means = results["mean_test_score"][results["outer_fold"] == fold["outer_fold"]]
        assert means.min() < -1e8  # the diverged candidate
        assert fold["tied_candidates"] == [int(np.argmax(means))]


class _Level(RegressorMixin, BaseEstimator):
    """Scores its ``level`` plus the mean of the validation targets: each candidate's inner
    scores are set by hand."""

    def __init__(self, level=0.0):
        self.level = level

    def fit(self, X, y):
        self.is_fitted_ = True
        return self

    def predict(self, X):
        return np.zeros(len(X))

    def score(self, X, y, sample_weight=None):
        return self.level + float(np.mean(y))


# two outer folds, each of 80 training rows whose 4 inner KFold blocks have target means
# +0.1, -0.1, +0.1, -0.1, and 20 test rows
Y_LEVELS = np.tile(np.concatenate([np.full(20, v) for v in (0.1, -0.1, 0.1, -0.1, 0.0)]), 2)
X_LEVELS = np.zeros((200, 1))
OUTER_LEVELS = [(np.arange(80), np.arange(80, 100)), (np.arange(100, 180), np.arange(180, 200))]


@pytest.mark.parametrize("select, chosen", [("best", 0.90), ("one_se", 0.85)])
def test_one_standard_error_rule_by_hand(select, chosen):
    # the best, 0.90, is on the edge of the grid either way: one_se chose another value
    rule = "selected" if select == "best" else "found the best"
    with pytest.warns(SearchSpaceEdgeWarning, match=f"{rule} level=0.9, on the edge.* in 2 of 2"):
        _one_se_by_hand(select, chosen)


def _one_se_by_hand(select, chosen):
    # inner scores of level 0.90: 1.0, 0.8, 1.0, 0.8; mean 0.90, sd (ddof=1) 0.11547, one
    # standard error 0.05774: 0.85 is within it (>= 0.84226), 0.80 is not
    results = nested_cross_validate(
        _Level(), X_LEVELS, Y_LEVELS, cv=OUTER_LEVELS, inner_cv=KFold(4),
        param_grid={"level": [0.80, 0.85, 0.90]}, select=select, return_nested_info=True,
    )  # fmt: skip
    assert results["best_params"] == [{"level": chosen}] * 2
    np.testing.assert_allclose(results["validation_score"], [chosen] * 2)


@pytest.mark.filterwarnings("ignore::sklearn_fair.exceptions.SearchSpaceEdgeWarning")
def test_one_se_is_an_option_of_nestedcv_and_benchmark():
    grid = {"level": [0.80, 0.85, 0.90]}
    nested = NestedCV(_Level(), grid, outer_cv=OUTER_LEVELS, inner_cv=KFold(4), select="one_se",
                      refit=False).fit(X_LEVELS, Y_LEVELS)  # fmt: skip
    assert nested.best_params_per_fold_ == [{"level": 0.85}] * 2
    assert nested.outer_results_[0]["tied_candidates"] == [2]  # 0.90 is the best, untied
    result = benchmark({"level": (_Level(), grid)}, {"d": (X_LEVELS, Y_LEVELS)},
                       outer_cv=OUTER_LEVELS, inner_cv=KFold(4), select="one_se")  # fmt: skip
    assert result.estimators["d", "level"].best_params_per_fold_ == [{"level": 0.85}] * 2


def test_one_se_is_refused_before_any_fit_where_it_cannot_apply():
    X, y = load_wine(return_X_y=True)
    with pytest.raises(ValueError, match="at least 2 inner splits.*inner_cv=5"):
        NestedCV(LogisticRegression(), {"C": [0.1, 1.0]}, select="one_se").fit(X, y)
    search = HalvingGridSearchCV(HistGradientBoostingClassifier(), {"max_iter": [5, 10]})
    with pytest.raises(ValueError, match="runs whole and picks its own winner"):
        NestedCV(search, select="one_se", inner_cv=3).fit(X, y)
    with pytest.raises(ValueError, match="'select' parameter of NestedCV must be"):
        NestedCV(LogisticRegression(), select="first").fit(X, y)


@pytest.mark.parametrize("inner_cv", [None, 3])
def test_the_tie_warning_suggests_a_next_step_from_the_inner_splits_in_use(inner_cv):
    # it suggested an unseeded HoldoutSplit (which then warned of itself) and "a k-fold
    # inner_cv (e.g. inner_cv=5)" to runs already on a k-fold; trees that never reach the
    # max_depth of the grid are one model (hunt FP)
    from sklearn.datasets import load_iris
    from sklearn.tree import DecisionTreeClassifier

    X_i, y_i = load_iris(return_X_y=True)
    nested = NestedCV(DecisionTreeClassifier(random_state=0), {"max_depth": [12, 20, None]},
                      outer_cv=3, inner_cv=inner_cv, n_refits=1, random_state=0)  # fmt: skip
    with pytest.warns(SelectionTieWarning) as record:
        nested.fit(X_i, y_i)
    message = str(next(w.message for w in record if w.category is SelectionTieWarning))
    assert "the same model" in message
    if inner_cv is None:
        assert "HoldoutSplit(test_size=0.3, random_state=0)" in message
    else:
        assert "RepeatedKFold(n_splits=5, n_repeats=3, random_state=0)" in message
        assert "e.g. inner_cv=5" not in message


def test_an_edge_that_is_the_parameters_own_bound_is_not_warned_about():
    # n_neighbors=1 is the least KNeighborsRegressor takes (its _parameter_constraints): the
    # warning said to extend the grid beyond it (hunt FP); the other edge still warns
    from sklearn.neighbors import KNeighborsRegressor

    X_s = np.linspace(0, 6, 200).reshape(-1, 1)
    y_s = np.sin(3 * X_s[:, 0])  # no noise: the nearest neighbour is best
    outer = KFold(3, shuffle=True, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", SearchSpaceEdgeWarning)
        nested = NestedCV(KNeighborsRegressor(), {"n_neighbors": [1, 5, 15]}, outer_cv=outer,
                          n_refits=1, random_state=0).fit(X_s, y_s)  # fmt: skip
    assert [p["n_neighbors"] for p in nested.best_params_per_fold_] == [1] * 3
    with pytest.warns(SearchSpaceEdgeWarning, match="n_neighbors=3, on the edge"):
        NestedCV(KNeighborsRegressor(), {"n_neighbors": [3, 5, 15]}, outer_cv=outer,
                 n_refits=1, random_state=0).fit(X_s, y_s)  # fmt: skip
