"""nested_cv_interval (hunt BHT): an interval that the bias correction moves wholly out of the
loss's range is not presented as an estimate; a loss of differences refuses class labels before
any fit; the printed result says what it targets, not that it covers it."""

import math

import numpy as np
import pytest
from scipy import stats
from sklearn.base import BaseEstimator
from sklearn.datasets import load_iris, make_classification
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair.exceptions import SklearnFairWarning
from sklearn_fair.model_selection import nested_cv_interval

from .test_bates import reference

NEVER_FIT = "nested_cv_interval fitted the estimator before refusing its input"


class _NeverFitLogistic(LogisticRegression):
    def fit(self, X, y, sample_weight=None):
        raise AssertionError(NEVER_FIT)


class _NeverFitNoKind(BaseEstimator):
    """An estimator of no declared kind: loss="auto" is the squared error for it."""

    def fit(self, X, y):
        raise AssertionError(NEVER_FIT)

    def predict(self, X):
        return np.zeros(len(X))


def _draw(rng, n):
    X = rng.normal(size=(n, 2))
    return X, (X[:, 0] + 0.1 * rng.normal(size=n) > 0).astype(int)


def test_an_interval_wholly_below_zero_is_not_estimated():
    # inner fits (180 rows) cannot split (error 0.47), outer fits (240 rows) can (0.028): the
    # bias correction overshoots to [-0.3645, -0.1118], which was printed as "zero_one 0.0000,
    # 95% interval [0.0000, 0.0000]", where the error on fresh rows is 0.033
    rng = np.random.default_rng(0)
    X, y = _draw(rng, 300)
    tree = DecisionTreeClassifier(min_samples_split=200, max_depth=1, random_state=0)
    with pytest.warns(SklearnFairWarning, match="moves the whole interval below 0") as record:
        result = nested_cv_interval(tree, X, y, n_folds=5, n_repetitions=2, random_state=0)
    expected = reference(tree, X, y, result.folds, "zero_one", 0.95)
    assert expected["high"] < 0  # the paper's interval, by hand, lies wholly below 0
    X_new, y_new = _draw(rng, 200_000)
    assert 1 - tree.fit(X, y).score(X_new, y_new) > 0.02  # the truth is no error of 0
    assert all(math.isnan(v) for v in (result.estimate, result.low, result.high))
    assert not result.clipped_at_zero and not result.clipped_at_one
    # the ends before clipping, from the result's own fields and the hand formula
    z = stats.norm.ppf(0.975)
    raw = result.ncv_estimate - result.bias
    assert result.low_before == pytest.approx(raw - z * result.standard_error, rel=1e-12)
    assert result.high_before == pytest.approx(raw + z * result.standard_error, rel=1e-12)
    assert (result.low_before, result.high_before) == pytest.approx(
        (expected["low"], expected["high"]), rel=1e-10
    )
    assert result.cv_estimate == pytest.approx(expected["cv_estimate"], rel=1e-10)
    said = f"[{expected['low']:.4f}, {expected['high']:.4f}] before clipping"
    cv = f"the cross-validation estimate is {expected['cv_estimate']:.4f}"
    (warning,) = record
    text = str(result)
    for message in (str(warning.message), text):
        assert said in message and cv in message, message
    assert "[0.0000, 0.0000]" not in text and "interval not estimated" in text
    assert math.isnan(result.to_dict()["low"])


def test_an_error_rate_wholly_above_one_is_not_estimated(monkeypatch):
    # the paper's arithmetic can overshoot upwards too; clipped at 1, such an interval read
    # [1.0000, 1.0000]. The estimates are shifted up to get there, the bias kept.
    from sklearn_fair.stats import _ncv

    ncv_estimates = _ncv.ncv_estimates

    def shifted(*args):
        values = ncv_estimates(*args)
        shift = 1.5 - values["low"]
        for key in ("estimate", "low", "high", "ncv_estimate"):
            values[key] += shift
        return values

    monkeypatch.setattr(_ncv, "ncv_estimates", shifted)
    X, y = make_classification(n_samples=30, random_state=0)
    with pytest.warns(SklearnFairWarning, match="moves the whole interval above 1"):
        result = nested_cv_interval(
            DummyClassifier(), X, y, n_folds=3, n_repetitions=1, random_state=0
        )
    assert all(math.isnan(v) for v in (result.estimate, result.low, result.high))
    assert not result.clipped_at_one
    assert result.low_before == pytest.approx(1.5, rel=1e-12)
    assert "interval not estimated" in str(result) and "[1.5000," in str(result)


@pytest.mark.parametrize(
    "estimator, loss",
    [
        (_NeverFitLogistic(), "squared_error"),
        (_NeverFitLogistic(), "absolute_error"),
        (_NeverFitNoKind(), "auto"),
    ],
)
def test_a_loss_of_differences_refuses_class_labels_before_any_fit(estimator, loss):
    # ran every fit, then "RuntimeError: 18 of the 18 fits of nested_cv_interval failed ...
    # could not convert string to float", never naming 'loss'
    X, y = load_iris(return_X_y=True)
    labels = np.array(["setosa", "versicolor", "virginica"])[y]
    with pytest.raises(ValueError, match=f"'loss' parameter .* is '{loss}'.*'setosa'.*zero_one"):
        nested_cv_interval(estimator, X, labels, loss=loss, n_folds=3, n_repetitions=2)


def test_a_loss_of_differences_takes_booleans_as_zero_and_one():
    X, y = make_classification(n_samples=40, n_features=4, flip_y=0.2, random_state=1)
    model = LogisticRegression()
    result = nested_cv_interval(
        model, X, y == 1, loss="squared_error", n_folds=3, n_repetitions=1, random_state=0
    )
    expected = reference(model, X, y, result.folds, "squared_error", 0.95)
    assert (result.estimate, result.low, result.high) == pytest.approx(
        (expected["estimate"], expected["low"], expected["high"]), rel=1e-10
    )


def test_the_printed_result_names_its_target_without_claiming_coverage():
    # ended "covers Err_XY", where the user guide measured 90.0% coverage at nominal 95%
    X, y = make_classification(n_samples=30, random_state=0)
    result = nested_cv_interval(DummyClassifier(), X, y, n_folds=3, n_repetitions=1, random_state=0)
    text = str(result)
    assert "; for Err_XY)" in text and "covers" not in text
