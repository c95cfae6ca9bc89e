"""The engine shared by NestedCV and nested_cross_validate.

A nested run is planned up front (every split materialised, every input checked), then
executed as two flat sets of independent tasks under one joblib ``Parallel``:

1. model selection: outer fold x candidate x inner split, one fit and one validation score each
   (plus the same selection on all the data when a final model is wanted);
2. assessment: outer fold x refit seed, the fold's winner trained on the whole outer training
   fold and scored once on its test fold (plus the final fit).

Tasks from all outer folds share the workers, so no core waits for a slow fold.
"""

import warnings
from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import is_classifier
from sklearn.exceptions import FitFailedWarning
from sklearn.utils import indexable
from sklearn.utils.multiclass import type_of_target

from ._holdout import HoldoutSplit
from ._seeding import with_seed
from ._tasks import TaskKey, run_fit_task, run_search_task

__all__ = ["NestedPlan", "run_nested"]


@dataclass
class NestedPlan:
    """Everything a nested run needs, checked and materialised before the first fit."""

    estimator: object
    candidates: list
    scorers: dict
    refit_metric: str
    outer_splits: list
    inner_splits: list  # per fold (final selection last when ``final``): list of (train, test)
    refit_seeds: list
    seed_params: list
    error_score: object
    # random_state parameters left at None, seeded for the selection fits and the final fit
    selection_defaults: dict = field(default_factory=dict)
    n_jobs: object = None
    verbose: int = 0
    search: object = None  # a search that runs whole inside each fold, or None
    final: bool = False
    fit_params: dict = field(default_factory=dict)
    score_params: dict = field(default_factory=dict)
    return_estimator: bool = False
    cache: object = None  # a TaskCache, or None

    @property
    def n_outer(self):
        return len(self.outer_splits)

    @property
    def selection_folds(self):
        return self.n_outer + (1 if self.final else 0)

    def selection_train(self, fold):
        if fold == self.n_outer:
            return None  # the final selection uses all the data
        return self.outer_splits[fold][0]


def run_nested(plan, X, y, n_samples):
    """Run both phases of ``plan`` and return the assembled per-fold results."""
    X, y = indexable(X, y)  # the same conversion make_plan applied to split the data
    n_selection = _count_selection_tasks(plan)
    n_assessment = plan.n_outer * len(plan.refit_seeds) + (1 if plan.final else 0)
    progress = _progress_bar(plan.verbose, n_selection + n_assessment)
    try:
        with Parallel(n_jobs=plan.n_jobs, return_as="generator_unordered") as parallel:
            selection = _execute(
                parallel, plan, _selection_specs(plan, X, y, n_samples), X, y, n_samples, progress
            )
            folds = _select(plan, selection)
            assessment = _execute(
                parallel,
                plan,
                _assessment_specs(plan, folds, n_samples),
                X,
                y,
                n_samples,
                progress,
            )
    finally:
        progress.close()
    every_task = list(selection.values()) + list(assessment.values())
    _warn_failures(plan, every_task)
    results = _assemble(plan, folds, assessment)
    results["failed_tasks"] = [
        {"key": r["key"]._asdict(), "error": r["error"]} for r in every_task if r["error"]
    ]
    results["cache_info"] = None
    if plan.cache is not None:
        computed = sum(1 for r in every_task if not r.get("cached"))
        results["cache_info"] = {"hits": plan.cache.hits, "computed": computed}
    return results


def _count_selection_tasks(plan):
    if plan.search is not None:
        return plan.selection_folds
    return sum(len(plan.inner_splits[f]) for f in range(plan.selection_folds)) * len(
        plan.candidates
    )


def _progress_bar(verbose, total):
    from tqdm.auto import tqdm

    return tqdm(total=total, desc="NestedCV fits", unit="fit", disable=verbose < 1, leave=True)


