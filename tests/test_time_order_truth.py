"""What a run on time-ordered data says: lag rows it scores, rows out of time order, the
splitter's parameters, and the corrected t over time-ordered folds."""

import re
import warnings

import numpy as np
import pytest
from sklearn.linear_model import Ridge
from sklearn.model_selection import KFold, TimeSeriesSplit

from sklearn_fair import NestedCV, nested_cross_validate
from sklearn_fair.exceptions import SplitLeakageWarning
from sklearn_fair.model_selection import RollingOrigin

pd = pytest.importorskip("pandas")

N = 60
GRID = {"alpha": [0.1, 10.0]}


def _data(order=None):
    rng = np.random.default_rng(0)
    dates = pd.date_range("2020-01-01", periods=N, freq="D")
    X = pd.DataFrame({"a": rng.normal(size=N), "t": np.arange(N, dtype=float)}, index=dates)
    y = pd.Series(X["a"] + 0.05 * X["t"] + rng.normal(0, 0.1, N), index=dates, name="y")
    if order is not None:
        X, y = X.iloc[order], y.iloc[order]
    return X, y


def _fit(outer_cv, X, y, **params):
    return NestedCV(Ridge(), GRID, outer_cv=outer_cv, refit=False, random_state=0, **params).fit(
        X, y
    )


def _messages(category, action):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = action()
    return result, [str(w.message) for w in caught if issubclass(w.category, category)]


# -- RollingOrigin(lag > 0) scores rows it trains on ---------------------------------------------


@pytest.mark.parametrize("run", ["NestedCV", "nested_cross_validate"])
def test_lagged_outer_splits_warn_that_their_scores_count_training_rows(run):
    # they were scored silently, while the same splits saved (allow_overlap=True) warned when
    # loaded; by hand: origins 30, 35, ..., 55 (6 folds), each tests its 2 lag rows + 5 rows
    X, y = _data()
    outer = RollingOrigin(initial=30, assess=5, skip=4, lag=2)
    if run == "NestedCV":
        action = lambda: _fit(outer, X, y)  # noqa: E731
    else:
        action = lambda: nested_cross_validate(  # noqa: E731
            Ridge(), X, y, param_grid=GRID, cv=outer, refit=False, random_state=0
        )
    _, messages = _messages(SplitLeakageWarning, action)
    shared = [m for m in messages if "share rows" in m]
    assert len(shared) == 1
    assert "(lag=2), and 6 of their 6 folds do (fold 0: 2 of its 7 test rows)" in shared[0]
    assert "not scores of unseen rows" in shared[0]
    assert "drop those rows in the scorer" in shared[0]


def test_lagged_inner_splits_warn_that_the_selection_counts_training_rows():
    # the validation scores that select counted the inner lag rows without a word; by hand:
    # outer fold 0 trains rows 0..29; inner origins 10, 15, 20, 25 (4 folds), each validating
    # its 2 lag rows + 5 rows
    X, y = _data()
    outer = RollingOrigin(initial=30, assess=5, skip=4)
    inner = RollingOrigin(initial=10, assess=5, skip=4, lag=2)
    _, messages = _messages(SplitLeakageWarning, lambda: _fit(outer, X, y, inner_cv=inner))
    shared = [m for m in messages if "share rows" in m]
    assert len(shared) == 1
    assert shared[0].startswith("The inner splits of outer fold 0 in NestedCV (inner_cv=")
    assert "(lag=2), and 4 of their 4 folds do (fold 0: 2 of its 7 test rows)" in shared[0]
    assert "validation scores that select the hyper-parameters count those rows" in shared[0]


def test_unlagged_rolling_origin_says_nothing_of_shared_rows():
    X, y = _data()
    _, messages = _messages(
        SplitLeakageWarning, lambda: _fit(RollingOrigin(initial=30, assess=5, skip=4), X, y)
    )
    assert messages == []


# -- rows out of time order under a time-ordered splitter --------------------------------------


def _first_out_of_order(dates):
    for row in range(1, len(dates)):
        if dates[row] < dates[row - 1]:
            return row
    raise AssertionError("in order")


@pytest.mark.parametrize("outer", [TimeSeriesSplit(3), RollingOrigin(initial=30, assess=10)])
def test_shuffled_datetime_index_under_a_time_ordered_outer_cv_warns(outer):
    order = np.random.default_rng(1).permutation(N)
    X, y = _data(order)
    row = _first_out_of_order(list(X.index))
    _, messages = _messages(SplitLeakageWarning, lambda: _fit(outer, X, y))
    unsorted = [m for m in messages if "not in increasing order" in m]
    assert len(unsorted) == 1
    assert f"outer_cv={outer!r}" in unsorted[0]
    assert f"the DatetimeIndex of X is not in increasing order (row {row} is " in unsorted[0]
    assert str(X.index[row]) in unsorted[0]


