"""A ClassifierChain's refits combined label by label (hunt MULTI-1): its ``classes_`` is one
array a label but its scores one column a label, P(label=1) or a decision value."""

import warnings

import numpy as np
from sklearn.datasets import make_multilabel_classification
from sklearn.multioutput import ClassifierChain
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import nested_cross_val_predict, nested_cross_validate
from sklearn_fair.model_selection._engine import refits_class

X, Y = make_multilabel_classification(n_samples=150, n_features=8, n_classes=4, random_state=1)
CHAIN = ClassifierChain(DecisionTreeClassifier())
GRID = {"estimator__max_depth": [None, 3]}


def test_a_chains_refits_give_the_label_of_their_averaged_probability():
    settings = dict(param_grid=GRID, cv=5, inner_cv=3, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        folds = nested_cross_validate(
            CHAIN, X, Y, return_estimator=True, return_indices=True, **settings
        )
        predicted = nested_cross_val_predict(CHAIN, X, Y, **settings)
    # the reference by hand from the fold's refits: each label where their mean P(label=1)
    # is above one half, which is also the majority vote of their own predictions
    expected, mean = np.zeros_like(Y), np.zeros(Y.shape)
    for models, test in zip(folds["estimator"], folds["indices"]["test"]):
        mean[test] = np.mean([m.predict_proba(X[test]) for m in models], axis=0)
        expected[test] = mean[test] > 0.5
        votes = np.sum([m.predict(X[test]) for m in models], axis=0)
        np.testing.assert_array_equal(expected[test], 2 * votes > len(models))
    # cells where one refit of three says 1 (a fold whose first two refits agree has no third)
    assert np.sum((0 < mean) & (mean < 0.5)) > 10
    np.testing.assert_array_equal(predicted, expected)


# three refits' P(label=1) of three rows and two labels, whose vote differs from the class of
# their mean in row 0, label 0 (0.6, 0.6, 0.0: two say 1, the mean 0.4 says 0)
PROBA = [
    np.array([[0.6, 0.2], [0.9, 0.7], [0.1, 0.3]]),
    np.array([[0.6, 0.4], [0.8, 0.9], [0.2, 0.1]]),
    np.array([[0.0, 0.3], [0.7, 0.2], [0.3, 0.0]]),
]
CLASSES = [np.array([0, 1]), np.array([0, 1])]


def _kept(arrays):
    """As a report reads them: lists of rows."""
    return [a.tolist() for a in arrays]


def test_probabilities_one_column_a_label_point_to_the_label_above_one_half():
    predict = [(p > 0.5).astype(int) for p in PROBA]
    # by hand: the means are [[0.4, 0.3], [0.8, 0.6], [0.2, 0.133]]
    expected = np.array([[0, 0], [1, 1], [0, 0]])
    # the report's kept scores (lists of rows), which it says are probabilities
    classes = [c.tolist() for c in CLASSES]
    np.testing.assert_array_equal(
        refits_class(_kept(predict), _kept(PROBA), classes, proba=True), expected
    )
    np.testing.assert_array_equal(refits_class(predict, PROBA, CLASSES, proba=True), expected)


def test_decision_values_one_column_a_label_point_to_the_label_above_zero():
    decision = [
        np.array([[0.1, -0.5], [2.0, 0.3], [-0.2, -1.5]]),
        np.array([[0.1, -0.4], [1.5, -0.1], [-0.3, 0.2]]),
        np.array([[-1.0, 0.6], [-0.5, 0.2], [0.4, 0.1]]),
    ]
    predict = [(d > 0).astype(int) for d in decision]
    # by hand: the means are [[-0.267, -0.1], [1.0, 0.133], [-0.033, -0.4]]
    expected = np.array([[0, 0], [1, 1], [0, 0]])
    np.testing.assert_array_equal(refits_class(_kept(predict), _kept(decision), CLASSES), expected)
    np.testing.assert_array_equal(refits_class(predict, decision, CLASSES, proba=False), expected)
