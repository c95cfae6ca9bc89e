"""Everything checked before the first fit, for every model at once: each candidate by its
estimators' own parameter constraints, the splits against the data, columns of text reaching
an encoder; so that a run fails in seconds, not after the models before the faulty one ran
for hours.
"""

import sys
import warnings

import numpy as np

from ...benchmarking._benchmark import (
    check_same_outer_splits,
    check_two_outer_splits,
    metrics_apart,
)
from ...exceptions import ExperimentConfigError, SplitsMismatchError
from .._reading._config import check_per_sample, search_space
from .._reading._text import shown
from ._plan import candidate_estimator, plan_model

__all__ = ["check_before_fit"]


def _encoded_columns(step, columns):
    """The columns that ``step`` (a model's first step) turns into numbers."""
    if hasattr(step, "transformers") and hasattr(step, "remainder"):  # a ColumnTransformer
        covered, named = set(), set()
        for _, transformer, selected in step.transformers:
            selected = [selected] if isinstance(selected, (str, int)) else list(selected)
            if selected and all(isinstance(s, (bool, np.bool_)) for s in selected):
                # a boolean mask, as scikit-learn reads it (True is an int too)
                names = {column for column, kept in zip(columns, selected) if kept}
            else:
                names = {columns[s] if isinstance(s, int) else s for s in selected}
            named |= names
            if not (isinstance(transformer, str) and transformer == "passthrough"):
                covered |= names  # encoded, or dropped
        unknown = sorted(str(n) for n in named - set(columns))
        if unknown:
            return None, unknown
        if not isinstance(step.remainder, str) or step.remainder == "drop":
            covered |= set(columns) - named
        return covered, []
    if hasattr(step, "categories"):  # an encoder of every column (OneHotEncoder, ...)
        return set(columns), []
    return set(), []


def _check_text_columns(config, spec, X):
    from sklearn.dummy import DummyClassifier, DummyRegressor

    if not hasattr(X, "columns") or not hasattr(X, "dtypes"):
        return
    # scikit-learn's dummy estimators never read X; one after preprocessing steps is not
    # exempt, as those steps get the text
    if isinstance(spec.estimator, (DummyClassifier, DummyRegressor)):
        return
    text = [name for name, kind in zip(X.columns, X.dtypes) if kind.kind == "O"]
    if not text:
        return
    steps = getattr(spec.estimator, "steps", None)
    first = spec.estimator
    if steps:  # a sampler (fit_resample) before the encoder passes every column through
        first = next((s for _, s in steps if not hasattr(s, "fit_resample")), steps[0][1])
    covered, unknown = _encoded_columns(first, list(X.columns))
    key = ("models", spec.name, "preprocessing" if steps else "estimator")
    if unknown:
        raise config.source.error(key, f"names columns the data do not have: {unknown}.")
    missing = [name for name in text if name not in covered]
    if missing:
        raise config.source.error(
            key,
            f"the data's columns {missing} hold text, and model {spec.name!r} would get them "
            "as they are; encode them in a first preprocessing step, e.g. "
            '{ estimator = "sklearn.compose.ColumnTransformer", params = { transformers = '
            '[["onehot", { estimator = "sklearn.preprocessing.OneHotEncoder" }, '
            f'{missing}]], remainder = "passthrough" }} }}.',
        )


