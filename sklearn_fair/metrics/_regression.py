"""Agreement of continuous measurements: Lin's concordance correlation coefficient."""

import warnings

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.utils._param_validation import validate_params

from ..utils._scaling import scale_exponent
from ..utils._stacklevel import external_stacklevel
from ._checks import TARGETS, check_targets


@validate_params({**TARGETS, "bias": ["boolean"]}, prefer_skip_nested_validation=True)
def concordance_correlation_coefficient(y_true, y_pred, *, bias=True, sample_weight=None):
    """Lin's concordance correlation coefficient (CCC).

    ``2 cov(x, y) / (var(x) + var(y) + (mean(x) - mean(y)) ** 2)``: Pearson's correlation
    penalised for any shift in location or scale, so 1 only when ``y_pred == y_true`` exactly
    (Lin, 1989, Biometrics 45:255-268).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Reference values.
    y_pred : array-like of shape (n_samples,)
        Predicted or second-method values.
    bias : bool, default=True
        True divides the variances and the covariance by ``n`` (Lin's definition); False by
        ``n - 1`` (the unbiased sample moments, as ``np.cov`` does by default). With
        ``sample_weight``, ``n`` is the sum of the weights.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights, taken as frequencies.

    Returns
    -------
    float
        The CCC, in [-1, 1]. NaN, with an ``UndefinedMetricWarning``, when both inputs are
        constant and equal (the formula is 0 / 0).

    Examples
    --------
    >>> from sklearn_fair.metrics import concordance_correlation_coefficient
    >>> concordance_correlation_coefficient([1, 2, 3, 4], [1, 2, 3, 4])
    1.0
    >>> concordance_correlation_coefficient([1, 2, 3, 4], [2, 3, 4, 5])
    0.7142857142857143
    >>> round(concordance_correlation_coefficient([1, 2, 3, 4], [2, 3, 4, 5], bias=False), 4)
    0.7692
    """
    y_true, y_pred, sample_weight = check_targets(y_true, y_pred, sample_weight)
    if y_true.dtype.kind not in "biuf" or y_pred.dtype.kind not in "biuf":
        raise ValueError(
            "The 'y_true' and 'y_pred' parameters of concordance_correlation_coefficient must "
            f"be numeric. Got dtypes {y_true.dtype} and {y_pred.dtype} instead."
        )
    x, y = _as_floats(y_true, y_pred)
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ValueError("The 'y_true' and 'y_pred' parameters must hold finite values.")
    # CCC is unchanged by scaling both by one factor: a power of 2 (exact) keeps the squares
    # below from overflowing to inf (NaN for values near 1e200) or underflowing to 0 (values
    # near 1e-200); ordinary values are not scaled (the package's one rule)
    exponent = scale_exponent(x, y)
    if exponent:
        x, y = np.ldexp(x, -exponent), np.ldexp(y, -exponent)
    weight = np.ones_like(x) if sample_weight is None else sample_weight
    # the weights too, by the same rule: the CCC is that of the weights times any factor but
    # for bias=False's "total - 1", which becomes "total - 2**-e" in scaled weights; else the
    # sums of weights near 1e300 overflow (NaN), and those of weights near 1e-320
    # (subnormal) lose digits
    weight_exponent = scale_exponent(weight)
    if weight_exponent:
        weight = np.ldexp(weight, -weight_exponent)
    total = weight.sum()  # positive: check_targets refuses weights that are all zero
    with np.errstate(over="ignore"):  # 1 in weights scaled up from 1e-320 is inf: refused
        denominator = total if bias else total - np.ldexp(1.0, -weight_exponent)
    if denominator <= 0:
        raise ValueError(
            "concordance_correlation_coefficient with bias=False needs a total weight above 1 "
            f"(at least 2 samples). Got {float(np.ldexp(total, weight_exponent))!r} instead."
        )
    mean_x, mean_y = np.dot(weight, x) / total, np.dot(weight, y) / total
    dx, dy = x - mean_x, y - mean_y
    var_x = np.dot(weight, dx * dx) / denominator
    var_y = np.dot(weight, dy * dy) / denominator
    cov_xy = np.dot(weight, dx * dy) / denominator
    scale = var_x + var_y + (mean_x - mean_y) ** 2
    # constant and equal, tested on the values: their computed mean can be one rounding step
    # off the value (7 times 0.1 averages to 0.09999999999999999), and 2 cov / scale is then
    # 1e-34 / 1e-34 = 1, not 0 / 0
    counted_x, counted_y = x[weight > 0], y[weight > 0]
    if scale == 0 or (np.all(counted_x == counted_x[0]) and np.all(counted_y == counted_x[0])):
        warnings.warn(
            "The concordance correlation coefficient is undefined when y_true and y_pred are "
            "constant and equal; returning NaN.",
            UndefinedMetricWarning,
            stacklevel=external_stacklevel(),
        )
        return float("nan")
    return float(2.0 * cov_xy / scale)


def _as_floats(y_true, y_pred):
    """``y_true`` and ``y_pred`` as floats; integers past float64's exact range (2**53) first
    shifted together by their smallest value, exactly (the CCC does not change when both are
    shifted by one value): ``2**62``, ``2**62 + 1`` and ``2**62 + 3`` were one float, so equal
    values that vary were taken for constant ones."""
    exact = 2**53
    integers = y_true.dtype.kind in "iu" and y_pred.dtype.kind in "iu"
    if (
        integers
        and y_true.size
        and max(abs(int(v)) for v in (y_true.min(), y_true.max(), y_pred.min(), y_pred.max()))
        > exact
    ):
        shift = min(int(y_true.min()), int(y_pred.min()))
        return tuple(
            np.array([int(v) - shift for v in values.tolist()], dtype=float)
            for values in (y_true, y_pred)
        )
    return y_true.astype(float), y_pred.astype(float)
