"""Every output of a run prints one interval per cell: summary.csv, report.md, report.html,
the fold-scores plot and ``BenchmarkResult.table(statistic="iqm")`` give each cell the IQM
interval of the generator named by its data set and model under the experiment's
random_state, and one interval of the mean (the corrected resampled t)."""

import csv
import html
import json
import re
import zlib

import numpy as np
import pytest
from scipy import stats

from sklearn_fair.experiment import run_experiment
from sklearn_fair.stats import bootstrap_ci, iqm

SEED = 3
DATA = {"iris": 'dataset = "sklearn:iris"', "wine": 'dataset = "sklearn:wine"'}
MODELS = """
[protocol]
outer_cv = 10
n_refits = 1

[models.tree]
estimator = "sklearn.tree.DecisionTreeClassifier"
params = { random_state = 0 }
grid = { max_depth = [1, 3] }

[models.knn]
estimator = "sklearn.neighbors.KNeighborsClassifier"
grid = { n_neighbors = [3, 9] }
"""
IQM_COLUMN, MEAN_COLUMN = "IQM [95% interval (bootstrap)]", "95% interval of the mean (corrected t)"


def _toml(datasets):
    head = f'[experiment]\nname = "cells"\noutput_dir = "out"\nrandom_state = {SEED}\n'
    if len(datasets) == 1:
        return head + f"progress = false\n\n[data]\n{DATA[datasets[0]]}\n" + MODELS
    tables = "".join(f"\n[data.{name}]\n{DATA[name]}\n" for name in datasets)
    return head + "progress = false\n" + tables + MODELS


def _expected(out, dataset, model, several):
    """The cell's IQM and mean intervals from its saved fold scores and splits: the bootstrap
    drawn from ``SeedSequence(random_state, spawn_key=(crc32(data set), crc32(model)))``, and
    mean +- t * sqrt((1/k + n_test/n_train) * var) clipped to accuracy's [0, 1]."""
    path = out / "models" / (f"{dataset}/{model}.json" if several else f"{model}.json")
    folds = json.loads(path.read_text())["result"]["outer_results"]
    scores = np.array([fold["test_score"] for fold in folds])
    key = tuple(zlib.crc32(name.encode()) for name in (dataset, model))
    rng = np.random.default_rng(np.random.SeedSequence(SEED, spawn_key=key))
    low, high = bootstrap_ci(scores, iqm, n_resamples=10_000, confidence=0.95, random_state=rng)
    k = scores.size
    ratio = np.mean([len(f["test_indices"]) for f in folds]) / np.mean(
        [len(f["train_indices"]) for f in folds]
    )
    half = stats.t.ppf(0.975, k - 1) * np.sqrt((1 / k + ratio) * np.var(scores, ddof=1))
    mean = np.mean(scores)
    return {
        "iqm": (iqm(scores), low, high),
        "mean": (max(mean - half, 0.0), min(mean + half, 1.0)),
    }


def _same(printed, value):
    """``printed`` is ``value`` to as many decimals as it shows."""
    decimals = len(printed.partition(".")[2])
    assert printed == f"{value:.{decimals}f}", (printed, value)


def _numbers(text):
    return re.findall(r"-?\d+(?:\.\d+)?", text)


def _check_printed(cells, expected):
    """The IQM with its interval, and the interval of the mean, of a row of a report."""
    iqm_numbers, mean_numbers = _numbers(cells[IQM_COLUMN]), _numbers(cells[MEAN_COLUMN])
    assert len(iqm_numbers) == 3 and len(mean_numbers) == 2, cells
    for printed, value in zip(iqm_numbers + mean_numbers, [*expected["iqm"], *expected["mean"]]):
        _same(printed, value)


def _markdown_rows(text, several):
    """(data set, model) -> cells of the test-performance table of each report in report.md."""
    rows, dataset, header = {}, None, None
    for line in text.splitlines():
        if line.startswith("# "):
            dataset = line.rpartition("data set ")[2] if several else None
        elif line.startswith("|") and not line.startswith("|---"):
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            if IQM_COLUMN in cells:
                header = cells
            elif header is not None and len(cells) == len(header):
                row = dict(zip(header, cells))
                rows[dataset, row["model"]] = row
        elif not line.startswith("|"):
            header = None
    return rows


