"""The input of a nested run, checked once before the first fit, and the early-stopping policy."""

import inspect
import sys
import warnings
from dataclasses import dataclass

import numpy as np
from scipy.sparse import issparse
from sklearn import config_context, get_config
from sklearn.base import is_classifier, is_regressor
from sklearn.utils import indexable
from sklearn.utils.metadata_routing import MetadataRequest, get_routing_for_object
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import _num_samples, check_consistent_length, has_fit_parameter

from ...exceptions import RowOrderWarning, SklearnFairWarning, UnweightedValidationWarning
from ...utils import check_graphs, is_graph_data, read_graph_labels
from ...utils._graphs import torch_state_kept
from ...utils._stacklevel import external_stacklevel
from ...utils._validation import labels_1d
from ._candidates import configure

__all__ = [
    "CheckedData",
    "check_rows_line_up",
    "check_target_kind",
    "early_stopping_policy",
    "check_dense_y",
    "prepare_data",
]

_EARLY_STOPPING = ("auto", "protocol", "estimator")


def check_labels(y, name="y"):
    """Reject NaN (or None) labels, and infinite ones in y, naming where they are; ``name``:
    what the labels are (``"groups"``: a row without a group cannot be kept apart from any)."""
    if y is None:
        return
    values = np.asarray(y)
    if values.dtype.kind == "f":
        missing, infinite = np.isnan(values), np.isinf(values)
    elif values.dtype.kind == "O":
        missing = np.array([_missing(v) for v in values.ravel()], dtype=bool)
        infinite = np.zeros(0, dtype=bool)
    elif values.dtype.kind in "mM":  # dates or durations (a visit's date as its group)
        missing, infinite = np.isnat(values), np.zeros(0, dtype=bool)
    else:
        return
    problems = [
        (missing, "NaN or missing", "remove or impute them"),
        (infinite, "infinite", "remove them"),
    ]
    if name == "groups":  # a group labelled infinity is a group like any other
        problems = [(missing, "NaN or missing", "give those rows their group or remove them")]
    for bad, what, fix in problems:
        rows = bad.reshape(len(bad), -1).any(axis=1) if bad.ndim > 1 else bad
        where = np.flatnonzero(rows)
        if where.size:
            more = "..." if where.size > 10 else ""
            index = getattr(y, "index", None)
            pandas = sys.modules.get("pandas")
            labels = (  # a pandas y's row labels, which .loc reads, where not the positions
                f" (index labels {index[where[:10]].tolist()}{more})"
                if pandas is not None
                and isinstance(index, pandas.Index)
                and not index.equals(pandas.RangeIndex(len(index)))
                else ""
            )
            raise ValueError(
                f"{name} contains {int(bad.sum())} {what} value(s), "
                f"{'in the rows ' if bad.ndim > 1 else ''}at positions "
                f"{where[:10].tolist()}{more}{labels}; {fix} before splitting."
            )


def _missing(value):
    """None, a float NaN, or pandas' NA and NaT (a nullable boolean or string y keeps pd.NA
    in an object array)."""
    if value is None or (isinstance(value, float) and value != value):
        return True
    pandas = sys.modules.get("pandas")  # only a pandas y can hold its missing values
    return pandas is not None and (value is pandas.NA or value is pandas.NaT)


