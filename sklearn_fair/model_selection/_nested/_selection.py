"""How a winner is picked in each outer fold, and how candidates are ranked.

The winner of a fold is the candidate with the best mean inner validation score of the selecting
metric. Ties go to the first candidate in the order of the search space, as in scikit-learn's
``GridSearchCV`` (``best_index_`` is the first of the best ``rank_test_score``); the reference
code of Errica et al. keeps the last best configuration instead, which matters only for exact
ties. A failed fit scores ``error_score``; a candidate whose mean is not finite cannot win.
"""

import numbers
import warnings

import numpy as np
from scipy.stats import rankdata

from ...exceptions import SearchSpaceEdgeWarning
from ...utils._stacklevel import external_stacklevel
from ._scoring import shown
from ._tasks import SEARCH, TaskKey

__all__ = ["rank_within_folds", "select_fold", "warn_edge_of_grid"]


def _where(fold):
    return "the selection on all the data (final model)" if fold is None else f"outer fold {fold}"


def select_fold(plan, fold, results):
    """The selection of ``fold`` from its finished selection tasks (``results``: key -> result).

    An outer fold in which no candidate can be selected (every fit failed, or no mean validation
    score is finite) is not an error, as in ``cross_validate(GridSearchCV(...))``: its selection
    says why under ``"failed"``, it gets no refit, and its test score is ``error_score``. Only the
    selection on all the data (the final model) raises.
    """
    if plan.search is not None:
        return _from_search(plan, fold, results[TaskKey(SEARCH, fold)])
    inner = plan.inner_splits_of(fold)
    n_candidates, n_inner = len(plan.candidates), len(inner)
    fold_results = [
        [results[plan.selection_key(fold, c, s)] for s in range(n_inner)]
        for c in range(n_candidates)
    ]
    keys = plan.metric_keys((r for row in fold_results for r in row), plan.selection_keys)
    scores = {name: np.empty((n_candidates, n_inner)) for name in keys}
    fit_time = np.zeros((n_candidates, n_inner))
    score_time = np.zeros((n_candidates, n_inner))
    errors = []
    for c, row in enumerate(fold_results):
        for s, result in enumerate(row):
            if result["error"]:
                errors.append(result["error"])
            for name in keys:
                value = result["scores"].get(name, np.nan)
                scores[name][c, s] = plan.error_score if result["error"] else value
            fit_time[c, s], score_time[c, s] = result["fit_time"], result["score_time"]
    means = {name: values.mean(axis=1) for name, values in scores.items()}
    metric = plan.selecting_metric(keys)
    selecting = means[metric]
    finite = np.isfinite(selecting)
    selection = {
        "best_index": None,
        "best_params": None,
        "validation_score": float("nan"),
        "validation_scores": {shown(name): float("nan") for name in keys},
        "candidates": plan.candidates,
        "inner_scores": {shown(name): values for name, values in scores.items()},
        "fit_time": fit_time,
        "score_time": score_time,
        "failed": None,
    }
    if len(errors) == n_candidates * n_inner:
        selection["failed"] = (
            f"All the {len(errors)} fits of the {n_candidates} candidate(s) failed in "
            f"{_where(fold)}. The first error was:\n{errors[0]}"
        )
    elif not finite.any() and n_candidates > 1:
        selection["failed"] = (
            f"Every candidate's mean validation {metric} is NaN or infinite in {_where(fold)}, so "
            f"no hyper-parameters can be selected ({len(errors)} of the {n_candidates * n_inner} "
            f"fits failed).{_inner_diagnosis(plan, fold)}"
            + (f" The first error was:\n{errors[0]}" if errors else "")
        )
    if selection["failed"] is not None:
        if fold is None:
            raise ValueError(selection["failed"])
        return selection
    # a single candidate is taken whatever its validation score: there is nothing to choose
    best = int(np.flatnonzero(finite)[np.argmax(selecting[finite])]) if finite.any() else 0
    selection.update(
        best_index=best,
        best_params=dict(plan.candidates[best]),
        validation_score=float(selecting[best]),
        validation_scores={shown(name): float(m[best]) for name, m in means.items()},
    )
    return selection


