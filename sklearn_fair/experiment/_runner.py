"""Running an experiment file: one NestedCV per model, results folder, resume on re-run."""

import csv
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from ..model_selection import NestedCV, PredefinedSplits, labels_fingerprint, load_splits
from ..report import (
    nested_cv_report,
    plot_comparison,
    plot_fold_scores,
    plot_optimism,
    result_to_dict,
)
from ..utils import fingerprint
from ._config import load_config
from ._data import load_data

MODEL_FORMAT = "sklearn-fair-experiment-model"
MODEL_VERSION = 1


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


def _config_hash(config, spec, fingerprints):
    """What a model's result depends on; a re-run reuses results with the same hash."""
    payload = {
        "version": MODEL_VERSION,
        "data": config.data,
        "protocol": config.protocol,
        "random_state": config.random_state,
        "model": spec.raw,
        "fingerprints": fingerprints,
    }
    text = json.dumps(payload, sort_keys=True, default=str)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def _read_cached(path, digest):
    try:
        with open(path, encoding="utf-8") as file:
            document = json.load(file)
    except (OSError, ValueError):
        return None
    if document.get("format") != MODEL_FORMAT or document.get("config_hash") != digest:
        return None
    return document["result"]


def _write_json(path, document):
    # Write then rename, so an interrupted run never leaves a half-written result behind.
    temporary = path.with_suffix(path.suffix + ".tmp")
    with open(temporary, "w", encoding="utf-8") as file:
        json.dump(document, file, indent=1)
    os.replace(temporary, path)
    return path


def _outer_cv(config):
    protocol = config.protocol
    if "splits_file" in protocol:
        return PredefinedSplits(
            load_splits(protocol["splits_file"], format=protocol["splits_format"])
        )
    return protocol.get("outer_cv", 10)


def _write_summary(path, rows):
    columns = list(dict.fromkeys(key for row in rows for key in row))
    with open(path, "w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)
    return path


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
        paths = [folder / f"{name}.png", folder / f"{name}.svg"]
        plot(results, path=paths)
        files += paths
    return files


def _fit_model(config, spec, X, y, n_jobs, cache_dir):
    from joblib import parallel_backend

    protocol = config.protocol
    extra = {}
    if cache_dir is not None and "cache_dir" in NestedCV(None).get_params():
        extra["cache_dir"] = os.fspath(cache_dir / spec.name)
    nested = NestedCV(
        spec.estimator,
        spec.grid,
        outer_cv=_outer_cv(config),
        inner_cv=protocol.get("inner_cv"),
        scoring=protocol.get("scoring"),
        n_refits=protocol["n_refits"],
        n_jobs=n_jobs,
        random_state=config.random_state,
        refit=False,
        verbose=int(config.progress),
        **extra,
    )
    with parallel_backend(config.backend, n_jobs=n_jobs):
        nested.fit(X, y)
    return result_to_dict(nested)


def run_experiment(path, *, n_jobs=None, progress=None):
    """Run an experiment file and write its results folder; a re-run resumes.

    For each model of the file, in order, :class:`~sklearn_fair.NestedCV` runs the
    file's protocol and the result is written to ``models/<name>.json`` at once.
    A model whose file already holds a result of the same configuration (same
    data, protocol, seed and model table) is read back instead of being fitted
    again, so an interrupted run resumes where it stopped. Then the folder gets
    ``summary.csv`` (one row per model), ``report.md`` and ``report.html`` (see
    :func:`sklearn_fair.report.nested_cv_report`), ``reproducibility.json`` and,
    with matplotlib, ``plots/*.png`` and ``plots/*.svg``.

    Parameters
    ----------
    path : str or path-like
        The experiment file (TOML; see :func:`load_config`).
    n_jobs : int, default=None
        Parallel jobs; None uses the file's ``n_jobs``.
    progress : bool, default=None
        Show progress bars (over the models, and NestedCV's over the fits); None
        uses the file's ``progress`` (true by default).

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
    config = load_config(path)
    if progress is not None:
        config.progress = bool(progress)
    n_jobs = config.n_jobs if n_jobs is None else n_jobs
    X, y = load_data(config)
    fingerprints = {"data": fingerprint(X), "labels": labels_fingerprint(y)}
    output = config.output_dir
    (output / "models").mkdir(parents=True, exist_ok=True)
    from tqdm.auto import tqdm

    results, status, files = {}, {}, []
    bar = tqdm(config.models.values(), desc="models", unit="model", disable=not config.progress)
    for spec in bar:
        bar.set_postfix_str(spec.name)
        target = output / "models" / f"{spec.name}.json"
        digest = _config_hash(config, spec, fingerprints)
        cached = _read_cached(target, digest)
        if cached is not None:
            results[spec.name], status[spec.name] = cached, "cached"
        else:
            result = _fit_model(config, spec, X, y, n_jobs, config.cache_dir)
            document = {
                "format": MODEL_FORMAT,
                "version": MODEL_VERSION,
                "name": spec.name,
                "config_hash": digest,
                "model": spec.raw,
                "estimator": repr(spec.estimator),
                "result": result,
            }
            _write_json(target, document)
            results[spec.name], status[spec.name] = result, "computed"
        files.append(target)
    splits_file = config.protocol.get("splits_file")
    report = nested_cv_report(
        results, X=X, y=y, splits_file=splits_file, title=f"Experiment {config.name}"
    )
    files.append(_write_summary(output / "summary.csv", report.rows))
    files.append(report.save(output / "report.md"))
    files.append(report.save(output / "report.html"))
    files.append(_write_json(output / "reproducibility.json", report.card.to_dict()))
    files += _write_plots(output / "plots", results, report)
    return ExperimentResult(output, results, status, report, files)
