"""Sample weights under scikit-learn's metadata routing (hunt WEIGHT).

WEIGHT-1: the validation rows of protocol early stopping get the weights of the model that
early-stops, under whatever name it requests them (``set_fit_request(sample_weight="ww")``),
or a warning where it cannot take them. WEIGHT-2: a scorer with ``set_score_request`` can be
described, so a cache serves its runs, and a request of weights keys apart from none.
WEIGHT-3: scores weighted through a scorer's request are named "... weighted by
sample_weight", so that they neither compare nor report as the plain metric."""

import tempfile
import warnings

import numpy as np
import pytest
from sklearn.ensemble import HistGradientBoostingRegressor, VotingRegressor
from sklearn.linear_model import Ridge
from sklearn.metrics import get_scorer
from sklearn.model_selection import GridSearchCV, KFold, cross_validate
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_limits

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import UnweightedValidationWarning
from sklearn_fair.report import result_to_dict
from sklearn_fair.stats import compare
from sklearn_fair.utils import describe


@pytest.fixture(autouse=True)
def _one_thread():  # HistGradientBoosting's OpenMP threads on a shared machine
    with threadpool_limits(limits=1):
        yield


# -- WEIGHT-1: early stopping under an aliased weight request ---------------------------------

RNG = np.random.RandomState(0)
XS = RNG.randn(150, 3)
YS = XS @ [1.0, 2.0, 3.0] + RNG.randn(150) * 3 * (XS[:, 0] > 0)
WS = np.where(XS[:, 0] > 0, 0.05, 5.0)
OTHER = RNG.exponential(size=150)  # weights of another step, never the early-stopper's

SEEN = []  # (X_val, sample_weight_val) of each fit


class _Spy(HistGradientBoostingRegressor):
    """Records what each fit is given for early stopping."""

    def fit(self, X, y, sample_weight=None, *, X_val=None, y_val=None, sample_weight_val=None):
        SEEN.append((X_val, sample_weight_val))
        return super().fit(
            X, y, sample_weight=sample_weight, X_val=X_val, y_val=y_val,
            sample_weight_val=sample_weight_val,
        )  # fmt: skip


def _spy(weights, validation_weights=True):
    spy = _Spy(early_stopping=True, max_iter=30, n_iter_no_change=3, random_state=0)
    return spy.set_fit_request(
        sample_weight=weights, X_val=True, y_val=True, sample_weight_val=validation_weights
    )


def _pipeline(weights, scaler_weights=False, validation_weights=True):
    # a scaler that changes nothing: the X_val a fit receives are rows of XS
    scaler = StandardScaler(with_mean=False, with_std=False)
    return Pipeline(
        [("sc", scaler.set_fit_request(sample_weight=scaler_weights)),
         ("hgb", _spy(weights, validation_weights))],
        transform_input=["X_val"],
    )  # fmt: skip


def _fit_spied(estimator, grid, **params):
    SEEN.clear()
    scorer = get_scorer("r2").set_score_request(sample_weight=False)
    model = NestedCV(
        estimator, param_grid=grid, outer_cv=3, inner_cv=KFold(2), n_refits=1, random_state=0,
        scoring=scorer, refit=False,
    )  # fmt: skip
    return model.fit(XS, YS, **params), list(SEEN)


def _weights_of_rows(X_val, weights):
    """The weights of the rows of XS that ``X_val`` holds, found by hand (rows are unique)."""
    rows = [int(np.flatnonzero((XS == row).all(axis=1))[0]) for row in X_val]
    return weights[rows]


def test_aliased_weights_reach_validation_rows_as_unaliased_ones(routing):
    grid = {"hgb__max_leaf_nodes": [5, 15]}
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnweightedValidationWarning)
        plain, _ = _fit_spied(_pipeline(True), grid, sample_weight=WS)
        aliased, seen = _fit_spied(_pipeline("ww"), grid, ww=WS)
    np.testing.assert_allclose(aliased.outer_scores_, plain.outer_scores_)
    assert seen and all(X_val is not None for X_val, _ in seen)
    for X_val, weights_val in seen:
        assert weights_val is not None
        np.testing.assert_array_equal(weights_val, _weights_of_rows(X_val, WS))


def test_validation_rows_get_the_early_stopping_steps_weights_not_another_steps(routing):
    # the scaler is weighted by sample_weight, the model by ww: its validation rows by ww
    _, seen = _fit_spied(
        _pipeline("ww", scaler_weights=True), {"hgb__max_leaf_nodes": [5, 15]},
        sample_weight=OTHER, ww=WS,
    )  # fmt: skip
    assert seen
    for X_val, weights_val in seen:
        np.testing.assert_array_equal(weights_val, _weights_of_rows(X_val, WS))


