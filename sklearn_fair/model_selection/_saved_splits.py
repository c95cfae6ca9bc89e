"""Saving and loading resampling splits as JSON (never pickle), with a label fingerprint.

Formats: sklearn-fair (version 1 in ``docs/guide/resampling.rst``; version 2 may write a fold as
``{"train_is_rest": true, "test": [...]}``, whose training set is every other sample, in
increasing order) and gnn-comparison (the ``data_splits/*/*.json`` files of Errica et al., 2020).
"""

import hashlib
import json
import numbers
import os
import re
import warnings
from collections.abc import Iterable

import numpy as np
from sklearn.utils._param_validation import StrOptions, validate_params
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import _num_samples

from ..exceptions import (
    InvalidSplitError,
    SklearnFairWarning,
    SplitLeakageWarning,
    SplitsMismatchError,
)
from ..utils import IntervalNotBool, check_graphs, is_graph_data, to_numpy
from ..utils._graphs import torch_state_kept
from ..utils._splits import is_stratified, reusable_inner_splits, stratification_offsets
from ..utils._stacklevel import external_stacklevel
from ..utils._validation import labels_1d
from ._bounded_json import read_json, short_repr
from ._split_validation import (
    _members,
    _preview,
    _repeated,
    _validated,
    check_partition,
    refuse_repeats,
    validate_inner_splits,
    warn_groups_ignored,
)

__all__ = ["SavedSplits", "labels_fingerprint", "load_splits", "save_splits"]

FORMAT_NAME = "sklearn-fair-splits"
FORMAT_VERSION = 1
#: Version 2 may give a fold's training set as "every sample not in its test set".
COMPACT_VERSION = 2

#: Default cap on the size of a splits file (64 MiB: 10 outer folds of a million samples).
MAX_BYTES = 64 * 2**20
#: Default cap on the splits of a file, outer folds and inner splits together.
MAX_FOLDS = 100_000
#: Deepest nesting a splits file may have; the formats need 6 levels.
MAX_DEPTH = 32
#: Cap on the training indices that a gnn-comparison file implies (it lists only the test
#: sets, so its outer training sets are built; 10 folds of 3.7 million samples fit).
MAX_IMPLIED_INDICES = 2**25
_INTP = np.iinfo(np.intp)
#: What :func:`labels_fingerprint` returns: its prefix and a SHA-256 hex digest.
_FINGERPRINT_PREFIX = "sha256-ranks:"
_FINGERPRINT = re.compile(re.escape(_FINGERPRINT_PREFIX) + "[0-9a-f]{64}")
# open() takes an int as a file descriptor: refuse it rather than read or close one
_PATH = [str, os.PathLike]


@validate_params({"y": ["array-like"]}, prefer_skip_nested_validation=True)
def labels_fingerprint(y):
    """Return a fingerprint of the labels ``y``, to tell data sets apart.

    It is the SHA-256 of the labels' ranks (each value replaced by its position among the
    sorted distinct values), so it does not change under an order-preserving re-coding of the
    labels (1..6 or 0..5, -1/1 or 0/1, strings or their ``LabelEncoder`` codes, ints or floats)
    but does change when samples are added or removed, or reordered so that the sequence of
    labels changes. Samples of one label reordered among themselves keep it: a data set
    stored in blocks of its classes (IMDB-BINARY: 500 of one, then 500 of the other) may be
    shuffled within each block unseen, so keep the samples in the order the splits were made
    for.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Class labels or a numeric outcome.

    Returns
    -------
    fingerprint : str
        ``"sha256-ranks:"`` followed by 64 hexadecimal digits.

    Examples
    --------
    >>> from sklearn_fair.model_selection import labels_fingerprint
    >>> labels_fingerprint([1, 2, 2]) == labels_fingerprint([0.0, 1.0, 1.0])
    True
    >>> labels_fingerprint([1, 2, 2]) == labels_fingerprint([2, 1, 2])
    False
    """
    ranks = np.unique(to_numpy(y), return_inverse=True)[1].reshape(-1)
    digest = hashlib.sha256(ranks.astype("<i8").tobytes()).hexdigest()
    return f"{_FINGERPRINT_PREFIX}{digest}"


def _check_fingerprint(fingerprint, name):
    """Raise unless ``fingerprint`` is None or of the form :func:`labels_fingerprint` writes;
    another string would make every ``y`` look like labels of another data set."""
    if fingerprint is None:
        return
    if not isinstance(fingerprint, str):
        raise InvalidSplitError(f"{name} has a 'labels_fingerprint' that is not a string.")
    if not _FINGERPRINT.fullmatch(fingerprint):
        raise InvalidSplitError(
            f"{name} has a malformed 'labels_fingerprint' ({short_repr(fingerprint)}); it must "
            f"be null or {_FINGERPRINT_PREFIX!r} followed by 64 lowercase hexadecimal digits, "
            "as labels_fingerprint() returns."
        )


