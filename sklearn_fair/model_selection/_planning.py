"""Turning NestedCV's arguments and the data into a checked, fully materialised plan.

Everything that can be wrong with the input is found here, before the first fit: bad
parameters, an empty or misspelt search space, NaN labels, splits that cannot be stratified,
invalid predefined splits.
"""

import numbers

import numpy as np
from sklearn import get_config
from sklearn.base import is_classifier, is_regressor
from sklearn.model_selection import check_cv
from sklearn.utils import _safe_indexing, check_random_state, indexable
from sklearn.utils.metadata_routing import MetadataRouter, MethodMapping, process_routing
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import _num_samples, check_consistent_length

from ..utils import check_graph_sizes, is_graph_data, read_graph_labels
from ._cache import TaskCache
from ._engine import NestedPlan, check_class_counts, default_inner_cv
from ._rolling_origin import RollingOrigin
from ._search_space import (
    check_candidate_names,
    is_search,
    make_candidates,
    unwrap_search,
)
from ._seeding import draw_distinct_seeds, random_state_params, with_seed
from ._split_validation import validate_inner_splits, validate_splits

__all__ = ["check_labels", "make_plan", "metadata_router", "resolve_scorers"]


def resolve_scorers(estimator, scoring):
    """Return ``(scorers, multimetric)``: a dict metric name -> scorer.

    Strings are resolved by :func:`sklearn_fair.metrics.get_scorer`, which knows our metrics
    ("kappa", "ppv", ...) and all of scikit-learn's. A single metric is named ``"score"``.
    """
    from sklearn.metrics import check_scoring

    from ..metrics import get_scorer

    if scoring is None:
        return {"score": check_scoring(estimator)}, False
    if isinstance(scoring, str):
        return {"score": get_scorer(scoring)}, False
    if callable(scoring):
        return {"score": scoring}, False
    if isinstance(scoring, dict):
        if not scoring:
            raise ValueError("The 'scoring' parameter of NestedCV is an empty dict.")
        return {
            name: get_scorer(s) if isinstance(s, str) else s for name, s in scoring.items()
        }, True
    if isinstance(scoring, (list, tuple, set)):
        names = list(scoring)
        if not names or not all(isinstance(n, str) for n in names) or len(set(names)) != len(names):
            raise ValueError(
                "The 'scoring' parameter of NestedCV, when a list, must hold distinct metric "
                f"names. Got {scoring!r} instead."
            )
        return {name: get_scorer(name) for name in names}, True
    raise TypeError(
        "The 'scoring' parameter of NestedCV must be None, a str, a callable, a list of str or "
        f"a dict of scorers. Got {type(scoring).__name__} instead."
    )


def refit_metric_name(scorers, multimetric, refit):
    if not multimetric:
        return "score"
    if isinstance(refit, str) and refit in scorers:
        return refit
    raise ValueError(
        "With several metrics in 'scoring', the 'refit' parameter of NestedCV must name the "
        f"metric that selects the hyper-parameters, one of {sorted(scorers)}. Got {refit!r}."
    )


def metadata_router(owner, estimator, scorers, outer_cv, inner_cv):
    """Routing of fit metadata: the estimator's fit, every scorer, both splitters."""
    router = MetadataRouter(owner=owner)
    router.add(estimator=estimator, method_mapping=MethodMapping().add(caller="fit", callee="fit"))
    for name, scorer in scorers.items():
        router.add(
            **{f"scorer_{name}": scorer},
            method_mapping=MethodMapping().add(caller="fit", callee="score"),
        )
    for name, cv in (("outer_cv", outer_cv), ("inner_cv", inner_cv)):
        if hasattr(cv, "split") and not isinstance(cv, numbers.Integral):
            router.add(
                **{name: cv}, method_mapping=MethodMapping().add(caller="fit", callee="split")
            )
    return router


def check_labels(y):
    """Reject NaN (or None) labels, naming where they are."""
    if y is None:
        return
    values = np.asarray(y)
    if values.dtype.kind == "f":
        missing = np.isnan(values)
    elif values.dtype.kind == "O":
        missing = np.array([v is None or (isinstance(v, float) and v != v) for v in values.ravel()])
    else:
        return
    if missing.any():
        where = np.flatnonzero(missing.ravel())
        raise ValueError(
            f"y contains {where.size} NaN or missing value(s), at indices {where[:10].tolist()}"
            f"{'...' if where.size > 10 else ''}; remove or impute them before NestedCV."
        )
    if values.dtype.kind == "f" and np.isinf(values).any():
        where = np.flatnonzero(np.isinf(values).ravel())
        raise ValueError(
            f"y contains {where.size} infinite value(s), at indices {where[:10].tolist()}"
            f"{'...' if where.size > 10 else ''}; remove them before NestedCV."
        )


