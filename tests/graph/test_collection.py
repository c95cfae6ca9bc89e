"""GraphCollection: a sequence of PyG graphs in stacked numpy arrays, cheap to pickle and hash."""

import pickle

import joblib
import numpy as np
import pytest
import torch
from torch_geometric.data import Data

from sklearn_fair.graph import GraphCollection, load_tu_dataset
from sklearn_fair.utils import fingerprint, is_graph_data, read_graph_labels


def assert_same_graph(ours, theirs):
    assert sorted(ours.keys()) == sorted(theirs.keys())
    for key in theirs.keys():
        assert torch.equal(ours[key], theirs[key]), key


def test_items_are_the_graphs_it_was_built_from(random_graphs):
    graphs = random_graphs()
    collection = GraphCollection.from_data_list(graphs)
    assert len(collection) == len(graphs)
    for ours, theirs in zip(collection, graphs, strict=True):
        assert_same_graph(ours, theirs)
    assert_same_graph(collection[-1], graphs[-1])
    np.testing.assert_array_equal(collection.node_counts, [g.num_nodes for g in graphs])
    np.testing.assert_array_equal(collection.edge_counts, [g.num_edges for g in graphs])
    assert collection.num_node_features == 3 and collection.num_edge_features == 2


@pytest.mark.parametrize(
    "key",
    [np.array([4, 0, 4, 11]), [2, -1], slice(1, 9, 3), slice(None, None, -1), "mask"],
    ids=["repeats", "negative", "slice", "reversed", "mask"],
)
def test_indexing_returns_a_smaller_collection(key, random_graphs):
    graphs = random_graphs()
    collection = GraphCollection.from_data_list(graphs)
    if isinstance(key, str):
        key = np.arange(len(graphs)) % 3 == 1
        positions = np.flatnonzero(key)
    elif isinstance(key, slice):
        positions = np.arange(len(graphs))[key]
    else:
        positions = np.asarray(key) % len(graphs)
    subset = collection[key]
    assert isinstance(subset, GraphCollection)
    assert len(subset) == len(positions)
    for ours, position in zip(subset, positions, strict=True):
        assert_same_graph(ours, graphs[position])
    np.testing.assert_array_equal(subset.y, collection.y[positions])


@pytest.mark.parametrize("key", [torch.tensor(3), np.array(3), np.int32(-2)])
def test_a_0d_index_is_one_graph_as_in_pyg_datasets(key, random_graphs):
    # as a PyG dataset's dataset[torch.tensor(3)]; it was refused ("Got ndarray instead")
    graphs = random_graphs()
    assert_same_graph(GraphCollection.from_data_list(graphs)[key], graphs[int(key)])


def test_bad_keys(random_graphs):
    collection = GraphCollection.from_data_list(random_graphs())
    with pytest.raises(IndexError, match="out of range"):
        collection[12]
    with pytest.raises(IndexError, match="out of range"):
        collection[[0, 99]]
    with pytest.raises(TypeError, match="indexed by"):
        collection[0.5]
    with pytest.raises(IndexError, match="boolean mask"):
        collection[np.ones(3, dtype=bool)]


def test_pickle_holds_only_numpy_arrays_and_round_trips(random_graphs):
    collection = GraphCollection.from_data_list(random_graphs())
    for value in vars(collection).values():
        assert value is None or type(value) is np.ndarray
    restored = pickle.loads(pickle.dumps(collection))
    for ours, theirs in zip(restored, collection, strict=True):
        assert_same_graph(ours, theirs)


def test_memory_mapped_arrays_are_read_without_writing(tmp_path, random_graphs):
    collection = GraphCollection.from_data_list(random_graphs())
    joblib.dump(collection, tmp_path / "graphs.joblib")
    mapped = joblib.load(tmp_path / "graphs.joblib", mmap_mode="r")
    assert isinstance(mapped.x, np.memmap) and not mapped.x.flags.writeable
    with np.errstate(all="raise"):
        for ours, theirs in zip(mapped[[5, 1]], [collection[5], collection[1]], strict=True):
            assert_same_graph(ours, theirs)
            ours.x += 1  # a graph's tensors are copies, never views of the mapped file