class SavedSplits:
    """Outer resamples, with optional inner splits, as stored in a splits file.

    This is what :func:`load_splits` returns; pass it to :class:`PredefinedSplits` to use it
    as a splitter (NestedCV and its functions do that with one given as ``outer_cv``, so its
    labels fingerprint is checked and its inner splits are used). Iterating over it yields the
    outer ``(train, test)`` pairs. Given directly as ``cv`` to scikit-learn, it splits as
    ``PredefinedSplits(saved)`` does: :meth:`split` refuses ``X`` of another number of samples
    and, where the splits carry a labels fingerprint, labels ``y`` of another data set or in
    another order (its inner splits are not used there), so also a tool that splits with
    other labels (``permutation_test_score``, ``ClassifierChain``): pass those
    ``list(saved.split(X, y))``.

    Parameters
    ----------
    folds : list of (ndarray, ndarray)
        The outer ``(train, test)`` index pairs.
    inner_splits : list of (list of (ndarray, ndarray) or None), default=None
        For each outer fold, its model-selection splits in absolute indices, or None. ``None``
        means no fold has any.
    n_samples : int
        Number of samples the indices refer to.
    labels_fingerprint : str or None, default=None
        :func:`labels_fingerprint` of the labels the splits were made for.
    kfold : bool, default=False
        Whether the splits are k-fold: their test sets partition the samples, and no training
        set lists a sample twice (one that does is refused, as bootstrap resamples are not
        k-fold).
    allow_overlap : bool, default=False
        Whether a split's training and test sets may share indices on purpose, as those of
        :class:`RollingOrigin` with ``lag > 0`` do.
    file_format : {"sklearn-fair", "gnn-comparison"} or None, default=None
        The format of the file the splits were read from, as :func:`load_splits` sets it.
        The test folds of a gnn-comparison file are stratified by class in the order of the
        graphs it was made for, so :meth:`split` warns when the labels ``y`` are not.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_fair.model_selection import SavedSplits
    >>> saved = SavedSplits([(np.array([1, 2]), np.array([0]))], n_samples=3)
    >>> saved
    SavedSplits(n_folds=1, n_samples=3, kfold=False, inner_splits=no, fingerprint=no)
    """

    def __init__(
        self,
        folds,
        *,
        inner_splits=None,
        n_samples,
        labels_fingerprint=None,
        kfold=False,
        allow_overlap=False,
        file_format=None,
    ):
        self.folds = folds
        # an iterator of inner splits could be read only once; keep what it yields
        self.inner_splits = reusable_inner_splits(inner_splits)
        self.n_samples = n_samples
        self.labels_fingerprint = labels_fingerprint
        self.kfold = kfold
        self.allow_overlap = allow_overlap
        self.file_format = file_format

    def __iter__(self):
        return iter(self.folds)

    def __len__(self):
        return len(self.folds)

    def split(self, X=None, y=None, groups=None):
        """Yield the outer ``(train, test)`` pairs, checked as :class:`PredefinedSplits` does.

        scikit-learn calls it with the data when a SavedSplits is its ``cv``; without it,
        ``check_cv`` would take the splits as a bare list, whatever ``X`` and ``y`` are.

        Parameters
        ----------
        X : array-like or sequence of length n_samples, default=None
            The data; if given, its length must be ``n_samples``.
        y : array-like of shape (n_samples,), default=None
            The labels; if given and the splits carry a labels fingerprint, they must match it.
        groups : None
            Ignored, with a UserWarning when given.

        Yields
        ------
        train, test : ndarray
            The indices of each outer fold's training and test samples.

        Raises
        ------
        SplitsMismatchError
            If ``X`` or ``y`` do not belong to the data set of the splits.
        InvalidSplitError
            If the splits themselves are invalid.

        Warns
        -----
        SklearnFairWarning
            If the splits come from a gnn-comparison file and a class of ``y`` is off its
            share of a test fold by more than one sample: the samples are probably not in
            the order the file was made for.
        """
        warn_groups_ignored(self, groups)
        return replay(as_saved_splits(self, name="SavedSplits"), X, y, name="SavedSplits")

    def get_n_splits(self, X=None, y=None, groups=None):
        """Return the number of outer folds."""
        return len(as_saved_splits(self, name="SavedSplits").folds)

    def get_inner_splits(self, fold):
        """Return the inner ``(train, test)`` pairs of outer fold ``fold``, or None."""
        return None if self.inner_splits is None else self.inner_splits[fold]

    def __repr__(self):
        has_inner = self.inner_splits is not None and any(s is not None for s in self.inner_splits)
        return (
            f"SavedSplits(n_folds={len(self.folds)}, n_samples={self.n_samples}, "
            f"kfold={self.kfold}, inner_splits={'yes' if has_inner else 'no'}, "
            f"fingerprint={'yes' if self.labels_fingerprint else 'no'})"
        )


def _checked(
    folds,
    inner_splits,
    n_samples,
    *,
    kfold,
    name,
    fingerprint=None,
    allow_overlap=False,
    overlap_hint="",
    inner_parts=("training", "test"),
):
    """Validate outer folds and inner splits and return them as a SavedSplits (``kfold=None``:
    whether the folds are k-fold, found from them; ``kfold=True``: they must be, their
    training sets without repeats included).

    Each inner split must only use indices of its outer fold's training set: one that touches
    the outer test set leaks it into model selection. ``allow_overlap``: a split's training
    and test sets may share indices; ``overlap_hint`` says how to allow it, when they may not.
    ``inner_parts``: how messages name an inner split's training and test sets (for a
    gnn-comparison file, its keys).
    """
    overlap = {"allow_overlap": allow_overlap, "overlap_hint": overlap_hint}
    folds = _validated(
        folds, n_samples, kfold=bool(kfold), trains_once=bool(kfold), name=name, **overlap
    )
    if kfold is None:  # a file written by hand may leave it out: what its folds are
        kfold = _says_kfold(folds, n_samples)
    if inner_splits is None or all(inner is None for inner in inner_splits):
        inner_splits = None
    elif len(inner_splits) != len(folds):
        raise InvalidSplitError(
            f"{name} has {len(folds)} outer folds but inner splits for {len(inner_splits)}."
        )
    else:
        inner_splits = [
            None
            if inner is None
            else validate_inner_splits(
                inner, train, n_samples, fold=fold, name=name, parts=inner_parts, **overlap
            )
            for fold, ((train, _), inner) in enumerate(zip(folds, inner_splits))
        ]
    return SavedSplits(
        folds,
        inner_splits=inner_splits,
        n_samples=n_samples,
        labels_fingerprint=fingerprint,
        kfold=kfold,
        allow_overlap=allow_overlap,
    )


