"""The interquartile mean, rliable's robust aggregate."""

import numbers

import numpy as np
from sklearn.utils._param_validation import validate_params

from ..utils import IntervalNotBool
from ._checks import float_array


@validate_params(
    {
        "x": ["array-like", numbers.Real],
        "axis": [IntervalNotBool(numbers.Integral, None, None, closed="neither"), None],
    },
    prefer_skip_nested_validation=True,
)
def iqm(x, axis=None):
    """Interquartile mean: the mean of the middle half of the values.

    The 25% trimmed mean, as rliable defines it (``scipy.stats.trim_mean(x, 0.25)``, the same
    values): sort, drop ``floor(n / 4)`` values at each end, average the rest, without
    interpolation. When ``n`` is not a multiple of 4 fewer than 25% are dropped (for ``n <
    4``, none: the plain mean).

    Parameters
    ----------
    x : array-like
        Scores.
    axis : int or None, default=None
        The axis along which to compute; None flattens ``x`` first, as rliable
        aggregates all runs and tasks together.

    Returns
    -------
    float or ndarray
        The IQM; an array when ``axis`` is given and ``x`` has more than one
        dimension.

    Examples
    --------
    >>> from sklearn_fair.stats import iqm
    >>> iqm([1, 2, 3, 4, 5, 6, 7, 100])
    4.5
    >>> iqm([1, 2, 3, 4, 100])  # n = 5: drops 1 and 100, averages 2, 3, 4
    3.0
    """
    array = float_array(x, "The 'x' parameter of iqm", "an array of numbers")
    if axis is not None and not -array.ndim <= axis < array.ndim:
        raise ValueError(
            f"The 'axis' parameter of iqm must be None or an int in [{-array.ndim}, "
            f"{array.ndim - 1}] for x of shape {array.shape}. Got {axis!r} instead."
        )
    if array.size == 0:
        raise ValueError("The 'x' parameter of iqm is empty; need at least 1 value.")
    if np.isnan(array).any():
        raise ValueError("The 'x' parameter of iqm contains NaN; remove it or impute it first.")
    if axis is None:
        array = array.ravel()
        axis = 0
    # A full sort along the last axis beats scipy.stats.trim_mean's partition
    # several times over on the (n_resamples, n) arrays of a bootstrap.
    ordered = np.sort(np.moveaxis(array, axis, -1), axis=-1)
    n = ordered.shape[-1]
    cut = n // 4
    result = ordered[..., cut : n - cut].mean(axis=-1)
    return float(result) if np.ndim(result) == 0 else result
