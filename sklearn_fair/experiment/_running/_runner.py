"""Running an experiment file: one :func:`~sklearn_fair.benchmark`, one data set or many."""

import os
import time
import warnings
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from sklearn.utils._param_validation import validate_params

from ...exceptions import ExperimentConfigError
from ...model_selection import NestedCV
from ...utils import N_JOBS_CONSTRAINTS, install_hint, is_graph_data
from .._counting._checks import check_before_fit
from .._counting._plan import nested_of
from .._reading._config import LIMITS, load_config
from .._reading._data import cache_folder, load_datasets
from .._reading._text import neutral
from ._inputs import check_backend, check_outputs
from ._manifest import record_experiment
from ._outputs import (
    cell_failures,
    in_layout,
    originals,
    write_outputs,
    written_by_runner,
)
from ._resultfile import RECORD

__all__ = [
    "BenchmarkRun",
    "ExperimentResult",
    "Interrupted",
    "run_benchmark_file",
    "run_experiment",
]


@dataclass
class ExperimentResult:
    """What :func:`run_experiment` did.

    Attributes
    ----------
    output_dir : pathlib.Path
        The results folder.
    results : dict
        Model name -> its result dict (see :func:`sklearn_fair.report.result_to_dict`);
        ``(data set, model)`` -> result dict in a file with several data sets.
    status : dict
        The same keys -> ``"computed"``, or ``"cached"`` when every fit was served by the
        task cache: an earlier run's entries, or those of identical tasks of another model or
        data set of this run (each distinct task is fitted once).
    report : NestedCVReport or dict
        The report written to ``report.md`` (of the cells whose every outer fold has a
        score); data set -> report in a file with several data sets.
    files : list of pathlib.Path
        Every file written.
    benchmark : BenchmarkResult
        The run (tables, comparisons, plots, HTML).
    failures : list of dict
        Every failed fit: ``dataset``, ``model``, ``outer_fold``, ``phase``, ``error``.
    problems : list of str
        The output files that could not be made, and why (the others were written).
    cache_dir : pathlib.Path
        NestedCV's task cache of the run (a re-run serves every finished fit from it).
    removed : list of pathlib.Path
        The files of the earlier run into the folder (recorded in ``outputs.json``) that this
        run did not write (a model, a baseline or a data set left out, a plot no longer
        drawn): removed, so that the folder holds this run's results only.
    left : list of pathlib.Path
        Such files changed since the earlier run wrote them, not verified as the runner's (a
        JSON file in ``models/`` that is not a model file whose checksum holds; every file of
        an ``outputs.json`` edited since, its checksum failing) or that could not be removed:
        left as they are, possibly holding that run's results; every run names them.
    """

    output_dir: Path
    results: dict
    status: dict
    report: object
    files: list
    benchmark: object = None
    failures: list = None
    problems: list = None
    cache_dir: Path = None
    removed: list = None
    left: list = None


@dataclass
class BenchmarkRun:
    """What the deprecated :func:`run_benchmark_file` did: ``output_dir``, ``result`` (the
    BenchmarkResult) and ``files``."""

    output_dir: Path
    result: object
    files: list


class Interrupted(KeyboardInterrupt):
    """A run stopped by the user (Ctrl-C); ``cache_dir`` holds every fit it finished, and
    ``n_cached`` counts the entries written there since the run started: this run's, and those
    of any other run sharing the cache meanwhile (not those of earlier runs).
    ``output_dir`` is the results folder where the run was stopped while writing it, every fit
    done (it holds files of this run, and of an earlier one where ``earlier``; its
    ``outputs.json`` says ``"complete": false``), else None."""

    def __init__(self, cache_dir, n_cached, output_dir=None, earlier=False):
        super().__init__(cache_dir, n_cached, output_dir)
        self.cache_dir, self.n_cached, self.output_dir = cache_dir, n_cached, output_dir
        self.earlier = earlier


@contextmanager
def _backend(backend, n_jobs, scheduler):
    from joblib import parallel_backend

    client = cluster = None
    # distributed's nannies set OMP_NUM_THREADS=1, PYTHONHASHSEED... in this process's
    # environment and never unset them: every later subprocess and torch import of the
    # session would run single-threaded
    environment = dict(os.environ)
    if backend == "dask":
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise ExperimentConfigError(
                f"The dask backend needs dask.distributed. {install_hint('dask')}."
            ) from None
        if scheduler:
            client = Client(scheduler)
        else:  # dask's default served a dashboard on every interface, and one worker a core
            from joblib import effective_n_jobs

            cluster = LocalCluster(
                n_workers=effective_n_jobs(n_jobs),
                threads_per_worker=1,
                host="127.0.0.1",
                dashboard_address=None,
            )
            client = Client(cluster)
    try:
        with parallel_backend(backend, n_jobs=n_jobs):
            yield
    finally:
        for started in (client, cluster):  # the client first, then the cluster it used
            if started is not None:
                started.close()
        if os.environ != environment:
            os.environ.clear()
            os.environ.update(environment)


