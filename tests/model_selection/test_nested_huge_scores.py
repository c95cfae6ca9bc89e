"""Scores whose sums overflow (near 1e308, e.g. a scorer of a quantity in huge units): the
means NestedCV selects by and reports are those of the scores scaled by a power of 2, the same
numbers the report and the statistics compute (``utils._scaling.mean_of``)."""

import numpy as np
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, make_scorer

from sklearn_fair import NestedCV

HUGE = 1.5e308  # two such scores sum past the largest float (1.8e308)


def _huge_accuracy(y_true, y_pred):
    return HUGE * (0.5 + accuracy_score(y_true, y_pred) / 2)


def test_huge_scores_select_and_average_as_their_scaled_values():
    X, y = make_classification(n_samples=120, n_features=6, random_state=0)
    grid = {"C": [1e-3, 1.0]}
    kwargs = dict(outer_cv=3, inner_cv=3, n_refits=1, random_state=0)
    plain = NestedCV(LogisticRegression(), grid, scoring="accuracy", **kwargs).fit(X, y)
    huge = NestedCV(LogisticRegression(), grid, scoring=make_scorer(_huge_accuracy), **kwargs)
    huge.fit(X, y)
    # the same winners: each candidate's mean is the accuracy's mean, mapped (exactly halved)
    assert huge.best_params_per_fold_ == plain.best_params_per_fold_
    expected = HUGE * (0.5 + plain.validation_scores_ / 2)
    np.testing.assert_allclose(huge.validation_scores_, expected, rtol=1e-12)
    outer = HUGE * (0.5 + plain.outer_scores_ / 2)
    np.testing.assert_allclose(huge.outer_scores_, outer, rtol=1e-12)
    # by hand: the mean of the quarters, times 4 (no sum past the largest float)
    assert np.isfinite(huge.score_mean_)
    np.testing.assert_allclose(huge.score_mean_, 4 * np.mean(outer / 4), rtol=1e-12)
    std = np.ldexp(np.std(np.ldexp(outer, -1000)), 1000)  # squares scaled out of overflow
    np.testing.assert_allclose(huge.score_std_, std, rtol=1e-12)
    optimism = 4 * np.mean(expected / 4) - 4 * np.mean(outer / 4)
    np.testing.assert_allclose(huge.optimism_, optimism, rtol=1e-9, atol=1e-9 * HUGE)
    # the inner table's means: each candidate's, by hand as above, in every fold
    means = huge.cv_results_["mean_test_score"]
    assert np.all(np.isfinite(means)) and np.max(means) <= HUGE
