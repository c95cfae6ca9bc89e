"""nested_cross_validate and nested_cross_val_score: the functional forms of NestedCV."""

import numpy as np

from ._engine import run_nested
from ._planning import make_plan

__all__ = ["nested_cross_val_score", "nested_cross_validate"]


def nested_cross_validate(
    estimator,
    X,
    y=None,
    *,
    groups=None,
    param_grid=None,
    param_distributions=None,
    n_iter=10,
    outer_cv=10,
    inner_cv=None,
    scoring=None,
    refit=True,
    n_refits=3,
    n_jobs=None,
    random_state=None,
    error_score=np.nan,
    verbose=0,
    return_estimator=False,
    params=None,
    cache_dir=None,
):
    """Nested cross-validation, returning a dict in the style of ``cross_validate``.

    The same engine and protocol as :class:`~sklearn_fair.NestedCV` (see there for every
    parameter), without the final model on all the data.

    Parameters
    ----------
    estimator : estimator object
        The model to tune and assess (or a scikit-learn search to use as inner selection).
    X : array-like, DataFrame or sequence of graphs
        The data.
    y : array-like of shape (n_samples,), default=None
        The target.
    groups : array-like of shape (n_samples,), default=None
        Group labels for group-aware splitters.
    param_grid, param_distributions, n_iter, outer_cv, inner_cv, scoring, n_refits, n_jobs, \
random_state, error_score, verbose, cache_dir
        As in :class:`~sklearn_fair.NestedCV`.
    refit : bool or str, default=True
        With several metrics, the name of the one that selects the hyper-parameters.
    return_estimator : bool, default=False
        Also return, per outer fold, the model of the first refit.
    params : dict, default=None
        Fit parameters (e.g. ``sample_weight``), routed as in ``cross_validate``.

    Returns
    -------
    results : dict
        ``test_score`` (or ``test_<name>`` per metric): per-fold test scores, each the mean
        over the refits; ``validation_score`` (or ``validation_<name>``): the winner's mean
        inner validation score; ``best_params``: list of dicts; ``fit_time`` and
        ``score_time``: seconds per fold, all its fits summed; ``indices``: ``{"train": [...],
        "test": [...]}``; ``refit_seeds``; and ``estimator`` when asked.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> from sklearn_fair import nested_cross_validate
    >>> X, y = load_iris(return_X_y=True)
    >>> results = nested_cross_validate(KNeighborsClassifier(), X, y,
    ...                                 param_grid={"n_neighbors": [1, 5, 15]}, outer_cv=5)
    >>> results["test_score"].shape
    (5,)
    >>> sorted(results)
    ['best_params', 'fit_time', 'indices', 'refit_seeds', 'score_time', 'test_score', \
'validation_score']
    """
    plan, y, n_samples, multimetric = make_plan(
        "nested_cross_validate",
        estimator,
        X,
        y,
        param_grid=param_grid,
        param_distributions=param_distributions,
        n_iter=n_iter,
        outer_cv=outer_cv,
        inner_cv=inner_cv,
        scoring=scoring,
        refit=refit,
        n_refits=n_refits,
        n_jobs=n_jobs,
        random_state=random_state,
        error_score=error_score,
        verbose=verbose,
        groups=groups,
        params=params,
        final=False,
        return_estimator=return_estimator,
        cache_dir=cache_dir,
    )
    folds = run_nested(plan, X, y, n_samples)["outer_results"]
    results = {}
    for name in plan.scorers:
        key = name if multimetric else "score"
        results[f"test_{key}"] = np.array(
            [np.mean(f["test_scores_per_metric"][name]) for f in folds]
        )
        results[f"validation_{key}"] = np.array([f["validation_scores"][name] for f in folds])
    results["best_params"] = [f["best_params"] for f in folds]
    results["fit_time"] = np.array([f["fit_time"] for f in folds])
    results["score_time"] = np.array([f["score_time"] for f in folds])
    results["indices"] = {
        "train": [f["train_indices"] for f in folds],
        "test": [f["test_indices"] for f in folds],
    }
    results["refit_seeds"] = list(plan.refit_seeds)
    if return_estimator:
        results["estimator"] = [f["estimators"][0] for f in folds]
    return results


def nested_cross_val_score(
    estimator,
    X,
    y=None,
    *,
    groups=None,
    scoring=None,
    params=None,
    **kwargs,
):
    """Per-fold nested test scores: a drop-in for ``cross_val_score``.

    Parameters
    ----------
    estimator : estimator object
        The model to tune and assess (or a scikit-learn search).
    X : array-like
        The data.
    y : array-like, default=None
        The target.
    groups : array-like, default=None
        Group labels for group-aware splitters.
    scoring : str or callable, default=None
        A single metric.
    params : dict, default=None
        Fit parameters.
    **kwargs
        Any other argument of :func:`nested_cross_validate` (``param_grid``, ``outer_cv``,
        ``inner_cv``, ``n_refits``, ``n_jobs``, ``random_state``, ...).

    Returns
    -------
    scores : ndarray of shape (n_outer,)

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.model_selection import GridSearchCV
    >>> from sklearn.svm import SVC
    >>> from sklearn_fair import nested_cross_val_score
    >>> X, y = load_iris(return_X_y=True)
    >>> search = GridSearchCV(SVC(), {"C": [0.1, 10]}, cv=3)
    >>> scores = nested_cross_val_score(search, X, y, outer_cv=5)
    >>> scores.shape, bool((scores > 0.8).all())
    ((5,), True)
    """
    if isinstance(scoring, (list, tuple, set, dict)):
        raise ValueError(
            "nested_cross_val_score takes a single metric in 'scoring'; "
            "use nested_cross_validate for several."
        )
    results = nested_cross_validate(
        estimator, X, y, groups=groups, scoring=scoring, params=params, **kwargs
    )
    return results["test_score"]
