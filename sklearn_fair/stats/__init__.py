"""Aggregation and comparison of scores: IQM, bootstrap intervals, summaries, paired tests.

Point estimators (:func:`iqm`, :func:`probability_of_improvement`) are pure
functions over arrays; :func:`bootstrap_ci` resamples any statistic with one
explicit random generator. :func:`mean_interval` and :func:`summarize` name the
method of every interval they return. The tests compare models scored on the
same resamples, and :func:`compare` refuses results whose outer splits differ.
"""

from ._bootstrap import BootstrapCI, bootstrap_ci
from ._compare import compare
from ._interval import MeanInterval, mean_interval
from ._iqm import iqm
from ._paired import (
    BayesianTestResult,
    PairedTestResult,
    bayesian_correlated_ttest,
    corrected_resampled_ttest,
    holm,
    paired_ttest,
    probability_of_improvement,
)
from ._ranks import RankComparison, rank_comparison
from ._summary import Summary, summarize

__all__ = [
    "BayesianTestResult",
    "BootstrapCI",
    "MeanInterval",
    "PairedTestResult",
    "RankComparison",
    "Summary",
    "bayesian_correlated_ttest",
    "bootstrap_ci",
    "compare",
    "corrected_resampled_ttest",
    "holm",
    "iqm",
    "mean_interval",
    "paired_ttest",
    "probability_of_improvement",
    "rank_comparison",
    "summarize",
]
