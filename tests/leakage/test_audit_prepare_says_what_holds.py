"""What audit says of a prepare (hunt LEAKAGE, LEAKAGE-1 and LEAKAGE-2): a monotone change of
a regressor's target keeps the rows, as permutation_check reads it, and the resampling flag
says only the clauses that hold."""

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import GroupKFold, StratifiedKFold
from sklearn.preprocessing import StandardScaler
from sklearn.utils import resample

from sklearn_fair import audit


def _patients():
    """10 patients of 6 identical rows each, and a positive target."""
    rng = np.random.default_rng(0)
    X = np.repeat(rng.normal(size=(10, 3)), 6, axis=0)
    y = np.exp(rng.normal(size=60))
    return X, y, np.repeat(np.arange(10), 6)


def _scale_and_log(X, y):
    return StandardScaler().fit_transform(X), np.log(y)


def _scale_and_log_shuffled(X, y):
    order = np.random.default_rng(1).permutation(len(y))
    return StandardScaler().fit_transform(X)[order], np.log(y)[order]


@pytest.mark.parametrize("cv", [4, GroupKFold(4)])
def test_a_log_target_keeps_a_regressors_rows_and_groups(cv):
    # LEAKAGE-1: flagged 2 groups of identical rows across a split (cv=4) and refused
    # GroupKFold(4) ("prepare returned 60 samples that are not the 60 given, in their order")
    X, y, groups = _patients()
    found = audit(Ridge(), X, y, cv=cv, groups=groups, prepare=_scale_and_log, checks="duplicates")
    # by hand: GroupKFold keeps each patient's identical rows on one side of every split
    straddling = sum(
        np.intersect1d(groups[train], groups[test]).size
        for train, test in GroupKFold(4).split(X, y, groups)
    )
    assert straddling == 0
    assert found.rows_kept is True and found.passed
    assert len(found.duplicates.groups) == 10 and found.duplicates.straddling == []
    assert found.groups_on_both_sides == (0, 10) and found.notes == []


def test_rows_moved_with_a_log_target_are_still_other_rows():
    # the rule is not "any change of y": rows moved (shuffled) are other rows
    X, y, groups = _patients()
    found = audit(Ridge(), X, y, cv=4, prepare=_scale_and_log_shuffled, checks="duplicates")
    assert found.rows_kept is False
    with pytest.raises(ValueError, match="not the 60 given, in their order"):
        audit(
            Ridge(), X, y, cv=GroupKFold(4), groups=groups, prepare=_scale_and_log_shuffled,
            checks="duplicates",
        )  # fmt: skip


def _imbalanced():
    rng = np.random.default_rng(0)
    return rng.normal(size=(60, 3)), (rng.random(60) < 0.25).astype(int)


def test_undersampling_is_not_said_to_test_on_copies():
    # LEAKAGE-2: after undersampling (no copies, none across a split) the flag said the test
    # folds may "test on copies of training samples"
    from imblearn.under_sampling import RandomUnderSampler

    X, y = _imbalanced()

    def under(X, y):
        return RandomUnderSampler(random_state=0).fit_resample(X, y)

    found = audit(
        LogisticRegression(), X, y, cv=StratifiedKFold(3), prepare=under, checks="duplicates"
    )
    X_down, y_down = under(X, y)
    assert np.unique(X_down, axis=0).shape[0] == len(X_down)  # by hand: no copies
    assert abs(np.mean(y_down) - np.mean(y)) > 0.05  # the balance moved
    (flag,) = found.flags
    assert flag.endswith("test folds no longer have the data's class balance")
    assert "copies of training" not in flag


@pytest.mark.parametrize(
    "checks, said", [("duplicates", "test folds hold"), ("prefit", "test folds can hold")]
)
def test_a_bootstrap_keeping_the_shares_is_not_said_to_lose_the_balance(checks, said):
    # LEAKAGE-2: a same-size bootstrap that keeps each class's share was said to leave test
    # folds that "no longer have the data's class balance"
    X, y = _imbalanced()

    def bootstrap(X, y):
        return resample(X, y, stratify=y, random_state=0)

    X_boot, y_boot = bootstrap(X, y)
    assert np.array_equal(np.bincount(y_boot), np.bincount(y))  # by hand: the same shares
    assert np.unique(X_boot, axis=0).shape[0] < len(X_boot)  # and copies
    found = audit(
        LogisticRegression(), X, y, cv=StratifiedKFold(3), prepare=bootstrap, checks=checks
    )
    (flag,) = [f for f in found.flags if f.startswith("resampling before splitting")]
    assert flag.endswith(f"; {said} copies of training samples")
    assert "class balance" not in flag


def test_rows_reversed_on_a_sorted_target_are_other_rows():
    # review44b REV-1: on a target stored sorted, rows reversed give labels that are a
    # decreasing function of those given: moved rows, not kept ones
    rng = np.random.default_rng(0)
    sizes = [3, 9, 4, 8, 5, 7, 6, 6, 2, 10]
    X = np.repeat(rng.normal(size=(10, 3)), sizes, axis=0)
    groups = np.repeat(np.arange(10), sizes)
    y = np.sort(np.exp(rng.normal(size=60)))

    def largest_first(X, y):
        order = np.argsort(-y)
        return StandardScaler().fit_transform(X)[order], y[order]

    assert audit(Ridge(), X, y, cv=4, prepare=largest_first, checks="duplicates").rows_kept is False
    with pytest.raises(ValueError, match="not the 60 given, in their order"):
        audit(
            Ridge(), X, y, cv=GroupKFold(4), groups=groups, prepare=largest_first,
            checks="duplicates",
        )  # fmt: skip
