"""A nested run as a checked, fully materialised plan: :func:`make_plan` calls the modules that
check each input before the first fit, and the :class:`Plan` knows every task of the run (its
rows, parameters and seeds)."""

import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import numpy as np
from sklearn import get_config
from sklearn.base import is_classifier
from sklearn.multiclass import OneVsOneClassifier, OneVsRestClassifier, OutputCodeClassifier
from sklearn.utils.metadata_routing import get_routing_for_object

from ...exceptions import ReproducibilityWarning
from ...utils._graphs import missing_x, reads_node_features
from ...utils._stacklevel import external_stacklevel
from ._candidates import (
    configure,
    holds_estimator,
    is_search,
    search_for_folds,
    search_space,
    search_with_cv,
    seedable_models,
    space_candidates,
    warn_inner_cv_replaces_search_cv,
)
from ._data import RunData, rows_of
from ._inputs import (
    check_target_kind,
    consumes_validation_data,
    early_stopping_policy,
    prepare_data,
)
from ._resampling import (
    materialise_splits,
    resolve_splitters,
    row_sets,
    selecting_cv_params,
    warn_unseeded_splitters,
)
from ._scoring import (
    Scoring,
    SearchScore,
    as_search_scores,
    refit_metric_name,
    resolve_scoring,
    route_params,
    shown,
)
from ._seeds import (
    Seeds,
    param_owner,
    search_value_key,
    unseeded_randomness,
    unset_random_state_params,
)
from ._selection import check_select, select_fold
from ._tasks import FINAL, REFIT, SEARCH, SELECTION, FitTask, SearchTask, TaskKey

__all__ = ["Plan", "make_plan", "plan_of_splits", "warn_unseeded_estimator"]


