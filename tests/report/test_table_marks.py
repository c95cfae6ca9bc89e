"""BenchmarkResult.table(mark=True) and the report mark the models of a data set by one rule:
bold for the best, italics only where a paired test could run (the models record their outer
splits and share them)."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import SklearnFairWarning
from sklearn_fair.report import BenchmarkResult
from sklearn_fair.report._verdict import against_the_best

X, y = load_iris(return_X_y=True)


def _fitted(model, split_seed):
    outer = KFold(5, shuffle=True, random_state=split_seed)
    return NestedCV(model, outer_cv=outer, random_state=0).fit(X, y)


@pytest.fixture(scope="module")
def mismatched():
    """lr and lr_weak on one set of outer splits, prior on another."""
    return BenchmarkResult.from_results(
        {
            ("iris", "lr"): _fitted(LogisticRegression(max_iter=500), 0),
            ("iris", "prior"): _fitted(DummyClassifier(), 1),
            ("iris", "lr_weak"): _fitted(LogisticRegression(C=0.01, max_iter=500), 0),
        }
    )


def test_table_marks_models_on_different_splits_as_the_report_does(mismatched):
    means = {m: np.mean(mismatched.cells["iris", m].scores) for m in mismatched.models}
    best = max(means, key=means.get)
    assert best == "lr"  # a tuned logistic regression beats the prior and C=0.01 on iris
    with pytest.warns(SklearnFairWarning, match=r"\['iris'\].*no paired test ran"):
        marked = mismatched.table(mark=True)["iris"]
    plain = mismatched.table(mark=False)["iris"]
    # no paired test across different splits: the best in bold, no model in italics
    assert marked["lr"] == f"**{plain['lr']}**"
    assert marked["prior"] == plain["prior"]
    assert marked["lr_weak"] == plain["lr_weak"]
    # the report's rule (its marks and verdict) gives the same: the best, no p-values
    assert against_the_best(mismatched) == {"iris": (("lr",), None)}


def test_table_does_not_warn_where_the_paired_tests_ran():
    result = BenchmarkResult.from_results(
        {
            ("iris", "lr"): _fitted(LogisticRegression(max_iter=500), 0),
            ("iris", "prior"): _fitted(DummyClassifier(), 0),
        }
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error", SklearnFairWarning)
        result.table(mark=True)


def test_a_mean_whose_folds_all_scored_the_same_is_not_rounded_onto_a_perfect_score():
    # one error in each 2,500-row fold: 0.9996, beside a model whose spread asks for 3 decimals
    cells = {
        ("big", "a"): {"test_scores": [0.9996] * 4},
        ("big", "b"): {"test_scores": [0.90, 0.95, 0.99, 0.85]},
    }
    result = BenchmarkResult.from_results(cells, metric="accuracy")
    assert result.table(mark=False).loc["a", "big"] == "0.9996 ± 0.0000"
    assert result.table(mark=False).loc["b", "big"] == "0.9225 ± 0.0526"
    text = result.report(n_resamples=50).to_text()
    row = next(line for line in text.splitlines() if line.startswith("a  "))
    assert "0.9996 ± 0.0000" in row and "1.000" not in row
    # a constant mean that rounds to no whole number keeps the column's decimals
    cells["big", "a"] = {"test_scores": [2 / 3] * 4}
    result = BenchmarkResult.from_results(cells, metric="accuracy")
    assert result.table(mark=False).loc["a", "big"] == "0.667 ± 0.000"