def _execute(parallel, plan, specs, X, y, n_samples, progress):
    """Run the task ``specs``; results served from the cache skip the workers."""
    results = {}
    calls = []
    for spec in specs:
        if not isinstance(spec, FitSpec):  # a whole-search task, never cached
            calls.append(spec)
            continue
        cache_path = None
        if plan.cache is not None and not spec.return_estimator:
            kind = "selection" if spec.key.refit_seed is None else "assessment"
            cache_path = plan.cache.path_for(
                plan.estimator, spec.params, spec.train, spec.test, kind
            )
            cached = plan.cache.load(cache_path, spec.key)
            if cached is not None:
                results[spec.key] = cached
                progress.update()
                continue
        calls.append(
            delayed(run_fit_task)(
                spec.key,
                plan.estimator,
                spec.params,
                X,
                y,
                spec.train,
                spec.test,
                plan.scorers,
                plan.fit_params,
                plan.score_params,
                n_samples,
                error_score=spec.error_score,
                return_estimator=spec.return_estimator,
                cache_path=cache_path,
            )
        )
    for result in parallel(calls):
        results[result["key"]] = result
        progress.update()
    return results


class FitSpec(NamedTuple):
    """One fit-and-score task: its key, parameters and split."""

    key: TaskKey
    params: dict
    train: np.ndarray
    test: object  # index array, or None for the final fit (no scoring)
    error_score: object
    return_estimator: bool = False


def _selection_specs(plan, X, y, n_samples):
    for fold in range(plan.selection_folds):
        if plan.search is not None:
            train = plan.selection_train(fold)
            train = np.arange(n_samples) if train is None else train
            key = TaskKey(fold, -1, -1, None)
            yield delayed(run_search_task)(
                key, plan.search, X, y, train, plan.fit_params, n_samples
            )
            continue
        for candidate_index, candidate in enumerate(plan.candidates):
            params = {**plan.selection_defaults, **candidate}
            for split_index, (train, test) in enumerate(plan.inner_splits[fold]):
                key = TaskKey(fold, candidate_index, split_index, None)
                yield FitSpec(key, params, train, test, plan.error_score)


def _assessment_specs(plan, folds, n_samples):
    for fold, selected in enumerate(folds):
        if fold == plan.n_outer:  # the final model: all the data, no test set
            params = {**plan.selection_defaults, **selected["best_params"]}
            key = TaskKey(fold, -1, -1, None)
            yield FitSpec(key, params, np.arange(n_samples), None, "raise", True)
            continue
        train, test = plan.outer_splits[fold]
        for seed in plan.refit_seeds:
            params = with_seed(selected["best_params"], plan.seed_params, seed)
            key = TaskKey(fold, -1, -1, seed)
            yield FitSpec(key, params, train, test, plan.error_score, plan.return_estimator)


def _failed_scores(plan):
    return {name: float(plan.error_score) for name in plan.scorers}


def _select(plan, selection):
    """Pick each fold's winner: the best mean inner validation score of the refit metric."""
    folds = []
    for fold in range(plan.selection_folds):
        if plan.search is not None:
            folds.append(_select_from_search(plan, fold, selection[TaskKey(fold, -1, -1, None)]))
            continue
        n_inner = len(plan.inner_splits[fold])
        scores = {name: np.empty((len(plan.candidates), n_inner)) for name in plan.scorers}
        fit_time = np.zeros((len(plan.candidates), n_inner))
        score_time = np.zeros((len(plan.candidates), n_inner))
        errors = []
        for c in range(len(plan.candidates)):
            for s in range(n_inner):
                result = selection[TaskKey(fold, c, s, None)]
                task_scores = _failed_scores(plan) if result["error"] else result["scores"]
                if result["error"]:
                    errors.append(result["error"])
                for name in plan.scorers:
                    scores[name][c, s] = task_scores[name]
                fit_time[c, s], score_time[c, s] = result["fit_time"], result["score_time"]
        if len(errors) == len(plan.candidates) * n_inner:
            where = (
                "the final selection on all the data"
                if fold == plan.n_outer
                else (f"outer fold {fold}")
            )
            raise ValueError(
                f"All {len(plan.candidates)} candidates failed to fit in {where}. "
                f"The first error was:\n{errors[0]}"
            )
        means = {name: values.mean(axis=1) for name, values in scores.items()}
        refit_means = means[plan.refit_metric]
        if np.all(np.isnan(refit_means)):
            raise ValueError(
                f"Every candidate's mean validation {plan.refit_metric} is NaN in outer fold "
                f"{fold}; cannot select hyper-parameters. Check error_score and the scorer."
            )
        best = int(np.nanargmax(refit_means))
        folds.append(
            {
                "best_index": best,
                "best_params": dict(plan.candidates[best]),
                "validation_score": float(refit_means[best]),
                "validation_scores": {name: float(m[best]) for name, m in means.items()},
                "candidates": plan.candidates,
                "inner_scores": scores,
                "selection_fit_time": fit_time,
                "selection_score_time": score_time,
            }
        )
    return folds


