"""A user's ensemble that holds its members in a list parameter without exposing them through
``get_params`` (as scikit-learn's VotingClassifier does, by name): no seed of the run reaches a
member's ``random_state`` left at None, so a seeded run changes from fit to fit. NestedCV says
so before any fit, as it does for other randomness no seed reaches."""

import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.datasets import make_classification
from sklearn.ensemble import StackingClassifier, VotingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import ReproducibilityWarning


class ListEnsemble(ClassifierMixin, BaseEstimator):
    """Averages the probabilities of the estimators of its list."""

    def __init__(self, estimators=None):
        self.estimators = estimators

    def fit(self, X, y):
        self.estimators_ = [clone(e).fit(X, y) for e in self.estimators]
        self.classes_ = self.estimators_[0].classes_
        return self

    def predict_proba(self, X):
        return np.mean([e.predict_proba(X) for e in self.estimators_], axis=0)

    def predict(self, X):
        return self.classes_[self.predict_proba(X).argmax(1)]


X, Y = make_classification(n_samples=150, n_features=8, random_state=0)


def _fit(estimator):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nested = NestedCV(estimator, outer_cv=KFold(5), inner_cv=KFold(3), n_refits=1,
                          random_state=0).fit(X, Y)  # fmt: skip
    said = [str(w.message) for w in caught if issubclass(w.category, ReproducibilityWarning)]
    return nested.outer_scores_, said


def _trees():
    return [DecisionTreeClassifier(max_features=1), DecisionTreeClassifier(max_features=2)]


@pytest.mark.parametrize("wrap", [lambda e: e, lambda e: make_pipeline(StandardScaler(), e)])
def test_members_no_seed_reaches_are_said_to_change_the_results(wrap):
    # the fact behind the warning: two fits of the same seeded run differ (before: silently)
    first, said = _fit(wrap(ListEnsemble(_trees())))
    second, _ = _fit(wrap(ListEnsemble(_trees())))
    assert not np.array_equal(first, second)
    (message,) = [m for m in said if "DecisionTreeClassifier (its parameter '" in m]
    assert "estimators'" in message and "its own random_state set to an int" in message


def test_members_seeded_by_the_user_or_reached_by_name_are_not():
    seeded = ListEnsemble([DecisionTreeClassifier(max_features=1, random_state=0)])
    first, said = _fit(seeded)
    assert np.array_equal(first, _fit(seeded)[0]) and not said
    voting = VotingClassifier([("a", DecisionTreeClassifier()), ("b", LogisticRegression())],
                              voting="soft")  # fmt: skip
    stacking = StackingClassifier([("a", DecisionTreeClassifier())],
                                  final_estimator=DecisionTreeClassifier())  # fmt: skip
    for reached in (voting, stacking):  # their members' random_state are seeded by name
        first, said = _fit(reached)
        assert not said and np.array_equal(first, _fit(reached)[0])
