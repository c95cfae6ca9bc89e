import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import UndefinedMetricWarning

from sklearn_fair.metrics import concordance_correlation_coefficient as ccc


def _ccc_by_definition(x, y, bias):
    """Lin's formula from np.cov and the means, written independently."""
    covariance = np.cov(x, y, bias=bias)
    return 2 * covariance[0, 1] / (covariance[0, 0] + covariance[1, 1] + (x.mean() - y.mean()) ** 2)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("bias", [True, False])
def test_matches_definition(seed, bias):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=30)
    y = 0.8 * x + rng.normal(0.3, 0.5, size=30)
    assert ccc(x, y, bias=bias) == pytest.approx(_ccc_by_definition(x, y, bias))


@pytest.mark.parametrize("bias", [True, False])
def test_integer_weights_equal_repeated_samples(bias):
    x = np.array([1.0, 2.0, 4.0, 3.0, 7.0])
    y = np.array([1.5, 1.0, 5.0, 2.0, 6.0])
    weight = np.array([1, 3, 2, 1, 2])
    expected = _ccc_by_definition(np.repeat(x, weight), np.repeat(y, weight), bias)
    assert ccc(x, y, bias=bias, sample_weight=weight) == pytest.approx(expected)


def test_hand_checked():
    # var = 1.25 (n denominators), cov = 1.25, mean shift 1: 2.5 / (2.5 + 1)
    assert ccc([1, 2, 3, 4], [2, 3, 4, 5]) == pytest.approx(2.5 / 3.5)
    # n - 1 denominators: var = cov = 5/3
    assert ccc([1, 2, 3, 4], [2, 3, 4, 5], bias=False) == pytest.approx((10 / 3) / (10 / 3 + 1))
    assert ccc([-1, 0, 1], [1, 0, -1]) == pytest.approx(-1.0)
    assert ccc([1, 2, 3], [1, 2, 3]) == 1.0


@settings(max_examples=50, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(-100, 100, allow_nan=False), st.floats(-100, 100, allow_nan=False)),
        min_size=3,
        max_size=30,
    )
)
def test_bounded_by_pearson(pairs):
    x, y = np.array(pairs).T
    if np.ptp(x) < 1e-6 or np.ptp(y) < 1e-6:
        return
    value = ccc(x, y)
    pearson = np.corrcoef(x, y)[0, 1]
    assert -1 - 1e-9 <= value <= 1 + 1e-9
    assert abs(value) <= abs(pearson) + 1e-9


@pytest.mark.parametrize("value", [2.0, 0.1, 0.7])
@pytest.mark.parametrize("kwargs", [{}, {"bias": False}, {"sample_weight": [1, 2, 0, 1, 1, 3, 1]}])
def test_constant_and_equal_is_undefined(value, kwargs):
    # 0.1 and 0.7: seven of them average to one rounding step off the value, and the CCC was
    # 1.0 (a test fold of a constant target predicted exactly scored a perfect CCC)
    with pytest.warns(UndefinedMetricWarning):
        assert np.isnan(ccc(np.full(7, value), np.full(7, value), **kwargs))


