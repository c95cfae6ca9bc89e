"""Randomness that a grid value brings: an estimator put in place by a candidate that shuffles
without a seed is warned of as the estimator's own is, and the estimators in the space of a
search nested as a step are seeded as those of a search given as the estimator are."""

import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.ensemble import ExtraTreesClassifier, RandomForestClassifier, StackingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, KFold
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import ReproducibilityWarning

X, y = make_classification(150, 6, n_informative=3, flip_y=0.2, random_state=0)


def _stack(cv):
    members = [("a", LogisticRegression()), ("b", LogisticRegression(C=0.01))]
    return StackingClassifier(members, cv=cv)


def _reproducibility_warnings(estimator, grid, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nested = NestedCV(estimator, grid, outer_cv=3, inner_cv=3, **kwargs).fit(X, y)
    found = [str(w.message) for w in caught if issubclass(w.category, ReproducibilityWarning)]
    return nested, found


def test_a_grid_value_whose_cv_shuffles_unseeded_is_warned_of_once():
    clf = Pipeline([("clf", LogisticRegression())])
    grid = {"clf": [_stack(KFold(3, shuffle=True)), _stack(KFold(4, shuffle=True))]}
    _, found = _reproducibility_warnings(clf, grid, random_state=0)
    assert len(found) == 1
    assert "'estimator.clf__cv of a candidate'" in found[0]
    assert "KFold(n_splits=3, random_state=None, shuffle=True)" in found[0]
    # a seeded splitter: nothing to say, and two runs give the same scores
    seeded = {"clf": [_stack(KFold(3, shuffle=True, random_state=1))]}
    first, found = _reproducibility_warnings(clf, seeded, random_state=0)
    second, _ = _reproducibility_warnings(clf, seeded, random_state=0)
    assert found == []
    np.testing.assert_array_equal(first.outer_scores_, second.outer_scores_)


class _Noisy(ClassifierMixin, BaseEstimator):
    """Random labels from a ``seed`` parameter: randomness no random_state controls."""

    def __init__(self, seed=None):
        self.seed = seed

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.random.default_rng(self.seed).choice(self.classes_, len(X))


def test_a_grid_value_with_a_seed_no_random_state_controls_is_warned_of():
    clf = Pipeline([("clf", LogisticRegression())])
    _, found = _reproducibility_warnings(clf, {"clf": [_Noisy()]}, random_state=0)
    assert len(found) == 1 and "_Noisy (its parameter 'clf__seed')" in found[0]
    _, found = _reproducibility_warnings(clf, {"clf": [_Noisy(seed=3)]}, random_state=0)
    assert found == []


def _search_step(*forests):
    inner = GridSearchCV(Pipeline([("clf", LogisticRegression())]), {"clf": list(forests)}, cv=3)
    return Pipeline([("sc", StandardScaler()), ("search", inner)])


def test_the_estimators_in_a_search_steps_grid_are_seeded():
    forests = RandomForestClassifier(10), ExtraTreesClassifier(10)
    first, found = _reproducibility_warnings(_search_step(*forests), None, random_state=0)
    second, _ = _reproducibility_warnings(_search_step(*forests), None, random_state=0)
    assert found == []
    np.testing.assert_array_equal(first.outer_scores_, second.outer_scores_)
    chosen = first.best_estimator_[-1].best_estimator_[-1]
    assert isinstance(chosen.random_state, int)
    assert chosen.random_state == second.best_estimator_[-1].best_estimator_[-1].random_state
    other, _ = _reproducibility_warnings(_search_step(*forests), None, random_state=1)
    assert other.best_estimator_[-1].best_estimator_[-1].random_state != chosen.random_state
    assert all(forest.random_state is None for forest in forests)  # the user's, left alone
    # one the user gave is kept in every fit
    given = RandomForestClassifier(10, random_state=7), ExtraTreesClassifier(10, random_state=7)
    kept, _ = _reproducibility_warnings(_search_step(*given), None, random_state=0)
    assert kept.best_estimator_[-1].best_estimator_[-1].random_state == 7


def test_a_search_steps_grid_alone_makes_the_refits_seeded():
    # the search's estimator takes no seed: only its grid's forest does
    space = {"clf": [RandomForestClassifier(5)]}
    step = GridSearchCV(Pipeline([("clf", KNeighborsClassifier())]), space, cv=3)
    pipe = Pipeline([("sc", StandardScaler()), ("search", step)])
    nested = NestedCV(pipe, outer_cv=3, n_refits=3, random_state=0).fit(X, y)
    assert len(nested.refit_seeds_) == 3 and None not in nested.refit_seeds_