def _is_kfold(folds, n_samples):
    # compare sizes first: n_samples may be far larger than the splits (never allocate it)
    if sum(test.size for _, test in folds) != n_samples:
        return False
    tested = np.bincount(np.concatenate([test for _, test in folds]), minlength=n_samples)
    return bool(np.all(tested == 1))


def _says_kfold(folds, n_samples):
    """Whether validated ``folds`` are k-fold, as a splits file says with ``"kfold": true``:
    their test sets partition the samples and no training set lists a sample twice (the
    out-of-bag test sets of a few bootstrap resamples may partition small data)."""
    return _is_kfold(folds, n_samples) and not any(_repeated(train).size for train, _ in folds)


def _normalise(splits, name):
    """Split an iterable of (train, test[, inner]) items into folds and inner splits."""
    if isinstance(splits, SavedSplits):
        return list(splits.folds), splits.inner_splits
    folds, inner_splits = [], []
    for number, item in enumerate(splits):
        item = tuple(item) if isinstance(item, (list, tuple)) else item
        if not isinstance(item, tuple) or len(item) not in (2, 3):
            raise InvalidSplitError(
                f"Fold {number} of {name} must be a (train, test) or (train, test, inner) "
                f"tuple; got {type(item).__name__}."
            )
        folds.append(item[:2])
        inner = item[2] if len(item) == 3 else None
        inner_splits.append(None if inner is None else _inner_pairs(inner, number, name))
    return folds, inner_splits


def _inner_pairs(inner, fold, name):
    """The inner splits ``inner`` of fold ``fold`` as a list of tuples, refusing what is
    not a list of pairs (e.g. the count ``NestedCV.outer_results_[k]["inner_splits"])."""
    if isinstance(inner, (str, bytes)) or not isinstance(inner, Iterable):
        raise InvalidSplitError(
            f"The inner splits of fold {fold} of {name} (its third item) must be None or a "
            f"list of (train, test) pairs; got {type(inner).__name__} {short_repr(inner)}."
        )
    pairs = list(inner)
    for number, pair in enumerate(pairs):
        if isinstance(pair, (str, bytes)) or not isinstance(pair, Iterable):
            raise InvalidSplitError(
                f"Inner split {number} of fold {fold} of {name} is not a (train, test) pair of "
                f"index arrays; got {type(pair).__name__} {short_repr(pair)}."
            )
    return [tuple(pair) for pair in pairs]


def _max_index_plus_one(folds, inner_splits):
    arrays = [np.asarray(a).reshape(-1) for pair in folds for a in pair]
    for inner in inner_splits or []:
        arrays += [np.asarray(a).reshape(-1) for pair in inner or [] for a in pair]
    # a boolean mask is as long as the data; integer indices reach up to its last sample
    ends = [
        a.size if a.dtype == bool else int(a.max()) + 1
        for a in arrays
        if a.size and a.dtype.kind in "biu"
    ]
    return max(ends, default=0)


#: What save_splits and PredefinedSplits take as splits.
SPLITS = [SavedSplits, Iterable]


#: How save_splits is told that the splits overlap on purpose.
_SAVE_OVERLAP_HINT = (
    " If the overlap is intended (as in RollingOrigin with lag > 0), pass allow_overlap=True."
)


def as_saved_splits(
    splits, *, n_samples=None, y=None, name="splits", allow_overlap=False, overlap_hint=""
):
    """Validate any :data:`SPLITS` (SavedSplits, pairs or triples) and return a SavedSplits;
    overlapping training and test sets are accepted if ``allow_overlap`` or the SavedSplits
    says so."""
    fingerprint = getattr(splits, "labels_fingerprint", None)
    _check_fingerprint(fingerprint, name)
    folds, inner_splits = _normalise(splits, name)
    if isinstance(splits, SavedSplits):
        n_samples = splits.n_samples if n_samples is None else n_samples
    if y is not None:
        if n_samples is not None and len(y) != n_samples:
            raise SplitsMismatchError(
                f"y has {len(y)} labels but the splits are for n_samples={n_samples}."
            )
        n_samples = len(y)
        new_fingerprint = labels_fingerprint(y)
        if fingerprint is not None and fingerprint != new_fingerprint:
            raise SplitsMismatchError(
                "y does not match the labels these splits were made for "
                f"({new_fingerprint[:24]}... vs {fingerprint[:24]}...)."
            )
        fingerprint = new_fingerprint
    if n_samples is None:
        n_samples = _max_index_plus_one(folds, inner_splits)
    kfold = getattr(splits, "kfold", False)
    allowed = getattr(splits, "allow_overlap", False)
    if not isinstance(allowed, (bool, np.bool_)):  # "false" would be true
        raise ValueError(
            f"The 'allow_overlap' parameter of SavedSplits must be True or False. Got "
            f"{allowed!r} instead."
        )
    allow_overlap = bool(allow_overlap or allowed)
    saved = _checked(
        folds,
        inner_splits,
        n_samples,
        kfold=kfold,
        name=name,
        fingerprint=fingerprint,
        allow_overlap=allow_overlap,
        overlap_hint=overlap_hint,
    )
    saved.kfold = _says_kfold(saved.folds, n_samples)
    saved.file_format = getattr(splits, "file_format", None)
    return saved


