"""The one rule for scaling values out of reach of overflow and underflow."""

import numpy as np


def scale_exponent(*arrays):
    """The power of 2, ``e``, that brings the largest magnitude of ``arrays`` near 1 where it
    lies past ``2**100`` or under ``2**-100`` (squares overflow to inf near 1e155 and underflow
    to 0 near 1e-155), else 0: statistics of ``np.ldexp(x, -e)`` scaled back by ``2**e`` (the
    stats package's ``scaled_back``) are those of ``x``, exactly (a power of 2), and ordinary
    values are not touched."""
    largest = max(float(np.abs(array).max()) for array in arrays)
    exponent = int(np.frexp(largest)[1]) if largest > 0 else 0
    return exponent if abs(exponent) > 100 else 0


def mean_of(values, axis=None):
    """``np.mean(values, axis)`` of finite values whose sum would overflow (past ``2**100``:
    ``utils._scaling.scale_exponent``): the mean of the values scaled by a power of 2, scaled
    back, exactly what ``np.mean`` gives where the sum does not overflow. A mean of finite
    values lies within their range, so it is finite; NaN and inf give numpy's mean."""
    return _scaled_back(np.mean, values, False, axis=axis)


def std_of(values, axis=None, ddof=0):
    """``np.std(values, axis, ddof=ddof)`` of finite values whose squares would overflow or
    underflow, as :func:`mean_of`: of the values scaled by a power of 2, scaled back."""
    return _scaled_back(np.std, values, True, axis=axis, ddof=ddof)


def _scaled_back(statistic, values, scale_small, **kwargs):
    """``statistic(values, **kwargs)`` of the finite ``values`` scaled by a power of 2, scaled
    back; values under ``2**-100`` are scaled only if ``scale_small`` (a mean's sum cannot
    overflow)."""
    values = np.asarray(values, dtype=float)
    if values.size == 0 or not np.all(np.isfinite(values)):
        return statistic(values, **kwargs)
    exponent = scale_exponent(values)
    if exponent == 0 or (exponent < 0 and not scale_small):
        return statistic(values, **kwargs)
    with np.errstate(over="ignore"):
        return np.ldexp(statistic(np.ldexp(values, -exponent), **kwargs), exponent)


def scaled_pair(a, b):
    """``(a, b, exponent)``: paired scores past ``2**100`` or under ``2**-100`` in magnitude
    scaled by one power of 2 (:func:`scale_exponent` of both, exact), so that the sums and
    squares of their differences neither overflow (t = 0, p = 1 for differences near 1e200)
    nor underflow (a zero standard error near 1e-200); a statistic of the scaled scores is
    scaled back by ``2**exponent`` where it has their units, and is theirs where it is
    scale-free (t, p, an effect size)."""
    exponent = scale_exponent(a, b)
    if exponent:
        a, b = np.ldexp(a, -exponent), np.ldexp(b, -exponent)
    return a, b, exponent
