"""The functional forms of NestedCV: drop-ins for cross_validate, cross_val_score and
cross_val_predict. Each builds a :class:`NestedCV` from its arguments (so every parameter has
one owner) and runs it without the final model on all the data."""

import inspect
import numbers
import warnings

import numpy as np
from sklearn import get_config
from sklearn.base import is_classifier
from sklearn.utils import get_tags
from sklearn.utils._param_validation import StrOptions, validate_params

from ...utils import fill_doc
from ...utils._scaling import mean_of
from ...utils._splits import time_ordered_splits
from ...utils._stacklevel import external_stacklevel
from .._saved_splits import _is_kfold
from ._candidates import configure
from ._data import fresh, is_pairwise, take
from ._docs import PARAMETER_DOCS
from ._estimator import PROTOCOL_CONSTRAINTS, NestedCV
from ._planning import make_plan
from ._protocol import run_protocol
from ._resampling import warn_generator_seeded_splitters
from ._seeds import function_random_state, unset_random_state_owners
from ._tasks import scores_deciding_the_class

__all__ = ["nested_cross_val_predict", "nested_cross_val_score", "nested_cross_validate"]

_VALIDATE_CONSTRAINTS = {
    **PROTOCOL_CONSTRAINTS,
    "X": ["array-like", "sparse matrix"],
    "y": ["array-like", None],
    "groups": ["array-like", None],
    "params": [dict, None],
    "cv": ["cv_object"],
    "outer_cv": ["cv_object"],
    "pre_dispatch": [numbers.Integral, str, None],
    "return_estimator": ["boolean"],
    "return_train_score": ["boolean"],
    "return_indices": ["boolean"],
    "return_nested_info": ["boolean"],
    "reuse_prefix": ["boolean"],
}
_PREDICT_METHODS = ("predict", "predict_proba", "predict_log_proba", "decision_function")


def _outer_cv(cv, outer_cv, owner):
    if cv is not None and outer_cv is not None:
        raise ValueError(
            f"{owner} takes the outer resampling as 'cv' or as its alias 'outer_cv', not both. "
            f"Got cv={cv!r} and outer_cv={outer_cv!r}."
        )
    if cv is None:
        return 5 if outer_cv is None else outer_cv  # 5: cross_validate's default
    return cv


#: The arguments of the functional forms that NestedCV takes as they are.
_PROTOCOL = set(inspect.signature(NestedCV).parameters) - {"estimator", "outer_cv"}


def _run(owner, args, check_plan=None, **run):
    """Build the NestedCV of a functional form from its arguments ``args`` and run it; returns
    ``(plan, results)``. ``pre_dispatch`` is accepted for compatibility and changes nothing."""
    if args["groups"] is not None and get_config().get("enable_metadata_routing", False):
        # scikit-learn's message for the same mistake
        raise ValueError(
            "`groups` can only be passed if metadata routing is not enabled via "
            "`sklearn.set_config(enable_metadata_routing=True)`. When routing is enabled, pass "
            "`groups` alongside other metadata via the `params` argument instead."
        )
    protocol = {name: value for name, value in args.items() if name in _PROTOCOL}
    protocol["random_state"] = function_random_state(protocol["random_state"])
    outer_cv = _outer_cv(args["cv"], args["outer_cv"], owner)
    nested = NestedCV(args["estimator"], outer_cv=outer_cv, **protocol)
    plan = make_plan(
        nested, args["X"], args["y"], args["groups"], args["params"] or {}, final=False,
        owner=owner, first_metric_selects=True, **run,
    )  # fmt: skip
    if plan.seeds.seeded:  # the splitter given splits as it is, on every call
        given = "outer_cv" if args["outer_cv"] is not None else "cv"  # as the user named it
        warn_generator_seeded_splitters(owner, {given: outer_cv}, each=f"call of {owner}")
    if check_plan is not None:
        check_plan(plan, outer_cv)
    (done,) = run_protocol(
        [plan], cache_dir=nested.cache_dir, n_jobs=nested.n_jobs, verbose=nested.verbose,
        reuse_prefix=nested.reuse_prefix,
    )  # fmt: skip
    return plan, done.results


