"""A GraphClassifier refit that fails never leaves the new labels (classes_) beside the module
of the previous fit, whose outputs predict would read in those labels. A fit refused before
it builds anything leaves the previous fit as it was; one that fails while it builds or trains
the module leaves the classifier unfitted."""

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError
from sklearn.utils.validation import check_is_fitted
from skorch.callbacks import Callback

from sklearn_fair.graph import DeepMultisets, GraphClassifier


def make_clf(**params):
    defaults = dict(module__hidden_units=16, lr=0.01, max_epochs=3, random_state=0)
    return GraphClassifier(DeepMultisets, **{**defaults, **params})


@pytest.fixture(scope="module")
def graphs(mutag):
    X = [mutag[i] for i in range(60)]
    y = np.asarray(mutag.y[:60])
    # the same graphs, the classes named otherwise (1 -> "neg", 0 -> "pos": swapped order)
    return X, y, np.where(y == 1, "neg", "pos")


@pytest.fixture(scope="module")
def first_fit(graphs):
    """The probabilities of a classifier fitted once on the integer labels."""
    X, y, _ = graphs
    return make_clf().fit(X, y).predict_proba(X)


def _refused(X, named):
    """Refits refused before they build anything: (fit's arguments, keywords, the error)."""
    wrong_features = [g.clone() for g in X[:4]]
    for g in wrong_features:
        g.x = g.x[:, :3]
    return {
        "y_val label fit never saw": (
            (X, named),
            dict(X_val=X[:4], y_val=np.array(["pos", "neg", "nge", "pos"])),
            "not among the training labels",
        ),
        "one class": ((X[:10], np.full(10, "neg")), {}, "at least 2 classes"),
        "X_val of other features": (
            (X, named),
            dict(X_val=wrong_features, y_val=named[:4]),
            "X_val has 3 node features",
        ),
        "y_val without X_val": ((X, named), dict(y_val=named[:4]), "without X_val"),
    }


@pytest.mark.parametrize(
    "case",
    ["y_val label fit never saw", "one class", "X_val of other features", "y_val without X_val"],
)
def test_refused_refit_keeps_the_previous_fit(graphs, first_fit, case):
    X, y, named = graphs
    clf = make_clf().fit(X, y)
    args, kwargs, error = _refused(X, named)[case]
    with pytest.raises(ValueError, match=error):
        clf.fit(*args, **kwargs)
    np.testing.assert_array_equal(clf.classes_, [0, 1])
    # exactly the probabilities of a classifier that only ever had the first fit
    np.testing.assert_array_equal(clf.predict_proba(X), first_fit)
    np.testing.assert_array_equal(clf.predict(X), first_fit.argmax(axis=1))


class _FailsInTraining(Callback):
    def on_epoch_end(self, net, **kwargs):
        raise RuntimeError("boom")


@pytest.mark.parametrize(
    "where, params, kind, error",
    [
        # the module refuses its width as it is built (a negative dimension inside torch
        # before DOCPARAMS-4)
        (
            "building the module",
            dict(module__hidden_units=-1),
            ValueError,
            r"'hidden_units' parameter of DeepMultisets must be an int in the range \[1, inf\)",
        ),
        ("training", dict(callbacks=[("boom", _FailsInTraining())]), RuntimeError, "boom"),
    ],
)
def test_refit_failing_once_it_builds_leaves_it_unfitted(graphs, where, params, kind, error):
    X, y, named = graphs
    clf = make_clf().fit(X, y)
    clf.set_params(**params)
    with pytest.raises(kind, match=error):
        clf.fit(X, named)
    for method in (clf.predict, clf.predict_proba):
        with pytest.raises(NotFittedError):
            method(X)
    with pytest.raises(NotFittedError):
        clf.score(X, named)
    with pytest.raises(NotFittedError):
        check_is_fitted(clf)
    # and it fits again, as a fresh classifier does
    clf.set_params(module__hidden_units=16, callbacks=None).fit(X, named)
    fresh = make_clf().fit(X, named)
    np.testing.assert_array_equal(clf.classes_, ["neg", "pos"])
    np.testing.assert_array_equal(clf.predict_proba(X), fresh.predict_proba(X))
