"""What a time-ordered run found about its splits is kept in the result and its reports, as
the fit warned it: rows whose dates are out of order or repeat across a split (a plain or a
MultiIndex), and the selection that sees the future (a hidden cv, the estimator's own early
stopping, an inner gap narrower than the outer one)."""

import warnings

import numpy as np
import pytest
from sklearn.linear_model import Ridge, RidgeCV, SGDRegressor
from sklearn.model_selection import KFold, TimeSeriesSplit

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import SplitLeakageWarning
from sklearn_fair.report import nested_cv_report, result_to_dict
from sklearn_fair.stats._interval import NOT_DATED_AFTER_NOTE, TIME_ORDERED_NOTE

pd = pytest.importorskip("pandas")

GRID = {"alpha": [0.1, 1.0, 10.0]}


def _frame(index, seed=0):
    rng = np.random.default_rng(seed)
    t = np.arange(len(index), dtype=float)
    X = pd.DataFrame({"a": np.sin(t / 10), "b": rng.normal(size=len(index))}, index=index)
    y = pd.Series(X["a"] + 0.5 * X["b"] + rng.normal(0, 0.3, len(index)), index=index)
    return X, y


def _fit(X, y, outer_cv, estimator=None, grid=GRID, **params):
    nested = NestedCV(
        Ridge() if estimator is None else estimator, grid, outer_cv=outer_cv, random_state=0,
        n_jobs=1, **params,
    )  # fmt: skip
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nested.fit(X, y)
    leaks = [str(w.message) for w in caught if issubclass(w.category, SplitLeakageWarning)]
    return nested, leaks


def _folds_line(nested):
    text = nested_cv_report(nested).to_text()
    return next(line for line in text.splitlines() if line.startswith("How the folds were made"))


def _summary_notes(nested):
    return nested.summary().notes


# -- TIME-1: a newest-first DatetimeIndex ---------------------------------------------------------


def test_a_newest_first_index_is_kept_and_the_summary_does_not_call_the_folds_time_ordered():
    dates = pd.date_range("2020-01-01", periods=150, freq="D")
    X, y = _frame(dates)
    X, y = X.iloc[::-1], y.iloc[::-1]
    outer = TimeSeriesSplit(3)
    # by hand: every test row of every outer fold is dated before every training row
    for train, test in outer.split(X):
        assert (X.index[test] < X.index[train].min()).all()
    nested, leaks = _fit(X, y, outer)
    assert len(leaks) == 1 and "is not in increasing order (row 1 is 2020-05-28" in leaks[0]
    said = (
        "3 splits of TimeSeriesSplit; the DatetimeIndex of X not in increasing order (row 1 is "
        "2020-05-28 00:00:00, row 0 2020-05-29 00:00:00): test rows not all dated after their "
        "training rows"
    )
    assert nested.resampling_["outer"] == said
    # the summary, the report and the saved result say it, and never that the tests come after
    assert NOT_DATED_AFTER_NOTE in _summary_notes(nested)
    assert TIME_ORDERED_NOTE not in _summary_notes(nested)
    text = nested_cv_report(nested).to_text()
    assert said in _folds_line(nested)
    assert "each tests rows after all those it trains on" not in text
    assert f"model: {NOT_DATED_AFTER_NOTE}." in text  # the report's interval caveat
    assert result_to_dict(nested)["resampling"]["outer"] == said


def test_compare_says_what_the_summary_says_of_a_newest_first_index():
    # stats.compare read only the rows' positions, and noted the folds time-ordered
    from sklearn_fair.stats import compare

    dates = pd.date_range("2020-01-01", periods=150, freq="D")
    X, y = _frame(dates)
    X, y = X.iloc[::-1], y.iloc[::-1]
    first, _ = _fit(X, y, TimeSeriesSplit(3))
    second, _ = _fit(X, y, TimeSeriesSplit(3), grid={"alpha": [100.0, 1000.0]})
    comparison = compare({"a": first, "b": second})
    assert comparison.notes == (NOT_DATED_AFTER_NOTE,)
    assert comparison.time_ordered  # repeating the same folds still adds no power
    X, y = X.iloc[::-1], y.iloc[::-1]  # back in time order
    first, _ = _fit(X, y, TimeSeriesSplit(3))
    second, _ = _fit(X, y, TimeSeriesSplit(3), grid={"alpha": [100.0, 1000.0]})
    assert compare({"a": first, "b": second}).notes == (TIME_ORDERED_NOTE,)


