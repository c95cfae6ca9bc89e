"""HoldoutSplit's grouped, stratified hold-out: its size, and the kinds of y it stratifies.

The references are scikit-learn's group splitters (GroupShuffleSplit's size for the same
test_size, StratifiedGroupKFold's folds), StratifiedShuffleSplit's class counts and hand counts.
"""

import numpy as np
import pytest
from sklearn.model_selection import (
    GroupShuffleSplit,
    StratifiedGroupKFold,
    StratifiedShuffleSplit,
)

from sklearn_fair.model_selection import HoldoutSplit

# 200 rows, 10 classes; 40 groups (patients) of 5 rows, each group of one class, 4 per class
ONE_CLASS_GROUPS = np.repeat(np.arange(40), 5)
ONE_CLASS_Y = ONE_CLASS_GROUPS // 4
X200 = np.zeros((200, 1))


@pytest.mark.parametrize("test_size", [0.1, 0.15, 0.2])
def test_groups_of_one_class_fill_the_stratified_holdout(test_size):
    # each class's share of the target (2, 3 or 4 rows) is smaller than one of its groups:
    # the hold-out still takes test_size of the rows, as GroupShuffleSplit does (4, 6 or 8
    # groups of 5), one group of a class at most, instead of one group or all ten classes
    for seed in range(20):
        _, reference = next(
            GroupShuffleSplit(1, test_size=test_size, random_state=seed).split(
                X200, ONE_CLASS_Y, ONE_CLASS_GROUPS
            )
        )
        cv = HoldoutSplit(test_size, random_state=seed)
        train, test = next(cv.split(X200, ONE_CLASS_Y, ONE_CLASS_GROUPS))
        assert test.size == reference.size == 200 * test_size
        per_class = np.bincount(ONE_CLASS_Y[test], minlength=10)
        assert per_class.max() == 5 and np.count_nonzero(per_class) == test.size // 5
        assert not set(ONE_CLASS_GROUPS[train]) & set(ONE_CLASS_GROUPS[test])


def test_default_inner_holdout_of_one_class_groups_nears_its_target():
    # NestedCV's default inner split on each outer training fold: HoldoutSplit(0.1,
    # stratify=True) with the groups; the target is 16 or 17 rows, groups are 5 rows, so
    # 15 (three groups, of three classes) is as near as whole groups come
    outer = StratifiedGroupKFold(5, shuffle=True, random_state=0)
    for fold, (outer_train, _) in enumerate(outer.split(X200, ONE_CLASS_Y, ONE_CLASS_GROUPS)):
        y, groups = ONE_CLASS_Y[outer_train], ONE_CLASS_GROUPS[outer_train]
        cv = HoldoutSplit(0.1, stratify=True, random_state=fold)
        _, test = next(cv.split(X200[outer_train], y, groups))
        target = int(np.ceil(0.1 * outer_train.size))
        assert abs(test.size - target) <= 2.5, (fold, test.size, target)
        assert np.unique(y[test]).size == test.size // 5


@pytest.mark.parametrize("y", [None, np.arange(20) % 2, np.zeros(20, dtype=int)])
def test_greedy_sizes_of_the_user_guide_hold(y):
    # the user guide: groups of 6, 5, 5 and 4 rows with a target of 10 give 9, 10 or 11
    # validation rows depending on the seed (6 + 4 and 5 + 5 would hit 10)
    groups = np.repeat(np.arange(4), [6, 5, 5, 4])
    sizes = {
        next(HoldoutSplit(10, random_state=seed).split(np.zeros((20, 1)), y, groups))[1].size
        for seed in range(100)
    }
    assert sizes == {9, 10, 11}


@pytest.mark.parametrize("seed", range(30))
def test_single_row_groups_follow_stratified_shuffle_split(seed):
    # whole groups of one row constrain nothing: the size and each class's count stay
    # within one row of StratifiedShuffleSplit's (which rounds the class counts exactly)
    rng = np.random.default_rng(seed)
    n = int(rng.integers(50, 120))
    y = rng.integers(0, 5, n)
    X = np.zeros((n, 1))
    _, test = next(HoldoutSplit(0.2, random_state=seed).split(X, y, np.arange(n)))
    _, ref = next(StratifiedShuffleSplit(1, test_size=0.2, random_state=seed).split(X, y))
    assert abs(test.size - ref.size) <= 1
    assert np.abs(np.bincount(y[test], minlength=5) - np.bincount(y[ref], minlength=5)).max() <= 1


def test_two_dimensional_y_is_stratified_on_its_distinct_rows():
    # as StratifiedShuffleSplit does: each distinct row of a 2-D y is a class
    rng = np.random.default_rng(0)
    groups = np.repeat(np.arange(30), rng.integers(1, 5, 30))
    Y = rng.integers(0, 2, (groups.size, 2))
    rows = np.unique(Y, axis=0, return_inverse=True)[1].reshape(-1)
    X = np.zeros((groups.size, 1))
    for seed in range(5):
        cv = HoldoutSplit(0.3, stratify=True, random_state=seed)
        train, test = next(cv.split(X, Y, groups))
        train_1d, test_1d = next(cv.split(X, rows, groups))
        np.testing.assert_array_equal(test, test_1d)
        np.testing.assert_array_equal(train, train_1d)


def test_continuous_y_is_refused_grouped_as_ungrouped():
    X = np.zeros((20, 1))
    y = np.random.RandomState(0).randn(20)
    cv = HoldoutSplit(0.3, stratify=True, random_state=0)
    with pytest.raises(ValueError, match="least populated class"):
        next(cv.split(X, y))
    with pytest.raises(ValueError, match=r"continuous.*20 of its 20 classes.*stratify=False"):
        next(cv.split(X, y, np.arange(20) // 2))
    train, test = next(
        HoldoutSplit(0.3, stratify=False, random_state=0).split(X, y, np.arange(20) // 2)
    )
    assert test.size == 6


def test_a_rare_class_is_still_held_out_in_whole_groups():
    # whole groups need no member of each class on each side: a class of one member is
    # taken as it is (NestedCV relies on it), unlike StratifiedShuffleSplit
    y = np.array([0] * 10 + [1] * 9 + [2])
    groups = np.arange(20) // 2
    train, test = next(HoldoutSplit(0.3, stratify=True, random_state=0).split(X200[:20], y, groups))
    assert train.size + test.size == 20 and test.size == 6
