"""Reading and checking an experiment file, before anything expensive runs."""

import os
import re
import stat
import sys
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from sklearn.utils._param_validation import validate_params

from ...exceptions import ExperimentConfigError
from ...utils import N_JOBS_CONSTRAINTS, NonZeroInt
from ...utils._printing import quoted_names, unclear_name
from ...utils._tu_format import FEATURE_SCHEMES
from ._build import Builder, refused
from ._imports import ALLOWED_PACKAGES
from ._limits import (
    Limits,
    check_document,
    count_candidates,
    parse_limits,
    prescan_toml,
    read_text,
)
from ._locate import ConfigSource
from ._paths import data_dir_from, file_kind, resolve_path
from ._protocol import RUNNER_KEYS, check_protocol, read_splits
from ._text import file_name, neutral, shown

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

# table -> key -> (accepted types, description of what is accepted)
_SCHEMA = {
    "experiment": {
        "name": (str, "a string"),
        "output_dir": (str, "a folder path (relative to the experiment file)"),
        "random_state": (int, "an integer from 0 to 4294967295 (2**32 - 1)"),
        "n_jobs": (int, "an integer"),
        "backend": (str, "a joblib backend name"),
        "cache_dir": (str, "a folder path (relative to the experiment file)"),
        "progress": (bool, "true or false"),
    },
    "data": {
        "dataset": (str, "'sklearn:NAME', 'csv' or 'tu:NAME'"),
        "path": (str, "a CSV file path (relative to the experiment file)"),
        "target": (str, "the name of the CSV's target column"),
        "groups": (str, "the name of the CSV's column of groups"),
        "root": (str, "the TU data sets folder (relative to the experiment file)"),
        "features": (str, "a node-feature scheme of sklearn_fair.graph.load_tu_dataset"),
        "drop_degenerate": (bool, "true or false"),
    },
}
_DATA_KEYS = {
    "csv": {"path", "target", "groups"},
    "tu:": {"root", "features", "drop_degenerate"},
    "sklearn:": set(),
}
_MODEL_KEYS = {
    "estimator": (str, "the dotted name of an estimator class"),
    "params": (dict, "a table of constructor parameters"),
    "grid": ((dict, list), "a table of lists, or an array of such tables"),
    "grid_preset": (str, "a named grid, e.g. 'sklearn_fair.graph.PAPER_GRIDS:GIN'"),
    "preprocessing": (list, "a list of steps fitted before the estimator"),
}
BACKENDS = ("loky", "threading", "multiprocessing", "dask")
_BENCHMARK = {
    "baseline": (str, "the name of one of the [models.NAME] tables"),
    "baseline_floor": (bool, "true or false"),
}


@dataclass
class ModelSpec:
    """One model of an experiment: its estimator, its grid and its raw table."""

    name: str
    estimator: object
    grid: object
    raw: dict
    #: ``(candidates per sample, key)`` of a search that draws one candidate per sample of
    #: the data, checked against the limit with the data; else None
    per_sample: object = None


@dataclass
class DataSet:
    """One data set of an experiment: its ``[data]`` (or ``[data.NAME]``) table, paths
    resolved, and NestedCV's keyword arguments on it (its own splits file as ``outer_cv``)."""

    name: str
    data: dict
    protocol: dict
    splits: object = None
    key: tuple = ("data",)  # where its table is, for errors


