"""How a winner is picked in each outer fold (``select``), how candidates are ranked, and what
the choices say about the search space.

Ties go to the first candidate in the order of the search space, as in GridSearchCV. Means
*tie* when equal up to floating-point rounding (:data:`TIE_RTOL`): on a validation split of n
rows, accuracy moves in steps of 1/n. A candidate whose mean is not finite cannot win.
"""

import numbers
import warnings

import numpy as np
from scipy.stats import rankdata
from sklearn.exceptions import FitFailedWarning
from sklearn.model_selection import FixedThresholdClassifier, ParameterGrid

from ...exceptions import SearchSpaceEdgeWarning, SelectionTieWarning
from ...utils._printing import plain
from ...utils._scaling import mean_of, std_of
from ...utils._splits import time_ordered_splits
from ...utils._stacklevel import external_stacklevel
from ...utils._validation import labels_1d
from ._candidates import configure, is_search
from ._resampling import _NAMED_SPLITS, selecting_cv_params
from ._scoring import constant_columns, score_failed, shown
from ._seeds import param_owner
from ._tasks import SEARCH, SELECTION, TaskKey, distinct_count

__all__ = [
    "check_select",
    "rank_within_folds",
    "select_fold",
    "tuning_counts",
    "warn_about_selection",
]

#: Relative tolerance under which two mean validation scores tie (floating-point rounding).
TIE_RTOL = 1e-9


def tied_with_best(means):
    """Indices of the finite ``means`` that tie with the largest one (in order)."""
    means = np.asarray(means, dtype=float)
    finite = np.isfinite(means)
    if not finite.any():
        return []
    best = means[finite].max()
    # rounding is relative to the size of the two means compared: a target in small units
    # (MSE ~ 1e-11) has means that differ by less than any fixed absolute tolerance, and a
    # diverged candidate (MSE ~ 1e9) says nothing of the others' rounding
    with np.errstate(invalid="ignore"):
        close = np.abs(means - best) <= TIE_RTOL * np.maximum(np.abs(means), abs(best))
    close &= finite
    return np.flatnonzero(close).tolist()


def check_select(select, search, inner_splits, owner):
    """Raise before any fit when ``select="one_se"`` cannot be applied."""
    if select != "one_se":
        return
    if search is not None:
        raise ValueError(
            f"The 'select' parameter of {owner} is 'one_se', but the search given "
            f"({type(search).__name__}) runs whole and picks its own winner. Pass a "
            "GridSearchCV or RandomizedSearchCV, or the estimator with param_grid."
        )
    fewest = min(len(splits) for splits in inner_splits.values())
    if fewest < 2:
        raise ValueError(
            f"The 'select' parameter of {owner} is 'one_se', which needs at least 2 inner "
            "splits per outer fold (the standard error is that of the mean over the inner "
            f"splits), but inner_cv gives {fewest}. Pass a k-fold inner_cv, e.g. inner_cv=5."
        )


def _one_standard_error(scores, means, best):
    """The first candidate whose mean is within one standard error of ``means[best]``."""
    best_scores = scores[best]
    error = std_of(best_scores, ddof=1) / np.sqrt(best_scores.size)
    within = np.isfinite(means) & (means >= means[best] - error - TIE_RTOL * abs(means[best]))
    return int(np.flatnonzero(within)[0]), float(error)


def _raise_if_asked(plan, key, error):
    """With ``error_score="raise"`` for the selection fits, raise for the failed task ``key``:
    its failure could not raise in its task (its worker died, or was killed after it ran over
    ``fit_timeout``), and "raise" is no score."""
    if isinstance(plan.selection_error_score, str):
        raise ValueError(
            f"The {key.describe()} of {plan.owner} failed, and error_score='raise'. The error "
            f"was:\n{error}"
        )


def failures_listed(owner):
    """Where the user of ``owner`` (a run's name in its messages) finds its failed fits."""
    if owner.startswith("benchmark"):
        return "the benchmark result's failures"
    if owner.startswith("nested_cross_") or owner.startswith("permutation_check"):
        return f"failed_tasks_ of a NestedCV fitted as {owner} runs"
    return "failed_tasks_"


def _where(fold):
    return "the selection on all the data (final model)" if fold is None else f"outer fold {fold}"


