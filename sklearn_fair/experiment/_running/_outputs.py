"""Every file of the results folder, from the :class:`~sklearn_fair.BenchmarkResult` of the run.

Each written by ``ResultsFolder``, every text cell neutral (CSV cells spreadsheet-safe,
Markdown cells escaped), and each apart: one that cannot be made is listed, the others are
still written.
"""

import csv
import io
import math
import re
import warnings

import numpy as np

from ...exceptions import SklearnFairWarning
from ...model_selection._engine import read_json
from ...report import (
    NestedCVReport,
    nested_cv_report,
    plot_comparison,
    plot_fold_scores,
    plot_optimism,
    result_to_dict,
)
from ...report._card import card_of, cards_of_datasets
from ...report._html import render
from ...report._plots import save_figure
from ...report._verdict import table_caption
from ...utils._printing import markdown_cell, markdown_text
from ...utils._provenance import checksum
from .._reading._text import csv_cell, file_name, neutral

__all__ = [
    "cell_failures",
    "in_layout",
    "originals",
    "output_files",
    "write_outputs",
    "written_by_runner",
]

MODEL_FORMAT = "sklearn-fair-experiment-model"
MODEL_VERSION = 3


def _cell_parts(config, dataset, model):
    folder = ("models", file_name(dataset)) if config.several else ("models",)
    return (*folder, f"{file_name(model)}.json")


def _tables(config):
    """Name -> how the file's text is made from the BenchmarkResult."""
    tables = {
        "report.html": lambda result: result.to_html(title=neutral(f"Experiment {config.name}")),
        "table.md": _table_md,
        "scores.csv": _scores_csv,
        "budget.csv": lambda result: _frame_csv(result.budget),
    }
    if config.baseline is not None:
        tables["comparison.csv"] = _comparison_csv
    if config.several:
        tables["aggregate.csv"] = _aggregate_csv
        if _ranked(config):
            tables["ranks.txt"] = lambda result: neutral(_ranks_section(result).to_text()) + "\n"
    return tables


def _scores_csv(result):
    """``result.scores`` with ``validation_metric`` after ``validation_score``: the metric each
    row's validation score is of, the selecting one, which for a search given with its own
    scoring is not the row's test metric."""
    frame = result.scores
    # empty where the row has no validation score (a metric that did not select)
    metrics = [
        result.cells[dataset, model].validation_metric.name if validation == validation else ""
        for dataset, model, validation in zip(
            frame["dataset"], frame["model"], frame["validation_score"]
        )
    ]
    frame.insert(frame.columns.get_loc("validation_score") + 1, "validation_metric", metrics)
    return _frame_csv(frame)


def _table_md(result):
    """table() in Markdown under its caption: the metric, and what its marks mean."""
    # table()'s marks are decided at 1 - its default confidence, 0.95
    caption = markdown_text(neutral(table_caption(result, 0.05)))
    return f"{caption}\n\n{_markdown(result.table())}"


def _comparison_csv(result):
    """compare_to()'s table with a ``metric`` column after ``baseline``: the printed name of
    the metric compared, as scores.csv names it."""
    frame = result.compare_to()
    names = [result.cells[d, m].metric.name for d, m in zip(frame["dataset"], frame["model"])]
    frame.insert(frame.columns.get_loc("baseline") + 1, "metric", names)
    return _frame_csv(frame)


class _NotMade(Exception):
    """An output that failed fits leave nothing to make of (the report says why)."""


def _aggregate_csv(result):
    """The aggregate of the data sets where every model has every fold's score; none where
    folds failed on every data set (the run lists the failed fits). A metric not bounded
    (an RMSE, in each data set's own units) is pooled min-max normalised, each data set
    between its worst and best model's mean, as the ``normalize`` column says ("none": as
    scored; one data set is never normalised); where that cannot be done (one model), a warning
    says why there is no file."""
    if set(result._failed_models()) == set(result.datasets):
        raise _NotMade
    # one data set pools nothing across scales
    normalize = "minmax" if len(result.datasets) > 1 and result._in_own_units() else None
    try:
        frame = result.aggregate(normalize=normalize).reset_index()
    except ValueError as error:
        if normalize is None:
            raise
        warnings.warn(
            "aggregate.csv is not written: the scores are not of a bounded metric, so they "
            "may be on each data set's own scale (an RMSE in its units), and cannot be pooled "
            "without normalize='minmax', which needs two models whose mean scores differ on every "
            f"data set ({error})",
            SklearnFairWarning,
            stacklevel=2,
        )
        raise _NotMade from error
    # the metric pooled, named as scores.csv names it (several where data sets differ), and
    # where normalised which end is the best (a loss's best mean becomes 1, not its lowest)
    names = ", ".join(dict.fromkeys(result.cells[d, m].metric.name for d, m in result.cells))
    if normalize:
        names += " min-max normalised (1 the best model's mean, 0 the worst's)"
    frame.insert(frame.columns.get_loc("model") + 1, "metric", names)
    frame["normalize"] = normalize or "none"
    return _frame_csv(frame)


