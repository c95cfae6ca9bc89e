"""Splits whose training and test sets overlap on purpose (RollingOrigin with lag > 0): saved,
loaded and replayed when the caller says so, refused otherwise."""

import json
import warnings

import numpy as np
import pytest

from sklearn_fair.exceptions import InvalidSplitError
from sklearn_fair.model_selection import (
    PredefinedSplits,
    RollingOrigin,
    SavedSplits,
    load_splits,
    save_splits,
)

X = np.arange(20.0).reshape(-1, 1)
Y = np.arange(20.0)
LAGGED = RollingOrigin(initial=10, assess=3, skip=2, lag=1)


def _assert_same_splits(got, expected):
    got, expected = list(got), list(expected)
    assert len(got) == len(expected)
    for (train, test), (train_ref, test_ref) in zip(got, expected):
        np.testing.assert_array_equal(train, train_ref)
        np.testing.assert_array_equal(test, test_ref)


def test_lagged_splits_are_refused_unless_allowed(tmp_path):
    path = tmp_path / "lag.json"
    with pytest.raises(
        InvalidSplitError, match=r"\[9\]\. If the overlap is intended.*allow_overlap=True"
    ):
        save_splits(LAGGED.split(X), path, y=Y)
    assert not path.exists()
    with pytest.raises(
        InvalidSplitError, match=r"SavedSplits\(folds, n_samples=\.\.\., allow_overlap=True\)"
    ):
        list(PredefinedSplits(LAGGED.split(X)).split(X))


def test_lagged_splits_round_trip_when_allowed(tmp_path):
    path = tmp_path / "lag.json"
    save_splits(LAGGED.split(X), path, y=Y, allow_overlap=True)
    document = json.loads(path.read_text())
    assert document["allow_overlap"] is True
    # the first fold as RollingOrigin's docs count it: rows 0-9 train, 9-12 assess
    assert document["folds"][0] == {"train": list(range(10)), "test": [9, 10, 11, 12]}
    saved = load_splits(path)
    assert saved.allow_overlap
    _assert_same_splits(PredefinedSplits(saved).split(X, Y), LAGGED.split(X))
    # re-saved, it keeps saying so
    save_splits(saved, tmp_path / "again.json")
    assert json.loads((tmp_path / "again.json").read_text())["allow_overlap"] is True


def test_splits_given_directly_replay_as_saved_splits_that_allow_overlap():
    folds = list(LAGGED.split(X))
    cv = PredefinedSplits(SavedSplits(folds, n_samples=20, allow_overlap=True))
    _assert_same_splits(cv.split(X), folds)


def test_files_of_splits_that_do_not_overlap_are_written_as_before(tmp_path):
    save_splits([(np.arange(1, 20), np.array([0]))], tmp_path / "plain.json")
    document = json.loads((tmp_path / "plain.json").read_text())
    assert list(document) == [
        "format",
        "version",
        "n_samples",
        "kfold",
        "labels_fingerprint",
        "folds",
    ]


def test_an_overlapping_fold_the_size_of_the_data_is_written_out(tmp_path):
    # 3 training rows + 1 test row = 4 samples, yet row 3 is in neither and row 2 in both:
    # "every other sample" (train_is_rest) would replay training rows [0, 1, 3]
    folds = [(np.array([0, 1, 2]), np.array([2]))]
    save_splits(folds, tmp_path / "s.json", n_samples=4, allow_overlap=True)
    _assert_same_splits(load_splits(tmp_path / "s.json").folds, folds)


def test_inner_splits_that_overlap_are_saved_when_allowed(tmp_path):
    outer_train, outer_test = np.arange(15), np.arange(15, 20)
    inner = list(RollingOrigin(initial=8, assess=3, lag=2).split(np.zeros((15, 1))))
    triples = [(outer_train, outer_test, inner)]
    with pytest.raises(InvalidSplitError, match="inner splits of outer fold 0.*allow_overlap=True"):
        save_splits(triples, tmp_path / "s.json", n_samples=20)
    save_splits(triples, tmp_path / "s.json", n_samples=20, allow_overlap=True)
    _assert_same_splits(load_splits(tmp_path / "s.json").get_inner_splits(0), inner)


def _write(path, **fields):
    document = {
        "format": "sklearn-fair-splits",
        "version": 1,
        "n_samples": 4,
        "kfold": False,
        "labels_fingerprint": None,
        "folds": [{"train": [0, 1, 2], "test": [2, 3]}],
    }
    document.update(fields)
    path.write_text(json.dumps(document))
    return path