def select_fold(plan, fold, results):
    """The selection of ``fold`` from its finished selection tasks (``results``: key -> result).
    A fold in which no candidate can be selected gets ``"failed"`` (why) and no refit, as in
    ``cross_validate(GridSearchCV(...))``; only the selection on all the data raises."""
    if plan.search is not None:
        return _from_search(plan, fold, results[TaskKey(SEARCH, fold)])
    inner = plan.inner_splits_of(fold)
    n_candidates, n_inner = len(plan.candidates), len(inner)
    fold_results = [
        [results[plan.selection_key(fold, c, s)] for s in range(n_inner)]
        for c in range(n_candidates)
    ]
    keys = plan.metric_keys((r for row in fold_results for r in row), plan.scoring.selection_keys)
    scores = {name: np.empty((n_candidates, n_inner)) for name in keys}
    # where a score is error_score, given to a fit that failed or a scorer that raised
    placeholders = {name: np.zeros((n_candidates, n_inner), dtype=bool) for name in keys}
    fit_time = np.zeros((n_candidates, n_inner))
    score_time = np.zeros((n_candidates, n_inner))
    errors = []
    for c, row in enumerate(fold_results):
        for s, result in enumerate(row):
            if result["error"]:
                _raise_if_asked(plan, plan.selection_key(fold, c, s), result["error"])
                errors.append(result["error"])
            for name in keys:
                failed = score_failed(result, name)
                value = plan.selection_error_score if failed else result["scores"][name]
                scores[name][c, s], placeholders[name][c, s] = value, failed
            fit_time[c, s], score_time[c, s] = result["fit_time"], result["score_time"]
    means = {name: mean_of(values, axis=1) for name, values in scores.items()}
    metric = plan.selecting_metric(keys)
    selecting = means[metric]
    finite = np.isfinite(selecting)
    inner_scores = {shown(name): values for name, values in scores.items()}
    selection = _unselected(plan.candidates, inner_scores, fit_time, score_time)
    # its scorer raising too, as the search's own _score raises with error_score="raise"
    raised = errors + [
        e for row in fold_results for r in row for e in r.get("score_errors", {}).values()
    ]
    if raised and isinstance(plan.search_error_score, str):  # "raise": the search failed
        selection["failed"] = (
            f"The search given has error_score='raise' and {len(raised)} of its "
            f"{n_candidates * n_inner} fits failed (or their scorer raised) in {_where(fold)}. "
            f"The first error was:\n{raised[0]}"
        )
    elif len(errors) == n_candidates * n_inner:
        selection["failed"] = (
            f"All the {len(errors)} fits of the {n_candidates} candidate(s) failed in "
            f"{_where(fold)}. The first error was:\n{errors[0]}"
        )
    elif not finite.any() and n_candidates > 1:
        selection["failed"] = _no_finite_mean(
            plan, fold, metric, selecting, scores[metric], fold_results, errors
        )
    if selection["failed"] is not None:
        if fold is None:
            raise ValueError(selection["failed"])
        return selection
    # a single candidate is taken whatever its validation score: there is nothing to choose
    best = int(np.flatnonzero(finite)[np.argmax(selecting[finite])]) if finite.any() else 0
    selection["tied"] = tied_with_best(selecting) or [best]
    if plan.selection_rule == "one_se" and finite.any():
        best, selection["standard_error"] = _one_standard_error(scores[metric], selecting, best)
    # a mean that holds error_score was not measured: reported NaN, as the search selects it
    selection.update(
        best_index=best,
        best_params=dict(plan.candidates[best]),
        validation_score=np.nan if placeholders[metric][best].any() else float(selecting[best]),
        validation_scores={
            shown(name): np.nan if placeholders[name][best].any() else float(m[best])
            for name, m in means.items()
        },
    )
    if placeholders[metric][best].any() and _is_finite_number(plan.selection_error_score):
        # (a NaN error_score makes its mean NaN, which cannot win over a finite one)
        beat = _warn_placeholder_won(plan, fold, best, scores[metric], placeholders[metric])
        # it won over other candidates, not by being the only one
        selection["placeholder"] = beat and n_candidates > 1
    return selection


def _is_finite_number(value):
    return isinstance(value, numbers.Real) and bool(np.isfinite(value))


