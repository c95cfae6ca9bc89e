"""Every file of the results folder, from the :class:`~sklearn_fair.BenchmarkResult` of the run.

One data set or many, the same files: ``models/`` (each cell's result, JSON),
``summary.csv``, ``report.md``, ``report.html``, ``reproducibility.json``, ``table.md``,
``scores.csv``, ``budget.csv``, with a baseline ``comparison.csv``, with several data sets
``aggregate.csv`` (and with three models or more ``ranks.txt``), and the plots. Each is
written by :class:`~._resultfile.ResultsFolder` (inside the folder, atomically, never through
a link), every text cell neutral (CSV cells spreadsheet-safe, Markdown cells escaped), and each
apart: one that cannot be made is listed in the result and the others are still written.
"""

import csv
import io
import math

import numpy as np

from ...report import (
    nested_cv_report,
    plot_comparison,
    plot_fold_scores,
    plot_optimism,
    result_to_dict,
)
from .._reading._text import csv_cell, file_name, markdown_cell, neutral

__all__ = ["cell_failures", "originals", "output_files", "write_outputs"]

MODEL_FORMAT = "sklearn-fair-experiment-model"
MODEL_VERSION = 3


def _cell_parts(config, dataset, model):
    if config.several:
        return ("models", file_name(dataset), f"{file_name(model)}.json")
    return ("models", f"{file_name(model)}.json")


def _plots(config):
    if config.several:
        names = ["intervals"]
        if len(config.models) >= 3:
            names.append("critical_difference")
    else:
        names = ["fold_scores", "optimism", "intervals"]
        if len(config.models) >= 2:
            names.append("comparison")
    return [("plots", f"{name}{suffix}") for name in names for suffix in (".png", ".svg")]


def output_files(config):
    """The parts of every file :func:`write_outputs` may write, for the check before any fit."""
    files = [_cell_parts(config, d, m) for d in config.datasets for m in config.models]
    names = ["summary.csv", "report.md", "report.html", "reproducibility.json", "table.md",
             "scores.csv", "budget.csv"]  # fmt: skip
    if config.baseline is not None:
        names.append("comparison.csv")
    if config.several:
        names += ["aggregate.csv", "ranks.txt"]
    return files + [(name,) for name in names] + _plots(config)


def originals(config):
    """The names of the file by the names the benchmark knows them by (as shown:
    :func:`neutral`): ``(data sets, models)``."""
    return (
        {neutral(name): name for name in config.datasets},
        {neutral(name): name for name in config.models},
    )


def cell_failures(config, result):
    """Every failed fit of the run: ``dataset``, ``model`` (as the file names them),
    ``outer_fold``, ``phase`` and the last line of its ``error``, in the order of the cells."""
    data_of, model_of = originals(config)
    failures = []
    for (shown_data, shown_model), nested in result.estimators.items():
        dataset, model = data_of[shown_data], model_of[shown_model]
        for task in getattr(nested, "failed_tasks_", None) or []:
            lines = str(task["error"]).strip().splitlines() or [""]
            failures.append(
                {
                    "dataset": dataset,
                    "model": model,
                    "outer_fold": task["key"].get("outer_fold"),
                    "phase": str(task["key"].get("phase")),
                    "error": lines[-1],
                }
            )
    return failures


