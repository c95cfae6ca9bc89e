"""The range of a metric's printed values, so that its intervals can stay inside it.

The ranges are those of :func:`sklearn_fair.metrics.score_range`, the one table of them, with
the printed sign applied (errors are printed positive: ``[0, inf)``). A metric of unknown range
is unbounded: its intervals are left as computed and the reports say so.
"""

import functools
import math

import numpy as np


@functools.cache
def _printed_ranges():
    """``{printed name: range}`` of every known scorer; a name two scorers share gets the
    smallest range holding both."""
    from ..metrics import get_scorer_names, metric_display_name

    ranges = {}
    for scoring in get_scorer_names():
        bounds = _by_scorer(scoring)
        if bounds is None:
            continue
        name = _bare(metric_display_name(scoring).name)
        low, high = ranges.get(name, bounds)
        ranges[name] = (min(low, bounds[0]), max(high, bounds[1]))
    return ranges


# Keyword arguments that a printed name may carry ("PPV (prevalence=0.05)") and that leave the
# metric's range as it is; any other ("balanced accuracy (adjusted=True)", "accuracy
# (normalize=False)") may change it, so such a name alone is of unknown range.
_SAME_RANGE_KEYWORDS = {"pos_label", "zero_division", "prevalence", "labels", "bias"}


def _bare(name):
    """The name without its qualifiers ("F1 (macro average)" is an F1), or None when a
    qualifier is a keyword argument that may change the range."""
    base, _, qualifiers = str(name).partition(" (")
    for qualifier in qualifiers.removesuffix(")").split(", ") if qualifiers else ():
        keyword, equals, _ = qualifier.partition("=")
        if equals and keyword.isidentifier() and keyword not in _SAME_RANGE_KEYWORDS:
            return None
    return base


def _by_scorer(scoring):
    """The range of the printed values of the known scorer name ``scoring``, or None."""
    from ..metrics import get_scorer, metric_display_name, score_range

    low, high = score_range(get_scorer(scoring))
    if metric_display_name(scoring).sign < 0:
        low, high = -high, -low
    return None if (math.isinf(low) and math.isinf(high)) else (low + 0.0, high + 0.0)


def metric_range(metric):
    """``(low, high)`` of a metric's printed values, or None when it is not known to be bounded.

    Parameters
    ----------
    metric : str, MetricName or None
        A printed name (a qualifier in brackets, "F1 (macro average)", does not change the
        range; a keyword argument that may, "balanced accuracy (adjusted=True)", makes it
        unknown), or a :class:`~sklearn_fair.metrics.MetricName`, whose scorer decides when it
        is a known scorer name or a scorer object (through
        :func:`~sklearn_fair.metrics.score_range`; a saved scorer object through the
        ``score_range`` it was saved with), whatever the user called the metric (a
        ``scoring`` dict's key "auc" for "roc_auc" is ROC AUC's [0, 1]).

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
    from ..metrics import get_scorer_names, score_range

    if metric is None:
        return None
    scoring = getattr(metric, "scoring", None)
    if isinstance(scoring, str) and scoring in get_scorer_names():
        return _by_scorer(scoring)  # the scorer decides, not the name the user gave it
    saved = getattr(metric, "score_range", None)  # a saved scorer object's, its repr aside
    if saved is not None or (not isinstance(scoring, str) and callable(scoring)):
        # a scorer object decides too: make_scorer(balanced_accuracy_score, adjusted=True)
        # is printed "balanced accuracy (adjusted=True)" and lies in [-1, 1], not in [0, 1]
        low, high = score_range(scoring) if saved is None else saved
        if getattr(metric, "sign", 1) < 0:
            low, high = -high, -low
        return None if (math.isinf(low) and math.isinf(high)) else (low + 0.0, high + 0.0)
    return _printed_ranges().get(_bare(getattr(metric, "name", metric)))


def clip_to_range(low, high, bounds):
    """``(low, high, clipped)``: the bounds clipped to ``bounds``; ``clipped`` says if they were."""
    if bounds is None:
        return low, high, False
    new_low, new_high = (float(np.clip(bound, *bounds)) for bound in (low, high))
    return new_low, new_high, (new_low, new_high) != (low, high)


def outside_range(values, bounds):
    """The values of ``values`` (NaN aside: a failed fold's) outside ``bounds`` by more than
    the rounding of their largest finite magnitude (12 digits): scores a metric cannot take."""
    values = np.asarray(values, dtype=float)
    values = values[~np.isnan(values)]
    finite = np.abs(values[np.isfinite(values)])
    slack = 1e-12 * max(1.0, float(np.max(finite, initial=0.0)))
    return values[(values < bounds[0] - slack) | (values > bounds[1] + slack)]


def range_text(bounds):
    """``bounds`` as printed, e.g. "[0, 1]" or "[0, inf)"."""
    low, high = bounds
    left = "(-inf" if math.isinf(low) else f"[{low:g}"
    right = "inf)" if math.isinf(high) else f"{high:g}]"
    return f"{left}, {right}"
