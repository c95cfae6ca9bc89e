"""audit: duplicates across splits, a label-permutation check and prefit steps, in one call, and
its result."""

import copy
import numbers
from dataclasses import dataclass, field

import numpy as np
from sklearn.base import is_classifier
from sklearn.model_selection import PredefinedSplit
from sklearn.model_selection._split import GroupsConsumerMixin
from sklearn.utils import indexable
from sklearn.utils._param_validation import validate_params
from sklearn.utils.validation import _num_samples

from ..metrics._one_class import check_one_class_names
from ..model_selection._engine import (
    check_cv_with_groups,
    check_labels,
    given_splits,
    straddling_groups,
)
from ..model_selection._nested._inputs import groups_1d
from ..model_selection._split_validation import validate_splits
from ..utils import (
    N_JOBS_CONSTRAINTS,
    check_random_state,
    fill_doc,
    is_graph_data,
    read_graph_labels,
)
from ..utils._printing import decimals_for, number
from ..utils._splits import generator_seeded
from ..utils._validation import labels_1d
from ._duplicates import find_duplicates, sample_digests
from ._permutation import (
    PERMUTATION_CONSTRAINTS,
    PERMUTATION_DOCS,
    _monotone_in,
    check_chance_range,
    check_scoring_labels,
    permutation_check,
)
from ._prefit import find_prefit_steps, fitted_in_candidates

_CHECKS = ("duplicates", "permutation", "prefit")
#: The change of a class's share of the samples that makes a prepare resampling.
_SHARE_CHANGE = 0.05


