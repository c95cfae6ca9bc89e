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
]


class SklearnFairWarning(UserWarning):
    """Base class of the warnings that sklearn-fair emits."""


class InvalidSplitError(ValueError):
    """Splits that cannot be used: out-of-range, overlapping or duplicated indices."""


class SplitsMismatchError(ValueError):
    """Results or split files that do not belong to the same resamples or data."""


class DegenerateBootstrapWarning(SklearnFairWarning):
    """A bootstrap interval that fell back to a simpler method (e.g. BCa to percentile)."""


__all__.append("DegenerateBootstrapWarning")


class ExperimentConfigError(ValueError):
    """An experiment file that cannot be run; the message names its line and key."""


__all__.append("ExperimentConfigError")