def _warn_placeholder_won(plan, fold, best, scores, placeholders):
    """Warn that the candidate selected in ``fold`` has error_score among its inner scores
    (``scores`` and ``placeholders``: candidates x inner splits, of the selecting metric), so
    that its validation score, reported NaN, was not measured; whether the placeholder is above
    every measured score of the fold."""
    error_score = plan.selection_error_score
    n_placeholders, n_inner = int(placeholders[best].sum()), placeholders.shape[1]
    measured = scores[~placeholders & np.isfinite(scores)]
    beat = not measured.size or error_score > measured.max()
    if not measured.size:
        how = "; no inner score of that fold was measured"
    elif beat:
        how = (
            f"; that placeholder is above every measured inner score of that fold (the best "
            f"{measured.max():.6g}, higher is better), "
            + (
                "so it won the selection"
                if n_placeholders == n_inner
                else "and it raised the candidate's mean, by which it was selected"
            )
            + f", as GridSearchCV(error_score={error_score!r}) selects"
        )
    else:
        how = f", which enter{'s' * (n_placeholders == 1)} its mean validation score"
    reported = (
        "best_score_ is NaN"
        if fold is None
        else "its validation score is NaN (and so is the optimism)"
    )
    warnings.warn(
        f"In {_where(fold)} of {plan.owner}, the selected candidate "
        f"{dict(plan.candidates[best])!r} has {n_placeholders} of its {n_inner} inner "
        f"validation scores given error_score={error_score!r} by a fit that failed or a "
        f"scorer that raised, not measured{how}. Its mean is not a measured score: "
        f"{reported}. Pass error_score=np.nan, so that a candidate whose fits fail cannot be "
        f"selected, or see why its fits failed ({failures_listed(plan.owner)}, or "
        "error_score='raise').",
        FitFailedWarning,
        stacklevel=external_stacklevel(),
    )
    return beat


def _metric_name(plan, metric):
    """The selecting metric as printed ("Cohen's kappa"), or its key when that fails."""
    try:
        name = plan.selection_metric_name()
    except Exception:  # a name is only for the message: never fail on it
        name = None
    return shown(metric) if name is None else str(name)


def _no_finite_mean(plan, fold, metric, selecting, fit_scores, fold_results, errors):
    """Why no candidate of ``fold`` can be selected when every mean validation score is NaN
    (or infinite): how many fits failed, how many the scorer raised on, and how many it scored
    NaN itself (``fit_scores``: candidates x inner splits, for ``metric``)."""
    n_fits = sum(len(row) for row in fold_results)
    n_failed = len(errors)
    raised = np.array(
        [[bool(not r["error"] and r.get("score_errors")) for r in row] for row in fold_results]
    )
    returned = np.array([[not r["error"] for r in row] for row in fold_results]) & ~raised
    n_raised = int(raised.sum())
    n_returned = int((returned & ~np.isfinite(fit_scores)).sum())
    n_finite = int((returned & np.isfinite(fit_scores)).sum())
    value = "NaN" if np.isnan(selecting).all() else "NaN or infinite"
    name = _metric_name(plan, metric)
    n_candidates = len(fold_results)
    causes = []
    if n_failed:
        causes.append(f"{n_failed} of the {n_fits} inner fits failed (given error_score)")
    if n_raised:
        causes.append(f"the scorer raised on {n_raised} (given error_score)")
    if n_returned == n_fits:
        causes.append(
            f"all the {n_fits} inner fits succeeded, but the scorer ({name}) returned {value} "
            "on every one"
        )
    elif n_returned:
        other = "the other" if n_finite == 0 else f"{n_returned} of the other"
        causes.append(f"the scorer ({name}) returned {value} on {other} {n_finite + n_returned}")
    if n_finite and not n_returned:
        causes.append(
            f"the other {n_finite} scored finite values, so every {value} mean comes from "
            f"the error_score={plan.selection_error_score!r} given to the failed ones, which "
            "enters their candidate's mean"
        )
    why = ""
    if n_returned:
        why = (
            f" A score is NaN where {name} is undefined on the validation rows: typically an "
            "inner validation split that holds a single class (kappa, ROC AUC, MCC, precision "
            "with zero_division=np.nan), a single target value (R^2, explained variance, D^2) "
            "or very few rows."
        )
        diagnosis = _inner_diagnosis(plan, fold) or (
            " Check the scorer on the inner validation splits: make them larger or "
            "stratified (StratifiedKFold), or use a scorer that is defined on them."
        )
    elif n_failed:  # the scores themselves are fine: the failed fits are the cause
        diagnosis = (
            f" See why the fits failed (FitFailedWarning, {failures_listed(plan.owner)}, or "
            "error_score='raise' to raise the first error)."
        )
    else:  # no fit failed: the scorer raised on them
        diagnosis = (
            " No fit failed: the scorer raised on the fitted models (its first error is below; "
            "error_score='raise' raises it)."
        )
    scorer_error = None
    if n_raised:  # the first fit's the scorer raised on: the selecting metric's, if it raised
        first = next(
            r for row in fold_results for r in row if not r["error"] and r.get("score_errors")
        )
        scorer_error = first["score_errors"].get(metric, next(iter(first["score_errors"].values())))
    return (
        f"Every candidate's mean validation {shown(metric)} is {value} in {_where(fold)}, so "
        f"no hyper-parameters can be selected among the {n_candidates} candidates: "
        f"{'; '.join(causes)}.{why} GridSearchCV would rank every candidate first and take "
        "the first with a warning, and cross_validate(GridSearchCV(...)) report that arbitrary "
        "candidate's test score; here the outer fold gets no refit and the test score "
        f"error_score, and a run whose every outer fold fails raises.{diagnosis}"
        + (f" The scorer's first error was:\n{scorer_error}" if scorer_error else "")
        + (
            f" The first error{' of a failed fit' * bool(scorer_error)} was:\n{errors[0]}"
            if errors
            else ""
        )
    )