def check_target_kind(estimator, y):
    """Refuse, before any fit, a target that the estimator's kind cannot learn from (a
    one-column y read as its column)."""
    y = labels_1d(y)
    if y is None or y.ndim != 1 or y.size == 0:
        return
    if is_classifier(estimator) and type_of_target(y) in ("binary", "multiclass"):
        classes = set(y.tolist())  # a set, as mixed label types cannot be sorted
        if len(classes) < 2:
            raise ValueError(
                f"y holds 1 class ({classes.pop()!r}); a classifier needs at least 2 "
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


@dataclass(frozen=True)
class CheckedData:
    """The data of a run, checked and made indexable once (:func:`prepare_data`)."""

    X: object
    y: object  # an array (or None), for the splits and the checks
    groups: object
    y_given: object  # in the user's container (a Series): what fits and scorers receive
    without_x: bool = False  # graphs of which none has node features ('x')

    @property
    def n_samples(self):
        return _num_samples(self.X)


def check_dense_y(y, name="y"):
    """Refuse a sparse ``y``: ``np.asarray`` would make it a 0-d object array, and the run
    fail unclearly."""
    if issparse(y):
        raise ValueError(
            f"{name} is a sparse {type(y).__name__} of shape {y.shape}; nested "
            "cross-validation needs a dense y (its splits and checks read its values): pass "
            "y.toarray()."
        )


def graph_labels_unless_given(X, y):
    """``y``, or where it is None and ``X`` holds graphs, the labels of the graphs (as
    :meth:`NestedCV.fit` reads them)."""
    if y is not None:
        return y
    with torch_state_kept():
        return read_graph_labels(X) if is_graph_data(X) else None


def prepare_data(X, y, groups, params=None):
    """Labels of graph data, consistent lengths, and X made indexable: once, here; the fit
    ``params`` (name -> value) only checked, those of one value per sample lining up with X."""
    check_dense_y(y)
    without_x = False
    with torch_state_kept():
        if is_graph_data(X):
            # the check of GraphCollection and GraphClassifier, before any fit
            without_x = check_graphs(X)["x"] is None
            y = read_graph_labels(X) if y is None else y
    check_consistent_length(X, y, groups)
    check_rows_line_up(X, [("y", y), ("groups", groups), *(params or {}).items()])
    # as GridSearchCV does: sparse matrices to CSR, array-likes without __getitem__ to arrays
    X, y_given, groups = indexable(X, y, groups)
    groups = groups_1d(groups)
    check_labels(y_given)
    check_labels(groups, "groups")
    y = None if y_given is None else np.asarray(y_given)
    return CheckedData(X, y, groups, y_given, without_x)


def groups_1d(groups):
    """``groups`` as one label per row: one column (``df[["patient"]]``, shape ``(n, 1)``)
    read as that column, by the rule that reads a one-column ``y`` (``labels_1d``); None and
    1-D groups as they are. Groups of several columns are refused, naming their shape."""
    groups = labels_1d(groups)
    if groups is not None and np.ndim(groups) != 1:
        raise ValueError(
            f"groups must hold one group label per row (a 1-D array-like, or one column); got "
            f"shape {np.shape(groups)}. Pass the column that names the groups (e.g. "
            "df['patient']), or one label per row that combines several columns."
        )
    return groups


def check_rows_line_up(X, others, of=""):
    """A RowOrderWarning where pandas objects' indexes hold the same row labels in different
    orders: rows are paired by position (as in scikit-learn), which is right where one index
    was reset after a shuffle and gives each row another row's label where one was sorted.
    ``others``: ``(name, value)`` pairs, each checked against X, or where X has no index
    (an array), against the first of them that has one; ``of``: whose X they are (e.g. " of
    data set 'd'")."""
    pandas = sys.modules.get("pandas")
    if pandas is None:
        return
    indexed = [
        (name, values.index)
        for name, values in [("X", X), *others]
        if isinstance(getattr(values, "index", None), pandas.Index) and values.index.is_unique
    ]
    if not indexed:
        return
    (first, index), *rest = indexed
    for name, other in rest:
        if other.equals(index) or len(other) != len(index) or not other.isin(index).all():
            continue
        at = int(np.flatnonzero(np.asarray(other) != np.asarray(index))[0])
        mine, theirs = index[at : at + 1].tolist()[0], other[at : at + 1].tolist()[0]
        fix = (
            f"If they were not built in the same row order, put {name} in {first}'s: "
            f"{name}.loc[{first}.index]"
        )
        for reset, kept in ((name, first), (first, name)):
            if (other if reset == name else index).equals(pandas.RangeIndex(len(index))):
                # 0..n-1: an index reset after a shuffle, whose rows are in the other's order
                fix += (
                    f"; if {reset}'s index was reset after a shuffle (its rows in {kept}'s "
                    f"order), reset {kept}'s too: {kept}.reset_index(drop=True)"
                )
                break
        warnings.warn(
            f"{first} and {name}{of} hold the same row labels in different orders (position "
            f"{at}: {first}'s row {mine!r}, {name}'s row {theirs!r}). Their rows are paired by "
            f"position, as in scikit-learn. {fix}.",
            RowOrderWarning,
            stacklevel=external_stacklevel(),
        )


# -- early stopping ----------------------------------------------------------------------------


def consumes_validation_data(estimator):
    """Whether ``estimator.fit`` takes ``X_val``/``y_val`` and would early-stop on them. An
    ``early_stopping`` parameter must not be False, None or "auto" (HistGradientBoosting's
    "auto" would switch early stopping on merely because validation data arrive); an estimator
    whose early stopping hangs on other parameters says so with a ``_stops_early()`` method."""
    stops_early = getattr(estimator, "_stops_early", None)
    if callable(stops_early) and not stops_early():
        return False
    if not _fit_takes_validation_data(estimator):
        return False
    if get_config().get("enable_metadata_routing", False):
        return True
    early_stopping = estimator.get_params(deep=False).get("early_stopping", True)
    return not (early_stopping is None or early_stopping is False or early_stopping == "auto")


def _fit_takes_validation_data(estimator):
    """Whether ``fit`` takes ``X_val`` and ``y_val`` (with metadata routing: requests them)."""
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
    return "X_val" in accepted and "y_val" in accepted


def takes_validation_weights(estimator):
    """Whether ``fit`` takes ``sample_weight_val``, the weights of ``X_val`` (with metadata
    routing: requests it)."""
    if get_config().get("enable_metadata_routing", False):
        try:
            return bool(get_routing_for_object(estimator).consumes("fit", ["sample_weight_val"]))
        except (AttributeError, TypeError):
            return False
    try:
        return "sample_weight_val" in inspect.signature(estimator.fit).parameters
    except (TypeError, ValueError):
        return False


def validation_weights_key(estimator, fit_params):
    """The key of ``fit_params`` that holds the ``sample_weight`` of the model that early-stops
    on ``X_val`` and ``y_val`` (``estimator``, or a step of it), whose validation rows are
    weighed as its training rows are; None where it receives none. With metadata routing, the
    name it requests them under: "sample_weight", or its alias
    (``set_fit_request(sample_weight="w")``) where a router (a Pipeline) passes them on.
    Raises ValueError where several such models receive different weights: they would share
    one ``sample_weight_val``."""
    if not get_config().get("enable_metadata_routing", False):
        return "sample_weight" if fit_params.get("sample_weight") is not None else None
    try:
        routing = get_routing_for_object(estimator)
    except (AttributeError, TypeError):
        return None
    named = _stopping_weights(routing, "fit", own=True)
    keys = {key for key in named if fit_params.get(key) is not None}
    if len(keys) > 1:
        raise ValueError(
            f"{type(estimator).__name__} holds several models that early-stop on X_val and "
            f"y_val and are fitted with different weights ({sorted(keys)}), but the protocol's "
            "validation rows reach them with one sample_weight_val. Request the same weights "
            "for them (set_fit_request(sample_weight=...)), or pass "
            "early_stopping_split='estimator'."
        )
    return next(iter(keys), None)


def _stopping_weights(routing, method, own=False):
    """Under which names the consumers of ``routing`` whose ``method`` requests ``X_val`` and
    ``y_val`` receive their ``sample_weight``, following a router's mappings of ``method``:
    an alias where a router passes them on, the parameter's own name where the consumer is
    called directly (``own``: the estimator itself, or a router's own request)."""
    if isinstance(routing, MetadataRequest):
        try:
            if routing.consumes(method, ["X_val", "y_val"]) != {"X_val", "y_val"}:
                return
            request = getattr(routing, method).requests.get("sample_weight")
        except AttributeError:  # a method the consumer does not have
            return
        alias = isinstance(request, str) and request.isidentifier()  # not "$WARN$"
        if request is True or (own and alias):
            yield "sample_weight"
        elif alias:
            yield request
        return
    for name, (mapping, child) in routing:
        for caller, callee in mapping:
            if caller == method:
                yield from _stopping_weights(child, callee, own and name == "$self_request")


def _steps_transforming_before(pipeline, prefix=""):
    """The names of a Pipeline's steps before its last that transform X, where it routes
    ``X_val`` as given (its ``transform_input`` does not list it), and those of a Pipeline
    that is its last step or a TransformedTargetRegressor's regressor (whose own
    ``transform_input`` decides for its steps); [] for anything else. A sampler
    (``fit_resample``, no ``transform``) changes no feature."""
    if _is_target_transformer(pipeline):
        return _steps_transforming_before(pipeline.regressor, f"{prefix}regressor__")
    steps = getattr(pipeline, "steps", None)
    if not isinstance(steps, (list, tuple)) or not steps:  # Pipeline takes a tuple too
        return []
    found = []
    if "X_val" not in (getattr(pipeline, "transform_input", None) or ()):
        found = [
            prefix + name
            for name, step in steps[:-1]
            if step is not None and step != "passthrough" and hasattr(step, "transform")
        ]
    name, last = steps[-1]
    return found + _steps_transforming_before(last, f"{prefix}{name}__")


def _is_target_transformer(model):
    # by its module, not imported: sklearn.compose is not otherwise loaded in a worker
    if "sklearn.compose" not in sys.modules:
        return False
    return isinstance(model, sys.modules["sklearn.compose"].TransformedTargetRegressor)


def _targets_transformed_before(model, prefix=""):
    """The names (as ``get_params`` names them; "" for ``model`` itself) of the
    TransformedTargetRegressors on the way from ``model`` to the model that early-stops
    (through pipelines' last steps and their regressors) that transform y: one fits its
    regressor on the transformed y but routes ``y_val`` to it as given. Without ``func`` and
    ``transformer`` it transforms nothing (scikit-learn's identity)."""
    if _is_target_transformer(model):
        own = [prefix] if model.func is not None or model.transformer is not None else []
        return own + _targets_transformed_before(model.regressor, f"{prefix}regressor__")
    steps = getattr(model, "steps", None)
    if not isinstance(steps, (list, tuple)) or not steps:
        return []
    name, last = steps[-1]
    return _targets_transformed_before(last, f"{prefix}{name}__")


def _untransformed_validation_data(estimator, candidates, find=_steps_transforming_before):
    """What ``find`` finds on the way to the first model (``estimator``, or each of its
    ``candidates`` set on it) that early-stops on ``X_val`` which would reach it untransformed
    (by default, the steps that transform X, :func:`_steps_transforming_before`); [] where
    none would."""
    models = [configure(estimator, c) for c in candidates] if candidates else [estimator]
    for model in models:
        transforming = find(model)
        if transforming and consumes_validation_data(model):
            return transforming
    return []


def _routing_how(estimator=None, candidates=()):
    """How a pipeline's last step gets X_val and y_val: by metadata routing (on already, or
    to switch on) and the step's request; and, where earlier steps of ``estimator`` (or of a
    candidate set on it) transform X, the pipeline's ``transform_input``, without which the
    fit refuses the untransformed X_val."""
    request = "set_fit_request(X_val=True, y_val=True) on that step"
    models = [configure(estimator, c) for c in candidates] if candidates else [estimator]
    transforming = next(
        (found for model in models if (found := _steps_transforming_before(model))), []
    )
    if transforming:
        request += (
            f", and, as its steps {transforming} transform X, "
            "Pipeline(..., transform_input=['X_val'])"
        )
    if get_config().get("enable_metadata_routing", False):
        return f"{request} (metadata routing is on)"
    return f"sklearn.set_config(enable_metadata_routing=True) and {request}"


def _last_step_unreached(estimator, candidates):
    """The model that would early-stop on ``X_val`` and ``y_val`` had it been handed them
    (``estimator``, or one of the ``candidates`` set on it): the last step of a pipeline,
    which passes them on only with metadata routing, or, with metadata routing on, the
    estimator itself where it does not request them; None where there is none."""
    routing = get_config().get("enable_metadata_routing", False)
    models = [configure(estimator, c) for c in candidates] if candidates else [estimator]
    for model in models:
        if not routing and not _is_pipeline(model):
            continue  # without routing, a model that is not a pipeline gets what its fit takes
        last = model
        while _is_pipeline(last) and last.steps:
            last = last.steps[-1][1]
        # by its signature and parameters: with routing on, an unrequested step takes nothing
        with config_context(enable_metadata_routing=False):
            if consumes_validation_data(last):
                return last
    return None


def _is_pipeline(estimator):
    return isinstance(getattr(estimator, "steps", None), (list, tuple))


def early_stopping_policy(mode, estimator, search, owner, fit_params=(), candidates=()):
    """Whether the fits early-stop on the protocol's validation rows (``early_stopping_split``):
    where the estimator, or one of the ``candidates`` set on it, stops early; never for a
    search run whole (it splits its own data)."""
    if mode not in _EARLY_STOPPING:
        raise ValueError(
            f"The 'early_stopping_split' parameter of {owner} must be one of "
            f"{list(_EARLY_STOPPING)}. Got {mode!r} instead."
        )
    if mode == "estimator" or search is not None:
        return False
    consumes = consumes_validation_data(estimator) or (
        _fit_takes_validation_data(estimator)
        and any(consumes_validation_data(configure(estimator, c)) for c in candidates)
    )
    unreached = None if consumes else _last_step_unreached(estimator, candidates)
    name = type(estimator).__name__
    unrequested = unreached is not None and not _is_pipeline(estimator)
    if mode == "protocol" and not consumes:
        problem = f"{name}.fit does not take them (or its early stopping is off)"
        how = "Use early_stopping_split='estimator'."
        if unrequested:
            problem = (
                f"{name}.fit, which takes them, does not request them, and with metadata "
                "routing on a fit receives only what it requests"
            )
            how = (
                f"Call set_fit_request(X_val=True, y_val=True) on the {name}, or use "
                "early_stopping_split='estimator'."
            )
        elif unreached is not None:
            how = (
                f"Its last step {type(unreached).__name__} takes them, which a pipeline passes "
                f"on only with metadata routing: {_routing_how(estimator, candidates)}; or use "
                "early_stopping_split='estimator'."
            )
        raise ValueError(
            f"early_stopping_split='protocol' hands each fit its validation rows as X_val and "
            f"y_val, but {problem}. {how}"
        )
    if unrequested:  # mode "auto"
        warnings.warn(
            f"{owner} cannot hand the protocol's validation rows to {name}, which early-stops "
            "on X_val and y_val: with metadata routing on, its fit receives only what it "
            "requests, and it does not request them, so each fit early-stops on the "
            "estimator's own hold-out of its training rows, if it makes one "
            "(early_stopping_split='auto'). To early-stop on the protocol's validation rows: "
            f"set_fit_request(X_val=True, y_val=True) on the {name}; to accept the estimator's "
            "own, pass early_stopping_split='estimator'.",
            SklearnFairWarning,
            stacklevel=external_stacklevel(),
        )
    elif unreached is not None:  # mode "auto"
        warnings.warn(
            f"{owner} cannot hand the protocol's validation rows to "
            f"{type(unreached).__name__}, the last step of its {type(estimator).__name__}, "
            f"which early-stops on X_val and y_val: {type(estimator).__name__}.fit does not "
            "pass them on (a pipeline does only with metadata routing, to a step that requests "
            "them), so each fit early-stops on the estimator's own hold-out of its training "
            "rows, if it makes one (early_stopping_split='auto'). To early-stop on the "
            f"protocol's validation rows: {_routing_how(estimator, candidates)}; to accept the "
            "estimator's own, pass early_stopping_split='estimator'.",
            SklearnFairWarning,
            stacklevel=external_stacklevel(),
        )
    targets = []
    if consumes:
        targets = _untransformed_validation_data(estimator, candidates, _targets_transformed_before)
    if targets:
        name = type(estimator).__name__
        named = ", ".join(repr(t.removesuffix("__")) for t in targets if t)
        where = f"the {name}, whose func or transformer transforms y,"
        if named:
            where = f"its {named}, a TransformedTargetRegressor whose func or transformer "
            where += "transforms y,"
        raise ValueError(
            f"{owner} would hand the validation rows as y_val, as they are, to the model of "
            f"{name} that early-stops on them, while {where} fits that model on transformed "
            "targets: a TransformedTargetRegressor passes y_val on untransformed, so the "
            "model would early-stop on targets on another scale. Pass "
            "early_stopping_split='estimator' (the model then early-stops on its own hold-out "
            "of its training rows)."
        )
    transforming = _untransformed_validation_data(estimator, candidates) if consumes else []
    if transforming:
        raise ValueError(
            f"{owner} would hand the validation rows as X_val to the last step of "
            f"{type(estimator).__name__} as they are, while its steps {transforming} transform "
            "X: a Pipeline passes X_val untransformed unless its transform_input lists it, so "
            "the model would early-stop on features in another space. Pass "
            "Pipeline(..., transform_input=['X_val']), or early_stopping_split='estimator'."
        )
    given = sorted({"X_val", "y_val", "sample_weight_val"} & set(fit_params))
    if consumes and given:
        raise ValueError(
            f"{owner} hands each fit the protocol's own validation rows as X_val and y_val "
            f"(early_stopping_split={mode!r}), which would replace the {' and '.join(given)} "
            f"given to fit. To early-stop on your own validation data, pass "
            "early_stopping_split='estimator'; to early-stop on rows held out of each training "
            f"fold, drop {' and '.join(given)}."
        )
    if consumes and fit_params:  # weights among them, under some name
        _warn_unweighted_validation(mode, estimator, owner, candidates, fit_params)
    return consumes


def _warn_unweighted_validation(mode, estimator, owner, candidates, fit_params):
    """Warn where a model that early-stops on the protocol's validation rows cannot be given
    their weights (``sample_weight_val``): it trains weighted and stops on an unweighted
    validation loss."""
    routing = get_config().get("enable_metadata_routing", False)
    models = [configure(estimator, c) for c in candidates] if candidates else [estimator]
    for model in models:
        weighted = validation_weights_key(model, fit_params) is not None
        if not routing:
            weighted = weighted and has_fit_parameter(model, "sample_weight")
        if not weighted:
            continue  # it trains unweighted too (or refuses the weights itself)
        if consumes_validation_data(model) and not takes_validation_weights(model):
            how = (
                "does not request sample_weight_val (if it takes it: "
                "set_fit_request(sample_weight_val=True))"
                if routing
                else "does not take sample_weight_val"
            )
            warnings.warn(
                f"{owner} early-stops each fit on the protocol's validation rows "
                f"(early_stopping_split={mode!r}) and fits with sample_weight, but "
                f"{type(model).__name__}.fit {how}: the model trains on weighted rows and "
                "stops on an unweighted validation loss. Give its fit the validation rows' "
                "weights as sample_weight_val, or pass early_stopping_split='estimator'.",
                UnweightedValidationWarning,
                stacklevel=external_stacklevel(),
            )
            return
