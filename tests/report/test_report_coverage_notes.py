"""Every summary and report says how its interval of the mean covered in the coverage
benchmark over its outer folds' resampling, or that the benchmark did not measure it
(hunt DOC14-4 and DOC14-5)."""

import warnings
from html import escape

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    KFold,
    RepeatedKFold,
    RepeatedStratifiedKFold,
    ShuffleSplit,
)
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV, benchmark
from sklearn_fair.report import nested_cv_report
from sklearn_fair.report._results import as_result
from sklearn_fair.stats import summarize
from sklearn_fair.stats._interval import MEASURED_COVERAGE, coverage_note

N_RESAMPLES = 50


def _nested(outer_cv, estimator=None):
    X, y = make_classification(n_samples=60, n_features=4, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return NestedCV(
            LogisticRegression() if estimator is None else estimator,
            {"C": [0.1, 1.0]} if estimator is None else {"max_depth": [1, 2]},
            outer_cv=outer_cv, inner_cv=2, n_refits=1, refit=False, random_state=0,
        ).fit(X, y)  # fmt: skip


def _one_run_row(kind, confidence):
    low, high = MEASURED_COVERAGE[kind]["ranges"][f"{confidence:.2f}"]
    return f"{low:.0f}-{high:.0f}% in one run of 5-fold CV"


@pytest.mark.parametrize("confidence", [0.90, 0.95])
def test_a_normal_interval_over_repeated_k_fold_says_the_benchmark_did_not_measure_it(
    confidence,
):
    # the benchmark has no row of the normal interval over repeated CV: it printed nothing,
    # while KFold got "71-88% ... it under-covers" and ShuffleSplit the "did not measure" note
    nested = _nested(RepeatedKFold(n_splits=5, n_repeats=2, random_state=0))
    cell = as_result("m", nested, dataset="d")
    for note in (
        nested.summary(interval="normal", confidence=confidence).ci_coverage,
        cell.summary(
            root=0, confidence=confidence, interval="normal", n_resamples=N_RESAMPLES
        ).ci_coverage,
    ):
        assert "did not measure this interval for repeated k-fold CV" in note, note
        assert _one_run_row("normal", confidence) in note
        assert f"at nominal {100 * confidence:g}%" in note
        assert "not runs of k-fold CV" not in note  # they are runs of k-fold CV


@pytest.mark.parametrize("kind", ["t", "normal", "corrected_t"])
@pytest.mark.parametrize("times_tested", [None, 0.5, 1, 1.2, 2, 3])
@pytest.mark.parametrize("confidence", [0.90, 0.95])
def test_every_resampling_of_every_fold_score_interval_gets_a_note(kind, times_tested, confidence):
    # the benchmark measured these kinds at 90% and 95%: each resampling gets its row, or the
    # note that it was not measured, never nothing
    note = coverage_note(kind, confidence, times_tested)
    assert note.startswith(("in our simulations", "our simulations")), note
    assert f"nominal {100 * confidence:g}%" in note


def test_sizes_that_no_runs_of_k_fold_cv_give_get_the_not_measured_note():
    # 6 resamples of 20 test and 80 training rows test each row 1.2 times on average: no runs
    # of k-fold CV do that, so the benchmark did not measure them (the note was "")
    scores = [0.80, 0.82, 0.85, 0.79, 0.84, 0.81]
    note = summarize(scores, interval="corrected_t", n_train=80, n_test=20).ci_coverage
    assert "did not measure this interval for these resamples" in note, note
    assert _one_run_row("corrected_t", 0.95) in note
    repeated = MEASURED_COVERAGE["corrected_t_repeated"]["ranges"]["0.95"]
    assert f"{repeated[0]:.0f}-{repeated[1]:.0f}% in 5 times repeated 5-fold CV" in note


def _benchmark(outer_cv):
    X, y = make_classification(n_samples=60, n_features=4, random_state=0)
    models = {
        "lr": (LogisticRegression(), {"C": [0.1, 1.0]}),
        "tree": (DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2]}),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return benchmark(
            models, {"d": (X, y)}, outer_cv=outer_cv, inner_cv=2, random_state=0, n_jobs=1,
            n_refits=1,
        )  # fmt: skip


