"""Fitted estimators that clone keeps, wherever a step or a search candidate holds them."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.feature_selection import SelectKBest
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import FunctionTransformer, StandardScaler

from sklearn_fair import audit
from sklearn_fair.leakage import PrefitStep, find_prefit_steps


@pytest.fixture(scope="module")
def X():
    return np.random.default_rng(0).normal(size=(40, 5))


# ---- fault: a fitted estimator that a function or object holds, out of _held's reach ---------

# models kept in global dicts, read by a lambda (one dict per case: a function that reads a
# dict may read any of its values, all are looked at)
_MODELS, _HELPER_MODELS, _ROW_MODELS, _UNFITTED_MODELS = {}, {}, {}, {}


class _Transform:
    """A callable object holding a fitted model (clone deep-copies it, fitted)."""

    def __init__(self, model):
        self.model = model

    def __call__(self, X):
        return self.model.transform(X)


def _helper(X):  # a global helper that a lambda calls, reading a global model itself
    return _HELPER_MODELS["helper"].transform(X)


def _callable_object(fitted):
    return FunctionTransformer(_Transform(fitted))


def _global_dict(fitted):
    _MODELS["scaler"] = fitted
    return FunctionTransformer(lambda Z: _MODELS["scaler"].transform(Z))


def _global_helper(fitted):
    _HELPER_MODELS["helper"] = fitted
    return FunctionTransformer(lambda Z: _helper(Z))


def _comprehension(fitted):
    _ROW_MODELS["rows"] = fitted
    return FunctionTransformer(
        lambda Z: np.vstack([_ROW_MODELS["rows"].transform(row[None]) for row in Z])
    )


@pytest.mark.parametrize(
    "wrap",
    [_callable_object, _global_dict, _global_helper, _comprehension],
    ids=["callable object", "global dict", "global helper function", "comprehension"],
)
def test_find_prefit_steps_lists_a_fitted_model_that_clone_keeps(X, wrap):
    fitted = StandardScaler().fit(X)
    pipe = make_pipeline(wrap(fitted), LogisticRegression())
    # the reference: what scikit-learn's clone gives a resample uses the all-data scaler
    resampled = clone(pipe)[0].fit(X[:20])
    assert np.allclose(resampled.transform(X[:20]), StandardScaler().fit(X).transform(X[:20]))
    assert find_prefit_steps(pipe) == [
        PrefitStep("functiontransformer/func", "StandardScaler", True)
    ]


def _unfitted_global(fitted):
    _UNFITTED_MODELS["unfitted"] = StandardScaler()
    return FunctionTransformer(lambda Z: _UNFITTED_MODELS["unfitted"].fit_transform(Z))


@pytest.mark.parametrize(
    "step",
    [
        FunctionTransformer(np.log1p),
        FunctionTransformer(_Transform(StandardScaler())),
        FunctionTransformer(lambda Z: StandardScaler().fit_transform(Z)),
        _unfitted_global(None),
    ],
    ids=["ufunc", "object holding an unfitted model", "model made inside", "unfitted global"],
)
def test_find_prefit_steps_lists_nothing_a_function_fits_itself(step):
    assert find_prefit_steps(make_pipeline(step, LogisticRegression())) == []


# ---- fault: audit's param_grid was not searched for prefit candidates -------------------------


def test_audit_finds_a_fitted_candidate_of_param_grid():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(60, 50)), rng.integers(0, 2, 60)  # noise
    selected_on_all = FrozenEstimator(SelectKBest(k=5).fit(X, y))
    pipe = Pipeline([("sel", "passthrough"), ("lr", LogisticRegression())])
    grid = {"sel": ["passthrough", selected_on_all], "lr__C": [1.0]}
    # the reference: the same candidates handed in as a search's grid
    assert [s.estimator for s in find_prefit_steps(GridSearchCV(pipe, grid))] == ["SelectKBest"]
    result = audit(pipe, X, y, cv=3, inner_cv=3, param_grid=grid, checks="prefit")
    assert not result.passed
    assert result.prefit == [PrefitStep("param_grid/sel", "SelectKBest", True)]
    # a list of grids too; a clean grid stays clean
    result = audit(pipe, X, y, cv=3, param_grid=[{"lr__C": [1.0]}, grid], checks="prefit")
    assert [s.name for s in result.prefit] == ["param_grid/sel"]
    clean = {"sel": ["passthrough", SelectKBest(k=5)], "lr__C": [1.0]}
    assert audit(pipe, X, y, cv=3, param_grid=clean, checks="prefit").prefit == []
