"""The unit of work of nested cross-validation: one fit and its scores.

Every task is independent and runs in a joblib worker; it returns plain
scores and timings (and a fitted model only when asked), so memory stays
flat however many tasks there are.
"""

import time
import traceback
from collections import namedtuple

import numpy as np
from sklearn.base import clone
from sklearn.utils import _safe_indexing

from ._cache import write_entry
from ._seeding import configured

__all__ = ["TaskKey", "run_fit_task", "run_search_task"]

#: Stable identity of a task. ``candidate`` and ``inner_split`` are -1 for a refit task;
#: ``refit_seed`` is None for a model-selection task. ``outer_fold`` equal to the number of
#: outer folds denotes the final selection on all the data (``refit=True``).
TaskKey = namedtuple("TaskKey", ["outer_fold", "candidate", "inner_split", "refit_seed"])


def _subset_params(params, indices, n_samples):
    """Index sample-aligned fit or score parameters (e.g. sample_weight) with ``indices``."""
    subset = {}
    for name, value in params.items():
        if value is not None and hasattr(value, "__len__") and not isinstance(value, str):
            if len(value) == n_samples:
                value = _safe_indexing(value, indices)
        subset[name] = value
    return subset


def _score(scorers, estimator, X, y, score_params):
    scores = {}
    for name, scorer in scorers.items():
        value = scorer(estimator, X, y, **score_params.get(name, {}))
        scores[name] = float(value)
    return scores


def run_fit_task(
    key,
    estimator,
    params,
    X,
    y,
    train,
    test,
    scorers,
    fit_params,
    score_params,
    n_samples,
    error_score=np.nan,
    return_estimator=False,
    cache_path=None,
):
    """Clone ``estimator``, set ``params``, fit on ``train``, score on ``test``.

    ``test=None`` fits without scoring (the final model). Returns a dict with ``key``,
    ``scores`` (metric name -> float, empty if the fit failed), ``fit_time``, ``score_time``,
    ``error`` (traceback text or None) and, when asked, the fitted ``estimator``.
    With ``error_score="raise"`` an exception propagates instead of being recorded.
    A successful result is written to ``cache_path`` (when given) as soon as it exists.
    """
    result = {"key": key, "scores": {}, "fit_time": 0.0, "score_time": 0.0, "error": None}
    X_train = _safe_indexing(X, train)
    y_train = None if y is None else _safe_indexing(y, train)
    start = time.perf_counter()
    try:
        model = configured(estimator, params)
        model.fit(X_train, y_train, **_subset_params(fit_params, train, n_samples))
        result["fit_time"] = time.perf_counter() - start
        if test is not None:
            start = time.perf_counter()
            X_test = _safe_indexing(X, test)
            y_test = None if y is None else _safe_indexing(y, test)
            test_score_params = {
                name: _subset_params(p, test, n_samples) for name, p in score_params.items()
            }
            result["scores"] = _score(scorers, model, X_test, y_test, test_score_params)
            result["score_time"] = time.perf_counter() - start
    except Exception:  # recorded and turned into error_score by the caller
        if isinstance(error_score, str) and error_score == "raise":
            raise
        result["fit_time"] = result["fit_time"] or time.perf_counter() - start
        result["error"] = traceback.format_exc()
        return result
    if cache_path is not None:
        write_entry(cache_path, result)
    if return_estimator:
        result["estimator"] = model
    return result


def run_search_task(key, search, X, y, train, fit_params, n_samples):
    """Fit a whole scikit-learn search on ``train``: the inner selection of one outer fold.

    Used for searches that cannot be flattened into independent fits (successive halving).
    Returns ``best_params``, ``best_score`` and the search's candidates with their mean scores.
    """
    result = {"key": key, "fit_time": 0.0, "score_time": 0.0, "error": None}
    start = time.perf_counter()
    try:
        model = clone(search)
        model.fit(
            _safe_indexing(X, train),
            None if y is None else _safe_indexing(y, train),
            **_subset_params(fit_params, train, n_samples),
        )
    except Exception:
        result["fit_time"] = time.perf_counter() - start
        result["error"] = traceback.format_exc()
        return result
    result["fit_time"] = time.perf_counter() - start
    results = model.cv_results_
    refit = model.refit if isinstance(model.refit, str) else "score"
    result["best_params"] = model.best_params_
    result["best_index"] = int(model.best_index_)
    result["best_score"] = float(model.best_score_)
    result["candidates"] = list(results["params"])
    result["mean_scores"] = np.asarray(results[f"mean_test_{refit}"], dtype=float).tolist()
    return result
