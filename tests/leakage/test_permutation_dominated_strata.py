"""permutation_check permutes the labels among the groups of each size only where that leaves
about as many rows at their real label as a permutation of all rows (hunt DOC12)."""

import warnings

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold

from sklearn_fair.exceptions import SklearnFairWarning
from sklearn_fair.leakage import permutation_check


def _honest_groups(sizes, labels, seed=0):
    """One label a group, X a real signal of the label (no leak)."""
    groups = np.repeat(np.arange(len(sizes)), sizes)
    y = np.repeat(labels, sizes)
    X = y[:, None] + np.random.default_rng(seed).normal(size=(len(y), 3))
    return X, y, groups


def _check_recording_labels(X, y, groups):
    seen = []

    def prepare(X, y):  # leaks nothing
        seen.append(np.asarray(y).copy())
        return X, y

    report = permutation_check(
        LogisticRegression(), X, y, prepare=prepare, groups=groups,
        outer_cv=GroupKFold(4), inner_cv=GroupKFold(3), param_grid={"C": [0.1, 1.0]},
        n_permutations=5, with_estimate=False, random_state=0,
    )  # fmt: skip
    return report, seen[1:]  # the labels as given (to read the scored labels), then permuted


def test_sizes_each_held_mostly_by_one_label_are_permuted_row_by_row():
    # 16 groups of 4 rows (15 of label 0, 1 of label 1) and 16 of 8 rows (the reverse): every
    # size holds both labels, yet permuted among the groups of each size 88% of the rows kept
    # their label, and an honest model scored 0.743 against a chance of 0.571
    X, y, groups = _honest_groups([4] * 16 + [8] * 16, [0] * 15 + [1] + [0] + [1] * 15)
    with pytest.warns(
        SklearnFairWarning,
        match=r"each size, 88% of the rows would keep their label, against 54% for a "
        r"permutation of all rows.*row by row",
    ):
        report, permuted = _check_recording_labels(X, y, groups)
    for labels in permuted:
        assert np.array_equal(np.sort(labels), np.sort(y))  # each label's share kept
        assert np.mean(labels == y) < 0.7  # about 54% by chance, not 88%
    assert not report.leaks, report


def test_sizes_holding_the_labels_in_like_shares_are_still_permuted_among_groups():
    # 10:6 and 6:10: 53% of the rows would keep their label, against 50% for all rows
    X, y, groups = _honest_groups([4] * 16 + [8] * 16, [0] * 10 + [1] * 6 + [0] * 6 + [1] * 10)
    with warnings.catch_warnings():
        warnings.simplefilter("error", SklearnFairWarning)
        report, permuted = _check_recording_labels(X, y, groups)
    for labels in permuted:  # whole groups take the label of another group of their size
        assert all(np.unique(labels[groups == g]).size == 1 for g in range(32))
        assert np.array_equal(np.sort(labels[groups < 16]), np.sort(y[groups < 16]))
    assert not report.leaks, report