@pytest.mark.parametrize(
    "outer_cv, interval, expected",
    [
        # the corrected t of repeated CV under-covered; ShuffleSplit was not measured; both
        # printed the corrected t with no coverage text
        (RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0), "corrected_t",
         "(5 times repeated 5-fold CV): it under-covers"),
        (ShuffleSplit(5, test_size=0.2, random_state=0), "corrected_t",
         "did not measure this interval for these resamples, which are not runs of k-fold CV"),
        (KFold(5, shuffle=True, random_state=0), "corrected_t",
         "of the time at nominal 95% (one run of 5-fold CV)"),
        (KFold(5, shuffle=True, random_state=0), "t",
         "(one run of 5-fold CV): it under-covers"),
    ],
)  # fmt: skip
def test_a_report_prints_the_coverage_note_of_its_cells_summary(outer_cv, interval, expected):
    result = _benchmark(outer_cv)
    note, tree = (
        result.cells["d", model]
        .summary(root=0, confidence=0.95, interval=interval, n_resamples=N_RESAMPLES)
        .ci_coverage
        for model in ("lr", "tree")
    )
    assert expected in note and tree == note
    report = result.report(interval=interval, n_resamples=N_RESAMPLES)
    line = f"Coverage of the interval of the mean: {note}."
    # once for the cells that share it, in the text and on the page
    assert report.to_text().count(line) == 1
    html = result.to_html(interval=interval, n_resamples=N_RESAMPLES, plots=False)
    assert html.count(escape(line)) == 1
    assert report.to_markdown().count("Coverage of the interval of the mean") == 1
    assert {row["ci_coverage"] for row in report.rows} == {note}
    if outer_cv.__class__ is KFold:  # what a KFold report claimed is kept: nothing against it
        assert "did not measure" not in note and "repeated" not in note
        if interval == "corrected_t":
            assert "under-covers" not in note


def test_a_report_of_cells_of_different_resamplings_names_the_cells_of_each_note():
    results = {
        "kfold": _nested(KFold(5, shuffle=True, random_state=0)),
        "shuffled": _nested(ShuffleSplit(5, test_size=0.2, random_state=0)),
    }
    report = nested_cv_report(results, n_resamples=N_RESAMPLES)
    text = report.to_text()
    for name, nested in results.items():
        note = nested.summary().ci_coverage
        assert f"Coverage of the interval of the mean of {name}: {note}." in text
    assert text.count("Coverage of the interval of the mean") == 2


def test_a_report_of_results_without_splits_does_not_name_their_resampling():
    # 25 per-fold scores without their splits were quoted "86-95% ... (one run of 5-fold CV):
    # it under-covers; interval='corrected_t' reached nominal", which needs the splits
    # (review38b)
    from sklearn_fair import BenchmarkResult

    rng = np.random.default_rng(0)
    cells = {
        ("d", "a"): {"test_scores": list(0.8 + 0.05 * rng.standard_normal(25))},
        ("d", "b"): {"test_scores": list(0.7 + 0.05 * rng.standard_normal(25))},
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        text = BenchmarkResult.from_results(cells, metric="accuracy").report(n_resamples=50)
        text = text.to_markdown()
    (line,) = [p for p in text.split("\n\n") if p.startswith("Coverage of the interval")]
    low, high = MEASURED_COVERAGE["t_repeated"]["ranges"]["0.95"]
    assert "did not measure this interval for resamples whose splits were not recorded" in line
    assert _one_run_row("t", 0.95) in line
    assert f"{low:.0f}-{high:.0f}% in 5 times repeated 5-fold CV" in line
    assert "reached nominal" not in line
