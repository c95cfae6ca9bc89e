"""Progress output off a terminal: one line per event, and a total fixed before the first fit."""

import io
import re

import pytest
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression

from sklearn_fair import NestedCV
from sklearn_fair.experiment import run_experiment
from sklearn_fair.model_selection._nested._progress import Progress
from sklearn_fair.utils import progress_over

X, y = make_classification(n_samples=60, n_features=5, random_state=0)
LINE = re.compile(r"NestedCV fits: (\d+)/(\d+) done(?:, (\d+) skipped)?, [\d.]+ s elapsed")


def _fits_lines(log):
    return [line for line in log.splitlines() if line.startswith("NestedCV fits")]


def _totals(log):
    return [int(m.group(2)) for m in map(LINE.match, _fits_lines(log)) if m]


def test_the_total_is_fixed_and_the_skipped_refits_are_said(capsys):
    # lbfgs ignores its seed: each fold's first two refits show it, and its third is not
    # run. The upper bound announced at the start stays the total.
    outer, candidates, inner, refits = 3, 2, 1, 3
    NestedCV(
        LogisticRegression(),
        {"C": [0.1, 1.0]},
        outer_cv=outer,
        n_refits=refits,
        refit=False,
        verbose=1,
        random_state=0,
    ).fit(X, y)
    log = capsys.readouterr().err
    assert "\r" not in log and "\x1b" not in log
    upper_bound = outer * candidates * inner + outer * refits
    assert set(_totals(log)) == {upper_bound}
    # each fold ran its two probe refits, and needs no other
    skipped = outer * (refits - 2)
    assert (
        f"NestedCV fits: {skipped} of the {upper_bound} skipped (where a fold's first two seeds "
        "gave the same output)" in log
    )
    last = LINE.match(_fits_lines(log)[-1])
    assert (int(last.group(1)), int(last.group(3))) == (upper_bound - skipped, skipped)


def test_the_reason_for_skipped_refits_holds_where_another_fold_needs_every_seed(capsys):
    # a tree breaks ties between equal features by its seed: on these rows some folds' first
    # two seeds give the same tree and others' do not, so "the estimator ignores its seed" is
    # false, yet refits are skipped
    from sklearn.datasets import make_classification
    from sklearn.tree import DecisionTreeClassifier

    Xc, yc = make_classification(150, 5, random_state=0)
    nested = NestedCV(
        DecisionTreeClassifier(),
        {"max_depth": [1, 2, 3]},
        outer_cv=3,
        inner_cv=3,
        n_refits=3,
        refit=False,
        random_state=0,
        verbose=1,
    ).fit(Xc, yc)
    seeds_run = [len(fold["refit_seeds"]) for fold in nested.outer_results_]
    assert 2 in seeds_run and 3 in seeds_run, seeds_run
    log = capsys.readouterr().err
    assert "ignores its seed" not in log
    assert f"{3 * 3 - sum(seeds_run)} of the" in log
    assert "skipped (where a fold's first two seeds gave the same output)" in log


def test_a_seeded_estimator_runs_every_announced_fit(capsys):
    NestedCV(
        RandomForestClassifier(n_estimators=5),
        {"max_depth": [2, None]},
        outer_cv=3,
        n_refits=2,
        refit=False,
        verbose=1,
        random_state=0,
    ).fit(X, y)
    log = capsys.readouterr().err
    total = 3 * 2 + 3 * 2
    assert set(_totals(log)) == {total}
    assert _fits_lines(log)[-1].startswith(f"NestedCV fits: {total}/{total} done, ")
    assert "skipped" not in log


def test_each_event_is_its_own_line():
    log = io.StringIO()
    progress = Progress(1, 20, stream=log)
    for _ in range(20):
        progress.update()
    progress.close()
    lines = log.getvalue().splitlines()
    done = [int(line.split(": ")[1].split("/")[0]) for line in lines]
    assert done == sorted(done) and done[0] == 0 and done[-1] == 20
    assert len(lines) == len(set(lines)) == 11  # the start, each tenth, nothing twice
    assert "\r" not in log.getvalue()


def test_progress_over_writes_a_line_per_item_and_a_bar_only_on_a_terminal():
    log = io.StringIO()
    assert list(progress_over(["a", "b"], label="models", stream=log)) == ["a", "b"]
    lines = log.getvalue().splitlines()
    assert lines[:2] == ["models: 1/2 a", "models: 2/2 b"]
    assert lines[2].startswith("models: 2/2 done")

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    terminal = Terminal()
    list(progress_over(["a", "b"], label="models", stream=terminal))
    assert "\r" in terminal.getvalue()
    silent = io.StringIO()
    assert list(progress_over(["a"], label="models", stream=silent, enabled=False)) == ["a"]
    assert silent.getvalue() == ""


EXPERIMENT = """\
[experiment]
name = "log"
output_dir = "out"
random_state = 0
progress = true

[data]
dataset = "sklearn:iris"

[protocol]
outer_cv = 3
n_refits = 1

[models.logreg]
estimator = "sklearn.linear_model.LogisticRegression"
params = { max_iter = 300 }
grid = { C = [0.1, 1.0] }

[models.knn]
estimator = "sklearn.neighbors.KNeighborsClassifier"
grid = { n_neighbors = [3, 9] }
"""


def test_the_runners_log_off_a_terminal_is_one_line_per_event(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    path = tmp_path / "log.toml"
    path.write_text(EXPERIMENT)
    run_experiment(path)
    log = capsys.readouterr().err
    assert "\r" not in log and "\x1b" not in log
    # the runner is one benchmark of every model: one progress line per event, counting to
    # the total fits of both models
    lines = log.splitlines()
    assert lines and all(line.startswith("benchmark fits: ") for line in lines)
    done = [int(line.split(": ")[1].split("/")[0]) for line in lines]
    total = int(lines[0].split("/")[1].split(" ")[0])
    assert done[0] == 0 and done == sorted(done) and done[-1] == total
    assert lines[-1].endswith(" elapsed") and "left" not in lines[-1]


def test_a_total_that_was_no_upper_bound_is_raised_and_said():
    log = io.StringIO()
    progress = Progress(1, 4, stream=log)
    progress.set_total(6)
    for _ in range(6):
        progress.update()
    progress.close()
    text = log.getvalue()
    assert "NestedCV fits: the total is now 6" in text
    assert text.splitlines()[-1].startswith("NestedCV fits: 6/6 done")