@dataclass(frozen=True)
class AuditResult:
    """What :func:`~sklearn_fair.audit` found; ``print`` it for a short report.

    Attributes
    ----------
    duplicates : DuplicateReport or None
        Exact duplicates and the outer splits that put them on both sides (of the samples
        ``prepare`` returns, in the splits the evaluation makes of them, where it returns
        other rows than those given: see ``rows_kept``).
    permutation : PermutationReport or None
        The nested estimate on permuted labels against chance.
    prefit : list of PrefitStep or None
        Steps that were fitted when handed in.
    n_samples : int
        Samples in the data as given.
    n_prepared : int or None
        Samples after ``prepare``, when one was given.
    notes : list of str
        Limits of what was checked.
    groups_on_both_sides : tuple of (int, int) or None
        With ``groups``: how many groups the outer splits put on both sides of a split, of
        how many (a splitter that ignores the groups tests on subjects it trained on).
    share_changed : tuple of (label, float, float) or None
        For a classifier given ``prepare``: the class whose share of the samples it changed
        most, with its share before and after (the class None where ``prepare`` renames the
        classes: they are then compared in order of size).
    rows_kept : bool or None
        With ``prepare``: whether it returned the samples as given, in their order, changing
        at most their features and their labels, each label a non-decreasing function of the
        one given (a scaled or log-transformed target, a LabelEncoder's codes) or, for a
        classifier, the classes renamed (True: the duplicates are those of the samples as
        given, and the groups are kept), or other rows: reordered, resampled, added or
        dropped (False: the duplicates are those of the rows it returned). None without
        ``prepare``.
    copies_added : int
        Where ``prepare`` returned other rows, with the features as given: how many more
        copies of given samples they hold than the samples as given (a bootstrap of the
        same size makes some); 0 otherwise.
    """

    duplicates: object = None
    permutation: object = None
    prefit: object = None
    n_samples: int = 0
    n_prepared: object = None
    notes: list = field(default_factory=list)
    groups_on_both_sides: object = None
    share_changed: object = None
    rows_kept: object = None
    copies_added: int = 0

    @property
    def resampled_before_split(self):
        """Whether ``prepare`` resampled before splitting: added samples (copies or synthetic
        ones, which a split can put on both sides of their originals; copies also where it
        returns as many samples as given, as a bootstrap does), or changed a class's share by
        more than 0.05 (the test folds then lack the data's class balance). One that only
        drops samples (duplicates, missing values) or reorders them, and keeps the balance,
        is not."""
        if self.n_prepared is None:
            return False
        if self.n_prepared > self.n_samples or self.copies_added > 0:
            return True
        return (
            self.share_changed is not None
            and abs(self.share_changed[2] - self.share_changed[1]) > _SHARE_CHANGE
        )

    @property
    def flags(self):
        """One line per finding; empty when the audit found nothing."""
        found = []
        d = self.duplicates
        of = " (of those prepare returned)" if self.rows_kept is False else ""
        if d is not None and d.straddling:
            shown = ", ".join(str(g.tolist()) for g in d.straddling[:5])
            more = f" and {len(d.straddling) - 5} more" if len(d.straddling) > 5 else ""
            index = d.straddling_index
            labels = (
                ""
                if index is None
                else f" (index labels {', '.join(str(g) for g in index[:5])}{more})"
            )
            found.append(
                f"duplicates: {len(d.straddling)} group(s) of identical samples{of} fall on "
                f"both sides of a split, at positions {shown}{more}{labels}"
            )
        if d is not None and d.in_train_and_test:
            shown = "; ".join(
                f"split {fold}: {_preview(both)}" for fold, both in d.in_train_and_test.items()
            )
            found.append(
                f"splits: {len(d.in_train_and_test)} split(s) put samples{of} in both their "
                f"training and test sets, so each is tested on itself ({shown}, positions)"
            )
        if self.permutation is not None and self.permutation.leaks:
            p, shown = self.permutation, _shown(self.permutation)
            found.append(
                f"permutation: on permuted labels the {p.scoring} is {shown(p.permuted_mean)} "
                f"[{shown(p.ci_low)}, {shown(p.ci_high)}] ({100 * p.confidence:g}% "
                f"{p.ci_method}), clearly above chance ({shown(p.chance)})"
            )
        if self.groups_on_both_sides is not None and self.groups_on_both_sides[0]:
            both, total = self.groups_on_both_sides
            found.append(
                f"groups: {both} of the {total} groups fall on both sides of a split (the "
                "splitter ignores the groups): the model is tested on groups it trained on"
            )
        for step in self.prefit or []:
            how = (
                "frozen: used as fitted in every resample"
                if step.frozen
                else "refitted after clone here, but leaks wherever used as fitted"
            )
            found.append(f"prefit: step '{step.name}' ({step.estimator}) was fitted ({how})")
        if self.resampled_before_split:
            label, before, after = self.share_changed or (None, 0.0, 0.0)
            which = "a class renamed by prepare" if label is None else f"class {label!r}"
            if abs(after - before) > _SHARE_CHANGE:
                balance = f"{which} from {before:.3f} to {after:.3f} of the samples"
            elif self.copies_added:
                balance = (
                    f"{self.copies_added} more copies of given samples, which a split can put "
                    "on both sides of their originals"
                )
            else:
                balance = "copies of samples that a split can put on both sides of their originals"
            # each clause where it holds: no classes (a regressor, 2-D labels), no balance lost
            lost = ["no longer have the data's class balance"] * (
                abs(after - before) > _SHARE_CHANGE
            )
            if d is not None and d.straddling and self.rows_kept is False:
                lost.append("hold copies of training samples")
            elif self.copies_added or self.n_prepared > self.n_samples:
                lost.append("can hold copies of training samples")
            found.append(
                f"resampling before splitting: prepare turned {self.n_samples} samples into "
                f"{self.n_prepared} ({balance}); test folds {' and '.join(lost)}"
            )
        return found

    @property
    def inconclusive(self):
        """Whether the permutation check could not tell: nothing flagged, but the permuted
        mean is more than ``tolerance`` above chance while its interval's lower bound is not
        (too few permutations)."""
        p = self.permutation
        return not self.flags and p is not None and p.inconclusive

    @property
    def passed(self):
        """True when no check flagged anything (see :attr:`inconclusive` too: where the
        permutation check could not tell, nothing is flagged and the report says so)."""
        return not self.flags

    def __bool__(self):
        return self.passed

    def __str__(self):
        if not self.passed:
            verdict = "LEAKS FOUND"
        elif self.inconclusive:
            verdict = "inconclusive (nothing flagged, but no leak was ruled out)"
        else:
            verdict = "no leak found"
        lines = ["Leakage audit: " + verdict]
        if self.duplicates is not None:
            d = self.duplicates
            of = (
                f" (of the {self.n_prepared} samples prepare returned)"
                if self.rows_kept is False
                else ""
            )
            lines.append(
                f"  duplicates  : {len(d.groups)} group(s) of identical samples, "
                f"{len(d.straddling)} across a split{of}"
            )
        if self.permutation is not None:
            p, shown = self.permutation, _shown(self.permutation)
            real = "" if p.estimate is None else f"real labels {shown(p.estimate)}; "
            lines.append(
                f"  permutation : {p.scoring}: {real}permuted {shown(p.permuted_mean)} "
                f"[{shown(p.ci_low)}, {shown(p.ci_high)}] ({100 * p.confidence:g}% "
                f"{p.ci_method}) over {len(p.permuted_estimates)} permutations; chance "
                f"{shown(p.chance)}"
            )
        if self.prefit is not None:
            names = ", ".join(s.name for s in self.prefit) or "none"
            lines.append(f"  prefit steps: {names}")
        if self.inconclusive:
            lines.append(f"  ? permutation: {self.permutation.verdict}")
        lines += [f"  ! {flag}" for flag in self.flags]
        lines += [f"  note: {note}" for note in self.notes]
        return "\n".join(lines)

    def __repr__(self):
        return f"<AuditResult passed={self.passed} flags={len(self.flags)}>"