@dataclass
class Plan:
    """Everything a nested run needs, checked and materialised before the first fit."""

    owner: str
    estimator: object
    candidates: list
    scoring: object  # the run's scorers and which metric does what (_scoring.Scoring)
    outer_splits: list
    inner_splits: dict  # fold (None: all the data) -> list of (train, test)
    seeds: Seeds
    refit_seeds: list  # [None] when no parameter takes a seed
    data: RunData
    search: object = None  # a search that runs whole inside each fold
    # search_value_key of each estimator value the search's space seeds -> the value given
    search_originals: dict = field(default_factory=dict)
    param_grid: object = None  # for the edge-of-grid check; None for sampled candidates
    outer_cv: object = None
    # fold -> (train, val) that a refit or the final fit early-stops on
    holdouts: dict = field(default_factory=dict)
    probe: bool = False  # whether two refits decide if a seed changes anything
    early_stopping: bool = False
    refit: object = True
    error_score: object = np.nan
    # a search given: its own error_score, for the selection fits (None: error_score)
    search_error_score: object = None
    n_jobs: object = None
    verbose: int = 0
    fit_timeout: object = None
    final: bool = False
    return_estimator: bool = False
    cache: object = None
    train_score: bool = False  # refits also scored on their outer training fold
    keep_predictions: bool = False  # refits return their predictions on the outer test fold
    # the outer test scores are not returned (nested_cross_val_predict): the refits score
    # quietly, for the seed probe alone
    quiet_test_scores: bool = False
    groups: object = None  # the group labels, for error messages
    classifier: bool = False
    # "outer", "inner": how the splits were made, in words; "selection": how a fold's winner
    # is picked, where it is not the best mean validation score (:data:`SELECTION_RULES`)
    resampling: dict = None
    selection_rule: str = "best"  # "best" or "one_se": how a fold's winner is picked
    _selection_params: dict = field(default_factory=dict)
    _stops_early: dict = field(default_factory=dict)  # candidate index -> stops_early

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

    def rows(self, name):
        return self.data.rows[name]

    @staticmethod
    def selection_key(fold, candidate, split):
        return TaskKey(SELECTION, fold, candidate, split)

    @staticmethod
    def refit_key(fold, index):
        return TaskKey(REFIT, fold, refit=index)

    @property
    def selection_error_score(self):
        """The error_score of the selection fits. A search given keeps its own, as in
        ``cross_validate(search, error_score=...)``, where ``error_score`` is the outer fits';
        its ``"raise"`` fails the fold (see ``select_fold``) unless the run raises too."""
        own = self.search_error_score
        if own is None:
            return self.error_score
        if isinstance(own, str):  # "raise"
            return own if isinstance(self.error_score, str) else np.nan
        return own

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
            metric = "score"
            if self.scoring.selected_by_rule:  # the one reported, if the search has the outer one
                metric = self.scoring.rule_reads
            return [SearchTask(TaskKey(SEARCH, fold), self.search, train, self.error_score, metric)]
        tasks = []
        for c in range(len(self.candidates)):
            if c not in self._stops_early:  # once per candidate, not per fold
                self._stops_early[c] = self.stops_early(self.candidates[c])
            stops_early = self._stops_early[c]
            for s in range(len(self.inner_splits[fold])):
                split = ("inner", fold, s)
                tasks.append(
                    FitTask(
                        self.selection_key(fold, c, s),
                        self.selection_params(c),
                        train=(*split, "train"),
                        test=(*split, "test"),
                        val=(*split, "test") if stops_early else None,
                        error_score=self.selection_error_score,
                        metrics=self.scoring.selection_keys,
                    )
                )
        return tasks

    def refit_task(self, fold, selected, index):
        best = selected["best_params"]
        seed = self.refit_seeds[index]
        params = {**best, **self.seeds.refit_values(configure(self.estimator, best), seed)}
        train, val = ("train", fold), None
        if self.stops_early(best):
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
            metrics=self.scoring.outer_keys,
            keep_predictions=self.keep_predictions,
            quiet_scores=self.quiet_test_scores,
        )

    def final_task(self, selected):
        """The winner on all the data, with the selection seed on what was left unset."""
        best = selected["best_params"]
        params = {**best, **self.seeds.final_values(configure(self.estimator, best))}
        train, val = ("all",), None
        if self.stops_early(best):
            train, val = ("holdout", None, "train"), ("holdout", None, "val")
        return FitTask(
            TaskKey(FINAL),
            params,
            train=train,
            val=val,
            error_score="raise",
            return_estimator=True,
        )

    def stops_early(self, params):
        """Whether the fits of the candidate ``params`` early-stop on the protocol's validation
        rows (a candidate may switch its estimator's early stopping off)."""
        return self.early_stopping and consumes_validation_data(configure(self.estimator, params))

    def select(self, fold, results):
        selected = select_fold(self, fold, results)
        if self.search_originals and selected.get("best_params") is not None:
            # the values given, not the seeded copies: each refit seeds them with its own seed
            selected["best_params"] = self._given_values(selected["best_params"])
            selected["candidates"] = [self._given_values(c) for c in selected["candidates"]]
        return selected

    def _given_values(self, params):
        """``params`` of the search run whole with the values given in place of those seeded."""
        given = {}
        for name, value in params.items():
            key = search_value_key(value) if holds_estimator(value) else None
            given[name] = self.search_originals.get(key, value)
        return given

    # -- metrics: which score what, and which selects (see _scoring.Scoring) -------------------

    @property
    def scorers(self):
        """Every scorer a task may call (the selection's and the outer ones), by key."""
        return self.scoring.scorers

    @property
    def refit_metric(self):
        """The outer metric of ``outer_scores_``."""
        return self.scoring.refit_metric

    def metric_keys(self, results, keys=None):
        """The metrics the scores of ``results`` have: those of the dict that a callable
        ``scoring`` returns, else ``keys`` (default: those of :attr:`scorers`). A result whose
        scorer raised has that scorer's own name in place of the keys of its dict."""
        for result in results:
            if not result["error"] and not result.get("score_errors") and result["scores"]:
                return list(result["scores"])
        return list(self.scorers if keys is None else keys)

    def selecting_metric(self, keys):
        """The metric that selects among ``keys``: the plan's, else the one ``refit`` names,
        else the first (where ``refit=True`` takes it)."""
        owner = self.owner
        if self.scoring.search_given:
            owner = f"the search given to {owner}"
        return self._named(
            keys, self.scoring.selection_metric, self.scoring.selection_refit,
            self.scoring.selection_first_selects, owner,
        )  # fmt: skip

    def outer_metric(self, keys):
        """The metric of ``outer_scores_`` among the outer ``keys``."""
        return self._named(
            keys, self.refit_metric, self.refit, self.scoring.first_selects, self.owner
        )

    def _named(self, keys, metric, refit, first_selects, owner):
        """``metric`` if among ``keys`` (a single metric), else the key of the dict a
        callable ``scoring`` returns that ``refit`` names; with ``refit=True``, the first
        where ``first_selects``; else an error, as with a list of metrics."""
        if metric in keys:
            return metric
        if isinstance(refit, str):
            if refit in keys:
                return refit
            raise ValueError(
                f"The 'refit' parameter of {owner} must name one of the metrics that "
                f"'scoring' returns, {keys}. Got {refit!r} instead."
            )
        return refit_metric_name(dict.fromkeys(keys), True, refit, owner, first_selects)

    def metric_names(self, returned=None):
        """Metric key -> :class:`~sklearn_fair.metrics.MetricName` of the outer metrics;
        ``returned``: the keys of the dict a callable scoring returned."""
        if returned is not None:
            from ...metrics import metric_display_name

            weights = self.data.score_params.get("score", {})
            return {
                key: _weighted(metric_display_name(self.scoring.scoring, name=key), weights)
                for key in returned
            }
        keys = self.scorers if self.scoring.outer_keys is None else self.scoring.outer_keys
        names = _names(self.scoring.scoring, keys, self.scoring.multimetric, self.estimator)
        return {key: self._routed_weights(named, key) for key, named in names.items()}

    def _routed_weights(self, named, key):
        """``named``, the metric of the scorer ``key``, said to be weighted where metadata
        routing gives that scorer weights (``set_score_request(sample_weight=True)``)."""
        return _weighted(named, self.data.score_params.get(key, {}))

    @property
    def selection_weighted(self):
        """Whether the selecting metric's validation scores are weighted by the
        ``sample_weight`` given to fit while the outer test scores are not: without metadata
        routing, as scikit-learn's searches and ``cross_validate`` score them
        (:func:`~._scoring.route_params`)."""
        weighted = self.data.selection_score_params
        return bool(weighted) and self.scoring.selection_metric in weighted

    @property
    def validation_comparable(self):
        """Whether the validation scores are of the metric of the outer test scores, so that
        their difference (the optimism) subtracts like from like."""
        return self.scoring.comparable and not self.selection_weighted

    def selection_metric_name(self):
        """The :class:`~sklearn_fair.metrics.MetricName` of the metric that selects."""
        named = self._selection_metric_name()
        if self.selection_weighted:
            weights = self.data.selection_score_params[self.scoring.selection_metric]
            named = _weighted(named, weights)
        return named

    def _selection_metric_name(self):
        if self.scoring.selection_keys is None:
            return self.metric_names().get(self.refit_metric)
        scoring = self.scoring.selection_scoring
        several = isinstance(scoring, (dict, list, tuple, set))
        scoring = as_search_scores(scoring, self.scoring.selection_refit)  # named by its refit
        keys = [shown(key) for key in self.scoring.selection_keys]
        named = _names(scoring, keys, several, self.estimator)[shown(self.scoring.selection_metric)]
        named = self._routed_weights(named, self.scoring.selection_metric)
        if self.scoring.selected_by_rule:  # the metric read, not the one that selected
            name = f"{named.name} of the candidate a callable refit chose"
            if self.scoring.rule_reads is None:
                name = "a callable refit's choice, in none of the outer metrics"
            named = replace(named, name=name)
        return named


