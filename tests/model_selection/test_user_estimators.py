"""Estimators and scorers of the user's own that scikit-learn handles in its own way: one that
cannot be cloned, a classifier without ``classes_``, a scorer that returns a 1-element array.
Each is checked against what scikit-learn's ``cross_validate`` / ``cross_val_predict`` do."""

import re
import threading

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.model_selection import (
    GridSearchCV,
    KFold,
    cross_val_predict,
    cross_validate,
)
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV, nested_cross_val_predict, nested_cross_validate

X, y = make_classification(n_samples=60, n_features=4, random_state=0)


class Centroids(ClassifierMixin, BaseEstimator):
    """Nearest centroid; ``other`` is any object (a lock, a generator)."""

    def __init__(self, shrink=0.0, other=None):
        self.shrink = shrink
        self.other = other

    def fit(self, X, y):
        X, y = np.asarray(X, float), np.asarray(y)
        self.classes_ = np.unique(y)
        self.centroids_ = np.array([X[y == c].mean(0) for c in self.classes_])
        self.centroids_ = (1 - self.shrink) * self.centroids_ + self.shrink * X.mean(0)
        return self

    def predict(self, X):
        distance = ((np.asarray(X, float)[:, None] - self.centroids_[None]) ** 2).sum(-1)
        return self.classes_[distance.argmin(1)]


class NoClasses(ClassifierMixin, BaseEstimator):
    """A classifier that keeps its classes under a private name only, not ``classes_``."""

    def __init__(self, shrink=0.0):
        self.shrink = shrink

    def fit(self, X, y):
        X, y = np.asarray(X, float), np.asarray(y)
        self._classes = np.unique(y)
        self.centroids_ = np.array([X[y == c].mean(0) for c in self._classes])
        return self

    def predict_proba(self, X):
        distance = ((np.asarray(X, float)[:, None] - self.centroids_[None]) ** 2).sum(-1)
        weights = np.exp(-(distance - distance.min(1, keepdims=True)))
        return weights / weights.sum(1, keepdims=True)

    def predict(self, X):
        return self._classes[self.predict_proba(X).argmax(1)]


def _unclonable():
    return [threading.Lock(), (i for i in range(3))]


@pytest.mark.parametrize("other", _unclonable(), ids=["lock", "generator"])
@pytest.mark.parametrize("grid", [None, {"shrink": [0.0, 0.5]}], ids=["no grid", "grid"])
def test_an_estimator_that_cannot_be_cloned_fails_as_in_scikit_learn(other, grid):
    estimator = Centroids(other=other)
    with pytest.raises(TypeError) as expected:
        cross_validate(estimator, X, y, cv=KFold(3))
    message = f"^{re.escape(str(expected.value))}$"  # "cannot pickle '_thread.lock' object"
    with pytest.raises(TypeError, match=message):
        NestedCV(estimator, grid, outer_cv=KFold(3), inner_cv=KFold(3), n_refits=1).fit(X, y)
    with pytest.raises(TypeError, match=message):
        nested_cross_validate(estimator, X, y, param_grid=grid, cv=KFold(3), n_refits=1)


def test_an_unclonable_grid_value_fails_as_in_gridsearchcv():
    grid = {"other": [threading.Lock()]}
    with pytest.raises(TypeError) as expected:
        cross_validate(GridSearchCV(Centroids(), grid, cv=KFold(3)), X, y, cv=KFold(3))
    with pytest.raises(TypeError, match=f"^{re.escape(str(expected.value))}$"):
        NestedCV(Centroids(), grid, outer_cv=KFold(3), inner_cv=KFold(3), n_refits=1).fit(X, y)


def test_a_grid_name_that_cannot_be_set_is_still_named():
    with pytest.raises(ValueError, match="Invalid parameter 'shrinkage' in the search space"):
        NestedCV(Centroids(), {"shrinkage": [0.1]}, outer_cv=KFold(3), n_refits=1).fit(X, y)


@pytest.mark.parametrize("lacks_a_class", [True, False], ids=["a fold lacks a class", "all"])
def test_predict_proba_of_a_classifier_without_classes_fails_as_in_cross_val_predict(
    lacks_a_class,
):
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 2, 60)
    if lacks_a_class:
        labels[:6] = 2  # the first of three unshuffled folds tests every row of class 2
    features = rng.normal(size=(60, 3)) + labels[:, None]
    with pytest.raises(AttributeError, match="object has no attribute 'classes_'"):
        cross_val_predict(NoClasses(), features, labels, cv=KFold(3), method="predict_proba")
    with pytest.raises(AttributeError, match="'NoClasses' object has no attribute 'classes_'"):
        nested_cross_val_predict(
            NoClasses(), features, labels, param_grid={"shrink": [0.0, 0.5]}, cv=KFold(3),
            inner_cv=KFold(3), method="predict_proba", n_refits=1,
        )  # fmt: skip


def accuracy_in_an_array(estimator, X, y):
    return np.array([np.mean(estimator.predict(X) == y)])


def test_a_scorer_that_returns_a_one_element_array_scores_as_in_cross_validate():
    tree = DecisionTreeClassifier(random_state=0)
    grid = {"max_depth": [1, 3]}
    reference = cross_validate(
        GridSearchCV(tree, grid, cv=KFold(3), scoring=accuracy_in_an_array),
        X, y, cv=KFold(3), scoring=accuracy_in_an_array,
    )["test_score"]  # fmt: skip
    result = nested_cross_validate(
        tree, X, y, param_grid=grid, cv=KFold(3), inner_cv=KFold(3),
        scoring=accuracy_in_an_array, n_refits=1,
    )  # fmt: skip
    np.testing.assert_allclose(result["test_score"], reference)


def test_a_scorer_that_returns_several_numbers_is_refused_by_its_name():
    def two_numbers(estimator, X, y):
        return np.array([0.5, 0.5])

    with pytest.raises(ValueError, match="scoring must return a number"):
        cross_validate(DecisionTreeClassifier(), X, y, cv=KFold(3), scoring=two_numbers)
    with pytest.raises(ValueError, match=r"must return a number, got \[0.5 0.5\].*two_numbers"):
        nested_cross_validate(
            DecisionTreeClassifier(random_state=0), X, y, param_grid={"max_depth": [1, 3]},
            cv=KFold(3), inner_cv=KFold(3), scoring=two_numbers, n_refits=1,
            error_score="raise",
        )  # fmt: skip
