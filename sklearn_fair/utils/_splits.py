"""What a set of (train, test) index splits is, read from the indices alone: the rows only one
side holds, and whether every split tests rows after all those it trains on."""

from collections.abc import Iterator

import numpy as np

from ._validation import labels_1d


def reusable_splits(cv):
    """``cv``, as a list where it is an iterator of splits (a generator), which can be read
    only once, and each ``(train, test, inner)`` item's inner splits as a list where they are
    an iterator (a ``zip``); anything else (a splitter, a list of splits, an int) as it is."""
    if isinstance(cv, Iterator):
        cv = list(cv)
    if isinstance(cv, list) and any(_inner_iterator(item) for item in cv):
        cv = [(*item[:2], list(item[2])) if _inner_iterator(item) else item for item in cv]
    return cv


def reusable_inner_splits(inner_splits):
    """``inner_splits`` (one entry per outer fold: its inner splits, or None), each entry that
    is an iterator as a list; the whole as given where none is."""
    if isinstance(inner_splits, Iterator):
        inner_splits = list(inner_splits)
    if isinstance(inner_splits, list) and any(isinstance(i, Iterator) for i in inner_splits):
        return [list(i) if isinstance(i, Iterator) else i for i in inner_splits]
    return inner_splits


def _inner_iterator(item):
    return isinstance(item, (tuple, list)) and len(item) == 3 and isinstance(item[2], Iterator)


def generator_seeded(cv):
    """Whether ``cv`` shuffles with a RandomState or Generator as its seed: each call of its
    ``split()`` draws from that generator and moves it on, so two calls split otherwise."""
    state = getattr(cv, "random_state", None)
    return isinstance(state, (np.random.RandomState, np.random.Generator)) and bool(
        getattr(cv, "shuffle", True)
    )


def own_rows(train, test):
    """The rows only ``train`` holds and those only ``test`` holds: lagged splits (saved from
    RollingOrigin(lag > 0)) put their lag rows on both sides."""
    if len(train) and len(test) and np.max(train) < np.min(test):
        return train, test  # apart by their bounds: no row on both sides, nothing to sort
    return np.setdiff1d(train, test), np.setdiff1d(test, train)


def _tests_after_training(train, test):
    """Whether the split tests only rows after every one it trains on (its lag rows aside)."""
    train, test = own_rows(train, test)
    return bool(len(train) and len(test) and np.max(train) < np.min(test))


#: What the words of a run's resampling (``resampling_["outer"]``, ``["inner"]``) end with where
#: its splits cut the rows in time order by position but the rows' dates (their DatetimeIndex
#: or PeriodIndex) are out of that order or repeat across a split.
NOT_DATED_AFTER = "test rows not all dated after their training rows"


def time_ordered_splits(splits):
    """Whether every one of ``splits`` tests only rows after all those it trains on (its lag
    rows aside), as time-ordered splits do; False for none (None: a splitter's own).

    Examples
    --------
    >>> from sklearn_fair.utils._splits import time_ordered_splits
    >>> time_ordered_splits([([0, 1], [2]), ([0, 1, 2], [3])])
    True
    >>> time_ordered_splits([([0, 2], [1])])
    False
    """
    splits = list(splits or ())
    return bool(splits) and all(_tests_after_training(train, test) for train, test in splits)


def class_counts(y, folds):
    """The classes of ``y`` (a 1-D array of labels) and, one row per fold of ``folds`` (each an
    array of row indices), how many of its rows each class holds."""
    classes, codes = np.unique(y, return_inverse=True)
    counts = [np.bincount(codes[fold], minlength=classes.size) for fold in folds]
    return classes, np.array(counts, dtype=np.int64).reshape(len(counts), classes.size)


def stratification_offsets(y, test_indices):
    """The classes of ``y``, and for each test fold of ``test_indices`` its count of each
    class and the count the class's share of ``y`` gives a fold of its size."""
    classes, counts = class_counts(y, test_indices)
    shares = class_counts(y, [np.arange(len(y))])[1][0] / len(y)
    return classes, counts, shares * counts.sum(axis=1)[:, None]


def is_stratified(y, test_indices):
    """Whether every test fold holds each class in proportion, within one sample: each class's
    count within 1 of its share of the fold (scikit-learn's StratifiedShuffleSplit), or, folds
    of sizes within 1 of each other, each class's counts within 1 of each other over the folds
    (StratifiedKFold deals each class round the folds: a 35-row fold of wine's may hold 15 of
    a class whose share of it is 13.96). A one-column ``y`` is its column."""
    y = labels_1d(np.asarray(y))
    if y.ndim != 1 or (y.dtype.kind == "f" and not np.all(np.mod(y, 1) == 0)):
        return False
    test_indices = list(test_indices)
    if not test_indices:
        return True
    _, counts, expected = stratification_offsets(y, test_indices)
    if np.all(np.abs(counts - expected) <= 1.0 + 1e-9):
        return True
    sizes = counts.sum(axis=1)
    return bool(np.ptp(sizes) <= 1 and np.all(np.ptp(counts, axis=0) <= 1))