def test_only_y_out_of_order_under_a_time_ordered_inner_cv_warns():
    # a PeriodIndex on y, X a plain array; the outer k-fold is not time-ordered, inner_cv is
    X, y = _data()
    y = y.to_period("D").iloc[::-1]
    _, messages = _messages(
        SplitLeakageWarning,
        lambda: _fit(KFold(3), X.to_numpy(), y, inner_cv=TimeSeriesSplit(2)),
    )
    unsorted = [m for m in messages if "not in increasing order" in m]
    assert len(unsorted) == 1
    assert "inner_cv=TimeSeriesSplit(" in unsorted[0]
    assert "the PeriodIndex of y is not in increasing order (row 1 is" in unsorted[0]


@pytest.mark.parametrize(
    "outer, order",
    [
        (TimeSeriesSplit(3), None),  # in order
        (KFold(3), np.random.default_rng(1).permutation(N)),  # not a time-ordered splitter
    ],
)
def test_no_time_order_warning_where_order_does_not_matter_or_holds(outer, order):
    X, y = _data(order)
    _, messages = _messages(SplitLeakageWarning, lambda: _fit(outer, X, y))
    assert not [m for m in messages if "not in increasing order" in m]


# -- how the folds were made -------------------------------------------------------------------


def test_time_ordered_splitters_say_their_parameters():
    X, y = _data()
    outer = TimeSeriesSplit(n_splits=3, max_train_size=30, test_size=8, gap=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nested = _fit(outer, X, y)
        lagged = _fit(RollingOrigin(initial=30, assess=5, skip=4, lag=2), X, y)
        plain = _fit(TimeSeriesSplit(3), X, y)
    assert nested.resampling_ == {
        "outer": "3 splits of TimeSeriesSplit (max_train_size=30, test_size=8, gap=2)",
        "inner": "one 90%/10% time-ordered hold-out (HoldoutSplit, gap=2), in each outer "
        "training fold",
    }
    assert lagged.resampling_["outer"] == (
        "6 splits of RollingOrigin (initial=30, assess=5, skip=4, lag=2)"
    )
    assert plain.resampling_["outer"] == "3 splits of TimeSeriesSplit"


# -- the corrected resampled t over time-ordered folds -----------------------------------------


def test_summary_notes_that_the_corrected_t_assumes_random_splits():
    X, y = _data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        timed = _fit(TimeSeriesSplit(4), X, y).summary()
        shuffled = _fit(KFold(4, shuffle=True, random_state=0), X, y).summary()
    caveat = re.compile(r"note: the outer folds are time-ordered .*random train/test splits")
    assert caveat.search(str(timed))
    assert not caveat.search(str(shuffled))
    assert timed.ci_method.startswith("corrected resampled t")


def test_the_report_notes_the_corrected_t_assumption_for_time_ordered_models_only():
    # the report's interval of the mean and its pairwise t-test are the corrected resampled t:
    # the caveat names the models whose every outer fold tests rows after those it trains on
    from sklearn_fair.report import nested_cv_report

    X, y = _data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        timed, shuffled = (
            {
                name: NestedCV(Ridge(), grid, outer_cv=cv, refit=False, random_state=0).fit(X, y)
                for name, grid in (("near", GRID), ("far", {"alpha": [100.0, 1000.0]}))
            }
            for cv in (TimeSeriesSplit(4), KFold(4, shuffle=True, random_state=0))
        )
        texts = [nested_cv_report(results).to_markdown() for results in (timed, shuffled)]
    caveat = "the outer folds are time-ordered (each tests rows after all those it trains on)"
    interval = next(line for line in texts[0].splitlines() if line.startswith("Interval of the"))
    pairwise = next(line for line in texts[0].splitlines() if line.startswith("Differences of"))
    assert f"near and far: {caveat}" in interval and f"near and far: {caveat}" in pairwise
    assert caveat not in texts[1]


def test_the_inner_splits_that_see_the_future_are_said_in_the_result_and_its_report():
    # the warning said it, the result and its reports only "3-fold KFold": by hand, KFold(3)
    # of each of the 3 outer training folds (30, 40 and 50 rows, in time order) validates
    # its first two thirds on rows before the training rows, 2 of 3 per fold
    from sklearn_fair.report import nested_cv_report

    X, y = _data()
    nested = _fit(RollingOrigin(initial=30, assess=10, skip=9), X, y, inner_cv=KFold(3))
    late = "3-fold KFold, 6 of the 9 validating on rows before their training rows"
    assert nested.resampling_["inner"].startswith(late)
    assert "model selection sees the future" in nested_cv_report(nested, X=X, y=y).to_markdown()