def _inner_diagnosis(plan, fold):
    """What the inner validation sets of ``fold`` hold, when that explains NaN scores (a single
    class or very few rows), with the groups and what to pass instead."""
    from collections import Counter

    y = None if plan.data.y is None else labels_1d(np.asarray(plan.data.y))
    groups = plan.groups
    parts = []
    constant_targets = False
    for s, (_, test) in enumerate(plan.inner_splits_of(fold)):
        counts = (
            {} if y is None or y.ndim != 1 or not plan.classifier else Counter(y[test].tolist())
        )
        few_classes = plan.classifier and len(counts) < 2
        constant = not plan.classifier and len(test) >= 2 and _constant_target(y, test)
        if few_classes or constant or len(test) < 2:
            text = f"inner split {s} validates on {len(test)} row(s)"
            if counts:
                text += f" with class counts {dict(counts)}"
            if constant:
                constant_targets = True
                text += f" whose target is constant ({y[test][0].tolist()!r})"
            if groups is not None:
                held = sorted(set(np.asarray(groups)[test].tolist()), key=str)
                text += f" from {len(held)} group(s) {held[:10]}"
            parts.append(text)
    if not parts:
        return ""
    if constant_targets and groups is not None:
        advice = (
            " With groups, a hold-out of whole groups leaves a single target value to validate "
            "on where the target is constant within groups: pass inner_cv=GroupKFold(k) so that "
            "every validation set holds several groups."
        )
    elif groups is not None:
        advice = (
            " With groups, a hold-out of whole groups can leave one class (or a handful of rows) "
            "to validate on: pass inner_cv=GroupKFold(k) or StratifiedGroupKFold(k) so that "
            "every validation set holds several groups and both classes."
        )
    elif not plan.classifier:
        larger = (
            "a time-ordered inner_cv, as the outer splits are (e.g. TimeSeriesSplit(k), or "
            "inner_cv=None for a hold-out of the most recent rows)"
            if time_ordered_splits(plan.outer_splits)
            else "e.g. inner_cv=KFold(k, shuffle=True)"
        )
        advice = (
            " Pass a scorer that is defined on "
            f"{'a constant target' if constant_targets else 'one row'} (an error metric, e.g. "
            f"'neg_mean_absolute_error'), or an inner_cv with larger validation sets: {larger}."
        )
    else:
        advice = (
            " Pass a larger inner_cv (e.g. StratifiedKFold(k)) or a scorer that is defined "
            "on one class."
        )
    if len(parts) > _NAMED_SPLITS:
        parts = [*parts[:_NAMED_SPLITS], f"and {len(parts) - _NAMED_SPLITS} more inner splits"]
    return f" In {_where(fold)}, " + "; ".join(parts) + "." + advice


def _constant_target(y, rows):
    """Whether the 1-D ``y`` is constant on ``rows``, as R^2's scorers judge it."""
    if y is None or y.ndim != 1:
        return False
    try:
        values = np.asarray(y[rows], dtype=float)
    except (TypeError, ValueError):
        return False
    return bool(constant_columns(values.reshape(-1, 1))[0])


def _unselected(candidates, inner_scores, fit_time, score_time, failed=None):
    """A selection without a winner (yet, with ``failed=None``): the fits' scores and times."""
    return {
        "best_index": None,
        "best_params": None,
        "validation_score": float("nan"),
        "validation_scores": {name: float("nan") for name in inner_scores},
        "candidates": candidates,
        "inner_scores": inner_scores,
        "fit_time": fit_time,
        "score_time": score_time,
        "failed": failed,
    }


