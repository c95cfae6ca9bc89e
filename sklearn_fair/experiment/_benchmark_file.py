"""Experiment files with several data sets: ``[data.NAME]`` tables, run as one benchmark.

A file whose ``[data]`` holds only tables (``[data.iris]``, ``[data.wine]``, ...) describes a
benchmark: every ``[models.NAME]`` on every data set, on the file's ``[protocol]``. Each data set
is checked exactly as a single-data-set file is (:func:`load_config` with ``dataset=NAME``);
a ``[data.NAME]`` table may carry its own ``splits_file`` and ``splits_format`` (the data set's
saved splits), and an optional ``[benchmark]`` table names the ``baseline``. The run is one
:func:`sklearn_fair.benchmark` (one task pool, one cache under ``cache_dir``, so a killed run
resumes); the results folder gets the table, the comparisons with the baseline, the rank tests,
the aggregates, the budgets, the scores, each cell's result, the CD diagram and the report.
"""

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from ..exceptions import ExperimentConfigError
from ._config import load_config, read_document
from ._limits import parse_limits
from ._protocol import RUNNER_KEYS

if sys.version_info >= (3, 11):
    pass
else:  # pragma: no cover - Python 3.10
    pass

__all__ = ["BenchmarkRun", "benchmark_data_names", "dry_run_benchmark", "run_benchmark_file"]

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


def _load(configs):
    from ._checks import check_before_fit
    from ._data import load_data
    from ._runner import work_dir

    datasets, plans = {}, {}
    for name, config in configs.items():
        data = load_data(config, work_dir(config))
        plans[name] = check_before_fit(config, data)
        datasets[name] = (data, config)
    return datasets, plans


@dataclass
class BenchmarkRun:
    """What :func:`run_benchmark_file` did.

    Attributes
    ----------
    output_dir : pathlib.Path
        The results folder.
    result : BenchmarkResult
        The benchmark.
    files : list of pathlib.Path
        Every file written.
    """

    output_dir: Path
    result: object
    files: list


def _markdown(frame, index=True):
    frame = frame.reset_index() if index else frame
    header = [str(c) for c in frame.columns]
    lines = [f"| {' | '.join(header)} |", "|" + "---|" * len(header)]
    for row in frame.itertuples(index=False):
        cells = [f"{v:.4g}" if isinstance(v, float) else str(v) for v in row]
        lines.append(f"| {' | '.join(cells)} |")
    return "\n".join(lines) + "\n"


def _write(path, text, files):
    path.write_text(text, encoding="utf-8")
    files.append(path)


def _write_plots(folder, result, files):
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return
    from matplotlib import rc_context

    folder.mkdir(exist_ok=True)
    plots = {"intervals": result.plot_intervals}
    if len(result.models) >= 3 and len(result.datasets) >= 2:
        try:
            import scikit_posthocs  # noqa: F401

            plots["critical_difference"] = result.plot_critical_difference
        except ImportError:
            pass
    for name, plot in plots.items():
        figure = plot()
        for path in (folder / f"{name}.png", folder / f"{name}.svg"):
            with rc_context({"svg.fonttype": "none", "svg.hashsalt": "sklearn-fair"}):
                figure.savefig(path, dpi=120)  # text stays text in the SVG
            files.append(path)


def run_benchmark_file(
    path,
    *,
    n_jobs=None,
    progress=None,
    backend=None,
    dask_scheduler=None,
    **options,
):
    """Run a multi-data-set experiment file as one benchmark and write its results folder.

    Parameters
    ----------
    path : str or path-like
        The experiment file, with ``[data.NAME]`` tables.
    n_jobs, progress, backend, dask_scheduler
        As in :func:`~sklearn_fair.experiment.run_experiment`.
    **options
        ``data_dir``, ``allow_outside_paths``, ``allowed_packages``, ``device``,
        ``output_dir``, as in :func:`~sklearn_fair.experiment.run_experiment`.

    Returns
    -------
    BenchmarkRun

    Examples
    --------
    >>> import os, tempfile
    >>> from sklearn_fair.experiment import run_benchmark_file
    >>> folder = tempfile.mkdtemp()
    >>> path = os.path.join(folder, "two.toml")
    >>> with open(path, "w") as f:
    ...     _ = f.write('''
    ... [benchmark]
    ... baseline = "prior"
    ... [data.iris]
    ... dataset = "sklearn:iris"
    ... [data.wine]
    ... dataset = "sklearn:wine"
    ... [protocol]
    ... outer_cv = 3
    ... n_refits = 1
    ... [models.prior]
    ... estimator = "sklearn.dummy.DummyClassifier"
    ... [models.tree]
    ... estimator = "sklearn.tree.DecisionTreeClassifier"
    ... grid = { max_depth = [2, 4] }
    ... ''')
    >>> run = run_benchmark_file(path, progress=False)
    >>> run.result.models, run.result.datasets
    (['prior', 'tree'], ['iris', 'wine'])
    >>> sorted(p.name for p in run.output_dir.iterdir())[:4]
    ['aggregate.csv', 'budget.csv', 'comparison.csv', 'models']
    """
    from ..benchmarking import benchmark
    from ..report import result_to_dict
    from ._runner import _backend, make_nested

    configs, baseline = load_benchmark(path, **options)
    first = next(iter(configs.values()))
    if progress is not None:
        first.progress = bool(progress)
    n_jobs = first.n_jobs if n_jobs is None else n_jobs
    backend = first.backend if backend is None else backend
    loaded, _ = _load(configs)
    models = {}
    for spec in first.models.values():
        nested = make_nested(first, spec, n_jobs)
        models[spec.name] = nested.set_params(cache_dir=None)
    datasets = {name: (data.X, data.y, data.groups) for name, (data, _) in loaded.items()}
    outer_cv = {name: config.protocol.get("outer_cv", 10) for name, config in configs.items()}
    cache_dir = None if first.cache_dir is None else first.cache_dir / "benchmark"
    with _backend(backend, n_jobs, dask_scheduler):
        result = benchmark(
            models, datasets, outer_cv=outer_cv, baseline=baseline,
            random_state=first.random_state, n_jobs=n_jobs, cache_dir=cache_dir,
            verbose=int(first.progress),
        )  # fmt: skip
    output = first.output_dir
    (output / "models").mkdir(parents=True, exist_ok=True)
    files = []
    for (dataset, model), nested in result.estimators.items():
        folder = output / "models" / dataset
        folder.mkdir(exist_ok=True)
        target = folder / f"{model}.json"
        _write(target, json.dumps(result_to_dict(nested), indent=1), files)
    _write(output / "table.md", _markdown(result.table()), files)
    result.scores.to_csv(output / "scores.csv", index=False)
    result.budget.to_csv(output / "budget.csv", index=False)
    result.aggregate().to_csv(output / "aggregate.csv")
    files += [output / "scores.csv", output / "budget.csv", output / "aggregate.csv"]
    if baseline is not None:
        result.compare_to().to_csv(output / "comparison.csv", index=False)
        files.append(output / "comparison.csv")
    if len(result.models) >= 3 and len(result.datasets) >= 2:
        _write(output / "ranks.txt", str(result.rank_comparison()) + "\n", files)
    files.append(result.save_html(output / "report.html", title=f"Benchmark {first.name}"))
    _write_plots(output / "plots", result, files)
    return BenchmarkRun(output, result, files)


