"""Experiment files with several data sets ([data.NAME]): the same runner as one data set (one
benchmark underneath), the runner's checks."""

import html
import itertools
import json
import re

import numpy as np
import pytest
from scipy.stats import friedmanchisquare, rankdata
from sklearn.datasets import load_iris, load_wine
from sklearn.model_selection import StratifiedKFold

from sklearn_fair.cli import main
from sklearn_fair.exceptions import ExperimentConfigError, MissingCellsWarning
from sklearn_fair.experiment import dry_run, dry_run_benchmark, run_benchmark_file, run_experiment
from sklearn_fair.model_selection import save_splits

MODELS = """
[protocol]
n_refits = 2
outer_cv = 3

[models.prior]
estimator = "sklearn.dummy.DummyClassifier"

[models.tree]
estimator = "sklearn.tree.DecisionTreeClassifier"
grid = { max_depth = [1, 3] }

[models.knn]
estimator = "sklearn.neighbors.KNeighborsClassifier"
grid = { n_neighbors = [3, 9] }
"""

BENCHMARK = (
    """
[experiment]
random_state = 4
output_dir = "out"

[benchmark]
baseline = "prior"

[data.iris]
dataset = "sklearn:iris"

[data.wine]
dataset = "sklearn:wine"
splits_file = "wine_splits.json"
"""
    + MODELS
)


@pytest.fixture
def folder(tmp_path):
    X, y = load_wine(return_X_y=True)
    splits = list(StratifiedKFold(4, shuffle=True, random_state=2).split(X, y))
    save_splits(splits, tmp_path / "wine_splits.json", y=y)
    (tmp_path / "bench.toml").write_text(BENCHMARK)
    for name, data in (("iris", 'dataset = "sklearn:iris"'), ("wine", 'dataset = "sklearn:wine"')):
        single = f'[experiment]\nrandom_state = 4\noutput_dir = "out_{name}"\n[data]\n{data}\n'
        models = MODELS
        if name == "wine":
            models = MODELS.replace("outer_cv = 3", 'splits_file = "wine_splits.json"')
        (tmp_path / f"{name}.toml").write_text(single + models)
    return tmp_path


def test_each_cell_is_the_single_data_set_run(folder):
    run = run_experiment(folder / "bench.toml", progress=False)
    assert run.benchmark.datasets == ["iris", "wine"]
    assert run.benchmark.models == ["prior", "tree", "knn"]
    for dataset in ("iris", "wine"):
        single = run_experiment(folder / f"{dataset}.toml", progress=False)
        for model, saved in single.results.items():
            cell = run.benchmark.estimators[dataset, model]
            expected = [fold["test_score"] for fold in saved["outer_results"]]
            np.testing.assert_array_equal(cell.outer_scores_, expected)
            assert cell.best_params_per_fold_ == [f["best_params"] for f in saved["outer_results"]]
    wine = run.benchmark.estimators["wine", "tree"]
    assert wine.n_splits_ == 4  # the data set's own splits file
    out = folder / "out"
    for name in ("table.md", "scores.csv", "comparison.csv", "ranks.txt", "report.html",
                 "summary.csv", "report.md", "aggregate.csv", "budget.csv"):  # fmt: skip
        assert (out / name).is_file(), name
    assert (out / "plots" / "critical_difference.svg").is_file()
    saved = json.loads((out / "models" / "iris" / "tree.json").read_text())
    assert (saved["dataset"], saved["name"]) == ("iris", "tree")
    np.testing.assert_array_equal(
        [f["test_score"] for f in saved["result"]["outer_results"]],
        run.benchmark.estimators["iris", "tree"].outer_scores_,
    )
    assert run.results["iris", "tree"] == saved["result"]


def test_a_rerun_with_a_cache_computes_nothing(folder):
    path = folder / "bench.toml"
    path.write_text(BENCHMARK.replace('output_dir = "out"', 'output_dir = "out"\ncache_dir = "c"'))
    first = run_experiment(path, progress=False)
    again = run_experiment(path, progress=False)
    infos = [cell.cache_info_ for cell in again.benchmark.estimators.values()]
    assert sum(i["computed"] for i in infos) == 0
    assert set(again.status.values()) == {"cached"}
    assert sum(i["hits"] for i in infos) == sum(
        c.cache_info_["computed"] for c in first.benchmark.estimators.values()
    )