def _html(config, result, made):
    """report.html with the card of each data set's report (``made``), as report.md gives it:
    ``to_html`` has no data, so its card said the splits were not saved, their stratification
    unknown and no fingerprint computed."""
    card = cards_of_datasets(
        {dataset: report.card for dataset, report in made.items()},
        card_of(list(result.cells.values())),
    )
    title = neutral(f"Experiment {config.name}")
    return NestedCVReport(result, title=title, card=card).to_html()


def _ranked(config):
    """Whether the report has a Ranks section (and so ranks.txt and the critical difference):
    three models or more on two data sets or more."""
    return len(config.models) >= 3 and len(config.datasets) >= 2


def _critical_difference(result, cells):
    """The critical-difference diagram, or where fewer than two data sets have every model's
    score (folds failed), a figure that says so in the words of the report's Ranks section."""
    missing = result.missing
    complete = [d for d in result.datasets if all((d, m) not in missing for m in result.models)]
    if len(complete) >= 2:
        return result.plot_critical_difference()
    import matplotlib.pyplot as plt

    figure = plt.figure(figsize=(6.4, 1.6))
    figure.text(0.02, 0.5, " ".join(_ranks_section(result).paragraphs), va="center", wrap=True)
    return figure


def _of_complete(draw, least, why):
    """How a plot of the complete cells is drawn: ``draw(result, cells)``, or where fewer than
    ``least`` models have every fold's score, a figure that says so (as the report does: the
    failed models named, then ``why``)."""

    def make(result, cells):
        if len(cells) >= least:
            return draw(result, cells)
        import matplotlib.pyplot as plt

        failed = ", ".join(m for m in result.models if m not in cells)
        figure = plt.figure(figsize=(6.4, 1.6))
        # the names are the file's: a "$" in one is text, not mathtext
        text = why.format(failed=failed)
        figure.text(0.02, 0.5, text, va="center", wrap=True, parse_math=False)
        return figure

    return make


def _baseline_markdown(config, result):
    """The comparison with the baseline as report.html and comparison.csv give it (Holm over
    every comparison with it, across the data sets), for report.md: its reports of each data
    set compare the pairs within that data set, a family of their own."""
    title = neutral(f"Experiment {config.name}: against the baseline {config.baseline}")
    sections = [
        section
        for section in result.report().sections()
        if section.title.startswith(("Against the baseline", "Across the data sets"))
    ]
    whose = "Each data set's pairwise comparison" if config.several else "The pairwise comparison"
    lead = neutral(
        f"{whose} above adjusts over the pairs of the data set, a family of its own, so its "
        f"verdict on a pair with {config.baseline} can differ from this one's."
    )
    return "\n\n" + render(title, sections, "markdown", lead=lead).rstrip("\n")


def _ranks_section(result):
    """The Ranks section of the benchmark's report: what report.html says, in its digits,
    with the data sets it leaves out named."""
    return next(s for s in result.report().sections() if s.title == "Ranks")


def _figures(config):
    """Name -> how the plot is drawn from the BenchmarkResult and, for one data set, its
    complete cells (their IQM intervals seeded as the report's, from the benchmark's seed)."""
    figures = {"intervals": lambda result, cells: result.plot_intervals()}
    if config.several and _ranked(config):
        figures["critical_difference"] = _critical_difference
    elif not config.several:
        none = (
            "Not drawn: folds of {failed} failed (see Failed fits): no model has every "
            "fold's score."
        )
        figures["fold_scores"] = _of_complete(
            lambda result, cells: plot_fold_scores(cells, random_state=result.random_state),
            1,
            none,
        )
        figures["optimism"] = _of_complete(lambda result, cells: plot_optimism(cells), 1, none)
        if len(config.models) >= 2:
            figures["comparison"] = _of_complete(
                lambda result, cells: plot_comparison(cells),
                2,
                "No pairwise comparison: folds of {failed} failed (see Failed fits), and a "
                "paired test needs every fold's score.",
            )
    return figures


def output_files(config):
    """The parts of every file :func:`write_outputs` may write, for the check before any fit."""
    files = [_cell_parts(config, d, m) for d in config.datasets for m in config.models]
    names = ["summary.csv", "report.md", "reproducibility.json", *_tables(config)]
    plots = [("plots", f"{n}{suffix}") for n in _figures(config) for suffix in (".png", ".svg")]
    return files + [(name,) for name in names] + plots