def _weighted(named, params):
    """``named`` (a MetricName, or None) said to be weighted, and by which weights, where
    ``params``, what its scorer receives, hold ``sample_weight``
    (:func:`~sklearn_fair.metrics._names.weighted_metric`)."""
    from ...metrics._names import weighted_metric

    if named is None or params.get("sample_weight") is None:
        return named
    return weighted_metric(named, params["sample_weight"])


def _names(scoring, keys, multimetric, estimator):
    from ...metrics import metric_display_name

    if isinstance(scoring, SearchScore):  # the metric of a callable's dict its refit names
        name = scoring.refit if isinstance(scoring.refit, str) else None
        return {"score": metric_display_name(scoring.scorer, name=name)}
    if not multimetric:
        return {"score": metric_display_name(scoring, estimator=estimator)}
    if isinstance(scoring, dict):
        return {key: metric_display_name(scoring[key], name=key) for key in keys}
    return {key: metric_display_name(key) for key in keys}


#: How a fold's winner is picked, in words, for each ``select`` other than "best" (the best
#: mean validation score, which a reader assumes): ``resampling_["selection"]``, which the
#: reports print and a saved result keeps.
SELECTION_RULES = {
    "one_se": "one standard error rule (select='one_se'): in each search, the first candidate "
    "(in the order of the candidates) whose mean validation score is within one standard "
    "error of the best mean (not necessarily the best)",
}


