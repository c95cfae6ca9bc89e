"""The results of a finished nested run, in the shapes users read them.

``outer_results`` has one dict per outer fold; ``cv_results`` one row per outer fold and
candidate, with scikit-learn's ``GridSearchCV`` key names for what it shares with it
(``params``, ``param_<name>``, ``split<k>_test_<metric>``, ``mean_test_<metric>``,
``std_test_<metric>``, ``rank_test_<metric>``, ``mean_fit_time`` ...), where "test" means the
inner validation split, as in GridSearchCV, plus ``outer_fold``, ``candidate`` and ``selected``.
"""

import warnings

import numpy as np

from ...exceptions import NonFiniteScoreWarning
from ._selection import rank_within_folds
from ._tasks import FINAL, TaskKey

__all__ = ["assemble", "cv_results"]


def _refit_note(schedule, fold):
    plan = schedule.plan
    if plan.refit_seeds == [None]:
        return "no random_state left unset (the ones set are kept): trained once"
    if schedule.deterministic:
        if fold == 0:
            return (
                "trained with 2 seeds, whose identical predictions and scores show that a seed "
                "changes nothing; the other folds were trained once"
            )
        return "trained once: two seeds gave identical predictions and scores on outer fold 0"
    return f"trained with {len(schedule.refits_of(fold))} seeds"


def assemble(schedule):
    """``outer_results``, ``final`` (or None), ``failed_tasks`` and the non-finite warnings."""
    plan = schedule.plan
    outer_results = []
    for fold in range(plan.n_outer):
        selected = schedule.selections[fold]
        train, test = plan.outer_splits[fold]
        keys = schedule.refits_of(fold)
        refits = [schedule.results[key] for key in keys]
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
            "refit_seeds": [plan.refit_seeds[key.refit] for key in keys],
            "refits": _refit_note(schedule, fold),
            "train_indices": np.asarray(train),
            "test_indices": np.asarray(test),
            "inner_splits": len(plan.inner_splits[fold]),
            "fit_time": float(selected["fit_time"].sum()) + sum(r["fit_time"] for r in refits),
            "score_time": float(selected["score_time"].sum())
            + sum(r["score_time"] for r in refits),
            "refit_fit_time": float(sum(r["fit_time"] for r in refits)),
            "refit_score_time": float(sum(r["score_time"] for r in refits)),
        }
        if plan.early_stopping:
            fold_result["early_stopping_indices"] = np.asarray(plan.holdouts[fold][1])
        if plan.return_estimator:
            fold_result["estimators"] = [r.get("estimator") for r in refits]
        outer_results.append(fold_result)

    final = None
    if plan.final:
        final = dict(schedule.selections[None])
        result = schedule.results[TaskKey(FINAL)]
        final["estimator"] = result["estimator"]
        final["fit_time"] = result["fit_time"]

    every = list(schedule.results.values())
    failed = [{"key": r["key"]._asdict(), "error": r["error"]} for r in every if r["error"]]
    bad_scores = [
        r for r in every if not r["error"] and any(not np.isfinite(v) for v in r["scores"].values())
    ]
    for r in bad_scores:
        values = {name: v for name, v in r["scores"].items() if not np.isfinite(v)}
        failed.append(
            {
                "key": r["key"]._asdict(),
                "error": f"NonFiniteScore: the fit succeeded but scored {values} "
                f"(in the {r['key'].describe()})",
            }
        )
    if bad_scores:
        warnings.warn(
            f"{len(bad_scores)} of the {len(every)} fits of {plan.owner} got a NaN or infinite "
            f"score without raising (first: {failed[-len(bad_scores)]['error']}). A candidate "
            "whose mean is not finite cannot be selected; a non-finite test score makes its "
            "fold's score non-finite. They are listed in failed_tasks_.",
            NonFiniteScoreWarning,
            stacklevel=4,
        )
    return {"outer_results": outer_results, "final": final, "failed_tasks": failed}


def cv_results(plan, selections):
    """One row per outer fold x candidate, as a dict of arrays (GridSearchCV's key names)."""
    rows = []
    folds = [selections[f] for f in range(plan.n_outer)]
    max_inner = max(values.shape[1] for sel in folds for values in sel["inner_scores"].values())
    for fold, selected in enumerate(folds):
        for index, params in enumerate(selected["candidates"]):
            row = {"outer_fold": fold, "candidate": index, "params": params}
            for name, values in selected["inner_scores"].items():
                scores = values[index]
                for k in range(max_inner):
                    row[f"split{k}_test_{name}"] = scores[k] if k < scores.size else np.nan
                row[f"mean_test_{name}"] = float(np.mean(scores))
                row[f"std_test_{name}"] = float(np.std(scores))
            for what in ("fit", "score"):
                times = selected[f"{what}_time"][index]
                row[f"mean_{what}_time"] = float(np.mean(times))
                row[f"std_{what}_time"] = float(np.std(times))
            row["selected"] = index == selected["best_index"]
            rows.append(row)
    names = list(dict.fromkeys(key for row in rows for key in row))
    param_names = sorted({p for row in rows for p in row["params"]})
    results = {}
    for name in names:
        if name == "params":
            results[name] = np.empty(len(rows), dtype=object)
            results[name][:] = [row["params"] for row in rows]
        else:
            results[name] = np.array([row.get(name, np.nan) for row in rows])
    for param in param_names:
        values = np.empty(len(rows), dtype=object)  # a value may itself be a list or array
        values[:] = [row["params"].get(param) for row in rows]
        results[f"param_{param}"] = np.ma.masked_array(
            values, mask=[param not in row["params"] for row in rows]
        )
    for name in plan.scorers:
        if f"mean_test_{name}" in results:
            results[f"rank_test_{name}"] = rank_within_folds(
                results["outer_fold"], results[f"mean_test_{name}"]
            )
    return results