def _check_folds(config, dataset, spec, data):
    """Folds that only the data count (LeaveOneOut, LeavePOut...) within the limit, before any
    split: the protocol's splitters', and those of the estimator's own cross-validation (its
    parameters named ``cv``: RFECV, LogisticRegressionCV...), counted on all the data's rows
    (a fit sees fewer: a bound, as the splitter's own count grows with the rows)."""
    from sklearn.base import is_classifier
    from sklearn.model_selection import check_cv

    limits = config.limits
    y = None if data.y is None else np.asarray(data.y)
    classifier = is_classifier(spec.estimator)
    splitters = [
        (("protocol", name), dataset.protocol.get(name), "the splitter's number of splits")
        for name in ("outer_cv", "inner_cv")
    ] + [
        (
            key,
            value,
            f"the number of splits of the estimator's own {name}={value!r} on the "
            f"{data.n_samples} rows of data set {dataset.name!r}",
        )
        for key, name, value in _own_splitters(spec)
    ]
    for key, cv, what in splitters:
        if cv is None or isinstance(cv, int):
            continue  # a number of folds is checked where it is read
        try:
            n_splits = check_cv(cv, y, classifier=classifier).get_n_splits(data.X, y, data.groups)
        except (TypeError, ValueError):
            continue  # the planner (or the estimator) says what is wrong
        if isinstance(n_splits, int) and n_splits > limits.folds:
            raise config.source.error(key, limits.refusal("folds", n_splits, "folds", what))


def _own_splitters(spec):
    """``(key, parameter, splitter)`` of each splitter that the model's estimator, or an
    estimator among its grid's values, holds in a parameter named ``cv``."""
    from sklearn.model_selection import ParameterGrid

    def held(estimator, prefix=""):
        params = estimator.get_params(deep=True) if hasattr(estimator, "get_params") else {}
        for name, value in params.items():
            if name.rsplit("__", 1)[-1] == "cv" and hasattr(value, "get_n_splits"):
                yield prefix + name, value

    for name, value in held(spec.estimator):
        yield _params_key(spec, name), name, value
    for candidate in ParameterGrid(spec.grid) if spec.grid is not None else ():
        for param, value in candidate.items():
            inside = held(value, f"{param}__") if hasattr(value, "get_params") else ()
            own = [(param, value)] if hasattr(value, "get_n_splits") else []
            for name, splitter in [*own, *inside]:
                yield ("models", spec.name, "grid", param), name, splitter


def _broken_constraint(estimator):
    """``(deep name, error)`` of the first parameter of ``estimator``, or of an estimator
    inside it, that breaks its constraint; None if none does."""
    from sklearn.utils._param_validation import (
        InvalidParameterError,
        validate_parameter_constraints,
    )

    inside = estimator.get_params(deep=True).items()
    for prefix, part in [("", estimator), *((n, v) for n, v in inside if hasattr(v, "get_params"))]:
        constraints = getattr(part, "_parameter_constraints", None)
        if not isinstance(constraints, dict):
            continue
        for name, constraint in constraints.items():
            try:  # one parameter at a time, to know which (check_parameter_constraints's)
                validate_parameter_constraints(
                    {name: constraint}, {name: getattr(part, name)}, type(part).__name__
                )
            except InvalidParameterError as error:
                return (f"{prefix}__{name}" if prefix else name), error
    return None


def _holder(name, candidate, params):
    """``(parameter, value)`` where ``name`` sets a parameter of what a parameter before one
    of its "__" holds (in ``candidate``, else in ``params``) and that is no estimator (None,
    a number); None where it is one, or where no such parameter is found."""
    parts = name.split("__")
    for end in range(len(parts) - 1, 0, -1):
        holder = "__".join(parts[:end])
        for place in (candidate, params):
            if holder in place:
                value = place[holder]
                return None if hasattr(value, "set_params") else (holder, value)
    return None


def _params_key(spec, name):
    """The key of the file's ``params`` that sets the deep parameter ``name`` of the model
    (of a search's estimator, where the model is a search)."""
    key, parts, table = ("models", spec.name), name.split("__"), spec.raw
    if search_space(spec.estimator) is not None:
        key += ("params", "estimator")
        table = spec.raw.get("params", {}).get("estimator", {})
    elif "preprocessing" in spec.raw:  # a pipeline: the steps, then the file's estimator
        if parts[0] != spec.estimator.steps[-1][0]:
            return key + ("preprocessing",)
        parts = parts[1:]
    # params = { estimator = { ..., params = { C = ... } } }, as far as the file's tables go
    # (an estimator in a list, a Pipeline's steps, is named by its list's key)
    for part in parts:
        params = table.get("params") if isinstance(table, dict) else None
        if not isinstance(params, dict):
            break
        key += ("params",)
        if part not in params:
            break
        key, table = key + (part,), params[part]
    return key


