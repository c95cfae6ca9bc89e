"""Checks of splits handed to us: loaded, predefined, or an iterable passed as cv."""

import numbers
import warnings

import numpy as np
from sklearn.utils._param_validation import validate_parameter_constraints, validate_params

from ..exceptions import InvalidSplitError
from ..utils import IntervalNotBool
from ..utils._stacklevel import external_stacklevel

# one past the largest index an array of samples can have
_INTP_END = int(np.iinfo(np.intp).max) + 1

__all__ = [
    "check_kfold_n_splits",
    "check_partition",
    "refuse_repeats",
    "validate_inner_splits",
    "validate_splits",
    "warn_groups_ignored",
]


def check_kfold_n_splits(splitter_class, n_splits):
    """Refuse an ``n_splits`` that is not an int of at least 2 in the words of the library's
    splitters ("The 'n_splits' parameter of ... must be an int in the range [2, inf)"), before
    a k-fold's ``KFold.__init__`` takes True for 1 ("got n_splits=1") or says of
    ``np.True_`` or ``1.0`` that "the number of folds" must be an Integral, naming no
    parameter. A plain int below 2 is left to ``KFold.__init__``, whose words name it
    ("got n_splits=1")."""
    if type(n_splits) is not int:
        validate_parameter_constraints(
            {"n_splits": splitter_class._parameter_constraints["n_splits"]},
            {"n_splits": n_splits},
            caller_name=splitter_class.__name__,
        )


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


def _sorted_unique(values, return_counts=False):
    """``np.unique(values)`` (and the counts) through one ``np.sort``: numpy's ``np.unique``
    of integers goes through a hash table that is many times slower on large arrays."""
    values = np.sort(np.asarray(values).reshape(-1))
    first = np.empty(values.size, dtype=bool)
    first[:1] = True
    np.not_equal(values[1:], values[:-1], out=first[1:])
    unique = values[first]
    if not return_counts:
        return unique
    starts = np.flatnonzero(first)
    return unique, np.diff(np.append(starts, values.size))


def _repeated(values):
    """The distinct values that ``values`` holds more than once, sorted."""
    values = np.sort(np.asarray(values).reshape(-1))
    return _sorted_unique(values[1:][values[1:] == values[:-1]])


def _members(values, of, n_samples):
    """Mask of the ``values`` that are in ``of``; both hold indices in ``[0, n_samples)``. A
    mask of ``n_samples`` entries when that is not much more than the indices (linear work),
    else a binary search in the sorted ``of`` (never an allocation of ``n_samples``)."""
    if n_samples <= 4 * (values.size + of.size) + 1024:
        mask = np.zeros(n_samples, dtype=bool)
        mask[of] = True
        return mask[values]
    of = np.sort(of)
    positions = np.minimum(np.searchsorted(of, values), max(of.size - 1, 0))
    return of[positions] == values if of.size else np.zeros(values.size, dtype=bool)


def check_partition(tests, n_samples, *, name):
    """Raise unless the test sets ``tests`` hold every sample of ``n_samples`` exactly once, in
    work bounded by their size: ``n_samples`` (read from a file, it may be anything) is only
    compared with, never allocated. An index listed twice counts twice, within a fold too:
    callers refuse a repeat within a fold first (:func:`refuse_repeats`), so that "tested in
    several folds" is said only of samples that are."""
    tested = np.concatenate(
        [np.empty(0, np.intp)] + [np.asarray(t, np.intp).ravel() for t in tests]
    )
    unique, counts = _sorted_unique(tested, return_counts=True)
    several = unique[counts > 1]
    n_never = n_samples - int(np.count_nonzero((unique >= 0) & (unique < n_samples)))
    problems = []
    if n_never:
        # the first 10 never tested, in work bounded by the tests, never by n_samples
        candidates = np.arange(min(n_samples, unique.size + 10))
        never = candidates[~np.isin(candidates, unique)][:10]
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
    return _validated(splits, n_samples, kfold=kfold, allow_overlap=allow_overlap, name=name)


