"""A single train/test split as a scikit-learn splitter."""

import numbers

import numpy as np
from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit
from sklearn.utils import check_random_state

__all__ = ["HoldoutSplit"]


class HoldoutSplit:
    """One hold-out split: a training set and a validation (or test) set.

    This is the inner model-selection protocol of Errica et al. (2020): one
    split of each outer training fold, 90% to train and 10% to validate.
    It is a scikit-learn splitter with exactly one split, so it works as
    ``cv`` of GridSearchCV and cross_validate, and as ``inner_cv`` or
    ``outer_cv`` of :class:`~sklearn_fair.NestedCV`.

    Parameters
    ----------
    test_size : float or int, default=0.1
        Fraction (in (0, 1)) or absolute number of samples held out.
    stratify : bool or None, default=None
        Keep the class proportions of ``y`` in both parts. ``None`` stratifies
        whenever ``y`` is given to :meth:`split` and looks like class labels
        (integers, strings or booleans); ``True`` requires ``y``.
    random_state : int, RandomState instance or None, default=None
        Seeds the shuffle. Pass an int for the same split on every call.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_fair.model_selection import HoldoutSplit
    >>> X, y = np.zeros((20, 2)), np.array([0] * 10 + [1] * 10)
    >>> cv = HoldoutSplit(test_size=0.2, random_state=0)
    >>> cv.get_n_splits()
    1
    >>> train, test = next(cv.split(X, y))
    >>> len(train), len(test), int(y[test].sum())
    (16, 4, 2)
    """

    def __init__(self, test_size=0.1, *, stratify=None, random_state=None):
        self.test_size = test_size
        self.stratify = stratify
        self.random_state = random_state

    def get_n_splits(self, X=None, y=None, groups=None):
        """Return the number of splits, always 1."""
        return 1

    def split(self, X, y=None, groups=None):
        """Yield the one ``(train, test)`` pair of index arrays."""
        self._check_params()
        stratify = self.stratify
        if stratify is None:
            stratify = y is not None and _looks_like_classes(y)
        elif stratify and y is None:
            raise ValueError("HoldoutSplit(stratify=True) needs y in split(X, y).")
        splitter_class = StratifiedShuffleSplit if stratify else ShuffleSplit
        # An int seed is passed through; a RandomState is drawn from once per call,
        # as scikit-learn's shuffling splitters do.
        seed = self.random_state
        if not (seed is None or isinstance(seed, numbers.Integral)):
            seed = check_random_state(seed).randint(np.iinfo(np.int32).max)
        splitter = splitter_class(n_splits=1, test_size=self.test_size, random_state=seed)
        yield from splitter.split(X, y if stratify else None)

    def _check_params(self):
        size = self.test_size
        valid = (
            isinstance(size, numbers.Real)
            and not isinstance(size, bool)
            and (
                (isinstance(size, numbers.Integral) and size >= 1)
                or (not isinstance(size, numbers.Integral) and 0 < size < 1)
            )
        )
        if not valid:
            raise ValueError(
                "The 'test_size' parameter of HoldoutSplit must be a float in (0, 1) "
                f"or an int >= 1. Got {size!r} instead."
            )

    def __repr__(self):
        return (
            f"HoldoutSplit(test_size={self.test_size!r}, stratify={self.stratify!r}, "
            f"random_state={self.random_state!r})"
        )


def _looks_like_classes(y):
    y = np.asarray(y)
    return y.dtype.kind in "iubOUS" and y.ndim == 1
