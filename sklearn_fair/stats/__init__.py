"""Aggregation and comparison of scores: IQM, bootstrap intervals, summaries, paired tests.

Point estimators (:func:`iqm`, :func:`probability_of_improvement`) are pure
functions over arrays; :func:`bootstrap_ci` resamples any statistic with one
explicit random generator. :func:`mean_interval` and :func:`summarize` name the
method of every interval they return. The tests compare models scored on the
same resamples, and :func:`compare` refuses results whose outer splits differ;
:func:`repeated_measures_comparison` compares several models on shared folds with a
linear mixed model. :func:`corrected_ttest_power` and :func:`rank_test_power` (with
their inverses) say how many repeats, or data sets, a difference needs. The libraries
that compute a statistic compute it here (scipy, statsmodels, imbalanced-learn); these
functions add names, checks and the documented fallbacks. :func:`normalize_scores` puts the
scores of data sets of different scales between two anchors before they are pooled (rliable).
"""

from ._bootstrap import BootstrapCI, bootstrap_ci
from ._choice import MultipleComparison, multiple_comparison
from ._compare import ComparisonResult, compare
from ._interval import MeanInterval, mean_interval
from ._iqm import iqm
from ._mixed import RepeatedMeasuresResult, repeated_measures_comparison
from ._normalize import normalize_scores
from ._paired import (
    BayesianTestResult,
    PairedTestResult,
    bayesian_correlated_ttest,
    corrected_resampled_ttest,
    holm,
    paired_ttest,
    probability_of_improvement,
)
from ._power import (
    corrected_ttest_power,
    corrected_ttest_repeats,
    pilot_effect,
    rank_test_datasets,
    rank_test_power,
)
from ._ranks import RankComparison, rank_comparison
from ._resampled import PairedSubsamplingScores, paired_subsampling_scores
from ._signed_rank import SignedRankResult, WinTieLoss, bayesian_signed_rank, win_tie_loss
from ._summary import Summary, summarize

__all__ = [
    "BayesianTestResult",
    "BootstrapCI",
    "ComparisonResult",
    "MeanInterval",
    "MultipleComparison",
    "PairedSubsamplingScores",
    "PairedTestResult",
    "RepeatedMeasuresResult",
    "RankComparison",
    "SignedRankResult",
    "Summary",
    "WinTieLoss",
    "bayesian_correlated_ttest",
    "bayesian_signed_rank",
    "bootstrap_ci",
    "compare",
    "corrected_resampled_ttest",
    "corrected_ttest_power",
    "corrected_ttest_repeats",
    "holm",
    "iqm",
    "mean_interval",
    "multiple_comparison",
    "normalize_scores",
    "paired_subsampling_scores",
    "paired_ttest",
    "pilot_effect",
    "probability_of_improvement",
    "rank_test_datasets",
    "rank_test_power",
    "repeated_measures_comparison",
    "rank_comparison",
    "summarize",
    "win_tie_loss",
]
