"""sklearn-fair: honest model evaluation for scikit-learn.

The headline API is :class:`NestedCV` and its functional forms
:func:`nested_cross_validate` and :func:`nested_cross_val_score`.
``import sklearn_fair`` never imports torch; graph code lives in
:mod:`sklearn_fair.graph`.
"""

__version__ = "0.1.0.dev0"

from .benchmarking import BenchmarkResult, benchmark
from .leakage import audit
from .model_selection import (
    NestedCV,
    nested_cross_val_predict,
    nested_cross_val_score,
    nested_cross_validate,
)

__all__ = [
    "BenchmarkResult",
    "NestedCV",
    "__version__",
    "audit",
    "benchmark",
    "nested_cross_val_predict",
    "nested_cross_val_score",
    "nested_cross_validate",
]
