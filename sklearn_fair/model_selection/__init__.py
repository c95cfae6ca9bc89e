"""Nested cross-validation and resampling splitters."""

from ..utils import read_graph_labels
from ._bates import NestedCVInterval, nested_cv_interval
from ._bootstrap import Bootstrap
from ._graph_kfold import StratifiedGraphKFold
from ._holdout import HoldoutSplit
from ._nested import (
    NestedCV,
    nested_cross_val_predict,
    nested_cross_val_score,
    nested_cross_validate,
    verify_cache,
)
from ._predefined_splits import PredefinedSplits
from ._quantile import QuantileStratifiedKFold, RepeatedQuantileStratifiedKFold, quantile_strata
from ._rolling_origin import RollingOrigin
from ._saved_splits import SavedSplits, labels_fingerprint, load_splits, save_splits
from ._split_validation import validate_splits

__all__ = [
    "Bootstrap",
    "HoldoutSplit",
    "NestedCV",
    "NestedCVInterval",
    "PredefinedSplits",
    "QuantileStratifiedKFold",
    "RepeatedQuantileStratifiedKFold",
    "RollingOrigin",
    "SavedSplits",
    "StratifiedGraphKFold",
    "labels_fingerprint",
    "load_splits",
    "nested_cv_interval",
    "nested_cross_val_predict",
    "nested_cross_val_score",
    "nested_cross_validate",
    "quantile_strata",
    "read_graph_labels",
    "save_splits",
    "validate_splits",
    "verify_cache",
]