def _inner_diagnosis(plan, fold):
    """What the inner validation sets of ``fold`` hold, when that explains NaN scores: a single
    class or very few rows (issue 23.6), with the groups and what to pass instead."""
    from collections import Counter

    y = None if plan.data.y is None else np.asarray(plan.data.y)
    groups = plan.groups
    parts = []
    for s, (_, test) in enumerate(plan.inner_splits_of(fold)):
        counts = {} if y is None or y.ndim != 1 else dict(Counter(y[test].tolist()))
        few_classes = plan.classifier and len(counts) < 2
        if few_classes or len(test) < 2:
            text = f"inner split {s} validates on {len(test)} row(s)"
            if counts:
                text += f" with class counts {counts}"
            if groups is not None:
                held = sorted(set(np.asarray(groups)[test].tolist()), key=str)
                text += f" from {len(held)} group(s) {held[:10]}"
            parts.append(text)
    if not parts:
        return ""
    advice = (
        " With groups, a hold-out of whole groups can leave one class (or a handful of rows) "
        "to validate on: pass inner_cv=GroupKFold(k) or StratifiedGroupKFold(k) so that every "
        "validation set holds several groups and both classes."
        if groups is not None
        else " Pass a larger inner_cv (e.g. StratifiedKFold(k)) or a scorer that is defined on "
        "one class."
    )
    return f" In {_where(fold)}, " + "; ".join(parts) + "." + advice


def _from_search(plan, fold, result):
    if result["error"]:
        message = f"The inner search failed in {_where(fold)}. The error was:\n{result['error']}"
        if fold is None:
            raise ValueError(message)
        return {
            "best_index": None,
            "best_params": None,
            "validation_score": float("nan"),
            "validation_scores": {shown(plan.selection_metric): float("nan")},
            "candidates": [],
            "inner_scores": {shown(plan.selection_metric): np.empty((0, 1))},
            "fit_time": np.full((0, 1), 0.0),
            "score_time": np.zeros((0, 1)),
            "failed": message,
            "search_fit_time": result["fit_time"],
        }
    means = np.asarray(result["mean_scores"], dtype=float)
    n = max(len(means), 1)
    return {
        "failed": None,
        # the search's own choice: successive halving picks among its last iteration,
        # not the best mean over all iterations
        "best_index": result["best_index"],
        "best_params": dict(result["best_params"]),
        "validation_score": result["best_score"],
        "validation_scores": {shown(plan.selection_metric): result["best_score"]},
        "candidates": result["candidates"],
        "inner_scores": {shown(plan.selection_metric): means[:, None]},
        "fit_time": np.full((len(means), 1), result["fit_time"] / n),
        "score_time": np.zeros((len(means), 1)),
    }


def rank_within_folds(folds, means):
    """Rank of each row's mean within its fold (1 is best; ties share the lowest rank)."""
    ranks = np.zeros(len(means), dtype=np.int32)
    for fold in np.unique(folds):
        mask = folds == fold
        values = np.asarray(means[mask], dtype=float)
        if not np.isfinite(values).any():
            ranks[mask] = 1
            continue
        worst = np.nanmin(values[np.isfinite(values)]) - 1
        values = np.where(np.isfinite(values), values, worst)
        ranks[mask] = rankdata(-values, method="min").astype(np.int32)
    return ranks


def _numeric_axes(param_grid):
    """Per parameter name, the sorted numeric values of a grid with at least 3 of them."""
    grids = param_grid if isinstance(param_grid, (list, tuple)) else [param_grid]
    axes = {}
    for grid in grids:
        if not isinstance(grid, dict):
            continue
        for name, values in grid.items():
            try:
                values = list(values)
            except TypeError:
                continue
            numbers_only = [
                v for v in values if isinstance(v, numbers.Real) and not isinstance(v, bool)
            ]
            if len(numbers_only) == len(values) and len(set(numbers_only)) >= 3:
                axes[name] = (min(numbers_only), max(numbers_only))
    return axes


def warn_edge_of_grid(param_grid, best_params_per_fold, owner):
    """Warn when a numeric parameter's winner sits on the edge of its grid in most folds.

    A value at the smallest or largest end of its range, chosen in more than half of the outer
    folds, suggests that the best value lies outside the range searched.
    """
    if param_grid is None or not best_params_per_fold:
        return
    for name, (low, high) in _numeric_axes(param_grid).items():
        chosen = [p[name] for p in best_params_per_fold if name in p]
        for edge in (low, high):
            count = sum(1 for v in chosen if v == edge)
            if count <= len(best_params_per_fold) / 2:
                continue
            warnings.warn(
                f"{owner} selected {name}={edge!r}, on the edge of its grid "
                f"[{low!r}, {high!r}], in {count} of {len(best_params_per_fold)} outer "
                "folds: the search space is probably too small. Extend the grid beyond that "
                "edge.",
                SearchSpaceEdgeWarning,
                stacklevel=external_stacklevel(),
            )
