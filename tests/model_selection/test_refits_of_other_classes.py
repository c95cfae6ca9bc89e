"""The refits of one outer fold that learned different classes (a sampler that sometimes drops a
rare class) are combined over the classes of them all: each refit's probabilities in the
columns of its own classes, 0 in those of a class it lacks."""

import warnings

import numpy as np
import pytest
from imblearn.pipeline import make_pipeline
from sklearn.base import BaseEstimator
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression, RidgeClassifier
from sklearn.model_selection import StratifiedKFold
from sklearn.utils import check_random_state

from sklearn_fair import benchmark, nested_cross_val_predict, nested_cross_validate


class DropRareSometimes(BaseEstimator):
    """A sampler that, with probability 1/2, drops every row of class 2."""

    def __init__(self, random_state=None):
        self.random_state = random_state

    def fit_resample(self, X, y):
        if check_random_state(self.random_state).rand() < 0.5:
            return X[y != 2], y[y != 2]
        return X, y

    def fit(self, X, y):
        return self


X, y = make_classification(
    n_samples=120, n_features=5, n_informative=3, n_classes=3, n_clusters_per_class=1,
    random_state=0,
)  # fmt: skip
OUTER = StratifiedKFold(3, shuffle=True, random_state=1)
KW = dict(cv=OUTER, n_refits=4, random_state=0)


def _pipe(model=None):
    return make_pipeline(DropRareSometimes(), model or LogisticRegression(max_iter=1000))


def _refits(model=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cv = nested_cross_validate(_pipe(model), X, y, return_estimator=True, **KW)
    classes = [[m.classes_.tolist() for m in models] for models in cv["estimator"]]
    # the situation under test: some refits of a fold learned class 2, some did not
    assert all([0, 1] in fold and [0, 1, 2] in fold for fold in classes), classes
    return cv["estimator"]


def _predict(method, model=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nested_cross_val_predict(_pipe(model), X, y, method=method, **KW)


def _hand_probabilities():
    """Each fold's refits' probabilities averaged by hand, 0 for a class a refit lacks."""
    expected = np.zeros((len(y), 3))
    for models, (_, test) in zip(_refits(), OUTER.split(X, y)):
        full = []
        for model in models:
            proba = np.zeros((len(test), 3))
            proba[:, model.classes_] = model.predict_proba(X[test])
            full.append(proba)
        expected[test] = np.mean(full, axis=0)
    return expected


def test_log_probabilities_are_the_log_of_the_averaged_probabilities():
    expected = _hand_probabilities()
    assert (expected[:, 2] > 0).all()  # a refit of every fold learned class 2
    np.testing.assert_allclose(_predict("predict_proba"), expected, rtol=1e-12)
    # the column of class 2 was the float minimum on every row: set from the first refit
    np.testing.assert_allclose(_predict("predict_log_proba"), np.log(expected), rtol=1e-10)


def test_predict_is_the_class_of_the_averaged_probabilities():
    expected = np.array([0, 1, 2])[np.argmax(_hand_probabilities(), axis=1)]
    np.testing.assert_array_equal(_predict("predict"), expected)  # was an IndexError


def test_decision_values_of_other_classes_vote():
    # RidgeClassifier has no probabilities; its refits' decision values have no common columns
    expected = np.empty_like(y)
    for models, (_, test) in zip(_refits(RidgeClassifier()), OUTER.split(X, y)):
        votes = np.array([m.predict(X[test]) for m in models])
        expected[test] = [max(dict.fromkeys(c), key=list(c).count) for c in votes.T]
    np.testing.assert_array_equal(_predict("predict", RidgeClassifier()), expected)


def test_benchmark_keeps_the_probabilities_over_the_classes_of_all_refits():
    pytest.importorskip("matplotlib")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = benchmark(
            {"m": _pipe()}, {"d": (X, y)}, outer_cv=OUTER, n_refits=4, random_state=0,
            keep_predictions=True,
        )  # fmt: skip
    cell = result.cells["d", "m"]
    expected = _hand_probabilities()
    for kept, (_, test) in zip(cell.predictions, OUTER.split(X, y)):
        assert kept["classes"] == [0, 1, 2]
        proba = np.asarray(kept["proba"])
        assert proba.shape == (4, len(test), 3)
        np.testing.assert_allclose(proba.sum(axis=2), 1.0)
        np.testing.assert_allclose(proba.mean(axis=0), expected[test], rtol=1e-10)
    frame = result.predictions.sort_values("row")
    np.testing.assert_array_equal(frame["y_pred"], np.argmax(expected, axis=1))
    result.plot_predictions("d", "m")  # was a ValueError: an inhomogeneous shape


def test_decision_values_of_a_class_some_refits_lack_get_the_fill():
    X4, y4 = make_classification(
        n_samples=160, n_features=6, n_informative=4, n_classes=4, n_clusters_per_class=1,
        random_state=0,
    )  # fmt: skip
    kw = {**KW, "random_state": 3}  # the first refit of each fold learned every class
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cv = nested_cross_validate(_pipe(RidgeClassifier()), X4, y4, return_estimator=True, **kw)
        got = nested_cross_val_predict(
            _pipe(RidgeClassifier()), X4, y4, method="decision_function", **kw
        )
    expected = np.empty((len(y4), 4))
    for models, (_, test) in zip(cv["estimator"], OUTER.split(X4, y4)):
        assert len(models[0].classes_) == 4 and {len(m.classes_) for m in models} == {3, 4}
        full = []
        for model in models:
            values = np.full((len(test), 4), np.nan)
            values[:, model.classes_] = model.decision_function(X4[test])
            full.append(values)
        expected[test] = np.mean(full, axis=0)  # NaN where a refit lacks the class
    assert np.isnan(expected[:, 2]).all() and not np.isnan(expected[:, [0, 1, 3]]).any()
    # not an average of the fill with decision values (-4.5e307): the fill itself
    np.testing.assert_array_equal(got[:, 2], np.finfo(float).min)
    np.testing.assert_allclose(got[:, [0, 1, 3]], expected[:, [0, 1, 3]], rtol=1e-10)
