"""Scoring: which scorers a run has and which metric selects, where fit metadata go, and scoring
one fitted model as ``cross_validate`` does: each scorer on its own, so one that fails gives
``error_score`` for its metric only; a callable that returns a dict gives one metric per key.
"""

import contextlib
import numbers
import traceback
import warnings
from dataclasses import dataclass
from inspect import signature

import numpy as np
from sklearn import get_config
from sklearn.base import clone
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.utils.metadata_routing import (
    MetadataRouter,
    MethodMapping,
    get_routing_for_object,
    process_routing,
)

from ...utils._stacklevel import external_stacklevel
from ._data import handed_out
from ._resampling import splits_by_groups
from ._task_warnings import warnings_raised_inside

__all__ = [
    "RoutedParams",
    "Scoring",
    "SearchScore",
    "as_search_scores",
    "metadata_router",
    "resolve_scoring",
    "route_params",
    "score_failed",
    "score_model",
    "search_selecting_scoring",
    "shown",
]


def _number(value, key, scorer):
    """The float of a scorer's ``value`` for the metric ``key``; an array of one element (or a
    memmapped scalar) is unwrapped with ``.item()``, as scikit-learn's ``_score`` does."""
    if hasattr(value, "item") and not isinstance(value, numbers.Number):
        try:
            value = value.item()
        except (ValueError, TypeError, RuntimeError):
            pass  # more than one element: refused below
    if isinstance(value, numbers.Number) or hasattr(value, "__float__"):
        try:
            return float(value)
        except (TypeError, ValueError):
            pass
    name = getattr(scorer, "__qualname__", None) or repr(scorer)
    metric = "" if key == "score" else f", metric {shown(key)!r}"
    raise ValueError(
        f"scoring must return a number, got {value!s} ({type(value)}) instead. "
        f"(scorer={name}{metric})"
    )


def score_model(scorers, model, X, y, score_params, error_score, undefined=None):
    """``(scores, errors)``: metric name -> float, and metric name -> traceback of a failure.

    ``undefined``, a dict, is given metric name -> the message of the
    ``UndefinedMetricWarning`` its scorer raised, where its score is a number: not a
    measurement but the value the scorer sets where the metric is undefined (recall's
    ``zero_division``, 0.0 with no positive row). Recorded as a task records its warnings
    (:func:`~._task_warnings.warnings_raised_inside`); a callable that returns a dict of
    metrics gives its warning to each of them, as it names none.

    Each scorer scores the rows of ``X`` as given, every one but the last on its own copy
    (:func:`~._data.handed_out`): a model that writes into its input
    (``StandardScaler(copy=False)``) could have changed them. A single metric costs no copy;
    ``X`` may be written into.

    A score of R^2, explained variance or D^2 where ``y`` is constant on the rows scored is
    NaN, with an ``UndefinedMetricWarning`` (:func:`undefined_on_constant_y`).
    """
    scores, errors = {}, {}
    raise_errors = isinstance(error_score, str) and error_score == "raise"
    rows = handed_out(X, len(scorers))
    for name, scorer in scorers.items():
        params = score_params.get(name, {})
        try:
            with _undefined_watched(undefined) as undefined_why:
                value = scorer(model, next(rows), y, **params)
        except Exception:
            if raise_errors:
                raise
            errors[name] = traceback.format_exc()
            scores[name] = float(error_score)
            continue
        # a scorer that returns something else than a number is a bug, raised as in sklearn
        values = value if isinstance(value, dict) else {name: value}
        scores.update({key: _number(v, key, scorer) for key, v in values.items()})
        if not isinstance(value, dict):
            metric = undefined_on_constant_y(scorer, model, y, params.get("sample_weight"))
            if metric is not None:
                scores[name] = np.nan
                warnings.warn(
                    f"{metric} is undefined where y_true is constant on the rows scored (a "
                    "test or validation fold whose target has a single value, e.g. one "
                    "group's where the target is constant within groups): the score is NaN, "
                    "not the 0.0 or 1.0 that scikit-learn's force_finite gives (or the huge "
                    "negative number that rounding makes of a variance of zero). Make every "
                    "fold hold several target values, or score with an error such as "
                    "'neg_mean_squared_error'.",
                    UndefinedMetricWarning,
                    stacklevel=2,
                )
        if undefined_why:  # a NaN is not a value set by convention: its fold fails
            undefined.update({key: undefined_why[0] for key in values if not np.isnan(scores[key])})
    return scores, errors


