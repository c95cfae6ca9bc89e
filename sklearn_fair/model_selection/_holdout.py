"""A single train/test split as a scikit-learn splitter: shuffled, grouped or time-ordered."""

import numbers

import numpy as np
from sklearn.model_selection import BaseShuffleSplit, ShuffleSplit, StratifiedShuffleSplit
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import _num_samples, check_array

from ..utils import (
    RANDOM_STATE_CONSTRAINTS,
    IntervalNotBool,
    check_parameter_constraints,
    check_random_state,
    is_graph_data,
    read_graph_labels,
)
from ..utils._random import draw_seeds

__all__ = ["HoldoutSplit"]


class HoldoutSplit(BaseShuffleSplit):
    """One hold-out split: a training set and a validation (or test) set.

    The inner model-selection protocol of Errica et al. (2020): one split of each outer
    training fold, 90% to train and 10% to validate. A scikit-learn cross-validator with exactly
    one split, usable as ``cv`` of GridSearchCV and cross_validate and as ``inner_cv`` or
    ``outer_cv`` of :class:`~sklearn_fair.NestedCV`. Three ways to hold out:

    - **shuffled** (the default): the same indices, in the same order, as
      :class:`~sklearn.model_selection.StratifiedShuffleSplit` (or ``ShuffleSplit``) with
      ``n_splits=1`` and the same int seed (a RandomState instance or Generator is drawn
      from for a seed first, so the same instance gives other indices than scikit-learn's).
    - **grouped** (``groups`` passed to ``split``): whole groups are taken in a seeded random
      order, and each goes to the validation side if that brings it closer to ``test_size``
      of the rows (class by class when stratifying: first the groups that bring the class
      counts closer to their shares of the target without moving the size away from it
      more, then those that bring counts and size together closer), greedily: the size can
      miss the target by more than the best choice of whole groups would.
    - **time-ordered** (``shuffle=False``): the *last* ``test_size`` part of the rows, in the
      order given, validates; with ``groups``, the cut moves to the nearest group boundary.

    Parameters
    ----------
    test_size : float or int, default=0.1
        Fraction (in (0, 1)) or absolute number of samples held out. Grouped, it is the
        target that the greedy pass over whole groups aims at.
    stratify : bool or None, default=None
        Keep the class proportions of ``y`` in both parts. ``None`` stratifies whenever ``y``
        is given to ``split`` and looks like class labels (integers, strings or booleans),
        and the split is shuffled; ``True`` requires ``y`` and ``shuffle=True``. An
        integer-valued numeric target (counts) looks like class labels too: pass ``False``
        for it. Without ``y``, graphs that carry their label as ``.y`` (as
        :class:`StratifiedGraphKFold` reads them) give it, unless ``stratify=False``. A
        one-column ``y`` (``df[["label"]]``) is its column, as for scikit-learn; a ``y`` of
        several columns (``stratify=True`` only) is stratified on its distinct rows, as
        :class:`~sklearn.model_selection.StratifiedShuffleSplit` does.
    shuffle : bool, default=True
        ``False`` holds out the last rows in the given order (time order) instead of random
        ones; ``random_state`` must then be None.
    random_state : int, RandomState instance, Generator or None, default=None
        Seeds the shuffle. Pass an int for the same split on every call; a RandomState or
        Generator is drawn from once per call of ``split``.
    gap : int, default=0
        Time-ordered only: the rows left out between the training rows and the validation
        rows (the last training rows), as scikit-learn's ``TimeSeriesSplit(gap=...)``, so
        that the rows just before the validation rows are not trained on.

    See Also
    --------
    sklearn.model_selection.ShuffleSplit : Several random splits.
    sklearn.model_selection.GroupShuffleSplit : Several grouped random splits, sized in groups.
    RollingOrigin : Several time-ordered splits.

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

    Grouped: four samples per patient, no patient on both sides.

    >>> patients = np.repeat(np.arange(5), 4)
    >>> train, test = next(cv.split(X, y, groups=patients))
    >>> set(patients[train]) & set(patients[test])
    set()

    Time-ordered: the last 20% of the rows validate.

    >>> train, test = next(HoldoutSplit(test_size=0.2, shuffle=False).split(X))
    >>> test
    array([16, 17, 18, 19])
    >>> train, test = next(HoldoutSplit(test_size=0.2, shuffle=False, gap=2).split(X))
    >>> int(train.max()), test
    (13, array([16, 17, 18, 19]))
    """

    # groups are requested by default, as scikit-learn's group splitters do (its
    # GroupsConsumerMixin, which is private), so that metadata routing passes them here
    __metadata_request__split = {"groups": True}

    _parameter_constraints = {
        "test_size": [
            IntervalNotBool(numbers.Real, 0, 1, closed="neither"),
            IntervalNotBool(numbers.Integral, 1, None, closed="left"),
        ],
        "stratify": ["boolean", None],
        "shuffle": ["boolean"],
        "random_state": RANDOM_STATE_CONSTRAINTS,
        "gap": [IntervalNotBool(numbers.Integral, 0, None, closed="left")],
    }

    def __init__(self, test_size=0.1, *, stratify=None, shuffle=True, random_state=None, gap=0):
        # BaseShuffleSplit.__init__ is not called: its n_splits and train_size are not
        # parameters of a single hold-out, and __init__ stores only our own, unchanged.
        self.test_size = test_size
        self.stratify = stratify
        self.shuffle = shuffle
        self.random_state = random_state
        self.gap = gap

    def get_n_splits(self, X=None, y=None, groups=None):
        """Return the number of splits, always 1."""
        return 1

    def split(self, X, y=None, groups=None):
        """Generate the one ``(train, test)`` pair of index arrays.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or sequence of graphs
            The data; graphs that carry their label as ``.y`` give ``y`` when it is None.
        y : array-like of shape (n_samples,), default=None
            The target, stratified on as ``stratify`` says.
        groups : array-like of shape (n_samples,) or (n_samples, 1), default=None
            One group label per row: whole groups go to one side. A one-column ``groups``
            (``df[["patient"]]``) is read as its column.

        Yields
        ------
        train, test : ndarray
            The indices of the training and the validation (or test) rows.
        """
        # checked before BaseShuffleSplit.split's check of the lengths, which names no input
        yield from super().split(X, y, _checked_groups(groups, X))

    def _iter_indices(self, X, y=None, groups=None):
        check_parameter_constraints(self)
        if not self.shuffle and self.random_state is not None:
            raise ValueError(
                "HoldoutSplit(shuffle=False) holds out the last rows, so a random_state has no "
                f"effect; leave it None or set shuffle=True. Got {self.random_state!r}."
            )
        if not self.shuffle and self.stratify:
            raise ValueError(
                "HoldoutSplit(shuffle=False) holds out the last rows in time order and cannot "
                "also stratify; set stratify=None or False, or shuffle=True."
            )
        if self.shuffle and self.gap:
            raise ValueError(
                f"HoldoutSplit(gap={self.gap}) leaves rows out before the last rows in time "
                "order: it needs shuffle=False; set gap=0 or shuffle=False."
            )
        labels = "y"
        if y is None and self.stratify is not False and self.shuffle and is_graph_data(X):
            y = _graph_labels(X, required=bool(self.stratify))
            labels = "the graphs' labels (y not given)"
        y = _column_raveled(y)
        stratify = self._stratifies(y)
        n_samples = _num_samples(X)
        if not self.shuffle:
            train, test = _time_ordered(n_samples, self._n_test(n_samples), groups)
            if self.gap >= train.size:
                raise ValueError(
                    f"HoldoutSplit(gap={self.gap}) leaves no training rows: only {train.size} "
                    "rows come before the validation rows. Use a smaller gap or test_size."
                )
            yield train[: train.size - self.gap], test
            return
        seed = self.random_state
        if not (seed is None or isinstance(seed, numbers.Integral)):
            # an int is passed through; a RandomState or Generator is drawn from once per
            # call, as scikit-learn's shuffling splitters do with a RandomState
            seed = draw_seeds(check_random_state(seed))
        if groups is not None:
            rng = check_random_state(seed)
            yield _grouped(
                np.asarray(y) if stratify else None, groups, self._n_test(n_samples), rng
            )
            return
        splitter_class = StratifiedShuffleSplit if stratify else ShuffleSplit
        splitter = splitter_class(n_splits=1, test_size=self.test_size, random_state=seed)
        if not (stratify and self.stratify is None):
            yield from splitter.split(X, y if stratify else None)
            return
        try:
            split = next(splitter.split(X, y))
        except ValueError as exc:
            if not _splits_unstratified(X, self.test_size):
                raise  # not a matter of classes (a test_size too large for X): as it is
            # stratify=None took y for class labels: say so, and how to opt out
            reason = str(exc).rstrip(". ")
            raise ValueError(
                f"HoldoutSplit(stratify=None) takes {labels}, of integers, strings or booleans, "
                f"for class labels and stratifies on them, which fails here: {reason}. If they "
                "are a numeric target (a count, an age), or classes too rare to stratify, pass "
                "stratify=False for a plain random hold-out."
            ) from exc
        yield split

    def _stratifies(self, y):
        if self.stratify is None:
            return bool(self.shuffle) and y is not None and _looks_like_classes(y)
        if self.stratify and y is None:
            raise ValueError(
                "HoldoutSplit(stratify=True) needs y in split(X, y), or X given as graphs "
                "that carry their label as '.y'."
            )
        return bool(self.stratify)

    def _n_test(self, n_samples):
        if isinstance(self.test_size, numbers.Integral):
            n_test = int(self.test_size)
        else:
            n_test = int(np.ceil(self.test_size * n_samples))
        if not 1 <= n_test < n_samples:
            accepted = (
                "a hold-out needs at least 2 samples"
                if n_samples < 2
                else "test_size must be below n_samples"
                if isinstance(self.test_size, numbers.Integral)
                else f"ceil(test_size * n_samples) = {n_test} test rows; a share of "
                f"{np.floor((n_samples - 1) / n_samples * 1e4) / 1e4:g} or less leaves "
                "training rows"
            )
            raise ValueError(
                f"HoldoutSplit(test_size={self.test_size!r}) leaves no row on one side of "
                f"{n_samples} samples: {accepted}."
            )
        return n_test


