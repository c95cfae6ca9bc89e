"""The outer and inner splits of a nested run: defaults, checks and materialisation.

Every split of a run is made here, once, before the first fit: :func:`resolve_splitters`
checks the outer splitter and picks the default inner one; :func:`materialise_splits` draws
the outer splits, each fold's inner splits (or those the outer splitter stores), the
early-stopping hold-outs, and names every set of rows a task can train or score on
(:class:`Splits`). Each split is checked by ``_split_validation.validate_splits``.

The default inner resampling follows the structure of the outer one, so that model selection
never sees what the assessment is protected from: with ``groups`` (or a group splitter outside)
the inner hold-out keeps every group on one side; after a time-ordered outer splitter
(``TimeSeriesSplit``, :class:`RollingOrigin`) the inner hold-out validates on the most recent
part of each training fold. A user-given ``inner_cv`` that breaks the structure respected
outside gets a :class:`~sklearn_fair.exceptions.SplitLeakageWarning` naming what leaks.
"""

import warnings
from dataclasses import dataclass

import numpy as np
from sklearn.base import is_classifier
from sklearn.model_selection import TimeSeriesSplit, check_cv
from sklearn.utils.multiclass import type_of_target

from ...exceptions import ReproducibilityWarning, SplitLeakageWarning
from ...utils._stacklevel import external_stacklevel
from .._holdout import HoldoutSplit
from .._rolling_origin import RollingOrigin
from .._split_validation import validate_inner_splits, validate_splits
from ._data import take

__all__ = [
    "Splits",
    "Splitters",
    "check_class_counts",
    "default_inner_cv",
    "inner_splits_of_fold",
    "is_group_splitter",
    "is_time_ordered",
    "materialise_splits",
    "resolve_splitters",
    "row_sets",
    "warn_structure_leaks",
    "warn_unseeded_splitters",
]

INNER_TEST_SIZE = 0.1


def is_time_ordered(cv):
    """Whether ``cv`` assesses on rows that come after its training rows."""
    return isinstance(cv, (TimeSeriesSplit, RollingOrigin))


def is_group_splitter(cv):
    """Whether ``cv`` keeps groups apart (scikit-learn's Group* and LeaveP/OneGroup* splitters)."""
    return "Group" in type(cv).__name__


def default_inner_cv(estimator, outer_cv, seed):
    """The paper's inner protocol, one 90%/10% hold-out, shaped by the outer splitter.

    Stratified for classifiers; validating on the last 10% (no shuffling) after a time-ordered
    outer splitter; grouped whenever ``groups`` reach its ``split`` (see :class:`HoldoutSplit`).
    """
    if is_time_ordered(outer_cv):
        return HoldoutSplit(test_size=INNER_TEST_SIZE, shuffle=False)
    return HoldoutSplit(
        test_size=INNER_TEST_SIZE, stratify=is_classifier(estimator), random_state=seed
    )


def lagged(cv):
    """RollingOrigin(lag > 0) overlaps training and assessment rows by design."""
    return isinstance(cv, RollingOrigin) and cv.lag > 0


def inner_splits_of_fold(inner_cv, X, y, train, split_params, classifier, where):
    """Materialise ``inner_cv`` on the rows ``train``; returns absolute (train, test) pairs."""
    y_train = None if y is None else y[train]
    cv = check_cv(inner_cv, y_train, classifier=classifier)
    check_class_counts(cv, y_train, where)
    split_params = {
        name: None if value is None else take(value, train) for name, value in split_params.items()
    }
    try:
        splits = list(cv.split(take(X, train), y_train, **split_params))
    except ValueError as exc:
        raise ValueError(f"inner_cv could not split {where}: {exc}") from exc
    positions = validate_splits(
        splits, len(train), allow_overlap=lagged(cv), name=f"inner_cv in {where}"
    )
    return [(train[tr], train[te]) for tr, te in positions]


def stored_inner_splits(outer_cv, fold, train, n_samples):
    """The inner splits that ``outer_cv`` stores for ``fold`` (e.g. a split file), or None."""
    if not hasattr(outer_cv, "get_inner_splits"):
        return None
    stored = outer_cv.get_inner_splits(fold)
    if stored is None:
        return None
    return validate_inner_splits(stored, train, n_samples, fold=fold, name="outer_cv")


