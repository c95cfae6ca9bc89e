"""The permutation check's interval of the mean permuted-label score stays in the range of the
metric's values, clipped and said so as :func:`~sklearn_fair.stats.summarize` does (hunt GUIDE:
``audit`` printed an accuracy of ``0.490 [-0.399, 1.379]`` over 2 permutations)."""

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression

from sklearn_fair import audit
from sklearn_fair.leakage import permutation_check

X, y = make_classification(n_samples=100, random_state=0)


def _t_interval(scores, confidence=0.95):
    """scipy's Student t interval of the mean of ``scores``."""
    scores = np.asarray(scores, dtype=float)
    return stats.t.interval(confidence, scores.size - 1, loc=scores.mean(), scale=stats.sem(scores))


def test_an_accuracy_interval_past_its_range_is_clipped_to_it_and_says_so():
    report = permutation_check(
        LogisticRegression(), X, y, n_permutations=2, with_estimate=False, random_state=0
    )
    low, high = _t_interval(report.permuted_estimates)
    assert low < 0 and high > 1  # two permutations: the t interval reaches past [0, 1]
    assert (report.ci_low, report.ci_high) == (0.0, 1.0)
    assert report.ci_method == (
        "Student t, 1 df, of the mean of 2 scores, clipped to the range [0, 1] of accuracy"
    )


def test_the_audit_prints_the_clipped_interval():
    result = audit(LogisticRegression(), X, y, checks="permutation", n_permutations=2,
                   random_state=0)  # fmt: skip
    line = next(line for line in str(result).splitlines() if "permutation :" in line)
    assert "[0.000, 1.000] (95% Student t, 1 df, of the mean of 2 scores, clipped to the " \
        "range [0, 1] of accuracy)" in line  # fmt: skip
    assert "-0." not in line and "1.3" not in line


def test_an_interval_inside_the_range_is_the_student_t_interval():
    report = permutation_check(
        LogisticRegression(), X, y, n_permutations=5, with_estimate=False, random_state=0
    )
    low, high = _t_interval(report.permuted_estimates)
    assert 0 < low and high < 1
    assert (report.ci_low, report.ci_high) == pytest.approx((low, high), rel=1e-12)
    assert report.ci_method == "Student t, 4 df, of the mean of 5 scores"
