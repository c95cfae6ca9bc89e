"""The range of a metric's printed values, so that its intervals can stay inside it.

The range is looked up by the printed name that :func:`sklearn_fair.metrics.metric_display_name`
gives to the scorer ("roc_auc_ovr" is a "ROC AUC (one-vs-rest)", a "ROC AUC"). A metric the
user named (a key of a ``scoring`` dict: ``{"auc": "roc_auc"}``) is looked up by the scorer
it names, not by the key: "auc" is ROC AUC's [0, 1], and a key "accuracy" for an RMSE scorer
is the RMSE's [0, inf). The ranges themselves are those of
:func:`sklearn_fair.metrics.score_range`, the one table of them; a metric of unknown range is
unbounded, its intervals are left as computed and the reports say so.
Errors are printed as positive values, so their range is ``[0, inf)``, and R^2-like scores
are at most 1.
"""

import functools
import math

import numpy as np


@functools.cache
def _printed_ranges():
    """``{printed name: range}`` of every known scorer, from the one table of metric ranges
    (:func:`sklearn_fair.metrics.score_range`), with the printed sign applied; a name two
    scorers share gets the smallest range holding both."""
    from ..metrics import get_scorer_names

    ranges = {}
    for scoring in get_scorer_names():
        bounds = _by_scorer(scoring)
        if bounds is None:
            continue
        name = _bare(_display_name(scoring).name)
        low, high = ranges.get(name, bounds)
        ranges[name] = (min(low, bounds[0]), max(high, bounds[1]))
    return ranges


def _bare(name):
    return str(name).split(" (", 1)[0]  # "F1 (macro average)" is an F1


def _display_name(scoring):
    from ..metrics import metric_display_name

    return metric_display_name(scoring)


def _by_name(name):
    return _printed_ranges().get(_bare(name))


def _by_scorer(scoring):
    """The range of the printed values of the known scorer name ``scoring``, or None."""
    from ..metrics import get_scorer, score_range

    low, high = score_range(get_scorer(scoring))
    if _display_name(scoring).sign < 0:
        low, high = -high, -low
    return None if (math.isinf(low) and math.isinf(high)) else (low + 0.0, high + 0.0)


def metric_range(metric):
    """``(low, high)`` of a metric's printed values, or None when it is not known to be bounded.

    Parameters
    ----------
    metric : str, MetricName or None
        A printed name (``MetricName.name``; a qualifier in brackets, "F1 (macro
        average)", does not change the range), or a
        :class:`~sklearn_fair.metrics.MetricName`, whose scorer decides when it is a known
        scorer name, whatever the user called the metric.

    Returns
    -------
    (low, high) or None

    Examples
    --------
    >>> from sklearn_fair.metrics import metric_display_name
    >>> from sklearn_fair.stats._bounds import metric_range
    >>> metric_range("balanced accuracy"), metric_range("auc")
    ((0.0, 1.0), None)
    >>> metric_range(metric_display_name("roc_auc", name="auc"))
    (0.0, 1.0)
    >>> metric_range(metric_display_name("neg_root_mean_squared_error", name="accuracy"))
    (0.0, inf)
    >>> metric_range(metric_display_name("my_own_score")) is None
    True
    """
    from ..metrics import get_scorer_names

    if metric is None:
        return None
    scoring = getattr(metric, "scoring", None)
    if isinstance(scoring, str) and scoring in get_scorer_names():
        return _by_scorer(scoring)  # the scorer decides, not the name the user gave it
    return _by_name(getattr(metric, "name", metric))


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
