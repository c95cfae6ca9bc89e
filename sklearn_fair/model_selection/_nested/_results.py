"""The results of a finished nested run, in the shapes users read them.

``outer_results`` has one dict per outer fold; ``cv_results`` one row per outer fold and
candidate, with scikit-learn's ``GridSearchCV`` key names for what it shares with it
(``params``, ``param_<name>``, ``split<k>_test_<metric>``, ``mean_test_<metric>``,
``std_test_<metric>``, ``rank_test_<metric>``, ``mean_fit_time`` ...), where "test" means the
inner validation split, as in GridSearchCV, plus ``outer_fold``, ``candidate`` and ``selected``.
"""

import decimal
import numbers
import re
import warnings

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.model_selection._search import _yield_masked_array_for_each_param
from sklearn.model_selection._validation import _enforce_prediction_order
from sklearn.utils import get_tags

from ...exceptions import NonFiniteScoreWarning
from ...utils._scaling import mean_of, std_of
from ...utils._stacklevel import external_stacklevel
from ._candidates import configure
from ._scoring import score_failed, shown
from ._selection import failures_listed, rank_within_folds
from ._tasks import (
    FINAL,
    REFIT,
    SELECTION,
    TaskKey,
    in_task_order,
    listed_labels,
    per_label,
    scores_deciding_the_class,
)

__all__ = [
    "assemble",
    "cv_results",
    "undefined_score_note",
    "undefined_score_notes",
    "warn_or_raise_about_failures",
]


def _refit_note(schedule, fold):
    plan = schedule.plan
    if plan.refit_seeds == [None]:
        return "no random_state left unset (the ones set are kept): trained once"
    n_seeds = len(schedule.refits_of(fold))
    if schedule.seeds_agree(fold):  # each fold's own two refits (None: no probe)
        return (
            "trained with 2 seeds, which gave identical predictions and scores on this fold "
            "(a seed changes nothing there)"
        )
    return f"trained with {n_seeds} seeds"


def _refits_failed_words(seeds, refits):
    """``"k of its n refits failed (seeds ...)"`` for a fold's ``refits`` run with ``seeds``,
    or "" when none failed."""
    failed = [seed for seed, refit in zip(seeds, refits) if refit["error"]]
    if not failed:
        return ""
    if len(refits) == 1:
        return "its refit failed" + ("" if failed[0] is None else f" (seed {failed[0]})")
    shown = f"seed{'s' * (len(failed) > 1)} {', '.join(map(str, failed))}"
    return f"{len(failed)} of its {len(refits)} refits failed ({shown})"


def _failed_note(seeds, refits):
    """What the ``refits`` note adds where some of the fold's refits failed."""
    words = _refits_failed_words(seeds, refits)
    return f"; {words}, so the fold is scored error_score" if words else ""


def _fold_predictions(plan, test, refits, best_params, selecting):
    """A fold's out-of-fold predictions: the true values of its test rows and what each refit
    predicted for them (``predict``, ``proba`` or ``decision``, ``classes``); None for a
    failed fold (no refit, one failed, or one has no score of the ``selecting`` metric), as
    ``nested_cross_val_predict`` has no model for it, and where a refit kept none (it warned):
    the others' alone would be combined otherwise than the fold's model."""
    if not refits or any(score_failed(r, selecting) or "test_predictions" not in r for r in refits):
        return None
    kept = [r["test_predictions"] for r in refits]
    y = plan.data.y
    y_true = None
    if y is not None:
        true = np.asarray(y)[np.asarray(test)]
        if true.ndim == 2 and true.shape[1] == 1:
            # a column vector (df[["label"]]) is one target, as scikit-learn reads it
            true = true.reshape(-1)
        if true.dtype == object and not plan.classifier and all(_is_real(v) for v in true.flat):
            # Decimals (a database's NUMERIC column) as floats, as scikit-learn reads them
            true = true.astype(float)
        y_true = listed_labels(true)
    predict = [k["predict"] for k in kept]
    if y is not None and (np.ndim(y) == 1 or np.shape(y)[1:] == (1,)):
        # a column (n, 1) predicted for a 1-D y is read as (n,), as scikit-learn's scorers do
        predict = [
            [row[0] for row in p] if all(isinstance(r, list) and len(r) == 1 for r in p) else p
            for p in predict
        ]
    classes, proba = kept[0]["classes"], [k["proba"] for k in kept]
    decision = None if kept[0]["decision"] is None else [k["decision"] for k in kept]
    if any(k["classes"] != classes for k in kept) and not per_label(classes):
        # refits that learned different classes (a sampler that drops a rare class): their
        # probabilities over the classes of them all, a refit's missing class at 0; their
        # decision values, of no common columns, are not kept (the class is their vote)
        classes = listed_labels(np.unique(np.concatenate([np.asarray(k["classes"]) for k in kept])))
        proba = [_over_classes(k["proba"], k["classes"], classes) for k in kept]
        decision = None
    model = configure(plan.estimator, best_params)
    return {
        "y_true": y_true,
        "classes": classes,
        "predict": predict,
        "proba": None if kept[0]["proba"] is None else proba,
        "decision": decision,
        # a refit that decides by a threshold: the class of the refits is their vote
        "votes": not scores_deciding_the_class(model),
        # of a model without classes_, how its refits' predictions combine (refits_combined_by)
        "estimator_type": get_tags(model).estimator_type,
    }


