"""nested_cross_val_predict combines a fold's refits by the rule of their own predict: a
threshold, one-vs-one decision values, or a classifier without scikit-learn's tag."""

import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import FixedThresholdClassifier, StratifiedKFold
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.random_projection import GaussianRandomProjection
from sklearn.svm import SVC

from sklearn_fair import benchmark, nested_cross_val_predict, nested_cross_validate

KW = dict(cv=StratifiedKFold(3, shuffle=True, random_state=0), n_refits=3, random_state=0,
          inner_cv=StratifiedKFold(3, shuffle=True, random_state=1))  # fmt: skip


def _votes(estimator, X, y, grid, **kwargs):
    """The majority vote of each fold's refits, by hand (ties to the earliest refit)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cv = nested_cross_validate(estimator, X, y, param_grid=grid, return_estimator=True,
                                   return_indices=True, **KW, **kwargs)  # fmt: skip
    vote = np.empty_like(y)
    for models, test in zip(cv["estimator"], cv["indices"]["test"]):
        predictions = np.array([m.predict(X[test]) for m in models])
        vote[test] = [max(dict.fromkeys(c), key=list(c).count) for c in predictions.T]
    return vote


def _predict(estimator, X, y, grid, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nested_cross_val_predict(estimator, X, y, param_grid=grid, **KW, **kwargs)


def _kept_predictions(estimator, grid):
    """A benchmark's kept predictions of ``estimator`` on (X2, Y2), in row order."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = benchmark({"t": (estimator, grid)}, {"d": (X2, Y2)}, outer_cv=KW["cv"],
                           inner_cv=KW["inner_cv"], n_refits=3, random_state=0,
                           keep_predictions=True)  # fmt: skip
    return result.predictions.sort_values("row")


THRESHOLD = FixedThresholdClassifier(RandomForestClassifier(n_estimators=4), threshold=0.7)
X2, Y2 = make_classification(n_samples=120, n_features=5, flip_y=0.1, random_state=0)
GRID2 = {"estimator__max_depth": [3, None]}


@pytest.mark.parametrize("estimator", [THRESHOLD, make_pipeline(THRESHOLD)])
def test_a_threshold_decides_by_the_vote_of_the_refits(estimator):
    prefix = "" if estimator is THRESHOLD else "fixedthresholdclassifier__"
    grid = {prefix + name: values for name, values in GRID2.items()}
    votes = _votes(estimator, X2, Y2, grid)
    # before: rows whose refits predicted [1, 0, 0] (mean P(1) 0.58 < 0.7) were called 1
    np.testing.assert_array_equal(_predict(estimator, X2, Y2, grid), votes)


def test_a_benchmarks_kept_predictions_of_a_threshold_are_the_vote():
    kept = _kept_predictions(THRESHOLD, GRID2)
    np.testing.assert_array_equal(kept.row, np.arange(len(Y2)))
    np.testing.assert_array_equal(kept.y_pred, _votes(THRESHOLD, X2, Y2, GRID2))


def test_one_vs_one_decision_values_are_not_read_as_classes():
    X, y = make_classification(n_samples=120, n_features=8, n_informative=5, n_classes=4,
                               random_state=0)  # fmt: skip
    estimator = make_pipeline(GaussianRandomProjection(n_components=4),
                              SVC(decision_function_shape="ovo"))  # fmt: skip
    grid = {"svc__C": [0.1, 1.0]}
    # before: IndexError, 6 one-vs-one columns read as one a class of 4
    np.testing.assert_array_equal(_predict(estimator, X, y, grid), _votes(estimator, X, y, grid))


class _UntaggedForest(BaseEstimator):
    """A user's wrapper of a classifier without ClassifierMixin: is_classifier is False."""

    def __init__(self, max_depth=None, random_state=None):
        self.max_depth, self.random_state = max_depth, random_state

    def fit(self, X, y):
        self.model_ = RandomForestClassifier(3, max_depth=self.max_depth,
                                             random_state=self.random_state).fit(X, y)  # fmt: skip
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        return self.model_.predict(X)

    def predict_proba(self, X):
        return self.model_.predict_proba(X)


class _TaggedForest(ClassifierMixin, _UntaggedForest):
    pass


def test_an_untagged_classifier_predicts_classes_not_their_mean():
    X, y = make_classification(n_samples=90, n_features=5, n_classes=3, n_informative=3,
                               random_state=0)  # fmt: skip
    grid = {"max_depth": [2, None]}
    predicted = _predict(_UntaggedForest(), X, y, grid, scoring="accuracy")
    # before: the refits' labels averaged, 0.333 and 1.667 among them
    # the same model tagged a classifier: its refits' class of their averaged probabilities
    tagged = _predict(_TaggedForest(), X, y, grid, scoring="accuracy")
    assert predicted.dtype == y.dtype
    np.testing.assert_array_equal(predicted, tagged)


def test_a_threshold_the_grid_puts_in_place_votes_in_a_benchmark_too():
    # the base estimator decides by argmax; the grid swaps in the threshold classifier
    base = Pipeline([("sc", StandardScaler()), ("clf", LogisticRegression())])
    grid = {"clf": [THRESHOLD], "clf__estimator__max_depth": [3, None]}
    kept = _kept_predictions(base, grid)
    votes = _votes(base, X2, Y2, grid)
    np.testing.assert_array_equal(kept.y_pred, votes)
    np.testing.assert_array_equal(_predict(base, X2, Y2, grid), votes)