def _selection_words(select):
    """``{"selection": the rule in words}`` for a ``select`` other than "best", else ``{}``."""
    return {"selection": SELECTION_RULES[select]} if select in SELECTION_RULES else {}


def make_plan(nested, X, y, groups, params, *, final, return_estimator, owner,
              train_score=False, first_metric_selects=False, keep_predictions=False,
              quiet_test_scores=False, seeded=None):  # fmt: skip
    """Check ``nested``'s parameters and the data, materialise every split, return a Plan;
    ``seeded``: whether the user gave a random_state, where ``nested`` got one from its caller
    (a benchmark's cells get its int root seed either way); ``quiet_test_scores``: whether
    the outer test scores go unreturned (:attr:`Plan.quiet_test_scores`)."""
    if groups is None and "groups" in params and get_config().get("enable_metadata_routing"):
        # with routing on, the functional forms take groups in params (as scikit-learn's):
        # they are the groups every split and check reads, not only what requests them
        params = dict(params)
        groups = params.pop("groups")
    data = prepare_data(X, y, groups, params)
    space = search_space(nested, owner)
    warn_inner_cv_replaces_search_cv(nested, owner, data.y, data.groups)
    estimator = space.base_estimator
    if data.without_x and reads_node_features(estimator):  # else every fit fails alike
        raise ValueError(missing_x(0, "X"))
    check_target_kind(estimator, data.y)
    seeds = Seeds.from_random_state(nested.random_state)
    candidates = space_candidates(space, seeds, owner)
    scoring = resolve_scoring(
        estimator, space.scoring, space.refit, owner, first_metric_selects, space.search_scoring
    )
    scorings = {owner: space.scoring}
    if space.search_scoring is not None:  # the search given as the estimator selects with its own
        scorings[f"the {type(nested.estimator).__name__} given as estimator"] = (
            space.search_scoring[0]
        )
    scorings.update(_selecting_scorings(nested.estimator, space))  # and the searches inside
    from ...metrics._one_class import check_one_class_names  # not in a GNN task's worker

    check_one_class_names(scorings, data.y)
    splitters = resolve_splitters(
        nested.outer_cv, space.inner_cv, estimator, data.y, seeds, owner, groups=data.groups
    )
    # a search run whole splits with inner_cv where one is given, as checked for a search
    # taken apart (an int with groups keeps them apart): what is checked and described too
    whole_search = None
    if space.search is not None:
        cv = None if space.inner_cv is None else splitters.inner
        whole_search = search_with_cv(space.search, cv)
    seeded = seeds.seeded if seeded is None else seeded
    models = seedable_models(space, candidates)  # the configured candidates
    if seeded:  # the splitters given, and a search run whole's (it splits in each worker)
        # a search's own cv, taken as the inner splits, is named as the user gave it
        inner = "inner_cv" if nested.inner_cv is not None else "estimator.cv"
        splitters_given = {"outer_cv": nested.outer_cv, inner: space.inner_cv}
        if space.search is not None and space.inner_cv is None:
            splitters_given["estimator.cv"] = getattr(space.search, "cv", None)
        warn_unseeded_splitters(owner, splitters_given)
        # and a splitter among the estimator's parameters (StackingClassifier's cv), or
        # among those of an estimator that a candidate puts in place
        warn_unseeded_splitters(owner, _estimator_splitters(nested.estimator, estimator))
        warn_unseeded_splitters(owner, _candidate_splitters(nested.estimator, estimator, models))
    if seeded or nested.n_refits > 1:
        _warn_unseeded_randomness(owner, estimator, seeded, candidates=models)
    routed = route_params(
        owner, estimator, scoring.scorers, splitters.outer, splitters.inner, data.groups, params,
        whole_search=whole_search, selecting=scoring.selection_keys,
    )  # fmt: skip
    _check_resampled_fit_params(owner, models, routed.fit, data.n_samples)
    early_stopping = early_stopping_policy(
        nested.early_stopping_split, estimator, space.search, owner, routed.fit, candidates
    )
    splits = materialise_splits(
        data, splitters, routed, estimator=estimator, whole_search=whole_search,
        early_stopping=early_stopping, final=final, seeds=seeds, owner=owner,
    )  # fmt: skip
    check_select(nested.select, space.search, splits.inner, owner)
    search, search_originals = None, {}
    if whole_search is not None:
        search, search_originals = search_for_folds(whole_search, seeds)
    refits = seeds.refit_plan(models, nested.n_refits)
    search_params = dict(routed.search_fit or {})
    if routed.search_groups is not None:
        search_params["groups"] = routed.search_groups
    return Plan(
        owner=owner,
        estimator=estimator,
        search=search,
        search_originals=search_originals,
        candidates=candidates,
        param_grid=space.param_grid if space.param_distributions is None else None,
        scoring=scoring,
        outer_cv=splitters.outer,
        outer_splits=splits.outer,
        inner_splits=splits.inner,
        holdouts=splits.holdouts,
        seeds=seeds,
        refit_seeds=refits.seeds,
        probe=refits.probe,
        early_stopping=early_stopping,
        refit=space.refit,
        error_score=nested.error_score,
        search_error_score=space.search_error_score,
        n_jobs=nested.n_jobs,
        verbose=nested.verbose,
        fit_timeout=nested.fit_timeout,
        final=final,
        return_estimator=return_estimator,
        data=RunData(
            data.X,
            data.y_given,
            routed.fit,
            routed.score,
            splits.rows,
            routed.selection_score,
            search_params=search_params,
            search_params_whole=routed.search_fit is not None,
        ),
        train_score=train_score,
        keep_predictions=keep_predictions,
        quiet_test_scores=quiet_test_scores,
        groups=data.groups,
        classifier=is_classifier(estimator),
        resampling={**splits.described, **_selection_words(nested.select)},
        selection_rule=nested.select,
    )