def _written_since(cache, start_ns):
    """How many task-cache entries in ``cache`` were written (made or rewritten) at
    ``start_ns`` or later, by their modification times: read once, on Ctrl-C, so that a run's
    start does not walk a large shared cache (a file system that keeps whole seconds only
    may leave out the entries of the run's first second)."""
    count = 0
    for path in Path(cache).glob("*/*.json"):
        with suppress(OSError):  # removed meanwhile
            count += path.stat().st_mtime_ns >= start_ns
    return count


def _benchmark_data(data):
    # graph data alone (its labels are its graphs'): benchmark reads a tuple whose first item
    # has a .y (a GraphCollection) as a sequence of graphs
    return data.X if is_graph_data(data.X) else (data.X, data.y, data.groups)


@validate_params(
    {"n_jobs": N_JOBS_CONSTRAINTS, "progress": ["boolean", None], "limits": LIMITS},
    prefer_skip_nested_validation=False,
)
def run_experiment(
    path,
    *,
    n_jobs=None,
    progress=None,
    data_dir=None,
    allow_outside_paths=False,
    allowed_packages=(),
    device=None,
    backend=None,
    dask_scheduler=None,
    output_dir=None,
    limits=None,
):
    """Run an experiment file (one data set or several) and write its results folder.

    The file (:func:`load_config`), every model on every data set (splits, candidates,
    columns of text) and the results folder (no link, FIFO or folder where a file goes, no
    output on an input file, nor an input in the task cache) are checked before the first
    fit. Then every model runs on every data set in one :func:`~sklearn_fair.benchmark` (the
    file's protocol as :class:`~sklearn_fair.NestedCV` runs it) over NestedCV's task cache
    (``cache_dir``, else ``<output_dir>/cache``), so a run interrupted or run again computes
    only what is missing. The folder gets ``models/``
    (each model's result, JSON), ``summary.csv``, ``report.md``, ``report.html``,
    ``reproducibility.json``, ``table.md``, ``scores.csv``, ``budget.csv`` (and, with a
    baseline, several data sets or three models, ``comparison.csv``, ``aggregate.csv``,
    ``ranks.txt``) and, with matplotlib, ``plots/``: outputs, never read back, and
    ``outputs.json``, their record: the next run into the folder removes the files of the
    record that it does not write itself, where they are as this run wrote them.

    Parameters
    ----------
    path : str or path-like
        The experiment file (TOML; see :func:`load_config`).
    n_jobs : int, default=None
        Parallel jobs, not 0 (negative as joblib counts them: -1 every core); None uses the
        file's ``n_jobs``.
    progress : bool, default=None
        Show a progress bar over the fits; None uses the file's ``progress`` (true by
        default).
    backend : str, default=None
        joblib backend; None uses the file's ``backend``.
    dask_scheduler : str, default=None
        With the dask backend, the address of the scheduler to connect to; None starts a
        local cluster.
    data_dir, allow_outside_paths, allowed_packages, device, output_dir, limits
        As in :func:`load_config`.

    Returns
    -------
    result : ExperimentResult

    Raises
    ------
    ExperimentConfigError
        Before any fit, for a file that cannot be run.
    Interrupted
        A KeyboardInterrupt (Ctrl-C) that says where the finished fits are cached.

    Examples
    --------
    >>> import os, tempfile
    >>> from sklearn_fair.experiment import run_experiment
    >>> folder = tempfile.mkdtemp()
    >>> path = os.path.join(folder, "iris.toml")
    >>> with open(path, "w") as f:
    ...     _ = f.write('''
    ... [data]
    ... dataset = "sklearn:iris"
    ...
    ... [protocol]
    ... outer_cv = 3
    ... n_refits = 1
    ...
    ... [models.logreg]
    ... estimator = "sklearn.linear_model.LogisticRegression"
    ... params = { max_iter = 500 }
    ... grid = { C = [0.1, 1.0] }
    ... ''')
    >>> result = run_experiment(path, progress=False)
    >>> result.status
    {'logreg': 'computed'}
    >>> sorted(os.listdir(result.output_dir))[:6]  # .outputs.lock: two runs write in turn
    ['.outputs.lock', 'budget.csv', 'cache', 'models', 'outputs.json', 'plots']
    >>> run_experiment(path, progress=False).status  # every fit served by the task cache
    {'logreg': 'cached'}
    """
    from ...benchmarking import benchmark

    config = load_config(
        path,
        data_dir=data_dir,
        allow_outside_paths=allow_outside_paths,
        allowed_packages=allowed_packages,
        device=device,
        output_dir=output_dir,
        limits=limits,
        n_jobs=n_jobs,
    )
    if progress is not None:
        config.progress = bool(progress)
    n_jobs = config.n_jobs
    backend = check_backend(config, backend, dask_scheduler)
    folder = check_outputs(config)
    cache = cache_folder(config)
    loaded = load_datasets(config)
    check_before_fit(config, loaded, planned_again=True)
    try:
        record_experiment(cache, config.path, config.source.text)  # for 'cache verify'
    except OSError as error:  # a folder that cannot be made where the check could not tell
        raise ExperimentConfigError(
            neutral(f"The cache folder {cache} cannot be written: {error}.")
        ) from None
    first = next(iter(config.datasets.values()))
    # the benchmark, its tables, report and plots know each name as it is shown (its control
    # characters escaped; the reader refused two names shown alike)
    # with NestedCV's default outer_cv: benchmark's, below, gives each data set its own (and
    # refuses a model's own that it would replace)
    models = {
        neutral(n): nested_of(config, spec, first).set_params(outer_cv=NestedCV(None).outer_cv)
        for n, spec in config.models.items()
    }
    start_ns = time.time_ns()  # a shared cache holds earlier runs' entries: not this run's
    try:
        with _backend(backend, n_jobs, dask_scheduler):
            result = benchmark(
                models,
                {neutral(name): _benchmark_data(data) for name, data in loaded.items()},
                outer_cv={
                    neutral(name): dataset.protocol.get("outer_cv", 10)
                    for name, dataset in config.datasets.items()
                },
                baseline=None if config.baseline is None else neutral(config.baseline),
                baseline_floor=config.baseline_floor,
                random_state=config.random_state,
                n_jobs=n_jobs,
                cache_dir=cache,
                verbose=int(config.progress),
            )
    except KeyboardInterrupt:
        raise Interrupted(cache, _written_since(cache, start_ns)) from None
    try:
        with folder.writing():  # another run into this folder writes before or after this one
            try:
                folder.begin(in_layout)
                problems = []
            except (OSError, ValueError) as error:  # the earlier record stays; outputs tried
                problems = [neutral(f"{RECORD}: {type(error).__name__}: {error}")]
            failures = cell_failures(config, result)
            results, reports, made = write_outputs(folder, config, result, loaded, failures)
            problems += made
            try:
                removed, left = folder.replace_record(in_layout, written_by_runner)
            except (OSError, ValueError) as error:  # the outputs are written: say so
                problems.append(neutral(f"{RECORD}: {type(error).__name__}: {error}"))
                removed, left = [], []
    except KeyboardInterrupt:
        folder.stopped()
        # the folder is incomplete once this run began writing it (not while it waited)
        written = config.output_dir if folder.begun and not folder.complete else None
        earlier = written is not None and folder.holds_earlier
        raise Interrupted(cache, _written_since(cache, start_ns), written, earlier) from None

    def key(dataset, model):
        return (dataset, model) if config.several else model

    data_of, model_of = originals(config)
    return ExperimentResult(
        output_dir=config.output_dir,
        results={key(*cell): value for cell, value in results.items()},
        status={
            key(data_of[d], model_of[m]): "computed" if nested.cache_info_["computed"] else "cached"
            for (d, m), nested in result.estimators.items()
        },
        report=reports if config.several else next(iter(reports.values()), None),
        files=folder.files,
        benchmark=result,
        failures=failures,
        problems=problems,
        cache_dir=cache,
        removed=removed,
        left=left,
    )


def run_benchmark_file(path, **options):
    """Deprecated: :func:`run_experiment` runs a file with several data sets too.

    Returns
    -------
    BenchmarkRun
    """
    warnings.warn(
        "run_benchmark_file is deprecated; run_experiment runs a file with several data sets "
        "too (its .benchmark is the BenchmarkResult).",
        FutureWarning,
        stacklevel=2,
    )
    result = run_experiment(path, **options)
    return BenchmarkRun(result.output_dir, result.benchmark, result.files)
