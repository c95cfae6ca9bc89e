"""Issue 36.6: one check of graph input (``sklearn_fair.utils.check_graphs``), so that
GraphCollection, GraphClassifier and NestedCV refuse a bad graph the same way, with the same
words, before the first fit, on every backend (sequential, loky, threading, dask).

The inputs are the users' objects: a list of PyG ``Data``, PyG's ``TUDataset`` (with a
transform that spoils some graphs) and the GraphCollection of ``load_tu_dataset``. A module
that leaves a file behind whenever a fit builds it, in whichever process, shows that no fit
started; the same run on good graphs shows that it would have.
"""

import contextlib
import os
import sys
from pathlib import Path

import cloudpickle
import joblib
import numpy as np
import pytest
import torch
from torch_geometric.data import Data
from torch_geometric.datasets import TUDataset
from torch_geometric.nn import global_add_pool

from sklearn_fair import NestedCV
from sklearn_fair.graph import DeepMultisets, GraphClassifier, GraphCollection, load_tu_dataset

# the module travels to loky's and dask's workers by value: they need not import this file
cloudpickle.register_pickle_by_value(sys.modules[__name__])

N_GRAPHS = 40


class MarkingModule(torch.nn.Module):
    """Sum-pooled linear logits; leaves a file in ``marks`` each time a fit builds it."""

    def __init__(self, in_channels, out_channels, marks):
        super().__init__()
        Path(marks, f"{os.getpid()}-{id(self)}").touch()
        self.linear = torch.nn.Linear(in_channels, out_channels)

    def forward(self, data):
        return global_add_pool(self.linear(data.x), data.batch, size=data.num_graphs)


def _spoil(graph, case):
    """``graph`` (a Data) with what ``case`` names wrong with it."""
    x, edge_index, y = graph.x.clone(), graph.edge_index.clone(), graph.y
    edge_attr = graph.edge_attr  # PyG's TUDataset gives MUTAG's edge labels
    if case == "widths":
        x = x[:, :6]
    elif case == "no-nodes":
        x, edge_index = x[:0], edge_index[:, :0]
        edge_attr = None if edge_attr is None else edge_attr[:0]
    elif case == "nan":
        x[1, 2] = float("nan")
    elif case == "edge-out-of-range":
        edge_index[1, 3] = len(x) + 2
    elif case == "transposed-edge_index":
        edge_index = edge_index.t().contiguous()
    elif case == "two-labels":
        y = torch.tensor([0, 1])
    if edge_attr is None:
        return Data(x=x, edge_index=edge_index, y=y)
    return Data(x=x, edge_index=edge_index, edge_attr=edge_attr, y=y)


# what each case must be refused with, the graph named by its position in X
CASES = {
    "widths": r"The graphs of {X} have node-feature matrices of different widths \[6, 7\] "
    r"\(graph 0: \(7,\), graph {i}: \(6,\) per node\)",
    "no-nodes": r"Graph {i} of {X} has no nodes; every graph needs at least one node",
    "nan": r"Graph {i} of {X} has NaN or infinite node features in 'x'",
    "edge-out-of-range": r"Graph {i} of {X} has an 'edge_index' entry out of range for its",
    "transposed-edge_index": r"Graph {i} of {X} has an 'edge_index' of shape \(\d+, 2\)",
    "two-labels": r"Graph {i} of {X} has 2 label values",
}


class SpoilGraphsOfSize:
    """A PyG transform that spoils every graph of ``n_nodes`` nodes (a user's transform)."""

    def __init__(self, n_nodes, case):
        self.n_nodes, self.case = n_nodes, case

    def __call__(self, graph):
        return _spoil(graph, self.case) if graph.num_nodes == self.n_nodes else graph


@pytest.fixture(scope="module")
def mutag_graphs(mutag):
    """The first graphs of MUTAG as a list of Data (x, edge_index, y)."""
    return [Data(x=g.x, edge_index=g.edge_index, y=g.y) for g in mutag[:N_GRAPHS]]


def bad_list(graphs, case, position=5):
    spoilt = list(graphs)
    spoilt[position] = _spoil(spoilt[position], case)
    return spoilt, position


def message(case, position, name="X"):
    return CASES[case].format(X=name, i=position)


def nested(marks, **params):
    clf = GraphClassifier(
        MarkingModule, module__marks=str(marks), max_epochs=1, validation_fraction=None
    )
    return NestedCV(
        clf, {"lr": [0.01]}, outer_cv=2, inner_cv=2, n_refits=1, refit=False, random_state=0,
        **params,
    )  # fmt: skip