def _is_real(value):
    return isinstance(value, (numbers.Real, decimal.Decimal)) and not isinstance(value, bool)


def _over_classes(proba, own, classes):
    """A refit's kept probabilities ``proba`` of its classes ``own`` in the columns of
    ``classes``, 0 in those of the classes it lacks, as cross_val_predict orders them; None
    stays None."""
    if proba is None:
        return None
    encoded = np.searchsorted(classes, own)
    return _enforce_prediction_order(
        encoded, np.asarray(proba, dtype=float), len(classes), "predict_proba"
    ).tolist()


def _failed_metrics(refits, keys, which="scores"):
    """The metrics of ``keys`` a fold has no ``which`` score of: no refit ran, or one refit's
    fit or that metric's scorer failed."""
    return [
        name for name in keys if not refits or any(score_failed(r, name, which) for r in refits)
    ]


def _undefined_metrics(refits, keys, failed):
    """Metric -> the message of its ``UndefinedMetricWarning``, for the metrics of ``keys``
    whose test score a refit of the fold got as the value its scorer sets where the metric is
    undefined (:func:`~._scoring.score_model`): not those the fold ``failed`` in, whose score
    is ``error_score``."""
    undefined = {}
    for name in keys:
        messages = [r["undefined_metrics"][name] for r in refits
                    if name in r.get("undefined_metrics", {})]  # fmt: skip
        if messages and name not in failed:
            some = len(messages) < len(refits)  # the fold's score is their mean
            undefined[name] = (f"in {len(messages)} of {len(refits)} refits: " * some) + messages[0]
    return undefined


# an undefined score that is one part of the fold's: some of its refits' (see
# _undefined_metrics), or some labels' of an average (scikit-learn's warning of precision,
# recall and F-score averaged over labels, or over the samples of multilabel targets)
_PARTLY_UNDEFINED = re.compile(r"^in \d+ of \d+ refits: | in (labels|samples) with ")


def undefined_score_note(metric, fold, score, message):
    """The sentence saying that ``score``, the test score of ``metric`` (a
    :class:`~sklearn_fair.metrics.MetricName` or a name) on outer fold ``fold``, is not a
    measurement but the value its scorer sets where the metric is undefined, with ``message``,
    that of its ``UndefinedMetricWarning``: the summary's, the reports' and the fit's note."""
    value = round(float(getattr(metric, "sign", 1) * score), 4)
    if _PARTLY_UNDEFINED.search(message):
        return (
            f"{metric}'s test score on outer fold {fold} ({value}) averages in values its "
            f"scorer sets where the metric is undefined, not measurements: {message} "
            "(UndefinedMetricWarning); the mean and intervals include them"
        )
    return (
        f"{metric}'s test score on outer fold {fold} ({value}) is not a measurement but the "
        f"value its scorer sets where the metric is undefined: {message} "
        "(UndefinedMetricWarning); the mean and intervals include it"
    )


