"""The ``[protocol]`` table: any parameter of NestedCV, plus a saved splits file.

Its keys are NestedCV's ``get_params()``, so a parameter added to NestedCV is accepted
without a change here; those the rest of the file sets are refused with where they go.
"""

import numbers

from ._text import shown

__all__ = ["RUNNER_KEYS", "check_protocol", "protocol_keys", "read_splits"]

SPLITS_FORMATS = ("sklearn-fair", "gnn-comparison")
#: Keys of [protocol] that belong to the runner, not to NestedCV.
RUNNER_KEYS = ("splits_file", "splits_format")
# NestedCV parameters set elsewhere in the file, with where.
_SET_ELSEWHERE = {
    "estimator": "each model's 'estimator'",
    "param_grid": "each model's 'grid' (or 'grid_preset')",
    "param_distributions": "each model's 'grid' (the runner has no random search)",
    "n_iter": "each model's 'grid' (the runner has no random search)",
    "n_jobs": "[experiment] n_jobs (or --n-jobs)",
    "random_state": "[experiment] random_state",
    "verbose": "[experiment] progress",
    "cache_dir": "[experiment] cache_dir",
}
# The runner's defaults where they differ from NestedCV's: it never uses the final model.
DEFAULTS = {"refit": False}


def protocol_keys():
    """The keys [protocol] accepts: NestedCV's parameters not set elsewhere, and the runner's."""
    from ...model_selection import NestedCV

    params = NestedCV(None).get_params(deep=False)
    return sorted(set(params) - set(_SET_ELSEWHERE)) + list(RUNNER_KEYS)


def _check_cv(builder, key, value, limits):
    expected = (
        "an integer number of folds or a splitter table "
        '{ splitter = "sklearn.model_selection.KFold", params = { ... } }'
    )
    if isinstance(value, dict):
        if value != {"none": True} and not isinstance(value.get("splitter"), str):
            # else built as a plain dict, which NestedCV fails to unpack as a split
            unknown = sorted(set(value) - {"splitter", "params"})
            got = shown(value)
            if unknown:
                got = f"a table with the unknown key(s) {', '.join(map(shown, unknown))}"
            raise builder.error(key, f"must be {expected}; got {got}.")
        splitter = builder.value(value, key)
        try:
            n_splits = splitter.get_n_splits()
        except (TypeError, ValueError, AttributeError):  # needs the data: checked with them
            n_splits = None
        if isinstance(n_splits, int) and n_splits > limits.folds:
            raise builder.error(
                key, limits.refusal("folds", n_splits, "folds", "the splitter's number of splits")
            )
        return splitter
    return _bounded(builder, key, value, 2, limits, "folds", expected)