def test_bad_inputs():
    with pytest.raises(ValueError, match="'y_true'.*NaN"):
        ccc([1.0, np.nan], [1.0, 2.0])
    with pytest.raises(ValueError, match="same length"):
        ccc([1.0, 2.0, 3.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="numeric"):
        ccc(["a", "b"], ["a", "b"])
    with pytest.raises(ValueError, match="'bias' parameter of concordance_correlation_coeff"):
        ccc([1.0, 2.0], [1.0, 2.0], bias="n")
    with pytest.raises(ValueError, match="bias=False needs"):
        ccc([1.0], [1.0], bias=False)
    with pytest.raises(ValueError, match="1-D"):
        ccc(np.ones((3, 2)), np.ones((3, 2)))


@pytest.mark.parametrize("bias", [True, False])
def test_weights_summing_to_zero_are_refused_by_name(bias):
    # Before, bias=True said "with bias=False needs a total weight above 1": the wrong option
    # and not the parameter at fault.
    with pytest.raises(ValueError, match=r"'sample_weight' parameter must hold at least one"):
        ccc([1.0, 2.0], [1.0, 3.0], sample_weight=[0.0, 0.0], bias=bias)


@pytest.mark.parametrize("factor", [1e200, 1e300, 1e-200, 1e-310])
@pytest.mark.parametrize("bias", [True, False])
def test_very_large_or_small_values_give_the_ccc_of_the_same_values_scaled(factor, bias):
    # Lin's CCC is unchanged by scaling both inputs by one factor; the squares overflowed to
    # inf (NaN, with RuntimeWarnings) or underflowed to 0 (NaN, "constant and equal")
    x = np.array([1.0, 2.0, 3.0, 4.0, 10.0])
    y = np.array([2.0, 2.5, 3.0, 5.0, 8.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = ccc(x * factor, y * factor, bias=bias)
    assert result == pytest.approx(_ccc_by_definition(x, y, bias), rel=1e-12)


def _weighted_ccc_exactly(x, y, weight, bias):
    """Lin's CCC with frequency weights, in exact rational arithmetic (fractions) on the
    floats as given: the weighted means, and the moments over the total weight (minus 1
    with bias=False)."""
    from fractions import Fraction

    x, y, weight = ([Fraction(float(v)) for v in values] for values in (x, y, weight))
    total = sum(weight)
    mean_x = sum(w * v for w, v in zip(weight, x)) / total
    mean_y = sum(w * v for w, v in zip(weight, y)) / total
    n = total if bias else total - 1

    def moment(a, mean_a, b, mean_b):
        return sum(w * (u - mean_a) * (v - mean_b) for w, u, v in zip(weight, a, b)) / n

    scale = moment(x, mean_x, x, mean_x) + moment(y, mean_y, y, mean_y) + (mean_x - mean_y) ** 2
    return float(2 * moment(x, mean_x, y, mean_y) / scale)


@pytest.mark.parametrize(
    "weight",
    [
        [1e307, 2e307, 3e307, 1e307, 2e307],  # w * x past 1.8e308: NaN before
        [1e308, 1.5e308, 1.7e308, 1e308, 1.2e308],  # their sum overflows to inf
        [1e300, 1.0, 3e300, 1e-300, 2e300],  # huge next to tiny
        [1e-320, 2e-320, 3e-320, 1e-320, 2e-320],  # subnormal: the products lost digits
    ],
)
@pytest.mark.parametrize("bias", [True, False])
def test_huge_or_tiny_weights_give_the_exact_ccc(weight, bias):
    # the weights' sums overflowed to inf or their products to NaN, returned with numpy's
    # RuntimeWarnings, and subnormal weights gave 0.949121 for 0.949153; the CCC is that of
    # the weights scaled (exactly, by a power of 2), with bias=False's 1 scaled with them
    x = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    y = np.array([1.5, 2.0, 2.5, 4.5, 5.5])
    if not bias and sum(weight) < 2:
        with pytest.raises(ValueError, match="total weight above 1"):
            ccc(x, y, sample_weight=weight, bias=bias)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = ccc(x, y, sample_weight=weight, bias=bias)
    assert result == pytest.approx(_weighted_ccc_exactly(x, y, weight, bias), rel=1e-13)


@pytest.mark.parametrize("dtype", [np.int64, np.uint64])
def test_integers_past_float64s_exact_range_keep_their_differences(dtype):
    # hunt METRICS2-3: 2**62, 2**62 + 1 and 2**62 + 3 were one float64, so the CCC of these
    # values with themselves was NaN ("constant and equal"); it is 1, as for the values
    # shifted down by 2**62 (the CCC does not change when both are shifted alike)
    offset = 2**62
    values = np.array([0, 1, 3, 7], dtype=np.int64)
    x, reference = (values + offset).astype(dtype), values.astype(float)
    assert ccc(x, x) == 1.0
    expected = _ccc_by_definition(reference, reference[::-1], bias=True)
    assert ccc(x, x[::-1]) == pytest.approx(expected, rel=1e-12)
