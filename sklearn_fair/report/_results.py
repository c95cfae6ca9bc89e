"""One shape for every result a report accepts: fitted NestedCV objects or their saved dicts."""

import numbers
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from sklearn.base import is_classifier, is_regressor
from sklearn.model_selection._search import BaseSearchCV

from ..metrics import MetricName
from ..stats import compare

RESULT_FORMAT = "sklearn-fair-result"
# 2: the metrics (their printed names and signs), the selecting metric, the task, and each
# fold's test scores per metric. Version 1 dicts are still read (their metric unknown).
RESULT_VERSION = 2
UNRECORDED = MetricName(
    name="score",
    scoring=None,
    sign=1,
    note="the metric was not saved with this result (saved before sklearn-fair recorded it)",
)


@dataclass(frozen=True)
class _Result:
    """The per-fold numbers of one nested cross-validation, whatever it came from.

    ``metrics`` maps each metric's key (``"score"`` for a single metric, else the keys of
    ``scoring``) to its :class:`~sklearn_fair.metrics.MetricName`, the selecting metric
    first; ``test_scores_per_metric`` holds each fold's test score (mean over the refits)
    per key, in the scorer's units (higher is better).
    """

    name: str
    test_scores: np.ndarray
    validation_scores: np.ndarray
    best_params: list
    train_indices: list
    test_indices: list
    refit_seeds: list
    random_state: object
    fit_time: np.ndarray
    metrics: dict
    refit_metric: str
    test_scores_per_metric: dict
    task: object

    @property
    def metric(self):
        """The :class:`~sklearn_fair.metrics.MetricName` of the selecting metric."""
        return self.metrics[self.refit_metric]


def _jsonable(value):
    """A JSON-safe copy of ``value``: numpy numbers become Python ones, objects their repr."""
    if isinstance(value, Mapping):
        return {str(key): _jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [_jsonable(item) for item in value]
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        value = float(value)
        return value if np.isfinite(value) else None
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, type):
        return f"{value.__module__}.{value.__qualname__}"
    return repr(value)


def result_to_dict(nested):
    """Return a fitted NestedCV's per-fold results as a JSON-safe dict.

    The dict holds what a report needs and nothing that would need pickle:
    each outer fold's selected hyper-parameters (objects such as estimators
    become their ``repr``), validation score, test scores of the refits (per
    metric), refit seeds, train and test indices and fit time, and the metrics
    the scores are of. Reports and plots accept
    it in place of the fitted object, so results saved as JSON can be reported
    again later.

    Parameters
    ----------
    nested : NestedCV
        A fitted :class:`~sklearn_fair.NestedCV`.

    Returns
    -------
    result : dict
        ``format``, ``version``, ``random_state``, ``refit_seeds``, ``score_mean``,
        ``score_std``, ``optimism``, ``metrics`` (each metric's printed name and sign, see
        :func:`~sklearn_fair.metrics.metric_display_name`), ``refit_metric`` (the key of
        the metric that selected the hyper-parameters), ``task`` ("classification",
        "regression" or None) and ``outer_results`` (a list of per-fold dicts).

    Examples
    --------
    >>> import json
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_fair import NestedCV
    >>> from sklearn_fair.report import result_to_dict
    >>> X, y = load_iris(return_X_y=True)
    >>> nested = NestedCV(LogisticRegression(max_iter=500), {"C": [0.1, 1.0]}, outer_cv=3,
    ...                   refit=False, random_state=0).fit(X, y)
    >>> result = result_to_dict(nested)
    >>> len(result["outer_results"]), sorted(result["outer_results"][0])[:3]
    (3, ['best_params', 'fit_time', 'refit_seeds'])
    >>> json.loads(json.dumps(result)) == result
    True
    """
    if not (hasattr(nested, "outer_results_") and hasattr(nested, "outer_scores_")):
        raise TypeError(
            "The 'nested' parameter of result_to_dict must be a fitted NestedCV (with "
            f"outer_results_). Got {type(nested).__name__} instead."
        )
    keys = (
        "best_params",
        "validation_score",
        "test_score",
        "test_scores",
        "test_scores_per_metric",
        "refit_seeds",
        "train_indices",
        "test_indices",
        "fit_time",
        "score_time",
    )
    folds = [{key: _jsonable(fold.get(key)) for key in keys} for fold in nested.outer_results_]
    random_state = nested.get_params().get("random_state")
    metrics, refit_metric = nested_metrics(nested)
    return {
        "format": RESULT_FORMAT,
        "version": RESULT_VERSION,
        "random_state": random_state if isinstance(random_state, numbers.Integral) else None,
        "refit_seeds": _jsonable(nested.refit_seeds_),
        "score_mean": float(nested.score_mean_),
        "score_std": float(nested.score_std_),
        "optimism": float(nested.optimism_),
        "metrics": {key: metric.to_dict() for key, metric in metrics.items()},
        "refit_metric": refit_metric,
        "task": _task(nested),
        "outer_results": folds,
    }