def _check_target_kind(estimator, y):
    """Refuse, before any fit, a target that the estimator's kind cannot learn from."""
    if y is None or y.ndim != 1 or y.size == 0:
        return
    if is_classifier(estimator) and type_of_target(y) in ("binary", "multiclass"):
        classes = set(y.tolist())  # a set, as mixed label types cannot be sorted
        if len(classes) < 2:
            raise ValueError(
                f"y holds a single class ({classes.pop()!r}); a classifier needs at least 2 "
                "classes to be assessed."
            )
    elif is_regressor(estimator) and y.dtype.kind not in "biufc":
        try:
            y.astype(float)
        except (TypeError, ValueError):
            raise ValueError(
                f"y must be numeric for the regressor {type(estimator).__name__}; got labels "
                f"of dtype {y.dtype} such as {y[:3].tolist()}."
            ) from None


def _check_estimator(owner, estimator):
    if isinstance(estimator, type) or not (
        hasattr(estimator, "fit") and hasattr(estimator, "get_params")
    ):
        raise TypeError(
            f"The 'estimator' parameter of {owner} must be an estimator instance with fit and "
            f"get_params (e.g. LogisticRegression()). Got {estimator!r} instead."
        )


def _check_verbose(verbose):
    if not isinstance(verbose, numbers.Integral):
        raise ValueError(
            f"The 'verbose' parameter of NestedCV must be an int. Got {verbose!r} instead."
        )


def _check_n_refits(n_refits):
    if not isinstance(n_refits, numbers.Integral) or isinstance(n_refits, bool) or n_refits < 1:
        raise ValueError(
            f"The 'n_refits' parameter of NestedCV must be an int >= 1. Got {n_refits!r} instead."
        )


def _check_error_score(error_score):
    if isinstance(error_score, str):
        if error_score != "raise":
            raise ValueError(
                "The 'error_score' parameter of NestedCV must be 'raise' or a number. "
                f"Got {error_score!r} instead."
            )
    elif not isinstance(error_score, numbers.Real):
        raise ValueError(
            "The 'error_score' parameter of NestedCV must be 'raise' or a number. "
            f"Got {error_score!r} instead."
        )


def _route(owner, estimator, scorers, outer_cv, inner_cv, groups, params):
    """Split ``params`` into fit, score and split metadata (scikit-learn's routing when on)."""
    if get_config().get("enable_metadata_routing", False):
        router = metadata_router(owner, estimator, scorers, outer_cv, inner_cv)
        # groups=None must not be passed: sklearn refuses metadata that nothing consumes
        metadata = {**params, **({"groups": groups} if groups is not None else {})}
        routed = process_routing(router, "fit", **metadata)
        score_params = {name: dict(routed[f"scorer_{name}"].score) for name in scorers}
        # .get, not `in`: with no metadata at all process_routing returns an EmptyRequest,
        # whose __getitem__ answers every key, so `in` would iterate forever
        outer_split = dict(getattr(routed.get("outer_cv"), "split", {}))
        inner_split = dict(getattr(routed.get("inner_cv"), "split", {}))
        return dict(routed.estimator.fit), score_params, outer_split, inner_split
    split = {"groups": groups} if groups is not None else {}
    return dict(params), {}, split, dict(split)