@dataclass
class ExperimentConfig:
    """A checked experiment file; made by :func:`load_config`.

    Attributes
    ----------
    path : pathlib.Path
        The experiment file.
    name : str
        The experiment's name (default: the file's stem).
    output_dir : pathlib.Path
        The results folder (default: ``<stem>_results`` beside the file).
    random_state, n_jobs, backend, progress : int, int, str, bool
        ``[experiment]``'s seed of every NestedCV, parallel jobs, joblib backend and
        progress bars.
    cache_dir : pathlib.Path or None
        NestedCV's task cache, when set.
    data, protocol, splits : dict, dict, dict or None
        Those of the first data set (see ``datasets``): its table, paths resolved;
        NestedCV's keyword arguments from ``[protocol]`` (a splits file as ``outer_cv``,
        the runner's ``refit=False`` included); its splits file (``path``, ``format``,
        ``splits``).
    datasets : dict of str to DataSet
        Every data set: the one ``[data]`` table (named after its data set, e.g. ``iris``),
        or each ``[data.NAME]`` table of a file with several (then ``several`` is True).
    several : bool
    baseline : str or None
        ``[benchmark] baseline``: the model the others are compared with.
    baseline_floor : bool
        ``[benchmark] baseline_floor``: the baseline is a chance-level floor (a
        ``DummyClassifier``), not tuned like the models (default False).
    models : dict of str to ModelSpec
        The models, in file order.
    source, data_dir, limits : ConfigSource, pathlib.Path or None, Limits
        The file's text (later errors name their line), the data folder that
        ``${SKLEARN_FAIR_DATA}`` stands for, and the limits the file was checked against.
    """

    path: Path
    name: str
    output_dir: Path
    random_state: int
    n_jobs: int
    backend: str
    cache_dir: object
    progress: bool
    data: dict
    protocol: dict
    splits: object = None
    models: dict = field(default_factory=dict)
    source: object = None
    data_dir: object = None
    limits: object = None
    datasets: dict = field(default_factory=dict)
    several: bool = False
    baseline: object = None
    baseline_floor: bool = False


def _check_table(source, document, table, schema, prefix=()):
    values = document.get(table, {})
    key = prefix + (table,)
    if not isinstance(values, dict):
        raise source.error(key, f"must be a table ([{'.'.join(key)}]); got {shown(values)}.")
    for name, value in values.items():
        if name not in schema:
            raise source.error(
                key + (name,), f"unknown key; accepted keys are {', '.join(sorted(schema))}."
            )
        kinds, accepted = schema[name]
        if not isinstance(value, kinds) or (isinstance(value, bool) and kinds is int):
            raise source.error(key + (name,), f"must be {accepted}; got {shown(value)}.")
    return dict(values)


def _not_a_regular_file(path):
    """Why ``path`` (links followed) is no regular file to read, or None."""
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return "does not exist"
    except OSError as exc:
        return f"cannot be examined ({exc.strerror or exc})"
    if stat.S_ISREG(mode):
        return None
    return f"is not a regular file: it is {file_kind(mode)}; give the path of a CSV file"


def _check_data(source, data, resolve, prefix=("data",)):
    if "dataset" not in data:
        raise source.error(prefix + ("dataset",), "missing; say which data set to use.")
    dataset = data["dataset"]
    key = prefix + ("dataset",)
    if dataset == "csv":
        for needed in ("path", "target"):
            if needed not in data:
                raise source.error(prefix + (needed,), "missing; a 'csv' data set needs it.")
        data["path"] = resolve(data["path"], prefix + ("path",))
        problem = _not_a_regular_file(data["path"])
        if problem:
            raise source.error(prefix + ("path",), f"the CSV file {str(data['path'])!r} {problem}.")
        kind = "csv"
    elif dataset.startswith("tu:") and len(dataset) > 3:
        if "root" not in data:
            raise source.error(prefix + ("root",), "missing; a 'tu:' data set needs its folder.")
        if not re.match(r"^[A-Za-z0-9][A-Za-z0-9_\-]*$", dataset[3:]):
            raise source.error(key, f"{dataset[3:]!r} is not a TU data set name.")
        data["root"] = resolve(data["root"], prefix + ("root",))
        from ._data import tu_read_paths

        # its raw folder, archive and raw files, links followed, lie where the root may
        for path in tu_read_paths(data["root"], dataset[3:]):
            resolve(os.fspath(path), prefix + ("root",), expand=False)
        features = data.get("features", "auto")
        if isinstance(features, str) and features not in FEATURE_SCHEMES:
            raise source.error(
                prefix + ("features",),
                f"must be a node-feature scheme of sklearn_fair.graph.load_tu_dataset, one of "
                f"{', '.join(map(repr, FEATURE_SCHEMES))}; got {shown(features)}.",
            )
        kind = "tu:"
    elif dataset.startswith("sklearn:"):
        from ._data import SKLEARN_DATASETS

        if dataset[len("sklearn:") :] not in SKLEARN_DATASETS:
            raise source.error(
                key,
                f"unknown data set {shown(dataset)}; accepted: "
                + ", ".join(f"'sklearn:{n}'" for n in SKLEARN_DATASETS)
                + ".",
            )
        kind = "sklearn:"
    else:
        raise source.error(
            key, f"must be 'sklearn:NAME', 'csv' or 'tu:NAME'; got {shown(dataset)}."
        )
    for name in data:
        if name not in ("dataset", *RUNNER_KEYS) and name not in _DATA_KEYS[kind]:
            raise source.error(prefix + (name,), f"not used by the data set {shown(dataset)}.")
    return data