def undefined_score_notes(outer_results, key, metric):
    """The notes (:func:`undefined_score_note`) on the outer folds of ``outer_results``, in
    their order, whose test score of the metric ``key`` (named ``metric``) is a value its
    scorer sets where the metric is undefined: the summary's and the fit warning's."""
    return [
        undefined_score_note(
            metric,
            fold["outer_fold"],
            mean_of(fold["test_scores_per_metric"][key]),
            fold["undefined_metrics"][key],
        )
        for fold in outer_results
        if key in fold.get("undefined_metrics", {})
    ]


def _warn_undefined_scores(plan, outer_results):
    """One ``UndefinedMetricWarning`` naming, metric by metric, each outer fold whose test
    score of that metric is a value set where the metric is undefined (the scorer's own
    warning names no fold)."""
    keys = dict.fromkeys(key for fold in outer_results for key in fold.get("undefined_metrics", {}))
    if not keys:
        return
    names = plan.metric_names()
    notes = [
        note
        for key in keys
        # a key not named: one of the dict a callable scoring returned
        for note in undefined_score_notes(
            outer_results, key, names[key] if key in names else shown(key)
        )
    ]
    warnings.warn(
        f"{len(notes)} outer test score(s) of {plan.owner} are not, or not wholly, "
        "measurements "
        f"(scikit-learn's cross_validate gives the same numbers): {'; '.join(notes)}.",
        UndefinedMetricWarning,
        stacklevel=external_stacklevel(),
    )


def _fold_scores(plan, refits, keys, which):
    """Per metric, the array of the refits' ``which`` ("scores" or "train_scores"); every
    refit's is ``error_score`` where one refit failed, as a fold without a model's: a number
    given to a failed refit is not averaged with the others' scores."""
    scores = {}
    failed = _failed_metrics(refits, keys, which)
    # with error_score="raise" only scores that are not returned fail (quiet_test_scores)
    error_score = np.nan if isinstance(plan.error_score, str) else plan.error_score
    for name in keys:
        if name in failed:
            scores[name] = np.full(max(len(refits), 1), error_score, dtype=float)
        else:
            scores[name] = np.array([r.get(which, {}).get(name, np.nan) for r in refits])
    return scores


def raise_failed_fold(schedule):
    """With ``error_score="raise"``, raise for the first outer fold that has no score: its
    selection failed without an exception to propagate (no candidate has a finite mean
    validation score, a search given fails with its own ``error_score="raise"``), or a fit
    failed where it could not raise (its worker died). Every other failure has already raised
    in its task; a fold cannot be given the score "raise"."""
    plan = schedule.plan
    if not (isinstance(plan.error_score, str) and plan.error_score == "raise"):
        return
    for fold in range(plan.n_outer):
        failed = schedule.selections[fold].get("failed")
        if failed:
            raise ValueError(
                f"No hyper-parameters could be selected in outer fold {fold} of {plan.owner}, "
                f"which has error_score='raise' (a fold without a model raises instead of "
                f"being scored). {failed}"
            )
        for key in schedule.refits_of(fold):
            error = schedule.results[key]["error"]
            if error:
                raise ValueError(
                    f"The {key.describe()} of {plan.owner} failed, and error_score='raise'. "
                    f"The error was:\n{error}"
                )


