"""``audit`` reads groups given as one column (``df[["patient"]]``, shape ``(n, 1)``) as that
column, as NestedCV does (hunt DOC16, DOC16-4; SPLITX-2's rule). Before,
``audit(LR, X, y, groups=g.reshape(-1, 1), cv=GroupKFold(3))`` failed with numpy's
"object too deep for desired array"."""

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold, KFold

from sklearn_fair import audit
from sklearn_fair.leakage import permutation_check

X, y = load_iris(return_X_y=True)
GROUPS = np.random.RandomState(0).randint(0, 12, len(y))
ONE_COLUMN = [GROUPS.reshape(-1, 1), pd.DataFrame({"patient": GROUPS})]
IDS = ["(n, 1) array", "one-column DataFrame"]


def _straddling(cv):
    """The groups that ``cv``'s splits put on both sides, counted by hand."""
    both = set()
    for train, test in cv.split(X, y, GROUPS):
        both |= set(GROUPS[train]) & set(GROUPS[test])
    return len(both), len(set(GROUPS))


@pytest.mark.parametrize("groups", ONE_COLUMN, ids=IDS)
@pytest.mark.parametrize("cv", [GroupKFold(3), KFold(3)], ids=["GroupKFold", "KFold"])
def test_audit_reads_one_column_groups_as_that_column(groups, cv):
    lr = LogisticRegression(max_iter=500)
    run = dict(cv=cv, n_permutations=2, random_state=0)
    report = audit(lr, X, y, groups=groups, **run)
    flat = audit(lr, X, y, groups=GROUPS, **run)
    assert report.groups_on_both_sides == _straddling(cv)
    assert report.groups_on_both_sides == flat.groups_on_both_sides
    assert report.passed == flat.passed
    assert report.permutation.estimate == flat.permutation.estimate
    np.testing.assert_array_equal(
        report.permutation.permuted_estimates, flat.permutation.permuted_estimates
    )


@pytest.mark.parametrize("groups", ONE_COLUMN, ids=IDS)
def test_permutation_check_reads_one_column_groups_as_that_column(groups):
    lr = LogisticRegression(max_iter=500)
    run = dict(cv=GroupKFold(3), n_permutations=2, random_state=0)
    report = permutation_check(lr, X, y, groups=groups, **run)
    flat = permutation_check(lr, X, y, groups=GROUPS, **run)
    assert report.estimate == flat.estimate
    np.testing.assert_array_equal(report.permuted_estimates, flat.permuted_estimates)
