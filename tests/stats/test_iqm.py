import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import trim_mean

from sklearn_fair.stats import iqm


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=40))
def test_matches_scipy_trim_mean(values):
    assert iqm(values) == pytest.approx(trim_mean(values, 0.25), rel=1e-9, abs=1e-6)


@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_axis_matches_scipy(axis):
    x = np.random.default_rng(0).normal(size=(7, 13))
    np.testing.assert_allclose(iqm(x, axis=axis), trim_mean(x, 0.25, axis=axis))


@pytest.mark.parametrize(
    "values, expected",
    [
        ([1, 2, 3, 4, 5, 6, 7, 100], 4.5),  # n = 8: keeps 3, 4, 5, 6
        ([1, 2, 3, 4, 100], 3.0),  # n = 5: drops one at each end
        ([10, 1, 4], 5.0),  # n = 3: drops nothing
        ([1, 2, 3, 4, 5, 6, 7, 8, 9, 100], 5.5),  # n = 10: drops 2 at each end, keeps 6
    ],
)
def test_hand_checked(values, expected):
    assert iqm(values) == pytest.approx(expected)


def test_bad_inputs():
    with pytest.raises(ValueError, match="NaN"):
        iqm([1.0, np.nan, 2.0])
    with pytest.raises(ValueError, match="empty"):
        iqm([])
    with pytest.raises(ValueError, match="'axis' parameter of iqm .*Got True"):
        iqm([[1.0, 2.0]], axis=True)
    with pytest.raises(ValueError, match="'axis' parameter of iqm .*Got 1.0"):
        iqm([[1.0, 2.0]], axis=1.0)
