"""Reading and checking an experiment file, before anything expensive runs."""

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ..exceptions import ExperimentConfigError
from ._build import import_class, make_estimator, resolve_value
from ._locate import ConfigSource

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

# table -> key -> (accepted types, description of what is accepted)
_SCHEMA = {
    "experiment": {
        "name": (str, "a string"),
        "output_dir": (str, "a folder path (relative to the experiment file)"),
        "random_state": (int, "an integer"),
        "n_jobs": (int, "an integer"),
        "backend": (str, "a joblib backend name"),
        "cache_dir": (str, "a folder path (relative to the experiment file)"),
        "progress": (bool, "true or false"),
    },
    "data": {
        "dataset": (str, "'sklearn:NAME', 'csv' or 'tu:NAME'"),
        "path": (str, "a CSV file path (relative to the experiment file)"),
        "target": (str, "the name of the CSV's target column"),
        "root": (str, "the TU data sets folder (relative to the experiment file)"),
        "features": (str, "a node-feature scheme of sklearn_fair.graph.load_tu_dataset"),
    },
    "protocol": {
        "outer_cv": (int, "an integer number of outer folds"),
        "inner_cv": (int, "an integer number of inner folds (default: a 90%/10% hold-out)"),
        "splits_file": (str, "a JSON splits file (relative to the experiment file)"),
        "splits_format": (str, "'sklearn-fair' or 'gnn-comparison'"),
        "n_refits": (int, "an integer"),
        "scoring": (str, "a scorer name"),
    },
}
_MODEL_KEYS = {
    "estimator": (str, "the dotted name of an estimator class"),
    "params": (dict, "a table of constructor parameters"),
    "grid": ((dict, list), "a table of lists, or an array of such tables"),
    "preprocessing": (list, "a list of dotted class names, fitted before the estimator"),
}
BACKENDS = ("loky", "threading", "multiprocessing", "dask")
SPLITS_FORMATS = ("sklearn-fair", "gnn-comparison")
_NAME = re.compile(r"^[A-Za-z0-9_.\-]+$")


@dataclass
class ModelSpec:
    """One model of an experiment: its estimator, its grid and its raw table (for hashing)."""

    name: str
    estimator: object
    grid: object
    raw: dict


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
    random_state, n_jobs : int
        Seed of every model's NestedCV, and its parallel jobs.
    backend : str
        The joblib backend.
    cache_dir : pathlib.Path or None
        NestedCV's task cache, when set.
    progress : bool
        Whether to show progress bars.
    data, protocol : dict
        The ``[data]`` and ``[protocol]`` tables, paths made absolute.
    models : dict of str to ModelSpec
        The models, in file order.
    source : object
        The file's text, to report later errors with their line.
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
    models: dict = field(default_factory=dict)
    source: object = None


def _check_table(source, document, table, schema, prefix=()):
    values = document.get(table, {})
    key = prefix + (table,)
    if not isinstance(values, dict):
        raise source.error(key, f"must be a table ([{'.'.join(key)}]); got {values!r}.")
    for name, value in values.items():
        if name not in schema:
            raise source.error(
                key + (name,), f"unknown key; accepted keys are {', '.join(sorted(schema))}."
            )
        kinds, accepted = schema[name]
        if not isinstance(value, kinds) or (isinstance(value, bool) and kinds is int):
            raise source.error(key + (name,), f"must be {accepted}; got {value!r}.")
    return dict(values)


def _existing(source, key, base, value, what):
    path = (base / value).resolve()
    if not path.exists():
        raise source.error(key, f"the {what} {str(path)!r} does not exist.")
    return path


def _check_data(source, data, base):
    if "dataset" not in data:
        raise source.error(("data", "dataset"), "missing; say which data set to use.")
    dataset = data["dataset"]
    key = ("data", "dataset")
    if dataset == "csv":
        for needed in ("path", "target"):
            if needed not in data:
                raise source.error(("data", needed), "missing; a 'csv' data set needs it.")
        data["path"] = _existing(source, ("data", "path"), base, data["path"], "CSV file")
    elif dataset.startswith("tu:"):
        if "root" not in data:
            raise source.error(("data", "root"), "missing; a 'tu:' data set needs its folder.")
        data["root"] = (base / data["root"]).resolve()
    elif dataset.startswith("sklearn:"):
        from ._data import SKLEARN_DATASETS

        if dataset[len("sklearn:") :] not in SKLEARN_DATASETS:
            raise source.error(
                key,
                f"unknown data set {dataset!r}; accepted: "
                + ", ".join(f"'sklearn:{n}'" for n in SKLEARN_DATASETS)
                + ".",
            )
    else:
        raise source.error(key, f"must be 'sklearn:NAME', 'csv' or 'tu:NAME'; got {dataset!r}.")
    extra = {"path", "target"} if dataset == "csv" else set()
    extra |= {"root", "features"} if dataset.startswith("tu:") else set()
    for name in data:
        if name != "dataset" and name not in extra:
            raise source.error(("data", name), f"not used by the data set {dataset!r}.")
    return data