def _no_estimator(name, holder, value):
    return (
        f"sets {shown(name)}, a parameter of what {shown(holder)} holds, but {shown(holder)} "
        f"holds {shown(value)}, not an estimator (nothing before '__' can be set); set "
        f"{shown(holder)} to an estimator, in params or in the grid, to name its parameters."
    )


def _check_candidates(config, spec, candidates, plan):
    base = spec.estimator if plan is None or plan.estimator is None else plan.estimator
    params = base.get_params(deep=True)
    for index, candidate in enumerate(candidates):
        try:
            broken = _broken_constraint(candidate_estimator(spec, candidate, plan))
        except AttributeError as error:  # set_params on what a parameter before "__" holds
            broken = None, error
            for name in candidate:
                if (held := _holder(name, candidate, params)) is not None:
                    # a key with "__" is written as it is (the planner checks a search's)
                    key = ("models", spec.name, "grid" if plan is None else "params", name)
                    raise config.source.error(key, _no_estimator(name, *held)) from None
        except (TypeError, ValueError) as error:  # a parameter set_params does not know
            broken = None, error
        if broken is None:
            continue
        name, error = broken
        if name is None or any(name == k or name.startswith(k + "__") for k in candidate):
            values, key = candidate.values(), ("models", spec.name, "grid")
            message = f"candidate {index} ({candidate!r}) cannot be set: {error}"
        else:  # the file's params, which no candidate sets
            values, key, message = [params.get(name)], _params_key(spec, name), str(error)
        if any(isinstance(v, str) and v.lower() in ("none", "null") for v in values):
            message += " TOML has no None: write it { none = true }."
        raise config.source.error(key, message) from None


def _check_one_metric(config, dataset, plans):
    """Refuse, as the file's fault, models that would be scored on ``dataset`` with different
    metrics (benchmark refuses them when the run starts; the report compares one metric per
    data set): with no ``[protocol] scoring``, each scores itself."""
    apart = metrics_apart(
        {
            name: plan.nested_plan.metric_names()[plan.nested_plan.refit_metric]
            for name, plan in plans.items()
        }
    )
    if apart is None:
        return
    shown = apart[1]
    why = (
        ""
        if dataset.protocol.get("scoring") is not None
        else ": with no scoring here, a search given as the estimator scores with its own "
        "scoring and any other model with its score method"
    )
    raise config.source.error(
        ("protocol", "scoring"),
        f"the models would be scored on data set {dataset.name!r} with different metrics "
        f"({shown}){why}. The report compares one metric per data set: give [protocol] "
        "scoring the metric to compare (a search still selects with its own).",
    )


def _check_outer_splits(config, dataset, plans):
    """Refuse, as the file's fault, the outer splits that benchmark refuses when the run
    starts (its own checks): models split apart (an unseeded shuffling splitter, a classifier
    and a regressor under an int outer_cv), or fewer than 2 splits."""
    nested_plans = {name: plan.nested_plan for name, plan in plans.items()}
    key = dataset.splits["key"] if dataset.splits else ("protocol", "outer_cv")
    try:
        check_same_outer_splits(dataset.name, nested_plans)
    except SplitsMismatchError as error:
        raise config.source.error(
            key,
            f"{error} In the file: give outer_cv a seeded splitter (outer_cv = {{ splitter = "
            '"sklearn.model_selection.KFold", params = { n_splits = 5, shuffle = true, '
            "random_state = 0 } }) or a splits_file.",
        ) from None
    try:
        check_two_outer_splits(dataset.name, nested_plans, dataset.protocol.get("outer_cv", 10))
    except ValueError as error:
        raise config.source.error(key, str(error)) from None


