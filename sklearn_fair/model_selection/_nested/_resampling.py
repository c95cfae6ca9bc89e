"""Every split of a nested run, made and checked once before the first fit: outer, inner,
early-stopping hold-outs, and the named row sets the tasks train and score on.

The default inner hold-out follows the structure of the outer splitter (grouped, or validating
on the most recent rows after a time-ordered one), so that model selection never sees what the
assessment is protected from; given splits that break that structure get a warning.
"""

import copy
import inspect
import numbers
import sys
import warnings
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
from joblib import hash as joblib_hash
from sklearn import get_config
from sklearn.base import is_classifier
from sklearn.model_selection import (
    BaseShuffleSplit,
    GroupKFold,
    GroupShuffleSplit,
    PredefinedSplit,
    StratifiedGroupKFold,
    StratifiedShuffleSplit,
    TimeSeriesSplit,
    check_cv,
)
from sklearn.model_selection._split import GroupsConsumerMixin  # splitters that need groups
from sklearn.utils.metadata_routing import get_routing_for_object
from sklearn.utils.multiclass import type_of_target

from ...exceptions import (
    GroupLeakageWarning,
    InvalidSplitError,
    ReproducibilityWarning,
    SklearnFairWarning,
    SplitLeakageWarning,
)
from ...utils._splits import (
    NOT_DATED_AFTER,
    class_counts,
    generator_seeded,
    own_rows,
    time_ordered_splits,
)
from ...utils._stacklevel import external_stacklevel
from ...utils._validation import labels_1d
from .._holdout import HoldoutSplit
from .._predefined_splits import PredefinedSplits
from .._quantile import QuantileStratifiedKFold, RepeatedQuantileStratifiedKFold
from .._rolling_origin import RollingOrigin
from .._saved_splits import SavedSplits, shared_rows
from .._split_validation import validate_inner_splits, validate_splits
from ._data import _aligned, take
from ._seeds import param_owner

__all__ = [
    "Splits",
    "check_cv_with_groups",
    "default_inner_cv",
    "materialise_splits",
    "resolve_splitters",
    "row_sets",
]

INNER_TEST_SIZE = 0.1


def is_time_ordered(cv):
    """Whether ``cv`` assesses on rows that come after its training rows: a time-ordered
    splitter (a hold-out of the last rows included), or given splits each of which tests only
    rows after every one it trains on."""
    if isinstance(cv, (TimeSeriesSplit, RollingOrigin)):
        return True
    if isinstance(cv, HoldoutSplit):
        return not cv.shuffle
    return time_ordered_splits(_given_splits(cv))


def check_cv_with_groups(cv, y, classifier, groups):
    """scikit-learn's ``check_cv``, except that with ``groups`` an int gives
    ``StratifiedGroupKFold`` where ``check_cv`` would stratify, ``GroupKFold`` otherwise
    (neither shuffles, as ``check_cv``'s folds do not). A loaded :class:`SavedSplits` is
    replayed by :class:`PredefinedSplits`, which checks its labels fingerprint and gives its
    inner splits (``check_cv`` would wrap it as a bare list of splits, without either)."""
    if isinstance(cv, SavedSplits):
        return PredefinedSplits(cv)
    if groups is None or not isinstance(cv, numbers.Integral) or isinstance(cv, bool):
        return check_cv(cv, y, classifier=classifier)
    if classifier and y is not None and type_of_target(y) in ("binary", "multiclass"):
        return StratifiedGroupKFold(cv)
    return GroupKFold(cv)


@contextmanager
def _groups_leaks_reported_by_us():
    # scikit-learn's "The groups parameter is ignored by KFold": our GroupLeakageWarning (or
    # SplitLeakageWarning) says what it means for the run, with counts; a splitter that ignores
    # the groups without putting one on both sides leaks nothing
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="The groups parameter is ignored by")
        yield


def _given_splits(cv):
    """The splits ``cv`` holds as given (a list of splits, PredefinedSplits, scikit-learn's
    PredefinedSplit), else None: the same splits are judged alike however they are passed."""
    if type(cv).__name__ == "_CVIterableWrapper":
        return cv.cv
    if isinstance(cv, (PredefinedSplits, PredefinedSplit)):
        return list(cv.split())
    if isinstance(cv, SavedSplits):  # a splitter too (its split() checks the data first)
        return list(cv.folds)
    return None


def _time_gap(cv):
    """The rows a time-ordered ``cv`` leaves out between training and assessment: its ``gap``
    (TimeSeriesSplit, HoldoutSplit), or the smallest of its given splits'."""
    if isinstance(cv, (TimeSeriesSplit, HoldoutSplit)):
        return cv.gap
    return _splits_gap(_given_splits(cv) or [])


def _split_gap(train, test):
    """The rows between a split's last training row and its first row only tested (lag rows
    are trained on too), negative where it validates on the past."""
    test = own_rows(train, test)[1]
    return int(np.min(test) - np.max(train) - 1)


def _splits_gap(splits):
    """The smallest gap (:func:`_split_gap`) of ``splits``, at least 0; 0 for none."""
    return max(0, min((_split_gap(train, test) for train, test in splits), default=0))


def default_inner_cv(estimator, outer_cv, seed, y):
    """The paper's inner protocol, one 90%/10% hold-out: stratified as ``check_cv`` would, on
    the last 10% after a time-ordered outer splitter (with its gap between training and
    validation rows), grouped whenever groups reach it."""
    if is_time_ordered(outer_cv):
        return HoldoutSplit(test_size=INNER_TEST_SIZE, shuffle=False, gap=_time_gap(outer_cv))
    stratify = is_classifier(estimator) and (
        y is None or type_of_target(y) in ("binary", "multiclass")
    )
    return HoldoutSplit(test_size=INNER_TEST_SIZE, stratify=stratify, random_state=seed)


def lagged(cv):
    """RollingOrigin(lag > 0) overlaps training and assessment rows by design, and so may
    saved splits that say so (``allow_overlap``: its splits saved)."""
    if isinstance(cv, RollingOrigin):
        return cv.lag > 0
    saved = cv.splits if isinstance(cv, PredefinedSplits) else cv
    return isinstance(saved, SavedSplits) and bool(saved.allow_overlap)


def inner_splits_of_fold(cv, X, y, train, split_params, where, n_samples, name="inner_cv"):
    """Materialise the splitter ``cv`` on the rows ``train``, as absolute (train, test) pairs;
    ``name``: ``cv`` in words, for the error where it cannot split them.
    A copy of ``cv`` splits each fold, as scikit-learn's clone of a search per outer fold
    does: a splitter seeded with a RandomState starts from the same state in every fold, and
    the user's is left as it was. Where ``train`` repeats rows (a bootstrap resample), ``cv``
    splits its distinct rows: every copy of a row is trained on with it, and a validation row
    is validated once, so that no row validates a model trained on its copy. Of
    ``split_params``, the values with one entry per sample (of ``n_samples``) are indexed by
    the rows, the others (a scalar, a lookup table) passed whole, as scikit-learn's
    ``_check_method_params`` does."""
    cv = copy.deepcopy(cv)
    rows = _distinct(train) if _given_splits(cv) is None else train
    y_rows = None if y is None else y[rows]
    split_params = _aligned(split_params, rows, n_samples)
    check_class_counts(cv, y_rows, where, grouped=split_params.get("groups") is not None)
    try:
        with _groups_leaks_reported_by_us():
            splits = list(cv.split(take(X, rows), y_rows, **split_params))
    except ValueError as exc:
        hint = ""
        if isinstance(cv, HoldoutSplit) and not cv.shuffle:
            gap = f", keeping its gap of {cv.gap} rows" if cv.gap else ""
            interleaved = _interleaved_group(split_params.get("groups"))
            fix = (
                "pass an inner_cv, or an outer_cv whose first training fold is longer"
                if interleaved is None
                else "pass an inner_cv that splits in time order and ignores the groups "
                "(inner_cv=TimeSeriesSplit(k)), or groups that are whole blocks of time: the "
                f"groups interleave in time (the rows of group {interleaved!r} are not "
                "contiguous, rows of other groups lie between them), so no cut in time order "
                "keeps each group on one side, however long the training fold"
            )
            hint = (
                " (after a time-ordered outer_cv the inner hold-out validates on the most "
                f"recent rows{gap}: {fix})"
            )
        raise ValueError(f"{name} could not split {where}: {exc}{hint}") from exc
    try:
        positions = validate_splits(
            splits, len(rows), allow_overlap=lagged(cv), name=f"{name} in {where}"
        )
    except InvalidSplitError as exc:
        if _given_splits(cv) is None:
            raise
        raise InvalidSplitError(
            f"{exc} Splits given as indices are positions within each outer training fold "
            f"(not in the whole data set), and {where} has {len(rows)} rows."
        ) from None
    if rows is train:
        return [(train[tr], train[te]) for tr, te in positions]
    return [(train[np.isin(train, rows[tr])], rows[te]) for tr, te in positions]


