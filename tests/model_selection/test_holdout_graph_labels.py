"""HoldoutSplit on graphs given without y: it stratifies on the graphs' own labels, as
StratifiedGraphKFold does, with StratifiedShuffleSplit's indices on those labels."""

from types import SimpleNamespace

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit, cross_validate

from sklearn_fair.model_selection import HoldoutSplit
from sklearn_fair.utils import read_graph_labels

LABELS = np.array([0] * 125 + [1] * 63)  # MUTAG's class counts
GRAPHS = np.empty(LABELS.size, dtype=object)
GRAPHS[:] = [SimpleNamespace(y=[label]) for label in LABELS]
ZEROS = np.zeros((LABELS.size, 1))


@pytest.mark.parametrize("seed", range(10))
def test_graphs_without_y_are_stratified_on_their_labels(seed):
    _, test = next(HoldoutSplit(0.1, random_state=seed).split(GRAPHS))
    _, ref = next(StratifiedShuffleSplit(1, test_size=0.1, random_state=seed).split(ZEROS, LABELS))
    np.testing.assert_array_equal(test, ref)
    assert np.bincount(LABELS[test]).tolist() == [13, 6]


class _Majority(ClassifierMixin, BaseEstimator):
    """Reads the labels from the graphs when y is not given, as GraphClassifier does."""

    def fit(self, X, y=None):
        y = read_graph_labels(X) if y is None else np.asarray(y)
        self.majority_ = np.bincount(y).argmax()
        return self

    def score(self, X, y=None):
        y = read_graph_labels(X) if y is None else np.asarray(y)
        return float(np.mean(y == self.majority_))


def test_cross_validate_on_graphs_without_y_is_stratified():
    for seed in range(5):
        cv = HoldoutSplit(0.1, random_state=seed)
        result = cross_validate(_Majority(), list(GRAPHS), cv=cv, return_indices=True)
        test = result["indices"]["test"][0]
        share = LABELS[test].mean()
        assert abs(share - LABELS.mean()) < 0.02  # 6 of 19 against 63 of 188


def test_stratify_false_and_time_order_leave_graph_labels_unread():
    for seed in range(3):
        _, test = next(HoldoutSplit(0.1, stratify=False, random_state=seed).split(GRAPHS))
        _, ref = next(ShuffleSplit(1, test_size=0.1, random_state=seed).split(ZEROS))
        np.testing.assert_array_equal(test, ref)
    _, test = next(HoldoutSplit(0.1, shuffle=False).split(GRAPHS))
    np.testing.assert_array_equal(test, np.arange(188 - 19, 188))


def test_grouped_graphs_without_y_are_stratified_on_their_labels():
    groups = np.arange(LABELS.size) // 4
    for seed in range(5):
        cv = HoldoutSplit(0.1, random_state=seed)
        _, test = next(cv.split(GRAPHS, groups=groups))
        _, with_y = next(cv.split(ZEROS, LABELS, groups))
        np.testing.assert_array_equal(test, with_y)


def test_unlabelled_graphs():
    graphs = [SimpleNamespace(y=None) for _ in range(20)]
    # stratify=None: no labels, as no y: a plain shuffled hold-out
    _, test = next(HoldoutSplit(0.2, random_state=0).split(graphs))
    _, ref = next(ShuffleSplit(1, test_size=0.2, random_state=0).split(np.zeros((20, 1))))
    np.testing.assert_array_equal(test, ref)
    with pytest.raises(ValueError, match="Graph 0 of X has no label"):
        next(HoldoutSplit(0.2, stratify=True, random_state=0).split(graphs))
    with pytest.raises(ValueError, match=r"needs y in split\(X, y\), or X given as graphs"):
        next(HoldoutSplit(0.2, stratify=True, random_state=0).split(np.zeros((20, 1))))


def test_graphs_whose_labels_cannot_be_stratified_are_refused_naming_them():
    # stratify=None reads the graphs' labels since they are stratified: ten classes in a
    # hold-out of 5 graphs cannot be, and the refusal spoke of a y the user never passed

    graphs = [SimpleNamespace(y=[i % 10]) for i in range(100)]
    with pytest.raises(ValueError, match=r"takes the graphs' labels \(y not given\)") as error:
        next(HoldoutSplit(0.05, random_state=0).split(graphs))
    assert "number of classes = 10" in str(error.value)
    train, test = next(HoldoutSplit(0.05, stratify=False, random_state=0).split(graphs))
    assert test.size == 5 and train.size == 95  # what the message suggests works