def _cross_validate(owner, args):
    plan, results = _run(
        owner, args, return_estimator=args["return_estimator"],
        train_score=args["return_train_score"],
    )  # fmt: skip
    folds = results["outer_results"]
    output = {
        "fit_time": np.array([f["fit_time"] for f in folds]),
        "score_time": np.array([f["score_time"] for f in folds]),
    }
    if args["return_estimator"]:
        # the models whose scores are reported: the fold's one model with n_refits=1 (as
        # cross_validate), else the list of its refits (test_score is the mean of their scores)
        models = [f["estimators"] for f in folds]
        one = args["n_refits"] == 1
        output["estimator"] = [m[0] if one and m else (m if not one else None) for m in models]
    if args["return_indices"]:
        output["indices"] = {
            "train": [f["train_indices"] for f in folds],
            "test": [f["test_indices"] for f in folds],
        }
    names = list(folds[0]["test_scores_per_metric"])
    multimetric = plan.scoring.multimetric or names != ["score"]
    keys = {name: (name if multimetric else "score") for name in names}
    for name, key in keys.items():
        output[f"test_{key}"] = np.array(
            [mean_of(f["test_scores_per_metric"][name]) for f in folds]
        )
        if args["return_train_score"]:
            output[f"train_{key}"] = np.array(
                [mean_of(f["train_scores_per_metric"][name]) for f in folds]
            )
    # a number given as error_score reads as a score: the folds name the metrics they lack
    failed = [[keys[name] for name in f["failed_metrics"] if name in keys] for f in folds]
    if any(failed):
        output["failed_metrics"] = failed
    # a score that is the value its scorer sets where the metric is undefined, not measured
    undefined = [
        {keys[n]: message for n, message in f.get("undefined_metrics", {}).items() if n in keys}
        for f in folds
    ]
    if any(undefined):
        output["undefined_metrics"] = undefined
    if args["return_nested_info"]:
        if plan.scoring.selection_keys is not None:  # a search selected with its own metrics
            names = list(folds[0]["validation_scores"])
            keys = {name: name if len(names) > 1 else "score" for name in names}
        for name, key in keys.items():
            output[f"validation_{key}"] = np.array(
                [f["validation_scores"].get(name, np.nan) for f in folds]
            )
        output["best_params"] = [f["best_params"] for f in folds]
        output["refit_seeds"] = [f["refit_seeds"] for f in folds]
    return output