def assemble(schedule):
    """``outer_results``, ``final`` (or None), ``failed_tasks`` and the non-finite warnings;
    with ``error_score="raise"``, first :func:`raise_failed_fold`."""
    raise_failed_fold(schedule)
    plan = schedule.plan
    every = in_task_order(schedule.results.values())  # not the order in which they finished
    if plan.scoring.outer_keys is not None:  # the selection fits were scored with other metrics
        refit_results = [r for r in every if r["key"].phase == REFIT]
        keys = plan.metric_keys(refit_results, plan.scoring.outer_keys)
    else:
        keys = plan.metric_keys(every)
    selecting = plan.outer_metric(keys)
    outer_results = []
    for fold in range(plan.n_outer):
        selected = schedule.selections[fold]
        train, test = plan.outer_splits[fold]
        refit_keys = schedule.refits_of(fold)
        refits = [schedule.results[key] for key in refit_keys]
        seeds = [plan.refit_seeds[key.refit] for key in refit_keys]
        test_scores = _fold_scores(plan, refits, keys, "scores")
        fold_result = {
            "outer_fold": fold,
            "best_params": selected["best_params"],
            "best_index": selected["best_index"],
            "validation_score": selected["validation_score"],
            "validation_scores": selected["validation_scores"],
            "test_scores": test_scores[selecting],
            "test_score": float(mean_of(test_scores[selecting])),
            "test_scores_per_metric": test_scores,
            "refit_seeds": seeds,
            "refits": _refit_note(schedule, fold) + _failed_note(seeds, refits)
            if not selected.get("failed")
            else "no refit: no candidate could be selected",
            "train_indices": np.asarray(train),
            "test_indices": np.asarray(test),
            "inner_splits": len(plan.inner_splits[fold]),
            "fit_time": float(selected["fit_time"].sum())
            + selected.get("search_fit_time", 0.0)
            + sum(r["fit_time"] for r in refits),
            "score_time": float(selected["score_time"].sum())
            + sum(r["score_time"] for r in refits),
            "refit_fit_time": float(sum(r["fit_time"] for r in refits)),
            "refit_score_time": float(sum(r["score_time"] for r in refits)),
            "tied_candidates": selected.get("tied", []),
            "selection_failed": selected.get("failed"),
            "refits_failed": sum(1 for r in refits if r["error"]),
            "refit_scores_failed": sum(1 for r in refits if score_failed(r, selecting)),
            "failed_metrics": _failed_metrics(refits, keys),
        }
        undefined = _undefined_metrics(refits, keys, fold_result["failed_metrics"])
        if undefined:
            fold_result["undefined_metrics"] = undefined
        if plan.train_score:
            fold_result["train_scores_per_metric"] = _fold_scores(
                plan, refits, keys, "train_scores"
            )
        if plan.early_stopping and plan.stops_early(selected["best_params"] or {}):
            train, stop = plan.holdouts[fold]
            fold_result["early_stopping_indices"] = np.asarray(stop)
            fold_result["early_stopping_train_indices"] = np.asarray(train)
        if plan.keep_predictions:
            fold_result["predictions"] = _fold_predictions(
                plan, test, refits, selected["best_params"] or {}, selecting
            )
        if plan.return_estimator:
            fold_result["estimators"] = [r.get("estimator") for r in refits]
        outer_results.append(fold_result)

    final = None
    if plan.final:
        final = dict(schedule.selections[None])
        result = schedule.results[TaskKey(FINAL)]
        if result["error"]:  # its worker died or was killed: nothing raised in the task
            raise ValueError(
                f"The {TaskKey(FINAL).describe()} of {plan.owner} failed, so there is no final "
                f"model. The error was:\n{result['error']}"
            )
        final["estimator"] = result["estimator"]
        final["fit_time"] = result["fit_time"]

    failed = [{"key": r["key"]._asdict(), "error": r["error"]} for r in every if r["error"]]
    # the scores a run returns: not those of refits that score quietly (for the seed probe)
    scored = [r for r in every if not (plan.quiet_test_scores and r["key"].phase == REFIT)]
    scoring_failed = [r for r in scored if not r["error"] and r.get("score_errors")]
    for r in scoring_failed:
        failed.append({"key": r["key"]._asdict(), "error": next(iter(r["score_errors"].values()))})
    if scoring_failed:
        # scikit-learn's warning (cross_validate's _score), for the first failing scorer
        warnings.warn(
            "Scoring failed. The score on this train-test partition for these parameters will "
            f"be set to {plan.error_score}. Details: \n"
            f"{next(iter(scoring_failed[0]['score_errors'].values()))}"
            f"({len(scoring_failed)} fit(s) of {plan.owner} had a scorer fail; listed in "
            f"{failures_listed(plan.owner)}.)",
            UserWarning,
            stacklevel=external_stacklevel(),
        )
    bad_scores = [
        r
        for r in scored
        if not r["error"]
        and not r.get("score_errors")
        and any(not np.isfinite(v) for v in r["scores"].values())
    ]
    for r in bad_scores:
        values = {shown(name): v for name, v in r["scores"].items() if not np.isfinite(v)}
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
            f"fold's score non-finite. They are listed in {failures_listed(plan.owner)}.",
            NonFiniteScoreWarning,
            stacklevel=external_stacklevel(),
        )
    _warn_undefined_scores(plan, outer_results)
    return {"outer_results": outer_results, "final": final, "failed_tasks": failed}