_NAMES = ("summary.csv", "report.md", "reproducibility.json", "report.html", "table.md",
          "scores.csv", "budget.csv", "comparison.csv", "aggregate.csv", "ranks.txt")  # fmt: skip
_PLOTS = ("intervals", "fold_scores", "optimism", "comparison", "critical_difference")


def in_layout(parts):
    """Whether :func:`output_files` of some file may hold ``parts``: a table or plot of the
    runner's, or a JSON file in ``models/`` (or in a data set's folder of it), never a hidden
    name (another runner's temporary file).

    Examples
    --------
    >>> in_layout(("comparison.csv",)), in_layout(("models", "iris", "knn.json"))
    (True, True)
    >>> in_layout(("notes.txt",)), in_layout(("models", "README")), in_layout(("cache", "x.json"))
    (False, False, False)
    """
    if any(not part or part.startswith(".") for part in parts):
        return False
    if parts[0] == "models":
        return len(parts) in (2, 3) and parts[-1].endswith(".json")
    if parts[0] == "plots":
        return len(parts) == 2 and parts[1] in [p + s for p in _PLOTS for s in (".png", ".svg")]
    return len(parts) == 1 and parts[0] in _NAMES


# a model file as large as a result file the report reads; nested as its table of the
# experiment file may be (the depth limit's default, 32) inside the document
_MAX_MODEL_BYTES = 512 * 2**20
_MAX_MODEL_DEPTH = 64


def written_by_runner(parts, path):
    """Whether the file ``path`` (its ``parts`` in the folder) may be one of the runner's: a
    JSON file in ``models/`` must be a model file whose checksum holds (a JSON file of the
    user's there is not, whatever a record says of it); the other names are the runner's."""
    if parts[0] != "models":
        return True
    try:
        document = read_json(
            path, max_bytes=_MAX_MODEL_BYTES, max_depth=_MAX_MODEL_DEPTH, error=ValueError
        )
    except (ValueError, OSError):
        return False
    return (
        isinstance(document, dict)
        and document.get("format") == MODEL_FORMAT
        and document.get("checksum") == checksum(document)
    )


def originals(config):
    """``(data sets, models)``: each name of the file by its name in the benchmark (shown)."""
    return (
        {neutral(name): name for name in config.datasets},
        {neutral(name): name for name in config.models},
    )


def cell_failures(config, result):
    """Every failed fit of the run: ``dataset``, ``model`` (as the file names them),
    ``outer_fold``, ``phase`` and the last line of its ``error``."""
    data_of, model_of = originals(config)
    return [
        {
            "dataset": data_of[dataset],
            "model": model_of[model],
            "outer_fold": task["key"].get("outer_fold"),
            "phase": str(task["key"].get("phase")),
            "error": (str(task["error"]).strip().splitlines() or [""])[-1],
        }
        for (dataset, model), nested in result.estimators.items()
        for task in getattr(nested, "failed_tasks_", None) or []
    ]