def _select_from_search(plan, fold, result):
    if result["error"]:
        raise ValueError(
            f"The inner search failed in outer fold {fold}. The error was:\n{result['error']}"
        )
    means = np.asarray(result["mean_scores"], dtype=float)
    return {
        # the search's own choice: successive halving picks among its last iteration,
        # not the best mean over all iterations
        "best_index": result["best_index"],
        "best_params": dict(result["best_params"]),
        "validation_score": result["best_score"],
        "validation_scores": {plan.refit_metric: result["best_score"]},
        "candidates": result["candidates"],
        "inner_scores": {plan.refit_metric: means[:, None]},
        "selection_fit_time": np.full((len(means), 1), result["fit_time"] / max(len(means), 1)),
        "selection_score_time": np.zeros((len(means), 1)),
    }


def _warn_failures(plan, results):
    errors = [r["error"] for r in results if r["error"]]
    if not errors:
        return
    summary = "\n".join(
        f"--- {count} fit(s) failed with:\n{error}"
        for error, count in Counter(e.strip() for e in errors).most_common(3)
    )
    warnings.warn(
        f"{len(errors)} of the {len(results)} fits of NestedCV failed and were given "
        f"error_score={plan.error_score!r}.\n{summary}",
        FitFailedWarning,
        stacklevel=3,
    )


def _assemble(plan, folds, assessment):
    """Per-fold results in fold order, plus the final model when one was fitted."""
    outer_results = []
    for fold in range(plan.n_outer):
        selected = folds[fold]
        train, test = plan.outer_splits[fold]
        refits = [assessment[TaskKey(fold, -1, -1, seed)] for seed in plan.refit_seeds]
        test_scores = {
            name: np.array(
                [plan.error_score if r["error"] else r["scores"][name] for r in refits],
                dtype=float,
            )
            for name in plan.scorers
        }
        fold_result = {
            "outer_fold": fold,
            "best_params": selected["best_params"],
            "best_index": selected["best_index"],
            "validation_score": selected["validation_score"],
            "validation_scores": selected["validation_scores"],
            "test_scores": test_scores[plan.refit_metric],
            "test_score": float(np.mean(test_scores[plan.refit_metric])),
            "test_scores_per_metric": test_scores,
            "refit_seeds": list(plan.refit_seeds),
            "train_indices": np.asarray(train),
            "test_indices": np.asarray(test),
            "inner_splits": len(plan.inner_splits[fold]),
            "fit_time": float(selected["selection_fit_time"].sum())
            + sum(r["fit_time"] for r in refits),
            "score_time": float(selected["selection_score_time"].sum())
            + sum(r["score_time"] for r in refits),
            "refit_fit_time": float(sum(r["fit_time"] for r in refits)),
            "refit_score_time": float(sum(r["score_time"] for r in refits)),
        }
        if plan.return_estimator:
            fold_result["estimators"] = [r.get("estimator") for r in refits]
        outer_results.append(fold_result)
    final = None
    if plan.final:
        final = dict(folds[plan.n_outer])
        final["estimator"] = assessment[TaskKey(plan.n_outer, -1, -1, None)]["estimator"]
    return {"outer_results": outer_results, "selection": folds, "final": final}


def check_class_counts(cv, y, where):
    """Raise a ValueError naming a class with too few members for a stratified ``cv``."""
    needed = _members_needed(cv, y)
    if not needed:
        return
    classes, counts = np.unique(np.asarray(y), return_counts=True)
    too_few = counts < needed
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


def default_inner_cv(estimator, seed):
    """The paper's inner protocol: one 90%/10% hold-out, stratified for classifiers."""
    return HoldoutSplit(test_size=0.1, stratify=is_classifier(estimator), random_state=seed)