def _checked_groups(groups, X):
    """``groups`` as one label per row of ``X``, in the words of NestedCV's checks: a column
    read as 1-D; other shapes, another length and missing (None, NaN) labels refused, and
    infinite ones as scikit-learn's group splitters refuse them."""
    if groups is None:
        return None
    # NestedCV's checks, imported here: its package imports this module
    from ._nested._inputs import check_labels, groups_1d

    groups = groups_1d(groups)
    n_labels, n_samples = _num_samples(groups), _num_samples(X)
    if n_labels != n_samples:
        raise ValueError(
            f"groups must hold one group label per row of X ({n_samples} rows); got "
            f"{n_labels} labels."
        )
    check_labels(groups, "groups")
    return check_array(groups, input_name="groups", ensure_2d=False, dtype=None)


def _splits_unstratified(X, test_size):
    """Whether ShuffleSplit takes a hold-out of ``test_size`` from ``X``."""
    try:
        next(ShuffleSplit(n_splits=1, test_size=test_size, random_state=0).split(X))
    except ValueError:
        return False
    return True


def _graph_labels(X, *, required):
    """The labels of graphs ``X`` (None when some graph has none and ``required`` is False:
    graphs without labels, like a ``y`` not given, are split unstratified)."""
    try:
        return read_graph_labels(X)
    except ValueError:
        if required:
            raise
        return None