@validate_params(
    {
        "splits": SPLITS,
        "path": _PATH,
        "y": ["array-like", None],
        "n_samples": [IntervalNotBool(numbers.Integral, 1, None, closed="left"), None],
        "max_bytes": [IntervalNotBool(numbers.Integral, 1, None, closed="left")],
        "max_folds": [IntervalNotBool(numbers.Integral, 1, None, closed="left")],
        "allow_overlap": ["boolean"],
    },
    prefer_skip_nested_validation=True,
)
def save_splits(
    splits,
    path,
    *,
    y=None,
    n_samples=None,
    max_bytes=MAX_BYTES,
    max_folds=MAX_FOLDS,
    allow_overlap=False,
):
    """Write resampling splits to a JSON file in the sklearn-fair format.

    Parameters
    ----------
    splits : iterable or SavedSplits
        The outer resamples: ``(train, test)`` index pairs, e.g. ``cv.split(X, y)``, or
        ``(train, test, inner)`` triples where ``inner`` is None or a list of ``(train, test)``
        pairs of absolute indices inside ``train`` (the fold's model-selection splits); or a
        :class:`SavedSplits` (as :func:`load_splits` returns) to re-save.
    path : str or path-like
        The file to write.
    y : array-like of shape (n_samples,), default=None
        The labels the splits are for. Their :func:`labels_fingerprint` is stored, so that
        :class:`PredefinedSplits` refuses other data. Strongly recommended.
    n_samples : int, default=None
        Number of samples; defaults to ``len(y)``, else the largest index plus one.
    max_bytes : int, default=64 MiB
        Largest file written; the default is :func:`load_splits`' default, so that whatever
        is written loads with the defaults. A fold whose training set is every sample not in
        its test set, in increasing order (k-fold), is written as its test set only (format
        version 2): a 10-fold split of a million samples takes about 7 MiB.
    max_folds : int, default=100000
        Most splits written, outer folds and inner splits together; the default is
        :func:`load_splits`' default. Pass the same value to :func:`load_splits` to read
        more splits back.
    allow_overlap : bool, default=False
        Accept splits whose training and test sets share indices, as :class:`RollingOrigin`
        with ``lag > 0`` makes them on purpose (a :class:`SavedSplits` that allows it is
        accepted as well). The file records it (``"allow_overlap": true``), so that
        :func:`load_splits` and :class:`PredefinedSplits` replay the splits; without it,
        such splits are refused as invalid.

    Raises
    ------
    InvalidSplitError
        If the splits are invalid (see :func:`validate_splits`), an inner split uses indices
        outside its outer fold's training set, or the file would be larger than ``max_bytes``
        or hold more than ``max_folds`` splits (nothing is written then).

    See Also
    --------
    load_splits : Read such a file back.

    Examples
    --------
    >>> import os, tempfile
    >>> import numpy as np
    >>> from sklearn.model_selection import StratifiedKFold
    >>> from sklearn_fair.model_selection import load_splits, save_splits
    >>> X, y = np.zeros((12, 1)), np.array([0, 1] * 6)
    >>> path = os.path.join(tempfile.mkdtemp(), "splits.json")
    >>> save_splits(StratifiedKFold(3).split(X, y), path, y=y)
    >>> load_splits(path)
    SavedSplits(n_folds=3, n_samples=12, kfold=True, inner_splits=no, fingerprint=yes)
    """
    saved = as_saved_splits(
        splits,
        n_samples=n_samples,
        y=y,
        allow_overlap=allow_overlap,
        overlap_hint=_SAVE_OVERLAP_HINT,
    )
    folds, compact = [], False
    for fold, (train, test) in enumerate(saved.folds):
        if _is_rest(train, test, saved.n_samples, overlap=saved.allow_overlap):
            # the training set is every other sample: the file lists the test set only
            entry, compact = {"train_is_rest": True, "test": test.tolist()}, True
        else:
            entry = {"train": train.tolist(), "test": test.tolist()}
        inner = saved.get_inner_splits(fold)
        if inner is not None:
            entry["inner"] = [{"train": tr.tolist(), "test": te.tolist()} for tr, te in inner]
        folds.append(entry)
    document = {
        "format": FORMAT_NAME,
        "version": COMPACT_VERSION if compact else FORMAT_VERSION,
        "n_samples": int(saved.n_samples),
        "kfold": saved.kfold,
        "labels_fingerprint": saved.labels_fingerprint,
        # written only when true: files of splits that do not overlap stay as they were
        **({"allow_overlap": True} if saved.allow_overlap else {}),
        "folds": folds,
    }
    text = json.dumps(document, separators=(",", ":")) + "\n"
    n_bytes = len(text.encode("utf-8"))
    # what load_splits counts: one JSON object per outer fold and per inner split
    n_splits = len(folds) + sum(len(entry.get("inner", ())) for entry in folds)
    over = []
    if n_bytes > max_bytes:
        over.append((f"take {n_bytes} bytes in JSON", "max_bytes", max_bytes, MAX_BYTES))
    if n_splits > max_folds:
        what = f"are {n_splits} splits (outer folds and inner splits)"
        over.append((what, "max_folds", max_folds, MAX_FOLDS))
    if over:
        raise InvalidSplitError(
            "These splits "
            + " and ".join(
                f"{what}, more than {param}={limit}"
                + (" (load_splits' default too)" if limit == default else "")
                for what, param, limit, default in over
            )
            + "; pass save_splits a larger "
            + " and ".join(param for _, param, _, _ in over)
            + " to write them, and load_splits the same to read them back."
        )
    with open(path, "w", encoding="utf-8") as file:
        file.write(text)


def _is_rest(train, test, n_samples, *, overlap=False):
    """Whether ``train`` is every sample of ``range(n_samples)`` not in ``test``, in increasing
    order (as the loader rebuilds it: a training set in another order is written out).
    ``overlap``: the splits may share indices between training and test sets."""
    if train.size + test.size != n_samples or train.size == 0:
        return False
    if overlap and _members(train, test, n_samples).any():
        return False
    # the splits are validated: in range, test without repeats (and here, no overlap)
    return bool(np.all(np.diff(train) > 0))


