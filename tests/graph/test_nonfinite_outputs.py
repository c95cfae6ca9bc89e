"""A GraphClassifier with finite weights whose outputs overflow on some graphs (sum pooling over
graphs larger than the training graphs, hunt NANS-1) refuses to predict or score them: the
argmax of a NaN row is 0, so predict called them classes_[0] and accuracy counted them, while
roc_auc failed. Under NestedCV the fold fails with that reason, whatever the metric."""

import numpy as np
import pytest

from sklearn_fair import NestedCV
from sklearn_fair.graph import DeepMultisets, GraphClassifier

OVERFLOWING = [1, 4, 10]  # node features near float32's maximum: their sums overflow


def make_clf():
    return GraphClassifier(
        DeepMultisets,
        module__hidden_units=8,
        max_epochs=1,
        validation_fraction=None,
        random_state=0,
    )


def overflowing(graphs, rows):
    """The graphs as a list, those of ``rows`` with (finite) node features of 3e38."""
    graphs = [graph.clone() for graph in graphs]
    for row in rows:
        graphs[row].x = graphs[row].x * 3e38
    return graphs


@pytest.fixture(scope="module")
def fitted(mutag):
    return make_clf().fit(mutag[:40])


def test_outputs_that_overflow_are_refused_by_every_prediction_method(mutag, fitted):
    X = overflowing(mutag[40:60], OVERFLOWING)
    # the weights are finite, so fit raised nothing; the module's outputs on these graphs
    # are NaN, which argmax would have called classes_[0]
    outputs = fitted.forward(X).numpy()
    assert np.flatnonzero(np.isnan(outputs).any(axis=1)).tolist() == OVERFLOWING
    expected = (
        r"module \(DeepMultisets\) gave non-finite outputs \(NaN or inf\) for 3 of 20 "
        r"graphs \(indices \[1, 4, 10\]\).*smaller lr than lr=0\.001.*gradient clipping"
        r".*rescaled node features"
    )
    for method in (fitted.predict_proba, fitted.predict, fitted.score):
        with pytest.raises(ValueError, match=expected):
            method(X)
    # the other graphs are predicted as before
    finite = np.delete(np.arange(20), OVERFLOWING)
    np.testing.assert_array_equal(
        fitted.predict_proba([X[row] for row in finite]),
        fitted.predict_proba(mutag[40:60])[finite],
    )


@pytest.mark.parametrize("scoring", ["accuracy", "roc_auc"])
def test_nested_cv_fails_the_fold_whose_outputs_overflow(mutag, scoring):
    # train on graphs 20-59, test on graphs 0-19, three of which overflow
    X = overflowing(mutag[:60], OVERFLOWING)
    nested = NestedCV(
        make_clf(),
        {"lr": [1e-3]},
        outer_cv=[(np.arange(20, 60), np.arange(20))],
        n_refits=1,
        refit=False,
        random_state=0,
        scoring=scoring,
        error_score=-1.0,
    )
    with pytest.warns(UserWarning, match="Scoring failed"):
        nested.fit(X)
    np.testing.assert_array_equal(nested.outer_scores_, [-1.0])
    [task] = nested.failed_tasks_
    assert task["key"]["outer_fold"] == 0
    assert "gave non-finite outputs (NaN or inf) for 3 of 20 graphs" in task["error"]