@pytest.mark.parametrize("pipeline", [False, True])
def test_aliased_weights_without_validation_weights_warn(routing, pipeline):
    estimator = _pipeline("ww", validation_weights=False) if pipeline else _spy("ww", False)
    grid = {"hgb__max_leaf_nodes": [5, 15]} if pipeline else {"max_leaf_nodes": [5, 15]}
    with pytest.warns(UnweightedValidationWarning, match="unweighted validation loss"):
        _, seen = _fit_spied(estimator, grid, ww=WS)
    assert all(weights_val is None for _, weights_val in seen)


def test_early_stoppers_with_different_weights_are_refused(routing):
    voting = VotingRegressor([("a", _spy("w1")), ("b", _spy("w2"))])
    with pytest.raises(ValueError, match=r"different weights \(\['w1', 'w2'\]\)"):
        _fit_spied(voting, {"a__max_leaf_nodes": [5, 15]}, w1=WS, w2=OTHER)


# -- WEIGHT-2 and WEIGHT-3: weighted scorers ---------------------------------------------------

RNG3 = np.random.RandomState(0)
X3 = RNG3.randn(120, 3)
Y3 = X3 @ [1.0, 2.0, 0.0] + RNG3.randn(120) * (1 + 2 * (X3[:, 2] > 0))
W3 = np.where(X3[:, 2] > 0, 0.1, 1.0)
GRID3 = {"alpha": [0.1, 10.0]}


def _r2(weighted):
    return get_scorer("r2").set_score_request(sample_weight=weighted)


def _nested(scoring, **kwargs):
    options = dict(outer_cv=KFold(4), inner_cv=KFold(3), n_refits=1, random_state=0)
    return NestedCV(Ridge().set_fit_request(sample_weight=True), GRID3, scoring=scoring,
                    **{**options, **kwargs})  # fmt: skip


def _sklearn_scores(weighted):
    search = GridSearchCV(Ridge().set_fit_request(sample_weight=True), GRID3, cv=KFold(3),
                          scoring=_r2(weighted))  # fmt: skip
    return cross_validate(search, X3, Y3, cv=KFold(4), scoring=_r2(weighted),
                          params={"sample_weight": W3})["test_score"]  # fmt: skip


def test_scorer_with_a_request_is_described_by_its_request(routing):
    assert describe(_r2(True)) == describe(_r2(True))
    assert describe(_r2(True)) != describe(_r2(False))
    assert describe(_r2(False)) != describe(get_scorer("r2"))


def test_cache_serves_a_scorer_with_a_request(routing):
    folder = tempfile.mkdtemp()
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*cache is not used.*")
        first = _nested(_r2(True), refit=False, cache_dir=folder).fit(X3, Y3, sample_weight=W3)
        second = _nested(_r2(True), refit=False, cache_dir=folder).fit(X3, Y3, sample_weight=W3)
        unweighted = _nested(_r2(False), refit=False, cache_dir=folder).fit(
            X3, Y3, sample_weight=W3
        )
    assert first.cache_info_["hits"] == 0 and first.cache_info_["computed"] > 0
    assert second.cache_info_ == {"hits": first.cache_info_["computed"], "computed": 0}
    np.testing.assert_array_equal(second.outer_scores_, first.outer_scores_)
    # the request keys apart: the unweighted run is not served the weighted scores
    np.testing.assert_allclose(first.outer_scores_, _sklearn_scores(True))
    np.testing.assert_allclose(unweighted.outer_scores_, _sklearn_scores(False))
    assert not np.allclose(unweighted.outer_scores_, first.outer_scores_)


def test_weighted_scores_are_named_weighted(routing):
    weighted = _nested(_r2(True)).fit(X3, Y3, sample_weight=W3)
    unweighted = _nested(_r2(False)).fit(X3, Y3, sample_weight=W3)
    np.testing.assert_allclose(weighted.outer_scores_, _sklearn_scores(True))
    name = "R^2 weighted by sample_weight"
    assert weighted.metrics_["score"].name == name
    assert weighted.selection_metric_.name == name
    assert result_to_dict(weighted)["metrics"]["score"]["name"] == name
    # validation and test scores are weighted alike: their difference stands
    assert weighted.validation_comparable_ and np.isfinite(weighted.optimism_)
    assert unweighted.metrics_["score"].name == "R^2"
    assert unweighted.selection_metric_.name == "R^2"
    with pytest.raises(ValueError, match="different metrics"):
        compare({"weighted": weighted, "unweighted": unweighted})


def test_weighted_metric_of_several_is_named_weighted(routing):
    mae = get_scorer("neg_mean_absolute_error").set_score_request(sample_weight=False)
    scoring = {"r2": _r2(True), "mae": mae}
    model = _nested(scoring, refit="r2").fit(X3, Y3, sample_weight=W3)
    assert model.metrics_["r2"].name == "R^2 weighted by sample_weight"
    assert "weighted" not in model.metrics_["mae"].name
    assert model.selection_metric_.name == "R^2 weighted by sample_weight"