@validate_params(_VALIDATE_CONSTRAINTS, prefer_skip_nested_validation=False)
@fill_doc(PARAMETER_DOCS)
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
    pre_dispatch="2*n_jobs",
    return_train_score=False,
    return_estimator=False,
    return_indices=False,
    error_score=np.nan,
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
    return_nested_info=False,
    reuse_prefix=True,
    select="best",
):
    """Nested cross-validation, returning what ``cross_validate`` returns.

    The same engine and protocol as :class:`~sklearn_fair.NestedCV`, without the final model
    on all the data. The signature starts as
    ``cross_validate``'s, every argument with its meaning there, so ported code keeps working:
    ``cv`` is the outer resampling (5 folds by default, as in ``cross_validate``; NestedCV's
    default is the paper's 10), and a search passed as ``estimator`` keeps its own ``cv`` as
    the inner resampling unless ``inner_cv`` is given.
    ``cross_validate(GridSearchCV(est, grid, cv=3), X, y)`` becomes
    ``nested_cross_validate(GridSearchCV(est, grid, cv=3), X, y)``, or, with the search space
    given here, ``nested_cross_validate(est, X, y, param_grid=grid, inner_cv=3)``: pass one or
    the other, not a search and a grid.

    Parameters
    ----------
    {estimator}
    {X}
    {y}
    {groups}
    {scoring}
        A callable may return a dict of metrics, as in ``cross_validate``.
    {cv}
    {n_jobs}
    {verbose}
    {params}
    {pre_dispatch}
    return_train_score : bool, default=False
        Also score each refit on its outer training fold (``train_score`` or
        ``train_<name>``).
    return_estimator : bool, default=False
        Also return the models whose test scores are reported (``estimator``): with
        ``n_refits=1``, one model per outer fold, as in ``cross_validate``; otherwise one list
        per fold of the refits that ran, whose mean test score is that fold's ``test_score``.
        Each model is ``estimator`` (of a search given as ``estimator``, the search's own
        estimator) with the fold's selected hyper-parameters and its refit's seed, fitted on
        the outer training fold: what ``best_estimator_`` is to the fitted search that
        ``cross_validate(GridSearchCV(...), return_estimator=True)`` returns, not a search, so
        it has no ``best_params_``; the selected hyper-parameters are ``best_params``
        (``return_nested_info=True``). A model that could not be fitted is ``None``.
    return_indices : bool, default=False
        Also return ``indices``: ``{"train": [...], "test": [...]}``, the outer folds' rows.
    {error_score}
    {param_grid}
    {param_distributions}
    {n_iter}
    {inner_cv}
    {refit}
    {n_refits}
    {random_state_fixed}
    {cache_dir}
    {early_stopping_split}
    {fit_timeout}
    {outer_cv_alias}
    return_nested_info : bool, default=False
        Also return what the nested protocol adds: ``validation_score`` (or
        ``validation_<name>``, the winner's mean inner validation score, in the metrics that
        select: a search's own, when it has them), ``best_params`` and
        ``refit_seeds`` (per fold, the seeds of the refits that ran; ``None`` when nothing
        was left to seed).
    {reuse_prefix}
    {select}

    Returns
    -------
    results : dict
        ``cross_validate``'s keys: ``test_score`` (or ``test_<name>`` per metric), per fold the
        mean over its refits; ``fit_time`` and ``score_time`` (seconds per fold, all its fits
        summed, inner selection included); and ``train_*``, ``estimator`` and ``indices`` when
        asked; plus ours with ``return_nested_info``, and ``failed_metrics`` where a fold has
        no test score of a metric (its fit or scorer failed, and ``error_score`` stands in its
        ``test_<key>``): per fold, the list of those keys (:func:`~sklearn_fair.stats.compare`
        refuses such folds, whatever number ``error_score`` is); ``undefined_metrics`` where
        a fold's test score of a metric is not a measurement but the value its scorer sets
        where the metric is undefined (recall's ``zero_division`` on a fold without positives,
        as ``cross_validate`` scores it; an ``UndefinedMetricWarning`` names the fold): per
        fold, ``{key: the warning's message}``.

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
    ['fit_time', 'score_time', 'test_score']
    >>> sorted(nested_cross_validate(KNeighborsClassifier(), X, y, return_nested_info=True,
    ...                              param_grid={"n_neighbors": [1, 5, 15]}))
    ['best_params', 'fit_time', 'refit_seeds', 'score_time', 'test_score', 'validation_score']
    """
    return _cross_validate("nested_cross_validate", locals())


#: What nested_cross_val_score does not take, as nested_cross_validate's defaults.
_NOT_RETURNED = dict.fromkeys(("return_train_score", "return_estimator", "return_indices"), False)
_SCORE_CONSTRAINTS = {k: v for k, v in _VALIDATE_CONSTRAINTS.items() if k not in _NOT_RETURNED}