def make_plan(
    owner,
    estimator,
    X,
    y,
    *,
    param_grid,
    param_distributions,
    n_iter,
    outer_cv,
    inner_cv,
    scoring,
    refit,
    n_refits,
    n_jobs,
    random_state,
    error_score,
    verbose,
    groups=None,
    params=None,
    final=False,
    return_estimator=False,
    cache_dir=None,
):
    """Check every argument and the data, materialise all splits, and return a NestedPlan."""
    _check_estimator(owner, estimator)
    _check_n_refits(n_refits)
    _check_error_score(error_score)
    _check_verbose(verbose)
    n_samples = _num_samples(X)
    if is_graph_data(X):
        check_graph_sizes(X)
        if y is None:
            y = read_graph_labels(X)
    check_consistent_length(X, y, groups)
    # as GridSearchCV does: sparse matrices to CSR, array-likes without __getitem__ to arrays
    X, y, groups = indexable(X, y, groups)
    check_labels(y)
    y_array = None if y is None else np.asarray(y)

    search, search_random_state = None, None
    unwrapped = None
    if param_grid is None and param_distributions is None and is_search(estimator):
        unwrapped = unwrap_search(estimator)
        if unwrapped is None:
            search = estimator
        else:
            param_grid = unwrapped["param_grid"]
            param_distributions = unwrapped["param_distributions"]
            n_iter = unwrapped["n_iter"]
            search_random_state = unwrapped["random_state"]
            if inner_cv is None:
                # the search's own cv; None there means scikit-learn's default 5-fold
                inner_cv = 5 if unwrapped["cv"] is None else unwrapped["cv"]
            scoring = unwrapped["scoring"] if scoring is None else scoring
            if isinstance(unwrapped["refit"], str) and not isinstance(refit, str):
                refit = unwrapped["refit"]
            estimator = unwrapped["estimator"]
    base_estimator = search.estimator if search is not None else estimator
    _check_target_kind(base_estimator, y_array)

    rng = check_random_state(random_state)
    inner_seed, sampler_seed, selection_seed = draw_distinct_seeds(rng, 3)
    if search_random_state is not None:
        sampler_seed = search_random_state
    if search is None:
        candidates = make_candidates(param_grid, param_distributions, n_iter, sampler_seed)
        check_candidate_names(estimator, candidates)
    else:
        candidates = []

    if search is not None and scoring is None:
        scoring = search.scoring
    scorers, multimetric = resolve_scorers(base_estimator, scoring)
    refit_metric = refit_metric_name(scorers, multimetric, refit)

    classifier = is_classifier(base_estimator)
    outer = check_cv(outer_cv, y_array, classifier=classifier)
    inner = default_inner_cv(base_estimator, inner_seed) if inner_cv is None else inner_cv
    fit_params, score_params, outer_split, inner_split = _route(
        owner, base_estimator, scorers, outer, inner, groups, params or {}
    )
    check_class_counts(outer, y_array, "the whole data set (outer_cv)")
    outer_splits = validate_splits(
        outer.split(X, y, **outer_split), n_samples, allow_overlap=_lagged(outer), name="outer_cv"
    )

    inner_splits = []
    fold_trains = [train for train, _ in outer_splits] + ([np.arange(n_samples)] if final else [])
    for fold, train in enumerate(fold_trains):
        stored = None
        if fold < len(outer_splits) and hasattr(outer, "get_inner_splits"):
            stored = outer.get_inner_splits(fold)
        if stored is not None:
            inner_splits.append(
                validate_inner_splits(stored, train, n_samples, fold=fold, name="outer_cv")
            )
        elif search is not None:
            inner_splits.append([])
        else:
            is_final = fold == len(outer_splits)
            inner_splits.append(
                _inner_splits(inner, X, y_array, train, inner_split, classifier, fold, is_final)
            )

    seed_params = random_state_params(base_estimator)
    current = base_estimator.get_params(deep=True)
    unseeded = [name for name in seed_params if current[name] is None]
    refit_seeds = draw_distinct_seeds(rng, n_refits) if seed_params else [None]
    if search is not None and inner_cv is not None:
        search = _with_cv(search, inner_cv)

    plan = NestedPlan(
        estimator=base_estimator,
        candidates=candidates,
        scorers=scorers,
        refit_metric=refit_metric,
        outer_splits=outer_splits,
        inner_splits=inner_splits,
        refit_seeds=refit_seeds,
        seed_params=seed_params,
        selection_defaults=with_seed({}, unseeded, selection_seed),
        error_score=error_score,
        n_jobs=n_jobs,
        verbose=verbose,
        search=search,
        final=final,
        fit_params=fit_params,
        score_params=score_params,
        return_estimator=return_estimator,
    )
    if cache_dir is not None:
        plan.cache = TaskCache(cache_dir, X, y, scorers, fit_params, score_params)
    return plan, y, n_samples, multimetric


def _lagged(cv):
    """RollingOrigin(lag > 0) overlaps training and assessment rows by design."""
    return isinstance(cv, RollingOrigin) and cv.lag > 0


def _with_cv(search, cv):
    from sklearn.base import clone

    return clone(search).set_params(cv=cv)


def _inner_splits(inner, X, y, train, split_params, classifier, fold, is_final):
    where = "all the data (final selection)" if is_final else f"outer training fold {fold}"
    y_train = None if y is None else y[train]
    cv = check_cv(inner, y_train, classifier=classifier)
    check_class_counts(cv, y_train, where)
    X_train = _safe_indexing(X, train)
    split_params = {
        name: None if value is None else _safe_indexing(value, train)
        for name, value in split_params.items()
    }
    try:
        splits = list(cv.split(X_train, y_train, **split_params))
    except ValueError as exc:
        raise ValueError(f"inner_cv could not split {where}: {exc}") from exc
    positions = validate_splits(
        splits, len(train), allow_overlap=_lagged(cv), name=f"inner_cv in {where}"
    )
    return [(train[tr], train[te]) for tr, te in positions]