def test_rows_in_time_order_keep_the_time_ordered_note():
    X, y = _frame(pd.date_range("2020-01-01", periods=150, freq="D"))
    nested, leaks = _fit(X, y, TimeSeriesSplit(3))
    assert leaks == []
    assert nested.resampling_["outer"] == "3 splits of TimeSeriesSplit"
    assert TIME_ORDERED_NOTE in _summary_notes(nested)


# -- TIME-3: panel data, a MultiIndex (store, date) in sort_index() order ----------------------


def test_a_date_level_of_a_multiindex_out_of_order_warns_and_is_kept():
    dates = pd.date_range("2020-01-01", periods=60, freq="D")
    index = pd.MultiIndex.from_product([["A", "B"], dates], names=["store", "date"])
    X, y = _frame(index)
    assert X.index.is_monotonic_increasing  # the check on the index as a whole passes it
    outer = TimeSeriesSplit(3)
    level = X.index.get_level_values("date")
    late = [int((level[test] < level[train].max()).sum()) for train, test in outer.split(X)]
    assert late == [0, 30, 29]  # by hand: folds 1 and 2 test rows dated before training rows
    nested, leaks = _fit(X, y, outer)
    assert len(leaks) == 1
    assert (
        "but the DatetimeIndex level 'date' of the MultiIndex of X is not in increasing order "
        "(row 60 is 2020-01-01 00:00:00, row 59 2020-02-29 00:00:00)"
    ) in leaks[0]
    assert "X.sort_index(level='date')" in leaks[0]
    assert (
        "level 'date' of the MultiIndex of X not in increasing order"
        in (nested.resampling_["outer"])
    )
    assert TIME_ORDERED_NOTE not in _summary_notes(nested)
    assert NOT_DATED_AFTER_NOTE in _summary_notes(nested)


def test_a_multiindex_sorted_by_date_whose_outer_splits_cut_between_dates_is_time_ordered():
    dates = pd.date_range("2020-01-01", periods=60, freq="D")
    index = pd.MultiIndex.from_product([["A", "B"], dates], names=["store", "date"])
    X, y = _frame(index)
    X, y = X.sort_index(level="date"), y.sort_index(level="date")
    # 120 rows, 2 a date: TimeSeriesSplit(3) cuts at rows 30, 60, 90, between dates
    nested, leaks = _fit(X, y, TimeSeriesSplit(3))
    assert nested.resampling_["outer"] == "3 splits of TimeSeriesSplit"
    assert TIME_ORDERED_NOTE in _summary_notes(nested)
    # review40 REV-5: the default inner hold-out, the most recent 10% of each training fold
    # (3, 6 and 9 rows of 30, 60 and 90; 12 of the 120 for the final selection), cuts inside
    # a date where that count is odd: 1 row of 2 of the 4 splits. Only the outer splits were
    # checked, and nothing was said
    said = "2 test rows of 2 of the 4 splits dated on their last training date"
    assert len(leaks) == 1
    assert leaks[0].startswith("In NestedCV, the default inner hold-out (inner_cv=None) splits")
    assert said in leaks[0] and said in nested.resampling_["inner"]


# -- TIME-3: repeated dates on both sides of a split -------------------------------------------


def test_a_date_on_both_sides_of_an_outer_split_warns_and_is_kept():
    dates = pd.date_range("2020-01-01", periods=41, freq="D").repeat(3)  # 3 rows a date
    X, y = _frame(dates)
    outer = TimeSeriesSplit(3, test_size=31)
    on_training_date = [
        int((X.index[test] == X.index[train].max()).sum()) for train, test in outer.split(X)
    ]
    assert on_training_date == [0, 2, 1]  # by hand: 123 - 3 * 31 = 30 rows, then 61, 92
    nested, leaks = _fit(X, y, outer)
    said = (
        "3 test rows of 2 of the 3 splits dated on their last training date (e.g. 2 of "
        "2020-01-21 00:00:00 in outer fold 1)"
    )
    assert len(leaks) == 1 and said in leaks[0]
    assert "repeats dates and its splits cut inside a date" in leaks[0]
    assert nested.resampling_["outer"] == (
        f"3 splits of TimeSeriesSplit (test_size=31); {said}: test rows not all dated after "
        "their training rows"
    )
    assert TIME_ORDERED_NOTE not in _summary_notes(nested)
    assert NOT_DATED_AFTER_NOTE in _summary_notes(nested)


