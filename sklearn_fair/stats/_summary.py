"""A one-call summary of per-fold scores: centre, spread and intervals."""

from dataclasses import asdict, dataclass

import numpy as np
from scipy.special import ndtri

from ._bootstrap import bootstrap_ci
from ._checks import check_confidence, check_scores
from ._iqm import iqm


@dataclass(frozen=True)
class Summary:
    """Summary statistics of a set of scores, from :func:`summarize`.

    Attributes
    ----------
    n : int
        Number of scores.
    mean, std, sem : float
        Mean, standard deviation (``ddof=1``) and standard error of the mean.
    ci_low, ci_high : float
        Normal interval of the mean, ``mean -/+ z * sem``.
    median, iqm : float
        Median and interquartile mean.
    iqm_ci_low, iqm_ci_high : float
        Percentile bootstrap interval of the IQM.
    confidence : float
        Level of both intervals.
    """

    n: int
    mean: float
    std: float
    sem: float
    ci_low: float
    ci_high: float
    median: float
    iqm: float
    iqm_ci_low: float
    iqm_ci_high: float
    confidence: float

    @property
    def ci(self):
        """The normal interval of the mean, ``(ci_low, ci_high)``."""
        return (self.ci_low, self.ci_high)

    @property
    def iqm_ci(self):
        """The bootstrap interval of the IQM, ``(iqm_ci_low, iqm_ci_high)``."""
        return (self.iqm_ci_low, self.iqm_ci_high)

    def to_dict(self):
        """Return the fields as a plain dict of Python numbers."""
        return asdict(self)

    def __str__(self):
        level = f"{100 * self.confidence:g}%"
        return "\n".join(
            [
                f"{self.n} scores",
                f"  mean   {self.mean:.4f}  (std {self.std:.4f}, sem {self.sem:.4f})",
                f"         {level} normal interval [{self.ci_low:.4f}, {self.ci_high:.4f}]",
                f"  median {self.median:.4f}",
                f"  IQM    {self.iqm:.4f}  {level} bootstrap interval "
                f"[{self.iqm_ci_low:.4f}, {self.iqm_ci_high:.4f}]",
            ]
        )

    def __repr__(self):
        fields = ", ".join(
            f"{name}={value:.4g}" if isinstance(value, float) else f"{name}={value}"
            for name, value in self.to_dict().items()
        )
        return f"Summary({fields})"


def summarize(scores, *, confidence=0.95, n_resamples=10_000, random_state=0):
    """Summarise per-fold scores: mean, std, sem, normal interval, median, IQM and its interval.

    Parameters
    ----------
    scores : array-like of shape (n,)
        One score per outer fold (or per run); at least 2, finite.
    confidence : float, default=0.95
        Level of the normal interval of the mean and of the bootstrap
        interval of the IQM.
    n_resamples : int, default=10_000
        Bootstrap resamples for the IQM's interval.
    random_state : int, numpy.random.Generator, RandomState or None, default=0
        Seeds the bootstrap; the same seed gives the same summary.

    Returns
    -------
    Summary
        Prints as a small table; ``to_dict()`` gives a plain dict; fields are
        attributes (``mean``, ``std``, ``sem``, ``ci``, ``median``, ``iqm``,
        ``iqm_ci``, ...).

    Examples
    --------
    >>> from sklearn_fair.stats import summarize
    >>> summary = summarize([0.80, 0.82, 0.85, 0.79, 0.84])
    >>> print(summary)
    5 scores
      mean   0.8200  (std 0.0255, sem 0.0114)
             95% normal interval [0.7977, 0.8423]
      median 0.8200
      IQM    0.8200  95% bootstrap interval [0.7933, 0.8467]
    >>> round(summary.std, 4), summary.n
    (0.0255, 5)
    >>> sorted(summary.to_dict())[:3]
    ['ci_high', 'ci_low', 'confidence']
    """
    scores = check_scores("scores", scores, min_size=2, purpose="a standard deviation")
    confidence = check_confidence(confidence)
    mean = float(np.mean(scores))
    std = float(np.std(scores, ddof=1))
    sem = std / np.sqrt(scores.shape[0])
    half_width = float(ndtri(0.5 + confidence / 2.0)) * sem
    interval = bootstrap_ci(
        scores,
        iqm,
        n_resamples=n_resamples,
        confidence=confidence,
        random_state=random_state,
    )
    return Summary(
        n=int(scores.shape[0]),
        mean=mean,
        std=std,
        sem=float(sem),
        ci_low=mean - half_width,
        ci_high=mean + half_width,
        median=float(np.median(scores)),
        iqm=iqm(scores),
        iqm_ci_low=interval.low,
        iqm_ci_high=interval.high,
        confidence=confidence,
    )
