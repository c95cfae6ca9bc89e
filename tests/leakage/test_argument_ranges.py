"""audit and permutation_check refuse a negative tolerance, a chance outside the scorer's range
and a chance + tolerance past its top, before any fit: on clean data tolerance=-0.1 printed
"LEAKS FOUND ... clearly above chance (0.495)" although the interval [0.477, 0.596] holds
0.495, and tolerance=5 (a percent) could flag no leak. chance_level refuses labels that are
empty or hold NaN (it counted NaN as a class: 0.4918), and find_duplicates an X of no rows
(numpy's "cannot reshape array of size 0")."""

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_fair.leakage import audit, chance_level, find_duplicates, permutation_check

X, y = make_classification(40, 4, random_state=0)


def run(owner, **kwargs):
    """``owner`` (audit or permutation_check) on clean data, as cheaply as it runs."""
    if owner == "audit":
        return audit(LogisticRegression(), X, y, cv=2, checks=["permutation"],
                     n_permutations=2, random_state=0, **kwargs)  # fmt: skip
    return permutation_check(LogisticRegression(), X, y, outer_cv=2, n_permutations=2,
                             with_estimate=False, random_state=0, **kwargs)  # fmt: skip


@pytest.mark.parametrize("owner", ["audit", "permutation_check"])
def test_a_negative_tolerance_is_refused(owner):
    with pytest.raises(InvalidParameterError) as error:
        run(owner, tolerance=-0.1)
    message = str(error.value)
    assert f"The 'tolerance' parameter of {owner}" in message
    assert "range [0.0, inf). Got -0.1 instead." in message


@pytest.mark.parametrize("owner", ["audit", "permutation_check"])
@pytest.mark.parametrize("chance", [1.5, -3.0])
def test_a_chance_outside_the_scorer_range_is_refused(owner, chance):
    with pytest.raises(ValueError) as error:
        run(owner, chance=chance)
    message = str(error.value)
    assert f"The 'chance' parameter of {owner} must lie in [0, 1]" in message
    assert f"the 'accuracy' scores. Got {chance!r} instead." in message


@pytest.mark.parametrize("owner", ["audit", "permutation_check"])
@pytest.mark.parametrize(
    "kwargs, given",
    [({"tolerance": 5}, "Got 5 with a chance of at least 0.0"),  # a percent
     ({"chance": 0.5, "tolerance": 0.5}, "Got 0.5 with chance 0.5"),
     ({"scoring": "roc_auc", "tolerance": 0.6}, "Got 0.6 with chance 0.5")],  # fixed chance
)  # fmt: skip
def test_a_tolerance_that_no_score_can_exceed_is_refused(owner, kwargs, given):
    with pytest.raises(ValueError) as error:
        run(owner, **kwargs)
    message = str(error.value)
    assert f"The 'tolerance' parameter of {owner} must keep chance + tolerance below 1.0" in message
    assert "the top of [0, 1]" in message and f"{given} instead" in message


def test_a_chance_of_a_scorer_of_unknown_range_is_taken_as_given():
    report = permutation_check(
        LogisticRegression(), X, y, outer_cv=2, n_permutations=2, with_estimate=False,
        chance=5.0, tolerance=0.0, scoring=lambda estimator, X, y: 0.5, random_state=0,
    )  # fmt: skip
    assert report.chance == 5.0 and report.tolerance == 0.0
    assert not report.leaks


@pytest.mark.parametrize(
    "labels, what",
    [(np.r_[y, np.nan], "contains 1 NaN or missing value(s), at positions [40]"),
     (np.array([0.0, np.nan, 1.0, 1.0]), "contains 1 NaN or missing value(s), at positions [1]"),
     ([], "must hold at least one label for 'accuracy'. Got an empty array of shape (0,)")],
)  # fmt: skip
def test_chance_level_refuses_labels_that_are_empty_or_nan(labels, what):
    with pytest.raises(ValueError) as error:
        chance_level("accuracy", labels)
    assert f"The 'y' parameter of chance_level {what}" in str(error.value)


def test_chance_level_of_labels_without_nan_is_the_majority_rate():
    # the reference: 3 of 4 labels are 1
    assert chance_level("accuracy", np.array([0.0, 1.0, 1.0, 1.0])) == 0.75


@pytest.mark.parametrize("empty, shape", [(X[:0], " (shape (0, 4))"), ([], "")])
def test_find_duplicates_refuses_an_x_of_no_samples(empty, shape):
    with pytest.raises(ValueError) as error:
        find_duplicates(empty)
    assert str(error.value) == (
        "The 'X' parameter of find_duplicates must hold at least 1 sample. Got an X of 0 "
        f"samples{shape} instead."
    )
