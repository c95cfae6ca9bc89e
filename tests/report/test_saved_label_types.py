"""Kept predictions whose labels JSON has no type for (hunt PANDAS2-2): date labels are saved
in a tagged form and read back as the dates they were; other such labels are refused at save
time, never written as the text of their repr; a file is read strictly (no guess, no eval)."""

import datetime
import json
import re
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import BenchmarkResult, NestedCV, benchmark
from sklearn_fair.exceptions import InvalidResultError
from sklearn_fair.report import result_to_dict
from sklearn_fair.report._integrity import with_checksum

X, CLASS = load_iris(return_X_y=True)
DAYS = np.array(["2020-01-01", "2021-01-01", "2022-01-01"])
LABELS = {
    # a pandas Series of dates (datetime64[us]): datetime.datetime labels
    "datetime": pd.Series(pd.to_datetime(DAYS)[CLASS]),
    # a numpy array of days (datetime64[D]): datetime.date labels
    "date": DAYS.astype("datetime64[D]")[CLASS],
}
TEXT = {"datetime": "2020-01-01 00:00:00", "date": "2020-01-01"}


def _run(y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return benchmark(
            {"tree": DecisionTreeClassifier(max_depth=2, random_state=0)}, {"d": (X, y)},
            outer_cv=3, n_refits=1, random_state=0, keep_predictions=True,
        )  # fmt: skip


def _kept(result):
    (cell,) = result.cells.values()
    return cell.predictions


def _edit_labels(path, edit):
    """Rewrite the file at ``path`` with ``edit`` applied to every kept label, checksummed
    again (an older sklearn-fair's file, or a forged one that passes the checksum)."""
    document = json.loads(path.read_text())
    for fold in document["cells"][0]["result"]["outer_results"]:
        kept = fold["predictions"]
        kept["y_true"] = [edit(label) for label in kept["y_true"]]
        kept["classes"] = [edit(label) for label in kept["classes"]]
        kept["predict"] = [[edit(label) for label in refit] for refit in kept["predict"]]
    path.write_text(json.dumps(with_checksum(document)))


def _as_repr(label):
    """A saved date label as the text of its repr (as is: a label already that text)."""
    return (
        label
        if isinstance(label, str)
        else repr(datetime.datetime.fromisoformat(label["datetime"]))
    )


@pytest.mark.parametrize("kind", LABELS)
def test_date_labels_read_back_as_the_dates_they_were(kind, tmp_path):
    y = LABELS[kind]
    result = _run(y)
    before = result.predictions
    result.save(tmp_path / "b.json")
    after = BenchmarkResult.load(tmp_path / "b.json").predictions

    pd.testing.assert_frame_equal(after, before)
    # each row's true label is the data's own label of that row
    np.testing.assert_array_equal(
        pd.to_datetime(after["y_true"]), pd.to_datetime(np.asarray(y)[after["row"]])
    )
    assert (after["y_true"] == after["y_pred"]).mean() == pytest.approx(
        (before["y_true"] == before["y_pred"]).mean()
    )
    kept = _kept(BenchmarkResult.load(tmp_path / "b.json"))
    assert kept == _kept(result)
    assert {type(label) for label in kept[0]["classes"]} == {getattr(datetime, kind)}

    document = json.loads((tmp_path / "b.json").read_text())
    saved = document["cells"][0]["result"]["outer_results"][0]["predictions"]
    assert saved["classes"][0] == {kind: TEXT[kind]}


def test_result_to_dict_keeps_date_labels(tmp_path):
    y = LABELS["datetime"]
    nested = NestedCV(
        DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2]}, outer_cv=3,
        refit=False, random_state=0, keep_predictions=True,
    ).fit(X, y)  # fmt: skip
    saved = json.loads(json.dumps(result_to_dict(nested)))
    assert saved["outer_results"][0]["predictions"]["classes"] == [
        {"datetime": f"{day} 00:00:00"} for day in DAYS
    ]
    (path := tmp_path / "m.json").write_text(json.dumps(saved))
    fitted = BenchmarkResult.from_results({("d", "m"): nested}).predictions
    read = BenchmarkResult.from_results({("d", "m"): path}).predictions
    pd.testing.assert_frame_equal(read, fitted)
    assert read["y_true"].iloc[0] == pd.Timestamp(y.iloc[read["row"].iloc[0]])


