"""audit without labels runs the checks that need none (hunt UNSUP-3)."""

import numpy as np
import pytest
from sklearn.cluster import KMeans
from sklearn.datasets import make_blobs
from sklearn.model_selection import KFold

from sklearn_fair import audit
from sklearn_fair.leakage import find_duplicates

X, _ = make_blobs(60, centers=3, random_state=0)
X = np.r_[X, X[:5]]  # 5 duplicated rows, the copies in the last fold


def _groups(groups):
    return sorted(map(tuple, groups))


def test_the_duplicates_and_prefit_checks_run_without_labels():
    result = audit(KMeans(n_init=2, random_state=0), X, checks=("duplicates", "prefit"))
    # without labels an int cv is a KFold, as check_cv makes it
    reference = find_duplicates(X, splits=KFold(5).split(X))
    assert _groups(result.duplicates.groups) == _groups(reference.groups)
    assert _groups(result.duplicates.groups) == [(k, 60 + k) for k in range(5)]
    assert _groups(result.duplicates.straddling) == _groups(reference.straddling)
    assert result.prefit == []
    assert "5 group(s) of identical samples, 5 across a split" in str(result)


def test_the_permutation_check_without_labels_is_refused_with_the_checks_that_run():
    with pytest.raises(ValueError, match=r"permutation check needs the labels y.*"
                       r"checks=\('duplicates', 'prefit'\)"):  # fmt: skip
        audit(KMeans(n_init=2, random_state=0), X)