def _check_resampled_fit_params(owner, models, fit_params, n_samples):
    """Refuse a fit parameter with one value per sample (of ``n_samples``) that reaches a
    pipeline's step after a sampler (a step with ``fit_resample``) in one of ``models`` (the
    estimator configured by each candidate). imbalanced-learn's Pipeline resamples X and y
    but passes fit parameters on as given, so they no longer line up with the rows that the
    step is fitted on: every fit would fail, or pair rows with other rows' values."""
    # routed in place of their values, the per-sample parameters' names: what reaches a step
    # is then the name the user gave it under
    names = {name: name for name, value in fit_params.items() if rows_of(value) == n_samples}
    if not names:
        return
    for model in models:
        found = _resampled_before(model, names)
        if found is None:
            continue
        sampler, step, name = found
        raise ValueError(
            f"The fit parameter {name!r} of {owner} holds one value per sample and reaches "
            f"the step {step!r} of the pipeline after its sampler {sampler!r}, which "
            "resamples X and y but not the fit parameters (imbalanced-learn's Pipeline passes "
            "them on as given): they no longer line up with the rows that the step is fitted "
            f"on. Give {name!r} only to the steps before {sampler!r}, or to the scorer alone "
            "(with metadata routing: the scorer's set_score_request(sample_weight=True), no "
            "fit request for them); to weight the fit, use the estimator's class_weight "
            "where the weights are by class, or a sampler that handles the weights itself."
        )


def _resampled_before(model, params, path=""):
    """``(sampler, step, name)`` of the first step of a pipeline in ``model`` (its path in
    ``model.get_params(deep=True)``, from ``path``) that receives the fit parameter ``name``
    after the sampler step ``sampler``; None where none does. ``params``: what ``model.fit``
    receives, each name mapped to the name the user gave it under. A search passes them on to
    its estimator, a pipeline to its steps: as metadata routing routes them where it is on,
    else by the step's name (``step__param``)."""
    steps = getattr(model, "steps", None)
    if not (is_search(model) or isinstance(steps, (list, tuple))):
        return None
    routed = _routed_to_parts(model, params)
    if routed is None:
        return None
    if is_search(model):
        return _resampled_before(model.estimator, routed.get("estimator", {}), f"{path}estimator__")
    sampler = None
    for name, step in steps:
        received = routed.get(name, {})
        if received and sampler is not None:
            return sampler, path + name, next(iter(received.values()))
        found = _resampled_before(step, received, f"{path}{name}__")
        if found is not None:
            return found
        if hasattr(step, "fit_resample") and not _keeps_every_row(step):
            sampler = path + name
    return None


