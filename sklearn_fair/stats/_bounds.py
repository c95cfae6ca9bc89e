"""The range of a metric's printed values, so that its intervals can stay inside it.

The range is looked up by the printed name that :func:`sklearn_fair.metrics.metric_display_name`
gives ("ROC AUC (one-vs-rest)" is a "ROC AUC"); a metric not listed here is unbounded and its
intervals are left as computed. Errors are printed as positive values, so their range is
``[0, inf)``, and R^2-like scores are at most 1.
"""

import math

import numpy as np

_UNIT = (0.0, 1.0)
_SIGNED_UNIT = (-1.0, 1.0)
_AT_MOST_ONE = (-math.inf, 1.0)
_NON_NEGATIVE = (0.0, math.inf)

_RANGES = {
    **dict.fromkeys(
        (
            "accuracy",
            "balanced accuracy",
            "top-k accuracy",
            "ROC AUC",
            "average precision",
            "F1",
            "precision",
            "recall",
            "Jaccard",
            "sensitivity",
            "specificity",
            "PPV",
            "NPV",
            "Brier score",
            "Rand score",
            "V-measure",
            "homogeneity score",
            "completeness score",
            "normalized mutual information",
            "Fowlkes-Mallows score",
        ),
        _UNIT,
    ),
    **dict.fromkeys(("Cohen's kappa", "MCC", "CCC"), _SIGNED_UNIT),
    **dict.fromkeys(
        (
            "R^2",
            "explained variance",
            "D^2 Brier score",
            "D^2 absolute error score",
            "D^2 log loss score",
            "adjusted mutual information",
        ),
        _AT_MOST_ONE,
    ),
    **dict.fromkeys(
        (
            "RMSE",
            "MSE",
            "MAE",
            "RMSLE",
            "MSLE",
            "MAPE",
            "max error",
            "median absolute error",
            "mean Poisson deviance",
            "mean gamma deviance",
            "log loss",
            "LR+",
            "LR-",
            "mutual information",
        ),
        _NON_NEGATIVE,
    ),
}


def metric_range(name):
    """``(low, high)`` of a metric's printed values, or None when it is not known to be bounded.

    ``name`` is a printed name (``MetricName.name``); a qualifier in brackets ("F1 (macro
    average)") does not change the range.
    """
    if name is None:
        return None
    base = str(name).split(" (", 1)[0]
    return _RANGES.get(base)


def clip_to_range(low, high, bounds):
    """``(low, high, clipped)``: the bounds clipped to ``bounds``; ``clipped`` says if they were."""
    if bounds is None:
        return low, high, False
    new_low = float(np.clip(low, *bounds))
    new_high = float(np.clip(high, *bounds))
    return new_low, new_high, (new_low, new_high) != (low, high)


def range_text(bounds):
    """``bounds`` as printed, e.g. "[0, 1]" or "[0, inf)"."""
    low, high = bounds
    left = "(-inf" if math.isinf(low) else f"[{low:g}"
    right = "inf)" if math.isinf(high) else f"{high:g}]"
    return f"{left}, {right}"