@validate_params(_SCORE_CONSTRAINTS, prefer_skip_nested_validation=False)
@fill_doc(PARAMETER_DOCS)
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
    pre_dispatch="2*n_jobs",
    error_score=np.nan,
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
    return_nested_info=False,
    reuse_prefix=True,
    select="best",
):
    """Per-fold nested test scores: a drop-in for ``cross_val_score``.

    Every argument of ``cross_val_score`` with its meaning there, then those of the protocol
    (see :func:`nested_cross_validate`).

    Parameters
    ----------
    {estimator}
    {X}
    {y}
    {groups}
    scoring : str or callable, default=None
        A single metric: that of the outer test scores (and of the selection, unless a search
        given as ``estimator`` selects with its own scoring, as in ``cross_val_score``).
    {cv}
    {n_jobs}
    {verbose}
    {params}
    {pre_dispatch}
    {error_score}
    {param_grid}
    {param_distributions}
    {n_iter}
    {inner_cv}
    {refit}
    {n_refits}
    {random_state_fixed}
    {cache_dir}
    {early_stopping_split}
    {fit_timeout}
    {outer_cv_alias}
    return_nested_info : bool, default=False
        Return the dict of :func:`nested_cross_validate` with ``return_nested_info=True``
        instead of the scores.
    {reuse_prefix}
    {select}

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
            f"or a callable). For evaluating multiple scores, use nested_cross_validate "
            f"instead. {scoring!r} was passed."
        )
    results = _cross_validate("nested_cross_val_score", {**locals(), **_NOT_RETURNED})
    returned = sorted(key.removeprefix("test_") for key in results if key.startswith("test_"))
    # as cross_val_score refuses any dict, after the fits ({"score": x} alone reads as x)
    if returned != ["score"]:
        raise ValueError(
            "The 'scoring' callable of nested_cross_val_score must return a number; it returned "
            f"a dict of the metrics {returned}. Use nested_cross_validate for several metrics."
        )
    return results if return_nested_info else results["test_score"]


def _check_partition(plan, cv):
    """Refuse outer splits that do not test every row exactly once, as cross_val_predict does,
    saying how many rows are tested never and how many more than once."""
    n_samples = plan.data.n_samples
    if _is_kfold(plan.outer_splits, n_samples):
        return
    tests = [test for _, test in plan.outer_splits]
    tested = np.bincount(np.concatenate(tests), minlength=n_samples)
    if time_ordered_splits(plan.outer_splits):
        # a k-fold splitter would test rows on models trained on later ones
        fix = (
            "Its splits are time-ordered: each tests only rows after all its training rows, "
            "so the first rows (and any that no split tests) have no prediction. For the "
            "predictions of the rows that are tested, call nested_cross_validate(..., "
            "return_estimator=True, return_indices=True) and predict each fold's test rows "
            "(result['indices']['test'][k]) with its model(s) (result['estimator'][k])."
        )
    else:
        fix = "Pass a k-fold splitter (an int, KFold, StratifiedKFold, GroupKFold)."
    raise ValueError(
        "nested_cross_val_predict only works for partitions: every row in exactly one test "
        f"fold, which the 'cv' parameter's {cv!r} does not make ({int(np.sum(tested == 0))} "
        f"of the {n_samples} rows are tested in no fold, {int(np.sum(tested > 1))} in more "
        f"than one). {fix}"
    )


def _check_method(plan, method):
    """Refuse, before any fit, a ``method`` that neither the estimator nor any candidate of
    its grid has (an unfitted model tells: ``available_if`` reads its parameters, SVC's
    ``probability`` or a pipeline's last step); a search that runs whole is not looked into,
    nor a model that shows no prediction method until fitted (a StackingClassifier whose
    ``final_estimator`` is None): its refits tell (:func:`_check_fitted_method`)."""
    if plan.search is not None:
        return
    models = [configure(plan.estimator, candidate) for candidate in plan.candidates]
    if any(hasattr(model, method) for model in models):
        return
    has = [name for name in _PREDICT_METHODS if hasattr(models[0], name)]
    if not has and any(_may_show_once_fitted(model, method) for model in models):
        return
    shown = " ".join(repr(plan.estimator).split())  # on one line
    raise ValueError(
        f"The 'method' parameter of {plan.owner} is {method!r}, but {shown}"
        f"{' and every candidate of its grid have' if len(models) > 1 else ' has'} no {method}: "
        "each fold's model would be fitted before the prediction failed. Pass one of the "
        f"methods it has: {has}."
    )


def _may_show_once_fitted(model, method):
    """Whether the class of ``model`` (of a pipeline's last step, within) defines ``method``,
    which a fitted one may show (a StackingClassifier's default final_estimator is made at
    fit); a pipeline ending in a transformer never shows it."""
    steps = getattr(model, "steps", None)
    if isinstance(steps, (list, tuple)) and steps:
        return _may_show_once_fitted(steps[-1][1], method)
    return hasattr(type(model), method)


def _check_fitted_method(plan, models, method, fold):
    """Refuse a ``method`` that the fitted ``models`` of outer ``fold`` lack, which their
    unfitted estimator did not tell (:func:`_check_method`)."""
    if all(hasattr(model, method) for model in models):
        return
    has = [name for name in _PREDICT_METHODS if hasattr(models[0], name)]
    shown = " ".join(repr(models[0]).split())  # on one line
    raise ValueError(
        f"The 'method' parameter of {plan.owner} is {method!r}, but the model refit in outer "
        f"fold {fold}, {shown}, has no {method}. Pass one of the methods it has: {has}."
    )


def refits_combined_by(estimator_type):
    """How the differing ``predict`` outputs of a fold's refits of a model without
    ``classes_`` are combined, by its ``estimator_type`` tag: "mean" for a regressor, "vote"
    for an outlier detector (whose labels are 1 and -1), else None: a clusterer's labels (each
    refit numbers its clusters its own way) or an untagged model's cannot be combined."""
    return {"regressor": "mean", "outlier_detector": "vote"}.get(estimator_type)


def _check_combinable(plan, method, n_refits):
    """Refuse, before any fit, several refits of a clusterer, whose cluster labels (and
    ``method``'s columns, one per cluster) each refit numbers its own way."""
    if len(plan.refit_seeds) < 2:
        return  # one refit a fold (no random_state left unset): nothing to combine
    models = (
        [plan.estimator]
        if plan.search is not None
        else [configure(plan.estimator, candidate) for candidate in plan.candidates]
    )
    # a clusterer whose own random_state is left unset: a seed of another step (a PCA's)
    # leaves its cluster numbering alone, and refits that differ anyway are warned of
    clusterer = next((c for m in models if (c := _unseeded_clusterer(m)) is not None), None)
    if clusterer is None:
        return
    shown = " ".join(repr(clusterer).split())  # on one line
    outputs = "cluster labels" if method == "predict" else f"{method} (a column a cluster)"
    raise ValueError(
        f"The 'n_refits' parameter of {plan.owner} is {n_refits}, but {shown} is a clusterer "
        f"whose random_state is left unset: each of the {len(plan.refit_seeds)} refits of an "
        f"outer fold would number its clusters its own way, and their {outputs} cannot be "
        "combined. Pass n_refits=1, or set the estimator's random_state."
    )


def _unseeded_clusterer(model):
    """The clusterer among ``model`` and its parts whose own ``random_state`` is left unset."""
    for owner in unset_random_state_owners(model).values():
        if owner is not None and get_tags(owner).estimator_type == "clusterer":
            return owner
    return None


def _ordered(own, output, method, classes):
    """``output`` of a model of the classes ``own`` with one column per class of the whole
    ``y``, as cross_val_predict's; a multi-output model's (a list, one array a label) label by
    label, with ``classes`` one array a column of ``y``."""
    from sklearn.model_selection._validation import _enforce_prediction_order

    if method == "predict" or classes is None or own is None:
        return output
    if isinstance(output, list):  # label by label, with the classes of each column of y
        if not isinstance(classes, list):
            return output
        return list(map(_ordered, own, output, [method] * len(output), classes))
    classes = _one_label(classes)
    if classes is None:
        return output  # one array for a 2-D y (a label indicator matrix): as it is
    encoded = np.searchsorted(classes, own)
    return _enforce_prediction_order(encoded, output, len(classes), method)


def _one_label(classes):
    """The classes of a model's one array of outputs: those of ``y``, those of its one column
    (a column vector ``y``, which a model takes as one label), or None (a label indicator
    matrix's, one array for several columns)."""
    if not isinstance(classes, list):
        return classes
    return classes[0] if len(classes) == 1 else None


def _check_has_classes(models, method):
    """Raise, as ``cross_val_predict`` does, where a fitted classifier has no ``classes_``:
    without it the columns of ``method``'s output cannot be put in the order of the classes
    of ``y``, and a fold whose training rows lack a class would give fewer of them."""
    for model in models:
        if not hasattr(model, "classes_"):
            raise AttributeError(
                f"'{type(model).__name__}' object has no attribute 'classes_': "
                f"nested_cross_val_predict(method={method!r}) reads the classes a classifier "
                "was fitted on to put the columns of each outer fold's predictions in the "
                "order of the classes of y, as cross_val_predict does. Set classes_ in the "
                "estimator's fit (the sorted classes of the y it was fitted on)."
            )


def _fold_predictions(models, X_test, method, classifier, classes):
    """One prediction from a fold's refits: their own where they all agree, else combined as
    :func:`nested_cross_val_predict` says."""
    if method != "predict" and classes is not None:
        _check_has_classes(models, method)

    # each call of several refits reads its own copy of the rows as given, whatever an earlier
    # one wrote into them (a StandardScaler(copy=False)); a single refit reads them once
    def rows():
        return X_test if len(models) == 1 else fresh(X_test)

    outputs = [
        _ordered(getattr(m, "classes_", None), getattr(m, method)(rows()), method, classes)
        for m in models
    ]
    if all(_same(output, outputs[0]) for output in outputs[1:]):
        return outputs[0]
    if isinstance(outputs[0], list):  # a multilabel model's probabilities, one array a label
        return [
            _missing_classes_filled(
                _averaged([o[k] for o in outputs], method),
                [m.classes_[k] for m in models],
                classes[k] if isinstance(classes, list) else None,
                method,
            )
            for k in range(len(outputs[0]))
        ]
    owns = [getattr(m, "classes_", None) for m in models]
    own = owns[0]
    if not classifier and own is None and method == "predict":
        estimator_type = get_tags(models[0]).estimator_type
        combined_by = refits_combined_by(estimator_type)
        if combined_by == "vote":  # an outlier detector's labels: their majority vote
            return refits_class(outputs, None, None)
        if combined_by is None:
            model = " ".join(repr(models[0]).split())
            warnings.warn(
                f"The {len(models)} refits of {model} predict differently, and it is tagged "
                "neither a regressor, a classifier nor an outlier detector (its "
                f"__sklearn_tags__().estimator_type is {estimator_type!r}), so their "
                "predictions cannot be combined: nested_cross_val_predict gives the first "
                "refit's. Give the estimator scikit-learn's RegressorMixin or ClassifierMixin, "
                "or pass n_refits=1.",
                UserWarning,
                stacklevel=external_stacklevel(),
            )
            return outputs[0]
    if method != "predict" or (not classifier and own is None):
        return _missing_classes_filled(_averaged(outputs, method), owns, classes, method)
    # over the fold's own classes, which its refits share: a class that the training rows lack
    # cannot be predicted, so no column is added for it (binary decision values stay one column)
    decided_by = classes if own is None else own
    shared = all(_same(o, own) for o in owns[1:])
    if not shared:
        # refits that learned different classes (a sampler that drops a rare class): their
        # probabilities over the classes of the whole y, a refit's missing class at 0; their
        # decision values, of no common columns, vote
        decided_by = None if is_per_label(own) else _one_label(classes)
    for richer in scores_deciding_the_class(models[0]):
        if not shared and (decided_by is None or richer != "predict_proba"):
            continue
        if all(hasattr(m, richer) for m in models):
            try:
                values = [getattr(m, richer)(rows()) for m in models]
            except (AttributeError, NotImplementedError):
                continue
            if not shared:
                values = [_ordered(o, v, richer, decided_by) for o, v in zip(owns, values)]
            return refits_class(outputs, values, decided_by, proba=richer == "predict_proba")
    return refits_class(outputs, None, own if decided_by is None else decided_by)


def _same(a, b):
    if isinstance(a, list):
        return len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))
    return np.array_equal(a, b)


