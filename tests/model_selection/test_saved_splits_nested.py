"""The split files of Errica et al. drive a NestedCV run end to end on a real TU data set.

Features are read from the raw TU text files with numpy (no torch): per graph,
its number of nodes and edges and its histogram of node labels.
"""

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LogisticRegression

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import SplitsMismatchError
from sklearn_fair.model_selection import PredefinedSplits, load_splits, save_splits

# Rows each fit and predict saw, by the sample ids in column 0 of X.
FITTED_ROWS, PREDICTED_ROWS = [], []


class RecordingClassifier(ClassifierMixin, BaseEstimator):
    """Logistic regression on X[:, 1:] that records the ids (X[:, 0]) of the rows it sees."""

    def __init__(self, C=1.0):
        self.C = C

    def fit(self, X, y):
        FITTED_ROWS.append(tuple(sorted(X[:, 0].astype(int))))
        self.model_ = LogisticRegression(C=self.C, max_iter=500).fit(X[:, 1:], y)
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        PREDICTED_ROWS.append(tuple(sorted(X[:, 0].astype(int))))
        return self.model_.predict(X[:, 1:])


def read_tu_graphs(raw):
    """Sample ids, simple per-graph features and labels of a TU data set."""
    name = raw.parent.name
    graph_of_node = np.loadtxt(raw / f"{name}_graph_indicator.txt", dtype=int) - 1
    labels = np.loadtxt(raw / f"{name}_graph_labels.txt", dtype=int)
    edges = np.loadtxt(raw / f"{name}_A.txt", dtype=int, delimiter=",") - 1
    node_labels = np.loadtxt(raw / f"{name}_node_labels.txt", dtype=int)
    node_labels -= node_labels.min()
    n_graphs = labels.size
    n_nodes = np.bincount(graph_of_node, minlength=n_graphs)
    n_edges = np.bincount(graph_of_node[edges[:, 0]], minlength=n_graphs) / 2
    histogram = np.zeros((n_graphs, node_labels.max() + 1))
    np.add.at(histogram, (graph_of_node, node_labels), 1)
    features = np.column_stack([n_nodes, n_edges, histogram / n_nodes[:, None]])
    spread = features.std(axis=0)
    features = (features - features.mean(axis=0)) / np.where(spread > 0, spread, 1)
    return np.column_stack([np.arange(n_graphs), features]), labels


@pytest.fixture(scope="module")
def enzymes(data_dir):
    X, y = read_tu_graphs(data_dir / "TUDataset" / "ENZYMES" / "raw")
    splits = load_splits(
        data_dir / "gnn_comparison_splits" / "CHEMICAL" / "ENZYMES_splits.json",
        format="gnn-comparison",
    )
    return X, y, splits


def test_paper_splits_drive_nested_cv(enzymes):
    X, y, splits = enzymes
    assert X.shape[0] == y.size == splits.n_samples == 600
    FITTED_ROWS.clear()
    PREDICTED_ROWS.clear()
    nested = NestedCV(
        RecordingClassifier(),
        {"C": [0.1, 1.0]},
        outer_cv=PredefinedSplits(splits),
        inner_cv=None,
        refit=False,
        n_refits=1,
        random_state=0,
    ).fit(X, y)

    assert nested.n_splits_ == 10
    outer = [(tuple(sorted(train)), tuple(sorted(test))) for train, test in splits]
    inner = [
        (tuple(sorted(train)), tuple(sorted(test)))
        for fold in range(10)
        for train, test in splits.get_inner_splits(fold)
    ]
    for result, (train, test) in zip(nested.outer_results_, outer):
        assert tuple(sorted(result["test_indices"])) == test
        assert tuple(sorted(result["train_indices"])) == train
    # Every fit was on a stored inner training set (one per candidate) or on an
    # outer training set: the stored inner splits were used, none was made anew.
    assert set(FITTED_ROWS) == {train for train, _ in inner} | {train for train, _ in outer}
    assert sum(rows in {train for train, _ in inner} for rows in FITTED_ROWS) == 10 * 2
    assert {test for _, test in inner} <= set(PREDICTED_ROWS)
    assert {test for _, test in outer} <= set(PREDICTED_ROWS)
    # Six balanced classes: chance is 1/6.
    assert nested.score_mean_ > 1 / 6


def test_splits_pinned_to_labels_refuse_other_data(enzymes, tmp_path):
    X, y, splits = enzymes
    save_splits(splits, tmp_path / "enzymes.json", y=y)
    cv = PredefinedSplits(load_splits(tmp_path / "enzymes.json"))
    nested = NestedCV(RecordingClassifier(), {"C": [1.0]}, outer_cv=cv, refit=False, n_refits=1)
    with pytest.raises(SplitsMismatchError, match="fingerprints differ"):
        nested.fit(X, np.roll(y, 1))