@validate_params(
    {
        "path": _PATH,
        "format": [StrOptions({"sklearn-fair", "gnn-comparison"})],
        "max_bytes": [IntervalNotBool(numbers.Integral, 1, None, closed="left")],
        "max_folds": [IntervalNotBool(numbers.Integral, 1, None, closed="left")],
    },
    prefer_skip_nested_validation=True,
)
def load_splits(path, format="sklearn-fair", *, max_bytes=MAX_BYTES, max_folds=MAX_FOLDS):
    """Read resampling splits from a JSON file, validating every index.

    Only JSON is parsed: loading never executes code. The work is bounded by the file's
    size, whatever it holds: a file over ``max_bytes``, nested more than 32 levels deep, or
    with an index that does not fit the samples is refused before anything proportional to an
    index value is allocated.

    Parameters
    ----------
    path : str or path-like
        The file to read.
    format : {"sklearn-fair", "gnn-comparison"}, default="sklearn-fair"
        ``"sklearn-fair"``: a file written by :func:`save_splits` (the format is described in
        the user guide). ``"gnn-comparison"``: a ``data_splits/*/*.json`` file of Errica et
        al. (2020), a 10-fold outer split whose folds each carry one inner hold-out split
        (``"train"``/``"validation"``); the outer training set is every sample not in the
        fold's test set.
    max_bytes : int, default=64 MiB
        Largest file size read; a larger file raises InvalidSplitError without being read
        further.
    max_folds : int, default=100000
        Most splits the file may hold, outer folds and inner splits together; counted on the
        raw text before it is parsed, so a file of millions of tiny folds is refused in work
        bounded by its size.

    Returns
    -------
    splits : SavedSplits
        Outer folds, inner splits (if any), ``n_samples``, the labels' fingerprint (None
        for gnn-comparison files, which carry none) and ``file_format``. Pass it to
        :class:`PredefinedSplits`; the splits of a gnn-comparison file then warn when the
        labels they are used with are not stratified in their test folds, as in the files of
        Errica et al. they are.

    Raises
    ------
    InvalidSplitError
        (a ``ValueError``) if the file is malformed or its splits are invalid: not JSON,
        larger than ``max_bytes`` or nested too deeply; a key an sklearn-fair file does not
        have (a misspelt ``"inner"`` would drop the inner splits); an index that is not an
        int, out of range, in both the training and test set of a fold (unless the file
        says ``"allow_overlap": true``, as :func:`save_splits` writes it when told), tested
        twice in a fold or, for a k-fold file, tested in zero or several folds or trained on
        twice in a fold; or an inner split outside its outer training set.

    Examples
    --------
    >>> import json, os, tempfile
    >>> from sklearn_fair.model_selection import load_splits
    >>> folds = [{"test": [0, 2], "model_selection": [{"train": [1], "validation": [3]}]},
    ...          {"test": [1, 3], "model_selection": [{"train": [0], "validation": [2]}]}]
    >>> path = os.path.join(tempfile.mkdtemp(), "MINI_splits.json")
    >>> with open(path, "w") as f:
    ...     json.dump(folds, f)
    >>> splits = load_splits(path, format="gnn-comparison")
    >>> splits.folds[0]
    (array([1, 3]), array([0, 2]))
    >>> splits.get_inner_splits(0)
    [(array([1]), array([3]))]
    """
    document = read_json(
        path,
        max_bytes=max_bytes,
        max_depth=MAX_DEPTH,
        error=InvalidSplitError,
        # every split is a JSON object, and the sklearn-fair document one more
        max_objects=max_folds + (format == "sklearn-fair"),
        objects_hint=" (one per fold and inner split, and the document; max_folds="
        f"{max_folds}: pass a larger max_folds to read it)",
        unique_keys=True,
    )
    name = f"the splits in {os.path.basename(os.fspath(path))}"
    if format == "gnn-comparison":
        saved = _from_gnn_comparison(document, name)
    else:
        saved = _from_sklearn_fair(document, name)
        _warn_overlap(saved, name)
    saved.file_format = format
    return saved


def _warn_overlap(saved, name):
    """Warn that a file's folds train on rows they test, which its ``allow_overlap`` lets
    through: a file from elsewhere says so in one field (a run on the splits warns again,
    of its scores)."""
    if not saved.allow_overlap:
        return
    shared = shared_rows(saved.folds)
    if shared:
        warnings.warn(
            f'{name} allow training and test sets to share rows ("allow_overlap": true), '
            f"{shared}. That is intended for lagged time-series splits (RollingOrigin with "
            "lag > 0); if you did not make this file so, do not use it.",
            SplitLeakageWarning,
            stacklevel=external_stacklevel(),
        )


def shared_rows(folds):
    """How many of ``folds`` train on rows they test, in words ("and 4 of their 4 folds do
    (fold 0: 3 of its 23 test rows): their scores are not scores of unseen rows"), or "" where
    none does: the words of every warning about such splits."""
    shared = [np.intersect1d(train, test).size for train, test in folds]
    overlapping = [fold for fold, count in enumerate(shared) if count]
    if not overlapping:
        return ""
    first = overlapping[0]
    return (
        f"and {len(overlapping)} of their {len(shared)} folds do (fold {first}: "
        f"{shared[first]} of its {np.size(folds[first][1])} test rows): their scores are not "
        "scores of unseen rows"
    )