def _html_rows(text):
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", text):
        cells = {
            html.unescape(label): html.unescape(re.sub(r"<[^>]+>", "", value))
            for label, value in re.findall(r'<td[^>]*data-label="([^"]*)"[^>]*>(.*?)</td>', row)
        }
        if IQM_COLUMN in cells:
            rows[cells.get("data set"), cells["model"]] = cells
    return rows


@pytest.fixture
def saved_figures(monkeypatch):
    """File name -> the figure saved there."""
    from matplotlib.figure import Figure

    saved, savefig = {}, Figure.savefig

    def recording(figure, path, *args, **kwargs):
        saved[str(path)] = figure
        return savefig(figure, path, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", recording)
    return saved


def _fold_scores_plot(saved):
    """model -> ((mean low, high), (IQM low, high)) as the fold-scores plot draws them."""
    (figure,) = {id(f): f for p, f in saved.items() if "fold_scores" in p}.values()
    ax = figure.axes[0]
    names = [label.get_text() for label in ax.get_yticklabels()]
    bars = [c.lines[2][0].get_segments()[0][:, 0] for c in ax.containers]
    return {name: (tuple(bars[2 * i]), tuple(bars[2 * i + 1])) for i, name in enumerate(names)}


@pytest.mark.parametrize("datasets", [["wine"], ["iris", "wine"]], ids=["one", "several"])
def test_every_output_prints_each_cells_interval_of_its_named_seed(
    tmp_path, saved_figures, datasets
):
    several = len(datasets) > 1
    path = tmp_path / "cells.toml"
    path.write_text(_toml(datasets))
    run = run_experiment(path)
    out = tmp_path / "out"
    assert run.benchmark.datasets == datasets and run.benchmark.random_state == SEED
    with open(out / "summary.csv", newline="") as file:
        summary = {(row["dataset"], row["model"]): row for row in csv.DictReader(file)}
    markdown = _markdown_rows((out / "report.md").read_text(), several)
    page = _html_rows((out / "report.html").read_text())
    table = run.benchmark.table(statistic="iqm")
    plotted = _fold_scores_plot(saved_figures) if not several else {}
    cells = [(d, m) for d in datasets for m in ("tree", "knn")]
    assert sorted(summary) == sorted(cells)  # each row names its data set
    assert len(markdown) == len(page) == len(cells)
    differs = False
    for dataset, model in cells:
        expected = _expected(out, dataset, model, several)
        row = summary[dataset, model]
        got = [float(row[k]) for k in ("iqm", "iqm_ci_low", "iqm_ci_high", "ci_low", "ci_high")]
        np.testing.assert_allclose(got, [*expected["iqm"], *expected["mean"]], rtol=1e-12)
        _check_printed(markdown[dataset if several else None, model], expected)
        _check_printed(page[dataset if several else None, model], expected)
        printed = _numbers(table.loc[model, dataset])  # the IQM [interval], bold or italic
        for text, value in zip(printed, expected["iqm"], strict=True):
            _same(text, value)
        if plotted:
            mean, interval = plotted[model]
            np.testing.assert_allclose(mean, expected["mean"], rtol=1e-12)
            np.testing.assert_allclose(interval, expected["iqm"][1:], rtol=1e-12)
        # the seed matters here: a cell seeded by another data set's name ("data") differs
        rng = np.random.default_rng(
            np.random.SeedSequence(
                SEED, spawn_key=(zlib.crc32(b"data"), zlib.crc32(model.encode()))
            )
        )
        scores = run.benchmark.cells[dataset, model].scores
        other = bootstrap_ci(scores, iqm, n_resamples=10_000, random_state=rng)
        differs |= tuple(other) != tuple(expected["iqm"][1:])
    assert differs