def _keeps_every_row(sampler):
    """Whether ``sampler`` is known to return the rows it is given: imbalanced-learn's
    ``FunctionSampler`` without a ``func`` (it only validates them)."""
    return type(sampler).__name__ == "FunctionSampler" and getattr(sampler, "func", 0) is None


def _routed_to_parts(model, params):
    """Part name -> the ``params`` of ``model.fit`` that reach that part's fit (a pipeline's
    step, a search's ``"estimator"``); None where routing refuses them (the fit then says
    why)."""
    if not get_config().get("enable_metadata_routing", False):
        if is_search(model):  # a search passes its fit parameters on as they are
            return {"estimator": params}
        parts = {}
        for key, given in params.items():
            part, _, param = key.partition("__")
            parts.setdefault(part, {})[param] = given
        return parts
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the fit itself warns of what it ignores
            routed = get_routing_for_object(model).route_params(caller="fit", params=params)
    except (AttributeError, TypeError, ValueError):
        return None
    return {
        part: {key: given for method in methods.values() for key, given in method.items()}
        for part, methods in routed.items()
    }


def _selecting_scorings(given, space):
    """Where -> ``scoring`` of each part that selects with a scoring and splits of its own
    (:func:`~._resampling.selecting_cv_params`: a search that is a pipeline's step or sits
    inside another estimator, RidgeClassifierCV, a SequentialFeatureSelector), in the
    estimator ``given`` or among the estimators that the search ``space`` gives a parameter:
    it selects on the run's labels, so its scoring is checked as the run's. The search given
    as the estimator is the caller's to name; a part under a meta-estimator that fits it on
    labels of its own (:data:`_RELABELLING`) is left out."""
    found = {}
    for path, part in _selecting_parts(given):
        if path or not is_search(part):
            where = f"{path!r} in the estimator" if path else "given as estimator"
            found[f"the {type(part).__name__} {where}"] = part.scoring
    base = space.base_estimator
    for name, value in _space_estimators(space):
        if _relabelled(base, base.get_params(deep=True), name):
            continue
        for path, part in _selecting_parts(value):
            where = f"{name}__{path}" if path else name
            found.setdefault(f"the {type(part).__name__} {where!r} of a candidate", part.scoring)
    return found


#: The meta-estimators that fit their estimators on labels of their own: class against class
#: or against the rest, or a code's bit.
_RELABELLING = (OneVsOneClassifier, OneVsRestClassifier, OutputCodeClassifier)


def _selecting_parts(model):
    """``(path, part)`` of each part of ``model`` that selects with a ``scoring`` of its own
    (:func:`~._resampling.selecting_cv_params`) on the labels ``model`` is fitted on; ``path``
    is its name in ``model.get_params(deep=True)``, ``""`` for ``model`` itself."""
    selecting = selecting_cv_params(model)
    params = model.get_params(deep=True) if selecting else {}
    for name in selecting:
        path = name.rpartition("__")[0]
        part = param_owner(model, params, name)
        if getattr(part, "scoring", None) is not None and not _relabelled(model, params, path):
            yield path, part


def _relabelled(model, params, path):
    """Whether an object on the way from ``model`` to its part ``path`` (its name in
    ``params``, ``model.get_params(deep=True)``), the part left out, fits it on labels of its
    own (:data:`_RELABELLING`)."""
    steps = path.split("__") if path else []
    holders = [model] * bool(steps)
    holders += [params.get("__".join(steps[:k])) for k in range(1, len(steps))]
    return any(isinstance(holder, _RELABELLING) for holder in holders)


def _space_estimators(space):
    """``(name, value)`` of each estimator among the values that the search ``space`` (a
    search's run whole) gives the parameter ``name``."""
    grid = space.param_grid if space.param_distributions is None else space.param_distributions
    if space.search is not None:
        own = space.search.get_params(deep=False)
        grid = own.get("param_grid", own.get("param_distributions"))
    for points in grid if isinstance(grid, (list, tuple)) else [grid]:
        for name, values in points.items() if isinstance(points, Mapping) else ():
            if isinstance(values, (list, tuple, np.ndarray)):
                for value in values:
                    if hasattr(value, "get_params") and not isinstance(value, type):
                        yield name, value