def _from_search(plan, fold, result):
    metric = shown(plan.scoring.selection_metric)
    if result["error"]:
        message = f"The inner search failed in {_where(fold)}. The error was:\n{result['error']}"
        if fold is None:
            raise ValueError(message)
        empty = np.zeros((0, 1))
        selection = _unselected([], {metric: empty}, empty, empty, message)
        return {**selection, "search_fit_time": result["fit_time"]}
    means = np.asarray(result["mean_scores"], dtype=float)
    # the search's own splits' scores (none of a callable refit on no metric it reports: the
    # means) and mean times
    scores = np.asarray(result.get("split_scores") or means[:, None], dtype=float)
    fit_time, score_time = (
        np.asarray(result[f"mean_{what}_times"], dtype=float)[:, None] for what in ("fit", "score")
    )
    # (a callable refit on no metric of the search's records no scores: nothing to judge by)
    if result.get("split_scores") is not None and len(means) > 1 and not np.isfinite(means).any():
        # scikit-learn's search ranks NaN last and refits one anyway: no candidate was selected
        message = (
            f"No hyper-parameters could be selected in {_where(fold)}: every one of the "
            f"{len(means)} candidates of the search given has a NaN (or infinite) mean "
            f"validation score ({metric}); the search refitted one of them anyway, which would "
            "be reported as tuned. Look at the search's own warnings for why its scorer gave "
            "no number (fits that failed, a metric undefined on its validation splits)."
        )
        if fold is None:
            raise ValueError(message)
        selection = _unselected(
            result["candidates"], {metric: scores}, fit_time, score_time, message
        )
        return {**selection, "search_fit_time": result["fit_time"]}
    return {
        "failed": None,
        "tied": [],  # the search's candidates are not the plan's: no tie is reported
        # the search's own choice: successive halving picks among its last iteration,
        # not the best mean over all iterations
        "best_index": result["best_index"],
        "best_params": dict(result["best_params"]),
        "validation_score": result["best_score"],
        "validation_scores": {metric: result["best_score"]},
        "candidates": result["candidates"],
        "inner_scores": {metric: scores},
        "fit_time": fit_time,
        "score_time": score_time,
    }


def tuning_counts(plan, results):
    """What the outer folds' selections cost (the selection on all the data before a final fit
    left out): ``n_candidates``, the most distinct candidates one fold's selection tried (a
    sampler draws with replacement); ``n_inner_fits``, the fits of the candidates on inner splits
    (those a search run whole made included); ``n_searches``, the searches run whole;
    and, where there are any, ``n_hidden_searches``: the steps of the estimator that select by
    splits of their own (RidgeCV, a search in a pipeline: :func:`selecting_cv_params`), whose
    candidates and fits none of these counts."""
    in_folds = {key: r for key, r in results.items() if key.outer_fold is not None}
    searches = [r for key, r in in_folds.items() if key.phase == SEARCH]
    n_fits = sum(1 for key in in_folds if key.phase == SELECTION)
    n_candidates = distinct_count(plan.candidates)
    if searches:  # a search that failed recorded neither (unknown: 0)
        n_candidates = max(r.get("n_candidates", 0) for r in searches)
        n_fits += sum(r.get("n_fits", 0) for r in searches)
    hidden = selecting_cv_params(plan.estimator)
    if is_search(plan.estimator):  # the search the protocol runs: counted
        hidden.pop("cv", None)
    counts = {"n_candidates": n_candidates, "n_inner_fits": n_fits, "n_searches": len(searches)}
    return {**counts, "n_hidden_searches": len(hidden)} if hidden else counts


def rank_within_folds(folds, means):
    """Rank of each row's mean within its fold (1 is best; ties share the lowest rank)."""
    ranks = np.zeros(len(means), dtype=np.int32)
    for fold in np.unique(folds):
        mask = folds == fold
        values = np.asarray(means[mask], dtype=float)
        finite = np.isfinite(values)
        worst = values[finite].min() - 1 if finite.any() else 0.0  # none finite: all rank 1
        ranks[mask] = rankdata(-np.where(finite, values, worst), method="min").astype(np.int32)
    return ranks


def _numeric_axes(param_grid):
    """Per grid of ``param_grid`` (a dict, or a list of them), in order: its number of points,
    and per parameter name the smallest and largest of its numeric values where it takes at
    least 3."""
    grids = param_grid if isinstance(param_grid, (list, tuple)) else [param_grid]
    axes = []
    for grid in grids:
        ranges = {}
        for name, values in grid.items():
            try:
                values = list(values)
            except TypeError:
                continue
            numeric = all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in values)
            if numeric and len(set(values)) >= 3:
                ranges[name] = (min(values), max(values))
        axes.append((len(ParameterGrid(grid)), ranges))
    return axes


