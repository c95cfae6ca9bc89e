"""QuantileStratifiedKFold: folds stratified on quantile bins of a numeric outcome."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import ks_2samp
from sklearn.model_selection import KFold

from sklearn_fair.model_selection import (
    QuantileStratifiedKFold,
    RepeatedQuantileStratifiedKFold,
    quantile_strata,
)


def test_quantile_strata_match_r_cut_of_quantiles():
    # R: cut(y, quantile(y, 0:4/4), include.lowest = TRUE) with y = 1:10 gives
    # [1,3.25] (3.25,5.5] (5.5,7.75] (7.75,10]
    y = np.arange(1, 11)
    np.testing.assert_array_equal(quantile_strata(y, 4), [0, 0, 0, 1, 1, 2, 2, 3, 3, 3])


def test_tied_quantiles_merge_bins():
    y = np.array([0.0] * 6 + [1.0, 2.0, 3.0, 4.0])
    assert set(quantile_strata(y, 4)) == {0, 1}


@pytest.mark.parametrize("bad", [[1.0, np.nan], ["a", "b"], [[1.0], [2.0]]])
def test_quantile_strata_bad_y(bad):
    with pytest.raises(ValueError, match="y"):
        quantile_strata(np.array(bad), 2)


@pytest.mark.parametrize("bad", [1, 0, 2.0, True])
def test_bad_n_bins(bad):
    with pytest.raises(ValueError, match="'n_bins' parameter"):
        QuantileStratifiedKFold(n_bins=bad).split(np.zeros((10, 1)), np.arange(10.0))


def test_needs_y():
    with pytest.raises(ValueError, match="needs the numeric outcome"):
        QuantileStratifiedKFold().split(np.zeros((10, 1)), None)


@settings(max_examples=50, deadline=None)
@given(
    n_samples=st.integers(min_value=60, max_value=150),
    n_splits=st.integers(min_value=2, max_value=5),
    n_bins=st.integers(min_value=2, max_value=5),
    seed=st.integers(min_value=0, max_value=2**31 - 1),
)
def test_partition_sizes_and_bin_balance(n_samples, n_splits, n_bins, seed):
    y = np.random.default_rng(seed).lognormal(size=n_samples)
    X = y.reshape(-1, 1)
    cv = QuantileStratifiedKFold(n_splits, n_bins=n_bins, random_state=seed)
    splits = list(cv.split(X, y))
    assert len(splits) == cv.get_n_splits() == n_splits
    np.testing.assert_array_equal(
        np.sort(np.concatenate([test for _, test in splits])), np.arange(n_samples)
    )
    strata = quantile_strata(y, n_bins)
    bin_sizes = np.bincount(strata)
    for train, test in splits:
        assert np.intersect1d(train, test).size == 0
        assert abs(test.size - n_samples / n_splits) <= len(bin_sizes)
        in_fold = np.bincount(strata[test], minlength=len(bin_sizes))
        assert np.all(np.abs(in_fold - bin_sizes / n_splits) < 1)
    for (_, a), (_, b) in zip(splits, cv.split(X, y)):
        np.testing.assert_array_equal(a, b)


def mean_ks(cv, y):
    return np.mean([ks_2samp(y[test], y).statistic for _, test in cv.split(y.reshape(-1, 1), y)])


def test_folds_closer_to_the_whole_than_plain_kfold():
    rng = np.random.default_rng(0)
    quantile_ks, plain_ks = [], []
    for seed in range(30):
        y = rng.lognormal(sigma=1.0, size=120)
        quantile_ks.append(mean_ks(QuantileStratifiedKFold(5, n_bins=10, random_state=seed), y))
        plain_ks.append(mean_ks(KFold(5, shuffle=True, random_state=seed), y))
    # Kolmogorov-Smirnov distance of each test fold's outcome to the whole outcome.
    assert np.mean(quantile_ks) < 0.75 * np.mean(plain_ks)


def test_repeated():
    y = np.random.default_rng(1).normal(size=40)
    X = y.reshape(-1, 1)
    cv = RepeatedQuantileStratifiedKFold(4, n_bins=4, n_repeats=3, random_state=5)
    splits = list(cv.split(X, y))
    assert len(splits) == cv.get_n_splits() == 12
    for repeat in range(3):
        tests = [test for _, test in splits[4 * repeat : 4 * repeat + 4]]
        np.testing.assert_array_equal(np.sort(np.concatenate(tests)), np.arange(40))
    assert not np.array_equal(splits[0][1], splits[4][1])
    for (_, a), (_, b) in zip(splits, cv.split(X, y)):
        np.testing.assert_array_equal(a, b)
    assert "n_repeats=3" in repr(cv)


def test_repeated_bad_n_repeats():
    with pytest.raises(ValueError, match="'n_repeats' parameter"):
        RepeatedQuantileStratifiedKFold(n_repeats=0).get_n_splits()