def check_class_counts(cv, y, where):
    """Raise a ValueError naming a class with too few members for a stratified ``cv``.

    Where scikit-learn's splitter only warns (a k-fold in which some, not all, classes have
    fewer than k members: some folds then lack them), the splitter's own warning is left to
    speak, as in ``cross_validate``; where it raises, this says which class and where first.
    """
    needed = _members_needed(cv, y)
    if not needed:
        return
    classes, counts = np.unique(np.asarray(y), return_counts=True)
    too_few = counts < needed
    if _k_fold_like(cv) and not too_few.all():
        return
    if too_few.any():
        # plain Python values, so the message reads "class 2", not "class np.int64(2)"
        label, count = classes[too_few].tolist()[0], int(counts[too_few][0])
        raise ValueError(
            f"Cannot make the stratified split {cv!r} of {where}: class {label!r} has only "
            f"{count} member(s), fewer than the {needed} it needs "
            f"(one in every fold). Class counts: "
            f"{dict(zip(classes.tolist(), counts.tolist()))}. Use fewer splits, merge rare "
            "classes, or an unstratified splitter."
        )


def _k_fold_like(cv):
    name = type(cv).__name__
    return "Stratified" in name and "ShuffleSplit" not in name and not isinstance(cv, HoldoutSplit)


def _members_needed(cv, y):
    if y is None or type_of_target(y) not in ("binary", "multiclass"):
        return 0
    if isinstance(cv, HoldoutSplit):
        stratify = cv.stratify
        return 2 if stratify or stratify is None else 0
    name = type(cv).__name__
    if "Stratified" not in name:
        return 0
    if "ShuffleSplit" in name:
        return 2
    n_splits = getattr(cv, "n_splits", None)
    if n_splits is None:
        n_splits = getattr(cv, "cvargs", {}).get("n_splits")
    return int(n_splits) if n_splits else 0


def _groups_kept_apart(splits, groups):
    return all(not np.intersect1d(groups[train], groups[test]).size for train, test in splits)


def warn_structure_leaks(owner, outer_cv, outer_splits, inner_splits, groups):
    """Warn when inner splits share groups, or look into the future, where the outer do not."""
    if groups is not None:
        groups = np.asarray(groups)
        if _groups_kept_apart(outer_splits, groups):
            leaking = [
                (fold, np.intersect1d(groups[tr], groups[te]).size)
                for fold, splits in inner_splits.items()
                for tr, te in splits
                if np.intersect1d(groups[tr], groups[te]).size
            ]
            if leaking:
                fold, shared = leaking[0]
                warnings.warn(
                    f"The outer splits of {owner} keep groups apart, but {len(leaking)} inner "
                    f"split(s) put one group on both sides ({shared} shared group(s) in the "
                    f"first, in {'the final selection' if fold is None else f'outer fold {fold}'}"
                    "): model selection sees its validation groups in training. Pass a group "
                    "splitter as inner_cv (e.g. GroupKFold), or leave inner_cv=None for a "
                    "grouped hold-out.",
                    SplitLeakageWarning,
                    stacklevel=external_stacklevel(),
                )
    if is_time_ordered(outer_cv):
        late = [
            fold
            for fold, splits in inner_splits.items()
            for tr, te in splits
            if len(tr) and len(te) and np.min(te) < np.max(tr)
        ]
        if late:
            warnings.warn(
                f"The outer splitter of {owner} is time-ordered, but {len(late)} inner split(s) "
                "validate on rows that precede training rows: model selection sees the future. "
                "Pass a time-ordered inner_cv (e.g. TimeSeriesSplit), or leave inner_cv=None "
                "for a hold-out of the most recent rows.",
                SplitLeakageWarning,
                stacklevel=external_stacklevel(),
            )


def _unseeded(cv):
    if not hasattr(cv, "random_state") or cv.random_state is not None:
        return False
    return bool(getattr(cv, "shuffle", True))


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

    outer: object  # outer_cv, checked (an int made a KFold or StratifiedKFold)
    inner: object  # the inner splitter: the one given, or the default hold-out
    inner_given: object  # the inner_cv given (by the user or the wrapped search), or None