def cv_results(plan, selections):
    """One row per outer fold x candidate, as a dict of arrays (GridSearchCV's key names); with
    a final model, then one per candidate of the selection on all the data (``outer_fold``
    -1), so that ``best_index_`` is its winner's row, as in GridSearchCV."""
    rows = []
    selected_in = {f: selections[f] for f in range(plan.n_outer)}
    if plan.final and None in selections:
        selected_in[-1] = selections[None]
    folds = list(selected_in.values())
    max_inner = max(values.shape[1] for sel in folds for values in sel["inner_scores"].values())
    for fold, selected in selected_in.items():
        for index, params in enumerate(selected["candidates"]):
            row = {"outer_fold": fold, "candidate": index, "params": params}
            for name, values in selected["inner_scores"].items():
                scores = values[index]
                for k in range(max_inner):
                    row[f"split{k}_test_{name}"] = scores[k] if k < scores.size else np.nan
                row[f"mean_test_{name}"] = float(mean_of(scores))
                row[f"std_test_{name}"] = float(std_of(scores))
            for what in ("fit", "score"):
                times = selected[f"{what}_time"][index]
                row[f"mean_{what}_time"] = float(np.mean(times))
                row[f"std_{what}_time"] = float(np.std(times))
            row["selected"] = index == selected["best_index"]
            rows.append(row)
    results = {}
    for name in dict.fromkeys(key for row in rows for key in row):
        if name == "params":
            results[name] = np.empty(len(rows), dtype=object)
            results[name][:] = [row["params"] for row in rows]
        else:
            results[name] = np.array([row.get(name, np.nan) for row in rows])
    # the param_<name> columns as GridSearchCV makes them (masked where a row lacks the name)
    param_columns = _yield_masked_array_for_each_param([row["params"] for row in rows])
    results.update(sorted(param_columns, key=lambda column: column[0]))
    for name in dict.fromkeys(name for sel in folds for name in sel["inner_scores"]):
        if f"mean_test_{name}" in results:
            results[f"rank_test_{name}"] = rank_within_folds(
                results["outer_fold"], results[f"mean_test_{name}"]
            )
    return results


