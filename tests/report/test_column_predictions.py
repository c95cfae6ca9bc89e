"""A regressor whose predict returns a column (n, 1) for a 1-D y: its kept predictions are read
as (n,), as scikit-learn's scorers read them, by the report, BenchmarkResult.predictions and
plot_predictions; nested_cross_val_predict still returns what cross_val_predict does."""

import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.datasets import make_regression
from sklearn.linear_model import Ridge
from sklearn.model_selection import KFold, cross_val_predict

from sklearn_fair import NestedCV, benchmark, nested_cross_val_predict
from sklearn_fair.report import nested_cv_report

pytestmark = pytest.mark.filterwarnings("ignore::sklearn_fair.exceptions.SklearnFairWarning")


class ColumnRidge(RegressorMixin, BaseEstimator):
    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def fit(self, X, y):
        self.model_ = Ridge(alpha=self.alpha).fit(X, y)
        return self

    def predict(self, X):
        return self.model_.predict(X).reshape(-1, 1)


X, y = make_regression(60, 4, noise=20, random_state=0)
OUTER = KFold(3, shuffle=True, random_state=0)
GRID = {"alpha": [0.1, 10.0]}
PROTOCOL = dict(inner_cv=3, n_refits=1, scoring="neg_mean_squared_error", random_state=0)


def _by_hand(params, train, test):
    """Ridge's (1-D) predictions of a fold's test rows, fitted on its training rows."""
    return Ridge(**params).fit(X[train], y[train]).predict(X[test])


def test_kept_column_predictions_are_one_dimensional():
    search = NestedCV(
        ColumnRidge(), GRID, outer_cv=OUTER, refit=False, keep_predictions=True, **PROTOCOL
    ).fit(X, y)
    for fold in search.outer_results_:
        (predict,) = fold["predictions"]["predict"]
        assert np.shape(predict) == (len(fold["test_indices"]),)
        expected = _by_hand(fold["best_params"], fold["train_indices"], fold["test_indices"])
        np.testing.assert_allclose(predict, expected, rtol=1e-10)
    html = nested_cv_report({"m": search}).to_html()
    assert "<html" in html.lower()


def test_benchmark_predictions_and_plot():
    result = benchmark(
        {"m": (ColumnRidge(), GRID)}, {"d": (X, y)}, outer_cv=OUTER, keep_predictions=True,
        **PROTOCOL,
    )  # fmt: skip
    frame = result.predictions
    assert len(frame) == len(y) and sorted(frame["row"]) == list(range(len(y)))
    np.testing.assert_allclose(frame["y_true"], y[frame["row"]])
    cell = result.cells["d", "m"]
    for fold, params in enumerate(cell.best_params):
        rows = frame[frame["outer_fold"] == fold]
        expected = _by_hand(params, cell.train_indices[fold], cell.test_indices[fold])
        np.testing.assert_allclose(rows["y_pred"], expected, rtol=1e-10)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result.plot_predictions("d", "m")


def test_nested_cross_val_predict_keeps_the_column():
    reference = cross_val_predict(ColumnRidge(), X, y, cv=OUTER)
    predictions = nested_cross_val_predict(
        ColumnRidge(), X, y, cv=OUTER, param_grid={"alpha": [1.0]}, inner_cv=3, n_refits=1
    )
    assert predictions.shape == reference.shape == (len(y), 1)
    np.testing.assert_allclose(predictions, reference, rtol=1e-10)
