"""Bootstrap: analysis sets drawn with replacement, out-of-bag assessment sets."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sklearn_fair.exceptions import InvalidSplitError
from sklearn_fair.model_selection import Bootstrap


@settings(max_examples=50, deadline=None)
@given(
    n_samples=st.integers(min_value=10, max_value=200),
    n_resamples=st.integers(min_value=1, max_value=8),
    seed=st.integers(min_value=0, max_value=2**31 - 1),
)
def test_invariants(n_samples, n_resamples, seed):
    X = np.zeros((n_samples, 1))
    cv = Bootstrap(n_resamples, random_state=seed)
    splits = list(cv.split(X))
    assert len(splits) == cv.get_n_splits() == n_resamples
    for train, test in splits:
        assert train.shape == (n_samples,)
        assert train.min() >= 0 and train.max() < n_samples
        # The out-of-bag set is exactly the complement of the drawn rows.
        np.testing.assert_array_equal(test, np.setdiff1d(np.arange(n_samples), train))
        assert test.size > 0
    again = list(Bootstrap(n_resamples, random_state=seed).split(X))
    for (train_a, test_a), (train_b, test_b) in zip(splits, again):
        np.testing.assert_array_equal(train_a, train_b)
        np.testing.assert_array_equal(test_a, test_b)


def test_indices_repeat_and_oob_fraction_is_about_e_inverse():
    X = np.zeros((1000, 1))
    fractions = []
    for train, test in Bootstrap(20, random_state=0).split(X):
        assert len(np.unique(train)) < len(train)
        fractions.append(test.size / 1000)
    assert abs(np.mean(fractions) - (1 - 1 / 1000) ** 1000) < 0.02


def test_resamples_differ():
    splits = list(Bootstrap(5, random_state=1).split(np.zeros((50, 1))))
    assert len({tuple(train) for train, _ in splits}) == 5


@settings(max_examples=30, deadline=None)
@given(
    counts=st.lists(st.integers(min_value=5, max_value=40), min_size=2, max_size=4),
    seed=st.integers(min_value=0, max_value=2**31 - 1),
)
def test_stratify_keeps_class_counts(counts, seed):
    y = np.repeat(np.arange(len(counts)), counts)
    np.random.default_rng(seed).shuffle(y)
    for train, test in Bootstrap(3, stratify=True, random_state=seed).split(y.reshape(-1, 1), y):
        assert train.size == y.size
        np.testing.assert_allclose(np.bincount(y[train], minlength=len(counts)), counts, atol=1)
        assert np.intersect1d(train, test).size == 0


def test_stratify_needs_y():
    with pytest.raises(ValueError, match="needs y"):
        next(Bootstrap(stratify=True).split(np.zeros((5, 1))))


def test_empty_out_of_bag_is_an_error():
    with pytest.raises(InvalidSplitError, match="empty out-of-bag"):
        list(Bootstrap(3, random_state=0).split(np.zeros((1, 1))))


@pytest.mark.parametrize("bad", [0, -1, 2.5, True, None])
def test_bad_n_resamples(bad):
    with pytest.raises(ValueError, match="'n_resamples' parameter of Bootstrap must be an int"):
        Bootstrap(bad).get_n_splits()
