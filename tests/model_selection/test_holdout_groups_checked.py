"""HoldoutSplit checks its groups as NestedCV does (hunt SPLITTERS-1): two-column groups gave
indices past the last row (19 of 10 rows) or numpy's "array is not broadcastable", groups
holding None a raw TypeError, groups of another length scikit-learn's "inconsistent numbers
of samples" that names no input. A one-column groups is its column."""

import re

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupShuffleSplit, cross_validate

from sklearn_fair import NestedCV
from sklearn_fair.model_selection import HoldoutSplit

rng = np.random.RandomState(0)
X, y = rng.randn(40, 2), np.tile([0, 1], 20)

CUTS = [
    HoldoutSplit(0.25, random_state=0),
    HoldoutSplit(0.25, stratify=True, random_state=0),
    HoldoutSplit(0.25, shuffle=False),
]
IDS = ["shuffled", "stratified", "time-ordered"]


def _nested_refusal(groups):
    """NestedCV's words for these groups (the reference)."""
    nested = NestedCV(LogisticRegression(), {"C": [1.0]}, outer_cv=CUTS[0], inner_cv=CUTS[0])
    with pytest.raises(ValueError) as error:
        nested.fit(X, y, groups=groups)
    return str(error.value)


@pytest.mark.parametrize("cv", CUTS, ids=IDS)
def test_two_column_groups_are_refused_in_nesteds_words(cv):
    groups = np.arange(80).reshape(40, 2) % 5
    message = _nested_refusal(groups)
    assert "groups" in message and "(40, 2)" in message
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        next(cv.split(X, y, groups))
    with pytest.raises(ValueError, match=re.escape(message)):
        cross_validate(LogisticRegression(), X, y, groups=groups, cv=cv, error_score="raise")


@pytest.mark.parametrize("cv", CUTS, ids=IDS)
def test_missing_group_labels_are_refused_naming_their_positions(cv):
    groups = np.array(["a", "b", None, "c"] * 10, dtype=object)
    message = _nested_refusal(groups)
    positions = str(list(range(2, 40, 4)))  # every fourth row from row 2: 10 rows
    assert positions in message
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        next(cv.split(X, y, groups))


@pytest.mark.parametrize("cv", CUTS, ids=IDS)
def test_groups_of_another_length_are_refused_naming_groups(cv):
    with pytest.raises(ValueError, match=r"^groups must hold one group label per row of X "
                       r"\(40 rows\); got 30 labels\.$"):  # fmt: skip
        next(cv.split(X, y, np.arange(30) % 5))


@pytest.mark.parametrize("cv", CUTS, ids=IDS)
def test_one_column_groups_split_as_their_column(cv):
    groups = np.repeat(np.arange(8), 5)
    flat = next(cv.split(X, y, groups))
    column = next(cv.split(X, y, groups.reshape(-1, 1)))
    for part, reference in zip(column, flat):
        np.testing.assert_array_equal(part, reference)
    train, test = column
    # every row once, no group on both sides: what scikit-learn's grouped split guarantees
    reference_train, reference_test = next(GroupShuffleSplit(1, random_state=0).split(X, y, groups))
    assert sorted([*train, *test]) == sorted([*reference_train, *reference_test]) == list(range(40))
    assert not set(groups[train]) & set(groups[test])
