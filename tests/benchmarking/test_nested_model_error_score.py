"""benchmark's error_score reaches a model given as a NestedCV left at its default (NaN), as it
reaches an (estimator, param_grid) pair; a NestedCV's own error_score is kept, and refused
where benchmark's differs from it; a benchmark extended with ``previous`` accepts its cells."""

import math
import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.datasets import make_regression
from sklearn.exceptions import FitFailedWarning
from sklearn.linear_model import Ridge
from sklearn.model_selection import KFold

from sklearn_fair import BenchmarkResult, NestedCV, benchmark

X, y = make_regression(121, 5, noise=5, random_state=0)
OUTER, INNER = KFold(3), KFold(3)
GRID = {"alpha": [0.1, 1.0]}


class FailsOnFoldZero(RegressorMixin, BaseEstimator):
    """Ridge, whose fit raises on outer fold 0's 80 training rows (its refits)."""

    def __init__(self, alpha=1.0, random_state=None):
        self.alpha = alpha
        self.random_state = random_state

    def fit(self, X, y):
        if len(X) == 80:
            raise ValueError("boom on outer fold 0")
        self.model_ = Ridge(alpha=self.alpha).fit(X, y)
        return self

    def predict(self, X):
        return self.model_.predict(X)


def _run(model, **params):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = benchmark(
            {"m": model}, {"d": (X, y)}, outer_cv=OUTER, inner_cv=INNER,
            scoring="neg_mean_squared_error", random_state=2, **params,
        )  # fmt: skip
    return result, [str(w.message) for w in caught if w.category is FitFailedWarning]


def _nested(**params):
    return NestedCV(FailsOnFoldZero(), GRID, inner_cv=INNER, **params)


def test_error_score_raise_raises_for_a_nested_model_as_for_a_pair():
    # the (estimator, param_grid) pair is the reference: benchmark gives it error_score
    with pytest.raises(ValueError, match="boom on outer fold 0"):
        _run((FailsOnFoldZero(), GRID), error_score="raise")
    with pytest.raises(ValueError, match="boom on outer fold 0"):
        _run(_nested(), error_score="raise")


def test_a_numeric_error_score_reaches_a_nested_model_as_a_pair():
    pair, pair_warnings = _run((FailsOnFoldZero(), GRID), error_score=0.0)
    nested, nested_warnings = _run(_nested(), error_score=0.0)
    assert pair.cells["d", "m"].error_score == nested.cells["d", "m"].error_score == 0.0
    assert nested.cells["d", "m"].estimator.outer_results_[0]["test_scores"].tolist() == [0.0] * 3
    assert "were given error_score=0.0" in nested_warnings[0]
    assert "were given error_score=0.0" in pair_warnings[0]


def test_a_nested_models_own_error_score_is_kept_under_benchmarks_default():
    result, messages = _run(_nested(error_score=-1.0))
    assert result.cells["d", "m"].error_score == -1.0
    assert "were given error_score=-1.0" in messages[0]


def test_a_nested_models_own_error_score_equal_to_benchmarks_is_taken():
    result, _ = _run(_nested(error_score=-1.0), error_score=-1.0)
    assert result.cells["d", "m"].error_score == -1.0


@pytest.mark.parametrize("own, given", [(-1.0, 0.0), ("raise", 0.0), (0.0, "raise")])
def test_a_nested_models_own_error_score_other_than_benchmarks_is_refused(own, given):
    with pytest.raises(ValueError) as raised:
        _run(_nested(error_score=own), error_score=given)
    message = str(raised.value)
    assert "'m'" in message
    assert f"NestedCV with error_score={own!r}" in message
    assert f"benchmark has error_score={given!r}" in message


@pytest.mark.parametrize("error_score", [np.nan, 0.0])
def test_an_extended_benchmark_accepts_its_nested_models_cells(error_score, tmp_path):
    first, _ = _run(_nested(), error_score=error_score)
    path = tmp_path / "first.json"
    first.save(path)
    for previous in (first, BenchmarkResult.load(path)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FitFailedWarning)
            both = benchmark(
                {"m": _nested(), "ridge": (Ridge(), GRID)}, {"d": (X, y)}, outer_cv=OUTER,
                inner_cv=INNER, scoring="neg_mean_squared_error", random_state=2,
                error_score=error_score, previous=previous,
            )  # fmt: skip
        assert set(both.models) == {"m", "ridge"}
        recorded = both.cells["d", "m"].error_score
        assert recorded is None if math.isnan(error_score) else recorded == error_score
