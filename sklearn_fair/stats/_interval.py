"""Intervals of the mean of a few scores, each carrying the words that say how it was made.

A kind computed from the scores alone is a function ``(scores, confidence) ->
MeanInterval`` registered in ``_MEAN_INTERVALS`` under the name that ``interval=``
takes. A kind that needs more than the scores (the nested cross-validation interval
of Bates, Hastie and Tibshirani needs the per-sample errors of every fold) is
computed where that information lives and handed to :func:`summarize` as a
:class:`MeanInterval`, which it prints as it is.
"""

from dataclasses import asdict, dataclass

import numpy as np
from scipy import stats as _scipy_stats
from sklearn.utils._param_validation import StrOptions, validate_params

from ._checks import CONFIDENCE, LowHigh, check_scores


@dataclass(frozen=True)
class MeanInterval(LowHigh):
    """An interval of a mean score; unpacks and indexes as the tuple ``(low, high)``.

    Attributes
    ----------
    low, high : float
        The bounds.
    confidence : float
        The nominal level.
    method : str
        The short name of the kind ("t", "normal", ...), as ``interval=`` takes it.
    description : str
        The method in words, printed next to the numbers, e.g. "Student t, 9 df, of the
        mean of 10 scores".
    """

    low: float
    high: float
    confidence: float
    method: str
    description: str

    def to_dict(self):
        """Return the fields as a plain dict."""
        return asdict(self)

    def negated(self):
        """The interval of ``-mean``: bounds negated and swapped, same description."""
        return MeanInterval(-self.high, -self.low, self.confidence, self.method, self.description)

    def __str__(self):
        return (
            f"{100 * self.confidence:g}% interval [{self.low:.4f}, {self.high:.4f}] "
            f"({self.description})"
        )


def _student_t(scores, confidence):
    n = scores.shape[0]
    df = n - 1
    low, high = _scipy_stats.t.interval(
        confidence, df, loc=np.mean(scores), scale=_scipy_stats.sem(scores)
    )
    return MeanInterval(
        low=float(low),
        high=float(high),
        confidence=confidence,
        method="t",
        description=f"Student t, {df} df, of the mean of {n} scores",
    )


def _normal(scores, confidence):
    n = scores.shape[0]
    low, high = _scipy_stats.norm.interval(
        confidence, loc=np.mean(scores), scale=_scipy_stats.sem(scores)
    )
    return MeanInterval(
        low=float(low),
        high=float(high),
        confidence=confidence,
        method="normal",
        description=f"normal (z), of the mean of {n} scores",
    )


_MEAN_INTERVALS = {"t": _student_t, "normal": _normal}


#: The ``interval=`` / ``method=`` constraint: a registered kind's name.
INTERVAL_METHODS = StrOptions(set(_MEAN_INTERVALS))


@validate_params(
    {"scores": ["array-like"], "confidence": [CONFIDENCE], "method": [INTERVAL_METHODS]},
    prefer_skip_nested_validation=True,
)
def mean_interval(scores, *, confidence=0.95, method="t"):
    """Confidence interval of the mean of a few scores, with its method in words.

    "t" is the Student-t interval ``mean -/+ t(n - 1) * sem``, the interval of
    :func:`scipy.stats.ttest_1samp`; "normal" uses the normal quantile instead, which
    is narrower for few scores (at n = 10 a nominal 95% normal interval covers about
    92% of the time even for independent normal scores). Both treat the scores as
    independent. Scores of cross-validation folds are not (their training sets
    overlap), so both are optimistic for them (Bates, Hastie and Tibshirani, 2023).

    Parameters
    ----------
    scores : array-like of shape (n,)
        At least 2 finite scores.
    confidence : float, default=0.95
        Nominal level, in (0, 1).
    method : {"t", "normal"}, default="t"
        The kind of interval.

    Returns
    -------
    MeanInterval
        Unpacks as ``low, high``; ``description`` says how it was made and ``str()``
        prints both.

    Examples
    --------
    >>> from sklearn_fair.stats import mean_interval
    >>> interval = mean_interval([0.80, 0.82, 0.85, 0.79, 0.84])
    >>> print(interval)
    95% interval [0.7883, 0.8517] (Student t, 4 df, of the mean of 5 scores)
    >>> low, high = mean_interval([0.80, 0.82, 0.85, 0.79, 0.84], method="normal")
    >>> round(low, 4), round(high, 4)
    (0.7977, 0.8423)
    """
    scores = check_scores("scores", scores, min_size=2, purpose="an interval of the mean")
    return _MEAN_INTERVALS[method](scores, float(confidence))
