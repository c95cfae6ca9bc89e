"""A name that starts with "neg_" is a negated error only where it is a scorer name that
negates one (all of them scikit-learn's): any other is kept as written, not negated.

Before, ``summarize(scores, metric="neg_predictive_value")`` printed "predictive_value", its
mean -0.905 with sign -1 and "scikit-learn's 'neg_predictive_value' is the predictive_value
negated", and "neg_kappa" printed "Cohen's kappa" with sign -1.
"""

import numpy as np
import pytest
from sklearn.metrics import get_scorer as sklearn_get_scorer
from sklearn.metrics import get_scorer_names as sklearn_get_scorer_names

from sklearn_fair.metrics import metric_display_name
from sklearn_fair.stats import summarize


@pytest.mark.parametrize(
    "name", ["neg_predictive_value", "neg_class_recall", "neg_kappa", "neg_accuracy", "neg_r2"]
)
def test_a_neg_name_of_no_scorer_is_kept_as_written(name):
    assert name not in sklearn_get_scorer_names()
    metric = metric_display_name(name)
    assert (metric.name, metric.sign, metric.note) == (name, 1, "")


def test_summarize_keeps_an_unknown_neg_name_and_its_scores():
    scores = [0.91, 0.88, 0.93, 0.9]
    summary = summarize(scores, metric="neg_predictive_value")
    assert (summary.metric, summary.sign) == ("neg_predictive_value", 1)
    assert summary.mean == pytest.approx(np.mean(scores))  # 0.905, not -0.905
    assert "scikit-learn's" not in str(summary)
    assert "neg_predictive_value" in str(summary)


def test_scikit_learns_negated_scorers_are_still_negated():
    for name in sklearn_get_scorer_names():
        if name.startswith("neg_"):
            assert sklearn_get_scorer(name)._sign == -1
            metric = metric_display_name(name)
            assert metric.sign == -1 and not metric.name.startswith("neg")
            assert metric.note.startswith(f"scikit-learn's {name!r}")
