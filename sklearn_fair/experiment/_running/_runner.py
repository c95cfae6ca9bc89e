"""Running an experiment file: one NestedCV per model, results folder, resume on re-run."""

import csv
import os
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..._cache_verify import record_experiment
from ...exceptions import CacheWarning, ExperimentConfigError
from ...model_selection import labels_fingerprint
from ...report import (
    nested_cv_report,
    plot_comparison,
    plot_fold_scores,
    plot_optimism,
    result_to_dict,
)
from ...utils import fingerprint, install_hint, progress_over
from .._counting._checks import check_before_fit
from .._counting._plan import nested_of
from .._reading._config import open_experiment
from .._reading._data import load_data, work_dir
from .._reading._text import csv_cell, neutral
from ._hashing import result_hash
from ._resultfile import check_result, read_result_file, refuse_non_regular, write_atomic
from ._resultfile import write_json as _write_json

MODEL_FORMAT = "sklearn-fair-experiment-model"
MODEL_VERSION = 2
# NestedCV parameters that cannot change a result, left out of its hash.
_NOT_HASHED = ("estimator", "param_grid", "n_jobs", "verbose", "cache_dir")


@dataclass
class ExperimentResult:
    """What :func:`run_experiment` did.

    Attributes
    ----------
    output_dir : pathlib.Path
        The results folder.
    results : dict
        Model name -> its result dict (see :func:`sklearn_fair.report.result_to_dict`).
    status : dict
        Model name -> ``"computed"`` or ``"cached"`` (read back from a previous run).
    report : NestedCVReport
        The report written to ``report.md``.
    files : list of pathlib.Path
        Every file written, per-model results included.
    """

    output_dir: Path
    results: dict
    status: dict
    report: object
    files: list


def _inside(folder, name):
    """``folder / name``, refusing a name that would leave ``folder``."""
    path = folder / name
    if path.resolve().parent != folder.resolve():
        raise ExperimentConfigError(f"The model name {name!r} would write outside {folder}.")
    return path


def _scorings(config, estimator):
    """Metric key -> scorer name of the run (None: the estimator's default score)."""
    from sklearn.base import is_classifier

    scoring = config.protocol.get("scoring")
    if scoring is None:
        return {"score": "accuracy" if is_classifier(estimator) else None}
    if isinstance(scoring, str):
        return {"score": scoring}
    if isinstance(scoring, dict):
        return dict(scoring)
    return {name: name for name in scoring}


def _read_cached(path, digest, scorings=None):
    """``(result, None)`` read back, or ``(None, why it is not)`` (``why`` None: no file).

    The file must be sound (:func:`read_result_file`: a regular file, its checksum), be
    this model's result (format, hash of what it depends on) and hold a result whose
    fields and scores are possible for the run's metrics.
    """
    document, problem = read_result_file(path)
    if document is None:
        return None, problem
    if document.get("format") != MODEL_FORMAT or document.get("version") != MODEL_VERSION:
        return None, "is not a result file of this version"
    if document.get("config_hash") != digest:
        return None, None  # the result of another configuration: recomputed without a word
    result = document.get("result")
    if scorings is not None:
        problem = check_result(result, scorings)
        if problem:
            return None, f"holds an impossible result: {problem}"
    return result, None


def _write_summary(path, rows):
    """summary.csv: text cells spreadsheet-safe (OWASP: no cell starts a formula), numbers
    as numbers, every text cell quoted."""
    columns = list(dict.fromkeys(key for row in rows for key in row))

    def write(temporary):
        with open(temporary, "w", newline="", encoding="utf-8") as file:
            writer = csv.DictWriter(
                file, fieldnames=[csv_cell(c) for c in columns], quoting=csv.QUOTE_NONNUMERIC
            )
            writer.writeheader()
            for row in rows:
                writer.writerow({csv_cell(k): csv_cell(v) for k, v in row.items()})

    return Path(write_atomic(path, write))