def warn_about_selection(plan, outer_results):
    """The warnings about what the outer folds selected: ties and edges of the grid."""
    folds = [f for f in outer_results if f["best_params"] is not None]
    if not folds:
        return
    if plan.candidates:
        _warn_ties(plan, folds)
    if plan.param_grid is None:
        return
    # a fold whose winner tied with other values of a parameter says nothing about its edge
    axes = _numeric_axes(plan.param_grid)
    if sum(size for size, _ in axes) != len(plan.candidates):
        return
    # of a list of grids, a winner's edges are those of its own grid: the candidates are the
    # points of the first grid, then of the second, ...
    grid_of = np.repeat(np.arange(len(axes)), [size for size, _ in axes])
    for number, (_, ranges) in enumerate(axes):
        tied = [
            [plan.candidates[c] for c in f["tied_candidates"]]
            for f in folds
            if all(grid_of[c] == number for c in f["tied_candidates"])
        ]
        for name, (low, high) in ranges.items():
            for edge in (low, high):
                count = sum(
                    1
                    for best in tied
                    if best
                    and all(p.get(name) == edge for p in best)
                    and not all(_no_grid_extends_past(plan, p, name, edge, high) for p in best)
                )
                if count <= len(folds) / 2:
                    continue
                chose = "selected" if plan.selection_rule == "best" else "found the best"
                warnings.warn(
                    f"{plan.owner} {chose} {name}={plain(edge)!r}, on the edge of its grid "
                    f"[{plain(low)!r}, {plain(high)!r}], in {count} of {len(folds)} outer folds: "
                    "the search space is probably too small. Extend the grid beyond that edge.",
                    SearchSpaceEdgeWarning,
                    stacklevel=external_stacklevel(),
                )


def _no_grid_extends_past(plan, params, name, edge, high):
    """Whether the candidate ``params`` sets ``name`` at an ``edge`` of its grid that no grid
    extends past (:func:`_at_a_closed_bound`, or at ``high``, :func:`_every_feature`), read
    from the estimator as ``params`` build it: the step a grid puts in place
    (``{"reduce": [PCA()]}``) owns its parameters, not the template's placeholder."""
    try:
        model = configure(plan.estimator, params)
    except Exception:  # a candidate this estimator does not take: nothing is known
        return False
    return _at_a_closed_bound(model, name, edge) or (
        edge == high and _every_feature(model, name, edge, plan.data.X)
    )


def _owner_of(estimator, name):
    """``(owner, param)``: the object of ``estimator`` whose parameter the grid's ``name``
    (``step__param`` for a nested one) sets; owner None where it is not known (a step the grid
    puts in place, or no get_params)."""
    param = name.rpartition("__")[2]
    try:
        return param_owner(estimator, estimator.get_params(deep=True), name), param
    except Exception:
        return None, param


def _bounded_by_the_features():
    """Per parameter that counts the columns of ``X``, the scikit-learn classes (their
    subclasses too) whose value above the number of features is refused (PCA,
    IncrementalPCA, TruncatedSVD, the PLS models and CCA, LinearDiscriminantAnalysis,
    NeighborhoodComponentsAnalysis, LocallyLinearEmbedding, SequentialFeatureSelector,
    bagging and IsolationForest) or means every feature (FastICA and FactorAnalysis keep
    as many components as features, SelectKBest and RFE keep every feature, SelectFromModel
    and the trees, forests and gradient boosting draw from every feature), as scikit-learn
    1.9 fits them with ``n_features + 1``: no grid extends past every feature.

    Not listed, as they fit more components than features: KernelPCA, Nystroem,
    RBFSampler, SkewedChi2Sampler, PolynomialCountSketch, BernoulliRBM, NMF, SparsePCA,
    DictionaryLearning, LatentDirichletAllocation, the random projections, Isomap,
    SpectralEmbedding and the mixtures (their ``n_components`` count kernel features,
    hidden units, atoms or clusters).
    """
    from sklearn.cross_decomposition import CCA, PLSSVD, PLSCanonical, PLSRegression
    from sklearn.decomposition import PCA, FactorAnalysis, FastICA, IncrementalPCA, TruncatedSVD
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.ensemble import (
        BaggingClassifier,
        BaggingRegressor,
        ExtraTreesClassifier,
        ExtraTreesRegressor,
        GradientBoostingClassifier,
        GradientBoostingRegressor,
        IsolationForest,
        RandomForestClassifier,
        RandomForestRegressor,
    )
    from sklearn.feature_selection import (
        RFE,
        SelectFromModel,
        SelectKBest,
        SequentialFeatureSelector,
    )
    from sklearn.manifold import LocallyLinearEmbedding
    from sklearn.neighbors import NeighborhoodComponentsAnalysis
    from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

    return {
        "n_components": (
            PCA,
            IncrementalPCA,
            TruncatedSVD,
            FastICA,
            FactorAnalysis,
            PLSRegression,
            PLSCanonical,
            CCA,
            PLSSVD,
            LinearDiscriminantAnalysis,
            NeighborhoodComponentsAnalysis,
            LocallyLinearEmbedding,
        ),
        "k": (SelectKBest,),
        "n_features_to_select": (RFE, SequentialFeatureSelector),
        "max_features": (
            SelectFromModel,
            DecisionTreeClassifier,  # and ExtraTreeClassifier
            DecisionTreeRegressor,  # and ExtraTreeRegressor
            RandomForestClassifier,
            RandomForestRegressor,
            ExtraTreesClassifier,
            ExtraTreesRegressor,
            GradientBoostingClassifier,
            GradientBoostingRegressor,
            BaggingClassifier,
            BaggingRegressor,
            IsolationForest,
        ),
    }


