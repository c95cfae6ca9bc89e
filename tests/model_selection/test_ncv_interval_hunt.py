"""nested_cv_interval: inputs it cannot give an interval for are refused before any fit, and an
error rate's interval stays in [0, 1]."""

import math

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import get_scorer, make_scorer, mean_squared_error, zero_one_loss

from sklearn_fair.model_selection import NestedCVInterval, nested_cv_interval

from .test_bates import reference

NEVER_FIT = "nested_cv_interval fitted the estimator before refusing its input"


class _NeverFitRidge(Ridge):
    def fit(self, X, y, sample_weight=None):
        raise AssertionError(NEVER_FIT)


class _NeverFitLogistic(LogisticRegression):
    def fit(self, X, y, sample_weight=None):
        raise AssertionError(NEVER_FIT)


class _ScoreClassifier(LogisticRegression):
    """A classifier whose predict returns the probability of class 1, not a label."""

    def predict(self, X):
        return self.predict_proba(X)[:, 1]


def _binary_data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    return X, (X[:, 0] + rng.normal(size=60) > 0).astype(int)


def test_zero_one_with_a_regressor_is_refused_before_any_fit():
    # every continuous prediction counted as a miss: "zero_one 1.0000, 95% interval [1.0000,
    # 1.0000]"; scikit-learn's zero_one_loss refuses such predictions
    X, y = _binary_data()
    with pytest.raises(ValueError, match="mix of binary and continuous"):
        zero_one_loss(y, Ridge().fit(X, y).predict(X))
    with pytest.raises(ValueError, match=r"'zero_one'.*Ridge is a regressor.*squared_error"):
        nested_cv_interval(_NeverFitRidge(), X, y, loss="zero_one", n_folds=3, n_repetitions=2)


def test_zero_one_refuses_a_classifier_that_predicts_scores():
    X, y = _binary_data()
    predictions = _ScoreClassifier().fit(X, y).predict(X)
    with pytest.raises(ValueError, match="mix of binary and continuous"):
        zero_one_loss(y, predictions)
    with pytest.raises(RuntimeError, match="'zero_one'.*predict returned continuous values"):
        nested_cv_interval(
            _ScoreClassifier(), X, y, loss="zero_one", n_folds=3, n_repetitions=1, random_state=0
        )


def test_an_error_rate_above_one_is_clipped_at_one_and_says_so():
    # printed as "zero_one 0.7300, 95% interval [0.2596, 1.2004]", clipped_at_zero False
    X, y = np.zeros((20, 1)), np.array([0, 1] * 10)
    dummy = DummyClassifier(strategy="most_frequent")
    result = nested_cv_interval(dummy, X, y, n_folds=5, n_repetitions=1, random_state=2)
    expected = reference(dummy, X, y, result.folds, "zero_one", 0.95)
    assert expected["high"] > 1 and 0 <= expected["low"] <= expected["estimate"] <= 1
    assert 0 <= result.low <= result.estimate <= result.high == 1.0
    assert result.clipped_at_one and not result.clipped_at_zero
    assert (result.estimate, result.low) == pytest.approx(
        (expected["estimate"], expected["low"]), rel=1e-10
    )
    # the value before clipping, from the result's own estimate and standard error
    unclipped = result.ncv_estimate - result.bias + stats.norm.ppf(0.975) * result.standard_error
    assert unclipped == pytest.approx(expected["high"], rel=1e-10)
    text = str(result)
    assert f"interval [{expected['low']:.4f}, 1.0000]" in text
    before = f"{expected['estimate']:.4f}, {unclipped:.4f}"
    assert f"clipped at 1, the most the loss can be (estimate, high before: {before})" in text
    assert result.to_dict()["clipped_at_one"] is True