def warn_or_raise_about_failures(owner, error_score, outer_results, results, *,
                                 raise_when_all_failed=True,
                                 selection_error_score=None,
                                 placeholder_folds=()):  # fmt: skip
    """scikit-learn's message about failed fits, at the level of the outer folds, with the count
    of every failed fit of the run.

    An outer fold "fails" when no candidate could be selected or its refits failed; it is scored
    ``error_score``. When every outer fold fails the run raises, as ``cross_validate`` does
    ("All the 5 fits failed"), unless ``raise_when_all_failed`` is False (a benchmark's cell);
    otherwise one FitFailedWarning says what failed, and which ``error_score`` the failed fits
    were given: a search's own ``selection_error_score`` for its inner fits, where it differs.
    """
    from collections import Counter

    from sklearn.exceptions import FitFailedWarning

    results = in_task_order(results)  # the first errors: not the first to finish
    errors = [r["error"] for r in results if r["error"]]
    failed_folds = [f for f in outer_results if f["selection_failed"] or f["refits_failed"]]
    details = [f["selection_failed"] for f in failed_folds if f["selection_failed"]]
    summary = "\n".join(
        f"--- {count} fit(s) failed with:\n{error}"
        for error, count in Counter(e.strip() for e in errors).most_common(3)
    )
    n_outer = len(outer_results)
    if raise_when_all_failed and failed_folds and len(failed_folds) == n_outer:
        first = details[0] if details else summary
        if not errors:  # no fit raised: no candidate's score could select (NaN scores)
            raise ValueError(
                f"\nAll the {n_outer} outer folds failed: no fit raised an error, but no "
                f"hyper-parameters could be selected in any.\n\nBelow are more details about "
                f"the first:\n{first}"
            )
        refits = sum(f["refits_failed"] for f in failed_folds)
        if refits:
            ran = sum(len(f["refit_seeds"]) for f in failed_folds if not f["selection_failed"])
            first = (
                f"(Each of these fits is an outer fold, which fails where no candidate could be "
                f"selected or one of its refits failed: {refits} of the {ran} refits failed.)\n"
                f"{first}"
            )
        cause = (
            "It is very likely that your model is misconfigured.\nYou can try to debug the "
            "error by setting error_score='raise'."
        )
        if all(f["outer_fold"] in placeholder_folds and f["refits_failed"] for f in failed_folds):
            cause = (
                "In every outer fold the selected candidate won on error_score placeholders "
                "(its inner fits failed too, and their error_score beat every measured score), "
                "and then its refits failed: other candidates may fit. Pass error_score=np.nan, "
                "so that failed fits cannot be selected, or error_score='raise' to raise the "
                "first error."
            )
        raise ValueError(
            f"\nAll the {n_outer} fits failed.\n{cause}\n\n"
            f"Below are more details about the failures:\n{first}"
        )
    if not errors and not failed_folds:
        return
    head = ""
    if failed_folds:
        head = (
            # scikit-learn's words (its tests match them, and so may a user's filters), with
            # what a "fit" is here: an outer fold
            f"\n{len(failed_folds)} fits failed out of a total of {n_outer}.\nThe score on "
            f"these train-test partitions for these parameters will be set to {error_score}.\n"
            f"(Each of these fits is an outer fold: "
            f"{_failed_folds_words(failed_folds, n_outer, results)}.)\n"
            "If these failures are not expected, you can try to debug them by setting "
            "error_score='raise'.\n\n"
        )
    why = "".join(f"{detail}\n" for detail in details[:3])
    given = f"error_score={error_score!r}"
    if selection_error_score is not None and repr(selection_error_score) != repr(error_score):
        inner = sum(1 for r in results if r["error"] and TaskKey(*r["key"]).phase == SELECTION)
        own = f"the search's own error_score={selection_error_score!r}"
        given = own if inner == len(errors) else f"{given} ({inner} inner fits: {own})"
    warnings.warn(
        f"{head}{why}{len(errors)} of the {len(results)} fits of {owner} failed and were given "
        f"{given}.\nBelow are more details about the failures:\n{summary}",
        FitFailedWarning,
        stacklevel=external_stacklevel(),
    )


def _failed_folds_words(failed_folds, n_outer, results):
    """The failed outer folds in words: how many have no model (no candidate could be
    selected, or every refit failed), and in the first three with a failed refit, how many
    of its refits failed, with their seeds (a fold is not scored by the refits that
    succeeded)."""
    without = [f for f in failed_folds
               if f["selection_failed"] or f["refits_failed"] == len(f["refit_seeds"])]  # fmt: skip
    parts = [f"{len(without)} of the {n_outer} outer folds have no model"] if without else []
    refitted = [f for f in failed_folds if f["refits_failed"] and not f["selection_failed"]]
    for fold in refitted[:3]:
        ran = sorted(
            (r for r in results if TaskKey(*r["key"])[:2] == (REFIT, fold["outer_fold"])),
            key=lambda r: TaskKey(*r["key"]).refit,
        )
        words = _refits_failed_words(fold["refit_seeds"], ran)
        left = len(ran) - fold["refits_failed"]
        also = {0: "", 1: ", not the score of the one that succeeded"}.get(
            left, f", not the mean of the {left} that succeeded"
        )
        parts.append(
            f"in outer fold {fold['outer_fold']}, {words}: the fold is scored error_score{also}"
        )
    if len(refitted) > 3:
        parts.append(f"and {len(refitted) - 3} more outer folds have a failed refit")
    return "; ".join(parts)