def test_dry_run_counts_every_cell(folder):
    report = dry_run(folder / "bench.toml", timing=False)
    singles = sum(dry_run(folder / f"{d}.toml", timing=False).total_fits for d in ("iris", "wine"))
    assert report.total_fits == singles
    assert f"Total: {singles} fits" in report.text and "wine" in report.text
    assert sorted(report.plans) == [
        (d, m) for d in ("iris", "wine") for m in ("knn", "prior", "tree")
    ]
    timed = dry_run(folder / "bench.toml", n_jobs=2)
    assert "Estimated compute" in timed.text and "wall at n_jobs=2" in timed.text


def test_the_names_that_went_are_deprecated_and_still_work(folder):
    with pytest.warns(FutureWarning, match="run_experiment runs a file with several"):
        run = run_benchmark_file(folder / "bench.toml", progress=False)
    assert run.result.datasets == ["iris", "wine"] and run.output_dir == folder / "out"
    with pytest.warns(FutureWarning, match="dry_run counts a file with several"):
        text, total = dry_run_benchmark(folder / "bench.toml", timing=False)
    assert total == dry_run(folder / "bench.toml", timing=False).total_fits and "wine" in text


@pytest.mark.parametrize(
    "edit, match",
    [
        (('baseline = "prior"', 'baseline = "svm"'), r"key 'benchmark.baseline': must name one"),
        (("[benchmark]", "[benchmark]\nbudget = 3"), r"key 'benchmark.budget': unknown key"),
        (
            ('dataset = "sklearn:wine"', 'dataset = "sklearn:wines"'),
            r"unknown data set 'sklearn:wines'",
        ),
        (("grid = { max_depth = [1, 3] }", "grid = { depth = [1] }"), r"line 2\d, key 'models"),
    ],
)
def test_errors_name_the_line_and_key(folder, edit, match):
    path = folder / "bench.toml"
    path.write_text(BENCHMARK.replace(*edit))
    with pytest.raises(ExperimentConfigError, match=match):
        run_experiment(path, progress=False)


def test_cli_runs_and_dry_runs_a_benchmark_file(folder, capsys):
    path = str(folder / "bench.toml")
    assert main(["run", path, "--dry-run"]) == 0
    assert "Total:" in capsys.readouterr().out
    assert main(["run", path]) == 0
    output = capsys.readouterr().out
    assert "Results written to" in output and "wine" in output
    (folder / "bad.toml").write_text(BENCHMARK.replace('baseline = "prior"', 'baseline = "x"'))
    assert main(["run", str(folder / "bad.toml")]) == 2
    assert "benchmark.baseline" in capsys.readouterr().err


def test_iris_through_the_loader_matches_load_iris(folder):
    run = run_experiment(folder / "bench.toml", progress=False)
    X, y = load_iris(return_X_y=True)
    folds = run.benchmark.estimators["iris", "prior"].outer_results_
    assert sum(len(f["test_indices"]) for f in folds) == len(y)


def _ranks_said(text):
    """``(model -> average rank, Friedman's p, the sentence)`` of a Ranks section's text."""
    ranks = dict(re.findall(r"^(\w+)\s+(\d\.\d\d)$", text, re.M))
    sentence = next(line for line in text.splitlines() if line.startswith("Ranks of"))
    return ranks, re.search(r"Friedman's test: chi-square \S+, p ([\d.e-]+);", text)[1], sentence


def _with_a_failing_model(folder, text, before):
    """Run ``text`` with breast_cancer inserted before the table ``before`` and k-NN replaced
    by GaussianNB with 3-class priors, which fails on every fold of breast_cancer (2 classes)."""
    bayes = 'estimator = "sklearn.naive_bayes.GaussianNB"\nparams = { priors = [0.3, 0.3, 0.4] }'
    text = text.replace(before, f'[data.cancer]\ndataset = "sklearn:breast_cancer"\n\n{before}')
    knn = text[text.index("[models.knn]") :]
    (folder / "e.toml").write_text(text.replace(knn, f"[models.bayes]\n{bayes}\n"))
    with pytest.warns(MissingCellsWarning):
        return run_experiment(folder / "e.toml", progress=False)