def _undefined_watched(undefined):
    """The messages of the ``UndefinedMetricWarning`` raised inside where ``undefined`` is a
    dict to fill (:func:`score_model`); else none, and nothing watched."""
    if undefined is None:
        return contextlib.nullcontext(())
    return warnings_raised_inside(UndefinedMetricWarning)


def score_failed(result, name, which="scores"):
    """Whether the task ``result`` has no ``which`` score ("scores" or "train_scores") of the
    metric ``name``: its fit failed, the scorer of ``name`` raised, or ``name`` is missing. A
    callable that returns a dict of metrics and raises gives no keys: its failure, recorded
    under its own name, leaves every metric of its dict missing."""
    prefix = "train_" if which == "train_scores" else ""
    return (
        bool(result["error"])
        or f"{prefix}{name}" in result.get("score_errors", {})
        or name not in result.get(which, {})
    )


#: Metrics relative to the error of a constant prediction, which is zero where y_true is
#: constant: by their function's name in sklearn.metrics (the names R^2, explained variance
#: and D^2 are printed with).
_RELATIVE_TO_CONSTANT = {
    "r2_score": "R^2",
    "explained_variance_score": "Explained variance",
    "d2_absolute_error_score": "D^2 (absolute error)",
    "d2_pinball_score": "D^2 (pinball)",
    "d2_tweedie_score": "D^2 (Tweedie)",
}

#: y_true counts as constant where its spread is at most this fraction of its largest absolute
#: value: a few units in the last place of float64 (values equal but for their last bits; a
#: target that varies, 1.7e12 + 0.05 k, is not), relative as these metrics do not change when
#: y is scaled.
CONSTANT_Y_RTOL = 4 * np.finfo(np.float64).eps


def constant_columns(values):
    """Per column of the 2-D ``values``, whether it is constant (:data:`CONSTANT_Y_RTOL`)."""
    return np.ptp(values, axis=0) <= CONSTANT_Y_RTOL * np.max(np.abs(values), axis=0)


def undefined_on_constant_y(scorer, model, y, sample_weight=None):
    """The name of the metric ``scorer`` computes (R^2, explained variance, D^2) where it is
    undefined on ``y``, as y_true is constant (:data:`CONSTANT_Y_RTOL`) on the rows scored
    (those of non-zero ``sample_weight``); None where it is defined, or another metric.

    ``scoring=None`` scores with ``model.score``, R^2 for a regressor. A multi-output score
    is undefined where one column is constant (scikit-learn's force_finite gives that column
    0.0 or 1.0), one of non-zero weight with an array ``multioutput``, or every column with
    ``multioutput="variance_weighted"``. With fewer than two rows scikit-learn's score is NaN
    already, with its own warning.
    """
    import sklearn.metrics as metrics

    from ...metrics._ranges import default_score_metric

    function = getattr(scorer, "_score_func", None)
    kwargs = getattr(scorer, "_kwargs", None) or {}
    name = getattr(function, "__name__", None)
    if name in _RELATIVE_TO_CONSTANT and getattr(metrics, name) is function:
        metric = f"{_RELATIVE_TO_CONSTANT[name]} ({name})"
    elif (
        function is None
        and getattr(scorer, "_estimator", None) is not None  # check_scoring's model.score
        and default_score_metric(model) == "r2"
    ):
        metric, kwargs = "R^2 (the regressor's score method)", {}
    else:
        return None
    try:
        values = np.asarray(y, dtype=float)
        if sample_weight is not None and len(sample_weight) == len(values):
            values = values[np.asarray(sample_weight) != 0]
    except (TypeError, ValueError):
        return None
    if values.ndim == 0 or values.shape[0] < 2:
        return None
    constant = constant_columns(values.reshape(values.shape[0], -1))
    multioutput = kwargs.get("multioutput")
    if isinstance(multioutput, str):
        weighted = multioutput == "variance_weighted"
        return metric if (constant.all() if weighted else constant.any()) else None
    if multioutput is not None and np.shape(multioutput) == constant.shape:
        constant &= np.asarray(multioutput) != 0  # a column of weight 0 adds nothing
    return metric if constant.any() else None


# -- which scorers, and where metadata go ---------------------------------------------------