def test_a_file_that_does_not_say_its_folds_overlap_is_refused(tmp_path):
    with pytest.raises(
        InvalidSplitError, match=r'\[2\]\. A file whose splits.*"allow_overlap": true'
    ):
        load_splits(_write(tmp_path / "s.json"))
    with pytest.raises(InvalidSplitError, match=r"\[2\]\. A file whose splits"):
        load_splits(_write(tmp_path / "s.json", allow_overlap=False))
    saved = load_splits(_write(tmp_path / "s.json", allow_overlap=True))
    np.testing.assert_array_equal(saved.folds[0][1], [2, 3])


@pytest.mark.parametrize("value", [1, 0, "true", None, [True], {"yes": True}])
def test_an_allow_overlap_that_is_not_a_boolean_is_refused(tmp_path, value):
    with pytest.raises(InvalidSplitError, match="'allow_overlap' field of .*must be true or false"):
        load_splits(_write(tmp_path / "s.json", allow_overlap=value))


def test_nested_cv_replays_saved_lagged_splits_as_it_runs_them(tmp_path):
    # NestedCV took RollingOrigin(lag=1) as outer_cv but refused its saved splits replayed by
    # PredefinedSplits ("in both its training and test set"), the overlap it allows by design
    from sklearn.linear_model import Ridge

    from sklearn_fair import NestedCV
    from sklearn_fair.model_selection import load_splits

    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = X @ [1.0, 2.0, 3.0] + rng.normal(size=40)
    cv = RollingOrigin(initial=20, assess=5, skip=4, lag=1)
    path = tmp_path / "lagged.json"
    save_splits(cv.split(X), path, y=y, allow_overlap=True)
    runs = [
        NestedCV(
            Ridge(), {"alpha": [0.1, 1.0]}, outer_cv=outer,
            inner_cv=RollingOrigin(initial=8, assess=3, lag=1), n_refits=1, random_state=0,
            scoring="neg_mean_squared_error",
        ).fit(X, y)
        for outer in (cv, PredefinedSplits(load_splits(path)))
    ]  # fmt: skip
    np.testing.assert_array_equal(runs[1].outer_scores_, runs[0].outer_scores_)
    assert len(runs[1].outer_scores_) == 4


def test_permutation_check_replays_saved_lagged_splits(tmp_path):
    # the check replays saved splits without their labels' fingerprint, and dropped their
    # allow_overlap with it: every permuted run was refused
    from sklearn.linear_model import Ridge

    from sklearn_fair.leakage import permutation_check
    from sklearn_fair.model_selection import load_splits

    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 3))
    y = X @ [1.0, 2.0, 3.0] + rng.normal(size=40)
    path = tmp_path / "lagged.json"
    save_splits(
        RollingOrigin(initial=20, assess=5, skip=4, lag=1).split(X), path, y=y, allow_overlap=True
    )
    result = permutation_check(
        Ridge(), X, y, param_grid={"alpha": [0.1, 1.0]}, n_permutations=2, random_state=0,
        outer_cv=PredefinedSplits(load_splits(path)),
        inner_cv=RollingOrigin(initial=8, assess=3, lag=1),
    )  # fmt: skip
    assert len(result.permuted_estimates) == 2 and np.all(np.isfinite(result.permuted_estimates))


def test_a_file_whose_folds_train_on_their_test_rows_is_loaded_with_a_warning(tmp_path):
    # one field of a file from elsewhere let every fold train on its own test rows: NestedCV
    # reported a mean of 1.0 (0.61 on the same folds without their test rows), no output
    # said so, and the same file without the field is refused
    from sklearn_fair.exceptions import SplitLeakageWarning

    n = 20
    tests = np.array_split(np.arange(n), 4)
    folds = [{"train": list(range(n)), "test": test.tolist()} for test in tests]
    path = _write(tmp_path / "leak.json", n_samples=n, folds=folds, allow_overlap=True)
    with pytest.warns(SplitLeakageWarning, match=r"4 of their 4 folds do \(fold 0: 5 of its 5"):
        saved = load_splits(path)
    assert saved.allow_overlap and len(saved.folds) == 4
    with warnings.catch_warnings():  # a file that allows overlap its folds do not use: silent
        warnings.simplefilter("error")
        folds = [{"train": sorted(set(range(n)) - set(t)), "test": t.tolist()} for t in tests]
        load_splits(_write(tmp_path / "ok.json", n_samples=n, folds=folds, allow_overlap=True))


@pytest.mark.parametrize("value", ["false", "no", 1, None])
def test_saved_splits_given_directly_take_a_boolean_allow_overlap(value):
    # "false" read as true by bool(): overlapping folds were replayed
    folds = list(LAGGED.split(X))
    with pytest.raises(ValueError, match="'allow_overlap' parameter of SavedSplits must be Tr"):
        list(PredefinedSplits(SavedSplits(folds, n_samples=20, allow_overlap=value)).split(X))