def _check_protocol(source, protocol, base):
    if "splits_file" in protocol:
        if "outer_cv" in protocol:
            raise source.error(
                ("protocol", "outer_cv"), "give either outer_cv or splits_file, not both."
            )
        protocol["splits_file"] = _existing(
            source, ("protocol", "splits_file"), base, protocol["splits_file"], "splits file"
        )
    fmt = protocol.setdefault("splits_format", "sklearn-fair")
    if fmt not in SPLITS_FORMATS:
        raise source.error(
            ("protocol", "splits_format"), f"must be one of {SPLITS_FORMATS}; got {fmt!r}."
        )
    for name in ("outer_cv", "inner_cv"):
        if name in protocol and protocol[name] < 2:
            raise source.error(("protocol", name), f"must be at least 2; got {protocol[name]}.")
    if protocol.setdefault("n_refits", 3) < 1:
        raise source.error(
            ("protocol", "n_refits"), f"must be at least 1; got {protocol['n_refits']}."
        )
    if "scoring" in protocol:
        from ..metrics import get_scorer

        try:
            get_scorer(protocol["scoring"])
        except ValueError:
            raise source.error(
                ("protocol", "scoring"),
                f"unknown scorer {protocol['scoring']!r}; see "
                "sklearn_fair.metrics.get_scorer_names().",
            ) from None
    return protocol


def _check_grid(source, key, grid, estimator):
    tables = grid if isinstance(grid, list) else [grid]
    params = estimator.get_params(deep=True)
    resolved = []
    for table in tables:
        if not isinstance(table, dict):
            raise source.error(key, f"must be a table of lists; got {table!r}.")
        candidates = {}
        for name, values in table.items():
            if not isinstance(values, list) or not values:
                raise source.error(key + (name,), f"must be a non-empty list; got {values!r}.")
            if name not in params and name.split("__")[0] not in params:
                raise source.error(
                    key + (name,),
                    f"{type(estimator).__name__} has no parameter {name!r}; its parameters "
                    f"are {', '.join(sorted(p for p in params if '__' not in p))}.",
                )
            candidates[name] = resolve_value(values, source, key + (name,))
        resolved.append(candidates)
    return resolved if isinstance(grid, list) else resolved[0]


def _check_model(source, name, table):
    key = ("models", name)
    if not _NAME.match(name):
        raise source.error(key, "model names may hold only letters, digits, '_', '-' and '.'.")
    table = _check_table(source, {name: table}, name, _MODEL_KEYS, prefix=("models",))
    if "estimator" not in table:
        raise source.error(key + ("estimator",), "missing; name the estimator class.")
    estimator = make_estimator(table["estimator"], table.get("params", {}), source, key)
    grid = table.get("grid")
    if "preprocessing" in table:
        from sklearn.pipeline import make_pipeline

        steps = [
            import_class(step, source, key + ("preprocessing",))()
            for step in table["preprocessing"]
        ]
        estimator = make_pipeline(*steps, estimator)
        final = estimator.steps[-1][0]
        # Grid keys name the final estimator's parameters unless they name a step.
        if isinstance(grid, dict):
            grid = {k if "__" in k else f"{final}__{k}": v for k, v in grid.items()}
        elif isinstance(grid, list):
            grid = [
                {k if "__" in k else f"{final}__{k}": v for k, v in t.items()}
                if isinstance(t, dict)
                else t
                for t in grid
            ]
    if grid is not None:
        grid = _check_grid(source, key + ("grid",), grid, estimator)
    return ModelSpec(name=name, estimator=estimator, grid=grid, raw=table)


def load_config(path):
    """Read and check an experiment file; every error names the line and key at fault.

    The file is TOML (read with :mod:`tomllib`); it is checked whole, classes are
    imported and estimators built, and the data and splits files must exist, so a
    bad file fails at once rather than after hours of fitting. Only classes from
    scikit-learn, imbalanced-learn and sklearn-fair can be named: an experiment
    file never runs code. The format is described in the user guide.

    Parameters
    ----------
    path : str or path-like
        The experiment file.

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
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ExperimentConfigError(
            f"Cannot read the experiment file {str(path)!r}: {error}."
        ) from None
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ExperimentConfigError(f"{path} is not valid TOML: {error}.") from None
    source = ConfigSource(path, text)
    for table in document:
        if table not in (*_SCHEMA, "models"):
            raise source.error(
                (table,),
                "unknown table; accepted: [experiment], [data], [protocol], [models.NAME].",
            )
    base = path.resolve().parent
    experiment = _check_table(source, document, "experiment", _SCHEMA["experiment"])
    data = _check_data(source, _check_table(source, document, "data", _SCHEMA["data"]), base)
    protocol = _check_protocol(
        source, _check_table(source, document, "protocol", _SCHEMA["protocol"]), base
    )
    backend = experiment.get("backend", "loky")
    if backend not in BACKENDS:
        raise source.error(
            ("experiment", "backend"), f"must be one of {BACKENDS}; got {backend!r}."
        )
    models = document.get("models")
    if not isinstance(models, dict) or not models:
        raise source.error(("models",), "no models; add at least one [models.NAME] table.")
    specs = {name: _check_model(source, name, table) for name, table in models.items()}
    cache_dir = experiment.get("cache_dir")
    return ExperimentConfig(
        path=path,
        name=experiment.get("name", path.stem),
        output_dir=(base / experiment.get("output_dir", f"{path.stem}_results")).resolve(),
        random_state=experiment.get("random_state", 0),
        n_jobs=experiment.get("n_jobs", 1),
        backend=backend,
        cache_dir=None if cache_dir is None else (base / cache_dir).resolve(),
        progress=experiment.get("progress", True),
        data=data,
        protocol=protocol,
        models=specs,
        source=source,
    )