def resolve_scorers(estimator, scoring, owner):
    """``(scorers, multimetric)``: metric name -> scorer (``"score"`` for a single metric);
    names resolved by :func:`sklearn_fair.metrics.get_scorer` (ours and scikit-learn's)."""
    from sklearn.metrics import check_scoring

    from ...metrics import get_scorer
    from ...metrics._names import check_scorer_direction

    def one(name, value):
        if isinstance(value, str):
            return get_scorer(value)
        if callable(value):
            if name == "score":  # the one metric selects: a known error maximised
                check_scorer_direction(value, owner)  # (make_scorer(mean_absolute_error))
            return value
        raise ValueError(
            f"The 'scoring' parameter of {owner} maps {name!r} to {value!r}; every value must "
            "be a metric name or a scorer callable."
        )

    if scoring is None:
        # the scorer calls the fitted model's own score; the estimator it keeps only answers
        # metadata requests, which clone keeps: a model fitted earlier is not part of the key
        model = clone(estimator) if hasattr(estimator, "get_params") else estimator
        return {"score": check_scoring(model)}, False
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


#: Prefix of the selection's metrics among a run's scorers when they are not the outer ones
#: (a search given with a scoring of its own): one dict of scorers serves every task, so the
#: two sets need distinct keys; results and reports show the names without it.
SELECTION_PREFIX = "selection:"


def shown(key):
    """A metric key as results show it (without :data:`SELECTION_PREFIX`)."""
    return key.removeprefix(SELECTION_PREFIX)


@dataclass(frozen=True)
class Scoring:
    """The run's scorers and which metric does what. A search given as the estimator selects
    with its own ``scoring`` and ``refit``, as in ``cross_validate(search, scoring=...)``; when
    they differ from the outer ones, the selection's scorers have keys prefixed with
    :data:`SELECTION_PREFIX`."""

    scorers: dict  # metric key -> scorer: every scorer a task of the run may call
    multimetric: bool  # several metrics score the outer test folds
    refit_metric: str  # the outer metric that outer_scores_ report
    selection_metric: str  # the key of the metric that selects
    outer_keys: object = None  # keys that score refits (None: every key of scorers)
    selection_keys: object = None  # keys that score the selection fits (None: every key)
    scoring: object = None  # the outer scoring as given (the search's, with scoring=None)
    selection_refit: object = None  # a metric name that selects among a callable's keys
    selection_scoring: object = None  # the scoring that selects, as given
    comparable: bool = True  # the selecting metric is the one of outer_scores_
    first_selects: bool = False  # refit=True takes the first key of a dict a callable returns
    # the selection's refit=True takes it too (not a search's: its fit refuses it)
    selection_first_selects: bool = False
    search_given: bool = False  # a search given as the estimator selects
    # a search's callable refit selects among its metrics, by a rule of its own: its validation
    # scores are of a metric that did not select (comparable is False), the search's metric
    # that is the outer one (``rule_reads``; None: none, NaN)
    selected_by_rule: bool = False
    rule_reads: object = None


