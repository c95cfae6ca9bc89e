"""A TransformedTargetRegressor on the way to a model that early-stops on the protocol's
validation rows: it fits its regressor on the transformed y but routes X_val and y_val to it as
given, so the model would early-stop on targets (and, through a scaling pipeline, features) on
another scale. The run refuses, as it refuses a Pipeline that passes X_val untransformed."""

import numpy as np
import pytest
import sklearn
from sklearn.compose import TransformedTargetRegressor
from sklearn.datasets import make_regression
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_fair import NestedCV

X, y = make_regression(n_samples=90, n_features=4, noise=5, random_state=0)
y = np.exp((y - y.mean()) / y.std())  # positive and skewed: fitted on log(y)
OPTIONS = dict(outer_cv=3, inner_cv=2, n_refits=1, refit=False, random_state=0)


def _hgb():
    model = HistGradientBoostingRegressor(early_stopping=True, max_iter=20, n_iter_no_change=2)
    return model.set_fit_request(X_val=True, y_val=True)


@pytest.fixture(autouse=True)
def _routing():
    with sklearn.config_context(enable_metadata_routing=True):
        yield


def _fit(estimator, grid, **kwargs):
    return NestedCV(estimator, grid, **OPTIONS, **kwargs).fit(X, y)


@pytest.mark.parametrize("mode", ["auto", "protocol"])
@pytest.mark.parametrize(
    "transform",
    [dict(func=np.log, inverse_func=np.exp), dict(transformer=StandardScaler())],
    ids=["func", "transformer"],
)
def test_a_target_transformer_before_the_early_stopping_model_is_refused(mode, transform):
    ttr = TransformedTargetRegressor(_hgb(), **transform)
    with pytest.raises(ValueError, match=r"y_val.*TransformedTargetRegressor.*transforms y"):
        _fit(ttr, {"regressor__learning_rate": [0.1]}, early_stopping_split=mode)
    # the remedy named: each fit early-stops on the model's own hold-out of its rows
    with pytest.raises(ValueError, match=r"early_stopping_split='estimator'"):
        _fit(ttr, {"regressor__learning_rate": [0.1]}, early_stopping_split=mode)
    fitted = _fit(ttr, {"regressor__learning_rate": [0.1]}, early_stopping_split="estimator")
    assert np.isfinite(fitted.outer_scores_).all()


def test_a_target_transformer_as_a_step_or_a_candidate_is_named():
    ttr = TransformedTargetRegressor(_hgb(), func=np.log, inverse_func=np.exp)
    with pytest.raises(ValueError, match=r"its 'ttr', a TransformedTargetRegressor"):
        _fit(Pipeline([("id", "passthrough"), ("ttr", ttr)]), {"ttr__regressor__max_iter": [5]})
    identity = TransformedTargetRegressor(_hgb())
    grid = [
        {"func": [None], "inverse_func": [None]},
        {"func": [np.log], "inverse_func": [np.exp]},
    ]
    with pytest.raises(ValueError, match=r"transforms y"):
        _fit(identity, grid)


def test_without_func_or_transformer_it_early_stops_as_the_bare_model_does():
    # scikit-learn's TransformedTargetRegressor without func and transformer fits on y itself
    identity = _fit(TransformedTargetRegressor(_hgb()), {"regressor__learning_rate": [0.1, 0.3]})
    bare = _fit(_hgb(), {"learning_rate": [0.1, 0.3]})
    assert "early_stopping_indices" in bare.outer_results_[0]
    np.testing.assert_allclose(identity.outer_scores_, bare.outer_scores_)


def test_a_scaling_pipeline_inside_it_is_refused_as_a_bare_one_is():
    scaled = Pipeline([("sc", StandardScaler()), ("hgb", _hgb())])
    grid = {"regressor__hgb__learning_rate": [0.1]}
    with pytest.raises(ValueError, match=r"steps \['regressor__sc'\] transform X"):
        _fit(TransformedTargetRegressor(scaled), grid)
    listed = Pipeline(scaled.steps, transform_input=["X_val"])
    routed = _fit(TransformedTargetRegressor(listed), grid)
    bare = _fit(listed, {"hgb__learning_rate": [0.1]})
    np.testing.assert_allclose(routed.outer_scores_, bare.outer_scores_)