def dry_run_benchmark(path, *, timing=True, n_jobs=None, **options):
    """Count every fit of a multi-data-set file and estimate its compute, fitting (almost) nothing.

    Each data set is counted and timed as :func:`~sklearn_fair.experiment.dry_run` does one
    file's: the fits of every model from its splits and grid, and with ``timing`` a few short
    fits of each model on a small sample, extrapolated to all its fits.

    Parameters
    ----------
    path : str or path-like
        The experiment file, with ``[data.NAME]`` tables.
    timing : bool, default=True
        Time short fits to estimate the compute; False only counts.
    n_jobs : int, default=None
        Workers the wall time is divided by; None uses the file's ``n_jobs``.
    **options
        As in :func:`run_benchmark_file`.

    Returns
    -------
    text : str
        The table of fits (and estimated seconds) per data set and model, and the totals.
    total : int
        The most fits the benchmark can need.
    """
    from ._estimate import estimate_compute, format_seconds

    configs, _ = load_benchmark(path, **options)
    loaded, plans = _load(configs)
    first = next(iter(configs.values()))
    n_jobs = first.n_jobs if n_jobs is None else n_jobs
    header = ("data set", "model", "candidates", "selection fits", "refits", "total fits")
    rows = [header + (("estimated compute",) if timing else ())]
    total, seconds, unknown = 0, 0.0, []
    for dataset, model_plans in plans.items():
        data, config = loaded[dataset]
        for name, plan in model_plans.items():
            row = (dataset, name, str(plan.n_candidates), str(plan.selection_fits),
                   str(plan.refits), str(plan.total_fits))  # fmt: skip
            total += plan.total_fits
            if timing:
                estimate = estimate_compute(config.models[name], plan, data)
                if estimate.seconds is None:
                    unknown.append(f"{dataset}/{name}: {estimate.basis}")
                    row += ("?",)
                else:
                    seconds += estimate.seconds
                    row += (format_seconds(estimate.seconds),)
            rows.append(row)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [
        f"Dry run of the benchmark {first.name!r} ({os.fspath(first.path)}): "
        f"{len(configs)} data sets x {len(first.models)} models, nothing is fitted"
        + (" but a few short timing fits." if timing else "."),
        "",
        *("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows),
        "",
        f"At most {total} fits in all, in one task pool.",
    ]
    if timing:
        lines.append(
            f"Estimated compute: {format_seconds(seconds)} of one worker, about "
            f"{format_seconds(seconds / max(n_jobs, 1))} wall at n_jobs={n_jobs} if every "
            "worker is kept busy" + (f"; no estimate for {'; '.join(unknown)}." if unknown else ".")
        )
    return "\n".join(lines), total


def run_from_cli(args, options):
    """``sklearn-fair run`` (and ``--dry-run``) of a multi-data-set file; the exit status."""
    try:
        if args.dry_run:
            text, _ = dry_run_benchmark(
                args.experiment, timing=not args.no_timing, n_jobs=args.n_jobs, **options
            )
            print(text)
            return 0
        run = run_benchmark_file(
            args.experiment,
            n_jobs=args.n_jobs,
            backend=args.backend,
            dask_scheduler=args.dask_scheduler,
            **options,
        )
    except ExperimentConfigError as error:
        print(f"sklearn-fair run: {error}", file=sys.stderr)
        return 2
    print(run.result.table().to_string())
    print(f"Results written to {run.output_dir}")
    return 0