def _csv(rows, columns):
    """CSV text: text cells spreadsheet-safe and quoted, numbers as numbers (NaN empty)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")
    writer.writerow([csv_cell(c) for c in columns])
    for row in rows:
        writer.writerow([csv_cell(_plain(row.get(c))) for c in columns])
    return buffer.getvalue()


def _plain(value):
    if isinstance(value, (np.floating, np.integer, np.bool_)):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None  # an empty cell; an infinity stays a number, of either sign
    return value if value is None or isinstance(value, (bool, int, float, str)) else str(value)


def _frame_csv(frame):
    return _csv(frame.to_dict("records"), [str(c) for c in frame.columns])


# table()'s marks around a cell: **best**, *not shown worse*
_MARKED = re.compile(r"(\*\*|\*)([^*].*?)\1")


def _markdown_value(value):
    """A cell of table() in Markdown: its text escaped, its mark kept as emphasis."""
    if isinstance(value, float):
        return f"{value:.4g}"
    text = neutral(value)
    marked = _MARKED.fullmatch(text)
    if marked is not None:
        return marked[1] + markdown_cell(marked[2]) + marked[1]
    return markdown_cell(text)


def _markdown(frame):
    frame = frame.reset_index()
    header = [markdown_cell(neutral(column)) for column in frame.columns]
    rows = [header, ["---"] * len(frame.columns)]
    rows += [[_markdown_value(v) for v in row] for row in frame.itertuples(index=False)]
    return "".join(f"| {' | '.join(row)} |\n" for row in rows)


def _complete(result, dataset):
    """Model -> the cell of ``dataset`` (named as in the benchmark, so that its IQM interval
    is the one of report.html), for the models whose every outer fold has a score."""
    cells = {m: result.cells[dataset, m] for m in result.models}
    return {m: cell for m, cell in cells.items() if np.all(np.isfinite(cell.scores))}


def _summaries(config, result, loaded, failures):
    """Per data set its report over every model (n/a, and why, where folds failed), and the
    summary rows: the report's, with the failed fits."""
    data_of, model_of = originals(config)
    reports, rows = {}, []
    for dataset in result.datasets:
        data, splits = loaded[data_of[dataset]], config.datasets[data_of[dataset]].splits
        title = f"Experiment {config.name}" + (f", data set {dataset}" if config.several else "")
        reports[dataset] = nested_cv_report(
            {m: result.cells[dataset, m] for m in result.models}, X=data.X, y=data.y,
            title=neutral(title), splits_file=splits["path"] if splits else None,
            random_state=result.random_state,
        )  # fmt: skip
        for model in result.models:
            cell = (data_of[dataset], model_of[model])
            failed = [f for f in failures if (f["dataset"], f["model"]) == cell]
            # the caveats of a corrected resampled t interval, as the report notes them
            notes = "; ".join(result.cells[dataset, model].corrected_t_notes)
            for row in [r for r in reports[dataset].rows if r["model"] == model]:
                row = {"dataset": dataset, **row, "failed_fits": len(failed)}
                row["first_error"] = failed[0]["error"] if failed else None
                corrected = str(row.get("ci_method")).startswith("corrected resampled t")
                row["ci_note"] = notes if corrected else ""
                rows.append(row)
    return reports, rows


def write_outputs(folder, config, result, loaded, failures):
    """Write every output file of the run into ``folder``; ``(results, reports, problems)``:
    ``(data set, model)`` -> result dict, data set -> NestedCVReport (as the file names
    them), and the outputs that could not be made, and why."""
    data_of, model_of = originals(config)
    problems, results, reports, made_reports = [], {}, {}, {}

    def attempt(what, make):
        try:
            make()
        except _NotMade:  # a consequence of failed fits, which the run reports as such
            pass
        except Exception as error:  # one output's failure loses no other
            problems.append(neutral(f"{what}: {type(error).__name__}: {error}"))

    for (shown_data, shown_model), nested in result.estimators.items():
        cell = dataset, model = data_of[shown_data], model_of[shown_model]
        results[cell] = result_to_dict(nested)
        document = {
            "format": MODEL_FORMAT, "version": MODEL_VERSION, "dataset": dataset, "name": model,
            "model": config.models[model].raw, "estimator": repr(config.models[model].estimator),
            "failed_fits": [f for f in failures if (f["dataset"], f["model"]) == cell],
            "result": results[cell],
        }  # fmt: skip
        parts = _cell_parts(config, dataset, model)
        attempt("/".join(parts), lambda p=parts, d=document: folder.write_json(p, d))

    def summaries():
        made, rows = _summaries(config, result, loaded, failures)
        made_reports.update(made)
        reports.update((data_of[dataset], report) for dataset, report in made.items())
        columns = list(dict.fromkeys(key for row in rows for key in row))
        folder.write_text(("summary.csv",), _csv(rows, columns))
        text = "\n\n".join(neutral(report.to_markdown()) for report in made.values())
        if config.baseline is not None:
            text += _baseline_markdown(config, result)
        folder.write_text(("report.md",), text)
        cards = {dataset: report.card.to_dict() for dataset, report in made.items()}
        if config.several:
            card = {"format": "sklearn-fair-experiment-cards", "datasets": cards}
        else:
            card = next(iter(cards.values()), {})
        folder.write_json(("reproducibility.json",), card)

    attempt("summary.csv, report.md, reproducibility.json", summaries)
    tables = _tables(config)
    if made_reports:  # else report.html says what it can without the data
        tables["report.html"] = lambda result: _html(config, result, made_reports)
    for name, make in tables.items():
        attempt(name, lambda n=name, m=make: folder.write_text((n,), m(result)))
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        return results, reports, problems
    cells = _complete(result, result.datasets[0])  # drawn for one data set only

    def plot(name, draw):
        figure = draw(result, cells)
        try:
            for suffix in (".png", ".svg"):  # text stays text in the SVG, which has no date
                folder.write(("plots", f"{name}{suffix}"), lambda p: save_figure(figure, p))
        finally:
            plt.close(figure)

    for name, draw in _figures(config).items():
        attempt(f"plots/{name}", lambda n=name, d=draw: plot(n, d))
    return results, reports, problems
