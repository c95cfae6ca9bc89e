"""An infinite outer test score is a failed fold in every mean: ``score_mean_``,
``score_std_``, ``optimism_``, ``mean_scores()``, ``selection_summary()`` and
``compare_to_reference()`` are NaN, as ``summary()`` and ``table()`` say, and as a fold scored
``error_score=np.nan`` gives (hunt NANS-3)."""

import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.datasets import make_regression
from sklearn.linear_model import Ridge

from sklearn_fair import NestedCV, benchmark

X, Y = make_regression(n_samples=100, n_features=5, noise=1, random_state=0)
X_ROW_THREE = X[3]
GRID = {"alpha": [0.1, 1.0]}
SETTINGS = dict(outer_cv=5, inner_cv=3, scoring="neg_mean_squared_error", random_state=0, n_jobs=1)


class _BlowsUpOnRowThree(RegressorMixin, BaseEstimator):
    """A Ridge that predicts ``value`` for row 3 of X on the outer test folds (20 rows): that
    fold's negated MSE is -inf (``value=1e200``) or cannot be scored (``value=NaN``: the scorer
    raises and the fold is scored ``error_score``); every other fold is Ridge's."""

    def __init__(self, alpha=1.0, value=1e200):
        self.alpha = alpha
        self.value = value

    def fit(self, X, y):
        self.model_ = Ridge(alpha=self.alpha).fit(X, y)
        return self

    def predict(self, X):
        predictions = self.model_.predict(X)
        if len(X) == 20:
            predictions[np.all(X == X_ROW_THREE, axis=1)] = self.value
        return predictions


def _nested(estimator):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return NestedCV(estimator, GRID, refit=False, **SETTINGS).fit(X, Y)


@pytest.fixture(scope="module")
def ridge():
    return _nested(Ridge())


@pytest.mark.parametrize("value", [1e200, np.nan], ids=["inf", "nan"])
def test_nested_means_of_a_non_finite_fold_are_nan(ridge, value):
    nested = _nested(_BlowsUpOnRowThree(value=value))
    failed = ~np.isfinite(nested.outer_scores_)
    assert failed.sum() == 1
    if value == 1e200:
        assert nested.outer_scores_[failed][0] == -np.inf
    # the other folds keep their scores, those of the Ridge it wraps
    assert_allclose(nested.outer_scores_[~failed], ridge.outer_scores_[~failed])
    assert np.isnan(nested.score_mean_)
    assert np.isnan(nested.score_std_)
    assert np.isnan(nested.optimism_)
    # the validation scores are finite: the failure is that of the outer test score
    assert_allclose(nested.validation_scores_, ridge.validation_scores_)
    summary = nested.summary()
    assert np.isnan(summary.mean)
    assert summary.ci_method.startswith("not computed: 1 of 5 outer folds failed")


@pytest.fixture(scope="module")
def result():
    models = {"blow": (_BlowsUpOnRowThree(), GRID), "ridge": (Ridge(), GRID)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return benchmark(models, {"d": (X, Y)}, **SETTINGS)


@pytest.fixture(scope="module")
def ridge_mean(result):
    """Ridge's mean outer test score on the benchmark, in printed units (the MSE)."""
    return -np.mean(result.cells["d", "ridge"].scores)


def test_benchmark_fails_the_infinite_fold(result):
    assert result.missing == {("d", "blow"): 1}
    assert result.table().loc["blow", "d"] == "failed (1 of 5 folds)"


def test_mean_scores_of_an_infinite_fold_are_nan(result, ridge_mean):
    printed, scored = result.mean_scores(), result.mean_scores(printed=False)
    assert np.isnan(printed.loc["d", "blow"]) and np.isnan(scored.loc["d", "blow"])
    assert_allclose(printed.loc["d", "ridge"], ridge_mean)
    assert_allclose(scored.loc["d", "ridge"], -ridge_mean)


def test_selection_summary_of_an_infinite_fold_is_nan(result, ridge_mean):
    rows = result.selection_summary().set_index("model")
    assert np.isnan(rows.loc["blow", "test_mean"])
    assert np.isnan(rows.loc["blow", "optimism"])
    # its validation scores are finite, and stay the winners' mean
    blow = result.cells["d", "blow"]
    assert_allclose(rows.loc["blow", "validation_mean"], -np.mean(blow.validation_scores))
    assert_allclose(rows.loc["ridge", "test_mean"], ridge_mean)
    assert_allclose(
        rows.loc["ridge", "optimism"],
        rows.loc["ridge", "test_mean"] - rows.loc["ridge", "validation_mean"],
    )


def test_compare_to_reference_of_an_infinite_fold_is_nan(result, ridge_mean):
    reference = {("d", "blow"): (1.0, 0.1), ("d", "ridge"): (1.0, 0.1)}
    compared = result.compare_to_reference(reference).set_index("model")
    assert np.isnan(compared.loc["blow", ["mean", "std", "difference", "in_reference_se"]]).all()
    assert_allclose(compared.loc["ridge", "mean"], ridge_mean)


def test_refit_scores_of_an_infinite_fold_are_nan(result):
    # BenchmarkResult.scores showed NaN for the fold, refit_scores its refits' inf (review36)
    refits = result.refit_scores
    blow = refits[refits["model"] == "blow"]
    failed = ~np.isfinite(result.cells["d", "blow"].scores)
    assert failed.sum() == 1
    assert blow.loc[blow["outer_fold"] == np.flatnonzero(failed)[0], "score"].isna().all()
    assert np.isfinite(blow.loc[blow["outer_fold"] != np.flatnonzero(failed)[0], "score"]).all()
    ridge = refits[refits["model"] == "ridge"]
    assert np.isfinite(ridge["score"]).all()