def _every_feature(estimator, name, value, X):
    """Whether the grid's ``name`` sets a parameter bounded by the number of features
    (:func:`_bounded_by_the_features`: PCA's ``n_components``, SelectKBest's ``k``) of an
    object that ``X`` reaches at most as wide as it is (the estimator, or a step of a Pipeline
    after steps that never widen it, :func:`_never_widens`: StandardScaler before PCA), and
    ``value``, an integer, is the number of columns of the 2-D ``X``: no grid extends past
    every feature. KernelPCA's ``n_components`` is not bounded so: 32 on 8 features is a
    larger grid. A step after another that may widen (PolynomialFeatures before SelectKBest,
    a ColumnTransformer, a user's FunctionTransformer) is not known, so not exempt."""
    shape = getattr(X, "shape", None)
    if not (
        isinstance(value, numbers.Integral)
        and not isinstance(value, bool)
        and shape is not None
        and len(shape) == 2
        and value == shape[1]
    ):
        return False
    step = name.rpartition("__")[0]
    if step:
        names = [n for n, _ in getattr(estimator, "steps", None) or ()]
        if "__" in step or step not in names:
            return False
        if not all(_never_widens(t) for _, t in estimator.steps[: names.index(step)]):
            return False
    owner, param = _owner_of(estimator, name)
    return isinstance(owner, _bounded_by_the_features().get(param, ()))


def _never_widens(transformer):
    """Whether the Pipeline step ``transformer`` gives the next step at most as many columns
    as it gets: a scaler, a normaliser, an imputer without missing-value indicators, a
    feature selector, or nothing ("passthrough", None). With such steps before it, a step's
    count of features at the width of ``X`` is every feature it can get (a narrower input
    refuses or caps the count, so it is not selected)."""
    from sklearn.feature_selection import SelectorMixin
    from sklearn.impute import KNNImputer, SimpleImputer
    from sklearn.preprocessing import (
        Binarizer,
        MaxAbsScaler,
        MinMaxScaler,
        Normalizer,
        PowerTransformer,
        QuantileTransformer,
        RobustScaler,
        StandardScaler,
    )

    if transformer is None or (isinstance(transformer, str) and transformer == "passthrough"):
        return True
    if isinstance(transformer, (SimpleImputer, KNNImputer)):
        return not transformer.add_indicator
    scalers = (StandardScaler, MinMaxScaler, MaxAbsScaler, RobustScaler, Normalizer)
    shapes = (PowerTransformer, QuantileTransformer, Binarizer)
    return isinstance(transformer, scalers + shapes + (SelectorMixin,))


def _at_a_closed_bound(estimator, name, value):
    """Whether ``value`` is a closed end of the range that the parameter ``name`` of
    ``estimator`` (``step__param`` for a nested one) takes, by scikit-learn's parameter
    constraints: no grid extends past ``n_neighbors=1`` or ``l1_ratio=1.0``."""
    from sklearn.utils._param_validation import Interval

    owner, param = _owner_of(estimator, name)
    if owner is None:
        return False
    for constraint in getattr(type(owner), "_parameter_constraints", {}).get(param, ()):
        if not isinstance(constraint, Interval):
            continue
        if (
            constraint.left is not None
            and value == constraint.left
            and constraint.closed in ("left", "both")
        ):
            return True
        if (
            constraint.right is not None
            and value == constraint.right
            and constraint.closed in ("right", "both")
        ):
            return True
    return False


