"""A search given without a scoring of its own selects with its estimator's score (accuracy
for a classifier, R^2 for a regressor): a nested run scored with that metric's name tests
in the metric that selected, so its report gives the optimism and the rank by validation, as
the same run with scoring=None does, and never says it selected with another metric."""

import numpy as np
import pytest
from sklearn.datasets import load_diabetes, load_iris
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import get_scorer
from sklearn.model_selection import GridSearchCV

from sklearn_fair import NestedCV
from sklearn_fair.report import nested_cv_report

ANOTHER = "Selected with another metric than the test scores"


def _fit(search, X, y, scoring):
    return NestedCV(
        search, outer_cv=3, n_refits=1, random_state=0, refit=False, scoring=scoring
    ).fit(X, y)


def _report(nested):
    return nested_cv_report({"gs": nested}, n_resamples=100)


def _row_line(text):
    (line,) = [line for line in text.splitlines() if line.startswith("gs ")]
    return line


def _optimism(nested):
    """Mean validation minus mean test score, from the folds the run recorded."""
    folds = nested.outer_results_
    return np.mean([f["validation_score"] for f in folds]) - np.mean(
        [f["test_score"] for f in folds]
    )


@pytest.mark.parametrize(
    "estimator, data, scoring",
    [
        (LogisticRegression(max_iter=1000), load_iris, "accuracy"),
        (Ridge(), load_diabetes, "r2"),
    ],
)
def test_the_estimators_own_metric_by_name_gives_the_optimism(estimator, data, scoring):
    X, y = data(return_X_y=True)
    search = GridSearchCV(estimator, {"alpha" if scoring == "r2" else "C": [0.01, 1.0]}, cv=3)
    named, default = _fit(search, X, y, scoring), _fit(search, X, y, None)
    expected = _optimism(named)
    assert expected == pytest.approx(_optimism(default))
    report = _report(named)
    (row,) = report.rows
    assert row["optimism"] == pytest.approx(expected)
    assert row["rank_validation"] == 1
    text = str(report)
    assert ANOTHER not in text
    # the same line as the run with scoring=None: optimism and rank by validation printed
    assert _row_line(text) == _row_line(str(_report(default)))
    if scoring == "accuracy":
        assert f"{expected:+.4f}" == "-0.0098"  # the hunter's number
        assert " -0.0098 " in _row_line(text)
    assert named.validation_comparable_


def test_another_metric_or_a_scorer_object_is_still_another_metric():
    X, y = load_iris(return_X_y=True)
    search = GridSearchCV(LogisticRegression(max_iter=1000), {"C": [0.01, 1.0]}, cv=3)
    for scoring in ("balanced_accuracy", get_scorer("accuracy")):
        nested = _fit(search, X, y, scoring)
        assert not nested.validation_comparable_
        text = str(_report(nested))
        assert f"{ANOTHER}: gs (accuracy)" in text
        assert _row_line(text).split()[-3] == "n/a"  # no optimism