def _preview(positions, n=5):
    """Up to ``n`` positions as a list, and how many more."""
    shown = str(positions[:n].tolist())
    return shown if positions.size <= n else f"{shown} and {positions.size - n} more"


def _check_checks(checks):
    # names, not types: scikit-learn's constraints have no "collection of options"
    checks = (checks,) if isinstance(checks, str) else tuple(checks)
    unknown = [c for c in checks if c not in _CHECKS]
    if unknown or not checks:
        raise ValueError(
            f"The 'checks' parameter of audit must name some of {list(_CHECKS)}. "
            f"Got {list(checks)!r} instead."
        )
    return checks


def _unmoved(cv):
    return copy.deepcopy(cv) if generator_seeded(cv) else cv


def _check_cv_splits_prepared(cv_given, cv, n_samples, n_prepared):
    """Raise where ``cv`` cannot split what a ``prepare`` that returns other rows than those
    given (more, fewer, or as many reordered or resampled) returns: splits given as indices
    (they index the samples as given) and a splitter that splits by groups (the prepared
    samples have none). An int is read without the groups."""
    if isinstance(cv_given, numbers.Integral):
        return
    given = given_splits(cv)
    if given is not None or isinstance(cv, PredefinedSplit):
        what = repr(cv_given) if hasattr(cv_given, "split") else f"<{len(given)} given splits>"
        left = f" (samples {n_samples} to {n_prepared - 1} would be in no split)"
        why = f"cv={what} holds splits of the {n_samples} samples as given" + (
            left if n_prepared > n_samples else ""
        )
    elif isinstance(cv, GroupsConsumerMixin):  # scikit-learn's splitters that need groups
        why = (
            f"cv={cv_given!r} splits by the groups, which label the samples as given: the "
            "prepared samples have none"
        )
    else:
        return
    turned = (
        f"turned the {n_samples} samples into {n_prepared}"
        if n_prepared != n_samples
        else f"returned {n_prepared} samples that are not the {n_samples} given, in their order"
    )
    raise ValueError(
        f"The 'cv' parameter of audit cannot split the samples that prepare returns: prepare "
        f"{turned}, and {why}. Pass an int cv or a "
        "splitter that needs no groups, or a prepare that keeps the samples (resample inside "
        "the pipeline, with an imbalanced-learn sampler)."
    )


