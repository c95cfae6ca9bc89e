"""Aggregates across data sets with rliable's definitions (Agarwal et al., NeurIPS 2021).

The point estimators are pure functions of one score list per data set (the outer folds of a
model on that data set): the interquartile mean of all the scores together
(:func:`~sklearn_fair.stats.iqm`, rliable's ``aggregate_iqm``), the probability of improvement
averaged over the data sets (rliable's ``probability_of_improvement``), and the performance
profile, the fraction of scores above each threshold (rliable's ``score_distributions``,
averaged over the data sets). Intervals come from a bootstrap stratified over the data sets:
each data set's folds are resampled with replacement, separately (rliable's
``StratifiedBootstrap``; for two models, their folds independently, as its
``StratifiedIndependentBootstrap``), with percentile intervals, drawn from one explicit
generator (rliable's own ignores the seed it is given).
"""

import numpy as np

from ._iqm import iqm
from ._paired import probability_of_improvement

__all__ = [
    "aggregate_iqm",
    "average_probability_of_improvement",
    "performance_profile",
    "stratified_bootstrap",
]


def aggregate_iqm(per_dataset):
    """IQM of the scores of every data set together (a list of 1-D arrays)."""
    return iqm(np.concatenate([np.asarray(s, dtype=float) for s in per_dataset]))


def average_probability_of_improvement(per_dataset_x, per_dataset_y):
    """Mean over the data sets of P(X > Y) + P(X = Y) / 2 on that data set's scores."""
    return float(
        np.mean([probability_of_improvement(x, y) for x, y in zip(per_dataset_x, per_dataset_y)])
    )


def performance_profile(per_dataset, thresholds):
    """Fraction of scores above each threshold, per data set, averaged over the data sets."""
    thresholds = np.asarray(thresholds, dtype=float)
    fractions = [
        (np.asarray(s, dtype=float)[None, :] > thresholds[:, None]).mean(axis=1)
        for s in per_dataset
    ]
    return np.mean(fractions, axis=0)


def _resample(per_dataset, rng):
    return [s[rng.integers(0, len(s), len(s))] for s in per_dataset]


def stratified_bootstrap(statistic, *groups, n_resamples, confidence, rng):
    """``(low, high)`` percentile interval of ``statistic(*groups)``.

    Each group is a list of per-data-set score arrays; every data set of every group is
    resampled on its own in each of ``n_resamples`` draws from ``rng``.
    """
    groups = [[np.asarray(s, dtype=float) for s in group] for group in groups]
    values = np.array(
        [statistic(*[_resample(group, rng) for group in groups]) for _ in range(n_resamples)]
    )
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(values, [tail, 1.0 - tail])
    return float(low), float(high)