def resolve_scoring(estimator, scoring, refit, owner, first_selects=False, search=None):
    """The :class:`Scoring` of a run; ``search``: the ``(scoring, refit)`` of a search given
    as the estimator (it selects with them), or None."""
    # a search given scores with its own scoring where none is given (below): the estimator
    # it wraps may have no score method
    if scoring is not None or search is None:
        scorers, multimetric = resolve_scorers(estimator, scoring, owner)
    single = isinstance(scoring, str) or (scoring is None and search is None)
    if single and isinstance(refit, str) and refit != scoring:
        # one metric, and refit names another: it would select with 'scoring' without a word
        named = scoring is not None
        what = f"the one metric {scoring!r}" if named else "None: the estimator's score method"
        raise ValueError(
            f"The 'refit' parameter of {owner} names the metric {refit!r}, but 'scoring' is "
            f"{what}, which selects. Pass refit=True"
            + (f" (or refit={scoring!r})" if named else "")
            + f", or scoring={refit!r} to select with it"
            + (f", or scoring=[{scoring!r}, {refit!r}] to report both." if named else ".")
        )
    if search is None:
        metric = refit_metric_name(scorers, multimetric, refit, owner, first_selects=first_selects)
        _check_directions(scorers, multimetric, metric, owner)
        return Scoring(
            scorers, multimetric, metric, metric, scoring=scoring, selection_refit=refit,
            selection_scoring=scoring, first_selects=first_selects,
            selection_first_selects=first_selects,
        )  # fmt: skip
    search_scoring, search_refit = search
    chosen, chosen_multi, chosen_metric, selecting = _search_selection(estimator, search, owner)
    taken = scoring is None
    if taken:
        if chosen_metric is None:
            raise ValueError(
                f"The search given to {owner} selects with a callable 'refit' among several "
                f"metrics, {sorted(chosen)}, so it has no metric of its own to score the outer "
                f"test folds with (its score method names none). Give {owner} a 'scoring', "
                "e.g. one of these metrics."
            )
        scoring = as_search_scores(selecting, search_refit)
        scorers, multimetric = resolve_scorers(estimator, scoring, owner)
    if multimetric:
        metric = refit if isinstance(refit, str) else chosen_metric
        metric = metric if metric in scorers else next(iter(scorers))
        if isinstance(refit, str) and refit not in scorers:
            refit_metric_name(scorers, multimetric, refit, owner)  # raises, naming the metrics
        # the search selects: the outer metrics are reported and compared
        _check_directions(scorers, multimetric, None, owner)
    else:
        metric = "score"
    shared = dict(scoring=scoring, selection_refit=search_refit, selection_scoring=search_scoring,
                  first_selects=first_selects, search_given=True)  # fmt: skip
    if chosen_metric is None:
        # a callable refit picks among several metrics: the validation score reported is the
        # search's metric that is the outer one, if it has it (else none: NaN)
        chosen_metric = next(
            (key for key in chosen
             if _same_scoring(
                _one(scoring, metric, multimetric), _one(search_scoring, key, True), estimator
            )),
            None,
        )  # fmt: skip
        selection = {SELECTION_PREFIX + key: scorer for key, scorer in chosen.items()}
        return Scoring(
            {**scorers, **selection}, multimetric, metric,
            SELECTION_PREFIX + (chosen_metric or next(iter(chosen))),
            outer_keys=tuple(scorers), selection_keys=tuple(selection),
            comparable=False, selected_by_rule=True, rule_reads=chosen_metric, **shared,
        )  # fmt: skip
    if _same_scoring(scoring, search_scoring) and (metric == chosen_metric or not multimetric):
        return Scoring(scorers, multimetric, metric, metric, **shared)
    selection = {SELECTION_PREFIX + key: scorer for key, scorer in chosen.items()}
    # the validation scores are of the outer metric where the two resolve to one metric: a
    # search without a scoring of its own selects with its estimator's score, accuracy for a
    # classifier, so scoring="accuracy" tests it in the same metric
    comparable = taken or _same_scoring(
        _one(scoring, metric, multimetric),
        _one(search_scoring, chosen_metric, chosen_multi),
        estimator,
    )
    return Scoring(
        {**scorers, **selection}, multimetric, metric, SELECTION_PREFIX + chosen_metric,
        outer_keys=tuple(scorers), selection_keys=tuple(selection), comparable=comparable,
        **shared,
    )  # fmt: skip


def _check_directions(scorers, multimetric, metric, owner):
    """The scorers of a ``scoring`` dict against the direction of the metric each computes
    (:func:`~sklearn_fair.metrics._names.check_scorer_direction`): refused for the one that
    selects (``metric``), a warning for the others, which are only reported."""
    from ...metrics._names import check_scorer_direction

    if multimetric:
        for key, scorer in scorers.items():
            check_scorer_direction(scorer, owner, key, selects=key == metric)


class SearchScore:
    """The score of a search whose ``scoring`` is a callable, as its ``score`` method gives it:
    the callable's value, or where it returns a dict of metrics, the one that ``refit`` names
    (what ``cross_validate(search)`` reports)."""

    def __init__(self, scorer, refit):
        self.scorer = scorer
        self.refit = refit

    def __call__(self, estimator, X, y=None, **params):
        value = self.scorer(estimator, X, y, **params)
        if not isinstance(value, dict):
            return value
        if isinstance(self.refit, str) and self.refit in value:
            return value[self.refit]
        raise ValueError(
            f"The 'scoring' callable of the search given returned a dict of the metrics "
            f"{sorted(value)}, and its 'refit' names none of them ({self.refit!r}): its score "
            "method has no metric to score the outer test folds with. Set the search's "
            "'refit' to one of these metrics, or give the nested run a 'scoring'."
        )

    def get_metadata_routing(self):
        return get_routing_for_object(self.scorer)

    def _accept_sample_weight(self):
        accept = getattr(self.scorer, "_accept_sample_weight", None)
        if accept is not None:
            return accept()
        return "sample_weight" in signature(self.scorer).parameters

    def __repr__(self):
        return repr(self.scorer)


