"""Aggregation and comparison of scores: IQM, bootstrap intervals, summaries, paired tests.

Point estimators are pure functions over arrays; every interval names its method; the tests
compare models scored on the same resamples (:func:`compare` refuses results whose outer splits
differ); the power functions say how many repeats, or data sets, a difference needs. Where a
library computes a statistic (scipy, statsmodels) it computes it here; these functions add
names, checks and the documented fallbacks.
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
