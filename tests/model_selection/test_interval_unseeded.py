"""nested_cv_interval with a random_state warns, before any fit, where the estimator holds
randomness that the random_state does not control, as NestedCV does: its interval would
change on every call."""

import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.model_selection import GridSearchCV, KFold
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import ReproducibilityWarning
from sklearn_fair.model_selection import nested_cv_interval

X, Y = make_classification(60, 5, random_state=0)
FITS = []


class Noisy(ClassifierMixin, BaseEstimator):
    """A stump whose predictions flip at random, drawn from its own ``seed``."""

    def __init__(self, seed=None):
        self.seed = seed

    def fit(self, X, y):
        FITS.append(len(y))
        self.classes_ = np.unique(y)
        self.tree_ = DecisionTreeClassifier(max_depth=1, random_state=0).fit(X, y)
        return self

    def predict(self, X):
        flip = np.random.default_rng(self.seed).random(len(X)) < 0.2
        return np.where(flip, self.classes_[0], self.tree_.predict(X))


def _shuffling_search(random_state=None):
    return GridSearchCV(
        DecisionTreeClassifier(random_state=0),
        {"max_depth": [1, 3]},
        cv=KFold(3, shuffle=True, random_state=random_state),
    )


def _interval(estimator, random_state=0):
    result = nested_cv_interval(
        estimator, X, Y, n_folds=3, n_repetitions=1, random_state=random_state
    )
    return result.estimate, result.low, result.high


@pytest.mark.parametrize(
    "estimator, says",
    [
        (_shuffling_search(), "'estimator.cv' of nested_cv_interval shuffles without a seed"),
        (Noisy(), "Noisy \\(its parameter 'seed'\\) in the estimator of nested_cv_interval"),
    ],
)
def test_unseeded_randomness_is_warned_of_before_any_fit(estimator, says):
    # NestedCV warns of the same estimator (the search's cv is its inner_cv)
    with pytest.warns(ReproducibilityWarning, match="shuffles without a seed|its parameter"):
        NestedCV(estimator, outer_cv=3, n_refits=1, random_state=0, refit=False).fit(X, Y)
    FITS.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error", ReproducibilityWarning)
        with pytest.raises(ReproducibilityWarning, match=says):
            _interval(estimator)
    assert FITS == []


@pytest.mark.parametrize("estimator", [_shuffling_search(random_state=0), Noisy(seed=0)])
def test_a_seeded_estimator_is_not_warned_of_and_repeats_its_interval(estimator):
    with warnings.catch_warnings():
        warnings.simplefilter("error", ReproducibilityWarning)
        first = _interval(estimator)
    assert _interval(estimator) == first


def test_no_random_state_is_not_warned_of():
    # nothing to reproduce: random_state=None draws other folds on every call anyway
    with warnings.catch_warnings():
        warnings.simplefilter("error", ReproducibilityWarning)
        _interval(Noisy(), random_state=None)