def _shown(report):
    """How the audit prints the numbers of a PermutationReport: to the precision their spread
    allows, at least 3 decimals (scores of 1e-5 printed as -0.000 hid the gap it is about)."""
    values = [report.estimate, report.permuted_mean, report.ci_low, report.ci_high, report.chance]
    values = [v for v in values if v is not None]
    permuted = np.asarray(report.permuted_estimates, dtype=float)
    with np.errstate(over="ignore", invalid="ignore"):  # 1e300s: an infinite spread, ignored
        spread = float(np.std(permuted)) if permuted.size else 0.0
    decimals = decimals_for(values, [spread, report.ci_high - report.ci_low], minimum=3)
    return lambda value: number(value, decimals)


@validate_params(
    {
        **PERMUTATION_CONSTRAINTS,
        "cv": ["cv_object"],
        "inner_cv": ["cv_object"],
        "param_grid": [dict, list, None],
        "scoring": [str, callable, None],
        "checks": [str, list, tuple, set, frozenset],
        "n_jobs": N_JOBS_CONSTRAINTS,
    },
    # the protocol's parameters are checked again, in full, by nested_cross_validate
    prefer_skip_nested_validation=False,
)
@fill_doc(PERMUTATION_DOCS)
def audit(
    estimator,
    X,
    y=None,
    *,
    cv=5,
    inner_cv=None,
    param_grid=None,
    scoring=None,
    groups=None,
    prepare=None,
    n_permutations=5,
    chance=None,
    tolerance=0.05,
    confidence=0.95,
    checks=_CHECKS,
    n_jobs=None,
    random_state=None,
):
    """Look for data leaks in an estimator or pipeline and the data it is evaluated on.

    Three checks, each optional (``checks``):

    - **duplicates**: exact duplicate rows (or identical graphs) of ``X`` that the outer
      splits of ``cv`` put on both sides (:func:`find_duplicates`): the model is then tested
      on samples it was trained on.
    - **permutation**: the nested protocol (``cv`` outside, ``inner_cv`` and ``param_grid``
      inside, as :func:`~sklearn_fair.nested_cross_validate` runs it) repeated on
      ``n_permutations`` permutations of ``y`` (:func:`permutation_check`). Permuted labels
      carry no signal, so an honest protocol scores at chance; an interval of the
      permuted-label estimate more than ``tolerance`` above chance flags a leak; a mean more
      than ``tolerance`` above chance whose interval is not (too few permutations) flags
      nothing but is reported as inconclusive (``result.inconclusive``), not as "no leak
      found". It re-runs everything it is given, ``prepare`` included;
      anything done to ``X`` before calling ``audit`` and not passed as ``prepare`` is
      invisible to it (a permutation breaks the link between ``X`` and ``y``, and the
      estimate falls to chance, leak or not), and so is a step of ``prepare`` that does not
      read the labels (scaling, PCA fitted on all rows: the same ``X`` on every
      permutation), of which a note tells.
    - **prefit**: steps that were already fitted when handed in (:func:`find_prefit_steps`),
      in ``estimator`` and in the candidates of ``param_grid`` (a FrozenEstimator among a
      parameter's values, named ``"param_grid/<parameter>"``).

    Parameters
    ----------
    estimator : estimator object
        The estimator or pipeline (scikit-learn's or imbalanced-learn's), as you would
        evaluate it. It is cloned, never modified.
    X : array-like, sparse matrix, DataFrame or sequence of graphs
        The data, before ``prepare``.
    y : array-like of shape (n_samples,), default=None
        The labels; read from the graphs' ``.y`` for graph data when None. Only the
        permutation check needs them: without them (an unsupervised model) pass
        ``checks=("duplicates", "prefit")``, and an int ``cv`` is a ``KFold``.
    cv : int, cross-validation generator or iterable, default=5
        The outer resampling (``outer_cv`` of NestedCV). An int is read as NestedCV and
        :func:`~sklearn.model_selection.check_cv` read it (stratified for a classifier, grouped
        with ``groups``), *without* shuffling, so the audit sees the very splits the evaluation
        uses; pass a shuffled splitter for rows that are ordered.
    inner_cv : int, cross-validation generator or iterable, default=None
        The inner resampling; None is NestedCV's default hold-out.
    param_grid : dict or list of dicts, default=None
        Candidates for the inner selection; None assesses the estimator as given.
    scoring : str, callable or None, default=None
        One metric, as in NestedCV; None is the estimator's ``score``.
    groups : array-like of shape (n_samples,), default=None
        Group labels for group-aware splitters. A ``cv`` whose splits put a group on both
        sides (one that ignores the groups) is flagged.
    {prepare} Where it returns other rows than those given (samples added, dropped,
        reordered or resampled), the duplicates are those of the prepared samples, in the
        splits the evaluation makes of them; where it keeps the rows in their order (selecting
        or scaling features, scaling or log-transforming the target: any non-decreasing
        change of it), those of the samples as given, with their
        ``groups``. Resampling before splitting is flagged: samples added (copies, synthetic
        ones; copies of given samples also where their number stays), or a class's share
        changed by more than 0.05; dropping samples (duplicates, missing values) or
        reordering them while keeping the balance is not.
        With other rows, a ``cv`` of given splits or one that splits by groups, which cannot
        split the prepared samples, is refused (ValueError).
    {n_permutations}
    {chance}
    {tolerance}
    {confidence}
    checks : str or tuple of str, default=("duplicates", "permutation", "prefit")
        Which checks to run.
    n_jobs : int, default=None
        Parallel jobs of each nested run.
    random_state : int, RandomState instance, Generator or None, default=None
        Seeds the permutations and the nested runs, not the splits of ``cv``: an int ``cv``
        does not shuffle, and a splitter that shuffles with ``random_state=None`` draws other
        splits on each call, as in :func:`~sklearn.model_selection.cross_validate`. An int
        seed gives the same result again where ``cv`` draws the same splits (an int, or a
        splitter with an int ``random_state``).

    Returns
    -------
    result : AuditResult
        Prints as a short report; ``result.passed`` (no check flagged anything) and
        ``result.flags`` summarise it, and ``result.inconclusive`` says where the permutation
        check could not tell.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.feature_selection import SelectKBest
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn_fair import audit
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(60, 500)), rng.integers(0, 2, 60)
    >>> def select_on_all_data(X, y):
    ...     return SelectKBest(k=10).fit_transform(X, y), y
    >>> leaky = audit(LogisticRegression(), X, y, prepare=select_on_all_data, random_state=0)
    >>> leaky.passed, leaky.permutation.permuted_mean > 0.7
    (False, True)
    >>> clean = audit(make_pipeline(SelectKBest(k=10), LogisticRegression()), X, y, random_state=0)
    >>> print(clean)  # doctest: +ELLIPSIS
    Leakage audit: no leak found
      duplicates  : 0 group(s) of identical samples, 0 across a split
      permutation : accuracy: real labels ...
      prefit steps: none
      note: ...
    """
    checks = _check_checks(checks)
    if y is None and is_graph_data(X):
        y = read_graph_labels(X)
    if y is None and "permutation" in checks:
        raise ValueError(
            "audit's permutation check needs the labels y (or graphs carrying their label as "
            f"'.y'), and checks={checks!r} asks for it. Without labels, pass "
            "checks=('duplicates', 'prefit'): those run without them."
        )
    # None stays None: permutation_check draws fresh entropy for it (seed_root), where the
    # global RandomState would take a draw from the user's np.random stream
    rng = None if random_state is None else check_random_state(random_state)
    X_checked, y_checked, groups = indexable(X, y, groups)
    groups = groups_1d(groups)  # one column (df[["patient"]]) as that column, as NestedCV reads it
    # as NestedCV refuses them: a row without a group cannot be kept apart from any
    check_labels(groups, "groups")
    # None: an int cv is then a KFold
    y = None if y_checked is None else np.asarray(y_checked)
    # prepare gets a pandas Series (DataFrame) of labels as given: index and name kept
    y_given = y_checked if hasattr(y_checked, "iloc") else y
    if "permutation" in checks:  # before prepare and any fit
        check_scoring_labels(estimator, scoring, y, "audit")
        check_chance_range(estimator, scoring, chance, tolerance, "audit")
    n_samples = _num_samples(X_checked)
    # an int cv is read as NestedCV reads it, so both see the same splits
    cv_given, cv = cv, check_cv_with_groups(cv, y, is_classifier(estimator), groups)
    notes = []
    # index arrays in range, named as the user's cv (masks given as splits become indices)
    # a copy of a splitter seeded with a RandomState or Generator: its split() moves that
    # generator on, so the checks and permutation_check's runs would each split otherwise
    splits = validate_splits(
        _unmoved(cv).split(X_checked, y, groups), n_samples, allow_overlap=True
    )

    groups_on_both_sides = None
    if groups is not None:  # counted as NestedCV counts them for its GroupLeakageWarning
        labels = np.asarray(groups)
        both = np.unique(np.concatenate(straddling_groups(splits, labels)))
        groups_on_both_sides = (both.size, np.unique(labels).size)

    # what the evaluation splits: the prepared samples, where prepare is given
    X_split, y_split, n_prepared, share_changed = X_checked, y, None, None
    rows_kept, copies_added = None, 0
    if prepare is not None:
        X_split, y_split = prepare(X_checked, y_given)
        y_split = None if y_split is None else np.asarray(y_split)
        n_prepared = _num_samples(X_split)
        if is_classifier(estimator) and y is not None and y_split is not None:
            share_changed = _largest_share_change(y, y_split)
        # not the count alone: a bootstrap or a shuffle returns as many rows, others
        given, prepared = sample_digests(X_checked), sample_digests(X_split)
        rows_kept = bool(
            n_prepared == n_samples
            and _rows_kept(given, prepared, y, y_split, is_classifier(estimator))
        )
        if not rows_kept:
            copies_added = _copies_added(given, prepared)
    if "permutation" in checks:  # NestedCV's check of the labels the runs score, named here
        check_one_class_names({"audit": scoring}, y_split)
    other_rows = rows_kept is False
    if other_rows and ("permutation" in checks or "duplicates" in checks):  # before any fit
        _check_cv_splits_prepared(cv_given, cv, n_samples, n_prepared)
    if other_rows and groups is not None:
        notes.append("groups are not passed through a prepare that changes the samples")
    # the prepared samples have no groups: an int cv is not made a group splitter
    cv_prepared = cv_given if other_rows and isinstance(cv_given, numbers.Integral) else cv

    duplicates = None
    if "duplicates" in checks:
        if other_rows:  # the duplicates the evaluation's splits of the rows it is given make
            prepared_cv = check_cv_with_groups(cv_prepared, y_split, is_classifier(estimator), None)
            splits = list(_unmoved(prepared_cv).split(X_split, y_split))
        # a prepare that keeps the samples (selecting features) keeps them distinct, however
        # alike their selected features: the samples as given
        duplicates = find_duplicates(
            *((X_split, y_split) if other_rows else (X_checked, y)), splits
        )
        if is_graph_data(X_checked):
            notes.append("graphs are compared as stored (same node order), not up to isomorphism")

    permutation = None
    if "permutation" in checks:
        permutation = permutation_check(
            estimator,
            X_checked,
            y_given,
            prepare=prepare,
            groups=None if other_rows else groups,
            n_permutations=n_permutations,
            chance=chance,
            tolerance=tolerance,
            confidence=confidence,
            random_state=rng,
            outer_cv=cv_prepared,
            inner_cv=inner_cv,
            param_grid=param_grid,
            scoring=scoring,
            n_jobs=n_jobs,
        )
        if prepare is None:
            notes.append(
                "the permutation check cannot see what was done to X before audit; "
                "pass it as prepare"
            )
        elif permutation.prepare_reads_labels is False:
            notes.append(
                "prepare returned the same X for every permutation of the labels: a step in "
                "it that does not read them (scaling, imputation, PCA fitted on all rows) is "
                "invisible to the permutation check; fit it inside the pipeline, where each "
                "training fold fits it"
            )

    prefit = None
    if "prefit" in checks:  # the candidates too: every resample of one uses what it keeps
        prefit = find_prefit_steps(estimator) + fitted_in_candidates(param_grid)
    return AuditResult(
        duplicates, permutation, prefit, n_samples, n_prepared, notes, groups_on_both_sides,
        share_changed, rows_kept, copies_added,
    )  # fmt: skip