@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip("dask.distributed")  # the 'dask' extra
    with distributed.Client(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as client:
        yield client


@contextlib.contextmanager
def backend(name, request):
    """NestedCV's parameters under the joblib backend ``name``."""
    if name == "sequential":
        yield {"n_jobs": 1}
    elif name == "loky":
        yield {"n_jobs": 2}
    elif name == "threading":
        with joblib.parallel_backend("threading", n_jobs=2):
            yield {"n_jobs": 2}
    else:
        request.getfixturevalue("dask_client")
        with joblib.parallel_backend("dask"):
            yield {}


BACKENDS = ["sequential", "loky", "threading", "dask"]


@pytest.mark.parametrize("case", list(CASES))
def test_graph_collection_and_classifier_refuse_with_the_same_words(case, mutag_graphs):
    graphs, position = bad_list(mutag_graphs, case)
    with pytest.raises(ValueError, match=message(case, position, "data_list")):
        GraphCollection.from_data_list(graphs)
    with pytest.raises(ValueError, match=message(case, position)):
        GraphClassifier(MarkingModule, module__marks="/nonexistent", max_epochs=1).fit(graphs)


@pytest.mark.parametrize("name", BACKENDS)
@pytest.mark.parametrize("case", list(CASES))
def test_nested_cv_refuses_before_the_first_fit_on_every_backend(
    case, name, mutag_graphs, tmp_path, request
):
    graphs, position = bad_list(mutag_graphs, case)
    with backend(name, request) as params:
        # error_score=nan: a fit that failed in a worker would be a NaN score, not an error
        with pytest.raises(ValueError, match=message(case, position)):
            nested(tmp_path, error_score=np.nan, **params).fit(graphs)
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("name", BACKENDS)
def test_the_same_run_on_good_graphs_fits_on_every_backend(name, mutag_graphs, tmp_path, request):
    with backend(name, request) as params:
        run = nested(tmp_path, **params).fit(mutag_graphs)
    assert np.isfinite(run.outer_scores_).all()
    assert len(os.listdir(tmp_path)) >= 2  # a fit per outer fold at least, marked


@pytest.mark.parametrize("case", ["widths", "no-nodes"])
def test_a_tu_dataset_with_a_spoiling_transform_is_refused(case, mutag_root, tmp_path):
    clean = TUDataset(str(mutag_root), "MUTAG")[:N_GRAPHS]
    n_nodes = clean[7].num_nodes
    position = next(i for i in range(N_GRAPHS) if clean[i].num_nodes == n_nodes)
    dataset = TUDataset(str(mutag_root), "MUTAG", transform=SpoilGraphsOfSize(n_nodes, case))
    dataset = dataset[:N_GRAPHS]
    with pytest.raises(ValueError, match=message(case, position)):
        GraphClassifier(MarkingModule, module__marks=str(tmp_path), max_epochs=1).fit(dataset)
    with pytest.raises(ValueError, match=message(case, position)):
        nested(tmp_path, n_jobs=2).fit(dataset)
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("case", ["nan", "edge-out-of-range"])
def test_a_loaded_collection_changed_after_loading_is_refused(case, mutag_root, tmp_path):
    """A GraphCollection's arrays are its own to change: checked again by every user."""
    collection = load_tu_dataset("MUTAG", mutag_root)[:N_GRAPHS]
    position = 5
    if case == "nan":
        collection.x[collection.node_ptr[position] + 1, 2] = np.nan
    else:
        collection.edge_index[1, collection.edge_ptr[position] + 3] = 99
    with pytest.raises(ValueError, match=message(case, position)):
        GraphClassifier(MarkingModule, module__marks=str(tmp_path), max_epochs=1).fit(collection)
    with pytest.raises(ValueError, match=message(case, position)):
        nested(tmp_path, n_jobs=2).fit(collection)
    assert os.listdir(tmp_path) == []


def test_the_constructor_refuses_a_graph_without_nodes():
    """Issue 36: a zero-node graph was accepted by GraphCollection and refused by NestedCV."""
    x, no_edges = np.ones((3, 2)), np.zeros((2, 0), dtype=np.int64)
    with pytest.raises(ValueError, match="Graph 1 of GraphCollection has no nodes"):
        GraphCollection(x, no_edges, [0, 3, 3], [0, 0, 0])


def test_graphs_of_other_objects_are_checked_by_what_they_carry(tmp_path):
    """NestedCV takes any sequence whose items carry a label; only what is there is checked."""
    from types import SimpleNamespace

    from sklearn_fair.utils import check_graphs

    labels_only = [SimpleNamespace(y=i % 2) for i in range(6)]
    np.testing.assert_array_equal(check_graphs(labels_only)["y"], [0, 1, 0, 1, 0, 1])
    partly = [SimpleNamespace(x=np.ones((2, 3)), y=0), SimpleNamespace(y=1)]
    with pytest.raises(ValueError, match=r"Graph 1 of X has no node-feature matrix 'x' but"):
        check_graphs(partly)


def test_features_beyond_float32_are_refused_not_made_infinite(mutag_graphs):
    """check_graphs sees finite float64 values; the module's float32 would make them inf."""
    graphs = [Data(x=g.x.double(), edge_index=g.edge_index, y=g.y) for g in mutag_graphs]
    graphs[4].x[2, 0] = 1e39
    with pytest.raises(ValueError, match=r"Graph 4 of X has 'x' values beyond float32's range"):
        GraphClassifier(MarkingModule, module__marks="/nonexistent", max_epochs=1).fit(graphs)


@pytest.mark.parametrize("key", ["x", "edge_attr"])
def test_features_of_more_than_two_dimensions_are_refused_before_the_first_fit(
    key, mutag_graphs, tmp_path, monkeypatch
):
    """Every graph's ``x`` (or ``edge_attr``) of shape (rows, 7, 1), which no module takes, is
    refused by the input check. Before, the check accepted it and NestedCV started: each fit
    failed in GraphClassifier (a NaN score under error_score=nan)."""
    graphs, arrays = [], GraphCollection.from_data_list(mutag_graphs[:2]).__graph_arrays__()
    for g in mutag_graphs:
        spoilt = g.clone()
        spoilt[key] = torch.ones(len(g.x) if key == "x" else g.num_edges, 7, 1)
        graphs.append(spoilt)
    arrays[key] = np.ones((len(arrays["x"] if key == "x" else arrays["edge_index"].T), 7, 1))
    rows, first = ("n_nodes", len(graphs[0].x)) if key == "x" else ("n_edges", graphs[0].num_edges)
    refusal = (
        rf"The graphs of {{}} have '{key}' of shape \({rows}, 7, 1\) \(graph 0: \({{}}, 7, 1\)\)"
    )
    with pytest.raises(ValueError, match=refusal.format("data_list", first)):
        GraphCollection.from_data_list(graphs)
    with pytest.raises(ValueError, match=refusal.format("GraphCollection", first)):
        GraphCollection(**arrays)
    fits, fit = [], GraphClassifier.fit
    monkeypatch.setattr(
        GraphClassifier, "fit", lambda *args, **kw: fits.append(1) or fit(*args, **kw)
    )
    with pytest.raises(ValueError, match=refusal.format("X", first)):
        nested(tmp_path, error_score=np.nan, n_jobs=1).fit(graphs)
    assert fits == [] and os.listdir(tmp_path) == []


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_half_precision_features_give_what_their_float32_values_give(dtype, mutag_graphs):
    """bfloat16 and float16 values are exactly float32 values: graphs given in either train
    and predict as the same graphs given as float32 (bfloat16 failed in torch's ``.numpy()``,
    "Got unsupported ScalarType BFloat16")."""
    generator = torch.Generator().manual_seed(0)
    half, single = [], []
    for g in mutag_graphs:
        x = (g.x + torch.randn(g.x.shape, generator=generator)).to(dtype)
        edge_attr = torch.randn(g.num_edges, 2, generator=generator).to(dtype)
        half.append(Data(x=x, edge_index=g.edge_index, edge_attr=edge_attr, y=g.y))
        single.append(
            Data(x=x.float(), edge_index=g.edge_index, edge_attr=edge_attr.float(), y=g.y)
        )
    collection = GraphCollection.from_data_list(half)
    for key in ("x", "edge_attr"):
        expected = torch.cat([getattr(g, key) for g in single]).numpy()
        assert getattr(collection, key).dtype.kind == "f"
        np.testing.assert_array_equal(getattr(collection, key).astype(np.float32), expected)

    def fitted(graphs):
        return GraphClassifier(
            DeepMultisets,
            module__hidden_units=8,
            max_epochs=2,
            validation_fraction=None,
            random_state=0,
            verbose=0,
        ).fit(graphs)

    on_half, on_single = fitted(half), fitted(single)
    np.testing.assert_array_equal(on_half.predict_proba(half), on_single.predict_proba(single))
    np.testing.assert_array_equal(on_single.predict_proba(half), on_single.predict_proba(single))
    assert on_half.score(half) == on_single.score(single)
