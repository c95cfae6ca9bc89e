"""Many models on many data sets: :func:`benchmark` (every cell a nested cross-validation
on the data set's shared outer splits, all in one task pool) and its :class:`BenchmarkResult`."""

from ..report import BenchmarkResult
from ._benchmark import benchmark

__all__ = ["BenchmarkResult", "benchmark"]