def test_labels_json_cannot_hold_are_refused_at_save(tmp_path):
    # timedelta labels (pd.to_timedelta: datetime.timedelta once kept)
    y = pd.Series(pd.to_timedelta([1, 2, 3], unit="D")[CLASS])
    result = _run(y)
    with pytest.raises(TypeError, match=r"label datetime\.timedelta\(days=1\) is a datetime\.t"):
        result.save(tmp_path / "b.json")
    assert not list(tmp_path.iterdir())  # nothing written, not even half a file
    nested = NestedCV(
        DecisionTreeClassifier(random_state=0), {"max_depth": [1]}, outer_cv=3, refit=False,
        random_state=0, keep_predictions=True,
    ).fit(X, y)  # fmt: skip
    with pytest.raises(TypeError, match="keep_predictions=False"):
        result_to_dict(nested)


def test_an_older_file_of_repr_labels_reads_as_it_did(tmp_path):
    _run(LABELS["datetime"]).save(path := tmp_path / "b.json")
    # as an older sklearn-fair wrote them (a guard: this passed before the fix too)
    _edit_labels(path, _as_repr)
    kept = _kept(BenchmarkResult.load(path))
    assert kept[0]["classes"][0] == "datetime.datetime(2020, 1, 1, 0, 0)"


@pytest.mark.parametrize(
    "label",
    [
        {"datetime": "now"},  # pandas and numpy would read "now" and "today" as a date
        {"Timestamp": "today"},
        {"datetime64": "today"},
        {"datetime": "2020-01-01T00:00:00"},  # not how it is written
        {"pickle": "2020-01-01 00:00:00"},
        {"datetime": "2020-01-01 00:00:00", "date": "2020-01-01"},
        {"datetime": ["2020-01-01 00:00:00"]},
        {"datetime": "2020-01-01 00:00:00" + " " * 100},
    ],
)
def test_a_label_that_is_not_a_saved_date_is_refused(label, tmp_path):
    _run(LABELS["datetime"]).save(path := tmp_path / "b.json")
    _edit_labels(path, lambda _: label)
    with pytest.raises(InvalidResultError, match="not a saved date"):
        BenchmarkResult.load(path)


@pytest.mark.parametrize(
    "label",
    [
        pd.Timestamp("2020-01-01 00:00:00.000000001"),
        pd.Timestamp("2020-03-29 03:00", tz="Europe/Paris"),
        datetime.datetime(2020, 1, 1, 12, tzinfo=datetime.timezone(datetime.timedelta(hours=-5))),
        datetime.datetime(999, 1, 1, 0, 0, 0, 5),
        datetime.date(2020, 2, 29),
        np.datetime64("2020-01-01T00:00:00.000000001"),
        np.datetime64("2020-01", "M"),
    ],
)
def test_each_date_type_reads_back_as_its_type(label):
    from sklearn_fair.report._results import read_predictions, saved_predictions

    kept = {"y_true": [label], "classes": [label], "predict": [[label]], "proba": [[[1.0]]]}
    read = read_predictions(json.loads(json.dumps(saved_predictions(kept))), "test")
    for value in (read["y_true"][0], read["classes"][0], read["predict"][0][0]):
        assert type(value) is type(label)
        assert value == label
    assert read["proba"] == [[[1.0]]]


@pytest.mark.parametrize("label", [pd.NaT, datetime.timedelta(1), b"a", 1j, pd.Period("2020-01")])
def test_saved_predictions_refuse_other_objects(label):
    from sklearn_fair.report._results import saved_predictions

    with pytest.raises(TypeError, match=re.escape(f"label {label!r} is a")):
        saved_predictions({"y_true": [label], "predict": [[label]]})


@pytest.mark.parametrize("label", [{"datetime64": "NaT"}, {"Timestamp": "NaT"}])
def test_a_saved_nat_is_refused_as_it_is_at_save(label, tmp_path):
    # review41 REV-6: NaT is refused when saved, and was read back from an edited file
    _run(LABELS["datetime"]).save(path := tmp_path / "b.json")
    _edit_labels(path, lambda _: label)
    with pytest.raises(InvalidResultError, match="not a saved date"):
        BenchmarkResult.load(path)


def test_labels_nested_past_any_depth_are_refused_not_a_recursion_error():
    # review41 REV-2: a y_true nested 900 deep passed the file check and crashed the reading
    import json

    from sklearn.dummy import DummyClassifier

    from sklearn_fair.model_selection import NestedCV
    from sklearn_fair.report import result_to_dict

    X, y = np.arange(24.0).reshape(12, 2), np.array([0, 1] * 6)
    nested = NestedCV(
        DummyClassifier(), {}, outer_cv=2, inner_cv=2, n_refits=1, keep_predictions=True,
        random_state=0,
    ).fit(X, y)  # fmt: skip
    document = json.loads(json.dumps(result_to_dict(nested)))
    deep = 0
    for _ in range(900):
        deep = [deep]
    document["outer_results"][0]["predictions"]["y_true"][0] = deep
    with pytest.raises(InvalidResultError, match="nested too deeply"):
        BenchmarkResult.from_results({("data", "m"): document}, verify="warn")