def _interleaved_group(groups):
    """The first group whose rows are not contiguous in ``groups`` (one label a row, in time
    order), or None: none, or no groups."""
    if groups is None:
        return None
    labels, codes = np.unique(np.asarray(groups), return_inverse=True)
    codes = codes.reshape(-1)
    runs = codes[np.r_[True, codes[1:] != codes[:-1]]]  # the group of each run of rows
    _, first_run, n_runs = np.unique(runs, return_index=True, return_counts=True)
    split = first_run[n_runs > 1]
    return labels[runs[split.min()]].tolist() if split.size else None


def _distinct(train):
    """``train`` without its repeated rows, in the order of their first appearance
    (``train`` itself when no row repeats)."""
    _, first = np.unique(train, return_index=True)
    return train if first.size == train.size else train[np.sort(first)]


def stored_inner_splits(outer_cv, fold, train, n_samples):
    """The inner splits that ``outer_cv`` stores for ``fold`` (e.g. a split file), or None."""
    stored = outer_cv.get_inner_splits(fold) if hasattr(outer_cv, "get_inner_splits") else None
    if stored is None:
        return None
    return validate_inner_splits(
        stored, train, n_samples, fold=fold, name="outer_cv", allow_overlap=lagged(outer_cv)
    )


def check_class_counts(cv, y, where, *, grouped=False):
    """Raise a ValueError naming a class with too few members for a stratified ``cv``, where
    the splitter would raise; where it only warns (a k-fold in which some classes have fewer
    than k members) its warning speaks, as in ``cross_validate``. ``grouped``: groups reach
    the split (a hold-out of whole groups needs no member of each class on each side)."""
    needed = _members_needed(cv, y, grouped)
    if not needed:
        return
    classes, counts = np.unique(np.asarray(y), return_counts=True)
    too_few = counts < needed
    k_fold = not isinstance(cv, HoldoutSplit) and "ShuffleSplit" not in type(cv).__name__
    if k_fold and not too_few.all():
        return
    if too_few.any():
        # plain Python values, so the message reads "class 2", not "class np.int64(2)"
        label, count = classes[too_few].tolist()[0], int(counts[too_few][0])
        raise ValueError(
            f"Cannot make the stratified split {cv!r} of {where}: class {label!r} has only "
            f"{count} member(s), fewer than the {needed} it needs (one in every fold). Class "
            f"counts: {dict(zip(classes.tolist(), counts.tolist()))}. Use fewer splits, merge "
            "rare classes, or an unstratified splitter."
        )


def _members_needed(cv, y, grouped=False):
    if y is None or type_of_target(y) not in ("binary", "multiclass"):
        return 0
    if isinstance(cv, HoldoutSplit):  # its own rule: a time-ordered one never stratifies
        return 2 if cv._stratifies(y) and not grouped else 0
    name = type(cv).__name__
    # the quantile splitters stratify bins of y that they make themselves, not its values
    quantile = isinstance(cv, (QuantileStratifiedKFold, RepeatedQuantileStratifiedKFold))
    if "Stratified" not in name or quantile:
        return 0
    if "ShuffleSplit" in name:
        return 2
    n_splits = _n_folds(cv)
    return int(n_splits) if n_splits else 0


def _n_folds(cv):
    """``n_splits`` of a k-fold, of a repeated one (its ``cvargs``) too."""
    return getattr(cv, "cvargs", {}).get("n_splits", getattr(cv, "n_splits", None))


#: How many of the splits whose test rows hold untrained classes a warning names.
_NAMED_SPLITS = 3


def warn_classes_missing_from_training(owner, estimator, y, outer_splits, inner_splits):
    """Warn, for a classifier, where the test rows of an outer fold, or the validation rows of
    an inner split (``inner_splits``: fold -> splits, None for the final selection), hold
    classes of ``y`` that the split's training rows never hold: the model fitted there cannot
    predict them, and scorers that read probabilities or decision values score it against
    classes it does not have (scikit-learn's binary scorers read the column of the model's
    second class, while the metric takes the larger label of the test rows as positive)."""
    y = labels_1d(y)
    if not is_classifier(estimator) or y is None:
        return
    if type_of_target(y) not in ("binary", "multiclass"):
        return
    named = [(f"outer fold {fold}", split) for fold, split in enumerate(outer_splits)]
    for fold, splits in inner_splits.items():
        of = "the final selection" if fold is None else f"outer fold {fold}"
        named += [(f"inner split {s} of {of}", split) for s, split in enumerate(splits)]
    classes, trained = class_counts(y, [train for _, (train, _) in named])
    tested = class_counts(y, [test for _, (_, test) in named])[1]
    missing = []
    for (name, _), counts, untrained in zip(named, tested, (tested > 0) & (trained == 0)):
        untrained = np.flatnonzero(untrained)
        if untrained.size:
            # plain Python values, so the message reads 'cat' (20 row(s)), not np.str_('cat')
            labels, rows = classes[untrained].tolist(), counts[untrained].tolist()
            found = ", ".join(f"{label!r} ({n} row(s))" for label, n in zip(labels, rows))
            missing.append(f"{name}: {found}")
    if not missing:
        return
    more = len(missing) - _NAMED_SPLITS
    listed = "; ".join(missing[:_NAMED_SPLITS]) + (f"; and {more} more" if more > 0 else "")
    n_outer = sum(text.startswith("outer") for text in missing)
    counted = [
        f"{n} of the {total} {kind}"
        for n, total, kind in (
            (n_outer, len(outer_splits), "outer folds"),
            (len(missing) - n_outer, len(named) - len(outer_splits), "inner splits"),
        )
        if n
    ]
    warnings.warn(
        f"In {owner}, {' and '.join(counted)} test on classes that their training rows never "
        f"hold ({listed}). The model fitted there cannot predict those classes, and the "
        "scores that read probabilities or decision values (roc_auc, average_precision, "
        "log_loss) of such a split can be wrong, even inverted: the scorer reads the columns "
        "of the classes the model knows, not those of the test rows. Use a splitter that "
        "keeps every class on the training side: a stratified one (StratifiedKFold; "
        "StratifiedGroupKFold with groups).",
        SklearnFairWarning,
        stacklevel=external_stacklevel(),
    )


def _straddling(splits, groups):
    """Per split, the groups on both sides of it; None without ``groups`` (an array)."""
    if groups is None:
        return None
    return [np.intersect1d(groups[train], groups[test]) for train, test in splits]


def warn_outer_group_leaks(owner, outer_cv, groups, shared):
    """Warn when an outer split puts a group on both sides (``shared``: per split, those)."""
    if groups is None:
        return
    leaking = [fold for fold, both in enumerate(shared) if both.size]
    if not leaking:
        return
    straddling = np.unique(np.concatenate([shared[fold] for fold in leaking]))
    warnings.warn(
        f"groups were given to {owner}, but its outer splitter {outer_cv!r} ignores them: "
        f"{straddling.size} of the {np.unique(groups).size} groups are on both sides of "
        f"{len(leaking)} of the {len(shared)} outer splits (outer fold {leaking[0]} "
        f"shares {shared[leaking[0]].size}, e.g. {shared[leaking[0]][:3].tolist()}). The test "
        "folds then hold rows of groups seen in training, so the scores may be optimistic. Pass "
        "a group splitter as outer_cv (GroupKFold, StratifiedGroupKFold), or an int: with "
        "groups it becomes StratifiedGroupKFold (classifiers) or GroupKFold.",
        GroupLeakageWarning,
        stacklevel=external_stacklevel(),
    )


def _folds_in_words(folds):
    """The folds, as "outer fold(s) 1, 2 and the final selection" (fold None: all the data)."""
    numbered = ", ".join(str(fold) for fold in folds if fold is not None)
    words = [f"outer fold(s) {numbered}"] if numbered else []
    return " and ".join(words + ["the final selection"] * (None in folds))


def _inner_group_leaks(inner_splits, groups):
    """Over every fold's inner splits, how many put a group on both sides, of how many, and in
    which outer folds (in words); None without ``groups``. Counted once, for the warning and
    the description, so that they agree."""
    if groups is None:
        return None
    counts = {
        fold: sum(1 for both in _straddling(splits, groups) if both.size)
        for fold, splits in inner_splits.items()
    }
    where = _folds_in_words([fold for fold, n in counts.items() if n])
    return sum(counts.values()), sum(map(len, inner_splits.values())), where


def _validates_on_the_past(train, test):
    """Whether a split validates on a row that precedes one of its training rows (rows on both
    sides, as a lagged splitter's, do not count)."""
    test = test[~np.isin(test, train)]
    return bool(len(train) and len(test) and np.min(test) < np.max(train))


def _late_inner_splits(inner_splits):
    """The outer fold of each inner split that validates on rows before its training rows."""
    return [
        fold
        for fold, splits in inner_splits.items()
        for tr, te in splits
        if _validates_on_the_past(tr, te)
    ]


