"""Many models on many data sets: :func:`benchmark` and its :class:`BenchmarkResult`.

Every cell (a model on a data set) is a nested cross-validation run on the data set's shared
outer splits; all cells run in one task pool. The result holds the tidy scores, the paper's
table, comparisons with a baseline (corrected resampled t-tests, Holm across the family), rank
tests (:func:`sklearn_fair.stats.rank_comparison`), rliable's aggregates across data sets,
each model's tuning budget, plots and an HTML report.
"""

from ..report import BenchmarkResult
from ._benchmark import benchmark

__all__ = ["BenchmarkResult", "benchmark"]