def _looks_like_classes(y):
    y = _column_raveled(np.asarray(y))
    return y.dtype.kind in "iubOUS" and y.ndim == 1


def _column_raveled(y):
    """``y`` as 1-D labels where it is a column vector (a one-column frame, ``df[["label"]]``),
    which scikit-learn's ``type_of_target`` takes for class labels too; else as it is."""
    if y is None:
        return y
    array = np.asarray(y)
    return array.reshape(-1) if array.ndim == 2 and array.shape[1] == 1 else y


def _time_ordered(n_samples, n_test, groups):
    """The last ``n_test`` rows validate; with groups, the nearest cut that splits none."""
    cut = n_samples - n_test
    if groups is not None:
        codes = np.unique(np.asarray(groups), return_inverse=True)[1].reshape(-1)
        last = np.zeros(codes.max() + 1, dtype=np.intp)
        np.maximum.at(last, codes, np.arange(n_samples))
        # a cut after row i splits no group when no group of the rows up to i goes past i
        reach = np.maximum.accumulate(last[codes])
        allowed = np.flatnonzero(reach[:-1] == np.arange(n_samples - 1)) + 1
        if allowed.size == 0:
            raise ValueError(
                "HoldoutSplit(shuffle=False) cannot cut these rows in time order without "
                "putting a group on both sides: every cut point falls inside a group."
            )
        cut = int(allowed[np.argmin(np.abs(allowed - cut))])
    return np.arange(cut), np.arange(cut, n_samples)