def _bounded(builder, key, value, minimum, limits, limit, expected="an integer"):
    """``value``, an integer from ``minimum`` to the limit ``limit`` (its what: "the number
    of <limit>")."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise builder.error(key, f"must be {expected}; got {shown(value)}.")
    if value < minimum:
        raise builder.error(key, f"must be at least {minimum}; got {value}.")
    if value > getattr(limits, limit):
        raise builder.error(key, limits.refusal(limit, value, limit, f"the number of {limit}"))
    return value


def _check_scoring(builder, key, value):
    from ...metrics import get_scorer

    names = value if isinstance(value, list) else [value]
    if isinstance(value, dict):
        names = list(value.values())
    if not names:
        raise builder.error(key, f"must name at least one scorer; got {shown(value)}.")
    for name in names:
        if not isinstance(name, str):
            raise builder.error(
                key,
                f"must be a scorer name, a list of names or a table of names; got {shown(value)}.",
            )
        try:
            get_scorer(name)
        except ValueError:
            raise builder.error(
                key,
                f"unknown scorer {shown(name)}; see sklearn_fair.metrics.get_scorer_names().",
            ) from None
    return value


def check_protocol(builder, protocol, resolve, limits):
    """``(nested_kwargs, splits)`` of the [protocol] table: NestedCV's keyword arguments (the
    runner's defaults included; a splits file as ``outer_cv``) and :func:`read_splits`'s."""
    accepted = protocol_keys()
    if not isinstance(protocol, dict):
        raise builder.error(("protocol",), f"must be a table ([protocol]); got {shown(protocol)}.")
    for name in protocol:
        key = ("protocol", name)
        if name in _SET_ELSEWHERE:
            raise builder.error(key, f"is not set here; use {_SET_ELSEWHERE[name]}.")
        if name not in accepted:
            raise builder.error(
                key,
                f"unknown key; [protocol] accepts the parameters of NestedCV "
                f"({', '.join(k for k in accepted if k not in RUNNER_KEYS)}) and "
                f"{', '.join(RUNNER_KEYS)}.",
            )
    kwargs = dict(DEFAULTS)
    for name, value in protocol.items():
        key = ("protocol", name)
        if name in RUNNER_KEYS:
            continue
        if name in ("outer_cv", "inner_cv"):
            kwargs[name] = _check_cv(builder, key, value, limits)
        elif name == "n_refits":
            kwargs[name] = _bounded(builder, key, value, 1, limits, "refits")
        elif name == "scoring":
            kwargs[name] = _check_scoring(builder, key, value)
        elif name == "refit":
            if value is True:
                raise builder.error(
                    key,
                    "the runner fits no final model (a comparison needs none); refit is false, "
                    "or names the metric that selects when scoring has several.",
                )
            if not isinstance(value, (bool, str)):
                raise builder.error(key, f"must be false or a metric name; got {shown(value)}.")
            kwargs[name] = value
        else:
            kwargs[name] = builder.value(value, key)
            _check_nested_parameter(builder, key, name, kwargs[name])
    scoring = protocol.get("scoring")
    if isinstance(scoring, (list, dict)) and "refit" not in protocol:
        # else NestedCV refuses the runner's default refit=false, which the file never wrote
        names = list(scoring)
        raise builder.error(
            ("protocol", "scoring"),
            f"is a list or table of metrics, so [protocol] needs refit = {shown(names[0])} or "
            f"another of {names}: the metric that selects the hyper-parameters.",
        )
    if "splits_file" in protocol and "outer_cv" in protocol:
        raise builder.error(
            ("protocol", "outer_cv"), "give either outer_cv or splits_file, not both."
        )
    splits = read_splits(builder, protocol, ("protocol",), resolve, limits)
    if splits is not None:
        kwargs["outer_cv"] = splits["outer_cv"]
        if "inner_cv" in protocol and splits["splits"].inner_splits is not None:
            raise builder.error(
                ("protocol", "inner_cv"),
                "the splits file stores the inner splits of its folds, which would be used "
                "and inner_cv ignored: give either inner_cv or a splits file without inner "
                "splits, not both.",
            )
    return kwargs, splits


def read_splits(builder, table, key, resolve, limits):
    """The splits file that ``table`` (``[protocol]``, or a ``[data.NAME]`` table: its
    ``key``) names, as ``{"path", "format", "splits", "outer_cv", "key"}``; None if none."""
    where = key + ("splits_file",)
    if "splits_file" not in table:
        if "splits_format" in table:
            raise builder.error(key + ("splits_format",), "is only used with splits_file.")
        return None
    if not isinstance(table["splits_file"], str):
        raise builder.error(where, f"must be a path; got {shown(table['splits_file'])}.")
    path = resolve(table["splits_file"], where)
    if not path.is_file():
        raise builder.error(where, f"the splits file {str(path)!r} does not exist.")
    fmt = table.get("splits_format", "sklearn-fair")
    if fmt not in SPLITS_FORMATS:
        raise builder.error(
            key + ("splits_format",), f"must be one of {SPLITS_FORMATS}; got {shown(fmt)}."
        )
    from ...model_selection import PredefinedSplits, load_splits

    try:
        saved = load_splits(path, format=fmt, max_folds=limits.folds)
    except ValueError as error:
        message = str(error)
        if "max_folds" in message:
            message += f" The caller can lift the limit for one run: {limits.flag('folds')}."
        raise builder.error(where, message) from None
    outer_cv = PredefinedSplits(saved)
    return {"path": path, "format": fmt, "splits": saved, "outer_cv": outer_cv, "key": where}


def _check_nested_parameter(builder, key, name, value):
    """``value`` checked against NestedCV's constraint for ``name`` now, not at the first fit:
    a bad ``select`` passed the dry run, then stopped the run with a traceback."""
    from sklearn.utils._param_validation import (
        InvalidParameterError,
        validate_parameter_constraints,
    )

    from ...model_selection import NestedCV

    constraints = NestedCV._parameter_constraints.get(name)
    if constraints is None:
        return
    try:
        validate_parameter_constraints({name: constraints}, {name: value}, caller_name="NestedCV")
    except InvalidParameterError as error:
        raise builder.error(key, str(error)) from None
