"""Splits files and hand-built splits that loaded wrong, crashed or were misnamed in errors:
training rows repeated in a k-fold file, a count where inner splits belong, and the
gnn-comparison inner splits named by keys their files do not have."""

import json

import numpy as np
import pytest
from sklearn.model_selection import KFold

from sklearn_fair.exceptions import InvalidSplitError
from sklearn_fair.model_selection import (
    Bootstrap,
    PredefinedSplits,
    SavedSplits,
    load_splits,
    save_splits,
)


def write_json(tmp_path, name, document):
    path = tmp_path / name
    path.write_text(json.dumps(document))
    return path


def sklearn_fair_file(tmp_path, name, folds, **fields):
    document = {
        "format": "sklearn-fair-splits",
        "version": 1,
        "n_samples": 6,
        "labels_fingerprint": None,
        **fields,
        "folds": folds,
    }
    return write_json(tmp_path, name, document)


# SPLITFILES-3: a file that says "kfold": true trained on row 3 three times, without a word


def test_kfold_file_refuses_repeated_training_indices(tmp_path):
    folds = [{"train": [3, 3, 3, 4, 5], "test": [0, 1, 2]}, {"train": [0, 1, 2], "test": [3, 4, 5]}]
    path = sklearn_fair_file(tmp_path, "kfold_dup.json", folds, kfold=True)
    match = (
        r"Fold 0 of the splits in kfold_dup\.json lists training indices more than once: "
        r"\[3\]\. These splits say they are k-fold"
    )
    with pytest.raises(InvalidSplitError, match=match):
        load_splits(path)


def test_saved_splits_said_kfold_refuse_repeated_training_indices():
    saved = SavedSplits(
        [(np.array([3, 3, 4, 5]), np.array([0, 1, 2])), (np.array([0, 1, 2]), np.array([3, 4, 5]))],
        n_samples=6,
        kfold=True,
    )
    match = r"Fold 0 of PredefinedSplits lists training indices more than once: \[3\]"
    with pytest.raises(InvalidSplitError, match=match):
        PredefinedSplits(saved).get_n_splits()


def test_bootstrap_file_keeps_its_repeated_training_indices(tmp_path):
    folds = [
        {"train": [3, 3, 3, 4, 5], "test": [0, 1, 2]},
        {"train": [0, 0, 1, 2], "test": [3, 4, 5]},
    ]
    for kfold in (False, None):
        fields = {} if kfold is None else {"kfold": kfold}
        saved = load_splits(sklearn_fair_file(tmp_path, "boot.json", folds, **fields))
        assert saved.folds[0][0].tolist() == [3, 3, 3, 4, 5]
        assert saved.folds[1][0].tolist() == [0, 0, 1, 2]
        # test sets that partition the rows do not make bootstrap resamples k-fold
        assert saved.kfold is False
        assert PredefinedSplits(saved).get_n_splits() == 2


@pytest.mark.parametrize(
    "n_samples, n_resamples, random_state",
    [
        (30, 5, 0),
        # on 2 rows, these 2 resamples draw [1, 1] and [0, 0]: their out-of-bag test sets
        # partition the rows, and the file once said "kfold": true, which it cannot keep
        (2, 2, 1),
    ],
)
def test_bootstrap_splits_round_trip(tmp_path, n_samples, n_resamples, random_state):
    X = np.zeros((n_samples, 1))
    folds = list(Bootstrap(n_resamples=n_resamples, random_state=random_state).split(X))
    assert any(np.unique(train).size < train.size for train, _ in folds)
    path = tmp_path / "bootstrap.json"
    save_splits(folds, path)
    assert json.loads(path.read_text())["kfold"] is False
    saved = load_splits(path)
    for (train, test), (saved_train, saved_test) in zip(folds, saved.folds, strict=True):
        np.testing.assert_array_equal(saved_train, train)
        np.testing.assert_array_equal(saved_test, test)
    assert [t.tolist() for t, _ in PredefinedSplits(saved).split(X)] == [
        t.tolist() for t, _ in folds
    ]


def test_kfold_file_with_bootstrap_inner_splits_round_trips(tmp_path):
    # a k-fold outer loop may select its model on bootstrap resamples: "kfold" is of the outer
    # folds, and the inner splits keep their repeated training indices
    X = np.zeros((20, 1))
    triples = []
    for train, test in KFold(4).split(X):
        inner = [
            (train[inner_train], train[inner_test])
            for inner_train, inner_test in Bootstrap(3, random_state=0).split(train)
        ]
        triples.append((train, test, inner))
    path = tmp_path / "kfold_bootstrap_inner.json"
    save_splits(triples, path)
    saved = load_splits(path)
    assert saved.kfold is True
    for fold, (_, _, inner) in enumerate(triples):
        for (train, test), (saved_train, saved_test) in zip(
            inner, saved.get_inner_splits(fold), strict=True
        ):
            np.testing.assert_array_equal(saved_train, train)
            np.testing.assert_array_equal(saved_test, test)


# SPLITFILES-2: a count as a fold's inner splits raised "'int' object is not iterable"


@pytest.mark.parametrize(
    "inner, message",
    [
        # NestedCV.outer_results_[k]["inner_splits"] is the count of inner splits
        (1, r"The inner splits of fold 0 of {name} \(its third item\) must be None or a list "
            r"of \(train, test\) pairs; got int 1\."),
        ([1], r"Inner split 0 of fold 0 of {name} is not a \(train, test\) pair of index "
              r"arrays; got int 1\."),
        ("01", r"The inner splits of fold 0 of {name} .* got str '01'\."),
    ],
)  # fmt: skip
def test_inner_splits_that_are_not_pairs_are_refused(tmp_path, inner, message):
    splits = [(np.arange(2, 6), np.arange(2), inner)]
    with pytest.raises(InvalidSplitError, match=message.format(name="splits")):
        save_splits(splits, tmp_path / "s.json")
    with pytest.raises(InvalidSplitError, match=message.format(name="PredefinedSplits")):
        PredefinedSplits(splits).get_n_splits()
    assert not (tmp_path / "s.json").exists()


# SPLITFILES-4: gnn-comparison inner splits named by a "test" set that their files do not
# have: the keys are "train" and "validation"


def gnn_document(inner_of_fold_0):
    return [
        {"test": [0, 1], "model_selection": [inner_of_fold_0]},
        {"test": [2, 3], "model_selection": [{"train": [0], "validation": [1]}]},
    ]


INNER_0 = r"^Fold 0 of the inner splits of outer fold 0 of the splits in g\.json "


@pytest.mark.parametrize(
    "inner, message",
    [
        ({"train": [2, 3], "validation": []}, INNER_0 + r"has an empty 'validation' set\.$"),
        (
            {"train": [2], "validation": [3, 3]},
            INNER_0 + r"lists 'validation' indices more than once: \[3\]\.$",
        ),
        (
            {"train": [2, 3], "validation": [3]},
            INNER_0 + r"has indices in both its 'train' and 'validation' set: \[3\]\.$",
        ),
        (
            {"train": [2, 2], "validation": [3]},
            r"^model_selection\[0\] of outer fold 0 of the splits in g\.json lists 'train' "
            r"indices more than once: \[2\]\. A gnn-comparison file's splits partition",
        ),
    ],
)
def test_gnn_inner_split_errors_use_the_files_keys(tmp_path, inner, message):
    path = write_json(tmp_path, "g.json", gnn_document(inner))
    with pytest.raises(InvalidSplitError, match=message):
        load_splits(path, format="gnn-comparison")