def _write_plots(folder, results, report):
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return []
    folder.mkdir(exist_ok=True)
    plots = [("fold_scores", plot_fold_scores), ("optimism", plot_optimism)]
    if report.comparison is not None:
        plots.append(("comparison", plot_comparison))
    files = []
    for name, plot in plots:
        for path in (folder / f"{name}.png", folder / f"{name}.svg"):
            write_atomic(path, lambda temporary, plot=plot: plot(results, path=[temporary]))
            files.append(path)
    return files


_OUTPUTS = ("summary.csv", "report.md", "report.html", "reproducibility.json")


def _check_targets(output, config):
    """Refuse, before any fit, a results folder where something other than a regular file
    stands in the place of a result (a FIFO would block a reader; a link leads elsewhere)."""
    targets = [output / name for name in _OUTPUTS]
    targets += [output / "models" / f"{spec.name}.json" for spec in config.models.values()]
    for target in targets:  # model names hold no separator (checked when read)
        problem = refuse_non_regular(target)
        if problem is not None:
            raise ExperimentConfigError(
                neutral(f"The results folder holds {target}, which {problem}; remove it.")
            )
    for spec in config.models.values():
        _inside(output / "models", f"{spec.name}.json")


def make_nested(config, spec, n_jobs):
    """The model's NestedCV, as the file describes it (with the file's cache folder)."""
    cache_dir = None
    if config.cache_dir is not None:
        cache_dir = os.fspath(_inside(config.cache_dir, spec.name))
    return nested_of(config, spec, n_jobs=n_jobs, cache_dir=cache_dir)


def _data_fingerprint(data):
    return {
        "X": fingerprint(data.X),
        "y": labels_fingerprint(data.y),
        "y_values": fingerprint(data.y),
        "groups": None if data.groups is None else fingerprint(data.groups),
    }


@contextmanager
def _backend(backend, n_jobs, scheduler):
    from joblib import parallel_backend

    client = None
    if backend == "dask":
        try:
            from distributed import Client
        except ImportError:
            raise ExperimentConfigError(
                f"The dask backend needs dask.distributed. {install_hint('dask')}."
            ) from None
        client = Client(scheduler) if scheduler else Client()
    try:
        with parallel_backend(backend, n_jobs=n_jobs):
            yield
    finally:
        if client is not None:
            client.close()


