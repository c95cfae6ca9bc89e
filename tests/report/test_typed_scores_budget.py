"""Scores the caller typed in record no fit: their tuning budget says no time was recorded,
not 0 seconds (hunt SAVEDRELOAD, SAVEDRELOAD-3)."""

import math

from sklearn_fair import BenchmarkResult

TYPED = {
    ("d1", "a"): {"test_scores": [0.8, 0.85, 0.9]},
    ("d1", "b"): {"test_scores": [0.7, 0.75, 0.8]},
}


def test_typed_scores_record_no_fit_time():
    result = BenchmarkResult.from_results(TYPED, metric="accuracy")
    budget = result.budget.set_index("model")
    # nothing here ran a fit nor timed one: the budget said fit_time 0.0, score_time 0.0
    assert all(math.isnan(t) for t in budget["fit_time"])
    assert all(math.isnan(t) for t in budget["score_time"])
    text = result.report().to_text()
    section = text[text.index("Tuning budgets") : text.index("Reproducibility card")]
    assert "0.00" not in section and "n/a" in section


def test_a_recorded_fit_time_is_summed():
    folds = [
        {"test_scores": [0.8], "test_score": 0.8, "fit_time": 1.5},
        {"test_scores": [0.9], "test_score": 0.9, "fit_time": 2.0},
    ]
    typed = {("d1", "a"): {"outer_results": folds}}
    result = BenchmarkResult.from_results(typed, metric="accuracy")
    assert result.budget["fit_time"].tolist() == [3.5]