def warn_structure_leaks(owner, outer_cv, inner_splits, inner_leaks, outer_shared, *, stored):
    """Warn when inner splits share groups (``inner_leaks``), or look into the future, where the
    outer do not; ``stored``: the inner splits are those that ``outer_cv`` stores (which
    ``inner_cv`` does not replace). Returns what a warning found that the description of the
    inner splits does not say (:func:`_warn_inner_gap_narrower`'s), in words, or None."""
    if inner_leaks is not None and not any(both.size for both in outer_shared):
        leaking, total, where = inner_leaks
        if leaking:
            fix = (
                "Store inner splits that keep the groups apart (e.g. made with GroupKFold)."
                if stored
                else "Pass a group splitter as inner_cv (e.g. GroupKFold), or leave "
                "inner_cv=None for a grouped hold-out."
            )
            warnings.warn(
                f"The outer splits of {owner} keep groups apart, but {leaking} of the {total} "
                f"inner splits put one group on both sides, in {where}: model selection sees "
                f"its validation groups in training. {fix}",
                SplitLeakageWarning,
                stacklevel=external_stacklevel(),
            )
    if is_time_ordered(outer_cv):
        late = _late_inner_splits(inner_splits)
        if late:
            # given splits are taken as time-ordered from their indices alone: said so
            guessed = _given_splits(outer_cv) is not None
            seen = (
                "if the rows are in time order, model selection sees the future"
                if guessed
                else "model selection sees the future"
            )
            kind = (
                "each test rows after all their training rows, as time-ordered splits do"
                if guessed
                else "are time-ordered"
            )
            fix = (
                "Store inner splits that validate on the most recent rows."
                if stored
                else "Pass a time-ordered inner_cv (e.g. TimeSeriesSplit), or leave "
                "inner_cv=None for a hold-out of the most recent rows."
            )
            warnings.warn(
                f"The outer splits of {owner} {kind}, but {len(late)} inner split(s) validate "
                f"on rows that precede training rows: {seen}. {fix}",
                SplitLeakageWarning,
                stacklevel=external_stacklevel(),
            )
        else:  # one warning at a time: its fix, the default inner split, mends both
            return _warn_inner_gap_narrower(owner, outer_cv, inner_splits, stored=stored)
    return None


def _warn_inner_gap_narrower(owner, outer_cv, inner_splits, *, stored, search=False):
    """A SplitLeakageWarning where inner splits that validate on later rows leave fewer rows
    out between training and validation than the time-ordered ``outer_cv`` leaves out between
    training and test (inner splits that validate on the past are warned of as such);
    ``search``: they are those of the cv of a search run whole. Returns what it found, in
    words, or None."""
    outer_gap = _time_gap(outer_cv)
    if not outer_gap:
        return None
    gaps = {
        fold: [gap for train, test in splits if 0 <= (gap := _split_gap(train, test)) < outer_gap]
        for fold, splits in inner_splits.items()
    }
    narrow = sum(map(len, gaps.values()))
    if not narrow:
        return None
    total = sum(map(len, inner_splits.values()))
    smallest = min(min(g) for g in gaps.values() if g)
    where = _folds_in_words([fold for fold, g in gaps.items() if g])
    fix = (
        f"Store inner splits that leave at least {outer_gap} rows out."
        if stored
        else "Leave inner_cv=None (the default inner hold-out keeps the outer gap), or give "
        f"the inner splitter gap={outer_gap} (e.g. TimeSeriesSplit(gap={outer_gap}), "
        f"HoldoutSplit(shuffle=False, gap={outer_gap}))."
    )
    if search:  # the search run whole splits with its cv (inner_cv's, where one is given)
        fix = (
            f"Give the search's cv (or inner_cv, which replaces it) gap={outer_gap} (e.g. "
            f"TimeSeriesSplit(gap={outer_gap})), or pass a GridSearchCV or RandomizedSearchCV "
            "(taken apart, their inner splits are the default inner hold-out's, which keeps the "
            "outer gap, where no inner_cv is given), or the estimator with param_grid."
        )
    warnings.warn(
        f"The outer splits of {owner} leave {outer_gap} rows out between their training and "
        f"test rows, but {narrow} of the {total} inner splits, in {where}, leave fewer "
        f"between training and validation rows (smallest gap {smallest}): model selection "
        "validates on rows nearer its training rows than the test rows are, where labels or "
        "features that span several rows carry over, which favours the candidates that "
        f"exploit it. {fix}",
        SplitLeakageWarning,
        stacklevel=external_stacklevel(),
    )
    return (
        f"{narrow} of the {total} inner splits, in {where}, leaving fewer rows out between "
        f"training and validation rows than the outer gap of {outer_gap} (smallest gap "
        f"{smallest})"
    )


@contextmanager
def _global_draws_reported(owner, name, cv, seeded):
    """Warn where splitting with ``cv`` drew from numpy's global random state in a seeded run
    (a user's splitter calling ``np.random``, or seeding with ``check_random_state(None)``
    under another name than ``random_state``): no seed of the run reaches it. A splitter
    whose ``random_state`` is None is warned of before (:func:`warn_unseeded_splitters`)."""
    before = _complete_global_state()
    yield
    if not seeded or _unseeded(cv) or _complete_global_state() == before:
        return
    warnings.warn(
        f"The '{name}' of {owner} ({type(cv).__name__}) drew random numbers from numpy's "
        f"global random state when it split, so its splits, and the results, change on every "
        f"run although {owner} has a random_state. Give the splitter a seed of its own (an "
        "int random_state that its split draws from, e.g. through "
        "sklearn.utils.check_random_state).",
        ReproducibilityWarning,
        stacklevel=external_stacklevel(),
    )


def _complete_global_state():
    """A hash of numpy's global random state with its cached gaussian (which a draw can use
    without moving the generator): once per splitting, so get_state's cost does not matter,
    where the fits' check reads the generator's bytes alone (``_tasks._global_random_state``)."""
    return joblib_hash(np.random.get_state(legacy=False))


def _unseeded(cv):
    return hasattr(cv, "random_state") and cv.random_state is None and getattr(cv, "shuffle", True)


def warn_generator_seeded_splitters(owner, splitters, *, each=None):
    """Warn about shuffling splitters seeded with a RandomState or Generator inside a seeded
    run (name -> splitter), for those split as given: each split() draws from the generator and
    moves it on, so every fit of the same object splits otherwise. Copies split the inner folds
    (:func:`inner_splits_of_fold`), and clones the splitters among an estimator's parameters:
    they start from the same state on every fit. ``each``: what repeats (default: "fit of the
    same <owner>"; a function's "call of <owner>")."""
    each = f"fit of the same {owner}" if each is None else each
    for name, cv in splitters.items():
        if generator_seeded(cv):
            warnings.warn(
                f"The '{name}' of {owner} ({type(cv).__name__}) shuffles with a "
                f"{type(cv.random_state).__name__} as its seed, which each call of its split() "
                f"draws from and moves on, so its splits, and the results, change on every {each} "
                f"(and between the models given this splitter) although {owner} has a "
                "random_state. Give the splitter an int random_state.",
                ReproducibilityWarning,
                stacklevel=external_stacklevel(),
            )


def warn_unseeded_splitters(owner, splitters):
    """Warn about shuffling splitters without a seed inside a seeded run (name -> splitter)."""
    for name, cv in splitters.items():
        if cv is not None and not isinstance(cv, (int, np.integer)) and _unseeded(cv):
            warnings.warn(
                f"The '{name}' of {owner} shuffles without a seed ({cv!r}), so its splits, and "
                f"the results, change on every run although {owner} has a random_state. Give "
                "the splitter a random_state.",
                ReproducibilityWarning,
                stacklevel=external_stacklevel(),
            )


# -- every split of a run ------------------------------------------------------------------------


def _where(fold):
    return "all the data (final selection)" if fold is None else f"outer training fold {fold}"


@dataclass(frozen=True)
class Splitters:
    """The splitters of a run (:func:`resolve_splitters`)."""

    outer: object  # outer_cv, checked (an int made a (Stratified)(Group)KFold)
    inner: object  # the inner splitter: the one given (checked, as outer), or the default
    inner_given: object  # the inner_cv given (by the user or the wrapped search), or None
    outer_given: object = None  # the outer_cv given


def resolve_splitters(outer_cv, inner_cv, estimator, y, seeds, owner, groups=None):
    """The outer splitter checked, and the inner one defaulted."""
    classifier = is_classifier(estimator)
    outer = check_cv_with_groups(outer_cv, y, classifier, groups)
    if inner_cv is None:
        inner = default_inner_cv(estimator, outer, seeds.inner_cv_seed(), y)
        _warn_one_split_taken_as_time_ordered(owner, outer)
    else:  # an int becomes a splitter, an iterable of splits is wrapped in one
        inner = check_cv_with_groups(inner_cv, y, classifier, groups)
    return Splitters(outer, inner, inner_cv, outer_cv)