def warn_unseeded_estimator(owner, estimator):
    """The ReproducibilityWarnings of a seeded :func:`make_plan` about ``estimator`` alone, for
    a run that fits it as given, with no search or refits of its own (the NCV interval): a
    shuffling splitter among its parameters without a seed, randomness that no
    ``random_state`` parameter controls."""
    warn_unseeded_splitters(owner, _estimator_splitters(estimator, estimator))
    _warn_unseeded_randomness(owner, estimator, True, refits=False)


def _warn_unseeded_randomness(owner, estimator, seeded, refits=True, candidates=()):
    """A ReproducibilityWarning where parts of ``estimator``, or of the configured
    ``candidates`` (a grid value's), draw random numbers that no ``random_state`` parameter
    controls (:func:`~._seeds.unseeded_randomness`); ``refits``: whether the run refits each
    fold's winner with seeds of its own."""
    found = unseeded_randomness(estimator)
    for model in candidates:
        for name, obj in unseeded_randomness(model).items():
            found.setdefault(name, obj)  # once a parameter, as the estimator's own
    if not found:
        return
    parts = ", ".join(
        type(obj).__name__ + (f" (its parameter {name!r})" if name else "")
        for name, obj in found.items()
    )
    changes = "" if not seeded else (
        f"its results change on every run although {owner} has a random_state, and "
    )  # fmt: skip
    if not refits:  # seeded: the changes are all there is to say
        changes = changes.removesuffix(", and ")
    what = "the refits of a fold are not given seeds of their own" if refits else ""
    folds = ""
    if any(name == "cv" or name.endswith("__cv") for name in found):
        # scikit-learn 1.9's TargetEncoder: its random_state is deprecated, its cv is the seed
        folds += (
            "; for a cv that shuffles its folds without a seed (a TargetEncoder's), a seeded "
            "splitter: cv=StratifiedKFold(5, shuffle=True, random_state=0), KFold for a "
            "continuous target"
        )
    if any(unset_random_state_params(obj) for obj in found.values()):
        folds += (
            "; for an estimator held in a list that get_params does not expose (so that no "
            "seed of the run reaches it), its own random_state set to an int"
        )
    warnings.warn(
        f"{parts} in the estimator of {owner} draw(s) random numbers that no random_state "
        f"parameter controls ({owner} seeds only random_state parameters left at None): "
        f"{changes}{what}. Seed it "
        "yourself (a seed parameter set to an int; for a skorch net, torch.manual_seed in its "
        f"module's initialisation{folds}), or give it a random_state parameter that it uses.",
        ReproducibilityWarning,
        stacklevel=external_stacklevel(),
    )


def _estimator_splitters(given, estimator, model=None):
    """Name -> value of every ``cv`` parameter of ``estimator`` (or of ``model``, the
    estimator configured by a candidate), nested ones included; the name as the user reaches
    it from ``given`` (the estimator, or a search wrapping it)."""
    prefix = "estimator." if given is estimator else "estimator.estimator."
    return {
        f"{prefix}{name}": value
        for name, value in (estimator if model is None else model).get_params(deep=True).items()
        if name == "cv" or name.endswith("__cv")
    }


def _candidate_splitters(given, estimator, models):
    """:func:`_estimator_splitters` of the configured candidates ``models`` that the estimator
    itself does not hold (a StackingClassifier given as a grid value), each named once, as a
    candidate's."""
    own = {name: repr(cv) for name, cv in _estimator_splitters(given, estimator).items()}
    found = {}
    for model in models:
        for name, cv in _estimator_splitters(given, estimator, model).items():
            if own.get(name) != repr(cv):
                found.setdefault(f"{name} of a candidate", cv)
    return found


def plan_of_splits(estimator, params, scorers, outer_splits, inner_splits, X, y, *, owner,
                   n_jobs=None, verbose=0):  # fmt: skip
    """A plan of the one configuration ``params`` on given splits (the NCV interval's): each
    outer fold's inner fits, then its refit; no final model, no seed probe (``params`` must hold
    every seed)."""
    return Plan(
        owner=owner,
        estimator=estimator,
        candidates=[dict(params)],
        scoring=Scoring(scorers, True, next(iter(scorers)), next(iter(scorers))),
        outer_splits=outer_splits,
        inner_splits=inner_splits,
        seeds=Seeds.from_random_state(0),  # never drawn from: params leave nothing unset
        refit_seeds=[None],
        data=RunData(X, y, rows=row_sets(len(y), outer_splits, inner_splits, {})),
        n_jobs=n_jobs,
        verbose=verbose,
        classifier=is_classifier(estimator),
    )