def _averaged(outputs, method):
    if method == "predict_log_proba":
        return np.log(np.mean([np.exp(o) for o in outputs], axis=0))
    return np.mean(outputs, axis=0)


def _missing_classes_filled(output, owns, classes, method):
    """``output`` (averaged over refits of the classes ``owns``, one array a refit) with
    cross_val_predict's fill (the averaged fill overflowed, or took log(0)) in the columns of
    the classes that the fold's training rows lack: for log-probabilities those that no refit
    learned, for decision values those that any refit lacks (whose fill, far below any decision
    value, would make their average a meaningless number)."""
    classes = _one_label(classes)
    if method not in ("decision_function", "predict_log_proba") or classes is None:
        return output
    if any(own is None for own in owns):
        return output  # not put in the columns of the classes (_ordered)
    learned = [np.isin(classes, own) for own in owns]
    missing = (
        ~np.any(learned, axis=0) if method == "predict_log_proba" else ~np.all(learned, axis=0)
    )
    if output.ndim == 2 and output.shape[1] == len(classes) and missing.any():
        output[:, missing] = np.finfo(output.dtype).min
    return output


def refits_class(predictions, scores, classes, *, proba=False):
    """The class of several classifier refits of one fold: that of their averaged ``scores``
    (probabilities or decision values, one per refit) where each refit's own prediction is the
    class of its scores, else (or without scores: None) the majority vote of their
    ``predictions``; a multilabel model's ``classes`` label by label, and with one array of
    label indices as ``classes`` (OneVsRestClassifier, MLPClassifier) its votes label by
    label.

    ``proba`` says whether the ``scores`` of a multilabel model that gives one column a label
    (a ClassifierChain's, also as kept lists of rows) are probabilities of the label, which
    point to it above 0.5, or decision values, above 0."""
    if is_per_label(classes):
        if scores is not None and (
            isinstance(scores[0], np.ndarray) or np.ndim(scores[0][0]) == 1
        ):  # one column a label, not one array a label
            scores = _label_columns(scores, proba)
        return np.column_stack(
            [
                refits_class(
                    [np.asarray(p)[:, k] for p in predictions],
                    None if scores is None else [_of_label(s, k) for s in scores],
                    label_classes,
                )
                for k, label_classes in enumerate(classes)
            ]
        )
    if np.ndim(predictions[0]) == 2:  # multilabel, one array of label indices as classes_
        return np.column_stack(
            [
                refits_class([np.asarray(p)[:, k] for p in predictions], None, classes)
                for k in range(np.shape(predictions[0])[1])
            ]
        )
    if scores is not None and np.ndim(scores[0]) == 2 and np.shape(scores[0])[1] != len(classes):
        scores = None  # not one column a class (one-vs-one decision values): their vote
    if scores is not None and all(
        np.array_equal(_class_of(score, classes), prediction)
        for score, prediction in zip(scores, predictions)
    ):
        return _class_of(np.mean(np.asarray(scores, dtype=float), axis=0), classes)
    # a refit whose own predict is not the class of its scores (a tuned or fixed threshold)
    # decides by its predict: the majority vote, a tie going to the earliest refit's class
    votes = np.array(predictions)
    return np.array([max(dict.fromkeys(col), key=col.tolist().count) for col in votes.T])


