"""Class labels held at nanosecond precision (hunt DOC18-1): dates of ``datetime64[ns]``, what
pandas 2's ``pd.to_datetime`` gives, are kept as the dates they are, as those of
``datetime64[us]`` are, not as numpy lists them (ints of nanoseconds, equal to no label)."""

import warnings

import pandas as pd
import pytest
from sklearn.datasets import load_iris
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import BenchmarkResult, NestedCV, benchmark

X, CLASS = load_iris(return_X_y=True)
DAYS = ["2020-01-01", "2021-01-01", "2022-01-01"]
# three labels a nanosecond apart: no microsecond date holds them apart
NANOSECONDS = [f"2020-01-01 00:00:00.00000000{i}" for i in (1, 2, 3)]


def _labels(unit, values=DAYS):
    return pd.Series(pd.to_datetime(values).as_unit(unit)[CLASS])


def _benchmark(y, n_jobs=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return benchmark(
            {"tree": DecisionTreeClassifier(max_depth=2, random_state=0)}, {"d": (X, y)},
            outer_cv=3, n_refits=1, random_state=0, keep_predictions=True, n_jobs=n_jobs,
        )  # fmt: skip


def _assert_labels_of(y, predictions):
    """Each row's kept true label is ``y``'s own label of that row, each prediction one of
    ``y``'s labels."""
    assert list(predictions["y_true"]) == list(y.iloc[predictions["row"]])
    assert set(predictions["y_pred"]) <= set(y)


@pytest.mark.parametrize("n_jobs", [None, 2])
def test_ns_dates_kept_as_the_us_dates_are(n_jobs, tmp_path):
    y = _labels("ns")
    result = _benchmark(y, n_jobs)
    predictions = result.predictions

    _assert_labels_of(y, predictions)
    (cell,) = result.cells.values()
    for kept in cell.predictions:  # the lists kept, before any DataFrame reads them
        assert set(kept["classes"]) == set(y)
        assert all(label in set(y) for label in kept["y_true"] + kept["predict"][0])
    pd.testing.assert_frame_equal(predictions, _benchmark(_labels("us")).predictions)

    result.save(tmp_path / "b.json")
    loaded = BenchmarkResult.load(tmp_path / "b.json").predictions
    pd.testing.assert_frame_equal(loaded, predictions)
    _assert_labels_of(y, loaded)


def test_nested_cv_keeps_ns_dates_as_the_us_dates_are():
    def fitted(y):
        return NestedCV(
            DecisionTreeClassifier(random_state=0), {"max_depth": [2]}, outer_cv=3, inner_cv=2,
            keep_predictions=True, random_state=0,
        ).fit(X, y)  # fmt: skip

    y = _labels("ns")
    folds = fitted(y).outer_results_
    for fold, us_fold in zip(folds, fitted(_labels("us")).outer_results_):
        kept = fold["predictions"]
        assert kept["y_true"] == list(y.iloc[fold["test_indices"]])
        assert set(kept["classes"]) == set(y)
        assert set(kept["predict"][0]) <= set(y)
        assert kept == us_fold["predictions"]


def test_labels_a_nanosecond_apart_stay_apart(tmp_path):
    y = _labels("ns", NANOSECONDS)
    result = _benchmark(y)
    predictions = result.predictions

    _assert_labels_of(y, predictions)
    assert predictions["y_true"].nunique() == 3
    result.save(tmp_path / "b.json")
    loaded = BenchmarkResult.load(tmp_path / "b.json").predictions
    pd.testing.assert_frame_equal(loaded, predictions)


def test_ns_timedeltas_kept_as_time_spans_and_refused_at_save(tmp_path):
    y = pd.Series(pd.to_timedelta(CLASS, unit="D").as_unit("ns"))
    result = _benchmark(y)

    _assert_labels_of(y, result.predictions)
    # a time span is no date: refused, never saved as an int of nanoseconds
    with pytest.raises(TypeError, match="JSON cannot hold"):
        result.save(tmp_path / "b.json")


@pytest.mark.parametrize("unit", ["us", "ns"])
def test_a_cached_run_keeps_date_labels_it_cannot_store(unit, tmp_path):
    # JSON holds no date: such kept predictions are computed again, never served as ints
    y = _labels(unit)
    runs = []
    for _ in range(2):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            runs.append(
                benchmark(
                    {"tree": DecisionTreeClassifier(max_depth=2, random_state=0)},
                    {"d": (X, y)}, outer_cv=3, n_refits=1, random_state=0,
                    keep_predictions=True, cache_dir=tmp_path,
                ).predictions
            )  # fmt: skip
    for predictions in runs:
        _assert_labels_of(y, predictions)
    pd.testing.assert_frame_equal(runs[0], runs[1])
