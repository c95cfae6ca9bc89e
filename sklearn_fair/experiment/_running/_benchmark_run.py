"""Running a multi-data-set file as one benchmark, and the command line of such files."""

import json
from dataclasses import dataclass
from pathlib import Path

from .._counting._benchmark_plans import load_benchmark_plans
from .._reading._benchmark_file import load_benchmark

__all__ = ["BenchmarkRun", "run_benchmark_file"]


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
    from ...benchmarking import benchmark
    from ...report import result_to_dict
    from ._runner import _backend, make_nested

    configs, baseline = load_benchmark(path, **options)
    first = next(iter(configs.values()))
    if progress is not None:
        first.progress = bool(progress)
    n_jobs = first.n_jobs if n_jobs is None else n_jobs
    backend = first.backend if backend is None else backend
    loaded, _ = load_benchmark_plans(configs)
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