def test_fingerprint_sees_the_content(random_graphs):
    graphs = random_graphs()
    first = GraphCollection.from_data_list(graphs)
    second = GraphCollection.from_data_list([graph.clone() for graph in graphs])
    assert fingerprint(first) == fingerprint(second)
    graphs[7].x[0, 0] += 1
    assert fingerprint(GraphCollection.from_data_list(graphs)) != fingerprint(first)
    assert fingerprint(first) != fingerprint(first[:-1])


def test_graph_utilities_read_it(random_graphs):
    collection = GraphCollection.from_data_list(random_graphs())
    assert is_graph_data(collection)
    fast = read_graph_labels(collection)
    slow = read_graph_labels(list(collection))  # one graph at a time
    np.testing.assert_array_equal(fast, slow)
    unlabelled = GraphCollection(
        collection.x, collection.edge_index, collection.node_ptr, collection.edge_ptr
    )
    with pytest.raises(ValueError, match="Graph 0 of X has no label") as fast_error:
        read_graph_labels(unlabelled)
    with pytest.raises(ValueError) as slow_error:
        read_graph_labels(list(unlabelled))
    assert str(fast_error.value) == str(slow_error.value)  # one message, one owner


def test_a_loaded_data_set_pickles_small_after_its_labels_were_read(tu_root):
    """PyG keeps per-graph views of the whole storage once labels are read (3.5 GB pickles)."""
    graphs = load_tu_dataset("PROTEINS", tu_root("PROTEINS"))
    read_graph_labels(graphs)
    _ = [graphs[i] for i in range(0, len(graphs), 7)]
    size = len(pickle.dumps(graphs))
    arrays = sum(value.nbytes for value in vars(graphs).values() if value is not None)
    assert size < 1.01 * arrays + 10_000
    assert size < 5_000_000
    assert len(pickle.dumps(graphs[:100])) < size / 5


@pytest.mark.parametrize(
    "graphs, match",
    [
        (
            [Data(x=torch.ones(2, 1), edge_index=torch.zeros(2, 0, dtype=torch.long), pos=1)],
            r"attributes \['pos'\]",
        ),
        (
            [Data(edge_index=torch.zeros(2, 0, dtype=torch.long), num_nodes=2)],
            "features='constant'",
        ),
        ([Data(x=torch.ones(2, 1), y=torch.tensor([0, 1]))], "2 label values"),
        (
            [Data(x=torch.ones(1, 1), y=torch.tensor([0])), Data(x=torch.ones(1, 1))],
            "Graph 1 of data_list has no label",
        ),
        ([Data(x=torch.ones(1, 1)), Data(x=torch.ones(1, 2))], "same node features"),
        (
            [Data(x=torch.ones(2, 1), edge_index=torch.tensor([[0], [2]]))],
            "out of range for its 2 nodes",
        ),
        ([], "at least one graph"),
    ],
)
def test_from_data_list_refuses_what_it_would_lose_or_get_wrong(graphs, match):
    with pytest.raises(ValueError, match=match):
        GraphCollection.from_data_list(graphs)


def test_constructor_checks_the_pointers():
    with pytest.raises(ValueError, match="'node_ptr' parameter"):
        GraphCollection(np.ones((3, 1)), np.zeros((2, 0), dtype=int), [0, 2], [0, 0])
    with pytest.raises(ValueError, match="same length"):
        GraphCollection(np.ones((3, 1)), np.zeros((2, 0), dtype=int), [0, 1, 3], [0, 0])
    with pytest.raises(ValueError, match="one label per graph"):
        GraphCollection(np.ones((3, 1)), np.zeros((2, 0), dtype=int), [0, 3], [0, 0], y=[0, 1])


@pytest.mark.parametrize("shape", [(3,), (3, 4), (3, 2, 5)])
def test_feature_counts_are_pyg_counts(shape):
    """PyG counts 1 feature for a 1-D array, else the size of the last axis. A collection's
    arrays are its own to change, so a 3-D one (refused by its constructor) can be set later;
    before, any array not 2-D counted 1 feature."""
    features = np.ones(shape)
    edge_index, ptr = np.array([[0, 1, 2], [1, 2, 0]]), [0, 3]
    collection = GraphCollection(np.ones((3, 1)), edge_index, ptr, ptr, edge_attr=np.ones(3))
    collection.x, collection.edge_attr = features, features
    pyg = Data(x=torch.from_numpy(features), edge_attr=torch.from_numpy(features))
    assert collection.num_node_features == pyg.num_node_features
    assert collection.num_edge_features == pyg.num_edge_features
