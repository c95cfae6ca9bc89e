"""Time-ordered outer splits keep model selection time-ordered however they are passed: the
same split as scikit-learn's PredefinedSplit or as a list gets the same inner hold-out, a given
inner split may not leave fewer rows out than the outer one, and nested_cross_val_predict says
what a time-series user can do instead; a search hidden in the estimator is warned of."""

import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.linear_model import LassoCV, RidgeCV
from sklearn.metrics import mean_absolute_error
from sklearn.model_selection import GridSearchCV, KFold, PredefinedSplit, TimeSeriesSplit
from sklearn.neighbors import KNeighborsRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer

from sklearn_fair import NestedCV, nested_cross_val_predict, nested_cross_validate
from sklearn_fair.exceptions import SklearnFairWarning, SplitLeakageWarning
from sklearn_fair.model_selection import HoldoutSplit

N = 60
X = np.c_[np.arange(N), np.random.RandomState(0).randn(N)]  # column 0: the row's number
y = np.random.RandomState(1).randn(N)
GRID = {"alpha": [0.1, 1.0]}
PREDICTIONS = []  # (rows fitted on, rows predicted) of every predict


class _Recorder(RegressorMixin, BaseEstimator):
    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def fit(self, X, y):
        self.rows_ = np.asarray(X)[:, 0].astype(int)
        self.mean_ = float(np.mean(y))
        return self

    def predict(self, X):
        PREDICTIONS.append((self.rows_, np.asarray(X)[:, 0].astype(int)))
        return np.full(len(X), self.mean_ + 0.01 * self.alpha)


def _selection_fits(cv, **params):
    """The (training, validation) rows of the selection fits of a run with outer ``cv``."""
    PREDICTIONS.clear()
    NestedCV(_Recorder(), GRID, outer_cv=cv, n_refits=1, refit=False, random_state=0,
             **params).fit(X, y)  # fmt: skip
    return [(fit, valid) for fit, valid in PREDICTIONS if valid.max() < 48]  # not the test


def test_sklearn_predefined_split_of_the_last_rows_gets_the_time_ordered_inner_holdout():
    cv = PredefinedSplit(np.r_[np.full(48, -1), np.zeros(12, int)])  # trains 0-47, tests 48-59
    with warnings.catch_warnings():
        warnings.simplefilter("error", SplitLeakageWarning)
        fits = _selection_fits(cv)
    # the last ceil(10%) of the 48 training rows validate, the 43 before them train
    assert len(fits) == len(GRID["alpha"])
    for fit, valid in fits:
        np.testing.assert_array_equal(fit, np.arange(43))
        np.testing.assert_array_equal(valid, np.arange(43, 48))
    as_list = _selection_fits(list(cv.split()))
    for (fit, valid), (fit_list, valid_list) in zip(fits, as_list):
        np.testing.assert_array_equal(fit, fit_list)
        np.testing.assert_array_equal(valid, valid_list)


def test_sklearn_predefined_split_selects_as_a_hand_made_time_ordered_holdout():
    rng = np.random.RandomState(0)
    n = 200
    X_t = (np.arange(n) / n).reshape(-1, 1)
    y_t = 5 * np.arange(n) / n + 0.3 * rng.randn(n)  # a trend and noise
    grid = {"n_neighbors": [1, 10, 40]}
    cv = PredefinedSplit(np.r_[np.full(160, -1), np.zeros(40, int)])
    result = nested_cross_validate(KNeighborsRegressor(), X_t, y_t, param_grid=grid, cv=cv,
                                   n_refits=1, random_state=0, return_nested_info=True,
                                   scoring="neg_mean_absolute_error")  # fmt: skip

    # by hand: the last 16 of the 160 training rows validate, rows 0-143 train
    def validation_mae(k):
        model = KNeighborsRegressor(n_neighbors=k).fit(X_t[:144], y_t[:144])
        return mean_absolute_error(y_t[144:160], model.predict(X_t[144:160]))

    best = min(grid["n_neighbors"], key=validation_mae)
    model = KNeighborsRegressor(n_neighbors=best).fit(X_t[:160], y_t[:160])
    assert result["best_params"] == [{"n_neighbors": best}]
    np.testing.assert_allclose(
        -result["test_score"][0], mean_absolute_error(y_t[160:], model.predict(X_t[160:]))
    )


