"""Reading experiment files with several data sets: ``[data.NAME]`` tables, one benchmark.

A file whose ``[data]`` holds only tables (``[data.iris]``, ``[data.wine]``, ...) describes a
benchmark: every ``[models.NAME]`` on every data set, on the file's ``[protocol]``. Each data set
is checked exactly as a single-data-set file is (:func:`load_config` with ``dataset=NAME``);
a ``[data.NAME]`` table may carry its own ``splits_file`` and ``splits_format`` (the data set's
saved splits), and an optional ``[benchmark]`` table names the ``baseline``. The run is one
:func:`sklearn_fair.benchmark` (one task pool, one cache under ``cache_dir``, so a killed run
resumes); the results folder gets the table, the comparisons with the baseline, the rank tests,
the aggregates, the budgets, the scores, each cell's result, the CD diagram and the report
(counted by ``_counting/_benchmark_plans.py``, run by ``_running/_benchmark_run.py``).
"""

from pathlib import Path

from ...exceptions import ExperimentConfigError
from ._config import load_config, read_document
from ._limits import parse_limits
from ._protocol import RUNNER_KEYS

__all__ = ["benchmark_data_names", "load_benchmark", "one_dataset"]

_BENCHMARK_KEYS = {"baseline": (str, "the name of one of the [models.NAME] tables")}


def benchmark_data_names(path, limits=None):
    """The data set names of a multi-data-set file, or None for a single-data-set file.

    The file is read as load_config reads it (size cap and pre-scan first), and only once.
    """
    try:
        _, document = read_document(path, parse_limits(limits))
    except ExperimentConfigError:
        return None  # load_config reports it, with the reason
    data = document.get("data")
    if isinstance(data, dict) and data and all(isinstance(v, dict) for v in data.values()):
        return list(data)
    return None


def one_dataset(source, document, name):
    """The document of a single-data-set file: ``[data.NAME]`` as ``[data]`` (load_config)."""
    data = document.get("data", {})
    if name not in data:
        raise source.error(("data",), f"no [data.{name}] table; the file has {sorted(data)}.")
    table = dict(data[name])
    protocol = dict(document.get("protocol", {}))
    if "splits_file" in table:  # the data set's own saved splits replace [protocol]'s outer_cv
        protocol.pop("outer_cv", None)
    for key in RUNNER_KEYS:
        if key in table:
            protocol[key] = table.pop(key)
    document = {k: v for k, v in document.items() if k != "benchmark"}
    document.update(data=table, protocol=protocol)
    return document


def _benchmark_table(path, limits=None):
    from ._locate import ConfigSource

    text, document = read_document(path, parse_limits(limits))
    table = document.get("benchmark", {})
    source = ConfigSource(Path(path), text)
    if not isinstance(table, dict):
        raise source.error(("benchmark",), "must be a table ([benchmark]).")
    for key, value in table.items():
        if key not in _BENCHMARK_KEYS:
            raise source.error(("benchmark", key), "unknown key; accepted keys are baseline.")
        kinds, accepted = _BENCHMARK_KEYS[key]
        if not isinstance(value, kinds):
            raise source.error(("benchmark", key), f"must be {accepted}; got {value!r}.")
    return table, source


def load_benchmark(path, **options):
    """``(configs, baseline)``: one checked ExperimentConfig per data set, and the baseline."""
    names = benchmark_data_names(path, options.get("limits"))
    if names is None:
        raise ExperimentConfigError(
            f"{path} has one [data] table, not [data.NAME] tables: run it with run_experiment."
        )
    output_dir = options.pop("output_dir", None)
    configs = {name: load_config(path, dataset=name, **options) for name in names}
    table, source = _benchmark_table(path, options.get("limits"))
    first = next(iter(configs.values()))
    baseline = table.get("baseline")
    if baseline is not None and baseline not in first.models:
        raise source.error(
            ("benchmark", "baseline"),
            f"must name one of the models {sorted(first.models)}; got {baseline!r}.",
        )
    if output_dir is not None:
        for config in configs.values():
            config.output_dir = Path(output_dir).resolve()
    return configs, baseline
