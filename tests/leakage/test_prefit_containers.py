"""Fitted steps are found in every container scikit-learn takes: steps given as a tuple or as
lists, and a fitted model held in a numpy object array or a pandas object Series/DataFrame."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.compose import ColumnTransformer
from sklearn.feature_selection import SelectKBest
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import FeatureUnion, Pipeline, make_pipeline
from sklearn.preprocessing import FunctionTransformer, StandardScaler

from sklearn_fair import audit
from sklearn_fair.leakage import PrefitStep, find_prefit_steps

rng = np.random.default_rng(0)
X, y = rng.normal(size=(40, 6)), np.tile([0, 1], 20)
FROZEN = FrozenEstimator(SelectKBest(k=3).fit(X, y))


def _imblearn_pipeline(steps):
    return pytest.importorskip("imblearn.pipeline").Pipeline(steps)


@pytest.mark.parametrize(
    "make, name",
    [
        (lambda: Pipeline((("sel", FROZEN), ("lr", LogisticRegression()))), "sel"),
        (lambda: Pipeline([["sel", FROZEN], ["lr", LogisticRegression()]]), "sel"),
        (lambda: _imblearn_pipeline((("sel", FROZEN), ("lr", LogisticRegression()))), "sel"),
        (
            lambda: make_pipeline(
                FeatureUnion((("sel", FROZEN), ("sc", StandardScaler()))), LogisticRegression()
            ),
            "featureunion/sel",
        ),
        (
            lambda: make_pipeline(
                ColumnTransformer([["s", FROZEN, [0, 1, 2, 3, 4, 5]]]), LogisticRegression()
            ),
            "columntransformer/s",
        ),
    ],
    ids=["tuple", "lists", "imblearn-tuple", "featureunion-tuple", "columntransformer-lists"],
)
def test_frozen_step_in_tuple_or_list_steps_is_found(make, name):
    estimator = make()
    # scikit-learn takes each of these, and clone keeps the frozen selector as it is
    clone(estimator).fit(X, y)
    assert find_prefit_steps(estimator) == [PrefitStep(name, "SelectKBest", True)]


def _apply_first(Z, holder):
    return holder[0].transform(Z)


def _object_array(model):
    holder = np.empty(2, dtype=object)
    holder[0], holder[1] = model, "note"
    return holder


def _series(model):
    return pytest.importorskip("pandas").Series([model, "note"])


def _frame(model):
    pd = pytest.importorskip("pandas")
    return pd.DataFrame({"n": [1.0, 2.0], "m": [model, "note"]})


def _first_model(holder):
    if isinstance(holder, np.ndarray):
        return holder[0]
    return holder.iloc[0] if holder.ndim == 1 else holder["m"].iloc[0]


@pytest.mark.parametrize("wrap", [_object_array, _series, _frame])
def test_fitted_model_in_an_object_array_is_found(wrap):
    fitted = SelectKBest(k=3).fit(X, y)
    holder = wrap(fitted)
    estimator = make_pipeline(
        FunctionTransformer(_apply_first, kw_args={"holder": holder}), LogisticRegression()
    )
    # clone deep-copies the holder with the fitted selector in it: every resample uses it
    kept = _first_model(clone(estimator)[0].kw_args["holder"])
    np.testing.assert_array_equal(kept.scores_, fitted.scores_)
    assert find_prefit_steps(estimator) == [
        PrefitStep("functiontransformer/kw_args", "SelectKBest", True)
    ]


def test_unfitted_model_or_plain_values_in_an_object_array_are_not_listed():
    for holder in (
        _object_array(SelectKBest(k=3)),
        np.array(["a", "b"] * 20_000, dtype=object),
        np.arange(5.0),
    ):
        estimator = FunctionTransformer(_apply_first, kw_args={"holder": holder})
        assert find_prefit_steps(estimator) == []


def test_audit_flags_a_frozen_step_in_tuple_steps():
    result = audit(Pipeline((("sel", FROZEN), ("lr", LogisticRegression()))), X, y, checks="prefit")
    assert result.prefit == [PrefitStep("sel", "SelectKBest", True)]
    assert not result.passed