def _run_model(config, spec, data, data_fingerprint, target, n_jobs):
    """``("cached", result)`` read back, or ``("computed", result)`` fitted and written."""
    nested = make_nested(config, spec, n_jobs)
    params = {k: v for k, v in nested.get_params(deep=False).items() if k not in _NOT_HASHED}
    digest, depends_on = result_hash(
        nested_params=params,
        estimator=spec.estimator,
        grid=spec.grid,
        data_fingerprint=data_fingerprint,
        format_version=MODEL_VERSION,
    )
    cached, problem = _read_cached(target, digest, _scorings(config, spec.estimator))
    if cached is not None:
        return "cached", cached
    if problem is not None:
        warnings.warn(
            neutral(
                f"The earlier result {target} {problem}; it is not read back, model "
                f"{spec.name!r} is computed again."
            ),
            CacheWarning,
            stacklevel=3,
        )
    nested.fit(data.X, data.y, groups=data.groups)
    result = result_to_dict(nested)
    document = {
        "format": MODEL_FORMAT,
        "version": MODEL_VERSION,
        "name": spec.name,
        "config_hash": digest,
        "depends_on": depends_on,
        "model": spec.raw,
        "estimator": repr(spec.estimator),
        "result": result,
    }
    _write_json(target, document)
    return "computed", result


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
    """Run an experiment file and write its results folder; a re-run resumes.

    The file is read and checked whole (:func:`load_config`), then the data are read and
    every model checked against them (the splits, every candidate, columns of text reaching
    an encoder) before the first fit. Then, for each model, in order,
    :class:`~sklearn_fair.NestedCV` runs the file's protocol and the result is written to
    ``models/<name>.json`` at once. A model whose file already holds a result of the same
    hash is read back instead of being fitted again, so an interrupted run resumes where it
    stopped. The hash covers what the result depends on, by content: the data, the splits
    (their indices, not the file's path), the estimator with all its parameters, the grid,
    every NestedCV parameter, the seed and the versions of the packages involved. Then the
    folder gets ``summary.csv`` (one row per model), ``report.md`` and ``report.html`` (see
    :func:`sklearn_fair.report.nested_cv_report`), ``reproducibility.json`` and, with
    matplotlib, ``plots/*.png`` and ``plots/*.svg``.

    Parameters
    ----------
    path : str or path-like
        The experiment file (TOML; see :func:`load_config`).
    n_jobs : int, default=None
        Parallel jobs; None uses the file's ``n_jobs``.
    progress : bool, default=None
        Show progress bars (over the models, and NestedCV's over the fits); None
        uses the file's ``progress`` (true by default).
    data_dir : str or path-like, default=None
        The data folder ``${SKLEARN_FAIR_DATA}`` stands for; None uses that variable.
    allow_outside_paths : bool, default=False
        Accept paths outside the file's folder and the data folder.
    allowed_packages : sequence of str, default=()
        Further packages whose classes the file may name.
    device : str, default=None
        Set the ``device`` of every estimator that has one (e.g. ``"cuda"``).
    backend : str, default=None
        joblib backend; None uses the file's ``backend``.
    dask_scheduler : str, default=None
        With the dask backend, the address of the scheduler to connect to; None starts a
        local cluster.
    output_dir : str or path-like, default=None
        The results folder, anywhere; None uses the file's ``output_dir``.
    limits : dict or Limits, default=None
        Raise, for this run, the limits on the work the file may ask for (workers,
        refits, candidates, folds, nesting, sizes; see
        :class:`~sklearn_fair.experiment.Limits`). The file cannot raise them.

    Returns
    -------
    result : ExperimentResult

    Raises
    ------
    ExperimentConfigError
        Before any fit, for a file that cannot be run.

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
    >>> sorted(os.listdir(result.output_dir))[:4]
    ['models', 'plots', 'report.html', 'report.md']
    >>> run_experiment(path, progress=False).status  # the second run reads the result back
    {'logreg': 'cached'}
    """
    config = open_experiment(
        path,
        data_dir=data_dir,
        allow_outside_paths=allow_outside_paths,
        allowed_packages=allowed_packages,
        device=device,
        output_dir=output_dir,
        limits=limits,
    )
    if progress is not None:
        config.progress = bool(progress)
    n_jobs = config.n_jobs if n_jobs is None else n_jobs
    backend = config.backend if backend is None else backend
    if config.cache_dir is not None:  # which file wrote the cache: for 'sklearn-fair cache verify'
        record_experiment(config.cache_dir, config.path)
    data = load_data(config, work_dir(config))
    check_before_fit(config, data)
    data_fingerprint = _data_fingerprint(data)
    output = config.output_dir
    (output / "models").mkdir(parents=True, exist_ok=True)
    _check_targets(output, config)
    results, status, files = {}, {}, []
    models = progress_over(  # off a terminal: one line per model, never a bar's \r
        config.models.values(), label="models", enabled=config.progress, name=lambda s: s.name
    )
    with _backend(backend, n_jobs, dask_scheduler):
        for spec in models:
            target = _inside(output / "models", f"{spec.name}.json")
            status[spec.name], results[spec.name] = _run_model(
                config, spec, data, data_fingerprint, target, n_jobs
            )
            files.append(target)
    splits_file = config.splits["path"] if config.splits else None
    report = nested_cv_report(
        results, X=data.X, y=data.y, splits_file=splits_file, title=f"Experiment {config.name}"
    )
    files.append(_write_summary(output / "summary.csv", report.rows))
    for name in ("report.md", "report.html"):
        write_atomic(output / name, report.save)
        files.append(output / name)
    files.append(Path(_write_json(output / "reproducibility.json", report.card.to_dict())))
    files += _write_plots(output / "plots", results, report)
    return ExperimentResult(output, results, status, report, files)
