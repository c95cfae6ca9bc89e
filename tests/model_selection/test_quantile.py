"""QuantileStratifiedKFold: folds stratified on quantile bins of a numeric outcome."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import ks_2samp
from sklearn.model_selection import KFold, StratifiedKFold

from sklearn_fair.model_selection import (
    QuantileStratifiedKFold,
    RepeatedQuantileStratifiedKFold,
    quantile_strata,
)


def test_values_tied_at_a_bin_edge_fall_in_the_bin_r_and_pandas_give_them():
    # rsample's make_strata takes quantile(y, (0:breaks)/breaks); numpy's linspace(0, 1, 8)
    # gives 5/7 one float step low, so the edge fell just below the two values 0.8, which moved
    # up a bin (sizes [8, 3, 6, 5, 3, 6, 5])
    y = np.array([0.3, 0.5, 1.4, 2.1, 0.1, 0.1, 0.4, 0.8, 0.0, 3.5, 0.4, 0.3, 0.2, 0.1, 4.1, 0.3,
                  0.8, 0.6, 0.1, 0.4, 0.6, 1.8, 2.4, 0.0, 0.7, 0.2, 1.5, 2.0, 0.5, 0.2, 0.0, 4.0,
                  0.5, 0.5, 0.1, 0.5])  # fmt: skip
    pd = pytest.importorskip("pandas")
    strata = quantile_strata(y, 7)
    np.testing.assert_array_equal(strata, pd.qcut(y, 7, labels=False, duplicates="drop"))
    assert np.bincount(strata).tolist() == [8, 3, 6, 5, 5, 4, 5]


def test_quantile_strata_match_r_cut_of_quantiles():
    # R: cut(y, quantile(y, 0:4/4), include.lowest = TRUE) with y = 1:10 gives
    # [1,3.25] (3.25,5.5] (5.5,7.75] (7.75,10]
    y = np.arange(1, 11)
    np.testing.assert_array_equal(quantile_strata(y, 4), [0, 0, 0, 1, 1, 2, 2, 3, 3, 3])


def test_tied_quantiles_merge_bins():
    y = np.array([0.0] * 6 + [1.0, 2.0, 3.0, 4.0])
    assert set(quantile_strata(y, 4)) == {0, 1}


@pytest.mark.parametrize("bad", [[1.0, np.nan], ["a", "b"], [[1.0, 2.0], [3.0, 4.0]]])
def test_quantile_strata_bad_y(bad):
    with pytest.raises(ValueError, match="y"):
        quantile_strata(np.array(bad), 2)


@pytest.mark.parametrize("bad", [1, 0, 2.0, True])
def test_bad_n_bins(bad):
    with pytest.raises(ValueError, match="'n_bins' parameter of QuantileStratifiedKFold"):
        QuantileStratifiedKFold(n_bins=bad).split(np.zeros((10, 1)), np.arange(10.0))
    with pytest.raises(ValueError, match=f"'n_bins' parameter of quantile_strata .*Got {bad!r}"):
        quantile_strata(np.arange(10.0), bad)


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
    with pytest.raises(ValueError, match="'n_repeats' parameter of RepeatedQuantileStratifiedKF"):
        RepeatedQuantileStratifiedKFold(n_repeats=0).get_n_splits()


# --- too few rows per bin -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "n_samples, n_splits, n_bins, remedy",
    [
        (30, 5, 8, "Use n_bins=6 or fewer"),
        (30, 10, 4, "Use n_bins=3 or fewer"),
        (8, 5, 2, "Even n_bins=2 leaves a bin that small"),
    ],
)
def test_too_few_rows_per_bin_names_n_bins(n_samples, n_splits, n_bins, remedy):
    y = np.random.default_rng(0).lognormal(size=n_samples)
    X = y.reshape(-1, 1)
    for cv in (
        QuantileStratifiedKFold(n_splits, n_bins=n_bins, random_state=0),
        RepeatedQuantileStratifiedKFold(n_splits, n_bins=n_bins, n_repeats=2, random_state=0),
    ):
        message = f"The 'n_bins' parameter of {type(cv).__name__} is too large"
        with pytest.raises(ValueError, match=message + f".*n_bins={n_bins}.*{remedy}"):
            list(cv.split(X, y))


def test_the_suggested_n_bins_works_without_warnings():
    y = np.random.default_rng(1).lognormal(size=30)
    with pytest.raises(ValueError, match="Use n_bins=6 or fewer"):
        QuantileStratifiedKFold(5, n_bins=8).split(y.reshape(-1, 1), y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # scikit-learn warns of classes below n_splits
        splits = list(QuantileStratifiedKFold(5, n_bins=6).split(y.reshape(-1, 1), y))
    assert len(splits) == 5


def test_too_few_samples_for_the_splits_keeps_scikit_learns_message():
    y = np.arange(3.0)
    with pytest.raises(ValueError, match="n_splits=5 greater than the number of samples"):
        list(QuantileStratifiedKFold(5, n_bins=2).split(y.reshape(-1, 1), y))


# --- randomness ---------------------------------------------------------------------------------


@pytest.mark.parametrize("repeated", [False, True])
def test_generator_random_state(repeated):
    y = np.random.default_rng(2).normal(size=40)
    X = y.reshape(-1, 1)

    def folds(seed):
        rng = np.random.default_rng(seed)
        if repeated:
            cv = RepeatedQuantileStratifiedKFold(4, n_repeats=2, random_state=rng)
        else:
            cv = QuantileStratifiedKFold(4, random_state=rng)
        return [test for _ in range(2) for _, test in cv.split(X, y)]

    first, again, other = folds(0), folds(0), folds(1)
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
    assert not all(np.array_equal(a, b) for a, b in zip(first, other))
    # the Generator is drawn from on every call of split, as a RandomState would be
    n = len(first) // 2
    assert not all(np.array_equal(a, b) for a, b in zip(first[:n], first[n:]))


def test_int_and_random_state_seeds_give_stratified_kfold_on_the_bins():
    # the folds are scikit-learn's StratifiedKFold on quantile_strata, whatever the seed's type
    y = np.random.default_rng(3).normal(size=40)
    X = y.reshape(-1, 1)
    strata = quantile_strata(y, 4)
    for seed in (7, np.random.RandomState(7)):
        reference = StratifiedKFold(4, shuffle=True, random_state=7).split(X, strata)
        for (_, a), (_, b) in zip(
            QuantileStratifiedKFold(4, random_state=seed).split(X, y), reference
        ):
            np.testing.assert_array_equal(a, b)


# --- the n_bins the message suggests work ---------------------------------------------------------


def works(n_splits, n_bins, y):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            list(
                QuantileStratifiedKFold(n_splits, n_bins=n_bins, random_state=0).split(
                    y[:, None], y
                )
            )
    except ValueError:
        return False
    return True


def test_with_ties_the_message_lists_the_values_that_work():
    # "Use n_bins=5 or fewer" would be untrue here: n_bins 4 fails
    y = np.array([0.0, 1.0, 1.0, 3.0, 4.0, 4.0, 5.0, 5.0])
    assert [b for b in range(2, 8) if works(2, b, y)] == [2, 3, 5]
    with pytest.raises(ValueError) as error:
        list(QuantileStratifiedKFold(2, n_bins=8, random_state=0).split(y[:, None], y))
    message = str(error.value)
    assert "The values of n_bins below 8 that work for this y are 5, 3, 2" in message
    assert "or fewer" not in message


@settings(max_examples=60, deadline=None)
@given(
    values=st.lists(st.integers(0, 6), min_size=6, max_size=30),
    n_splits=st.integers(2, 4),
    n_bins=st.integers(3, 12),
)
def test_what_the_message_says_of_n_bins_is_true(values, n_splits, n_bins):
    y = np.array(values, dtype=float)
    if works(n_splits, n_bins, y) or len(y) < n_splits:
        return
    with pytest.raises(ValueError) as error:
        list(QuantileStratifiedKFold(n_splits, n_bins=n_bins, random_state=0).split(y[:, None], y))
    message = str(error.value)
    working = [b for b in range(n_bins - 1, 1, -1) if works(n_splits, b, y)]
    if not working:
        assert "Even n_bins=2 leaves a bin that small" in message
    elif "or fewer" in message:
        largest = int(message.split("Use n_bins=")[1].split(" ")[0])
        assert working == list(range(largest, 1, -1))
    else:
        listed = message.split("that work for this y are ")[1].split(" (")[0]
        assert listed == ", ".join(str(b) for b in working[:10]) + (
            f" and {len(working) - 10} smaller ones" if len(working) > 10 else ""
        )


def test_a_column_vector_y_is_stratified_as_its_1d_values():
    # StratifiedKFold takes y of shape (n, 1) (column_or_1d); so do the quantile strata
    y = np.random.RandomState(0).gamma(2.0, size=50)
    np.testing.assert_array_equal(quantile_strata(y.reshape(-1, 1), 4), quantile_strata(y, 4))
    X = np.zeros((50, 1))
    column = list(QuantileStratifiedKFold(5, n_bins=4, random_state=0).split(X, y.reshape(-1, 1)))
    for (a, b), (c, d) in zip(
        column, QuantileStratifiedKFold(5, n_bins=4, random_state=0).split(X, y)
    ):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)
