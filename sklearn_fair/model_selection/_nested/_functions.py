"""nested_cross_validate and nested_cross_val_score: the functional forms of NestedCV.

They take the arguments of ``cross_validate`` and ``cross_val_score`` (``cv`` is the outer
resampling, 5 folds by default as there) plus those of the protocol, build a
:class:`NestedCV` from them (so every parameter has one owner) and run it without the final
model on all the data.
"""

import numpy as np
from sklearn.utils._param_validation import validate_params

from ._estimator import PROTOCOL_CONSTRAINTS, NestedCV

__all__ = ["nested_cross_val_score", "nested_cross_validate"]

_DATA_CONSTRAINTS = {
    "X": ["array-like", "sparse matrix"],
    "y": ["array-like", None],
    "groups": ["array-like", None],
    "params": [dict, None],
    "cv": ["cv_object"],
    "outer_cv": ["cv_object"],
    "return_estimator": ["boolean"],
}


def _outer_cv(cv, outer_cv, owner):
    if cv is not None and outer_cv is not None:
        raise ValueError(
            f"{owner} takes the outer resampling as 'cv' or as its alias 'outer_cv', not both. "
            f"Got cv={cv!r} and outer_cv={outer_cv!r}."
        )
    if cv is None and outer_cv is None:
        return 5  # cross_validate's default
    return cv if cv is not None else outer_cv


@validate_params({**PROTOCOL_CONSTRAINTS, **_DATA_CONSTRAINTS}, prefer_skip_nested_validation=False)
def nested_cross_validate(
    estimator,
    X,
    y=None,
    *,
    groups=None,
    scoring=None,
    cv=None,
    n_jobs=None,
    verbose=0,
    params=None,
    error_score=np.nan,
    return_estimator=False,
    param_grid=None,
    param_distributions=None,
    n_iter=10,
    inner_cv=None,
    refit=True,
    n_refits=3,
    random_state=None,
    cache_dir=None,
    early_stopping_split="auto",
    fit_timeout=None,
    outer_cv=None,
):
    """Nested cross-validation, returning a dict in the style of ``cross_validate``.

    The same engine and protocol as :class:`~sklearn_fair.NestedCV` (see there for every
    parameter), without the final model on all the data. The signature starts as
    ``cross_validate``'s, so ported code keeps working: ``cv`` is the outer resampling (5
    folds by default, as in ``cross_validate``; NestedCV's default is the paper's 10), and a
    search passed as ``estimator`` keeps its own ``cv`` as the inner resampling.

    Parameters
    ----------
    estimator : estimator object
        The model to tune and assess (or a scikit-learn search to use as inner selection).
    X : array-like, DataFrame or sequence of graphs
        The data.
    y : array-like of shape (n_samples,), default=None
        The target.
    groups : array-like of shape (n_samples,), default=None
        Group labels for group-aware splitters (outer and inner).
    scoring : str, callable, list, dict or None, default=None
        As in ``cross_validate``.
    cv : int, cross-validation generator or iterable, default=None
        The outer resampling; None means 5 folds (stratified for classifiers).
    n_jobs : int, default=None
        Number of worker processes, as in NestedCV.
    verbose : int, default=0
        ``1`` reports progress.
    params : dict, default=None
        Fit parameters (e.g. ``sample_weight``), routed as in ``cross_validate``.
    error_score : 'raise' or float, default=np.nan
        Score of a failed fit.
    return_estimator : bool, default=False
        Also return, per outer fold, the model of the first refit.
    param_grid, param_distributions, n_iter, inner_cv, n_refits, random_state, cache_dir, \
early_stopping_split, fit_timeout
        As in :class:`~sklearn_fair.NestedCV`.
    refit : bool or str, default=True
        With several metrics, the name of the one that selects the hyper-parameters.
    outer_cv : int, cross-validation generator or iterable, default=None
        Alias of ``cv``.

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
    ...                                 param_grid={"n_neighbors": [1, 5, 15]})
    >>> results["test_score"].shape
    (5,)
    >>> sorted(results)
    ['best_params', 'fit_time', 'indices', 'refit_seeds', 'score_time', 'test_score', \
'validation_score']
    """
    owner = "nested_cross_validate"
    nested = NestedCV(
        estimator,
        param_grid,
        param_distributions=param_distributions,
        n_iter=n_iter,
        outer_cv=_outer_cv(cv, outer_cv, owner),
        inner_cv=inner_cv,
        scoring=scoring,
        refit=refit,
        n_refits=n_refits,
        n_jobs=n_jobs,
        random_state=random_state,
        error_score=error_score,
        verbose=verbose,
        cache_dir=cache_dir,
        early_stopping_split=early_stopping_split,
        fit_timeout=fit_timeout,
    )
    plan, _, results = nested._run_protocol(
        X, y, groups, params or {}, final=False, return_estimator=return_estimator, owner=owner
    )
    folds = results["outer_results"]
    output = {}
    for name in plan.scorers:
        key = name if plan.multimetric else "score"
        output[f"test_{key}"] = np.array(
            [np.mean(f["test_scores_per_metric"][name]) for f in folds]
        )
        output[f"validation_{key}"] = np.array([f["validation_scores"][name] for f in folds])
    output["best_params"] = [f["best_params"] for f in folds]
    output["fit_time"] = np.array([f["fit_time"] for f in folds])
    output["score_time"] = np.array([f["score_time"] for f in folds])
    output["indices"] = {
        "train": [f["train_indices"] for f in folds],
        "test": [f["test_indices"] for f in folds],
    }
    output["refit_seeds"] = list(plan.refit_seeds)
    if return_estimator:
        output["estimator"] = [f["estimators"][0] for f in folds]
    return output


def nested_cross_val_score(
    estimator,
    X,
    y=None,
    *,
    groups=None,
    scoring=None,
    cv=None,
    n_jobs=None,
    verbose=0,
    params=None,
    error_score=np.nan,
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
    cv : int, cross-validation generator or iterable, default=None
        The outer resampling; None means 5 folds, as in ``cross_val_score``.
    n_jobs : int, default=None
        Number of worker processes.
    verbose : int, default=0
        ``1`` reports progress.
    params : dict, default=None
        Fit parameters.
    error_score : 'raise' or float, default=np.nan
        Score of a failed fit.
    **kwargs
        Any other argument of :func:`nested_cross_validate` (``param_grid``, ``inner_cv``,
        ``n_refits``, ``random_state``, ``outer_cv`` ...).

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
    >>> scores = nested_cross_val_score(search, X, y, cv=5)
    >>> scores.shape, bool((scores > 0.8).all())
    ((5,), True)
    """
    if isinstance(scoring, (list, tuple, set, dict)):
        raise ValueError(
            "The 'scoring' parameter of nested_cross_val_score must be a single metric (a str "
            f"or a callable). Got {scoring!r}; use nested_cross_validate for several."
        )
    results = nested_cross_validate(
        estimator,
        X,
        y,
        groups=groups,
        scoring=scoring,
        cv=cv,
        n_jobs=n_jobs,
        verbose=verbose,
        params=params,
        error_score=error_score,
        **kwargs,
    )
    return results["test_score"]
