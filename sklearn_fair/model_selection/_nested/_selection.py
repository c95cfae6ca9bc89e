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
from ._tasks import SEARCH, TaskKey

__all__ = ["rank_within_folds", "select_fold", "warn_edge_of_grid"]


def _where(fold):
    return "the selection on all the data (final model)" if fold is None else f"outer fold {fold}"


def select_fold(plan, fold, results):
    """The selection of ``fold`` from its finished selection tasks (``results``: key -> result)."""
    if plan.search is not None:
        return _from_search(plan, fold, results[TaskKey(SEARCH, fold)])
    inner = plan.inner_splits_of(fold)
    n_candidates, n_inner = len(plan.candidates), len(inner)
    scores = {name: np.empty((n_candidates, n_inner)) for name in plan.scorers}
    fit_time = np.zeros((n_candidates, n_inner))
    score_time = np.zeros((n_candidates, n_inner))
    errors = []
    for c in range(n_candidates):
        for s in range(n_inner):
            result = results[plan.selection_key(fold, c, s)]
            if result["error"]:
                errors.append(result["error"])
            for name in plan.scorers:
                scores[name][c, s] = plan.error_score if result["error"] else result["scores"][name]
            fit_time[c, s], score_time[c, s] = result["fit_time"], result["score_time"]
    if len(errors) == n_candidates * n_inner:
        raise ValueError(
            f"All {n_candidates} candidates failed to fit in {_where(fold)}. "
            f"The first error was:\n{errors[0]}"
        )
    means = {name: values.mean(axis=1) for name, values in scores.items()}
    selecting = means[plan.refit_metric]
    finite = np.isfinite(selecting)
    if not finite.any():
        raise ValueError(
            f"Every candidate's mean validation {plan.refit_metric} is NaN or infinite in "
            f"{_where(fold)}; cannot select hyper-parameters. Check error_score and the scorer."
        )
    best = int(np.flatnonzero(finite)[np.argmax(selecting[finite])])
    return {
        "best_index": best,
        "best_params": dict(plan.candidates[best]),
        "validation_score": float(selecting[best]),
        "validation_scores": {name: float(m[best]) for name, m in means.items()},
        "candidates": plan.candidates,
        "inner_scores": scores,
        "fit_time": fit_time,
        "score_time": score_time,
    }


def _from_search(plan, fold, result):
    if result["error"]:
        raise ValueError(
            f"The inner search failed in {_where(fold)}. The error was:\n{result['error']}"
        )
    means = np.asarray(result["mean_scores"], dtype=float)
    n = max(len(means), 1)
    return {
        # the search's own choice: successive halving picks among its last iteration,
        # not the best mean over all iterations
        "best_index": result["best_index"],
        "best_params": dict(result["best_params"]),
        "validation_score": result["best_score"],
        "validation_scores": {plan.refit_metric: result["best_score"]},
        "candidates": result["candidates"],
        "inner_scores": {plan.refit_metric: means[:, None]},
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
                stacklevel=5,
            )