def _search_selection(estimator, search, owner):
    """``(scorers, multimetric, metric, scoring)`` a search selects with, given its ``(scoring,
    refit)``: ``scoring`` is the one metric as given (a name, a scorer or None). A callable
    ``refit`` among several metrics selects by a rule of its own: ``metric`` and ``scoring``
    are then None."""
    search_scoring, search_refit = search
    where = f"the search given to {owner}"
    chosen, chosen_multi = resolve_scorers(estimator, search_scoring, where)
    if chosen_multi and callable(search_refit):
        return chosen, chosen_multi, None, None
    chosen_metric = refit_metric_name(chosen, chosen_multi, search_refit, where)
    selecting = _one(search_scoring, chosen_metric, chosen_multi)
    return chosen, chosen_multi, chosen_metric, selecting


def search_selecting_scoring(search, owner):
    """What ``scoring=None`` scores with for ``search`` given as the estimator: its metric that
    selects, as given (a name, a scorer, or None: its estimator's own score)."""
    selecting = _search_selection(search.estimator, (search.scoring, search.refit), owner)[3]
    return as_search_scores(selecting, search.refit)


def as_search_scores(selecting, refit):
    """The metric that selects as ``search.score`` scores with it: a callable may return a
    dict, of which it takes the value ``refit`` names (:class:`SearchScore`)."""
    if callable(selecting) and not hasattr(selecting, "_score_func"):
        return SearchScore(selecting, refit)
    return selecting


def _one(scoring, key, multimetric):
    """The metric ``key`` of ``scoring`` as given (a name, a callable or None)."""
    if not multimetric:
        return scoring
    return scoring[key] if isinstance(scoring, dict) else key


def _same_scoring(a, b, estimator=None):
    """Whether two ``scoring`` values name the same metrics: equal names, the same callables
    (by identity: two lambdas print alike), in the same order. With ``estimator``, None (its
    own score) is also the scorer name of the metric its score method is known to compute
    (:func:`~sklearn_fair.metrics._ranges.default_score_metric`: "accuracy" for
    ``ClassifierMixin.score``, "r2" for ``RegressorMixin.score``); never a callable."""
    if isinstance(a, dict) or isinstance(b, dict):
        return (
            isinstance(a, dict)
            and isinstance(b, dict)
            and list(a) == list(b)
            and all(_same_scoring(a[key], b[key], estimator) for key in a)
        )
    if isinstance(a, (list, tuple, set)) or isinstance(b, (list, tuple, set)):
        return isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and list(a) == list(b)
    if estimator is not None:
        from ...metrics._ranges import default_score_metric

        a, b = (default_score_metric(estimator) if s is None else s for s in (a, b))
    if a is None or isinstance(a, str):
        return a == b
    return a is b


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
        f"With metrics given as a dict or list in 'scoring' (multi-metric scoring, as "
        f"scikit-learn reads it, even of one metric), the 'refit' parameter of {owner} must "
        f"name the metric that selects the hyper-parameters, one of {sorted(scorers)}. Got "
        f"{refit!r}."
    )


def metadata_router(owner, estimator, scorers, outer_cv, inner_cv):
    """Routing of metadata: to the estimator's fit, every scorer (from ``fit`` and from
    ``score``, as GridSearchCV routes them), both splitters."""
    router = MetadataRouter(owner=owner)
    router.add(estimator=estimator, method_mapping=MethodMapping().add(caller="fit", callee="fit"))
    for name, scorer in scorers.items():
        router.add(
            **{f"scorer_{name}": scorer},
            method_mapping=MethodMapping()
            .add(caller="fit", callee="score")
            .add(caller="score", callee="score"),
        )
    for name, cv in (("outer_cv", outer_cv), ("inner_cv", inner_cv)):
        if hasattr(cv, "split") and not isinstance(cv, numbers.Integral):
            router.add(
                **{name: cv}, method_mapping=MethodMapping().add(caller="fit", callee="split")
            )
    return router


