"""StratifiedGraphKFold: labels read from graphs, stratification within one graph per class."""

from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.model_selection import StratifiedKFold

from sklearn_fair.model_selection import StratifiedGraphKFold


def make_graphs(labels, as_kind="list"):
    if as_kind == "scalar":
        return [SimpleNamespace(y=int(label)) for label in labels]
    if as_kind == "array":
        return [SimpleNamespace(y=np.array([label])) for label in labels]
    if as_kind == "object_array":
        graphs = np.empty(len(labels), dtype=object)
        graphs[:] = [SimpleNamespace(y=[label]) for label in labels]
        return graphs
    return [SimpleNamespace(y=[label]) for label in labels]


class IndexableDataset:
    """A dataset-like object: only __len__ and __getitem__, as PyG datasets."""

    def __init__(self, graphs):
        self._graphs = graphs

    def __len__(self):
        return len(self._graphs)

    def __getitem__(self, index):
        return self._graphs[index]


def test_defaults():
    cv = StratifiedGraphKFold()
    assert (cv.n_splits, cv.shuffle, cv.random_state) == (10, True, None)
    assert cv.get_n_splits() == 10
    assert repr(cv) == "StratifiedGraphKFold(n_splits=10, random_state=None, shuffle=True)"


@pytest.mark.parametrize("kind", ["list", "scalar", "array", "object_array", "dataset"])
def test_labels_read_from_graphs_equal_explicit_y(kind):
    labels = np.array([0, 1, 2] * 7 + [0, 0])
    graphs = make_graphs(labels, "list" if kind == "dataset" else kind)
    if kind == "dataset":
        graphs = IndexableDataset(graphs)
    cv = StratifiedGraphKFold(n_splits=4, random_state=3)
    from_graphs = list(cv.split(graphs))
    explicit = list(cv.split(np.zeros((len(labels), 1)), labels))
    assert len(from_graphs) == 4
    for (train_a, test_a), (train_b, test_b) in zip(from_graphs, explicit):
        np.testing.assert_array_equal(train_a, train_b)
        np.testing.assert_array_equal(test_a, test_b)


def test_pyg_data_objects():
    torch = pytest.importorskip("torch")
    data_module = pytest.importorskip("torch_geometric.data")
    graphs = [
        data_module.Data(edge_index=torch.tensor([[0], [1]]), num_nodes=2, y=torch.tensor([c]))
        for c in [0, 1] * 10
    ]
    tests = [test for _, test in StratifiedGraphKFold(5, random_state=0).split(graphs)]
    for test in tests:
        assert sorted(int(graphs[i].y) for i in test) == [0, 0, 1, 1]


def test_pyg_dataset():
    pytest.importorskip("torch")
    datasets = pytest.importorskip("torch_geometric.datasets")
    dataset = datasets.FakeDataset(num_graphs=30, avg_num_nodes=5, num_classes=3, task="graph")
    labels = np.array([int(dataset[i].y) for i in range(len(dataset))])
    class_counts = np.bincount(labels, minlength=3)
    splits = list(StratifiedGraphKFold(3, random_state=0).split(dataset))
    np.testing.assert_array_equal(
        np.sort(np.concatenate([test for _, test in splits])), np.arange(30)
    )
    for _, test in splits:
        assert np.all(np.abs(np.bincount(labels[test], minlength=3) - class_counts / 3) < 1)


@pytest.mark.parametrize(
    "label, message",
    [(None, "Graph 3 of X has no label"), ([1, 0], "Graph 3 of X has 2 label values")],
)
def test_bad_graph_label_names_its_index(label, message):
    graphs = make_graphs([0, 1] * 5)
    graphs[3] = SimpleNamespace(y=label)
    with pytest.raises(ValueError, match=message):
        StratifiedGraphKFold(2).split(graphs)


def test_graph_without_y_attribute():
    graphs = make_graphs([0, 1] * 5)
    graphs[7] = SimpleNamespace(x=1)
    with pytest.raises(ValueError, match="Graph 7 of X has no label"):
        list(StratifiedGraphKFold(2).split(graphs))


def test_tabular_x_without_y_is_an_error():
    with pytest.raises(ValueError, match="needs y"):
        StratifiedGraphKFold(2).split(np.zeros((10, 2)))


@settings(max_examples=50, deadline=None)
@given(
    counts=st.lists(st.integers(min_value=3, max_value=30), min_size=2, max_size=5),
    n_splits=st.integers(min_value=2, max_value=3),
    seed=st.integers(min_value=0, max_value=2**31 - 1),
)
def test_partition_and_stratification(counts, n_splits, seed):
    labels = np.repeat(np.arange(len(counts)), counts)
    np.random.default_rng(seed).shuffle(labels)
    graphs = make_graphs(labels)
    splits = list(StratifiedGraphKFold(n_splits, random_state=seed).split(graphs))
    assert len(splits) == n_splits
    tested = np.concatenate([test for _, test in splits])
    np.testing.assert_array_equal(np.sort(tested), np.arange(len(labels)))
    for train, test in splits:
        assert np.intersect1d(train, test).size == 0
        assert train.size + test.size == len(labels)
        fold_counts = np.bincount(labels[test], minlength=len(counts))
        # Within one graph per class of the class's share of the fold.
        assert np.all(np.abs(fold_counts - np.asarray(counts) / n_splits) < 1)
    again = list(StratifiedGraphKFold(n_splits, random_state=seed).split(graphs))
    for (_, test_a), (_, test_b) in zip(splits, again):
        np.testing.assert_array_equal(test_a, test_b)


def test_same_folds_as_sklearn_stratified_kfold():
    labels = np.array([0] * 13 + [1] * 8)
    ours = StratifiedGraphKFold(3, random_state=7).split(make_graphs(labels))
    theirs = StratifiedKFold(3, shuffle=True, random_state=7).split(labels, labels)
    for (_, a), (_, b) in zip(ours, theirs):
        np.testing.assert_array_equal(a, b)