def _warn_one_split_taken_as_time_ordered(owner, outer):
    """Say that one given outer split testing only the rows after its training rows (a
    PredefinedSplit, a list) is taken as time-ordered: a fixed test set placed after the
    training rows of data in no time order looks the same."""
    given = _given_splits(outer)
    if given is None or len(given) != 1 or not time_ordered_splits(given):
        return
    warnings.warn(
        f"The outer split of {owner} is one split that tests only rows after all its training "
        "rows, so it is taken as time-ordered: the default inner hold-out validates on the "
        f"last {_percent(INNER_TEST_SIZE)} of the training rows, as after a TimeSeriesSplit. "
        "If the rows are in no time order (a fixed test set placed after the training rows), "
        "pass inner_cv=HoldoutSplit(test_size=0.1, random_state=0) (stratify=True for a "
        "classifier) for a random hold-out; if they are, pass inner_cv=HoldoutSplit("
        "test_size=0.1, shuffle=False) to say so.",
        SklearnFairWarning,
        stacklevel=external_stacklevel(),
    )


def _percent(share):
    """``share`` (a fraction) in percent, exact where a few decimals hold it (12.5%, 90%),
    else to three significant digits (33.3%): never rounded to a misleading whole number."""
    value = 100 * share
    for decimals in range(4):
        if abs(round(value, decimals) - value) < 1e-9:
            return f"{round(value, decimals):.{decimals}f}%"
    return f"{value:.3g}%"


def _shares(train_size, test_size, default_test):
    """How a single hold-out cuts the rows, as given: "87.5%/12.5%", "30-row"."""
    if test_size is None and train_size is None:
        test_size = default_test
    if isinstance(test_size, numbers.Integral) or isinstance(train_size, numbers.Integral):
        if test_size is None:
            return f"{train_size}-row training"
        return f"{test_size}-row"
    test = 1 - train_size if test_size is None else test_size
    train = 1 - test if train_size is None else train_size
    return f"{_percent(train)}/{_percent(test)}"


def _splits(n_splits):
    """``n_splits``: a count, or the (fewest, most) of folds that differ: "20-21"."""
    if isinstance(n_splits, tuple):
        low, high = n_splits
        return str(low) if low == high else f"{low}-{high}"
    return str(n_splits)


def _describe_splitter(cv, n_splits, y=None):
    """``cv`` in words; ``n_splits``: how many splits it made, or (fewest, most) of several
    folds."""
    name = type(cv).__name__
    count = _splits(n_splits)
    if isinstance(cv, HoldoutSplit):
        test = cv.test_size
        share = _shares(None, test, None) if test < 1 else f"{test}-row"
        # stratify=None stratifies class labels, as the split itself decides it
        stratified = cv._stratifies(y) if cv.stratify is None else cv.stratify
        kind = "time-ordered" if not cv.shuffle else "stratified" if stratified else "random"
        gap = f", gap={cv.gap}" if cv.gap else ""
        return f"one {share} {kind} hold-out (HoldoutSplit{gap})"
    if name == "_CVIterableWrapper":
        return f"{count} given (train, test) split{'' if count == '1' else 's'}"
    if isinstance(cv, BaseShuffleSplit) and count == "1":
        share = _shares(cv.train_size, cv.test_size, getattr(cv, "_default_test_size", 0.1))
        if isinstance(cv, GroupShuffleSplit):
            return f"one hold-out of whole groups, {share} of the groups ({name})"
        kind = "stratified" if isinstance(cv, StratifiedShuffleSplit) else "random"
        return f"one {share} {kind} hold-out ({name})"
    if "KFold" in name and "Shuffle" not in name:
        n_repeats, folds = getattr(cv, "n_repeats", None), _n_folds(cv)
        if isinstance(n_repeats, numbers.Integral) and isinstance(folds, numbers.Integral):
            return f"{folds}-fold {name}, {n_repeats} repeats ({count} splits)"
        return f"{count}-fold {name}"
    text = f"{count} split{'' if count == '1' else 's'} of {name}"
    # a time-ordered splitter's protocol (its windows, gap, lag) is in its parameters
    parameters = _parameters_set(cv) if isinstance(cv, (TimeSeriesSplit, RollingOrigin)) else ""
    return f"{text} ({parameters})" if parameters else text