@dataclass(frozen=True)
class RoutedParams:
    """The metadata given to ``fit``, split by where it goes."""

    fit: dict  # to every fit of the estimator
    score: dict  # metric name -> what its scorer receives
    outer_split: dict  # to outer_cv.split
    inner_split: dict  # to inner_cv.split
    selection_score: dict | None = None  # what the inner selection's scorers receive (None: score)
    search_groups: object = None  # the groups a search run whole gets in its fit (None: none)
    search_fit: dict = None  # with routing, what a search run whole requests in its fit


def route_params(owner, estimator, scorers, outer_cv, inner_cv, groups, params, *,
                 whole_search=None, selecting=None):  # fmt: skip
    """Split ``params`` into fit, score and split metadata (scikit-learn's routing when on).

    ``whole_search``: the search given as the estimator when it runs whole. The groups that
    scikit-learn's idiom gives a search, ``cross_validate(search, groups=g,
    params={"groups": g})``, are the search's, whether given or made of ``param_grid`` and
    ``inner_cv``: they split its inner folds (``inner_split``) or reach the fit of the search
    run whole (``search_groups``), never the fit of its estimator, which
    ``GridSearchCV.fit(X, y, groups=...)`` does not pass them to either; the outer splits
    get ``groups`` alone, as ``cross_validate``'s without routing. With routing on they
    are ``groups``, and a search run whole gets them where its cv splits by them, as
    ``cross_validate`` routes them; it gets, as there, all that it requests in its fit (what
    its own scorer requests too: ``search_fit``). ``selecting``: the keys of the scorers that
    select (None: every one).
    """
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
        search_groups, search_fit = None, {}
        if whole_search is not None:
            if groups is not None and get_routing_for_object(whole_search).consumes(
                "fit", ["groups"]
            ):
                search_groups = groups
            search_fit = _search_fit_params(owner, whole_search, metadata)
        return RoutedParams(
            dict(routed.estimator.fit), score_params, outer_split, inner_split,
            search_groups=search_groups, search_fit=search_fit,
        )  # fmt: skip
    split = {"groups": groups} if groups is not None else {}
    fit = dict(params)
    search_groups = fit.pop("groups", None)
    inner_split = dict(split) if search_groups is None else {"groups": search_groups}
    if search_groups is None and whole_search is not None and groups is not None:
        # the run's groups, where the search run whole splits by them (NestedCV.fit cannot
        # take them twice, as cross_validate(search, groups=g, params={"groups": g}) does)
        if splits_by_groups(whole_search.cv):
            search_groups = groups
    if selecting is not None:
        scorers = {name: scorers[name] for name in selecting}
    return RoutedParams(
        fit, {}, split, inner_split, _selection_weights(owner, scorers, fit),
        search_groups=search_groups if whole_search is not None else None,
    )  # fmt: skip


def _search_fit_params(owner, search, metadata):
    """What ``search`` run whole requests in its fit among ``metadata``, as ``cross_validate``
    routes them to it: its estimator's, its splitter's and its own scorer's requests."""
    consumed = get_routing_for_object(search).consumes("fit", list(metadata))
    if not consumed:
        return {}
    router = MetadataRouter(owner=owner).add(
        search=search, method_mapping=MethodMapping().add(caller="fit", callee="fit")
    )
    given = {name: value for name, value in metadata.items() if name in consumed}
    return dict(process_routing(router, "fit", **given).search.fit)


def _selection_weights(owner, scorers, params):
    """What the inner selection's scorers receive without routing: ``sample_weight`` for each
    scorer that takes it, as scikit-learn's searches (1.7 and later) give it, with a warning
    naming any that does not; None without weights. The outer test scores are unweighted, as
    ``cross_validate``'s are without routing."""
    weights = params.get("sample_weight")
    if weights is None:
        return None
    accepted = {}
    for name, scorer in scorers.items():
        accept = getattr(scorer, "_accept_sample_weight", None)
        if accept() if accept is not None else "sample_weight" in signature(scorer).parameters:
            accepted[name] = {"sample_weight": weights}
        else:
            warnings.warn(
                f"The scoring {name}={scorer} of {owner} does not take sample_weight: the "
                "candidates are fitted with the weights and scored without them, which may "
                "select another model than weighted scores would.",
                UserWarning,
                stacklevel=external_stacklevel(),
            )
    return accepted