def _prefixed(builder, key, grid, final):
    """Grid keys name the final estimator's parameters unless they name a step."""
    if isinstance(grid, list):
        return [
            _prefixed(builder, key, table, final) if isinstance(table, dict) else table
            for table in grid
        ]
    prefixed, given_as = {}, {}
    for name, values in grid.items():
        full = name if "__" in name else f"{final}__{name}"
        if full in prefixed:
            raise builder.error(
                key + (name,),
                f"names the parameter {shown(full)} a second time: as {shown(given_as[full])} "
                f"and as {shown(name)}; give each parameter once.",
            )
        prefixed[full], given_as[full] = values, name
    return prefixed


def _check_grid(builder, key, grid, estimator):
    tables = grid if isinstance(grid, list) else [grid]
    if not tables:  # else refused with the data, as the protocol's fault
        raise builder.error(
            key, "must hold at least one table of lists; got []. E.g. grid = { C = [0.1, 1.0] }."
        )
    params = estimator.get_params(deep=True)
    resolved = []
    for table in tables:
        if not isinstance(table, dict):
            raise builder.error(key, f"must be a table of lists; got {shown(table)}.")
        candidates = {}
        for name, values in table.items():
            if not isinstance(values, list) or not values:
                raise builder.error(
                    key + (name,), f"must be a non-empty list; got {shown(values)}."
                )
            for value in values:
                why = refused(name, value)
                if why is not None:
                    raise builder.error(
                        key + (name,),
                        f"holds {shown(value)}, which is refused in an experiment file: {why}.",
                    )
            if name not in params and name.split("__")[0] not in params:
                raise builder.error(
                    key + (name,),
                    f"{type(estimator).__name__} has no parameter {shown(name)}; its parameters "
                    f"are {', '.join(sorted(p for p in params if '__' not in p))}.",
                )
            candidates[name] = values
        resolved.append(candidates)
    return resolved if isinstance(grid, list) else resolved[0]


def _check_n_jobs(source, key, value, limits):
    """At most ``limits.jobs`` workers (negative as joblib counts them: -1 all cores);
    limits None: not counted."""
    if not NonZeroInt().is_satisfied_by(value):  # the rule of the Python parameter
        raise source.error(
            key,
            "must be a non-zero integer (negative as joblib counts them: -1 all cores, -2 all "
            f"but one); got {shown(value)}.",
        )
    if limits is not None and (value > limits.jobs or value < -limits.jobs):
        raise source.error(key, limits.refusal("jobs", value, "workers", "the number asked for"))