def _class_of(scores, classes):
    """The class that probabilities or decision values (binary: one column) point to."""
    scores = np.asarray(scores, dtype=float)
    if scores.ndim == 1:
        return np.asarray(classes)[(scores > 0).astype(int)]
    return np.asarray(classes)[np.argmax(scores, axis=1)]


def _label_columns(scores, proba):
    """The refits' ``scores`` of one column a label (arrays or kept lists of rows) as arrays:
    their decision values, or their probabilities of the label as two columns a label,
    P(label=0) and P(label=1), whose class is that of the larger (:func:`refits_class`)."""
    scores = [np.asarray(score, dtype=float) for score in scores]
    return [np.stack([1 - score, score], axis=-1) for score in scores] if proba else scores


def _of_label(scores, k):
    """Label ``k``'s probabilities (a list, one array a label) or scores (:func:`_label_columns`:
    its column)."""
    return scores[k] if isinstance(scores, list) else np.asarray(scores)[:, k]


def is_per_label(classes):
    """Whether ``classes`` are a multilabel model's ``classes_``: one array a label."""
    return isinstance(classes, (list, tuple)) and len(classes) > 0 and np.ndim(classes[0]) == 1


@validate_params(
    {
        **{k: v for k, v in _SCORE_CONSTRAINTS.items() if k != "return_nested_info"},
        "method": [StrOptions(set(_PREDICT_METHODS))],
    },
    prefer_skip_nested_validation=False,
)
@fill_doc(PARAMETER_DOCS)
def nested_cross_val_predict(
    estimator,
    X,
    y=None,
    *,
    groups=None,
    cv=None,
    n_jobs=None,
    verbose=0,
    params=None,
    pre_dispatch="2*n_jobs",
    method="predict",
    scoring=None,
    error_score=np.nan,
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
    reuse_prefix=True,
    select="best",
):
    """Out-of-fold predictions of a tuned model: a drop-in for ``cross_val_predict``.

    Each row's prediction comes from the model selected and refit without that row: the outer
    fold that tests it tunes the hyper-parameters on its training rows only (the inner
    selection), refits the winner there and predicts the test rows. These are the predictions
    to draw ROC curves, calibration plots and confusion matrices from; with
    ``cross_val_predict`` on an untuned model, or on the model tuned on all the data, they
    would be optimistic. For a deterministic estimator the result equals
    ``cross_val_predict(GridSearchCV(...))``.

    With several refits (``n_refits`` and a ``random_state`` left unset) whose outputs
    differ, they are combined: ``predict_proba`` and ``decision_function`` are averaged over
    the refits (a multilabel model's probabilities label by label; the column of a class
    that the fold's training rows lack keeps ``cross_val_predict``'s fill),
    ``predict_log_proba`` is the log of the averaged probabilities, and ``predict`` gives a
    classifier's class of the averaged probabilities (of the averaged decision values when
    there are none), a regressor's mean prediction and an outlier detector's majority vote (a
    model with ``classes_`` counts as a classifier, tagged or not). A clusterer's refits
    number their clusters each its own way: several of them are refused (pass
    ``n_refits=1``), and of a model tagged none of these the first refit's predictions are
    given, with a warning. A classifier whose own ``predict`` is not the class of its
    scores (a ``FixedThresholdClassifier``, a ``TunedThresholdClassifierCV``, also as the last
    step of a pipeline), whose decision values are one-vs-one (``SVC(probability=False,
    decision_function_shape="ovo")``), or that has no scores, gives the majority vote of its
    refits' predictions; a tie goes to the class of the earliest refit among those tied. A
    multilabel model whose ``classes_`` is one array of label indices (a
    ``OneVsRestClassifier``) votes label by label. Refits of one fold that learned different
    classes (a sampler that drops a rare class in some of them) give a class they lack the
    probability 0, and the column of their decision values for it ``cross_val_predict``'s
    fill; their ``predict`` is then the class of the averaged probabilities, or without
    probabilities the majority vote.

    Parameters
    ----------
    {estimator}
    {X}
    {y}
    {groups}
    {cv}
        It must be a partition (every row tested exactly once), as in ``cross_val_predict``.
    {n_jobs}
    {verbose}
    {params}
    {pre_dispatch}
    method : {"predict", "predict_proba", "predict_log_proba", "decision_function"}, \
default="predict"
        The method of the refitted models. For the probability and decision methods the
        columns follow the sorted classes of the whole ``y`` (a fold that lacks a class gets
        its column filled as ``cross_val_predict`` does).
    scoring : str, callable, list, dict or None, default=None
        The metric(s) of the inner selection (a search given as ``estimator`` selects with
        its own). No outer test score is returned, as in ``cross_val_predict``: one that
        cannot be computed (a metric undefined on a one-row test fold) neither raises nor
        warns.
    error_score : 'raise' or float, default=np.nan
        Score of a failed selection fit (a search given as ``estimator`` keeps its own). A
        fold without a model (every candidate failed) or a failed refit raises: a prediction
        cannot be made up.
    {param_grid}
    {param_distributions}
    {n_iter}
    {inner_cv}
    {refit}
    {n_refits}
    {random_state_fixed}
    {cache_dir}
    {early_stopping_split}
    {fit_timeout}
    {outer_cv_alias}
    {reuse_prefix}
    {select}

    Returns
    -------
    predictions : ndarray
        One prediction (or row of probabilities / decision values) per row of ``X``.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.svm import SVC
    >>> from sklearn_fair import nested_cross_val_predict
    >>> X, y = load_iris(return_X_y=True)
    >>> predictions = nested_cross_val_predict(SVC(), X, y, param_grid={"C": [0.1, 10]})
    >>> predictions.shape, bool((predictions == y).mean() > 0.9)
    ((150,), True)
    """
    plan, results = _run(
        "nested_cross_val_predict", locals(), return_estimator=True, quiet_test_scores=True,
        check_plan=lambda plan, cv: (
            _check_method(plan, method), _check_partition(plan, cv),
            _check_combinable(plan, method, n_refits),
        ),
    )  # fmt: skip
    data = plan.data
    y_array = None if data.y is None else np.asarray(data.y)
    classifier = is_classifier(plan.estimator)
    classes = None  # of the whole y: an array, or one a column of a 2-D y
    if classifier and y_array is not None and y_array.ndim == 1:
        classes = np.unique(y_array)
    elif classifier and y_array is not None and y_array.ndim == 2:
        classes = [np.unique(column) for column in y_array.T]
    pieces, order = [], []
    for fold, result in enumerate(results["outer_results"]):
        models = [m for m in result.get("estimators", []) if m is not None]
        if result["selection_failed"] or not models or len(models) < len(result["refit_seeds"]):
            raise ValueError(
                f"{plan.owner} has no model for outer fold {fold}: "
                f"{result['selection_failed'] or 'its refit failed'}"
            )
        train, test = plan.outer_splits[fold]
        _check_fitted_method(plan, models, method, fold)
        X_test = take(data.X, test)
        if is_pairwise(models[0]):
            X_test = X_test[:, train]
        pieces.append(_fold_predictions(models, X_test, method, classifier, classes))
        order.append(np.asarray(test))
    # the test folds are a partition (_check_partition): argsort inverts their concatenation
    inverse = np.argsort(np.concatenate(order))
    if isinstance(pieces[0], list):  # a multilabel model's probabilities: one array a label
        return [np.concatenate([p[k] for p in pieces])[inverse] for k in range(len(pieces[0]))]
    return np.concatenate(pieces)[inverse]
