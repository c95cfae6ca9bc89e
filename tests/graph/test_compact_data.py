"""Issue 23.1: graph data reaches the workers compact, whatever its container.

What a parallel run writes for its workers (``SharedRunData``) stays within 1.5x of the graphs'
own arrays for PyG's containers (a ``TUDataset``, iterated or not, sliced or not, a list or an
object array of ``Data``) and our GraphCollection; what a worker reads back gives each task the
user's own container type holding graphs equal to the originals; and the scores of a parallel
run equal those of a serial one.
"""

import os

import numpy as np
import pytest
import torch
from torch_geometric.data import Data
from torch_geometric.datasets import TUDataset

from sklearn_fair import NestedCV
from sklearn_fair.graph import DeepMultisets, GraphClassifier, load_tu_dataset
from sklearn_fair.model_selection import StratifiedGraphKFold
from sklearn_fair.model_selection._nested._data import DataHandle, RunData, SharedRunData
from sklearn_fair.utils import CollatedGraphs, compact_graphs


def _own_bytes(graphs):
    """The bytes of every tensor of every graph: what the data weighs, without containers."""
    return sum(
        value.numel() * value.element_size()
        for graph in graphs
        for _, value in graph
        if isinstance(value, torch.Tensor)
    )


def _as_list(X):
    return [X[index] for index in range(len(X))]


def _assert_same_graphs(ours, theirs):
    assert len(ours) == len(theirs)
    for mine, original in zip(_as_list(ours), _as_list(theirs), strict=True):
        assert type(mine) is type(original)
        assert sorted(mine.keys()) == sorted(original.keys())
        for key in original.keys():
            a, b = mine[key], original[key]
            if isinstance(b, torch.Tensor):
                assert a.dtype == b.dtype and torch.equal(a, b), key
            else:
                assert a == b, key


def _containers(tu_root):
    """Name -> (X, the graphs it holds as a list); PROTEINS as PyG and as load_tu_dataset."""
    root = tu_root("PROTEINS")
    fresh = TUDataset(str(root), "PROTEINS")
    iterated = TUDataset(str(root), "PROTEINS")
    for _ in iterated:  # PyG now caches one Data per graph, each a view of all the storage
        pass
    sliced = iterated[100:900:2]
    shuffled = fresh[np.random.default_rng(0).permutation(len(fresh))[:500]]
    graphs = _as_list(fresh)
    array = np.empty(len(graphs), dtype=object)
    for index, graph in enumerate(graphs):
        array[index] = graph
    collection = load_tu_dataset("PROTEINS", root)
    return {
        "TUDataset": fresh,
        "TUDataset-iterated": iterated,
        "TUDataset-iterated-sliced": sliced,
        "TUDataset-shuffled-subset": shuffled,
        "list-of-Data": graphs,
        "array-of-Data": array,
        "GraphCollection": collection,
    }


@pytest.fixture(scope="module")
def containers(tu_root):
    return _containers(tu_root)


CONTAINERS = [
    "TUDataset",
    "TUDataset-iterated",
    "TUDataset-iterated-sliced",
    "TUDataset-shuffled-subset",
    "list-of-Data",
    "array-of-Data",
    "GraphCollection",
]


@pytest.mark.parametrize("name", CONTAINERS)
def test_what_a_run_writes_stays_within_1_5x_of_the_graphs_arrays(name, containers, tmp_path):
    X = containers[name]
    y = np.asarray([int(X[index].y) for index in range(len(X))])
    rows = {"train": np.arange(0, len(X), 3), "test": np.arange(1, len(X), 3)[::-1]}
    data = RunData(X, y, rows=rows)
    own = _own_bytes(_as_list(X))
    shared = SharedRunData(data, temp_folder=tmp_path)
    try:
        written = os.path.getsize(shared.handle.path)
        assert written <= 1.5 * own, (name, written, own)
        loaded = DataHandle(shared.handle.path).resolve()  # what a worker reads
        for part in ("train", "test"):
            X_worker, y_worker = loaded.subset(part)
            X_caller, y_caller = data.subset(part)
            np.testing.assert_array_equal(y_worker, y_caller)
            # the task gets the user's kind of container: a TUDataset, a list, an array
            assert type(X_worker) is type(X_caller), part
            _assert_same_graphs(X_worker, X_caller)
    finally:
        shared.close()


