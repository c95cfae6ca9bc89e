"""Intervals of bounded metrics stay in the metric's range, and say when they were clipped."""

import math

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import get_scorer_names

from sklearn_fair.metrics import metric_display_name
from sklearn_fair.stats import summarize
from sklearn_fair.stats._bounds import metric_range

NEAR_ONE = [0.97, 1.0, 0.95, 1.0, 0.98]


@pytest.mark.parametrize(
    "scoring", ["accuracy", "roc_auc", "roc_auc_ovr_weighted", "f1_macro", "balanced_accuracy"]
)
def test_an_interval_past_one_is_clipped_and_says_so(scoring):
    unclipped = stats.t.interval(
        0.95, 4, loc=np.mean(NEAR_ONE), scale=stats.sem(NEAR_ONE)
    )  # (0.947..., 1.0128...)
    assert unclipped[1] > 1
    summary = summarize(NEAR_ONE, metric=scoring)
    assert summary.ci == pytest.approx((unclipped[0], 1.0))
    name = metric_display_name(scoring).name
    assert summary.ci_method.endswith(f", clipped to the range [0, 1] of {name}")
    assert "clipped to the range [0, 1]" in str(summary)
    assert 0 <= summary.iqm_ci_low <= summary.iqm_ci_high <= 1


def test_an_interval_inside_the_range_is_left_alone():
    scores = [0.80, 0.82, 0.85, 0.79, 0.84]
    summary = summarize(scores, metric="accuracy")
    assert summary.ci == pytest.approx(
        stats.t.interval(0.95, 4, loc=np.mean(scores), scale=stats.sem(scores))
    )
    assert "clipped" not in summary.ci_method


def test_a_positive_error_stays_non_negative():
    scores = [-0.01, -0.30, -0.02, -0.05]  # neg_root_mean_squared_error
    summary = summarize(scores, metric="neg_root_mean_squared_error")
    values = -np.array(scores)
    low, high = stats.t.interval(0.95, 3, loc=values.mean(), scale=stats.sem(values))
    assert low < 0
    assert summary.ci == pytest.approx((0.0, high))
    assert "clipped to the range [0, inf) of RMSE" in summary.ci_method


def test_kappa_is_clipped_to_minus_one_and_one():
    summary = summarize([1.0, 0.9, 1.0, 0.6], metric="kappa")
    assert summary.ci[1] == 1.0 and "[-1, 1] of Cohen's kappa" in summary.ci_method


def test_unbounded_and_unnamed_metrics_are_not_clipped():
    scores = [0.97, 1.0, 0.95, 1.0, 0.98]
    assert summarize(scores).ci[1] > 1  # no metric: no range known
    assert summarize(scores, metric="my_score").ci[1] > 1
    assert metric_range("explained variance") == (-math.inf, 1.0)


def test_the_range_of_every_bounded_scorer_of_scikit_learn():
    # Each range stated here by hand, from scikit-learn's documentation of the metric.
    unit = {
        "accuracy", "balanced_accuracy", "top_k_accuracy", "average_precision", "roc_auc",
        "roc_auc_ovr", "roc_auc_ovo", "roc_auc_ovr_weighted", "roc_auc_ovo_weighted", "f1",
        "f1_macro", "f1_micro", "f1_weighted", "f1_samples", "precision", "precision_macro",
        "recall", "recall_weighted", "jaccard", "jaccard_macro",
        "rand_score", "v_measure_score", "homogeneity_score", "completeness_score",
        "normalized_mutual_info_score", "fowlkes_mallows_score",
    }  # fmt: skip
    non_negative = {
        "neg_root_mean_squared_error", "neg_mean_squared_error", "neg_mean_absolute_error",
        "neg_log_loss", "neg_median_absolute_error", "neg_mean_absolute_percentage_error",
        "neg_mean_poisson_deviance", "max_error",
    }  # fmt: skip
    names = set(get_scorer_names())
    for scoring in unit & names:
        assert metric_range(metric_display_name(scoring).name) == (0.0, 1.0), scoring
    for scoring in non_negative & names:
        assert metric_range(metric_display_name(scoring).name) == (0.0, math.inf), scoring
    assert metric_range(metric_display_name("r2").name) == (-math.inf, 1.0)
    assert metric_range(metric_display_name("matthews_corrcoef").name) == (-1.0, 1.0)
    # the multiclass Brier score is unscaled (scale_by_half="auto" halves only the binary one)
    assert metric_range(metric_display_name("neg_brier_score").name) == (0.0, 2.0)
    # the adjusted Rand index is at least -0.5: within [-1, 1]
    assert metric_range(metric_display_name("adjusted_rand_score").name) == (-1.0, 1.0)


@pytest.mark.parametrize(
    "scoring, key", [("roc_auc", "auc"), ("balanced_accuracy", "bal"), ("accuracy", "Acc")]
)
def test_a_metric_the_user_named_is_clipped_to_its_scorers_range(scoring, key):
    """A key of a scoring dict ({"auc": "roc_auc"}) is not a metric name: the scorer decides."""
    metric = metric_display_name(scoring, name=key)
    assert metric.name == key and metric_range(key) is None
    summary = summarize(NEAR_ONE, metric=metric)
    unclipped = stats.t.interval(0.95, 4, loc=np.mean(NEAR_ONE), scale=stats.sem(NEAR_ONE))
    assert summary.ci == pytest.approx((unclipped[0], 1.0))
    assert summary.ci_method.endswith(f", clipped to the range [0, 1] of {key}")
    assert summary.metric_range == "[0, 1]"


def test_a_key_named_like_a_bounded_metric_takes_its_scorers_range():
    # the user called an RMSE scorer "accuracy": its values are not clipped to [0, 1]
    metric = metric_display_name("neg_root_mean_squared_error", name="accuracy")
    scores = [-0.9, -1.6, -1.2, -0.7]
    values = -np.array(scores)
    high = stats.t.interval(0.95, 3, loc=values.mean(), scale=stats.sem(values))[1]
    assert high > 1
    summary = summarize(scores, metric=metric)
    assert summary.ci[1] == pytest.approx(high)
    assert summary.metric_range == "[0, inf)"


def test_an_unknown_range_is_said_and_not_clipped():
    summary = summarize(NEAR_ONE, metric="my_score")
    assert summary.ci[1] > 1 and "clipped" not in summary.ci_method
    assert summary.metric_range == "unknown"
    assert summarize(NEAR_ONE).metric_range == ""  # no metric, nothing to say