def _warn_ties(plan, folds):
    """Warn when, in at least half of the outer folds, most distinct candidates (of 3 or more)
    tie for the best mean validation score (copies of one candidate, which a sampler draws
    with replacement, tie whatever the data)."""
    n_candidates = distinct_count(plan.candidates)
    tied = [(f, distinct_count([plan.candidates[c] for c in f["tied_candidates"]])) for f in folds]
    tied = [(f, n) for f, n in tied if n * 2 > n_candidates]
    if n_candidates < 3 or len(tied) * 2 < len(folds):
        return
    worst, n_worst = max(tied, key=lambda pair: pair[1])
    fold = worst["outer_fold"]
    distinct = " distinct" if n_candidates < len(plan.candidates) else ""
    sizes = sorted({len(test) for _, test in plan.inner_splits_of(fold)})
    rule = (
        "the first of them in the order of the search space was taken (select='best', as "
        "GridSearchCV)"
        if plan.selection_rule == "best"
        else "select='one_se' took the first candidate within one standard error"
    )
    time_ordered = time_ordered_splits(plan.outer_splits)
    several = "a TimeSeriesSplit" if time_ordered else "a k-fold"
    advice = "" if plan.selection_rule == "one_se" else (
        f", or select='one_se' with {several} inner_cv (the first candidate, in the order of "
        "the search space, within one standard error of the best: list values from the "
        "simplest model to the most complex)"
    )  # fmt: skip
    metric = plan.selection_metric_name()
    n_inner = len(plan.inner_splits_of(fold))
    threshold = _threshold_free_ties(plan, [plan.candidates[c] for c in worst["tied_candidates"]])
    if threshold is not None:
        name, response = threshold
        warnings.warn(
            f"In {len(tied)} of the {len(folds)} outer folds of {plan.owner}, up to "
            f"{n_worst} of the {n_candidates}{distinct} candidates tie for the best "
            f"mean validation {metric} (outer fold {fold}), and {rule}. They differ in {name!r}, "
            f"the threshold of a FixedThresholdClassifier, and {metric} reads the predicted "
            f"probabilities or decision values (response_method={response!r}), which the "
            "threshold does not change: no validation data can tell these thresholds apart. "
            "Select with a metric of the predicted labels (e.g. scoring='balanced_accuracy' or "
            "'f1'), or tune the threshold with TunedThresholdClassifierCV.",
            SelectionTieWarning,
            stacklevel=external_stacklevel(),
        )
        return
    # the next step from the inner splits in use (seeded: an unseeded one warns of itself)
    if time_ordered:  # shuffled or k-fold inner splits would see the future
        larger = (
            "a larger inner validation split that keeps time order (e.g. inner_cv="
            "HoldoutSplit(test_size=0.3, shuffle=False)), or inner_cv=TimeSeriesSplit(n_splits=3)"
        )
    elif n_inner == 1:
        larger = (
            "a larger inner validation split (e.g. inner_cv=HoldoutSplit(test_size=0.3, "
            "random_state=0)), a k-fold inner_cv (e.g. inner_cv=5)"
        )
    else:
        larger = (
            "more inner validation rows: a repeated k-fold inner_cv (e.g. inner_cv="
            "RepeatedKFold(n_splits=5, n_repeats=3, random_state=0), RepeatedStratifiedKFold "
            "for a classifier)"
        )
    warnings.warn(
        f"In {len(tied)} of the {len(folds)} outer folds of {plan.owner}, the validation data "
        f"could not separate most candidates: up to {n_worst} of the "
        f"{n_candidates}{distinct} tie for the best mean validation {metric} (outer fold {fold}: "
        f"{n_inner} inner split(s) of {'/'.join(map(str, sizes))} validation rows), and "
        f"{rule}. Which one wins then says nothing about the candidates. Use {larger}{advice}; "
        "candidates that are the same model (a grid value the data never reaches, such as a "
        "max_depth above the depth the trees grow) tie whatever the split.",
        SelectionTieWarning,
        stacklevel=external_stacklevel(),
    )


def _threshold_free_ties(plan, tied):
    """``(parameter, response_method)`` where the ``tied`` candidates (parameter dicts) differ
    in the ``threshold`` of a FixedThresholdClassifier and the selecting scorer reads
    probabilities or decision values, which no threshold changes; else None."""
    scorer = plan.scorers.get(plan.scoring.selection_metric)
    response = getattr(scorer, "_response_method", None)  # scikit-learn's scorers have one
    if response is None or "predict" in np.atleast_1d(response):
        return None
    names = dict.fromkeys(name for params in tied for name in params)
    for name in names:
        if not name.endswith("threshold") or len({repr(params.get(name)) for params in tied}) < 2:
            continue
        try:
            model = configure(plan.estimator, tied[0])
        except Exception:  # a parameter this estimator does not have: nothing to say
            continue
        owner, param = _owner_of(model, name)
        if param == "threshold" and isinstance(owner, FixedThresholdClassifier):
            return name, response
    return None