def _scoring_and_estimator(nested):
    """The scoring NestedCV used and the estimator it scored.

    NestedCV takes a search's own ``scoring`` when its ``scoring`` is None.
    """
    params = nested.get_params(deep=False)
    scoring, estimator = params.get("scoring"), params.get("estimator")
    if scoring is None and isinstance(estimator, BaseSearchCV):
        scoring, estimator = estimator.scoring, estimator.estimator
    return scoring, estimator


def _task(nested):
    estimator = _scoring_and_estimator(nested)[1]
    if is_classifier(estimator):
        return "classification"
    if is_regressor(estimator):
        return "regression"
    return None


def nested_metrics(nested):
    """``(metrics, refit_metric)`` of a fitted NestedCV: key -> MetricName, selecting first.

    Read from its public fitted attributes ``metrics_`` and ``refit_metric_``.
    """
    refit_metric = getattr(nested, "refit_metric_", "score")
    metrics = dict(nested.metrics_)
    ordered = {refit_metric: metrics[refit_metric]}
    ordered.update(metrics)
    return ordered, refit_metric


def _per_metric(folds, refit_metric, test_scores):
    """Each fold's test score (mean over its refits) per metric key."""
    per_fold = [f.get("test_scores_per_metric") or {} for f in folds]
    keys = list(dict.fromkeys(key for scores in per_fold for key in scores))
    if not keys or any(set(scores) != set(keys) for scores in per_fold):
        return {refit_metric: test_scores}
    return {
        key: np.array([np.mean(np.asarray(s[key], dtype=float)) for s in per_fold]) for key in keys
    }


def as_result(name, result):
    """Return ``result`` (a fitted NestedCV or a :func:`result_to_dict` dict) as a _Result."""
    if isinstance(result, _Result):
        return result
    if hasattr(result, "outer_results_"):
        folds = result.outer_results_
        random_state = result.get_params().get("random_state")
        refit_seeds = list(result.refit_seeds_)
        metrics, refit_metric = nested_metrics(result)
        task = _task(result)
    elif isinstance(result, Mapping) and isinstance(result.get("outer_results"), list):
        folds = result["outer_results"]
        random_state = result.get("random_state")
        refit_seeds = list(result.get("refit_seeds") or [])
        saved = result.get("metrics")
        if saved:
            metrics = {key: MetricName(**value) for key, value in saved.items()}
            refit_metric = result.get("refit_metric", next(iter(metrics)))
        else:
            metrics, refit_metric = {"score": UNRECORDED}, "score"
        task = result.get("task")
    else:
        raise TypeError(
            f"The result {name!r} must be a fitted NestedCV or the dict of result_to_dict "
            f"(with an 'outer_results' list). Got {type(result).__name__} instead."
        )
    if len(folds) < 2:
        raise ValueError(
            f"The result {name!r} has {len(folds)} outer fold(s); a report needs at least 2 "
            "to estimate a spread."
        )
    test_scores = np.array([f["test_score"] for f in folds], dtype=float)
    per_metric = _per_metric(folds, refit_metric, test_scores)
    return _Result(
        name=str(name),
        test_scores=test_scores,
        validation_scores=np.array([f["validation_score"] for f in folds], dtype=float),
        best_params=[dict(f.get("best_params") or {}) for f in folds],
        train_indices=[np.asarray(f["train_indices"], dtype=np.int64) for f in folds],
        test_indices=[np.asarray(f["test_indices"], dtype=np.int64) for f in folds],
        refit_seeds=refit_seeds,
        random_state=random_state,
        fit_time=np.array([f.get("fit_time") or np.nan for f in folds], dtype=float),
        metrics={key: metric for key, metric in metrics.items() if key in per_metric},
        refit_metric=refit_metric,
        test_scores_per_metric=per_metric,
        task=task,
    )


def shared_metric(models):
    """The selecting metric all ``models`` share (same name and sign), or None."""
    first = models[0].metric
    if all(m.metric.name == first.name and m.metric.sign == first.sign for m in models):
        return first
    return None


def describe_metrics(models):
    """Each model with its selecting metric ("a: accuracy, b: RMSE"), for messages."""
    return ", ".join(f"{m.name}: {m.metric}" for m in models)


def as_results(results):
    """Normalise one result or a dict of named results to a list of _Result."""
    if isinstance(results, Mapping) and not isinstance(results.get("outer_results"), list):
        if not results:
            raise ValueError("The 'results' parameter is an empty dict; give at least one result.")
        return [as_result(name, result) for name, result in results.items()]
    return [as_result("model", results)]


def compare_results(models, *, confidence):
    """:func:`sklearn_fair.stats.compare` on the outer-fold test scores of ``models`` (from
    :func:`as_results`), paired by their outer splits (SplitsMismatchError when they differ)."""
    shared = {
        m.name: {
            "test_score": m.test_scores,
            "indices": {"train": m.train_indices, "test": m.test_indices},
        }
        for m in models
    }
    return compare(shared, confidence=confidence)