def _largest_share_change(y, prepared):
    """``(class, share before, share after)`` of the class whose share of the samples
    ``prepare`` changed most, or None for labels that are not classes (2-D). A prepare that
    renames the classes (a LabelEncoder) is compared class by class in order of size, the
    class then None. A one-column y is its column."""
    y, prepared = labels_1d(y), labels_1d(prepared)
    if y.ndim != 1 or prepared.ndim != 1:
        return None
    labels, counts = np.unique(y, return_counts=True)
    new_labels, new_counts = np.unique(prepared, return_counts=True)
    if not np.isin(new_labels, labels).all():  # renamed: the shares in order of size
        before = np.sort(counts)[::-1] / max(y.size, 1)
        after = np.zeros(max(labels.size, new_labels.size))
        after[: new_labels.size] = np.sort(new_counts)[::-1] / max(prepared.size, 1)
        before = np.pad(before, (0, after.size - before.size))
        most = int(np.argmax(np.abs(after - before)))
        return None, float(before[most]), float(after[most])
    after = np.array([np.mean(prepared == label) if prepared.size else 0.0 for label in labels])
    before = counts / y.size
    most = int(np.argmax(np.abs(after - before)))
    return labels[most : most + 1].tolist()[0], float(before[most]), float(after[most])


def _labels_kept(y, prepared, classifier):
    """Whether ``prepare`` kept the labels in their order: each a non-decreasing function of
    the label given (the same, a LabelEncoder's codes, a scaled or log-transformed target), by
    the rule of :func:`permutation_check` (``_monotone_in``) less its decreasing functions
    (rows reversed on a sorted target would pass as one); for a classifier also the same
    classes renamed in any order (each class always becomes one and the same). No labels
    (None) are kept as no labels."""
    if y is None or prepared is None:
        return y is None and prepared is None
    y, prepared = labels_1d(y), labels_1d(prepared)
    if prepared.shape != y.shape:
        return False
    if _monotone_in(y, prepared) and _rises_with(y, prepared):
        return True
    if not classifier or y.ndim != 1:
        return False
    old = np.unique(y, return_inverse=True)[1].ravel()
    new = np.unique(prepared, return_inverse=True)[1].ravel()
    pairs = np.unique(np.c_[old, new], axis=0)
    return len(pairs) == old.max() + 1 == new.max() + 1


