"""A fold scored by a numeric error_score (0.0, 1.0) is a failed fold in every output: each
reads as it does with error_score=NaN, never as a real test score."""

import math
import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression

from sklearn_fair import NestedCV
from sklearn_fair.report import (
    comparison_text,
    nested_cv_report,
    plot_comparison,
    plot_fold_scores,
    plot_optimism,
    result_to_dict,
)
from sklearn_fair.report._results import as_result

X, Y = make_classification(n_samples=90, n_features=5, random_state=0)
MARKER = float(X[0, 0])


class _RefitFailsWithoutRowZero(ClassifierMixin, BaseEstimator):
    """Fails the outer refit (60 rows) whose training rows lack row 0: the fold whose test
    rows hold it has no model, and its test score is error_score."""

    def __init__(self, C=1.0):
        self.C = C

    def fit(self, X, y):
        X = np.asarray(X)
        if len(X) == 60 and not np.any(np.isclose(X[:, 0], MARKER)):
            raise ValueError("a refit that fails")
        self.model_ = LogisticRegression(C=self.C).fit(X, y)
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        return self.model_.predict(X)


def _fit(estimator, error_score):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return NestedCV(
            estimator, {"C": [0.1, 1.0]}, outer_cv=3, inner_cv=2, n_refits=1, refit=False,
            random_state=0, error_score=error_score, scoring="accuracy",
        ).fit(X, Y)  # fmt: skip


@pytest.fixture(scope="module", params=[0.0, 1.0])
def runs(request):
    """``(the failing model, a sound one)`` with the numeric error_score, and with NaN."""
    numeric = _fit(_RefitFailsWithoutRowZero(), request.param)
    nan = _fit(_RefitFailsWithoutRowZero(), np.nan)
    sound = _fit(LogisticRegression(), np.nan)
    failed = [i for i, f in enumerate(numeric.outer_results_) if f["failed_metrics"]]
    assert len(failed) == 1  # one fold failed, and was given the number asked for
    assert numeric.outer_scores_[failed[0]] == request.param
    assert math.isnan(nan.outer_scores_[failed[0]])
    return {"numeric": numeric, "nan": nan, "sound": sound, "fold": failed[0]}


def _untimed(report):
    """A report's verdict and sections as text, but the Tuning budgets (fit times vary)."""
    sections = [s for s in report.sections() if s.title != "Tuning budgets"]
    cells = [[_text(c) for c in row] for s in sections for row in [s.columns, *s.rows]]
    return report.verdict(), [(s.title, s.paragraphs) for s in sections], cells


def _text(cell):
    return getattr(cell, "text", cell)


def _outcome(call):
    """What a call gives: its value, or the type and message of what it raised."""
    try:
        return call()
    except ValueError as error:
        return (type(error), str(error))


def test_comparison_text_and_plot_comparison_refuse_a_failed_fold(runs):
    # the failed fold's 0.0 or 1.0 was paired with the sound model's score as a real one
    refused = rf"no finite test score on outer fold\(s\) {runs['fold']}"
    for function in (comparison_text, plot_comparison):
        with pytest.raises(ValueError, match=refused):
            function({"fails": runs["numeric"], "lr": runs["sound"]})
        numeric = _outcome(lambda f=function: f({"fails": runs["numeric"], "lr": runs["sound"]}))
        nan = _outcome(lambda f=function: f({"fails": runs["nan"], "lr": runs["sound"]}))
        assert numeric == nan


def test_the_optimism_and_the_plots_of_the_folds_read_the_fold_as_failed(runs):
    numeric = as_result("fails", runs["numeric"])
    assert numeric.failed_folds == (runs["fold"],)
    assert math.isnan(numeric.optimism)  # as with NaN: the mean over the folds is n/a
    assert math.isnan(as_result("fails", runs["nan"]).optimism)
    assert np.isnan(numeric.scores[runs["fold"]])
    legend = plot_optimism({"fails": runs["numeric"]}).legends[0].get_texts()[0].get_text()
    assert legend == "fails (optimism n/a)"

    def drawn(result):
        ax = plot_fold_scores({"fails": result}, n_resamples=50).axes[0]
        return (
            [label.get_text() for label in ax.get_yticklabels()],
            [collection.get_offsets().tolist() for collection in ax.collections],
            len(ax.containers),  # the mean's and the IQM's bars
        )

    # as with NaN: the folds that scored as dots, no mean of the folds drawn, the row n/a
    assert drawn(runs["numeric"]) == drawn(runs["nan"])
    labels, dots, bars = drawn(runs["nan"])
    assert labels == ["fails (n/a: 1 of 3 folds failed)"] and bars == 0
    assert len(dots[0]) == 2