def test_ranks_txt_says_what_the_report_says_with_the_data_set_left_out(folder):
    run = _with_a_failing_model(folder, BENCHMARK, "[data.wine]")
    assert run.benchmark.models == ["prior", "tree", "bayes"]
    written = (folder / "out" / "ranks.txt").read_text()
    page = (folder / "out" / "report.html").read_text()
    section = re.search(r'<section id="ranks">(.*?)</section>', page, re.S)[1]
    cells = re.findall(r'data-label="model">(\w+)</td><td[^>]*>([\d.]+)</td>', section)
    paragraph = html.unescape(re.search(r"<p>(Ranks of.*?)</p>", section, re.S)[1])
    ranks, p, sentence = _ranks_said(written)
    assert ranks == dict(cells) and sentence == paragraph
    assert "over 2 data sets" in sentence and "Left out: cancer, where folds of bayes" in sentence
    # against scipy, on the mean test scores of the two data sets every model has
    means = np.array(
        [
            [np.mean(run.benchmark.estimators[d, m].outer_scores_) for m in ranks]
            for d in ("iris", "wine")
        ]
    )
    expected = rankdata(-means, axis=1).mean(axis=0)
    np.testing.assert_allclose([float(r) for r in ranks.values()], expected, atol=0.005)
    # Friedman's exact p-value: the share of the 6 orders of the second data set's ranks
    # whose statistic is at least the observed one
    observed = friedmanchisquare(*means.T).statistic
    orders = itertools.permutations(rankdata(-means[1]))
    exact = np.mean(
        [
            friedmanchisquare(*np.array([rankdata(-means[0]), o]).T).statistic >= observed - 1e-9
            for o in orders
        ]
    )
    assert float(p) == pytest.approx(exact, abs=0.005)


def test_a_file_of_one_named_data_set_writes_every_output_it_lists(folder):
    # [data.NAME] with a single data set: no ranks across data sets, so neither ranks.txt nor
    # the critical-difference plot is listed, and nothing listed fails to be written
    one = BENCHMARK[: BENCHMARK.index("[data.wine]")] + MODELS
    (folder / "one.toml").write_text(one)
    run = run_experiment(folder / "one.toml", progress=False)
    assert run.benchmark.datasets == ["iris"] and len(run.benchmark.models) == 3
    assert run.problems == []
    plots = {p.name for p in (folder / "out" / "plots").iterdir()}
    assert plots == {"intervals.png", "intervals.svg"}
    assert not (folder / "out" / "ranks.txt").exists()


def test_with_too_few_complete_data_sets_the_critical_difference_says_why(folder):
    # two data sets, one model failing on one: no ranks across data sets; the plot says so
    # in the report's words instead of failing to be drawn (an output "not written", exit 1)
    one = BENCHMARK[: BENCHMARK.index("[data.wine]")] + MODELS
    run = _with_a_failing_model(folder, one, "[models.prior]")
    assert run.benchmark.datasets == ["iris", "cancer"] and run.problems == []
    ranks = (folder / "out" / "ranks.txt").read_text()
    assert "No ranks across data sets" in ranks and "Left out: cancer" in ranks
    svg = html.unescape((folder / "out" / "plots" / "critical_difference.svg").read_text())
    assert "No ranks across data sets" in svg and "Left out: cancer" in svg


def test_report_md_gives_the_baseline_verdicts_of_comparison_csv(folder):
    # report.md held each data set's pairwise comparison only (Holm over that data set's
    # pairs), whose verdict on a pair with the baseline can differ from comparison.csv's and
    # report.html's (Holm over every comparison with the baseline), and never said theirs
    import csv

    run_experiment(folder / "bench.toml", progress=False)
    out = folder / "out"
    report = (out / "report.md").read_text()
    head = "# Experiment bench: against the baseline prior"
    assert head in report
    section = report[report.index(head) :]
    assert "family of its own" in section
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 8 and cells[0] in ("iris", "wine"):
            rows[cells[0], cells[1]] = cells[-1].strip("*")
    with open(out / "comparison.csv", newline="") as file:
        expected = {(r["dataset"], r["model"]): r["verdict"] for r in csv.DictReader(file)}
    assert rows == expected and len(rows) == 4