def _from_sklearn_fair(document, name):
    if isinstance(document, list):
        raise InvalidSplitError(
            f"{name} is a JSON list, not an sklearn-fair splits file; a split file of "
            "gnn-comparison loads with format='gnn-comparison'."
        )
    if not isinstance(document, dict) or "format" not in document:
        raise InvalidSplitError(f"{name} is not an sklearn-fair splits file (no 'format' key).")
    if document["format"] != FORMAT_NAME:
        raise InvalidSplitError(
            f"{name} is not an sklearn-fair splits file: its 'format' is "
            f"{short_repr(document['format'])}, not {FORMAT_NAME!r}."
        )
    version = document.get("version")
    # json.loads makes 1.0 a float and true a bool, neither of them a version
    if type(version) is not int or version not in (FORMAT_VERSION, COMPACT_VERSION):
        raise InvalidSplitError(
            f"{name} has format version {short_repr(version)}; this version of "
            f"sklearn-fair reads versions {FORMAT_VERSION} and {COMPACT_VERSION}."
        )
    n_samples = document.get("n_samples")
    # json.loads makes ints of type int and booleans of its subclass bool
    if type(n_samples) is not int or not 1 <= n_samples <= _INTP.max:
        raise InvalidSplitError(
            f"{name} has no valid 'n_samples' (got {short_repr(n_samples)}); it must be an "
            f"int in [1, {_INTP.max}]."
        )
    _only_keys(document, _DOCUMENT_KEYS, name)
    fingerprint = document.get("labels_fingerprint")
    _check_fingerprint(fingerprint, name)
    kfold = document.get("kfold")
    if kfold is not None and not isinstance(kfold, bool):
        raise InvalidSplitError(
            f"{name} has a 'kfold' field of {short_repr(kfold)}; it must be true or false."
        )
    allow_overlap = document.get("allow_overlap", False)
    if not isinstance(allow_overlap, bool):
        raise InvalidSplitError(
            f"{name} has an 'allow_overlap' field of {short_repr(allow_overlap)}; it must be "
            "true or false."
        )
    entries = _field(document, "folds", list, name)
    rest = [isinstance(e, dict) and e.get("train_is_rest") is True for e in entries]
    if any(rest):
        if version != COMPACT_VERSION:
            raise InvalidSplitError(f"{name} uses 'train_is_rest', which needs version 2.")
        implied = sum(rest) * n_samples
        if implied > MAX_IMPLIED_INDICES:
            raise InvalidSplitError(
                f"{name} has {sum(rest)} folds whose training set is the rest of "
                f"n_samples={n_samples}: {implied} indices, more than the "
                f"{MAX_IMPLIED_INDICES} this reader builds."
            )
    folds, inner_splits = [], []
    for fold, entry in enumerate(entries):
        where = f"outer fold {fold} of {name}"
        if not isinstance(entry, dict):
            raise InvalidSplitError(f"{where} is not a JSON object.")
        _only_keys(entry, _FOLD_KEYS, where)
        test = _indices(entry, "test", where)
        if rest[fold]:
            if "train" in entry:
                raise InvalidSplitError(f"{where} has both 'train' and 'train_is_rest'.")
            train = _rest(test, n_samples)
        else:
            if "train_is_rest" in entry:
                raise InvalidSplitError(f"'train_is_rest' of {where} must be true if given.")
            train = _indices(entry, "train", where)
        folds.append((train, test))
        inner = entry.get("inner")
        if inner is not None and not isinstance(inner, list):
            raise InvalidSplitError(f"'inner' of {where} is not a list.")
        if inner is not None:
            for number, pair in enumerate(inner):
                if isinstance(pair, dict):
                    _only_keys(pair, ("train", "test"), f"inner split {number} of {where}")
        inner_splits.append(
            None if inner is None else _pairs(inner, "test", "inner split {}", where)
        )
    return _checked(
        folds,
        inner_splits,
        n_samples,
        kfold=kfold,
        name=name,
        fingerprint=fingerprint,
        allow_overlap=allow_overlap,
        overlap_hint=(
            " A file whose splits share indices between training and test sets on purpose "
            '(saved with allow_overlap=True) says so with "allow_overlap": true.'
        ),
    )


_DOCUMENT_KEYS = (
    "format",
    "version",
    "n_samples",
    "kfold",
    "labels_fingerprint",
    "allow_overlap",
    "folds",
)
_FOLD_KEYS = ("train", "test", "train_is_rest", "inner")


def _only_keys(mapping, known, where, file="an sklearn-fair splits file"):
    """Refuse keys a splits file (``file``) does not have: a misspelt one ("inners",
    "labels_fingerprnt") would drop what it holds without a word."""
    unknown = [key for key in mapping if key not in known]
    if unknown:
        shown = ", ".join(short_repr(key) for key in unknown[:5])
        raise InvalidSplitError(
            f"{where} has the key(s) {shown}, which {file} does not have; its keys are "
            f"{', '.join(known)}."
        )


_GNN_FILE = "a gnn-comparison split file"
#: How messages name the two sets of a gnn-comparison file's inner split: by its keys.
_GNN_INNER_PARTS = ("'train'", "'validation'")


