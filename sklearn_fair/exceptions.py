"""Warning and error classes of sklearn-fair.

Every error we raise on bad input subclasses :class:`ValueError` or
:class:`TypeError`, so code written for scikit-learn keeps catching it.
"""

from sklearn.exceptions import FitFailedWarning

__all__ = [
    "FitFailedWarning",
    "InvalidSplitError",
    "SplitsMismatchError",
    "SklearnFairWarning",
    "DegenerateBootstrapWarning",
    "ExperimentConfigError",
    "CacheWarning",
    "GroupLeakageWarning",
    "NonFiniteScoreWarning",
    "ReproducibilityWarning",
    "SearchSpaceEdgeWarning",
    "SelectionTieWarning",
    "SplitLeakageWarning",
    "UnequalBudgetWarning",
    "MissingCellsWarning",
    "RowOrderWarning",
    "UnweightedValidationWarning",
    "InvalidResultError",
    "UncheckedResultWarning",
    "FitTimeoutError",
    "NoSplitsError",
    "UnhashableError",
]


class SklearnFairWarning(UserWarning):
    """Base class of the warnings that sklearn-fair emits."""


class InvalidSplitError(ValueError):
    """Splits that cannot be used: out-of-range, overlapping or duplicated indices."""


class SplitsMismatchError(ValueError):
    """Results or split files that do not belong to the same resamples or data."""


class DegenerateBootstrapWarning(SklearnFairWarning):
    """A bootstrap interval that fell back to a simpler method (e.g. BCa to percentile)."""


class ExperimentConfigError(ValueError):
    """An experiment file that cannot be run; the message names its line and key."""


class SearchSpaceEdgeWarning(SklearnFairWarning):
    """The selected value of a parameter lies on the edge of its grid in most outer folds."""


class SplitLeakageWarning(SklearnFairWarning):
    """An inner split that ignores the groups or the time order that the outer split respects."""


class GroupLeakageWarning(SplitLeakageWarning):
    """Groups were given, but an outer splitter put a group on both sides of a split."""


class SelectionTieWarning(SklearnFairWarning):
    """The validation data could not separate most candidates: the winner was taken by rule."""


class ReproducibilityWarning(SklearnFairWarning):
    """Something that makes a seeded run give different results on every run."""


class CacheWarning(SklearnFairWarning):
    """A cache that cannot help (unseeded runs) or cannot be written or read."""


class NonFiniteScoreWarning(SklearnFairWarning):
    """A scorer returned NaN or an infinite value without raising."""


class UnequalBudgetWarning(SklearnFairWarning):
    """A model is compared with a baseline tuned with a much smaller budget."""


class MissingCellsWarning(SklearnFairWarning):
    """A table pools data sets, and some model's folds failed on some of them: the data sets
    where every model is complete are pooled, and the others named."""


class RowOrderWarning(SklearnFairWarning):
    """X and y (or groups) are pandas objects whose indexes hold the same row labels in
    different orders: their rows are paired by position, as in scikit-learn."""


class UnweightedValidationWarning(SklearnFairWarning):
    """A model fitted with ``sample_weight`` early-stops on the protocol's validation rows
    without their weights: its fit does not take (or request) ``sample_weight_val``."""


class InvalidResultError(ValueError):
    """A saved result that fails the checks of what its writer guaranteed (its format and
    version, its checksum, the types of its fields, its scores' range)."""


class UncheckedResultWarning(SklearnFairWarning):
    """A saved result read without being checked: it carries no checksum (an older format),
    or it failed a check and was read because the caller asked for it (``verify="warn"``)."""


class FitTimeoutError(TimeoutError):
    """A fit that ran over NestedCV's ``fit_timeout`` (recorded as a failed fit)."""


class UnhashableError(TypeError):
    """A value whose content or code cannot be described stably (no cache key for it)."""


class NoSplitsError(ValueError):
    """Results that do not record their outer splits: no paired test can check them."""
