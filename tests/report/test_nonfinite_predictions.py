"""Kept predictions that are not finite (hunt NANS-2): scikit-learn's displays refuse NaN and
infinity, so the folds that kept them are left out of the plots, and the report and
plot_predictions say which, naming the model and data set; every other fold is drawn."""

import html
import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.linear_model import Ridge
from sklearn.metrics import roc_curve
from sklearn.model_selection import KFold
from sklearn.naive_bayes import GaussianNB

from sklearn_fair import benchmark

pytest.importorskip("matplotlib")

OUTER = KFold(5)  # fold k tests rows 40 k to 40 k + 39


def _run(models, X, y, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return benchmark(
            models, {"d": (X, y)}, outer_cv=OUTER, random_state=0, n_jobs=1,
            keep_predictions=True, **kwargs,
        )  # fmt: skip


def _class_data(constant_in_class_0):
    """Binary data whose last feature is 0 for class 0 on the rows ``constant_in_class_0``:
    GaussianNB(var_smoothing=0.0) fitted where that feature has no variance in class 0 (every
    row of class 0 among them) predicts NaN probabilities, as scikit-learn's own does."""
    rng = np.random.RandomState(0)
    y = rng.randint(0, 2, 200)
    last = rng.rand(200) + 1
    last[constant_in_class_0 & (y == 0)] = 0.0
    return np.c_[rng.randn(200, 3) + y[:, None], last], y


def _figure_text(figure):
    return " ".join(" ".join(text.get_text() for text in figure.texts).split())


def test_nan_probabilities_of_every_fold_leave_the_models_curves_out_and_say_so():
    X, y = _class_data(np.ones(200, bool))
    result = _run({"nb0": GaussianNB(var_smoothing=0.0), "nb": GaussianNB()}, X, y)
    assert result.predictions.query("model == 'nb0'").score.isna().all()
    note = (
        "nb0 on d: the probabilities kept by outer fold(s) 0, 1, 2, 3, 4 are not finite (NaN or "
        "infinite) and are left out of its ROC, precision-recall and calibration curves."
    )

    page = html.unescape(result.to_html(n_resamples=200))

    assert note in page
    assert "nb0: confusion matrix (rows sum to 1)" in page  # its predicted classes, as scored
    assert "nb0: ROC curve of each outer fold" not in page
    for panel in ("ROC curve of each outer fold", "precision-recall of each outer fold"):
        assert f"nb: {panel}" in page  # the finite model's curves are drawn as before
    figure = result.plot_predictions("d", "nb0")
    assert [ax.get_title() for ax in figure.axes if ax.get_visible()] == [
        "confusion matrix (rows sum to 1)"
    ]
    assert note in _figure_text(figure)


def test_the_curves_of_the_folds_with_finite_probabilities_are_still_drawn():
    X, y = _class_data(np.arange(200) >= 40)  # fold 0's training rows alone: its NaN
    result = _run({"nb0": GaussianNB(var_smoothing=0.0)}, X, y)
    kept = result.predictions
    assert kept.score.isna().groupby(kept.outer_fold).all().tolist() == [True] + [False] * 4
    note = (
        "nb0 on d: the probabilities kept by outer fold(s) 0 are not finite (NaN or infinite) "
        "and are left out of its ROC, precision-recall and calibration curves."
    )

    page = html.unescape(result.to_html(n_resamples=200))

    assert note in page
    assert "nb0: ROC curve of each outer fold" in page
    figure = result.plot_predictions("d", "nb0")
    assert note in _figure_text(figure)
    roc = next(ax for ax in figure.axes if ax.get_title() == "ROC curve of each outer fold")
    lines = roc.get_lines()
    assert len(lines) == 4
    for fold, line in zip(range(1, 5), lines):
        rows = kept[kept.outer_fold == fold]
        fpr, tpr, _ = roc_curve(rows.y_true, rows.score)
        np.testing.assert_allclose(line.get_xdata(), fpr)
        np.testing.assert_allclose(line.get_ydata(), tpr)


class Overflowing(RegressorMixin, BaseEstimator):
    """Ridge, but 1e308 for a row whose first feature is above 5: the mean of two refits of it
    overflows to infinity (a ``random_state``, unused, makes it refit)."""

    def __init__(self, random_state=None):
        self.random_state = random_state

    def fit(self, X, y):
        self.ridge_ = Ridge().fit(X, y)
        return self

    def predict(self, X):
        return np.where(X[:, 0] > 5, 1e308, self.ridge_.predict(X))


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")  # the refits' mean
def test_a_regressors_infinite_predictions_leave_their_folds_points_out_and_say_so():
    rng = np.random.RandomState(0)
    X = rng.randn(200, 3)
    y = X @ [1.0, 2.0, 3.0] + rng.randn(200)
    X[85, 0] = 10.0  # a row of outer fold 2
    result = _run({"overflowing": Overflowing()}, X, y, n_refits=2, scoring="r2")
    kept = result.predictions
    infinite = ~np.isfinite(kept.y_pred.astype(float))
    assert infinite.groupby(kept.outer_fold).any().tolist() == [False, False, True, False, False]
    note = (
        "overflowing on d: the predictions kept by outer fold(s) 2 are not finite (NaN or "
        "infinite) and are left out of its actual against predicted and residuals plots."
    )

    page = html.unescape(result.to_html(n_resamples=200))

    assert note in page
    figure = result.plot_predictions("d", "overflowing")
    assert note in _figure_text(figure)
    drawn = kept[kept.outer_fold != 2]
    actual = next(ax for ax in figure.axes if ax.get_title() == "actual against predicted")
    points = actual.collections[0].get_offsets()
    np.testing.assert_allclose(np.sort(points[:, 0]), np.sort(drawn.y_pred.astype(float)))
