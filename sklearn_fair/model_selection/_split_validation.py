"""Checks of splits handed to us: loaded, predefined, or an iterable passed as cv."""

import numbers
import warnings

import numpy as np
from sklearn.utils._param_validation import validate_params

from ..exceptions import InvalidSplitError
from ..utils import IntervalNotBool
from ..utils._stacklevel import external_stacklevel

__all__ = ["check_partition", "validate_inner_splits", "validate_splits", "warn_groups_ignored"]


def warn_groups_ignored(cv, groups):
    """Warn that splitter ``cv`` ignores the ``groups`` it was given, in the words of
    scikit-learn's splitters that take no groups (which NestedCV replaces with its own
    warning when a group does end up on both sides)."""
    if groups is not None:
        warnings.warn(
            f"The groups parameter is ignored by {type(cv).__name__}",
            UserWarning,
            stacklevel=external_stacklevel(),
        )


def _preview(values, limit=10, total=None):
    """The first ``limit`` of ``values``, sorted; ``total`` counts them when only some are given."""
    values = np.sort(np.asarray(values).reshape(-1))
    total = values.size if total is None else total
    shown = ", ".join(str(int(v)) for v in values[:limit])
    more = f", ... ({total} in all)" if total > limit else ""
    return f"[{shown}{more}]"


def _first_missing(present, n_samples, limit=10):
    """The first ``limit`` integers of ``[0, n_samples)`` not in the sorted ``present``, in
    work bounded by ``present.size``, never by ``n_samples`` (which may be huge)."""
    candidates = np.arange(min(n_samples, present.size + limit))
    return candidates[~np.isin(candidates, present)][:limit]


def check_partition(tests, n_samples, *, name):
    """Raise unless the test sets ``tests`` hold every sample of ``n_samples`` exactly once, in
    work bounded by their size: ``n_samples`` (read from a file, it may be anything) is only
    compared with, never allocated."""
    tested = np.concatenate(
        [np.empty(0, np.intp)] + [np.asarray(t, np.intp).ravel() for t in tests]
    )
    unique, counts = np.unique(tested, return_counts=True)
    several = unique[counts > 1]
    n_never = n_samples - int(np.count_nonzero((unique >= 0) & (unique < n_samples)))
    problems = []
    if n_never:
        never = _first_missing(unique, n_samples)
        problems.append(f"never tested: {_preview(never, total=n_never)}")
    if several.size:
        problems.append(f"tested in several folds: {_preview(several)}")
    if problems:
        raise InvalidSplitError(
            f"{name} is not a k-fold split of {n_samples} samples; " + "; ".join(problems) + "."
        )


@validate_params(
    {
        # an iterable of pairs: checked below, with messages that name the fold
        "splits": "no_validation",
        "n_samples": [IntervalNotBool(numbers.Integral, 0, None, closed="left")],
        "kfold": ["boolean"],
        "allow_overlap": ["boolean"],
        "name": [str],
    },
    prefer_skip_nested_validation=True,
)
def validate_splits(splits, n_samples, *, kfold=False, allow_overlap=False, name="cv"):
    """Check a list of ``(train, test)`` index pairs and return them as int arrays.

    Parameters
    ----------
    splits : iterable of (train, test)
        Index arrays (integer positions; boolean masks are converted).
    n_samples : int
        Number of samples the indices refer to.
    kfold : bool, default=False
        Also require that every sample is tested exactly once over all folds (the contract of
        a k-fold split).
    allow_overlap : bool, default=False
        Accept indices in both the training and test set of a fold, as :class:`RollingOrigin`
        with ``lag > 0`` produces on purpose.
    name : str, default="cv"
        How the splits are named in error messages (e.g. ``"outer_cv"``).

    Returns
    -------
    splits : list of (ndarray, ndarray)

    Raises
    ------
    InvalidSplitError
        (a ``ValueError``) naming the fold and the offending indices: an index out of range,
        an index in both the training and test set of a fold, a test index listed twice in one
        fold, an empty training or test set, or (``kfold=True``) a sample tested zero or
        several times.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_fair.model_selection import validate_splits
    >>> validate_splits([([0, 1], [2]), ([2], [0, 1])], 3, kfold=True)[1][1]
    array([0, 1])
    >>> validate_splits([([0, 1], [1, 2])], 3)
    Traceback (most recent call last):
    ...
    sklearn_fair.exceptions.InvalidSplitError: Fold 0 of cv has indices in both its training ...
    """
    try:
        splits = iter(splits)
    except TypeError:
        raise TypeError(
            f"{name} must be an iterable of (train, test) pairs of index arrays; "
            f"got {type(splits).__name__}."
        ) from None
    checked = []
    for fold, pair in enumerate(splits):
        try:
            train, test = pair
        except (TypeError, ValueError):
            raise InvalidSplitError(
                f"Fold {fold} of {name} is not a (train, test) pair of index arrays; "
                f"got {type(pair).__name__}."
            ) from None
        train = _as_indices(train, n_samples, fold, "training", name)
        test = _as_indices(test, n_samples, fold, "test", name)
        for part, indices in (("training", train), ("test", test)):
            if indices.size == 0:
                raise InvalidSplitError(f"Fold {fold} of {name} has an empty {part} set.")
            out_of_range = indices[(indices < 0) | (indices >= n_samples)]
            if out_of_range.size:
                raise InvalidSplitError(
                    f"Fold {fold} of {name} has {part} indices out of range for "
                    f"{n_samples} samples: {_preview(out_of_range)}."
                )
        unique_test, counts = np.unique(test, return_counts=True)
        if (counts > 1).any():
            raise InvalidSplitError(
                f"Fold {fold} of {name} lists test indices more than once: "
                f"{_preview(unique_test[counts > 1])}."
            )
        overlap = np.intersect1d(train, test)
        if overlap.size and not allow_overlap:
            raise InvalidSplitError(
                f"Fold {fold} of {name} has indices in both its training and test set: "
                f"{_preview(overlap)}."
            )
        checked.append((train, test))
    if not checked:
        raise InvalidSplitError(f"{name} produced no splits.")
    if kfold:
        check_partition([test for _, test in checked], n_samples, name=name)
    return checked


def validate_inner_splits(inner, outer_train, n_samples, *, fold, name):
    """:func:`validate_splits` for the inner splits of one outer fold, whose indices must also
    lie in its training set ``outer_train`` (or they leak its test set into model selection)."""
    inner = validate_splits(inner, n_samples, name=f"the inner splits of outer fold {fold}")
    for number, (train, test) in enumerate(inner):
        outside = np.setdiff1d(np.concatenate([train, test]), outer_train)
        if outside.size:
            raise InvalidSplitError(
                f"Inner split {number} of outer fold {fold} of {name} uses indices outside "
                f"the fold's training set (leaking its test set into model selection): "
                f"{_preview(outside)}."
            )
    return inner


def _as_indices(indices, n_samples, fold, part, name):
    indices = np.asarray(indices)
    if indices.dtype == bool:
        if indices.shape != (n_samples,):
            raise InvalidSplitError(
                f"Fold {fold} of {name} has a boolean {part} mask of shape {indices.shape}; "
                f"expected ({n_samples},)."
            )
        return np.flatnonzero(indices)
    if indices.size == 0:
        return indices.astype(np.intp)
    if indices.ndim != 1 or indices.dtype.kind not in "iu":
        raise InvalidSplitError(
            f"Fold {fold} of {name} has {part} indices that are not a 1-D array of "
            f"integers (dtype {indices.dtype}, shape {indices.shape})."
        )
    return indices.astype(np.intp)