@pytest.mark.parametrize("loss", ["auto", "squared_error"])
def test_a_target_of_several_columns_is_refused_before_any_fit(loss):
    # blamed the 'loss' parameter, after all 16 fits had failed
    rng = np.random.default_rng(0)
    X = rng.normal(size=(48, 2))
    Y = X + rng.normal(size=(48, 2))
    with pytest.raises(ValueError, match=r"y of shape \(48, 2\) has more than one column"):
        nested_cv_interval(_NeverFitRidge(), X, Y, loss=loss, n_folds=4, n_repetitions=1)


def test_several_columns_are_taken_with_a_callable_loss_of_one_value_per_row():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(48, 2))
    Y = X + rng.normal(size=(48, 2))

    def row_squared_error(y_true, y_pred):
        return ((y_true - y_pred) ** 2).sum(axis=1)

    result = nested_cv_interval(
        Ridge(), X, Y, loss=row_squared_error, n_folds=4, n_repetitions=1, random_state=0
    )
    # Err_CV by hand: the outer losses of the K-fold CV the result reports
    folds = result.folds[0]
    outer = [
        2 * mean_squared_error(Y[folds == k], Ridge().fit(X[folds != k], Y[folds != k]).predict(
            X[folds == k]))
        for k in range(4)
    ]  # fmt: skip
    assert result.cv_estimate == pytest.approx(np.mean(outer), rel=1e-10)


@pytest.mark.parametrize(
    "scorer",
    [get_scorer("neg_log_loss"), make_scorer(zero_one_loss, greater_is_better=False)],
    ids=["get_scorer", "make_scorer"],
)
def test_a_scorer_as_loss_is_refused_before_any_fit(scorer):
    X, y = _binary_data()
    with pytest.raises(ValueError, match="not a scorer; the interval applies only to means"):
        nested_cv_interval(_NeverFitLogistic(), X, y, loss=scorer, n_folds=3, n_repetitions=1)


def _result(loss, estimate=0.25, low=0.09, high=0.49):
    return NestedCVInterval(
        estimate=estimate, low=low, high=high, confidence=0.95, standard_error=0.1,
        method="m", target="Err_XY: ...", loss=loss, ncv_estimate=0.3, cv_estimate=0.28,
        bias=0.05, mse=0.01, naive_standard_error=0.05, cv_standard_error=0.05,
        clamped="none", n_samples=30, n_folds=3, n_repetitions=1,
        fold_losses=np.zeros((1, 3)), folds=np.zeros((1, 30), dtype=int),
    )  # fmt: skip


@pytest.mark.parametrize("loss", ["zero_one", "absolute_error", "row_squared_error"])
def test_sqrt_is_only_for_the_squared_error(loss):
    # a zero_one result gave sqrt() -> (0.413, 0.119, 0.572), an "RMSE" of an error rate
    with pytest.raises(ValueError, match=f"loss='{loss}', whose square root is no RMSE"):
        _result(loss).sqrt()
    assert _result("squared_error").sqrt() == pytest.approx((0.5, 0.3, 0.7))
    assert math.isclose(_result("squared_error", low=-0.1).sqrt()[1], 0.0)


def test_zero_one_takes_an_estimator_of_no_declared_kind_that_predicts_labels():
    # a BaseEstimator without ClassifierMixin whose predict returns labels: its zero-one loss
    # equals the tree's it wraps (the same seeds, the same folds)
    from sklearn.base import BaseEstimator
    from sklearn.tree import DecisionTreeClassifier

    class Wrapped(BaseEstimator):
        def __init__(self, random_state=None):
            self.random_state = random_state

        def fit(self, X, y):
            self.tree_ = DecisionTreeClassifier(random_state=self.random_state).fit(X, y)
            return self

        def predict(self, X):
            return self.tree_.predict(X)

    X, y = make_classification(40, 5, random_state=0)
    kwargs = dict(loss="zero_one", n_folds=4, n_repetitions=1, random_state=0)
    wrapped = nested_cv_interval(Wrapped(random_state=0), X, y, **kwargs)
    tree = nested_cv_interval(DecisionTreeClassifier(random_state=0), X, y, **kwargs)
    assert wrapped.estimate == tree.estimate and wrapped.low == tree.low
