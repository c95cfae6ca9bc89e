"""Review36 REV-3: a pandas Series of PyG graphs reaches the workers as compact as the list.

A Series of an iterated TUDataset's graphs (each a view of the whole collated storage) was
written for the workers graph by graph, the storage again for each: 3.4 GB for ENZYMES where
the list of the same graphs writes 1.5 MB. What NestedCV and benchmark write for their workers
now stays within a small factor of the list's, a worker's task still gets a Series (the rows'
index labels, the Series' name, the same graphs), and NestedCV(n_jobs=2) scores the Series as
it scores the list.
"""

import os

import numpy as np
import pandas as pd
import pytest
import torch
from sklearn.utils import _safe_indexing
from torch_geometric.datasets import TUDataset

from sklearn_fair.model_selection._nested._data import DataHandle, RunData, SharedRunData
from sklearn_fair.model_selection._nested._running import PlansData
from sklearn_fair.utils._graphs import graphs_in_order


@pytest.fixture(scope="module")
def iterated_graphs(mutag_root):
    """MUTAG's graphs as PyG's TUDataset caches them once iterated: views of one storage."""
    return list(TUDataset(str(mutag_root), "MUTAG"))


def _series(graphs):
    # a permuted index: a task that read X[i] by label would get another graph
    index = np.random.default_rng(0).permutation(len(graphs))
    return pd.Series(graphs, index=index, name="graph")


def _labels(graphs):
    return np.array([int(graph.y) for graph in graphs])


def _assert_same_graphs(ours, theirs):
    assert len(ours) == len(theirs)
    for mine, original in zip(graphs_in_order(ours), graphs_in_order(theirs), strict=True):
        assert sorted(mine.keys()) == sorted(original.keys())
        for key in original.keys():
            assert torch.equal(mine[key], original[key]), key


def _shared(X, y, how, tmp_path):
    """What a run (NestedCV: a RunData) or a benchmark (its plans' data) writes for the
    workers, and a function giving the train and test rows (X, y) a task reads there."""
    rows = {"train": np.arange(0, len(y), 3), "test": np.arange(1, len(y), 3)[::-1]}
    data = RunData(X, y, rows=rows)
    if how == "benchmark":
        data = PlansData([data])
    shared = SharedRunData(data, temp_folder=tmp_path)
    loaded = DataHandle(shared.handle.path).resolve()  # what a worker reads
    if how == "benchmark":
        data, loaded = data.part(0), loaded.part(0)
    return shared, data, loaded


@pytest.mark.parametrize("how", ["nested_cv", "benchmark"])
def test_a_series_of_graphs_is_written_for_the_workers_as_compact_as_the_list(
    iterated_graphs, how, tmp_path
):
    y = _labels(iterated_graphs)
    sizes = {}
    for name, X in (("list", iterated_graphs), ("series", _series(iterated_graphs))):
        shared, data, loaded = _shared(X, y, how, tmp_path)
        try:
            sizes[name] = os.path.getsize(shared.handle.path)
            for part in ("train", "test"):
                X_worker, y_worker = loaded.subset(part)
                X_caller, y_caller = data.subset(part)
                np.testing.assert_array_equal(y_worker, y_caller)
                assert type(X_worker) is type(X_caller), (name, part)
                _assert_same_graphs(X_worker, X_caller)
                if name == "series":  # the rows' labels and the name, as the caller's task has
                    expected = _safe_indexing(X, data.rows[part])
                    pd.testing.assert_index_equal(X_worker.index, expected.index)
                    assert X_worker.name == expected.name == "graph"
        finally:
            shared.close()
    # an index of 188 labels more than the list: a few kB, not 188 copies of the storage
    assert sizes["series"] <= 1.2 * sizes["list"], sizes