def _csv(rows, columns=None):
    """CSV text: every text cell spreadsheet-safe (OWASP: no cell starts a formula) and
    quoted, numbers as numbers."""
    columns = columns or list(dict.fromkeys(key for row in rows for key in row))
    buffer = io.StringIO()
    writer = csv.writer(buffer, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")
    writer.writerow([csv_cell(c) for c in columns])
    for row in rows:
        writer.writerow([csv_cell(_plain(row.get(c))) for c in columns])
    return buffer.getvalue()


def _plain(value):
    if isinstance(value, (np.floating, np.integer, np.bool_)):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None if math.isnan(value) else str(value)
    return value if value is None or isinstance(value, (bool, int, float, str)) else str(value)


def _frame_csv(frame, index=False):
    frame = frame.reset_index() if index else frame
    return _csv(frame.to_dict("records"), [str(c) for c in frame.columns])


def _markdown(frame):
    frame = frame.reset_index()
    lines = [
        "| " + " | ".join(markdown_cell(c) for c in frame.columns) + " |",
        "|" + "---|" * len(frame.columns),
    ]
    for row in frame.itertuples(index=False):
        cells = [f"{v:.4g}" if isinstance(v, float) else markdown_cell(v) for v in row]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _finite(nested):
    return all(np.isfinite(score) for score in nested.outer_scores_)


def _dataset_reports(config, result, loaded, failures):
    """Per data set: its report (:func:`nested_cv_report`) over the cells whose every outer
    fold has a score, and the summary rows (a failed cell is a row with its first error)."""
    data_of, model_of = originals(config)
    reports, rows = {}, []
    for dataset in result.datasets:
        cells = {m: result.estimators[dataset, m] for m in result.models}
        complete = {m: nested for m, nested in cells.items() if _finite(nested)}
        data = loaded[data_of[dataset]]
        splits = config.datasets[data_of[dataset]].splits
        title = f"Experiment {config.name}" + (f", data set {dataset}" if config.several else "")
        report_rows = []
        if complete:
            report = nested_cv_report(
                complete, X=data.X, y=data.y, title=neutral(title),
                splits_file=splits["path"] if splits else None,
            )  # fmt: skip
            reports[dataset], report_rows = report, report.rows
        for model in cells:
            failed = [
                f
                for f in failures
                if f["dataset"] == data_of[dataset] and f["model"] == model_of[model]
            ]
            first = failed[0]["error"] if failed else None
            found = [dict(row) for row in report_rows if row["model"] == model] or [
                {"model": model, "error": "every outer fold failed, no score"}
            ]
            for row in found:
                row.update(failed_fits=len(failed), first_error=first)
                rows.append({"dataset": dataset, **row} if config.several else row)
    return reports, rows


def _cards(reports, several):
    cards = {dataset: report.card.to_dict() for dataset, report in reports.items()}
    if not several:
        return next(iter(cards.values()), {})
    return {"format": "sklearn-fair-experiment-cards", "datasets": cards}


def _save_figure(folder, name, figure):
    from matplotlib import rc_context

    for suffix in (".png", ".svg"):

        def write(temporary):
            with rc_context({"svg.fonttype": "none", "svg.hashsalt": "sklearn-fair"}):
                figure.savefig(temporary, dpi=120)  # text stays text in the SVG

        folder.write(("plots", f"{name}{suffix}"), write)


def _write_plots(folder, config, result, reports):
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        return
    figures = {"intervals": result.plot_intervals}
    if config.several and len(result.models) >= 3:
        figures["critical_difference"] = result.plot_critical_difference
    if not config.several and reports:
        (dataset,) = result.datasets
        cells = {m: result.estimators[dataset, m] for m in result.models}
        cells = {m: nested for m, nested in cells.items() if _finite(nested)}
        figures["fold_scores"] = lambda: plot_fold_scores(cells)
        figures["optimism"] = lambda: plot_optimism(cells)
        if len(cells) >= 2:
            figures["comparison"] = lambda: plot_comparison(cells)
    for name, plot in figures.items():
        figure = plot()
        try:
            _save_figure(folder, name, figure)
        finally:
            plt.close(figure)


def write_outputs(folder, config, result, loaded):
    """Write every output file of the run into ``folder`` (a :class:`ResultsFolder`).

    Parameters
    ----------
    folder : ResultsFolder
    config : ExperimentConfig
    result : BenchmarkResult
        What :func:`~sklearn_fair.benchmark` returned.
    loaded : dict
        Data set name -> Data (for the reproducibility card).

    Returns
    -------
    results : dict
        ``(data set, model)`` -> its result dict (:func:`~sklearn_fair.report.result_to_dict`),
        as the file names them.
    reports : dict
        Data set (as the file names it) -> :class:`~sklearn_fair.report.NestedCVReport` (of
        its complete cells).
    problems : list of str
        The outputs that could not be made, and why.
    """
    failures = cell_failures(config, result)
    data_of, model_of = originals(config)
    problems, results = [], {}

    def attempt(what, make):
        try:
            make()
        except Exception as error:  # one output's failure loses no other
            problems.append(neutral(f"{what}: {type(error).__name__}: {error}"))

    for (shown_data, shown_model), nested in result.estimators.items():
        dataset, model = data_of[shown_data], model_of[shown_model]
        document = {
            "format": MODEL_FORMAT,
            "version": MODEL_VERSION,
            "dataset": dataset,
            "name": model,
            "model": config.models[model].raw,
            "estimator": repr(config.models[model].estimator),
            "failed_fits": [f for f in failures if (f["dataset"], f["model"]) == (dataset, model)],
            "result": result_to_dict(nested),
        }
        results[dataset, model] = document["result"]
        attempt(
            f"models/{dataset}/{model}",
            lambda d=dataset, m=model, doc=document: folder.write_json(
                _cell_parts(config, d, m), doc
            ),
        )
    reports = {}

    def summaries():
        made, rows = _dataset_reports(config, result, loaded, failures)
        reports.update((data_of[dataset], report) for dataset, report in made.items())
        folder.write_text(("summary.csv",), _csv(rows))
        text = "\n\n".join(neutral(report.to_markdown()) for report in made.values())
        folder.write_text(("report.md",), text)
        folder.write_json(("reproducibility.json",), _cards(made, config.several))

    attempt("summary.csv, report.md, reproducibility.json", summaries)
    title = neutral(f"Experiment {config.name}")
    attempt("report.html", lambda: folder.write_text(("report.html",), result.to_html(title=title)))
    attempt("table.md", lambda: folder.write_text(("table.md",), _markdown(result.table())))
    attempt("scores.csv", lambda: folder.write_text(("scores.csv",), _frame_csv(result.scores)))
    attempt("budget.csv", lambda: folder.write_text(("budget.csv",), _frame_csv(result.budget)))
    if config.baseline is not None:
        attempt(
            "comparison.csv",
            lambda: folder.write_text(("comparison.csv",), _frame_csv(result.compare_to())),
        )
    if config.several:
        attempt(
            "aggregate.csv",
            lambda: folder.write_text(("aggregate.csv",), _frame_csv(result.aggregate(), True)),
        )
        if len(result.models) >= 3:
            attempt(
                "ranks.txt",
                lambda: folder.write_text(("ranks.txt",), neutral(result.rank_comparison()) + "\n"),
            )
    attempt("plots", lambda: _write_plots(folder, config, result, reports))
    return results, reports, problems