def _parameters_set(cv):
    """``cv``'s parameters that are not at their defaults (a required one always), but its
    ``n_splits`` (the count says it): "initial=150, assess=20, lag=3"."""
    parameters = [
        (p, getattr(cv, p.name, p.default))
        for p in inspect.signature(type(cv).__init__).parameters.values()
        if p.name not in ("self", "n_splits") and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    return ", ".join(
        f"{p.name}={value!r}"
        for p, value in parameters
        if p.default is p.empty or value != p.default
    )


def describe_resampling(cv, n_splits, leaks, *, given=None, y=None):
    """How ``cv`` made ``n_splits`` splits, as the reports print it ("5-fold
    StratifiedGroupKFold on groups"); ``leaks``: see :func:`_inner_group_leaks`; ``given``: the
    int that ``cv`` was made from."""
    text = _describe_splitter(cv, n_splits, y)
    if isinstance(given, numbers.Integral) and leaks is not None:
        text += f" (cv={given} with groups)"
    if leaks is None or not max(n_splits if isinstance(n_splits, tuple) else (n_splits,)):
        return text
    leaking, total, where = leaks
    if not leaking:
        return f"{text} on groups (no group on both sides)"
    return f"{text}, ignoring the groups ({_leak_words(leaks)})"


def _leak_words(leaks):
    """``leaks`` (:func:`_inner_group_leaks`) in words, as the descriptions say them: "some on
    both sides of 9 of 9 splits, in outer fold(s) 0, 1, 2"; "" where no split leaks."""
    leaking, total, where = leaks
    if not leaking:
        return ""
    where = f", in {where}" if where else ""
    return f"some on both sides of {leaking} of {total} splits{where}"


def _search_splits(search, data, trains, n_samples, groups=None):
    """The splits the ``cv`` of ``search``, run whole, makes of each training fold of
    ``trains`` (fold -> rows), as absolute pairs, given ``groups`` (those the search receives,
    or None): those of its fits on the whole fold (a successive-halving search's first rounds
    split subsamples of it); folds its cv cannot split are left out (the search's own fit says
    why), and so is a cv that shuffles without an int seed: its splits here would not be the
    search's, and drawing them would move the random state it draws from."""
    cv = check_cv(search.cv, labels_1d(data.y), classifier=is_classifier(search))
    seed = getattr(cv, "random_state", 0)
    if not isinstance(seed, numbers.Integral) and getattr(cv, "shuffle", True):
        return {}
    params = {} if groups is None else {"groups": groups}
    found = {}
    with warnings.catch_warnings():  # the search's own fit gives the splitter's warnings
        warnings.simplefilter("ignore")
        for fold, train in trains.items():
            try:
                found[fold] = inner_splits_of_fold(
                    cv, data.X, data.y, train, params, _where(fold), n_samples
                )
            except ValueError:
                continue
    return found


@dataclass(frozen=True)
class Splits:
    """Every split of a run, materialised (:func:`materialise_splits`)."""

    outer: list  # (train, test) of each outer fold
    inner: dict  # fold (None: all the data) -> list of (train, test); [] for a whole search
    holdouts: dict  # fold -> (train, val) that its refits (None: the final fit) early-stop on
    rows: dict  # every set of rows a task can name, by name (see row_sets)
    described: dict  # "outer", "inner": how they were made, in words (describe_resampling)


def materialise_splits(data, splitters, routed, *, estimator, whole_search, early_stopping,
                       final, seeds, owner):  # fmt: skip
    """Every split of the run on ``data`` (a :class:`~._inputs.CheckedData`), checked;
    ``whole_search``: a search run whole (it splits by itself), or None."""
    outer, n_samples = splitters.outer, data.n_samples
    inner_split = routed.inner_split
    if splitters.inner_given is None and data.groups is not None:
        inner_split = {**inner_split, "groups": data.groups}  # our hold-out keeps groups apart
    check_class_counts(
        outer,
        data.y,
        "the whole data set (outer_cv)",
        grouped=routed.outer_split.get("groups") is not None,
    )
    seeded = seeds.seeded
    with _groups_leaks_reported_by_us(), _global_draws_reported(owner, "outer_cv", outer, seeded):
        outer_splits = validate_splits(
            outer.split(data.X, data.y, **routed.outer_split),
            n_samples,
            allow_overlap=lagged(outer),
            name="outer_cv",
        )
    groups = None if data.groups is None else np.asarray(data.groups)
    shared = _straddling(outer_splits, groups)  # once, for the two warnings and the words
    warn_outer_group_leaks(owner, outer, groups, shared)
    if lagged(outer):
        _warn_scores_of_training_rows(owner, outer, outer_splits)
    # after a time-ordered outer splitter, a fold's rows are split for model selection in time
    # order (given splits may list them in another), so that the most recent ones validate
    in_order = np.sort if is_time_ordered(outer) else np.asarray
    trains = {fold: in_order(train) for fold, (train, _) in enumerate(outer_splits)}
    if final:
        trains[None] = np.arange(n_samples)
    stored = {
        fold: None if fold is None else stored_inner_splits(outer, fold, train, n_samples)
        for fold, train in trains.items()
    }
    if splitters.inner_given is not None and any(v is not None for v in stored.values()):
        # the stored ones are used: an inner_cv asked for too would be dropped without a word
        raise ValueError(
            f"The outer_cv of {owner} ({outer!r:.100}) stores the inner splits of its folds (a "
            f"split file's), and an inner splitter was given too (inner_cv="
            f"{splitters.inner_given!r:.100}, or the cv of the search given): the stored ones "
            "would be used and it ignored. Give one of them: inner_cv=None (and a search's "
            "cv=None) to use the stored inner splits, or outer splits without inner ones."
        )
    inner_splits = {}
    given = splitters.inner_given is not None
    # the search given as the estimator hands its cv on as inner_cv, unseen here: both named
    name = (
        "the inner splitter given (inner_cv, or with inner_cv=None the cv of the search given "
        "as the estimator, as in GridSearchCV(cv=...))"
        if given
        else "the default inner hold-out (inner_cv=None)"
    )
    with _global_draws_reported(owner, "inner_cv", splitters.inner, seeded):
        for fold, train in trains.items():
            if stored[fold] is not None:
                inner_splits[fold] = stored[fold]
            elif whole_search is not None:
                inner_splits[fold] = []
            else:
                inner_splits[fold] = inner_splits_of_fold(
                    splitters.inner, data.X, data.y, train, inner_split, _where(fold),
                    n_samples, name=name,
                )  # fmt: skip
    search_splits = {}  # a search run whole splits by itself: its cv's splits, for the checks
    if whole_search is not None:
        search_splits = _search_splits(whole_search, data, trains, n_samples, routed.search_groups)
    checked = {**inner_splits, **search_splits}
    warn_classes_missing_from_training(owner, estimator, data.y, outer_splits, checked)
    if lagged(splitters.inner):
        for fold in trains:
            if stored[fold] is None and shared_rows(inner_splits[fold]):
                _warn_scores_of_training_rows(owner, splitters.inner, inner_splits[fold], fold)
                break
    inner_leaks = _inner_group_leaks(inner_splits, groups)  # once, for the warning and words
    stores = any(splits is not None for splits in stored.values())
    # what the warnings found that the descriptions of the splits do not say: kept with them
    found = {"outer": [], "inner": []}
    if splitters.inner_given is not None or stores:
        found["inner"].append(
            warn_structure_leaks(owner, outer, inner_splits, inner_leaks, shared, stored=stores)
        )
    if whole_search is not None and data.groups is not None:
        leaks = _inner_group_leaks(search_splits, groups)
        found["inner"].append(
            _warn_search_ignores_groups(owner, whole_search, routed, splitters.inner_given, leaks)
        )
    found["inner"].append(
        _warn_time_order_not_kept(
            owner, outer, outer_splits, splitters, stores, whole_search, search_splits
        )
    )
    if whole_search is not None and not stores and is_time_ordered(outer):
        if not _late_inner_splits(search_splits):  # else warned of as validating on the past
            found["inner"].append(
                _warn_inner_gap_narrower(owner, outer, search_splits, stored=False, search=True)
            )
    # the final selection and fit (refit) train on more rows than any outer fold's
    n_train = max((len(t) for t in trains.values()), default=0)
    n_assessed = max((len(t) for fold, t in trains.items() if fold is not None), default=0)
    hidden = {"n_train": n_train, "n_assessed": n_assessed, "early_stopping": early_stopping}
    # the splitters and early stopping inside the model: a search run whole's estimator's
    inside, within, routed_fit = estimator, "", routed.fit
    if whole_search is not None:
        inside, within = getattr(whole_search, "estimator", None), "estimator__"
        routed_fit = {} if routed.search_groups is None else {"groups": routed.search_groups}
    if is_time_ordered(outer):
        found["inner"] += _warn_hidden_splitters(
            owner, inside, outer=outer, within=within, **hidden
        )
    if data.groups is not None:
        found["inner"] += _warn_hidden_splitters(
            owner, inside, by_groups=True, routed_fit=routed_fit, within=within, **hidden
        )
    dates = _warn_rows_not_in_time_order(
        owner, data, splitters, whole_search, outer_splits, inner_splits
    )
    if dates is not None:
        found[dates[0]].append(dates[1])
    if whole_search is not None and any(_distinct(t) is not t for t in trains.values()):
        warnings.warn(
            f"{owner} runs its search whole inside each outer training fold, whose rows repeat "
            f"(outer_cv={outer!r}): the search's own cv can validate on copies of rows it "
            "trained on, which favours the candidates that fit their training rows most "
            "closely. Pass a GridSearchCV or RandomizedSearchCV (taken apart, their inner "
            "splits keep the copies of a row together), or the estimator with param_grid.",
            SplitLeakageWarning,
            stacklevel=external_stacklevel(),
        )
    holdouts = {}
    if early_stopping:
        holdouts = _early_stopping_holdouts(trains, stored, outer, data, estimator, seeds)
    rows = row_sets(n_samples, outer_splits, inner_splits, holdouts)
    outer_leaks = None if shared is None else (sum(1 for b in shared if b.size), len(shared), "")
    described = {
        "outer": describe_resampling(
            outer, len(outer_splits), outer_leaks, given=splitters.outer_given, y=data.y
        ),
        "inner": _describe_inner(
            splitters,
            inner_splits,
            stored,
            whole_search,
            inner_leaks,
            data.y,
            grouped=data.groups is not None,
            search_groups=routed.search_groups,
            search_splits=search_splits,
        ),
    }
    described = {
        level: "; ".join([text, *filter(None, found[level])]) for level, text in described.items()
    }
    return Splits(outer_splits, inner_splits, holdouts, rows, described)


def _warn_time_order_not_kept(owner, outer, outer_splits, splitters, stores, whole_search,
                              search_splits):  # fmt: skip
    """A SplitLeakageWarning where the outer splits are time-ordered but model selection may
    not be: a search run whole whose own cv shuffles time, or a splitter of the user's that
    tests every fold after its training rows (as time-ordered splits do) that sklearn-fair
    does not know, whose default inner hold-out is then random. Returns what it found of a
    search run whole (``search_splits``: those its cv made, fold -> splits), in words, or None
    (the description of the other inner splits says it)."""
    found = None
    if whole_search is not None:
        if not is_time_ordered(outer) or is_time_ordered(check_cv(whole_search.cv)):
            return None
        late = _late_words(outer, search_splits)
        found = "the search's cv not one sklearn-fair knows to be time-ordered, " + (
            late or "model selection may validate on rows that precede rows it trained on"
        )
        why = (
            f"the search runs whole, and its cv={whole_search.cv!r} is not one sklearn-fair "
            "knows to be time-ordered: model selection may validate on rows that precede rows "
            "it trained on"
        )
        fix = (
            "Give the search a time-ordered cv (e.g. TimeSeriesSplit)."
            if splitters.inner_given is None
            else "Give inner_cv, which replaced the search's own cv, a time-ordered splitter "
            "(e.g. TimeSeriesSplit)."
        )
    else:
        if splitters.inner_given is not None or stores or is_time_ordered(outer):
            return None
        if not time_ordered_splits(outer_splits) or (
            len(outer_splits) < 2 and _draws_at_random(outer)
        ):
            return None  # a single random hold-out can test the last rows by chance
        why = (
            f"every outer split of outer_cv={outer!r} tests on rows after all its training "
            "rows, as time-ordered splits do, but sklearn-fair does not know it to be "
            "time-ordered: the default inner hold-out (and early-stopping hold-out) is random, "
            "so model selection may see the future"
        )
        fix = "Pass inner_cv=HoldoutSplit(test_size=0.1, shuffle=False) or a TimeSeriesSplit."
    warnings.warn(
        f"In {owner}, {why}. {fix}", SplitLeakageWarning, stacklevel=external_stacklevel()
    )
    return found


def splits_by_groups(cv):
    """Whether the splitter that ``cv`` names (an int, a splitter) splits by the groups it is
    given, by its metadata request: GroupKFold does, KFold does not."""
    return bool(get_routing_for_object(check_cv(cv)).consumes("split", ["groups"]))


def selecting_cv_params(estimator):
    """The ``cv`` parameters (``name -> value``, as ``get_params(deep=True)`` names them) of
    ``estimator`` and of its steps that select with them: a search in a pipeline, RidgeCV,
    LassoCV (a class named ``*CV``), a SequentialFeatureSelector (it selects features by their
    cross-validated scores, as RFECV does); a TargetEncoder's or a stacking's cross-fitting and
    a calibration's folds select nothing."""
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.feature_selection import SequentialFeatureSelector

    params = estimator.get_params(deep=True) if hasattr(estimator, "get_params") else {}
    selecting = {}
    for name, value in params.items():
        if name != "cv" and not name.endswith("__cv"):
            continue
        holder = param_owner(estimator, params, name)
        if isinstance(holder, SequentialFeatureSelector):
            selecting[name] = value
        elif type(holder).__name__.endswith("CV") and not isinstance(
            holder, CalibratedClassifierCV
        ):
            selecting[name] = value
    return selecting


def _groups_reach(estimator, params, name, cv, routed_fit):
    """Whether the splitter ``cv`` of the parameter ``name`` of ``estimator`` splits by groups
    that it receives: with metadata routing, where the estimator's fit gets the groups
    (``routed_fit``: what it gets) and the holder of ``cv`` routes them to its splitter (a
    stacking hands none to its final_estimator); or a splitter that needs groups (GroupKFold),
    which raises without them. HoldoutSplit takes them, but splits random rows without."""
    if not splits_by_groups(cv):
        return False
    if isinstance(cv, GroupsConsumerMixin):
        return True
    if not get_config().get("enable_metadata_routing", False):
        return False
    if (routed_fit or {}).get("groups") is None or "final_estimator__" in name:
        return False
    holder = param_owner(estimator, params, name)
    try:
        return bool(get_routing_for_object(holder).consumes("fit", ["groups"]))
    except (AttributeError, TypeError):  # an object that routes nothing
        return False


#: HistGradientBoosting's early_stopping="auto" stops early above this many training rows
_HGB_AUTO_ROWS = 10_000


def own_early_stopping(estimator, n_train, handed):
    """The parameters (``name -> value``, as ``get_params(deep=True)`` names them) of
    ``estimator`` and of its steps that make it early-stop on a random hold-out of its own
    training rows (scikit-learn's ``validation_fraction``, drawn by ``train_test_split``):
    ``early_stopping=True`` (MLP, SGD), ``n_iter_no_change`` set on a GradientBoosting
    estimator, and HistGradientBoosting's ``early_stopping="auto"`` above 10,000 training rows
    (``n_train``: the most rows a fit trains on). ``handed``: whether the protocol hands its
    hold-out as ``X_val`` and ``y_val``, to the parts whose fit takes them.

    Examples
    --------
    >>> from sklearn.neural_network import MLPClassifier
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> model = make_pipeline(StandardScaler(), MLPClassifier(early_stopping=True))
    >>> own_early_stopping(model, n_train=100, handed=False)
    {'mlpclassifier__early_stopping': True}
    """
    from sklearn.ensemble import (
        GradientBoostingClassifier,
        GradientBoostingRegressor,
        HistGradientBoostingClassifier,
        HistGradientBoostingRegressor,
    )

    from ._inputs import consumes_validation_data

    gradient_boosting = (GradientBoostingClassifier, GradientBoostingRegressor)
    hist = (HistGradientBoostingClassifier, HistGradientBoostingRegressor)
    params = estimator.get_params(deep=True) if hasattr(estimator, "get_params") else {}
    found = {}
    for name, value in params.items():
        last = name.rpartition("__")[2]
        if last not in ("early_stopping", "n_iter_no_change"):
            continue
        holder = param_owner(estimator, params, name)
        if holder is None:  # a routed parameter of no object of its own (skorch's module__)
            continue
        if handed and consumes_validation_data(holder):
            continue  # it early-stops on the protocol's hold-out
        if last == "n_iter_no_change":
            stops = value is not None and isinstance(holder, gradient_boosting)
        elif isinstance(value, str):
            stops = value == "auto" and isinstance(holder, hist) and n_train > _HGB_AUTO_ROWS
        else:
            stops = isinstance(value, (bool, np.bool_)) and bool(value)
        if stops:
            found[name] = value
    return found


def _warn_hidden_splitters(owner, estimator, by_groups=False, *, outer=None, routed_fit=None,
                           n_train=0, n_assessed=None, early_stopping=False,
                           within=""):  # fmt: skip
    """A SplitLeakageWarning, under time-ordered outer splits (``outer``; under groups:
    ``by_groups``), for the ``cv`` parameters of ``estimator`` and of its steps that select
    (:func:`selecting_cv_params`) and are not time-ordered (do not split by the groups, or do
    not receive them: ``routed_fit``, what the estimator's fit receives): they split each
    training fold by themselves, outside the inner splits; for those that are time-ordered but
    leave fewer rows out than ``outer``'s gap; and for the parts that early-stop on a random
    hold-out of their own (:func:`own_early_stopping`; ``n_train``: the most rows a fit trains
    on, ``n_assessed``: the most an outer fold's fit trains on, where fewer; ``early_stopping``:
    whether the protocol hands its hold-out as ``X_val``); ``within``:
    the prefix of the parameters' names where ``estimator`` is a search's ("estimator__").
    Returns what each warning found, in words (a list, empty where none warned)."""
    found = []
    params = estimator.get_params(deep=True) if hasattr(estimator, "get_params") else {}
    hidden, narrow = {}, {}
    unreached = True  # every hidden splitter splits by groups, which do not reach it
    outer_gap = 0 if by_groups or outer is None else _time_gap(outer)
    for name, value in selecting_cv_params(estimator).items():
        if isinstance(value, numbers.Real) and not isinstance(value, numbers.Integral):
            hidden[name] = value  # a share of rows held out at random (TunedThresholdClassifierCV)
            unreached = False
            continue
        try:
            cv = check_cv(value)
        except (TypeError, ValueError):  # not a splitter (CalibratedClassifierCV's "prefit")
            continue
        if by_groups:
            kept = _groups_reach(estimator, params, name, cv, routed_fit)
        else:
            kept = is_time_ordered(cv)
            if kept and _time_gap(cv) < outer_gap:
                narrow[name] = value
        if not kept:
            hidden[name] = value
            unreached = unreached and by_groups and splits_by_groups(cv)
    stopping = own_early_stopping(estimator, n_train, early_stopping)
    # HistGradientBoosting's "auto" above 10,000 rows: maybe in the final fits alone
    final_only = bool(stopping) and not own_early_stopping(
        estimator, n_train if n_assessed is None else n_assessed, early_stopping
    )
    hidden, narrow, stopping = (
        {f"{within}{name}": value for name, value in named.items()}
        for named in (hidden, narrow, stopping)
    )
    if hidden:
        found.append(_warn_hidden(owner, hidden, by_groups, unreached=unreached))
    if narrow:
        named = ", ".join(f"{name}={value!r}" for name, value in narrow.items())
        found.append(
            f"the estimator's own {named} leaving fewer rows out between training and "
            f"validation rows than the outer gap of {outer_gap}"
        )
        warnings.warn(
            f"In {owner}, the outer splits leave {outer_gap} rows out between their training "
            f"and test rows, but the estimator splits its training rows by itself with "
            f"{named}, which leave(s) fewer between training and validation rows: it may "
            "select on rows nearer its training rows than the test rows are, where labels or "
            "features that span several rows carry over. Give it gap="
            f"{outer_gap} (e.g. TimeSeriesSplit(gap={outer_gap})), or let sklearn-fair search "
            "(param_grid): its default inner hold-out keeps the outer gap.",
            SplitLeakageWarning,
            stacklevel=external_stacklevel(),
        )
    if stopping:
        found.append(_warn_own_early_stopping(owner, stopping, by_groups, final_only))
    return [words for words in found if words]


def _warn_own_early_stopping(owner, stopping, by_groups, final_only=False):
    """The SplitLeakageWarning of :func:`_warn_hidden_splitters` for the parts that early-stop
    on a random hold-out of their own (``stopping``: :func:`own_early_stopping`; ``final_only``:
    only in the selection and fit on all the data, whose rows are more); returns what it found
    in the outer folds' assessment, in words ("" where only the final fits stop)."""
    named = ", ".join(f"{name}={value!r}" for name, value in stopping.items())
    if by_groups:
        what, drawn, sees, inner = (
            "the rows are grouped (groups)", "ignoring the groups",
            "on groups it trained on (the outer test scores stay honest; where it stops may "
            "be worse)", "keeps the groups apart",
        )  # fmt: skip
    else:
        what, drawn, sees, inner = (
            "the outer splits are time-ordered", "at random, not the most recent rows",
            "on rows that precede rows it trained on, so model selection may see the future",
            "validates on the most recent rows",
        )  # fmt: skip
    if final_only:
        sees = (
            "in the selection and fit on all the data alone (refit; they train on more rows "
            "than any outer fold's fit): the outer test scores are unaffected, but the final "
            "model's may be chosen " + sees.split(" (")[0]
        )
    warnings.warn(
        f"In {owner}, {what}, but the estimator early-stops on a hold-out of its own training "
        f"rows (validation_fraction), drawn {drawn}, with {named}: it may choose its number "
        f"of iterations {sees}. Let sklearn-fair hold out the rows it stops on: a model whose "
        "fit takes "
        "X_val and y_val (e.g. HistGradientBoostingClassifier(early_stopping=True)) "
        f"early-stops on the protocol's hold-out, which {inner} (early_stopping_split="
        "'auto'); or switch its early stopping off (early_stopping=False, "
        "n_iter_no_change=None) and search max_iter or n_estimators (param_grid).",
        SplitLeakageWarning,
        stacklevel=external_stacklevel(),
    )
    if final_only:
        return ""
    return (
        f"the estimator early-stopping on a hold-out of its own training rows drawn {drawn} "
        f"({named})"
    )


def _warn_hidden(owner, hidden, by_groups, *, unreached=False):
    """The SplitLeakageWarning of :func:`_warn_hidden_splitters` for the selecting ``cv``
    parameters (``hidden``: name -> value) that do not keep the groups or the time order;
    ``unreached``: each would split by the groups, which do not reach it. Returns what it
    found, in words."""
    named = ", ".join(f"{name}={value!r}" for name, value in hidden.items())
    if by_groups:
        what, kept, sees, fix = (
            "the rows are grouped (groups)", "to split by the groups",
            "validate on groups it trained on, and select what fits a group's rows rather "
            "than new groups (the outer test scores stay honest; what it selects may be worse)",
            "a group splitter (e.g. GroupKFold, given the groups by metadata routing)",
        )  # fmt: skip
    else:
        what, kept, sees, fix = (
            "the outer splits are time-ordered", "to be time-ordered",
            "select on rows that precede rows it trained on, so model selection may see "
            "the future", "a time-ordered cv (e.g. TimeSeriesSplit)",
        )  # fmt: skip
    which = f"which sklearn-fair does not know {kept}"
    if by_groups and unreached:
        which = (
            "which would split by the groups but gets none (the estimator's fit receives "
            "them only with metadata routing on, and a HoldoutSplit without them holds out "
            "random rows)"
        )
        fix = "the groups: sklearn.set_config(enable_metadata_routing=True)"
    inner = "its inner splits keep the groups apart" if by_groups else (
        "its default inner hold-out keeps the time order"
    )  # fmt: skip
    advice = f"Give it {fix}, or let sklearn-fair search (param_grid): {inner}."
    if by_groups and any("final_estimator__" in name for name in hidden):
        # a stacking hands no groups to its final estimator, routing or not
        advice = (
            f"Let sklearn-fair search (param_grid) in its place: {inner} (a stacking does "
            "not hand the groups to its final_estimator)."
        )
    warnings.warn(
        f"In {owner}, {what}, but the estimator splits its training rows by itself with "
        f"{named} (a search or a cross-validated estimator inside it), {which}: it may "
        f"{sees}. {advice}",
        SplitLeakageWarning,
        stacklevel=external_stacklevel(),
    )
    risk = "validate on groups it trained on" if by_groups else "see the future"
    return f"the estimator's own {named}, {which} (model selection may {risk})"


def _draws_at_random(cv):
    """Whether ``cv`` draws its splits at random (a shuffle split, or a splitter that
    shuffles)."""
    return isinstance(cv, BaseShuffleSplit) or bool(getattr(cv, "shuffle", False))


def _warn_scores_of_training_rows(owner, cv, splits, fold="outer"):
    """A SplitLeakageWarning where lagged splits (:func:`lagged`) do test rows they train on,
    as a file saved so warns when it is loaded: the outer test scores count those rows, or,
    for the inner splits of the outer fold ``fold``, the validation scores that select."""
    shared = shared_rows(splits)
    if not shared:
        return
    rolling = isinstance(cv, RollingOrigin)
    allowed = f"lag={cv.lag}" if rolling else "allow_overlap=True"
    if fold == "outer":
        which, counted = f"The outer splits of {owner} (outer_cv={cv!r})", ""
    else:
        where = "of the whole data set" if fold is None else f"of outer fold {fold}"
        which = f"The inner splits {where} in {owner} (inner_cv={cv!r})"
        counted = (
            " The validation scores that select the hyper-parameters count those rows, which "
            "favours the candidates that fit their training rows most closely."
        )
    warnings.warn(
        f"{which} allow training and test sets to "
        f"share rows ({allowed}), {shared}.{counted} That is intended for lagged time-series "
        "splits (RollingOrigin with lag > 0), whose lagged predictors need the preceding rows: "
        f"drop those rows in the scorer if they must not count"
        f"{', or pass lag=0' if rolling else ''}.",
        SplitLeakageWarning,
        stacklevel=external_stacklevel(),
    )


def _time_indexes(values):
    """The dates of the rows of ``values``, as ``(words, index, level)`` for its pandas
    DatetimeIndex or PeriodIndex ("DatetimeIndex", level None), or for each such level of its
    MultiIndex ("DatetimeIndex level 'date' of the MultiIndex", that level's value of each row,
    the level's name or position); ``[]`` where it has none (pandas is then not even
    imported)."""
    pandas = sys.modules.get("pandas")
    index = getattr(values, "index", None)
    if pandas is None:
        return []
    dated = (pandas.DatetimeIndex, pandas.PeriodIndex)
    if isinstance(index, dated):
        return [(type(index).__name__, index, None)]
    if not isinstance(index, pandas.MultiIndex):
        return []
    found = []
    for position, level in enumerate(index.levels):
        name = position if index.names[position] is None else index.names[position]
        if isinstance(level, dated):
            words = f"{type(level).__name__} level {name!r} of the MultiIndex"
            found.append((words, index.get_level_values(position), name))
    return found


def _out_of_order(dates):
    """The first position at which ``dates`` (a DatetimeIndex or PeriodIndex) goes back in
    time (or holds NaT), or None."""
    if dates.is_monotonic_increasing:  # cached by pandas, one pass
        return None
    # NaT compares as False with everything: a NaT row is out of order too
    return int(np.flatnonzero(~np.asarray(dates[1:] >= dates[:-1]))[0]) + 1


def _tested_on_a_training_date(dates, splits):
    """The splits of ``splits`` (``(where, train, test)``) that test rows (their lag rows
    aside) dated on or before their last training date (``dates``: of each row), as
    ``(where, those rows)``."""
    codes = np.unique(np.asarray(dates), return_inverse=True)[1].reshape(-1)  # a date's rank
    found = []
    for where, train, test in splits:
        train, test = own_rows(train, test)
        early = test[codes[test] <= codes[train].max()] if len(train) else test[:0]
        if early.size:
            found.append((where, early))
    return found


def _warn_rows_not_in_time_order(owner, data, splitters, whole_search, outer_splits,
                                 inner_splits):  # fmt: skip
    """A SplitLeakageWarning where a time-ordered splitter cuts rows (by position) whose dates
    (the DatetimeIndex or PeriodIndex of X or y, or such a level of their MultiIndex) are not
    in increasing order, or else where its training and test rows share a date
    (``outer_splits``, ``inner_splits``: the splits made; a search run whole makes its own).
    Returns where that is ("outer" or "inner") and what the warning found, in words, to keep
    in the description of those splits; None where it warned of nothing."""
    dated = [
        (f"the {words} of {name}", dates, level)
        for name, values in (("X", data.X), ("y", data.y_given))
        for words, dates, level in _time_indexes(values)
    ]
    if not dated:
        return None
    outer, inner, search = splitters.outer, splitters.inner, whole_search
    candidates = [(f"outer_cv={outer!r}", "outer", outer, _named_splits(outer_splits))]
    if search is not None:
        cv = check_cv(search.cv)
        candidates.append((f"the cv of the search={cv!r}", "inner", cv, []))
    else:
        which = "the default inner hold-out (inner_cv=None)"
        which = f"inner_cv={inner!r}" if splitters.inner_given is not None else which
        candidates.append((which, "inner", inner, _named_splits(inner_splits)))
    ordered = [c for c in candidates if is_time_ordered(c[2])]
    if not ordered:
        return None
    said = "In {}, {} splits the rows in time order, by their position"
    kept_in = ordered[0][1]
    found = _warn_dates_out_of_order(said.format(owner, ordered[0][0]), dated)
    # a date on both sides: of the outer splits, else of the inner ones (review40 REV-5)
    for which, level, _, splits in ordered if found is None else ():
        found = _warn_dates_shared(said.format(owner, which), *dated[0][:2], splits)
        if found is not None:
            kept_in = level
            break
    return None if found is None else (kept_in, f"{found}: {NOT_DATED_AFTER}")


def _named_splits(splits):
    """``splits`` (a list: the outer; a dict fold -> list: the inner) as ``(where, train,
    test)``, each named as the warnings name it."""
    if isinstance(splits, dict):
        return [
            (f"inner split {s} of {_where(fold)}", train, test)
            for fold, fold_splits in splits.items()
            for s, (train, test) in enumerate(fold_splits)
        ]
    return [(f"outer fold {fold}", train, test) for fold, (train, test) in enumerate(splits)]


def _warn_dates_out_of_order(splitter, dated):
    """The SplitLeakageWarning of :func:`_warn_rows_not_in_time_order` for the first of
    ``dated`` (``(words, dates, level)``) whose dates go back in time; returns what it found, in
    words, or None where none does."""
    for subject, dates, level in dated:
        row = _out_of_order(dates)
        if row is None:
            continue
        at = f"(row {row} is {dates[row]}, row {row - 1} {dates[row - 1]})"
        sort = "sort_index()" if level is None else f"sort_index(level={level!r})"
        warnings.warn(
            f"{splitter}, but {subject} is not in increasing order {at}: its test rows are not "
            "all after its training rows in time, so the scores may be those of predicting the "
            f"past from the future. Sort X and y by time first (e.g. X.{sort}, and y in the "
            "same order).",
            SplitLeakageWarning,
            stacklevel=external_stacklevel(),
        )
        return f"{subject} not in increasing order {at}"
    return None


def _warn_dates_shared(splitter, subject, dates, splits):
    """The SplitLeakageWarning of :func:`_warn_rows_not_in_time_order` where ``splits``
    (``(where, train, test)``) test rows dated on their last training date (``dates``, of
    ``subject``, in increasing order); returns what it found, in words, or None."""
    shared = _tested_on_a_training_date(dates, splits)
    if not shared:
        return None
    where, rows = shared[0]
    found = (
        f"{sum(rows.size for _, rows in shared)} test rows of {len(shared)} of the "
        f"{len(splits)} splits dated on their last training date (e.g. {rows.size} of "
        f"{dates[rows[0]]} in {where})"
    )
    warnings.warn(
        f"{splitter}, but {subject} repeats dates and its splits cut inside a date: {found}. "
        "Training and test rows then share a date, so a model is tested on rows of a date it "
        "trained on, and the scores may be optimistic. Cut the splits between dates: split the "
        "distinct dates (e.g. with TimeSeriesSplit) and pass the rows of each split as given "
        "splits (a list of (train, test) row indices).",
        SplitLeakageWarning,
        stacklevel=external_stacklevel(),
    )
    return found


def _warn_search_ignores_groups(owner, search, routed, inner_cv, leaks):
    """A SplitLeakageWarning where ``search``, run whole, splits without the run's groups;
    ``inner_cv``: the inner_cv given, whose splitter replaced the search's cv (or None);
    ``leaks``: those of its splits (:func:`_inner_group_leaks`). Returns what it found, in
    words (with ``leaks``), or None where it warned of nothing."""
    cv = f"its cv={search.cv!r}"
    if inner_cv is not None:
        cv = f"inner_cv={inner_cv!r:.100} (in place of its own cv)"
    if routed.search_groups is not None:
        if splits_by_groups(search.cv):
            return None
        why = f"{cv} does not split by the groups it receives"
        found = "the search's cv not splitting by the groups it receives"
    else:
        why = f"the search's fit does not receive the groups: {cv} splits ignoring them"
        found = "the search's fit not receiving the groups"
    fix = "" if inner_cv is None else " Or pass a group splitter (or an int) as inner_cv."
    warnings.warn(
        f"{owner} runs its search whole inside each outer training fold, and {why}, so model "
        "selection may validate on groups it trained on. Pass a GridSearchCV or "
        "RandomizedSearchCV (taken apart, their splits keep the groups apart), or the "
        f"estimator with param_grid.{fix}",
        SplitLeakageWarning,
        stacklevel=external_stacklevel(),
    )
    counted = _leak_words(leaks)
    counted = f", {counted}" if counted else ""
    return f"{found}{counted} (model selection may validate on groups it trained on)"


def _describe_inner(splitters, inner_splits, stored, whole_search, inner_leaks, y, *,
                    grouped=False, search_groups=None, search_splits=None):  # fmt: skip
    """The inner resampling in words; ``whole_search``: a search run whole (its cv the one it
    splits with), or None; ``grouped``: whether the run has groups, ``search_groups``: those
    that the search run whole receives (None: none); ``search_splits``: the splits its cv
    makes of the training folds (fold -> splits; a fold it cannot split is left out)."""
    if any(splits is not None for splits in stored.values()):
        return "the inner splits that outer_cv stores"
    if whole_search is not None:
        return _describe_whole_search(
            splitters, whole_search, search_splits or {}, y,
            grouped=grouped, search_groups=search_groups,
        )  # fmt: skip
    # one splitter makes every fold's inner splits, as many in each or (as LeaveOneOut) a count
    # that follows the fold's size: the fewest and the most are said
    counts = [len(splits) for fold, splits in inner_splits.items() if fold is not None]
    counts = counts or [len(splits) for splits in inner_splits.values()] or [0]
    n_splits = (min(counts), max(counts))
    given = splitters.inner_given
    text = describe_resampling(splitters.inner, n_splits, inner_leaks, given=given, y=y)
    cv = splitters.inner
    if isinstance(cv, HoldoutSplit) and cv.test_size < 1 and inner_leaks is not None:
        # whole groups: with few of them, the share validated is far from test_size's
        shares = [len(te) / (len(tr) + len(te)) for s in inner_splits.values() for tr, te in s]
        low, high = min(shares, default=cv.test_size), max(shares, default=cv.test_size)
        if max(abs(low - cv.test_size), abs(high - cv.test_size)) > 0.05:
            span = f"{low:.0%}" if round(low, 2) == round(high, 2) else f"{low:.0%}-{high:.0%}"
            text += f", validating on {span} of a fold (whole groups)"
    late = _late_words(splitters.outer, inner_splits)
    return f"{text}, {late}" if late else f"{text}, in each outer training fold"


def _late_words(outer, inner_splits):
    """After a time-ordered ``outer``, how many of ``inner_splits`` (fold -> splits) validate on
    rows before their training rows, in words ("6 of the 9 validating ... over the 3 outer
    training folds"), as the warning says it; "" where none does."""
    late = _late_inner_splits(inner_splits) if is_time_ordered(outer) else []
    if not late:
        return ""
    total = sum(len(splits) for splits in inner_splits.values())
    n_folds = sum(fold is not None for fold in inner_splits)
    counted = f"the {n_folds} outer training fold{'s' * (n_folds != 1)}"
    if None in inner_splits:
        counted += " and the final selection"
    return (
        f"{len(late)} of the {total} validating on rows before their training rows "
        f"(model selection sees the future), over {counted}"
    )


def _describe_whole_search(splitters, search, splits, y, *, grouped, search_groups):
    """A search run whole in words: the cv it splits with (inner_cv's splitter, where one is
    given), as :func:`_describe_inner` names an inner splitter, with as many splits as it made
    of the training folds (``splits``, fold -> splits). What its splits leak, the warnings say
    (:func:`_warn_search_ignores_groups`, :func:`_warn_time_order_not_kept`)."""
    given = splitters.inner_given
    cv = check_cv(search.cv, labels_1d(y), classifier=is_classifier(search))
    counts = [len(fold_splits) for fold_splits in splits.values()]
    try:  # the splits made, else the count it says (one that needs the data has none)
        text = _describe_splitter(
            cv, (min(counts), max(counts)) if counts else cv.get_n_splits(), y
        )
    except (TypeError, ValueError):  # a count that needs the data (LeaveOneGroupOut)
        text = repr(cv)
    if grouped and isinstance(given, numbers.Integral):
        text += f" (cv={given} with groups)"
    if grouped:
        by_groups = search_groups is not None and get_routing_for_object(cv).consumes(
            "split", ["groups"]
        )
        text += " on groups" if by_groups else ", ignoring the groups"
    if given is None:
        return f"{text}: the search's own cv, run whole in each outer training fold"
    return (
        f"{text}: inner_cv in place of the search's own cv, run by the search in each "
        "outer training fold"
    )


def _early_stopping_holdouts(trains, stored, outer, data, estimator, seeds):
    """Per fold, the (train, val) rows a refit trains and stops on: the fold's stored inner
    split (as the paper's final runs), else a seeded default hold-out."""
    holdouts = {}
    split_params = {"groups": data.groups} if data.groups is not None else {}
    for fold, train in trains.items():
        if stored[fold]:
            holdouts[fold] = stored[fold][0]
            continue
        cv = default_inner_cv(estimator, outer, seeds.holdout_seed(fold), data.y)
        holdouts[fold] = inner_splits_of_fold(
            cv, data.X, data.y, train, split_params, _where(fold), data.n_samples,
            name="the early-stopping hold-out",
        )[0]  # fmt: skip
    return holdouts


def row_sets(n_samples, outer_splits, inner_splits, holdouts):
    """Every set of rows a task can name, by name."""
    rows = {("all",): np.arange(n_samples)}
    for fold, (train, test) in enumerate(outer_splits):
        rows[("train", fold)], rows[("test", fold)] = train, test
    for fold, splits in inner_splits.items():
        for s, (train, test) in enumerate(splits):
            rows[("inner", fold, s, "train")], rows[("inner", fold, s, "test")] = train, test
    for fold, (train, val) in holdouts.items():
        rows[("holdout", fold, "train")], rows[("holdout", fold, "val")] = train, val
    return rows
