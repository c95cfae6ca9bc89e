"""A model that shows its prediction methods only once fitted (hunt ENS-5): a StackingClassifier
whose final_estimator is None predicts in nested_cross_val_predict, as its fitted refits do."""

import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.ensemble import StackingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, KFold, cross_val_predict
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils._available_if import available_if

from sklearn_fair import nested_cross_val_predict

X, y = make_classification(n_samples=60, n_features=6, random_state=0)
OUTER, INNER = KFold(3, shuffle=True, random_state=0), KFold(3, shuffle=True, random_state=1)
GRID = {"passthrough": [False, True]}


def _stacking(final_estimator):
    estimators = [("tree", DecisionTreeClassifier(random_state=0)), ("lr", LogisticRegression())]
    return StackingClassifier(estimators, final_estimator=final_estimator, cv=2)


@pytest.mark.parametrize("method", ["predict", "predict_proba"])
def test_a_stacking_with_its_default_final_estimator_predicts(method):
    # the reference: scikit-learn with the default final_estimator (LogisticRegression) given
    search = GridSearchCV(_stacking(LogisticRegression()), GRID, cv=INNER)
    expected = cross_val_predict(search, X, y, cv=OUTER, method=method)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = nested_cross_val_predict(
            _stacking(None),
            X,
            y,
            param_grid=GRID,
            cv=OUTER,
            inner_cv=INNER,
            method=method,
            n_refits=1,
        )
    np.testing.assert_allclose(got, expected)


def _fitted(self):
    return hasattr(self, "classes_")


class _ProbaNeverShown(ClassifierMixin, BaseEstimator):
    """Shows predict only once fitted, and predict_proba then only where ``proba`` (False)."""

    def __init__(self, proba=False):
        self.proba = proba

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    @available_if(_fitted)
    def predict(self, X):
        return np.full(len(X), self.classes_[0])

    @available_if(lambda self: _fitted(self) and self.proba)
    def predict_proba(self, X):
        return np.ones((len(X), len(self.classes_))) / len(self.classes_)


def test_a_method_the_fitted_model_lacks_is_refused_by_name():
    with pytest.raises(ValueError, match=r"'predict_proba'.*outer fold 0.*has no predict_proba"):
        nested_cross_val_predict(
            _ProbaNeverShown(), X, y, param_grid={"proba": [False]}, cv=OUTER, inner_cv=INNER,
            method="predict_proba",
        )  # fmt: skip


def test_a_pipeline_ending_in_a_transformer_is_refused_before_any_fit(tmp_path):
    # the check let through any model whose class defines the method: a Pipeline does, so a
    # pipeline ending in a scaler was fitted in every fold before its predict failed
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    log = tmp_path / "fits.log"

    class LoggedScaler(StandardScaler):
        def fit(self, X, y=None, sample_weight=None):
            with open(log, "a") as file:
                file.write("fit\n")
            return super().fit(X, y, sample_weight)

    with pytest.raises(ValueError, match=r"'method' parameter .* is 'predict'.*no predict"):
        nested_cross_val_predict(
            make_pipeline(StandardScaler(), LoggedScaler()), X, y,
            param_grid={"loggedscaler__with_mean": [True, False]}, cv=OUTER, inner_cv=INNER,
            scoring="accuracy",
        )  # fmt: skip
    assert not log.exists()  # refused before the first fit