def _validated(
    splits,
    n_samples,
    *,
    kfold=False,
    allow_overlap=False,
    name="cv",
    overlap_hint="",
    trains_once=False,
    parts=("training", "test"),
):
    """:func:`validate_splits`; ``overlap_hint`` ends the message about a fold whose training
    and test sets overlap (how the caller can say that the overlap is intended);
    ``trains_once``: also refuse a training index listed twice in a fold (splits that say
    they are k-fold); ``parts``: how messages name a fold's training and test sets (for a
    gnn-comparison file's inner splits, its keys)."""
    try:
        splits = iter(splits)
    except TypeError:
        raise TypeError(
            f"{name} must be an iterable of (train, test) pairs of index arrays; "
            f"got {type(splits).__name__}."
        ) from None
    train_part, test_part = parts
    checked = []
    for fold, pair in enumerate(splits):
        this = f"Fold {fold} of {name}"
        try:
            train, test = pair
        except (TypeError, ValueError):
            raise InvalidSplitError(
                f"{this} is not a (train, test) pair of index arrays; got {type(pair).__name__}."
            ) from None
        train = _as_indices(train, n_samples, this, train_part)
        test = _as_indices(test, n_samples, this, test_part)
        for part, indices in ((train_part, train), (test_part, test)):
            if indices.size == 0:
                raise InvalidSplitError(f"{this} has an empty {part} set.")
            # uint64 indices are compared as they are: above the largest intp, no array of
            # samples holds them (converted first, they wrapped round to negative numbers)
            out_of_range = indices[(indices < 0) | (indices >= min(n_samples, _INTP_END))]
            if out_of_range.size:
                raise InvalidSplitError(
                    f"{this} has {part} indices out of range for "
                    f"{n_samples} samples: {_preview(out_of_range)}."
                )
        train, test = train.astype(np.intp, copy=False), test.astype(np.intp, copy=False)
        refuse_repeats(test, this, test_part)
        if trains_once:
            refuse_repeats(train, this, train_part, why=_TRAINS_ONCE)
        if not allow_overlap:
            in_test = _members(train, test, n_samples)
            if in_test.any():
                raise InvalidSplitError(
                    f"{this} has indices in both its {train_part} and {test_part} set: "
                    f"{_preview(_sorted_unique(train[in_test]))}.{overlap_hint}"
                )
        checked.append((train, test))
    if not checked:
        raise InvalidSplitError(f"{name} produced no splits.")
    if kfold:
        check_partition([test for _, test in checked], n_samples, name=name)
    return checked


#: Why splits that say they are k-fold may not list a training index twice.
_TRAINS_ONCE = (
    ' These splits say they are k-fold (as "kfold": true in a splits file), so each fold '
    "trains on a sample at most once: a repeat is a corrupt split that would weigh that "
    "sample twice in the fit. Only bootstrap splits repeat training indices, and they are "
    "not k-fold."
)


def refuse_repeats(indices, where, part, why=""):
    """Raise unless ``indices`` (the ``part`` set of the split that ``where`` names) lists
    each index once; ``why`` ends the message."""
    repeated = _repeated(indices)
    if repeated.size:
        raise InvalidSplitError(
            f"{where} lists {part} indices more than once: {_preview(repeated)}.{why}"
        )


def validate_inner_splits(
    inner,
    outer_train,
    n_samples,
    *,
    fold,
    name,
    allow_overlap=False,
    overlap_hint="",
    parts=("training", "test"),
):
    """:func:`validate_splits` for the inner splits of one outer fold, whose indices must also
    lie in its training set ``outer_train`` (or they leak its test set into model selection);
    ``parts``: how messages name an inner split's training and test sets."""
    inner = _validated(
        inner,
        n_samples,
        allow_overlap=allow_overlap,
        name=f"the inner splits of outer fold {fold} of {name}",
        overlap_hint=overlap_hint,
        parts=parts,
    )
    for number, (train, test) in enumerate(inner):
        used = np.concatenate([train, test])
        outside = _sorted_unique(used[~_members(used, outer_train, n_samples)])
        if outside.size:
            raise InvalidSplitError(
                f"Inner split {number} of outer fold {fold} of {name} uses indices outside "
                f"the fold's training set (leaking its test set into model selection): "
                f"{_preview(outside)}."
            )
    return inner


def _as_indices(indices, n_samples, where, part):
    indices = np.asarray(indices)
    if indices.dtype == bool:
        if indices.shape != (n_samples,):
            raise InvalidSplitError(
                f"{where} has a boolean {part} mask of shape {indices.shape}; "
                f"expected ({n_samples},)."
            )
        return np.flatnonzero(indices)
    if indices.size == 0:
        return indices.astype(np.intp)
    if indices.ndim != 1 or indices.dtype.kind not in "iu":
        raise InvalidSplitError(
            f"{where} has {part} indices that are not a 1-D array of "
            f"integers (dtype {indices.dtype}, shape {indices.shape})."
        )
    # uint64 is kept until its range is checked: as intp, 2**63 would read -2**63
    return indices.astype(np.intp) if np.can_cast(indices.dtype, np.intp) else indices