def _from_gnn_comparison(document, name):
    if not isinstance(document, list) or not document:
        raise InvalidSplitError(
            f"{name} is not a gnn-comparison split file: expected a non-empty JSON list of "
            "outer folds."
        )
    tests, inner_splits = [], []
    for fold, entry in enumerate(document):
        where = f"outer fold {fold} of {name}"
        if not isinstance(entry, dict):
            raise InvalidSplitError(f"{where} is not a JSON object.")
        # a key the format does not have would be ignored: an outer "train" (the training
        # set is the rest of the graphs) would not be the one the splits are run with
        _only_keys(entry, ("test", "model_selection"), where, _GNN_FILE)
        tests.append(_indices(entry, "test", where))
        # a graph listed twice in one fold, said as an sklearn-fair file's fault is (the
        # partition check below counts listings: it would say "tested in several folds")
        refuse_repeats(tests[-1], f"Fold {fold} of {name}", "test")
        selection = _field(entry, "model_selection", list, where)
        inner_splits.append(_pairs(selection, "validation", "model_selection[{}]", where))
        for inner, (train, _) in enumerate(inner_splits[-1]):
            _only_keys(
                selection[inner],
                ("train", "validation"),
                f"model_selection[{inner}] of {where}",
                _GNN_FILE,
            )
            refuse_repeats(  # the format's inner splits partition the graphs
                train,
                f"model_selection[{inner}] of {where}",
                _GNN_INNER_PARTS[0],
                why=" A gnn-comparison file's splits partition the graphs: a repeat is a "
                "corrupt file (it would weigh that graph twice).",
            )
    n_samples = _max_index_plus_one([(t, t) for t in tests], inner_splits)
    # The test sets must partition the samples; checking that first, in work bounded by
    # the file, keeps a stray huge index from building training sets of that size.
    if any((test < 0).any() for test in tests):
        negative = np.concatenate([test[test < 0] for test in tests])
        raise InvalidSplitError(f"{name} has negative test indices: {negative[:5].tolist()}.")
    check_partition(tests, n_samples, name=name)
    implied = len(tests) * n_samples
    if implied > MAX_IMPLIED_INDICES:
        raise InvalidSplitError(
            f"{name} has {len(tests)} outer folds of {n_samples} samples: their training sets "
            f"would hold {implied} indices, more than the {MAX_IMPLIED_INDICES} this reader "
            "builds from a gnn-comparison file; save the splits in the sklearn-fair format, "
            "which lists the training sets."
        )
    folds = [(_rest(test, n_samples), test) for test in tests]
    saved = _checked(
        folds,
        inner_splits,
        n_samples,
        kfold=True,
        name=name,
        inner_parts=_GNN_INNER_PARTS,
    )
    _check_inner_cover(saved, name)
    return saved


def _check_inner_cover(saved, name):
    """Raise unless each inner split's train and validation sets together are exactly its
    outer fold's training set, as in every file of Errica et al.: a graph left out would be
    silently unused in model selection. The splits are validated: the inner sets lie inside
    the outer training set, without repeats and without overlap, so the sizes tell."""
    for fold, (outer_train, _) in enumerate(saved.folds):
        for inner, (train, validation) in enumerate(saved.get_inner_splits(fold)):
            n_missing = outer_train.size - train.size - validation.size
            if n_missing:
                used = np.concatenate([train, validation])
                missing = outer_train[~_members(outer_train, used, saved.n_samples)]
                raise InvalidSplitError(
                    f"model_selection[{inner}] of outer fold {fold} of {name} leaves "
                    f"{n_missing} of the fold's {outer_train.size} training graphs out of "
                    f"both 'train' and 'validation': {_preview(missing)}. A gnn-comparison "
                    "file's inner split partitions the outer training set; a graph left out "
                    "would be silently unused in model selection."
                )


def _rest(test, n_samples):
    """Every sample of ``range(n_samples)`` not in ``test`` (indices out of range ignored)."""
    in_train = np.ones(n_samples, dtype=bool)
    in_train[test[(test >= 0) & (test < n_samples)]] = False
    return np.flatnonzero(in_train)


def _pairs(splits, test_key, label, where):
    """The ``(train, test)`` index arrays of a JSON list of split objects."""
    pairs = []
    for j, pair in enumerate(splits):
        what = f"{label.format(j)} of {where}"
        pairs.append((_indices(pair, "train", what), _indices(pair, test_key, what)))
    return pairs


def _field(mapping, key, kind, where):
    if not isinstance(mapping, dict) or key not in mapping:
        raise InvalidSplitError(f"{where} has no '{key}' entry.")
    value = mapping[key]
    if not isinstance(value, kind):
        raise InvalidSplitError(f"'{key}' of {where} is not a JSON {kind.__name__}.")
    return value


def _indices(mapping, key, where):
    values = _field(mapping, key, list, where)
    bad = [v for v in values if type(v) is not int]
    if bad:
        shown = ", ".join(short_repr(v) for v in bad[:5])
        raise InvalidSplitError(f"'{key}' of {where} must list integer indices; found [{shown}].")
    # JSON ints have no bound; refuse those no array can hold (and no data set can have)
    # (the bounds as local ints: iinfo's attributes are properties, slow once per index)
    low, high = int(_INTP.min), int(_INTP.max)
    huge = [v for v in values if not low <= v <= high]
    if huge:
        shown = ", ".join(short_repr(v) for v in huge[:5])
        raise InvalidSplitError(f"'{key}' of {where} has indices out of range: [{shown}].")
    return np.asarray(values, dtype=np.intp)


def replay(saved, X, y, *, name):
    """The folds of ``saved`` (copies), once ``X`` and ``y`` are found to be its data: as many
    rows, and the labels of its fingerprint; ``name`` is the splitter the messages name."""
    n_samples = None if X is None else _num_samples(X)
    if n_samples is not None and n_samples != saved.n_samples:
        raise SplitsMismatchError(
            f"{name} are for {saved.n_samples} samples but X has {n_samples}."
            + _mismatch_hint(saved, X, n_samples)
        )
    if y is not None and saved.labels_fingerprint is not None:
        if _num_samples(y) != saved.n_samples:
            raise SplitsMismatchError(
                f"{name} are for {saved.n_samples} samples but y has {_num_samples(y)} labels."
            )
        if labels_fingerprint(y) != saved.labels_fingerprint:
            raise SplitsMismatchError(
                "The labels y are not those the splits were saved with (their fingerprints "
                "differ): the splits belong to another data set, or the samples are in "
                "another order, or y was permuted. scikit-learn's permutation_test_score "
                "permutes y and splits again for each permutation: pass it the splits "
                "checked once against the labels in their order, "
                "cv=list(PredefinedSplits(saved).split(X, y))."
            )
    if y is not None and saved.file_format == "gnn-comparison":
        _warn_unstratified(saved, y, name)
    return ((train.copy(), test.copy()) for train, test in saved.folds)