def test_the_users_object_is_left_as_it_was(containers):
    fresh = containers["TUDataset"]
    before = len(fresh), fresh.indices()
    compact = compact_graphs(fresh)
    assert compact is not fresh and type(compact) is type(fresh)
    assert (len(fresh), fresh.indices()) == before
    graphs = containers["list-of-Data"]
    assert isinstance(compact_graphs(graphs), CollatedGraphs)
    assert compact_graphs(containers["GraphCollection"]) is containers["GraphCollection"]
    tabular = np.zeros((3, 2))
    assert compact_graphs(tabular) is tabular


def test_collated_graphs_index_like_the_list(random_graphs):
    graphs = random_graphs(edge_features=True)  # one graph with one node, two without edges
    for graph in graphs:  # attributes that are not tensors come back too
        graph.name = f"graph with {graph.num_nodes} nodes"
    collated = CollatedGraphs(graphs)
    assert len(collated) == len(graphs)
    _assert_same_graphs(collated[np.arange(len(graphs))], graphs)
    _assert_same_graphs([collated[-1]], [graphs[-1]])
    _assert_same_graphs(collated[2:8:3], graphs[2:8:3])
    mask = np.arange(len(graphs)) % 2 == 0
    _assert_same_graphs(collated[mask], [g for g, keep in zip(graphs, mask) if keep])
    assert isinstance(collated[[1, 0]], list)
    with pytest.raises(IndexError, match="out of range"):
        collated[len(graphs)]
    single = CollatedGraphs(graphs[:1])
    _assert_same_graphs(single[[0, 0]], [graphs[0], graphs[0]])


def test_graphs_whose_attributes_differ_travel_as_they_are():
    """PyG's collate keeps the first graph's attributes only: such a list is not collated."""
    graphs = [
        Data(edge_index=torch.tensor([[0], [1]]), num_nodes=4, y=torch.tensor([1])),
        Data(
            edge_index=torch.tensor([[0], [1]]),
            num_nodes=7,
            y=torch.tensor([0]),
            pos=torch.ones(7, 2),
        ),
    ]
    assert compact_graphs(graphs) is graphs


def _nested(n_jobs):
    return NestedCV(
        GraphClassifier(DeepMultisets, max_epochs=2, batch_size=32, module__hidden_units=16),
        {"lr": [0.01, 0.001]},
        outer_cv=StratifiedGraphKFold(2, random_state=0),
        n_refits=1,
        refit=False,
        random_state=0,
        n_jobs=n_jobs,
    )


def test_pyg_containers_give_the_serial_scores_in_parallel(mutag_root, mutag):
    """An iterated, sliced TUDataset and a list of Data: the same scores with n_jobs=2 as with
    n_jobs=1, and as load_tu_dataset's collection of the same graphs."""
    dataset = TUDataset(str(mutag_root), "MUTAG")
    for _ in dataset:
        pass
    subset = dataset[:150]
    reference = _nested(1).fit(mutag[:150]).outer_scores_
    for X in (subset, _as_list(subset)):
        serial = _nested(1).fit(X).outer_scores_
        parallel = _nested(2).fit(X).outer_scores_
        np.testing.assert_array_equal(serial, reference)
        np.testing.assert_array_equal(parallel, serial)


def _assert_same_params(ours, theirs):
    assert sorted(ours) == sorted(theirs)
    for name, original in theirs.items():
        if name == "sample_weight":
            np.testing.assert_array_equal(ours[name], original)
        else:
            assert type(ours[name]) is type(original), name
            _assert_same_graphs(ours[name], original)


