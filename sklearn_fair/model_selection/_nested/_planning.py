"""A nested run as a checked, fully materialised plan.

Everything that can be wrong with the input is found here, before the first fit: bad
parameters, an empty or misspelt search space, NaN labels, splits that cannot be stratified,
invalid predefined splits, structure that the inner splits would break. The plan then knows
every task of the run: which rows each fit trains, validates and early-stops on, and with which
parameters and seeds.
"""

import inspect
import numbers
from dataclasses import dataclass, field

import numpy as np
from sklearn import get_config
from sklearn.base import clone, is_classifier, is_regressor
from sklearn.model_selection import check_cv
from sklearn.utils import indexable
from sklearn.utils.metadata_routing import (
    MetadataRouter,
    MethodMapping,
    get_routing_for_object,
    process_routing,
)
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import _num_samples, check_consistent_length

from ...utils import check_graph_sizes, is_graph_data, read_graph_labels
from .._split_validation import validate_splits
from ._candidates import (
    check_candidate_names,
    configure,
    is_search,
    make_candidates,
    unwrap_search,
)
from ._data import RunData
from ._resampling import (
    check_class_counts,
    default_inner_cv,
    inner_splits_of_fold,
    lagged,
    stored_inner_splits,
    warn_structure_leaks,
    warn_unseeded_splitters,
)
from ._seeds import Seeds
from ._selection import select_fold
from ._tasks import FINAL, REFIT, SEARCH, SELECTION, FitTask, SearchTask, TaskKey

__all__ = ["Plan", "make_plan", "metadata_router", "resolve_scorers"]

_EARLY_STOPPING = ("auto", "protocol", "estimator")


# -- scorers and routing -----------------------------------------------------------------------


def resolve_scorers(estimator, scoring, owner):
    """Return ``(scorers, multimetric)``: a dict metric name -> scorer.

    Strings are resolved by :func:`sklearn_fair.metrics.get_scorer`, which knows our metrics
    ("kappa", "ppv", ...) and all of scikit-learn's. A single metric is named ``"score"``.
    """
    from sklearn.metrics import check_scoring

    from ...metrics import get_scorer

    def one(name, value):
        if isinstance(value, str):
            return get_scorer(value)
        if callable(value):
            return value
        raise ValueError(
            f"The 'scoring' parameter of {owner} maps {name!r} to {value!r}; every value must "
            "be a metric name or a scorer callable."
        )

    if scoring is None:
        return {"score": check_scoring(estimator)}, False
    if isinstance(scoring, str) or callable(scoring):
        return {"score": one("score", scoring)}, False
    prefix = f"The 'scoring' parameter of {owner} is invalid: "
    if isinstance(scoring, dict):
        # scikit-learn's messages (_check_multimetric_scoring), after our prefix
        if not scoring:
            raise ValueError(f"{prefix}An empty dict was passed. {scoring!r}")
        bad = [name for name in scoring if not isinstance(name, str)]
        if bad:
            raise ValueError(
                f"{prefix}Non-string types were found in the keys of the given dict (they "
                f"name the metrics). scoring={scoring!r}"
            )
        return {name: one(name, s) for name, s in scoring.items()}, True
    names = list(scoring)
    message = f"{prefix}The list/tuple elements must be unique strings of predefined scorers."
    if not names:
        raise ValueError(f"{message} Empty list was given. {scoring!r}")
    if not all(isinstance(n, str) for n in names):
        if any(callable(n) for n in names):
            raise ValueError(
                f"{message} One or more of the elements were callables. Use a dict of score "
                f"name mapped to the scorer callable. Got {scoring!r}"
            )
        raise ValueError(f"{message} Non-string types were found in the given list. {scoring!r}")
    if len(set(names)) != len(names):
        raise ValueError(f"{message} Duplicate elements were found in the given list. {scoring!r}")
    return {name: one(name, name) for name in names}, True


