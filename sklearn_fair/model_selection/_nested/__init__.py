"""The nested cross-validation protocol, one module per decision (mapped in
``docs/developers.rst``)."""

from ._estimator import NestedCV
from ._functions import nested_cross_val_predict, nested_cross_val_score, nested_cross_validate
from ._verify import verify_cache

__all__ = [
    "NestedCV",
    "nested_cross_val_predict",
    "nested_cross_val_score",
    "nested_cross_validate",
    "verify_cache",
]