def _grouped(y, groups, n_test, rng):
    """Whole groups, in a random order, to the validation side while it nears its target."""
    group_codes = np.unique(np.asarray(groups), return_inverse=True)[1].reshape(-1)
    n_groups = group_codes.max() + 1
    if n_groups < 2:
        raise ValueError(
            "HoldoutSplit cannot hold out whole groups: all the samples are in one group."
        )
    n_samples = group_codes.size
    class_codes = np.zeros(n_samples, dtype=np.intp) if y is None else _class_codes(y)
    # rows of each class in each group, and the validation rows wanted of each class
    counts = np.zeros((n_groups, class_codes.max() + 1), dtype=np.intp)
    np.add.at(counts, (group_codes, class_codes), 1)
    target = counts.sum(axis=0) * (n_test / n_samples)

    def distances(held):
        """How far the class counts are from their targets, and that plus the size's."""
        classes = np.abs(held - target).sum()
        return classes, classes + abs(held.sum() - n_test)

    held = np.zeros(counts.shape[1])
    current = distances(held)
    in_test = np.zeros(n_groups, dtype=bool)
    order = rng.permutation(n_groups)
    # Class by class alone, groups of one class larger than its target are never taken (a
    # validation set of one group); size alone trades the class proportions away. So first
    # the groups that bring the class counts closer without taking the size further away
    # than that, then the groups that bring both together closer.
    for group in order:
        after = held + counts[group]
        new = distances(after)
        if new[0] < current[0] and new[1] <= current[1]:
            held, current, in_test[group] = after, new, True
    for group in order[~in_test[order]]:
        after = held + counts[group]
        new = distances(after)
        if new[1] < current[1]:
            held, current, in_test[group] = after, new, True
    if not in_test.any():  # every group alone overshoots: take the one that overshoots least
        cost = [distances(counts[group])[1] for group in order]
        in_test[order[np.argmin(cost)]] = True
    if in_test.all():
        in_test[order[-1]] = False
    test_mask = in_test[group_codes]
    return np.flatnonzero(~test_mask), np.flatnonzero(test_mask)


def _class_codes(y):
    """Class codes of ``y``, as StratifiedShuffleSplit makes them (a 2-D ``y``: each distinct
    row a class), refusing a continuous ``y`` with a class of one member, as it does."""
    y = np.asarray(y)
    continuous = type_of_target(y) in ("continuous", "continuous-multioutput")
    if y.ndim == 2:
        y = np.array([" ".join(row.astype("str")) for row in y])
    classes, codes, class_counts = np.unique(y, return_inverse=True, return_counts=True)
    # a class of one member is taken as it is: whole groups need none on each side (a rare
    # class in one group); but a continuous y, each value its own class, stratifies nothing
    if continuous and class_counts.min() < 2:
        raise ValueError(
            "HoldoutSplit stratifies on each distinct value of y as a class, and this y "
            f"is continuous: {int(np.sum(class_counts < 2))} of its {classes.size} classes have "
            "only 1 member, too few to stratify (every class needs at least 2). Pass "
            "stratify=False for a grouped hold-out of a numeric target."
        )
    return codes.reshape(-1)