class _LastRowsHoldout:
    """A one-split splitter of the user's own that tests the last 12 rows, unknown to us."""

    def split(self, X, y=None, groups=None):
        n = len(X)
        yield np.arange(n - 12), np.arange(n - 12, n)

    def get_n_splits(self, X=None, y=None, groups=None):
        return 1


def test_a_one_split_splitter_of_the_users_own_testing_the_last_rows_is_warned_about():
    with pytest.warns(SplitLeakageWarning, match="does not know it to be time-ordered"):
        fits = _selection_fits(_LastRowsHoldout())
    assert any(valid.min() < fit.max() for fit, valid in fits)  # random: it does see the future


def test_a_single_random_holdout_that_tests_the_last_row_by_chance_is_not_warned_about():
    from sklearn.model_selection import ShuffleSplit

    seed = next(s for s in range(100) if ShuffleSplit(1, test_size=1, random_state=s)
                .split(X[:20]).__next__()[1][0] == 19)  # fmt: skip
    X_small, y_small = X[:20], y[:20]
    with warnings.catch_warnings():
        warnings.simplefilter("error", SplitLeakageWarning)
        NestedCV(_Recorder(), GRID, outer_cv=ShuffleSplit(1, test_size=1, random_state=seed),
                 n_refits=1, refit=False, random_state=0,
                 scoring="neg_mean_absolute_error").fit(X_small, y_small)  # fmt: skip


OUTER_GAP = TimeSeriesSplit(3, gap=3, test_size=8)


@pytest.mark.parametrize(
    "inner, smallest",
    [
        (HoldoutSplit(shuffle=False), 0),
        (TimeSeriesSplit(2), 0),
        (TimeSeriesSplit(2, gap=1), 1),
        ([(np.arange(20), np.arange(22, 26))], 2),  # given splits: their gap read from them
    ],
)
def test_inner_splits_that_leave_fewer_rows_out_than_the_outer_ones_are_warned_about(
    inner, smallest
):
    with pytest.warns(SplitLeakageWarning, match="leave 3 rows out") as record:
        fits = _selection_fits(OUTER_GAP, inner_cv=inner)
    # the smallest gap, counted by hand from the rows each selection fit used
    assert min(valid.min() - fit.max() - 1 for fit, valid in fits) == smallest
    (message,) = [str(w.message) for w in record if "rows out" in str(w.message)]
    assert f"(smallest gap {smallest})" in message
    assert "gap=3" in message and "inner_cv=None" in message


def test_a_search_whose_cv_leaves_fewer_rows_out_than_the_outer_splits_is_warned_about():
    search = GridSearchCV(_Recorder(), GRID, cv=TimeSeriesSplit(2))
    with pytest.warns(SplitLeakageWarning, match=r"leave 3 rows out.*smallest gap 0"):
        nested_cross_validate(search, X, y, cv=OUTER_GAP, n_refits=1, random_state=0)


@pytest.mark.parametrize(
    "inner", [None, TimeSeriesSplit(2, gap=3), HoldoutSplit(shuffle=False, gap=4)]
)
def test_inner_splits_that_keep_the_outer_gap_are_not_warned_about(inner):
    with warnings.catch_warnings():
        warnings.simplefilter("error", SplitLeakageWarning)
        fits = _selection_fits(OUTER_GAP, inner_cv=inner)
    assert min(valid.min() - fit.max() - 1 for fit, valid in fits) >= 3


def test_inner_splits_that_see_the_future_are_not_also_said_to_leave_too_few_rows_out():
    with pytest.warns(SplitLeakageWarning, match="sees the future") as record:
        _selection_fits(OUTER_GAP, inner_cv=KFold(3))
    assert not any("rows out" in str(w.message) for w in record)


def test_predict_under_time_ordered_splits_points_to_return_indices():
    with pytest.raises(ValueError, match="15 of the 60 rows are tested in no fold") as info:
        nested_cross_val_predict(_Recorder(), X, y, param_grid=GRID, cv=TimeSeriesSplit(3))
    message = str(info.value)
    assert "time-ordered" in message and "return_indices=True" in message
    assert "Pass a k-fold splitter" not in message
    # return_indices and return_estimator do give what the message says to predict with
    result = nested_cross_validate(_Recorder(), X, y, param_grid=GRID, cv=TimeSeriesSplit(3),
                                   n_refits=1, return_estimator=True,
                                   return_indices=True)  # fmt: skip
    for (_, test), rows in zip(TimeSeriesSplit(3).split(X), result["indices"]["test"]):
        np.testing.assert_array_equal(rows, test)
    assert len(result["estimator"]) == 3 and hasattr(result["estimator"][0], "predict")