@pytest.mark.parametrize(
    "name", ["TUDataset-iterated", "TUDataset-iterated-sliced", "list-of-Data", "array-of-Data"]
)
def test_graphs_in_fit_params_reach_the_workers_compact(name, containers, tmp_path):
    """Validation graphs passed as a fit parameter (X_val), not aligned with X, and graphs
    aligned with X (indexed with the training rows, as scikit-learn's fit params are): what a
    run writes stays within 1.5x of all the graphs' arrays, and a worker reads back the
    parameters the caller's process gives each task."""
    X = containers["GraphCollection"][:300]
    y = np.asarray(X.y)
    X_val = containers[name]
    aligned = _as_list(containers["TUDataset-iterated"][:300])
    if name == "array-of-Data":
        aligned = containers["array-of-Data"][:300]
    rows = {"train": np.arange(0, 300, 3), "test": np.arange(1, 300, 3)[::-1]}
    fit_params = {"X_val": X_val, "side_graphs": aligned, "sample_weight": np.ones(300)}
    data = RunData(X, y, fit_params=fit_params, rows=rows)
    own = sum(_own_bytes(_as_list(graphs)) for graphs in (X, X_val, aligned)) + 300 * 8
    shared = SharedRunData(data, temp_folder=tmp_path)
    try:
        written = os.path.getsize(shared.handle.path)
        assert written <= 1.5 * own, (name, written, own)
        loaded = DataHandle(shared.handle.path).resolve()
        for part in ("train", "test"):
            _assert_same_params(loaded.fit_params_for(part), data.fit_params_for(part))
        assert len(data.fit_params_for("train")["side_graphs"]) == 100  # indexed, not whole
    finally:
        shared.close()
    assert data.fit_params["X_val"] is X_val  # the caller's process keeps the user's object


def test_validation_graphs_in_fit_params_give_the_serial_scores_in_parallel(mutag_root):
    """The user's own X_val, an iterated TUDataset passed through NestedCV.fit to every fit
    (early_stopping_split="estimator": the protocol hands no inner rows of its own): the
    same scores with n_jobs=2 as with n_jobs=1; and the workers' fits do read it (validation
    graphs of the wrong width, as a list of Data, fail there with the classifier's error)."""
    dataset = TUDataset(str(mutag_root), "MUTAG")
    for _ in dataset:
        pass
    X, X_val = dataset[:120], dataset[120:]

    def nested(n_jobs):
        return _nested(n_jobs).set_params(early_stopping_split="estimator", error_score="raise")

    serial = nested(1).fit(X, X_val=X_val).outer_scores_
    parallel = nested(2).fit(X, X_val=X_val).outer_scores_
    np.testing.assert_array_equal(parallel, serial)
    narrow = [Data(x=g.x[:, :2], edge_index=g.edge_index, y=g.y) for g in X_val]
    with pytest.raises(ValueError, match="X_val has 2 node features"):
        nested(2).fit(X, X_val=narrow)


@pytest.mark.parametrize("label", [lambda n: n % 2, lambda n: torch.tensor(n % 2), lambda n: 0.5])
def test_graphs_whose_labels_would_not_collate_back_travel_as_they_are(label):
    """PyG's collate turns a Python number or a 0-d tensor into a tensor of shape [1]: a user's
    estimator would read another ``y`` in a worker than in the caller's process."""
    graphs = [
        Data(x=torch.ones(n, 2), edge_index=torch.zeros(2, 0, dtype=torch.long), y=label(n))
        for n in (2, 3, 4)
    ]
    compact = compact_graphs(graphs)
    for ours, theirs in zip(compact, graphs, strict=True):
        assert type(ours.y) is type(theirs.y)
        assert getattr(ours.y, "shape", None) == getattr(theirs.y, "shape", None)
    # with labels of shape [1], and a name and num_nodes, PyG gives every attribute back
    graphs = [Data(x=torch.ones(n, 2), y=torch.tensor([n % 2]), num_nodes=n, name=f"g{n}")
              for n in (2, 3, 4)]  # fmt: skip
    compact = compact_graphs(graphs)
    assert isinstance(compact, CollatedGraphs)
    for ours, theirs in zip(compact, graphs, strict=True):
        assert {k: repr(v) for k, v in ours.items()} == {k: repr(v) for k, v in theirs.items()}