def refit_metric_name(scorers, multimetric, refit, owner, first_selects=False):
    """The metric that selects. With several metrics and ``refit=True`` (no name), the functional
    forms take the first one in the order of ``scoring`` (the documented rule: ``cross_validate``
    has no ``refit``); NestedCV asks for a name, as GridSearchCV does."""
    if not multimetric:
        return "score"
    if isinstance(refit, str) and refit in scorers:
        return refit
    if refit is True and first_selects:
        return next(iter(scorers))
    raise ValueError(
        f"With several metrics in 'scoring', the 'refit' parameter of {owner} must name the "
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


# -- the data ------------------------------------------------------------------------------------


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
            f"{'...' if where.size > 10 else ''}; remove or impute them before nested "
            "cross-validation."
        )
    if values.dtype.kind == "f" and np.isinf(values).any():
        where = np.flatnonzero(np.isinf(values).ravel())
        raise ValueError(
            f"y contains {where.size} infinite value(s), at indices {where[:10].tolist()}"
            f"{'...' if where.size > 10 else ''}; remove them before nested cross-validation."
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


def _prepare_data(X, y, groups):
    """Labels of graph data, consistent lengths, and X made indexable: once, here.

    Returns ``(X, y, groups, y_given)``: ``y`` as an array (for the splits and the checks),
    ``y_given`` in the user's container (a list, a pandas Series), which is what every fit and
    scorer receives, indexed by rows, as in ``cross_validate``.
    """
    if is_graph_data(X):
        check_graph_sizes(X)
        if y is None:
            y = read_graph_labels(X)
    check_consistent_length(X, y, groups)
    # as GridSearchCV does: sparse matrices to CSR, array-likes without __getitem__ to arrays
    X, y_given, groups = indexable(X, y, groups)
    check_labels(y_given)
    return X, None if y_given is None else np.asarray(y_given), groups, y_given


# -- early stopping ----------------------------------------------------------------------------


def consumes_validation_data(estimator):
    """Whether ``estimator.fit`` takes ``X_val``/``y_val`` and would early-stop on them.

    With metadata routing on, the estimator's fit request decides (a Pipeline with
    ``transform_input=["X_val"]`` and a final step that requests them qualifies). Otherwise
    its ``fit`` must have both parameters, and an ``early_stopping`` parameter, if it has one,
    must not be False, None or "auto": HistGradientBoosting's ``early_stopping="auto"`` would
    switch early stopping on merely because validation data arrive.
    """
    if get_config().get("enable_metadata_routing", False):
        try:
            consumed = get_routing_for_object(estimator).consumes("fit", ["X_val", "y_val"])
        except (AttributeError, TypeError):
            consumed = set()
        return set(consumed) == {"X_val", "y_val"}
    try:
        accepted = inspect.signature(estimator.fit).parameters
    except (TypeError, ValueError):
        return False
    if "X_val" not in accepted or "y_val" not in accepted:
        return False
    early_stopping = estimator.get_params(deep=False).get("early_stopping", True)
    return not (early_stopping is None or early_stopping is False or early_stopping == "auto")


def _early_stopping(mode, estimator, search, owner):
    if mode not in _EARLY_STOPPING:
        raise ValueError(
            f"The 'early_stopping_split' parameter of {owner} must be one of "
            f"{list(_EARLY_STOPPING)}. Got {mode!r} instead."
        )
    if mode == "estimator" or search is not None:
        return False
    consumes = consumes_validation_data(estimator)
    if mode == "protocol" and not consumes:
        raise ValueError(
            f"early_stopping_split='protocol' hands each fit its validation rows as X_val and "
            f"y_val, but {type(estimator).__name__}.fit does not take them (or its early "
            "stopping is off). Use early_stopping_split='estimator'."
        )
    return consumes


# -- the plan ------------------------------------------------------------------------------------


@dataclass
class Plan:
    """Everything a nested run needs, checked and materialised before the first fit."""

    owner: str
    estimator: object
    search: object  # a search that runs whole inside each fold, or None
    candidates: list
    param_grid: object  # for the edge-of-grid check; None for sampled candidates
    scoring: object  # what the user (or the wrapped search) gave, after unwrapping
    scorers: dict
    multimetric: bool
    refit_metric: str
    outer_cv: object
    outer_splits: list
    inner_splits: dict  # fold (None: all the data) -> list of (train, test)
    holdouts: dict  # fold -> (train, val) that a refit or the final fit early-stops on
    seeds: Seeds
    refit_seeds: list  # [None] when no parameter takes a seed
    probe: bool  # whether two refits decide if a seed changes anything
    early_stopping: bool
    refit: object
    error_score: object
    n_jobs: object
    verbose: int
    fit_timeout: object
    final: bool
    return_estimator: bool
    data: RunData
    cache: object = None
    train_score: bool = False  # refits also scored on their outer training fold
    groups: object = None  # the group labels, for error messages
    classifier: bool = False
    _selection_params: dict = field(default_factory=dict)

    # -- shape of the run --------------------------------------------------------------------

    @property
    def n_outer(self):
        return len(self.outer_splits)

    @property
    def selection_folds(self):
        return list(range(self.n_outer)) + ([None] if self.final else [])

    def inner_splits_of(self, fold):
        return self.inner_splits[fold]

    @property
    def refit_scale(self):
        """How much longer a refit trains than a selection fit (ratio of training rows)."""
        if not self.outer_splits or self.search is not None:
            return 1.0
        outer = np.mean([len(train) for train, _ in self.outer_splits])
        inner = [len(tr) for splits in self.inner_splits.values() for tr, _ in splits]
        return float(outer / np.mean(inner)) if inner else 1.0

    # -- rows: tasks name them, the data holds them -------------------------------------------

    def rows(self, name):
        return self.data.rows[name]

    # -- keys --------------------------------------------------------------------------------

    @staticmethod
    def selection_key(fold, candidate, split):
        return TaskKey(SELECTION, fold, candidate, split)

    @staticmethod
    def refit_key(fold, index):
        return TaskKey(REFIT, fold, refit=index)

    # -- tasks -------------------------------------------------------------------------------

    def selection_params(self, candidate_index):
        """A candidate's parameters, with the selection seed on random_state left at None."""
        params = self._selection_params.get(candidate_index)
        if params is None:
            candidate = self.candidates[candidate_index]
            seeds = self.seeds.selection_values(configure(self.estimator, candidate))
            params = self._selection_params[candidate_index] = {**candidate, **seeds}
        return params

    def selection_tasks(self, fold):
        if self.search is not None:
            train = ("all",) if fold is None else ("train", fold)
            return [SearchTask(TaskKey(SEARCH, fold), self.search, train)]
        tasks = []
        for c in range(len(self.candidates)):
            for s in range(len(self.inner_splits[fold])):
                split = ("inner", fold, s)
                tasks.append(
                    FitTask(
                        self.selection_key(fold, c, s),
                        self.selection_params(c),
                        train=(*split, "train"),
                        test=(*split, "test"),
                        val=(*split, "test") if self.early_stopping else None,
                        error_score=self.error_score,
                    )
                )
        return tasks

    def refit_task(self, fold, selected, index):
        best = selected["best_params"]
        seed = self.refit_seeds[index]
        params = {**best, **self.seeds.refit_values(configure(self.estimator, best), seed)}
        train, val = ("train", fold), None
        if self.early_stopping:
            train, val = ("holdout", fold, "train"), ("holdout", fold, "val")
        return FitTask(
            self.refit_key(fold, index),
            params,
            train=train,
            test=("test", fold),
            val=val,
            error_score=self.error_score,
            return_estimator=self.return_estimator,
            fingerprint_predictions=self.probe,
            score_train=("train", fold) if self.train_score else None,
        )

    def final_task(self, selected, deterministic):
        """The winner on all the data; seeded unless a seed was shown to change nothing."""
        best = selected["best_params"]
        params = dict(best)
        if not deterministic:
            params.update(self.seeds.selection_values(configure(self.estimator, best)))
        train, val = ("all",), None
        if self.early_stopping:
            train, val = ("holdout", None, "train"), ("holdout", None, "val")
        return FitTask(
            TaskKey(FINAL),
            params,
            train=train,
            val=val,
            error_score="raise",
            return_estimator=True,
        )

    def select(self, fold, results):
        return select_fold(self, fold, results)

    def metric_keys(self, results):
        """The metrics the scores of ``results`` have: the keys of :attr:`scorers`, or those of
        the dict that a callable ``scoring`` returns (as in ``cross_validate``)."""
        for result in results:
            if not result["error"] and result["scores"]:
                return list(result["scores"])
        return list(self.scorers)

    def selecting_metric(self, keys):
        """The metric that selects among ``keys`` (see :meth:`metric_keys`): the first key of a
        dict-returning callable, unless ``refit`` names one."""
        if self.refit_metric in keys:
            return self.refit_metric
        if isinstance(self.refit, str):
            if self.refit in keys:
                return self.refit
            raise ValueError(
                f"The 'refit' parameter of {self.owner} must name one of the metrics that "
                f"'scoring' returns, {keys}. Got {self.refit!r} instead."
            )
        return keys[0]

    def metric_names(self):
        """Metric key -> :class:`~sklearn_fair.metrics.MetricName`, as printed in reports."""
        from ...metrics import metric_display_name

        if not self.multimetric:
            return {"score": metric_display_name(self.scoring, estimator=self.estimator)}
        if isinstance(self.scoring, dict):
            return {
                key: metric_display_name(value, name=key) for key, value in self.scoring.items()
            }
        return {key: metric_display_name(key) for key in self.scorers}


def _search_for_folds(search, inner_cv, seeds):
    """The whole search of each fold: its cv replaced, its randomness seeded (issue: never
    unseeded in a seeded run)."""
    search = clone(search)
    if inner_cv is not None:
        search.set_params(cv=inner_cv)
    return seeds.seed_search(search)


def _where(fold):
    return "all the data (final selection)" if fold is None else f"outer training fold {fold}"


@dataclass
class _SearchSpace:
    """What to tune and how, after a scikit-learn search given as the estimator is unwrapped."""

    estimator: object
    search: object  # a search that cannot be flattened, run whole in each fold; or None
    param_grid: object
    param_distributions: object
    n_iter: object
    inner_cv: object
    scoring: object
    refit: object
    sampler_random_state: object  # a RandomizedSearchCV's own random_state

    @property
    def base_estimator(self):
        return self.search.estimator if self.search is not None else self.estimator


def _search_space(nested, owner):
    space = _SearchSpace(
        nested.estimator, None, nested.param_grid, nested.param_distributions, nested.n_iter,
        nested.inner_cv, nested.scoring, nested.refit, None,
    )  # fmt: skip
    if is_search(space.estimator) and (
        space.param_grid is not None or space.param_distributions is not None
    ):
        given = "param_grid" if space.param_grid is not None else "param_distributions"
        raise ValueError(
            f"{owner} got a search ({type(space.estimator).__name__}) as "
            f"'estimator' and a '{given}': pass one or the other. Either the search, whose own "
            f"space and cv become the inner selection, or its estimator "
            f"({type(space.estimator.estimator).__name__}) with '{given}'."
        )
    if space.param_grid is not None or space.param_distributions is not None:
        return space
    if not is_search(space.estimator):
        return space
    unwrapped = unwrap_search(space.estimator)
    if unwrapped is None:
        space.search = space.estimator
        if space.scoring is None:
            space.scoring = space.search.scoring
        return space
    space.param_grid = unwrapped["param_grid"]
    space.param_distributions = unwrapped["param_distributions"]
    space.n_iter = unwrapped["n_iter"]
    space.sampler_random_state = unwrapped["random_state"]
    if space.inner_cv is None:
        # the search's own cv; None there means scikit-learn's default 5-fold
        space.inner_cv = 5 if unwrapped["cv"] is None else unwrapped["cv"]
    if space.scoring is None:
        space.scoring = unwrapped["scoring"]
    if isinstance(unwrapped["refit"], str) and not isinstance(space.refit, str):
        space.refit = unwrapped["refit"]
    space.estimator = unwrapped["estimator"]
    return space


def _materialise_inner_splits(outer, outer_splits, inner, X, y, inner_split, space, final):
    """``(trains, stored, inner_splits)`` per fold (None: all the data, with ``final``)."""
    n_samples = len(y) if y is not None else _num_samples(X)
    classifier = is_classifier(space.base_estimator)
    trains = {fold: train for fold, (train, _) in enumerate(outer_splits)}
    if final:
        trains[None] = np.arange(n_samples)
    stored, inner_splits = {}, {}
    for fold, train in trains.items():
        stored[fold] = None if fold is None else stored_inner_splits(outer, fold, train, n_samples)
        if stored[fold] is not None:
            inner_splits[fold] = stored[fold]
        elif space.search is not None:
            inner_splits[fold] = []
        else:
            inner_splits[fold] = inner_splits_of_fold(
                inner, X, y, train, inner_split, classifier, _where(fold)
            )
    return trains, stored, inner_splits


def _early_stopping_holdouts(trains, stored, outer, X, y, groups, estimator, seeds):
    """Per fold, the (train, val) rows a refit (or the final fit) trains and stops on.

    The fold's stored inner split when the outer splitter stores them (the paper's final runs
    reuse it), else a seeded hold-out shaped like the default inner split.
    """
    holdouts = {}
    split_params = {"groups": groups} if groups is not None else {}
    for fold, train in trains.items():
        if stored[fold]:
            holdouts[fold] = stored[fold][0]
            continue
        seed = seeds.draw("final_holdout") if fold is None else seeds.draw("refit_holdout", fold)
        cv = default_inner_cv(estimator, outer, seed)
        where = f"the early-stopping hold-out of {_where(fold)}"
        holdouts[fold] = inner_splits_of_fold(
            cv, X, y, train, split_params, is_classifier(estimator), where
        )[0]
    return holdouts


def _rows(n_samples, outer_splits, inner_splits, holdouts):
    """Every set of rows a task can name, by name."""
    rows = {("all",): np.arange(n_samples)}
    for fold, (train, test) in enumerate(outer_splits):
        rows[("train", fold)], rows[("test", fold)] = train, test
    for fold, splits in inner_splits.items():
        for s, (train, test) in enumerate(splits):
            rows[("inner", fold, s, "train")], rows[("inner", fold, s, "test")] = train, test
    for fold, (train, val) in holdouts.items():
        rows[("holdout", fold, "train")], rows[("holdout", fold, "val")] = train, val
    return rows


def make_plan(
    nested,
    X,
    y,
    groups,
    params,
    *,
    final,
    return_estimator,
    owner,
    train_score=False,
    first_metric_selects=False,
):
    """Check ``nested``'s parameters and the data, materialise every split, return a Plan."""
    X, y, groups, y_given = _prepare_data(X, y, groups)
    n_samples = _num_samples(X)
    space = _search_space(nested, owner)
    base_estimator = space.base_estimator
    _check_target_kind(base_estimator, y)

    seeds = Seeds.from_random_state(nested.random_state)
    candidates = []
    if space.search is None:
        sampler_seed = space.sampler_random_state
        if sampler_seed is None:
            sampler_seed = seeds.draw("sampler")
        candidates = make_candidates(
            space.param_grid, space.param_distributions, space.n_iter, sampler_seed, owner
        )
        check_candidate_names(space.estimator, candidates, owner)
    scorers, multimetric = resolve_scorers(base_estimator, space.scoring, owner)
    refit_metric = refit_metric_name(
        scorers, multimetric, space.refit, owner, first_selects=first_metric_selects
    )

    outer = check_cv(nested.outer_cv, y, classifier=is_classifier(base_estimator))
    inner = space.inner_cv
    if inner is None:
        inner = default_inner_cv(base_estimator, outer, seeds.draw("inner_cv"))
    if seeds.seeded:
        warn_unseeded_splitters(owner, {"outer_cv": nested.outer_cv, "inner_cv": space.inner_cv})
    fit_params, score_params, outer_split, inner_split = _route(
        owner, base_estimator, scorers, outer, inner, groups, params
    )
    if space.inner_cv is None and groups is not None:
        inner_split = {**inner_split, "groups": groups}  # our hold-out keeps groups apart
    check_class_counts(outer, y, "the whole data set (outer_cv)")
    outer_splits = validate_splits(
        outer.split(X, y, **outer_split), n_samples, allow_overlap=lagged(outer), name="outer_cv"
    )
    trains, stored, inner_splits = _materialise_inner_splits(
        outer, outer_splits, inner, X, y, inner_split, space, final
    )
    if space.inner_cv is not None:
        warn_structure_leaks(owner, outer, outer_splits, inner_splits, groups)

    early_stopping = _early_stopping(
        nested.early_stopping_split, base_estimator, space.search, owner
    )
    holdouts = {}
    if early_stopping:
        holdouts = _early_stopping_holdouts(
            trains, stored, outer, X, y, groups, base_estimator, seeds
        )

    search = space.search
    if search is not None:
        search = _search_for_folds(search, space.inner_cv, seeds)
        # the user's estimator, not the search's seeded copy: the refits vary what the user
        # left unset (the selection seed set in the search's copy is the protocol's, not theirs)
        models = [base_estimator]
    else:
        models = [configure(space.estimator, c) for c in candidates]
    refit_seeds, probe = seeds.refit_plan(models, nested.n_refits)
    rows = _rows(n_samples, outer_splits, inner_splits, holdouts)

    return Plan(
        owner=owner,
        estimator=base_estimator,
        search=search,
        candidates=candidates,
        param_grid=space.param_grid if space.param_distributions is None else None,
        scoring=space.scoring,
        scorers=scorers,
        multimetric=multimetric,
        refit_metric=refit_metric,
        outer_cv=outer,
        outer_splits=outer_splits,
        inner_splits=inner_splits,
        holdouts=holdouts,
        seeds=seeds,
        refit_seeds=refit_seeds,
        probe=probe,
        early_stopping=early_stopping,
        refit=space.refit,
        error_score=nested.error_score,
        n_jobs=nested.n_jobs,
        verbose=nested.verbose,
        fit_timeout=nested.fit_timeout,
        final=final,
        return_estimator=return_estimator,
        data=RunData(X, y_given, fit_params, score_params, rows),
        train_score=train_score,
        groups=groups,
        classifier=is_classifier(base_estimator),
    )
