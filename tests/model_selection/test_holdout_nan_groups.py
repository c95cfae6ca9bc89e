"""HoldoutSplit refuses NaN groups as scikit-learn's group splitters do: it took the rows
without a group for one group (np.unique merges NaNs), and kept them together. Its message
names their positions, as NestedCV's does (hunt SPLITTERS-1)."""

import re

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold, GroupShuffleSplit, cross_validate

from sklearn_fair.model_selection import HoldoutSplit

rng = np.random.RandomState(0)
X, y = rng.randn(40, 2), np.tile([0, 1], 20)


def _groups(nan_rows, as_objects=False):
    groups = np.repeat(np.arange(8.0), 5)
    groups[nan_rows] = np.nan
    if as_objects:  # identifiers read from a file, some missing
        return np.array([g if g != g else f"p{g:.0f}" for g in groups], dtype=object)
    return groups


def _refusal(groups):
    """scikit-learn's own message for these groups (the reference)."""
    with pytest.raises(ValueError) as error:
        next(GroupShuffleSplit(1, test_size=0.25, random_state=0).split(X, y, groups))
    with pytest.raises(ValueError, match=re.escape(str(error.value))):
        next(GroupKFold(3).split(X, y, groups))
    return str(error.value)


CUTS = [
    HoldoutSplit(test_size=0.25, random_state=0),
    HoldoutSplit(test_size=0.25, stratify=True, random_state=0),
    HoldoutSplit(test_size=0.25, shuffle=False),
    HoldoutSplit(test_size=0.25, shuffle=False, gap=2),
]


@pytest.mark.parametrize("cv", CUTS, ids=["shuffled", "stratified", "time-ordered", "gap"])
@pytest.mark.parametrize("as_objects", [False, True])
@pytest.mark.parametrize("nan_rows", [[0, 7, 14, 21, 28], [36]])
def test_nan_groups_are_refused_as_scikit_learns_group_splitters_refuse_them(
    cv, as_objects, nan_rows
):
    groups = _groups(nan_rows, as_objects)
    message = _refusal(groups)
    assert "contains NaN" in message
    # the shuffled split kept the 5 NaN rows together on one side; time-ordered, one NaN row
    # at 36 was blamed on the real groups: "every cut point falls inside a group"
    ours = (
        f"groups contains {len(nan_rows)} NaN or missing value(s), at positions {nan_rows}; "
        "give those rows their group or remove them"
    )
    with pytest.raises(ValueError, match=f"^{re.escape(ours)}"):
        next(cv.split(X, y, groups))
    with pytest.raises(ValueError, match=re.escape(ours)):
        cross_validate(LogisticRegression(), X, y, groups=groups, cv=cv, error_score="raise")


def test_nan_groups_refusal_names_no_nested_cross_validation_that_is_not_run():
    # a HoldoutSplit used alone, or by scikit-learn's cross_validate, runs no nested
    # cross-validation: the refusal said "... remove them before nested cross-validation."
    groups = _groups([3])
    for run in (
        lambda: next(HoldoutSplit(test_size=0.25, random_state=0).split(X, y, groups)),
        lambda: cross_validate(
            LogisticRegression(), X, y, groups=groups, cv=HoldoutSplit(), error_score="raise"
        ),
    ):
        with pytest.raises(ValueError, match="remove them before splitting") as refused:
            run()
        assert "nested" not in str(refused.value)


def test_groups_without_nan_split_as_before():
    groups = _groups([])
    # whole groups on either side, and the time-ordered cut between two groups
    train, test = next(HoldoutSplit(test_size=0.25, random_state=0).split(X, y, groups))
    assert not set(groups[train]) & set(groups[test])
    train, test = next(HoldoutSplit(test_size=0.25, shuffle=False).split(X, y, groups))
    assert test.tolist() == list(range(30, 40)) and train.tolist() == list(range(30))