def _device_problem(device):
    """Why torch cannot fit on ``device`` on this machine, or None; not checked where torch
    was not imported (by a model of the file: the device is then none of torch's)."""
    torch = sys.modules.get("torch")
    if torch is None:
        return None
    try:
        parsed = torch.device(device)
    except (RuntimeError, TypeError, ValueError) as error:
        return f"torch does not know that device ({str(error).rstrip('.')})"
    backend = getattr(torch, parsed.type, None)  # torch.cuda, torch.mps, torch.xpu...
    if parsed.type == "cpu" or not hasattr(backend, "is_available"):
        return None
    if not backend.is_available():
        return f"torch.{parsed.type}.is_available() is False on this machine"
    count = backend.device_count() if hasattr(backend, "device_count") else None
    if parsed.index is not None and count is not None and parsed.index >= count:
        return f"this machine has {count} {parsed.type} device(s), numbered from 0"
    return None


def _check_devices(config):
    """Refuse the ``device`` of a model's torch network (skorch's NeuralNet, as
    GraphClassifier: the file's, or ``--device``) that torch cannot use here: else every fit
    of the model fails, after the other models ran. Another estimator's ``device`` (XGBoost's
    "gpu") is its own library's word, not checked."""
    skorch = sys.modules.get("skorch")
    if skorch is None:  # no network among the models
        return
    for spec in config.models.values():
        parts = [("", spec.estimator), *spec.estimator.get_params(deep=True).items()]
        for prefix, net in parts:
            device = getattr(net, "device", None)
            if not isinstance(net, skorch.NeuralNet) or device is None:
                continue
            name = f"{prefix}__device" if prefix else "device"
            if (problem := _device_problem(device)) is not None:
                raise ExperimentConfigError(
                    f"Model {shown(spec.name)}: its {name}={shown(device)} (the file's "
                    f"params, or --device) cannot be used: {problem}. Accepted: 'cpu', or a "
                    "device of this machine ('cuda', 'cuda:0'...)."
                )


def check_before_fit(config, loaded, *, planned_again=False):
    """``(data set, model)`` -> :class:`ModelPlan` (NestedCV's own, so what is checked is what
    runs), every model checked on every data set of ``loaded``; the same data with the same
    protocol are planned once. ``planned_again``: the run's benchmark plans every cell again
    before any fit and says the plans' warnings, naming the cells; they are not said here too."""
    from sklearn.model_selection import ParameterGrid

    _check_devices(config)
    for spec in config.models.values():
        if spec.grid is not None:  # the file's own grid: each candidate checked before planning
            _check_candidates(config, spec, ParameterGrid(spec.grid), None)
    plans, planned = {}, {}
    for name, dataset in config.datasets.items():
        if name not in loaded:  # cannot be read: the dry run says so; a run stops before
            continue
        data = loaded[name]
        if data.groups is not None and np.asarray(data.groups).shape[0] != data.n_samples:
            raise config.source.error(dataset.key + ("groups",), "has not one value per sample.")
        for spec in config.models.values():
            same = (id(data), id(dataset.protocol), spec.name)
            if same in planned:
                plans[name, spec.name] = planned[same]  # the same data and protocol
                continue
            check_per_sample(config, spec, data.n_samples)  # n_candidates="exhaust"
            _check_folds(config, dataset, spec, data)
            try:
                with warnings.catch_warnings():
                    if planned_again:
                        warnings.simplefilter("ignore")
                    plan = plan_model(config, dataset, spec, data)
            except ValueError as error:
                key = dataset.splits["key"] if dataset.splits else ("protocol",)
                what = "the splits do not" if dataset.splits else "the protocol does not"
                raise config.source.error(
                    key, f"{what} fit the data ({data.description}): {error}"
                ) from None
            if spec.grid is None and not plan.whole_search:  # a search's candidates, as drawn
                _check_candidates(config, spec, plan.candidates, plan)
            if data.complete:
                _check_text_columns(config, spec, data.X)
            plans[name, spec.name] = planned[same] = plan
        _check_outer_splits(config, dataset, {m: plans[name, m] for m in config.models})
        _check_one_metric(config, dataset, {m: plans[name, m] for m in config.models})
    return plans
