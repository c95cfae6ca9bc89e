"""find_duplicates and audit read splits given as boolean masks as the samples they select,
and refuse labels or splits that do not fit the data."""

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

from sklearn_fair import audit
from sklearn_fair.exceptions import InvalidSplitError
from sklearn_fair.leakage import find_duplicates


def _data():
    # rows 2 and 7 identical, row 2 trained on and row 7 tested in the split below
    X = np.arange(20, dtype=float).reshape(10, 2)
    X[7] = X[2]
    y = np.array([0, 0, 1, 0, 0, 1, 1, 1, 0, 0])
    train = np.isin(np.arange(10), [0, 1, 2, 3, 4])
    return X, y, train


def test_find_duplicates_reads_mask_splits_as_the_rows_they_select():
    X, y, train = _data()
    report = find_duplicates(X, y, splits=[(train, ~train)])
    # the same split as indices, by hand: rows 2 (train) and 7 (test) are one sample
    assert [g.tolist() for g in report.straddling] == [[2, 7]]
    assert report.n_splits_straddled == [1] and report.same_label == [True]
    as_indices = find_duplicates(X, y, splits=[(np.flatnonzero(train), np.flatnonzero(~train))])
    assert [g.tolist() for g in as_indices.straddling] == [[2, 7]]


@pytest.mark.parametrize("n_labels", [5, 8, 12])
def test_find_duplicates_refuses_labels_of_another_length(n_labels):
    X, y, train = _data()
    y = np.resize(y, n_labels)
    with pytest.raises(ValueError, match=rf"inconsistent numbers of samples: \[10, {n_labels}\]"):
        find_duplicates(X, y, splits=[(np.flatnonzero(train), np.flatnonzero(~train))])


def test_find_duplicates_refuses_indices_past_the_samples():
    X, y, _ = _data()
    with pytest.raises(InvalidSplitError, match=r"splits has test indices out of range for 10"):
        find_duplicates(X, y, splits=[(np.arange(5), np.arange(100, 105))])
    with pytest.raises(InvalidSplitError, match=r"boolean training mask of shape \(8,\)"):
        find_duplicates(X, y, splits=[(np.ones(8, bool), np.ones(10, bool))])


def _audit_data():
    rng = np.random.RandomState(0)
    X = rng.rand(40, 3)
    y = np.r_[np.zeros(20), np.ones(20)].astype(int)
    X[25], y[25] = X[3], y[3]
    first = np.arange(40) % 2 == 0
    first[3], first[25] = True, False  # rows 3 and 25 on opposite sides
    return X, y, first


@pytest.mark.parametrize("as_masks", [False, True])
def test_audit_finds_duplicates_across_mask_splits(as_masks):
    X, y, first = _audit_data()
    a, b = (first, ~first) if as_masks else (np.flatnonzero(first), np.flatnonzero(~first))
    result = audit(LogisticRegression(), X, y, cv=[(a, b), (b, a)], checks=("duplicates",))
    assert not result.passed
    assert [g.tolist() for g in result.duplicates.straddling] == [[3, 25]]
    assert result.duplicates.n_splits_straddled == [2]


def test_audit_counts_groups_across_mask_splits():
    X, y, first = _audit_data()
    groups = np.arange(40) // 4
    result = audit(
        LogisticRegression(), X, y, cv=[(first, ~first)], groups=groups, checks=("duplicates",)
    )
    # by hand: every group of 4 consecutive rows has rows on both sides
    both = {g for g in range(10) if first[groups == g].any() and (~first)[groups == g].any()}
    assert result.groups_on_both_sides == (len(both), 10)


def test_audit_refuses_masks_of_another_length():
    X, y, first = _audit_data()
    with pytest.raises(InvalidSplitError, match=r"Fold 0 of cv has a boolean training mask"):
        audit(LogisticRegression(), X, y, cv=[(first[:30], ~first)], checks=("duplicates",))