def _check_num_workers(source, key, value, limits):
    """At most ``limits.jobs`` processes of a data loader (0: in the fitting process)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise source.error(
            key, f"must be 0 (load in the fitting process) or more; got {shown(value)}."
        )
    if value > limits.jobs:
        raise source.error(
            key, limits.refusal("jobs", value, "workers", "the number of data-loading processes")
        )


def _check_estimator_cv(source, key, value, limits):
    """At most ``limits.folds`` splits of an estimator's own cross-validation (RFECV, a
    search...); a splitter that needs the data to count them is not counted."""
    n_splits = value
    if not isinstance(value, int) and callable(getattr(value, "get_n_splits", None)):
        try:
            n_splits = value.get_n_splits()
        except Exception:  # counted only with the data (LeaveOneOut): the estimator checks it
            return
    if isinstance(n_splits, int) and not isinstance(n_splits, bool) and n_splits > limits.folds:
        raise source.error(
            key,
            limits.refusal("folds", n_splits, "folds", "the estimator's own number of splits"),
        )


# parameter (its last part) -> its check: workers a fit starts (joblib's, a data loader's),
# the splits of an estimator's own cross-validation
_COUNTED = {"n_jobs": _check_n_jobs, "num_workers": _check_num_workers, "cv": _check_estimator_cv}


def _drawn(distributions, n_iter):
    """How many candidates ParameterSampler draws (at most a space of lists' size), or
    ``n_iter`` for what it refuses (the search refuses it when fitted)."""
    from sklearn.model_selection import ParameterSampler

    try:
        return len(ParameterSampler(distributions, n_iter))
    except (TypeError, ValueError):
        return n_iter


def _exhausted(search):
    """The candidates HalvingRandomSearchCV's ``n_candidates="exhaust"`` draws; None where
    only the data count them (distributions, ``max_resources="auto"``): one per sample."""
    max_resources, min_resources = search.max_resources, getattr(search, "min_resources", None)
    if isinstance(max_resources, int) and not isinstance(max_resources, bool):
        smallest = min_resources if isinstance(min_resources, int) and min_resources > 0 else 1
        return _drawn(search.param_distributions, max(max_resources // smallest, 0))
    whole = _drawn(search.param_distributions, sys.maxsize)
    return None if whole == sys.maxsize else whole


def search_space(value):
    """``(candidates, the parameter that gives them)`` of ``value`` where it is a scikit-learn
    search (its ``param_grid``; its ``n_iter``, or HalvingRandomSearchCV's ``n_candidates``,
    at most the size of a space of lists), else None; the candidates are None where they are
    one per sample of the data (``n_candidates="exhaust"``, see :func:`_exhausted`)."""
    if isinstance(getattr(value, "param_grid", None), (dict, list)):
        return count_candidates(value.param_grid), "param_grid"
    if not hasattr(value, "param_distributions") or isinstance(value, type):
        return None
    for name in ("n_iter", "n_candidates"):
        n = getattr(value, name, None)
        if isinstance(n, int) and not isinstance(n, bool):
            return _drawn(value.param_distributions, n), name
        if name == "n_candidates" and n == "exhaust":
            return _exhausted(value), name
    return None


def _inner_work(builder, key, params, limits):
    """Check the workers and folds that ``params`` (an estimator's deep parameters, each at
    ``key + (name,)``) ask for; ``(candidates, where, per_sample, drawn)`` of the searches
    among them, each trying its space for every candidate of the model: the product of
    their candidates, the key of the last (or None), that of one drawing one candidate per
    sample (or None), and whether one draws."""
    candidates, where, per_sample, drawn = 1, None, None, False
    for name, value in params.items():
        check = _COUNTED.get(name.split("__")[-1])
        if check is not None and value is not None:
            check(builder.source, key + (name,), value, limits)
        # a search inside a parameter (a bagged GridSearchCV) tries its space for every candidate
        inner = search_space(value)
        if inner is not None:
            where, drawn = key + (name,), drawn or inner[1] != "param_grid"
            if inner[0] is None:
                per_sample = where
            else:
                candidates *= inner[0]
    return candidates, where, per_sample, drawn


def _instances(value):
    """The estimators in a grid's value: itself, or those in its lists and tables."""
    if isinstance(value, (list, tuple)):
        return [found for item in value for found in _instances(item)]
    if isinstance(value, dict):
        return [found for item in value.values() for found in _instances(item)]
    return [] if isinstance(value, type) or not hasattr(value, "get_params") else [value]


def _grid_work(builder, key, grid, limits):
    """:func:`_inner_work` of a grid (at ``key``): its candidates are
    :func:`count_candidates`', each value weighted by the candidates of the searches that an
    estimator among the values holds, and those estimators' workers and folds are checked as
    the model's params are."""
    n_candidates, where, per_sample, drawn = 0, None, None, False
    for table in grid if isinstance(grid, list) else [grid]:
        product = 1
        for name, values in table.items() if isinstance(table, dict) else ():
            if not isinstance(values, list):
                continue  # counts as one; the grid check refuses it
            check, total = _COUNTED.get(name.split("__")[-1]), 0
            for value in values:
                if check is not None:
                    check(builder.source, key + (name,), value, limits)
                weight = 1
                for found in _instances(value):
                    params = {name: found}
                    for inner_name, inner_value in found.get_params(deep=True).items():
                        params[f"{name}__{inner_name}"] = inner_value
                    inner, at, inner_per_sample, inner_drawn = _inner_work(
                        builder, key, params, limits
                    )
                    weight *= inner
                    where, per_sample = at or where, inner_per_sample or per_sample
                    drawn = drawn or inner_drawn
                total += weight
            product *= total
        n_candidates += product
    return n_candidates, where, per_sample, drawn


def _check_work(builder, key, estimator, grid, limits):
    """Workers, an estimator's own folds and the candidates a model asks for, counted before
    anything is expanded; ``(candidates per sample, key)`` for :func:`check_per_sample`
    where a search draws one candidate per sample, else None."""
    n_candidates, where, per_sample, drawn = 1, key + ("grid",), None, False
    own = search_space(estimator)  # a search given as the estimator brings its own space
    if grid is None and own is not None:
        n_candidates, where = own[0], key + ("params", own[1])
        drawn = own[1] != "param_grid"
        if n_candidates is None:
            n_candidates, per_sample = 1, where
    work = [_inner_work(builder, key + ("params",), estimator.get_params(deep=True), limits)]
    if grid is not None:
        work.append(_grid_work(builder, key + ("grid",), grid, limits))
    for inner, at, inner_per_sample, inner_drawn in work:
        n_candidates *= inner
        where, per_sample = at or where, inner_per_sample or per_sample
        drawn = drawn or inner_drawn
    if n_candidates > limits.candidates:
        raise builder.error(where, _candidates_refusal(limits, n_candidates, drawn))
    return None if per_sample is None else (n_candidates, per_sample)


def _candidates_refusal(limits, n_candidates, drawn=True):
    what = "the product of the grid's list lengths"
    if drawn:  # a search's n_iter or n_candidates
        what += " and of the candidates a search draws (at most the size of a space of lists)"
    return limits.refusal("candidates", n_candidates, "candidates", what)


def check_per_sample(config, spec, n_samples):
    """Refuse, with the data (``n_samples``), a model whose search draws one candidate per
    sample (``n_candidates="exhaust"`` over distributions) past the ``candidates`` limit."""
    if spec.per_sample is None:
        return
    n_candidates, key = spec.per_sample
    if n_candidates * n_samples > config.limits.candidates:
        raise config.source.error(
            key,
            _candidates_refusal(config.limits, n_candidates * n_samples)
            + f" With n_candidates='exhaust' and max_resources='auto' a search draws up to "
            f"one candidate per sample of the data ({n_samples}); give n_candidates as a "
            "number, or max_resources.",
        )


def _check_model(builder, name, table, limits):
    key = ("models", name)
    table = _check_table(builder.source, {name: table}, name, _MODEL_KEYS, prefix=("models",))
    if "estimator" not in table:
        raise builder.error(key + ("estimator",), "missing; name the estimator class.")
    estimator = builder.instance("estimator", table["estimator"], table.get("params", {}), key)
    if not hasattr(estimator, "fit"):
        raise builder.error(key + ("estimator",), f"{table['estimator']} has no fit method.")
    grid = builder.value(table.get("grid"), key + ("grid",))
    if "grid_preset" in table:
        preset = builder.grid_preset(table["grid_preset"], key + ("grid_preset",))
        if isinstance(grid, list):
            raise builder.error(
                key + ("grid",), "with grid_preset, grid must be one table of overrides."
            )
        overrides = grid or {}
        grid = (
            [{**t, **overrides} for t in preset]
            if isinstance(preset, list)
            else {**preset, **overrides}
        )
    if "preprocessing" in table:
        if not isinstance(table["preprocessing"], list):
            raise builder.error(key + ("preprocessing",), "must be a list of steps.")
        steps = [builder.step(step, key + ("preprocessing",)) for step in table["preprocessing"]]
        estimator = builder.pipeline(steps, estimator)
        if grid is not None:
            grid = _prefixed(builder, key + ("grid",), grid, estimator.steps[-1][0])
    per_sample = _check_work(builder, key, estimator, grid, limits)
    if grid is not None:
        grid = _check_grid(builder, key + ("grid",), grid, estimator)
    return ModelSpec(name=name, estimator=estimator, grid=grid, raw=table, per_sample=per_sample)


def _check_scored(source, spec, protocol):
    """Refuse a model that nothing scores: no ``[protocol] scoring``, no scoring of a search
    given as the estimator, and no ``score`` method (a FunctionTransformer): scikit-learn's
    TypeError ended the run and the dry run."""
    estimator = spec.estimator
    if search_space(estimator) is not None:  # a search given as the estimator
        if getattr(estimator, "scoring", None) is not None:
            return  # scores with its own
        estimator = getattr(estimator, "estimator", estimator)  # NestedCV scores with its
    if protocol.get("scoring") is not None or hasattr(estimator, "score"):
        return
    raise source.error(
        ("models", spec.name, "estimator"),
        f"{type(estimator).__name__} has no score method, so with no scoring nothing "
        'scores the model; give [protocol] scoring (e.g. scoring = "accuracy" or '
        '"r2").',
    )


def _set_device(spec, device):
    names = [n for n in spec.estimator.get_params(deep=True) if n.split("__")[-1] == "device"]
    if names:
        spec.estimator.set_params(**{n: device for n in names})
    return bool(names)


def read_document(path, limits):
    """``(text, document)`` of ``path``; tomllib only sees a text whose work is bounded."""
    text = read_text(path, limits)
    prescan_toml(text, limits, path)
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ExperimentConfigError(neutral(f"{path} is not valid TOML: {error}.")) from None
    except RecursionError:  # behind the pre-scan of the nesting, a second line
        raise ExperimentConfigError(
            limits.refusal("depth", "too deep to parse", f"{path}", "its nesting")
        ) from None


def _refuse_same_file_names(source, table, names):
    """Refuse two names that would be one file on a case-insensitive disk, or shown alike:
    as the runner shows them (their control characters escaped), a name that a reader could
    not tell apart on screen (:func:`~sklearn_fair.utils._printing.unclear_name`)."""
    files, shown_as = {}, {}
    for name in names:
        if not name:
            raise source.error((table, name), "a name must not be empty.")
        if "\n" in name:  # the one control character neutral() leaves: a table row broken
            raise _refused_name(source, table, name, None, "holds a line break")
        for seen, form, why in (
            (files, file_name(name).casefold(), "would be written to one file on a "
             "case-insensitive file system"),
            (shown_as, neutral(name), "would be shown alike"),
        ):  # fmt: skip
            other = seen.setdefault(form, name)
            if other != name:
                raise _refused_name(source, table, name, other, why)
    unclear = unclear_name(shown_as)
    if unclear is not None:
        shown, other, why = unclear
        raise _refused_name(source, table, shown_as[shown], shown_as.get(other), why)


def _refused_name(source, table, name, other, why):
    """The error that refuses ``name`` of ``table`` for ``why``, with ``other`` where two
    names are refused together."""
    keys = _keys(*[n for n in (other, name) if n is not None])
    return source.error(
        (table, name),
        f"{' and '.join(f'[{table}.{key}]' for key in keys)} {why}; "
        f"rename {'it' if other is None else 'one of them'}.",
    )


def _keys(*names):
    """``names`` as TOML keys: each bare when it can be, else quoted (and cut), its letters
    as themselves and its hidden characters escaped
    (:func:`~sklearn_fair.utils._printing.quoted_names`)."""
    quoted = quoted_names([name[:80] for name in names], quote='"')
    return [
        name[:80] if re.fullmatch(r"[A-Za-z0-9_-]+", name) else key
        for name, key in zip(names, quoted)
    ]


def _datasets(builder, document, protocol, splits, resolve, limits):
    """``(datasets, several)``: the one ``[data]`` table, or every ``[data.NAME]`` table."""
    source = builder.source
    data = document.get("data", {})
    several = (
        isinstance(data, dict)
        and bool(data)
        and "dataset" not in data
        and all(isinstance(v, dict) for v in data.values())
    )
    if not several:
        table = _check_data(
            source, _check_table(source, document, "data", _SCHEMA["data"]), resolve
        )
        name = table["dataset"].partition(":")[2] or table["path"].stem
        unclear = unclear_name([neutral(name)])  # a file's name: benchmark would refuse it
        if unclear is not None:
            raise source.error(
                ("data", "path"),
                f"the data set is named {_keys(name)[0]} after its file, and that name "
                f"{unclear[2]}; name it in a [data.NAME] table instead, or rename the file.",
            )
        return {name: DataSet(name, table, protocol, splits)}, False
    _refuse_same_file_names(source, "data", data)
    schema = {**_SCHEMA["data"], "splits_file": (str, "a path"), "splits_format": (str, "a format")}
    datasets = {}
    for name in data:
        key = ("data", name)
        table = _check_data(
            source, _check_table(source, data, name, schema, ("data",)), resolve, key
        )
        own = read_splits(builder, table, key, resolve, limits)
        kwargs = protocol if own is None else {**protocol, "outer_cv": own["outer_cv"]}
        for runner_key in RUNNER_KEYS:
            table.pop(runner_key, None)
        datasets[name] = DataSet(name, table, kwargs, own or splits, key)
    return datasets, True


#: The constraints of the caller's ``limits``, which :func:`load_config`, ``dry_run`` and
#: ``run_experiment`` take alike (each error names the function called). A list or tuple of
#: ``"NAME=VALUE"`` strings is the command line's ``--limit``.
LIMITS = [Limits, dict, list, tuple, None]


@validate_params(
    {"n_jobs": N_JOBS_CONSTRAINTS, "limits": LIMITS}, prefer_skip_nested_validation=False
)
def load_config(
    path,
    *,
    data_dir=None,
    allow_outside_paths=False,
    allowed_packages=(),
    device=None,
    dataset=None,
    limits=None,
    output_dir=None,
    n_jobs=None,
):
    """Read and check an experiment file; every error names the line and key at fault.

    The file (TOML) is checked whole, classes imported, estimators built, data and splits
    files found, so a bad file fails at once, not after hours of fitting. It never runs
    code: classes come only from :data:`~sklearn_fair.experiment.ALLOWED_PACKAGES` (and
    ``allowed_packages``), of the kind their place calls for, never from private or
    code-running modules; paths must lie in the file's folder or the data folder. The
    format is described in the user guide.

    Parameters
    ----------
    path : str or path-like
        The experiment file.
    data_dir : str or path-like, default=None
        The data folder that ``${SKLEARN_FAIR_DATA}`` in a path stands for, where input
        files may also lie; None uses the environment variable ``SKLEARN_FAIR_DATA``.
    allow_outside_paths : bool, default=False
        Accept paths anywhere on the disk (the file's own say-so is not enough).
    allowed_packages : sequence of str, default=()
        Further top-level packages whose classes the file may name (e.g. your own).
    device : str, default=None
        Set the ``device`` parameter of every estimator that has one (``"cuda"``...).
    dataset : str, default=None
        In a file with several data sets (``[data.NAME]`` tables, a benchmark), the one to
        check as the file's ``[data]``.
    limits : dict, Limits or list of str, default=None
        Raise limits on the work the file may cause, for this call (e.g.
        ``{"candidates": 50000}``, or the command line's ``["candidates=50000"]``; see
        :class:`~sklearn_fair.experiment.Limits`). The file cannot raise them.
    output_dir : str or path-like, default=None
        The results folder, anywhere (the caller's choice, not the file's); None uses the
        file's ``output_dir``.
    n_jobs : int, default=None
        The parallel jobs of the run (the caller's choice, not the file's: not held to the
        limit ``jobs``), not 0 (negative as joblib counts them: -1 every core); None uses the
        file's ``n_jobs``, which must then be within it.

    Returns
    -------
    config : ExperimentConfig

    Raises
    ------
    ExperimentConfigError
        (a ``ValueError``) naming the file, the line and the key at fault.

    Examples
    --------
    >>> import os, tempfile
    >>> from sklearn_fair.experiment import load_config
    >>> path = os.path.join(tempfile.mkdtemp(), "iris.toml")
    >>> with open(path, "w") as f:
    ...     _ = f.write('''
    ... [data]
    ... dataset = "sklearn:iris"
    ...
    ... [models.logreg]
    ... estimator = "sklearn.linear_model.LogisticRegression"
    ... grid = { C = [0.1, "one"] }
    ... params = { max_iterations = 100 }
    ... ''')
    >>> load_config(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sklearn_fair.exceptions.ExperimentConfigError: .../iris.toml, line 8, key \
'models.logreg.params': sklearn.linear_model.LogisticRegression rejects these parameters: ...
    """
    path = Path(path)
    limits = parse_limits(limits)
    text, document = read_document(path, limits)
    source = ConfigSource(path, text)
    check_document(document, limits, source)
    for table in document:
        if table not in (*_SCHEMA, "protocol", "models", "benchmark"):
            raise source.error(
                (table,),
                "unknown table; accepted: [experiment], [data] (or [data.NAME] tables), "
                "[protocol], [models.NAME], [benchmark].",
            )
    data_dir = data_dir_from(data_dir)
    resolve = partial(
        resolve_path,
        source=source,
        base=path.resolve().parent,
        data_dir=data_dir,
        allow_outside=allow_outside_paths,
    )
    builder = Builder(source, (*ALLOWED_PACKAGES, *allowed_packages))
    experiment = _check_table(source, document, "experiment", _SCHEMA["experiment"])
    if "n_jobs" in experiment:
        # the caller's n_jobs replaces the file's, which then asks for no worker
        within = limits if n_jobs is None else None
        _check_n_jobs(source, ("experiment", "n_jobs"), experiment["n_jobs"], within)
    if not 0 <= experiment.get("random_state", 0) < 2**32:  # numpy's seed range
        raise source.error(
            ("experiment", "random_state"),
            f"must be {_SCHEMA['experiment']['random_state'][1]}; "
            f"got {shown(experiment['random_state'])}.",
        )
    protocol, splits = check_protocol(builder, document.get("protocol", {}), resolve, limits)
    datasets, several = _datasets(builder, document, protocol, splits, resolve, limits)
    if dataset is not None:  # one data set of a file with several
        if dataset not in datasets:
            raise source.error(("data",), f"no [data.{shown(dataset)}] table.")
        datasets = {dataset: datasets[dataset]}
    backend = experiment.get("backend", "loky")
    if backend not in BACKENDS:
        raise source.error(
            ("experiment", "backend"), f"must be one of {BACKENDS}; got {shown(backend)}."
        )
    models = document.get("models")
    if not isinstance(models, dict) or not models:
        raise source.error(("models",), "no models; add at least one [models.NAME] table.")
    _refuse_same_file_names(source, "models", models)
    specs = {name: _check_model(builder, name, table, limits) for name, table in models.items()}
    for spec in specs.values():
        _check_scored(source, spec, protocol)
    if device is not None and not any([_set_device(spec, device) for spec in specs.values()]):
        raise ExperimentConfigError(
            f"device={shown(device)} was asked for, but no model of {path} has a 'device' "
            "parameter (the skorch-based GraphClassifier has one)."
        )
    benchmark = _check_table(source, document, "benchmark", _BENCHMARK)
    baseline = benchmark.get("baseline")
    if baseline is not None and baseline not in specs:
        raise source.error(
            ("benchmark", "baseline"),
            f"must name one of the models {sorted(specs)}; got {shown(baseline)}.",
        )
    baseline_floor = benchmark.get("baseline_floor", False)
    if baseline_floor and baseline is None:
        raise source.error(
            ("benchmark", "baseline_floor"),
            "is true, but there is no baseline to declare a chance-level floor: name the "
            "floor model as [benchmark] baseline, or set baseline_floor = false.",
        )
    if output_dir is None:
        output_dir = resolve(
            experiment.get("output_dir", f"{path.stem}_results"),
            ("experiment", "output_dir"),
            output=True,
        )
    cache_dir = experiment.get("cache_dir")
    first = next(iter(datasets.values()))
    return ExperimentConfig(
        path=path,
        name=experiment.get("name", path.stem),
        output_dir=Path(output_dir).resolve(),
        random_state=experiment.get("random_state", 0),
        n_jobs=experiment.get("n_jobs", 1) if n_jobs is None else n_jobs,
        backend=backend,
        cache_dir=None
        if cache_dir is None
        else resolve(cache_dir, ("experiment", "cache_dir"), output=True),
        progress=experiment.get("progress", True),
        data=first.data,
        protocol=first.protocol,
        splits=first.splits,
        models=specs,
        source=source,
        data_dir=data_dir,
        limits=limits,
        datasets=datasets,
        several=several,
        baseline=baseline,
        baseline_floor=baseline_floor,
    )