def test_the_selected_hyper_parameters_table_says_n_a_for_the_failed_fold(runs):
    results = {"fails": runs["numeric"], "lr": runs["sound"]}
    section = next(
        s
        for s in nested_cv_report(results, n_resamples=50).sections()
        if s.title == "Selected hyper-parameters: fails"
    )
    columns = [_text(c) for c in section.columns]
    assert _text(section.rows[runs["fold"]][columns.index("test accuracy")]) == "n/a"
    assert "n/a where folds failed (see Failed fits)." in section.paragraphs
    # the whole report reads as with error_score=NaN (but the fit times of its budgets)
    same = {"fails": runs["nan"], "lr": runs["sound"]}
    assert _untimed(nested_cv_report(results, n_resamples=50)) == _untimed(
        nested_cv_report(same, n_resamples=50)
    )


def test_a_saved_result_keeps_its_error_score_and_reads_as_failed(runs):
    import json

    from sklearn_fair.utils._provenance import with_checksum

    saved = json.loads(json.dumps(result_to_dict(runs["numeric"])))
    fold = saved["outer_results"][runs["fold"]]
    assert fold["failed"] is True and fold["test_score"] == saved["error_score"]
    loaded = as_result("fails", saved)
    assert list(loaded.scores_per_metric["score"]) == list(runs["numeric"].outer_scores_)
    assert np.isnan(loaded.scores[runs["fold"]]) and loaded.n_failed_folds() == 1
    # no mean of a failed fold's error_score; a file written before, with that mean, reads too
    assert saved["score_mean"] is None or np.isnan(saved["score_mean"])
    outer = np.asarray(runs["numeric"].outer_scores_, dtype=float)
    earlier = {**saved, "score_mean": float(np.mean(outer)), "score_std": float(np.std(outer))}
    assert as_result("fails", with_checksum(earlier)).n_failed_folds() == 1


def test_the_benchmark_s_fold_scores_frames_say_nan_for_the_failed_fold(runs):
    result = nested_cv_report({"fails": runs["numeric"]}, n_resamples=50).result
    scores = result.scores.set_index("outer_fold")["score"]
    expected = np.array(runs["numeric"].outer_scores_, dtype=float)
    expected[runs["fold"]] = np.nan
    np.testing.assert_array_equal(scores.to_numpy(), expected)
    refits = result.refit_scores
    assert refits[refits["outer_fold"] == runs["fold"]]["score"].isna().all()


def test_the_pairwise_comparison_tests_the_complete_models_and_names_the_failed_one(runs):
    # a model whose folds failed left every pair untested ("No pairwise comparison: folds of
    # fails failed"), although compare_to and comparison.csv test the complete ones
    from sklearn_fair.stats import compare

    tree = _fit(LogisticRegression(fit_intercept=False), np.nan)  # a third, complete model
    results = {"fails": runs["numeric"], "lr": runs["sound"], "tree": tree}
    report = nested_cv_report(results, n_resamples=50)
    expected = compare({"lr": runs["sound"], "tree": tree}).table  # independent: the two
    section = next(s for s in report.sections() if s.title == "Pairwise comparison")
    columns = [_text(c) for c in section.columns]
    rows = [[_text(c) for c in row] for row in section.rows]
    assert [(row[0], row[1]) for row in rows] == list(zip(expected["model_a"], expected["model_b"]))
    assert rows[0][columns.index("verdict")] == expected["verdict"][0]
    note = "Not compared: fails, as folds of fails failed"
    assert any(p.startswith(note) for p in section.paragraphs)
    assert note + " (see Failed fits), and a paired test needs every fold's score." in (
        report.verdict()
    )