def _warn_unstratified(saved, y, name):
    """Warn where the test folds of ``saved`` (splits of a gnn-comparison file) are not
    stratified by the classes of ``y`` (:func:`~sklearn_fair.utils._splits.is_stratified`,
    the rule the reproducibility card reads too). The files of Errica et al. are made by
    StratifiedKFold: in the order of the graphs they were made for, they pass it, so labels
    that do not are in another order. The warning names the fold furthest off its shares."""
    y = np.asarray(labels_1d(y))
    if _num_samples(y) != saved.n_samples or type_of_target(y) not in ("binary", "multiclass"):
        return
    tests = [test for _, test in saved.folds]
    if is_stratified(y, tests):
        return
    classes, counts, expected = stratification_offsets(y, tests)
    off = np.abs(counts - expected).max(axis=1)
    fold = int(np.argmax(off))  # the fold furthest off, and its class furthest off
    label = int(np.argmax(np.abs(counts[fold] - expected[fold])))
    warnings.warn(
        f"{name} replays a gnn-comparison split file, whose test folds are stratified by "
        "class (StratifiedKFold: each class within one graph of its share of every fold, or "
        "of its count in every other fold), but with these "
        f"labels {np.sum(off > 1 + 1e-9)} of its {off.size} test folds hold a class off its "
        f"share by more than one (outer fold {fold}: {counts[fold][label]} samples of class "
        f"{classes[label].item()!r} where its share is {expected[fold][label]:.1f}): the "
        "graphs are probably not in the order the split file was made for (shuffled, e.g. by "
        "PyG's dataset.shuffle(), or sorted), so these folds are not the paper's. Pass the "
        "graphs in the order of the data set's files, as load_tu_dataset reads them.",
        SklearnFairWarning,
        stacklevel=external_stacklevel(),
    )


#: What a gnn-comparison split file that indexes fewer graphs than X may ask for.
_DROP_DEGENERATE = (
    " If the splits come from a gnn-comparison split file (Errica et al.): the reference "
    "code keeps only the graphs with more than one node and at least one edge (its "
    "REDDIT-MULTI-5K file indexes 4,999 of 5,000 graphs), so load the graphs with "
    "load_tu_dataset(..., drop_degenerate=True) (in an experiment file, "
    "drop_degenerate = true in [data])."
)


def _mismatch_hint(saved, X, n_samples):
    """Why X may have more samples than splits shaped as a gnn-comparison file (splits
    rebuilt from its folds do not record the format; its shape is: k-fold test sets, no labels
    fingerprint, and inner splits that each partition their outer fold's training set).

    The reference code leaves out the degenerate graphs, so dropping them is the remedy only
    when their number can be the difference; where X's graphs tell it cannot, or the
    difference is more than 1% of X and X's graphs cannot be read, the split file was
    probably made for another data set."""
    if n_samples <= saved.n_samples or saved.labels_fingerprint is not None or not saved.kfold:
        return ""
    for fold, (train, _) in enumerate(saved.folds):
        inner = saved.get_inner_splits(fold)
        if not inner or any(tr.size + te.size != train.size for tr, te in inner):
            return ""
    extra = n_samples - saved.n_samples
    another = (
        f" The splits were probably made for another data set, one of {saved.n_samples} samples"
    )
    bounds = _degenerate_bounds(X)
    if bounds is None:
        if extra <= n_samples / 100:
            return f" The splits may have been made for another data set.{_DROP_DEGENERATE}"
        return (
            f"{another}: the reference code of a gnn-comparison split file leaves out only "
            "the degenerate graphs (at most one node, or no edge), which are rare (one of "
            f"REDDIT-MULTI-5K's 5,000 graphs), not {extra} of {n_samples}."
        )
    fewest, most = bounds
    if fewest <= extra <= most:
        return _DROP_DEGENERATE
    if extra > most:
        found = (
            f"{f'only {most}' if most else 'no'} graph{'s' if most != 1 else ''} of X "
            f"{'has' if most == 1 else 'have'} at most one node or no edge"
        )
    else:
        found = f"{fewest} graphs of X have at most one node"
    return (
        f"{another}: {found}, so dropping the degenerate graphs (drop_degenerate=True), as "
        "the reference code of a gnn-comparison split file does, cannot leave the "
        f"{saved.n_samples} graphs the splits index."
    )


def _degenerate_bounds(X):
    """The fewest and the most graphs of ``X`` that the reference code of Errica et al.
    leaves out (``drop_degenerate``: at most one node, or no line in the edge file), or None
    where ``X`` is not graphs whose nodes can be counted. A graph of two nodes or more
    without edges may have had self-loops, which count as edges there but are gone once the
    graphs are loaded (``load_tu_dataset`` and PyG remove them): it counts only for the most."""
    if X is None:
        return None
    try:
        with torch_state_kept():  # as NestedCV reads the graphs: a random transform draws
            arrays = check_graphs(X) if is_graph_data(X) else None
    except Exception:  # graphs it refuses or cannot read: their degenerate ones are unknown
        return None
    if arrays is None or arrays["node_ptr"] is None:
        return None
    single = np.diff(arrays["node_ptr"]) <= 1
    edgeless = np.diff(arrays["edge_ptr"]) == 0
    return int(single.sum()), int((single | edgeless).sum())
