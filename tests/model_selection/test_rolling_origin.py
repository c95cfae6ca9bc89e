"""RollingOrigin: the semantics of rsample's rolling_origin()."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sklearn_fair.model_selection import RollingOrigin


def as_lists(cv, n_samples):
    return [(train.tolist(), test.tolist()) for train, test in cv.split(np.zeros((n_samples, 1)))]


def test_cumulative_default():
    # rsample: rolling_origin(data.frame(x = 1:6), initial = 3)
    assert as_lists(RollingOrigin(3), 6) == [
        ([0, 1, 2], [3]),
        ([0, 1, 2, 3], [4]),
        ([0, 1, 2, 3, 4], [5]),
    ]


def test_sliding_window_with_assess_skip_and_lag():
    # rsample: rolling_origin(data.frame(x = 1:10), initial = 4, assess = 2,
    #                         cumulative = FALSE, skip = 1, lag = 1)
    assert as_lists(RollingOrigin(4, 2, cumulative=False, skip=1, lag=1), 10) == [
        ([0, 1, 2, 3], [3, 4, 5]),
        ([2, 3, 4, 5], [5, 6, 7]),
        ([4, 5, 6, 7], [7, 8, 9]),
    ]


@settings(max_examples=50, deadline=None)
@given(
    n_samples=st.integers(min_value=2, max_value=60),
    initial=st.integers(min_value=1, max_value=20),
    assess=st.integers(min_value=1, max_value=5),
    cumulative=st.booleans(),
    skip=st.integers(min_value=0, max_value=4),
    lag_fraction=st.floats(min_value=0, max_value=1),
)
def test_invariants(n_samples, initial, assess, cumulative, skip, lag_fraction):
    lag = int(lag_fraction * initial)
    cv = RollingOrigin(initial, assess, cumulative=cumulative, skip=skip, lag=lag)
    if n_samples < initial + assess:
        with pytest.raises(ValueError, match="needs at least"):
            cv.get_n_splits(np.zeros(n_samples))
        return
    splits = as_lists(cv, n_samples)
    assert len(splits) == cv.get_n_splits(np.zeros(n_samples))
    assert len(splits) == (n_samples - initial - assess) // (skip + 1) + 1
    for number, (train, test) in enumerate(splits):
        origin = initial + number * (skip + 1)
        assert train == list(range(0 if cumulative else origin - initial, origin))
        assert test == list(range(origin - lag, origin + assess))
        assert len(set(train) & set(test)) == lag
        assert test[-1] < n_samples
    # The last resample ends within skip + 1 rows of the end of the data.
    assert n_samples - splits[-1][1][-1] - 1 <= skip


@pytest.mark.parametrize(
    "params, name",
    [
        ({"initial": 0}, "initial"),
        ({"initial": 3, "assess": 0}, "assess"),
        ({"initial": 3, "skip": -1}, "skip"),
        ({"initial": 3, "lag": -1}, "lag"),
        ({"initial": 2.0}, "initial"),
        ({"initial": 3, "lag": 4}, "lag"),
        ({"initial": 3, "cumulative": "yes"}, "cumulative"),
    ],
)
def test_bad_parameters_are_named(params, name):
    with pytest.raises(ValueError, match=f"The '{name}' parameter of RollingOrigin"):
        list(RollingOrigin(**params).split(np.zeros((10, 1))))


def test_get_n_splits_needs_x():
    with pytest.raises(ValueError, match="needs X"):
        RollingOrigin(3).get_n_splits()


def test_lagged_rolling_origin_drives_nested_cv():
    """lag > 0 overlaps training and assessment rows on purpose; NestedCV accepts it."""
    from sklearn.linear_model import Ridge

    from sklearn_fair import NestedCV

    X = np.arange(60.0)[:, None]
    y = 2 * X.ravel()
    outer = RollingOrigin(30, 5, skip=4, lag=2)
    nested = NestedCV(
        Ridge(),
        {"alpha": [0.1, 1.0]},
        outer_cv=outer,
        inner_cv=RollingOrigin(15, 3, lag=1),
        refit=False,
    ).fit(X, y)
    expected = list(outer.split(X))
    assert len(nested.outer_results_) == len(expected)
    for fold, (_, test) in zip(nested.outer_results_, expected):
        np.testing.assert_array_equal(fold["test_indices"], test)
        assert np.intersect1d(fold["train_indices"], fold["test_indices"]).size == 2