def _rises_with(y, prepared):
    """Whether ``prepared``, in the order of ``y``, never falls (1-D labels that order)."""
    if y.ndim != 1:
        return np.array_equal(y, prepared)
    try:
        return bool((np.diff(prepared[np.argsort(y, kind="stable")]) >= 0).all())
    except TypeError:  # values that cannot be ordered or subtracted
        return np.array_equal(y, prepared)


def _rows_kept(given, prepared, y, y_prepared, classifier):
    """Whether ``prepare`` returned the rows as given, in their order (``given`` and
    ``prepared``: the digests of as many rows). Their features as given: kept. Every prepared
    row one of the given rows, not all in place (a shuffle, a bootstrap): not kept. Features
    changed (scaled, clipped, rounded, with noise added), where the features cannot tell the
    rows apart: kept, unless the labels moved (see :func:`_labels_kept`)."""
    comparable = given.dtype == prepared.dtype
    if comparable and np.array_equal(given, prepared):
        return True
    if comparable and np.isin(prepared, given).all():
        return False
    return _labels_kept(y, y_prepared, classifier)


def _copies_added(given, prepared):
    """How many more copies of given rows the prepared rows hold than the given rows, where
    their features are as given (digests alike); 0 where they cannot be compared."""
    if given.dtype != prepared.dtype or not len(given) or not len(prepared):
        return 0
    codes = np.unique(np.concatenate([given, prepared]), return_inverse=True)[1].ravel()
    size = codes.max() + 1
    before = np.bincount(codes[: len(given)], minlength=size)
    after = np.bincount(codes[len(given) :], minlength=size)
    return int(np.maximum(after - before, 0)[before > 0].sum())