def test_a_date_on_both_sides_of_a_given_time_ordered_inner_cv_is_said_as_inner():
    # the outer k-fold is not time-ordered; inner_cv is, and its cuts fall inside dates
    dates = pd.date_range("2020-01-01", periods=40, freq="D").repeat(3)
    X, y = _frame(dates)
    inner = TimeSeriesSplit(2, test_size=31)
    nested, leaks = _fit(X, y, KFold(3), inner_cv=inner)
    # by hand, over the 3 outer training folds and all the data (final selection)
    trains = [np.sort(train) for train, _ in KFold(3).split(X)] + [np.arange(len(X))]
    n_rows = n_splits = 0
    for train in trains:
        for tr, te in inner.split(train):
            shared = int((X.index[train[te]] <= X.index[train[tr]].max()).sum())
            n_rows, n_splits = n_rows + shared, n_splits + bool(shared)
    assert n_splits > 0
    assert len(leaks) == 1 and leaks[0].startswith("In NestedCV, inner_cv=TimeSeriesSplit(")
    said = f"{n_rows} test rows of {n_splits} of the 8 splits dated on their last training date"
    assert said in leaks[0]
    assert said in nested.resampling_["inner"]
    assert nested.resampling_["outer"] == "3-fold KFold"


# -- TIME-2: the selection that sees the future, kept --------------------------------------------


def _series(n=200):
    t = np.arange(n)
    rng = np.random.RandomState(0)
    X = np.c_[np.sin(t / 10), np.cos(t / 7), rng.randn(n)]
    return X, X @ [1.0, 2.0, 0.5] + 0.01 * t + rng.randn(n) * 0.3


@pytest.mark.parametrize(
    "estimator, grid, outer, inner, said",
    [
        (
            RidgeCV(alphas=[0.1, 1.0, 10.0], cv=5),
            {"fit_intercept": [True, False]},
            TimeSeriesSplit(3),
            None,
            "the estimator's own cv=5, which sklearn-fair does not know to be time-ordered "
            "(model selection may see the future)",
        ),
        (
            SGDRegressor(early_stopping=True, random_state=0),
            {"alpha": [1e-4, 1e-2]},
            TimeSeriesSplit(3),
            None,
            "the estimator early-stopping on a hold-out of its own training rows drawn at "
            "random, not the most recent rows (early_stopping=True)",
        ),
        (
            Ridge(),
            GRID,
            TimeSeriesSplit(3, gap=5),
            TimeSeriesSplit(3),
            # by hand: TimeSeriesSplit(3) leaves no row out, in each of the 3 outer training
            # folds and all the data: 12 splits
            "12 of the 12 inner splits, in outer fold(s) 0, 1, 2 and the final selection, "
            "leaving fewer rows out between training and validation rows than the outer gap of "
            "5 (smallest gap 0)",
        ),
    ],
    ids=["hidden_cv", "own_early_stopping", "narrower_inner_gap"],
)
def test_a_selection_warned_to_see_the_future_is_kept_in_the_result(
    estimator, grid, outer, inner, said
):
    X, y = _series()
    nested, leaks = _fit(X, y, outer, estimator, grid, inner_cv=inner)
    assert len(leaks) == 1
    assert nested.resampling_["inner"].endswith(f"in each outer training fold; {said}")
    assert f"in each outer training fold; {said}" in _folds_line(nested)


def test_inner_splits_that_see_the_future_are_counted_over_what_they_are_counted_over():
    # 4 outer folds and the final selection, 3 KFold splits each: 15, of which (by hand) the
    # first two of each validate on rows before their training rows
    X, y = _series()
    nested, leaks = _fit(X, y, TimeSeriesSplit(4), inner_cv=KFold(3))
    assert len(leaks) == 1
    assert nested.resampling_["inner"] == (
        "3-fold KFold, 10 of the 15 validating on rows before their training rows (model "
        "selection sees the future), over the 4 outer training folds and the final selection"
    )
    without_final, _ = _fit(X, y, TimeSeriesSplit(4), inner_cv=KFold(3), refit=False)
    assert without_final.resampling_["inner"] == (
        "3-fold KFold, 8 of the 12 validating on rows before their training rows (model "
        "selection sees the future), over the 4 outer training folds"
    )
