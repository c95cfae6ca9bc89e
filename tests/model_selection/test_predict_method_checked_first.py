"""nested_cross_val_predict refuses a method the model lacks before fitting anything, and
still runs one that some candidate of the grid has."""

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression, Ridge, SGDClassifier
from sklearn.model_selection import GridSearchCV, KFold, cross_val_predict
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from sklearn_fair import nested_cross_val_predict

FITS = {"n": 0}


class CountingRidge(Ridge):
    def fit(self, X, y, **kw):
        FITS["n"] += 1
        return super().fit(X, y, **kw)


class CountingSVC(SVC):
    def fit(self, X, y, **kw):
        FITS["n"] += 1
        return super().fit(X, y, **kw)


@pytest.fixture
def data():
    FITS["n"] = 0
    return make_classification(60, 5, random_state=0)


@pytest.mark.parametrize(
    "model, method, grid",
    [
        (CountingRidge(), "predict_proba", {"alpha": [0.1, 1.0]}),
        (CountingRidge(), "decision_function", None),
        (CountingSVC(), "predict_proba", {"C": [0.1, 1.0]}),  # probability=False
        (make_pipeline(StandardScaler(), CountingRidge()), "predict_proba", None),
        (GridSearchCV(CountingSVC(), {"C": [0.1, 1.0]}, cv=2), "predict_log_proba", None),
    ],
)
def test_a_method_the_model_lacks_is_refused_before_any_fit(data, model, method, grid):
    X, y = data
    # scikit-learn's estimator, fitted, has no such method either
    fitted = model.fit(X, y)
    assert not hasattr(fitted, method)
    FITS["n"] = 0
    with pytest.raises(ValueError, match=rf"The 'method' parameter of nested_cross_val_predict "
                       rf"is '{method}', but .* no {method}: .*\['predict'"):  # fmt: skip
        nested_cross_val_predict(model, X, y, method=method, param_grid=grid, cv=3, inner_cv=2)
    assert FITS["n"] == 0


def test_a_method_some_candidate_has_is_run(data):
    X, y = data
    # the estimator as given has no predict_proba (hinge loss), the candidate with log loss has
    model = SGDClassifier(random_state=0)
    assert not hasattr(model, "predict_proba")
    got = nested_cross_val_predict(
        model, X, y, method="predict_proba", param_grid={"loss": ["log_loss"]}, cv=KFold(3),
        n_refits=1,
    )  # fmt: skip
    expected = cross_val_predict(
        SGDClassifier(loss="log_loss", random_state=0), X, y, method="predict_proba", cv=KFold(3)
    )
    np.testing.assert_allclose(got, expected)


def test_a_step_put_in_place_by_the_grid_is_looked_at(data):
    X, y = data
    pipeline = Pipeline([("scale", StandardScaler()), ("model", "passthrough")])
    grid = {"model": [LogisticRegression()]}
    got = nested_cross_val_predict(
        pipeline, X, y, method="predict_proba", param_grid=grid, cv=KFold(3), n_refits=1,
        scoring="accuracy",
    )  # fmt: skip
    expected = cross_val_predict(
        make_pipeline(StandardScaler(), LogisticRegression()), X, y, method="predict_proba",
        cv=KFold(3),
    )  # fmt: skip
    np.testing.assert_allclose(got, expected)


def test_nested_cv_interval_refuses_one_class_before_any_fit():
    from sklearn_fair import NestedCV
    from sklearn_fair.model_selection import nested_cv_interval

    FITS["n"] = 0
    X = np.random.default_rng(0).normal(size=(30, 3))
    y = np.zeros(30, dtype=int)
    # NestedCV's own words for the same y
    with pytest.raises(ValueError, match=r"y holds 1 class \(0\); a classifier needs") as given:
        NestedCV(CountingSVC(), outer_cv=3).fit(X, y)
    assert FITS["n"] == 0
    with pytest.raises(ValueError) as refused:
        nested_cv_interval(CountingSVC(), X, y, n_folds=3, n_repetitions=1)
    assert str(refused.value) == str(given.value)
    assert FITS["n"] == 0