def test_predict_under_other_non_partitions_still_asks_for_a_k_fold_splitter():
    from sklearn.model_selection import ShuffleSplit

    cv = ShuffleSplit(3, test_size=0.2, random_state=0)
    with pytest.raises(ValueError, match="Pass a k-fold splitter") as info:
        nested_cross_val_predict(_Recorder(), X, y, param_grid=GRID, cv=cv)
    assert "return_indices" not in str(info.value)


@pytest.mark.parametrize(
    "estimator, named",
    [
        (make_pipeline(FunctionTransformer(), GridSearchCV(_Recorder(), GRID, cv=5)),
         "gridsearchcv__cv=5"),
        (RidgeCV(alphas=[0.1, 1.0, 10.0], cv=5), "cv=5"),
        (LassoCV(), "cv=None"),
    ],
)  # fmt: skip
def test_a_search_hidden_in_the_estimator_is_warned_about_under_time_ordered_splits(
    estimator, named
):
    with pytest.warns(SplitLeakageWarning, match="splits its training rows by itself") as record:
        nested_cross_validate(estimator, X, y, cv=TimeSeriesSplit(3), n_refits=1, random_state=0)
    (message,) = [str(w.message) for w in record if "by itself" in str(w.message)]
    assert named in message and "TimeSeriesSplit" in message


@pytest.mark.parametrize(
    "estimator, outer",
    [
        (RidgeCV(alphas=[0.1, 1.0, 10.0], cv=TimeSeriesSplit(3)), TimeSeriesSplit(3)),
        (RidgeCV(alphas=[0.1, 1.0, 10.0], cv=5), KFold(3)),
        (make_pipeline(FunctionTransformer(), _Recorder()), TimeSeriesSplit(3)),
    ],
)
def test_a_hidden_time_ordered_cv_or_a_random_outer_split_is_not_warned_about(estimator, outer):
    with warnings.catch_warnings():
        warnings.simplefilter("error", SplitLeakageWarning)
        nested_cross_validate(estimator, X, y, cv=outer, n_refits=1, random_state=0)


def test_one_split_taken_as_time_ordered_is_said():
    # a fixed test set placed after the training rows looks like a time-ordered hold-out; the
    # inner hold-out then validates on the last training rows (of data sorted by class, one
    # class): the run says which it took, and how to choose the other
    cv = PredefinedSplit(np.r_[np.full(48, -1), np.zeros(12, int)])
    for given in (cv, list(cv.split())):
        with pytest.warns(SklearnFairWarning, match="one split that tests only rows after"):
            _selection_fits(given)
    with warnings.catch_warnings():
        warnings.simplefilter("error", SklearnFairWarning)
        # two splits that each test later rows: a time order, as any given splits are judged
        _selection_fits([(np.arange(36), np.arange(36, 48)), (np.arange(48), np.arange(48, 60))])


def test_cross_fitting_that_selects_nothing_is_not_warned_about():
    # a TargetEncoder's cv cross-fits its encoding and a stacking's its meta-features: no
    # selection, and TargetEncoder refuses a TimeSeriesSplit (its folds must cover every row)
    from sklearn.compose import make_column_transformer
    from sklearn.ensemble import StackingRegressor
    from sklearn.linear_model import Ridge
    from sklearn.preprocessing import TargetEncoder

    rng = np.random.RandomState(0)
    X_s, y_s = rng.randn(120, 3), rng.randn(120)
    encoder = make_column_transformer((TargetEncoder(), [0]), remainder="passthrough")
    encoded = make_pipeline(encoder, Ridge())
    stacked = StackingRegressor([("r", Ridge())], final_estimator=Ridge())
    for model, grid in ((encoded, {"ridge__alpha": [1.0, 2.0]}),
                        (stacked, {"final_estimator__alpha": [1.0, 2.0]})):  # fmt: skip
        with warnings.catch_warnings():
            warnings.simplefilter("error", SplitLeakageWarning)
            NestedCV(model, grid, outer_cv=TimeSeriesSplit(3), n_refits=1,
                     random_state=0).fit(X_s, y_s)  # fmt: skip
