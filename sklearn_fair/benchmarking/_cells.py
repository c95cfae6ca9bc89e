"""One model on one data set: the per-fold scores a BenchmarkResult reads, from a fitted
NestedCV or from saved results."""

from dataclasses import dataclass, field

import numpy as np

__all__ = ["Cell", "cell_from_nested", "cell_from_result"]


@dataclass
class Cell:
    """One model on one data set: per-fold scores and what they cost."""

    dataset: str
    model: str
    metric: str  # printed name of the selecting metric
    sign: int  # 1, or -1 for a negated error (printed values are sign * score)
    test_scores: dict  # metric key -> ndarray (n_folds,), the mean over the refits
    refit_scores: list  # per fold, the selecting metric's score of each refit
    validation_scores: np.ndarray
    refit_metric: str
    train_sizes: object  # ndarray, or None when the result does not say
    test_sizes: object
    test_indices: object  # list of arrays, or None
    best_params: list
    budget: dict = field(default_factory=dict)
    estimator: object = None  # the fitted NestedCV, when there is one
    metric_name: object = None  # the selecting metric's MetricName, when the result says

    @property
    def printed_metric(self):
        """The selecting metric as a :class:`~sklearn_fair.metrics.MetricName` (from ``metric``
        and ``sign`` when the result did not record it)."""
        if self.metric_name is not None:
            return self.metric_name
        from ..metrics import MetricName

        return MetricName(name=self.metric, scoring=None, sign=self.sign, note="")

    @property
    def scores(self):
        return self.test_scores[self.refit_metric]


def _sizes(folds, key):
    if all(fold.get(key) is not None for fold in folds):
        return [np.asarray(fold[key]) for fold in folds]
    return None


def cell_from_nested(dataset, model, nested, budget=None):
    """A Cell from a fitted NestedCV."""
    folds = nested.outer_results_
    metric = nested.metrics_[nested.refit_metric_]
    cv = nested.cv_results_
    n_folds = len(folds)
    if budget is None:
        n_inner = sum(1 for key in cv if key.startswith("split") and key.endswith("_test_score"))
        n_inner = n_inner or sum(
            1
            for key in cv
            if key.startswith("split") and key.endswith(f"_test_{nested.refit_metric_}")
        )
        budget = {
            "n_candidates": len(cv["params"]) // max(n_folds, 1),
            "n_inner_fits": len(cv["params"]) * n_inner,
            "n_searches": 0,
            "n_refit_fits": sum(len(f["test_scores"]) for f in folds),
            "fit_time": float(sum(f["fit_time"] for f in folds)),
        }
    return _cell(
        dataset, model, folds, str(metric), metric.sign, nested.refit_metric_, budget, nested,
        metric_name=metric,
    )  # fmt: skip


def _cell(dataset, model, folds, metric, sign, refit_metric, budget, estimator, metric_name=None):
    per_metric = {}
    for fold in folds:
        for key, values in (fold.get("test_scores_per_metric") or {}).items():
            per_metric.setdefault(key, []).append(float(np.mean(values)))
    if set(per_metric) != {refit_metric} or any(len(v) != len(folds) for v in per_metric.values()):
        per_metric = {k: v for k, v in per_metric.items() if len(v) == len(folds)}
    per_metric[refit_metric] = [float(f["test_score"]) for f in folds]
    indices = _sizes(folds, "test_indices")
    trains = _sizes(folds, "train_indices")
    return Cell(
        dataset=dataset,
        model=model,
        metric=metric,
        sign=int(sign),
        test_scores={k: np.asarray(v, dtype=float) for k, v in per_metric.items()},
        refit_scores=[
            np.asarray(f.get("test_scores", [f["test_score"]]), dtype=float) for f in folds
        ],
        validation_scores=np.asarray(
            [np.nan if f.get("validation_score") is None else f["validation_score"] for f in folds],
            dtype=float,
        ),
        refit_metric=refit_metric,
        train_sizes=None if trains is None else np.array([len(t) for t in trains]),
        test_sizes=None if indices is None else np.array([len(t) for t in indices]),
        test_indices=indices,
        best_params=[f.get("best_params") for f in folds],
        budget=dict(budget or {}),
        estimator=estimator,
        metric_name=metric_name,
    )


def cell_from_result(dataset, model, result, *, metric=None, budget=None):
    """A Cell from a fitted NestedCV, a saved result dict (``result_to_dict``, the experiment
    runner's ``models/<name>.json``) or a plain dict with per-fold ``test_scores``."""
    if hasattr(result, "outer_results_"):
        return cell_from_nested(dataset, model, result, budget)
    if not isinstance(result, dict):
        raise TypeError(
            f"The result of model {model!r} on data set {dataset!r} must be a fitted NestedCV or "
            f"a dict of saved results. Got {type(result).__name__} instead."
        )
    if "result" in result and "outer_results" not in result:
        result = result["result"]  # the experiment runner's file: the result is one key down
    if "outer_results" in result:
        folds = result["outer_results"]
        metrics = result.get("metrics") or {}
        refit_metric = result.get("refit_metric", "score")
        described = metrics.get(refit_metric, {})
        name = metric or described.get("name", "score")
        sign = described.get("sign", 1)
        if budget is None:
            budget = {
                "n_refit_fits": sum(len(f.get("test_scores") or [0]) for f in folds),
                "fit_time": float(sum(f.get("fit_time") or 0.0 for f in folds)),
                "score_time": float(sum(f.get("score_time") or 0.0 for f in folds)),
            }
        recorded = None
        if metric is None and {"name", "scoring", "sign", "note"} <= set(described):
            from ..metrics import MetricName

            recorded = MetricName(**{k: described[k] for k in ("name", "scoring", "sign", "note")})
        return _cell(
            dataset, model, folds, name, sign, refit_metric, budget, None, metric_name=recorded
        )
    if "test_scores" in result:
        validation = result.get("validation_scores") or [None] * len(result["test_scores"])
        folds = [
            {"test_score": s, "validation_score": v, "best_params": p}
            for s, v, p in zip(
                result["test_scores"],
                validation,
                result.get("best_params") or [None] * len(validation),
            )
        ]
        return _cell(dataset, model, folds, metric or "score", 1, "score", budget, None)
    raise ValueError(
        f"The result of model {model!r} on data set {dataset!r} has neither 'outer_results' nor "
        f"'test_scores'; its keys are {sorted(result)}."
    )
