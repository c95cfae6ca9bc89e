"""A search given with its own scoring around an estimator without a score method: as
cross_val_score(search) scores with the search's scorer, so do the nested forms. It raised
scikit-learn's "If no scoring is specified, the estimator passed should have a 'score'
method" (hunt DG5), though the experiment file's check let such a model through."""

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, cross_val_score

from sklearn_fair import nested_cross_val_score


class WithoutScore(BaseEstimator):
    """A classifier without a score method (its tags say it classifies)."""

    def __init__(self, C=1.0):
        self.C = C

    def fit(self, X, y):
        self.model_ = LogisticRegression(C=self.C).fit(X, y)
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        return self.model_.predict(X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.estimator_type = "classifier"
        return tags


def test_a_searchs_own_scoring_scores_an_estimator_without_score():
    assert not hasattr(WithoutScore(), "score") and not isinstance(WithoutScore(), ClassifierMixin)
    X, y = make_classification(n_samples=80, random_state=0)
    search = GridSearchCV(WithoutScore(), {"C": [0.1, 1.0]}, scoring="accuracy")
    np.testing.assert_array_equal(
        nested_cross_val_score(search, X, y), cross_val_score(search, X, y)
    )