def resolve_splitters(outer_cv, inner_cv, estimator, y, seeds, owner):
    """The outer splitter checked, the inner one defaulted (see :func:`default_inner_cv`),
    and a warning for a shuffling splitter without a seed in a seeded run."""
    outer = check_cv(outer_cv, y, classifier=is_classifier(estimator))
    inner = inner_cv
    if inner is None:
        inner = default_inner_cv(estimator, outer, seeds.inner_cv_seed())
    if seeds.seeded:
        warn_unseeded_splitters(owner, {"outer_cv": outer_cv, "inner_cv": inner_cv})
    return Splitters(outer, inner, inner_cv)


@dataclass(frozen=True)
class Splits:
    """Every split of a run, materialised (:func:`materialise_splits`)."""

    outer: list  # (train, test) of each outer fold
    inner: dict  # fold (None: all the data) -> list of (train, test); [] for a whole search
    holdouts: dict  # fold -> (train, val) that its refits (None: the final fit) early-stop on
    rows: dict  # every set of rows a task can name, by name (see row_sets)


def materialise_splits(data, splitters, routed, *, estimator, whole_search, early_stopping,
                       final, seeds, owner):  # fmt: skip
    """Every split of the run on ``data`` (a :class:`~._inputs.CheckedData`), checked.

    ``routed`` (a :class:`~._scoring.RoutedParams`) gives each splitter its metadata; with no
    inner_cv given, the default hold-out receives ``groups`` too, so that it keeps them apart.
    ``whole_search``: the inner selection is a search run whole, which splits by itself.
    """
    outer, n_samples = splitters.outer, data.n_samples
    inner_split = routed.inner_split
    if splitters.inner_given is None and data.groups is not None:
        inner_split = {**inner_split, "groups": data.groups}  # our hold-out keeps groups apart
    check_class_counts(outer, data.y, "the whole data set (outer_cv)")
    outer_splits = validate_splits(
        outer.split(data.X, data.y, **routed.outer_split),
        n_samples,
        allow_overlap=lagged(outer),
        name="outer_cv",
    )
    trains = {fold: train for fold, (train, _) in enumerate(outer_splits)}
    if final:
        trains[None] = np.arange(n_samples)
    stored = {
        fold: None if fold is None else stored_inner_splits(outer, fold, train, n_samples)
        for fold, train in trains.items()
    }
    classifier = is_classifier(estimator)
    inner_splits = {}
    for fold, train in trains.items():
        if stored[fold] is not None:
            inner_splits[fold] = stored[fold]
        elif whole_search:
            inner_splits[fold] = []
        else:
            inner_splits[fold] = inner_splits_of_fold(
                splitters.inner, data.X, data.y, train, inner_split, classifier, _where(fold)
            )
    if splitters.inner_given is not None:
        warn_structure_leaks(owner, outer, outer_splits, inner_splits, data.groups)
    holdouts = {}
    if early_stopping:
        holdouts = _early_stopping_holdouts(trains, stored, outer, data, estimator, seeds)
    rows = row_sets(n_samples, outer_splits, inner_splits, holdouts)
    return Splits(outer_splits, inner_splits, holdouts, rows)


def _early_stopping_holdouts(trains, stored, outer, data, estimator, seeds):
    """Per fold, the (train, val) rows a refit (or the final fit) trains and stops on.

    The fold's stored inner split when the outer splitter stores them (the paper's final runs
    reuse it), else a seeded hold-out shaped like the default inner split.
    """
    holdouts = {}
    split_params = {"groups": data.groups} if data.groups is not None else {}
    for fold, train in trains.items():
        if stored[fold]:
            holdouts[fold] = stored[fold][0]
            continue
        cv = default_inner_cv(estimator, outer, seeds.holdout_seed(fold))
        where = f"the early-stopping hold-out of {_where(fold)}"
        holdouts[fold] = inner_splits_of_fold(
            cv, data.X, data.y, train, split_params, is_classifier(estimator), where
        )[0]
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
