"""What a saved split file that does not fit is said to be.

A gnn-comparison file that lists a graph twice in one fold is said to do that, as an
sklearn-fair file is (hunt HOSTILE2, HOSTILE2-4); a gnn-comparison file that indexes fewer
graphs than X advises drop_degenerate only where X's degenerate graphs can be the difference,
and otherwise says the file was probably made for another data set (hunt PAPERREPRO,
PAPERREPRO-1).
"""

import json
from types import SimpleNamespace

import numpy as np
import pytest

from sklearn_fair.exceptions import InvalidSplitError, SplitsMismatchError
from sklearn_fair.graph import load_tu_dataset
from sklearn_fair.model_selection import PredefinedSplits, load_splits

DROP = "so load the graphs with load_tu_dataset(..., drop_degenerate=True)"
ANOTHER = "probably made for another data set"


# --- a repeat within one fold ---------------------------------------------------------------


def test_a_test_index_twice_in_one_fold_is_said_so_in_both_formats(tmp_path):
    # fold 0 lists graph 0 twice; no other fold tests it
    gnn = [
        {"test": [0, 0, 1], "model_selection": [{"train": [2], "validation": [3]}]},
        {"test": [2, 3], "model_selection": [{"train": [0], "validation": [1]}]},
    ]
    ours = {
        "format": "sklearn-fair-splits",
        "version": 1,
        "n_samples": 4,
        "folds": [{"train": [2, 3], "test": [0, 0, 1]}, {"train": [0, 1], "test": [2, 3]}],
    }
    messages = []
    for file, document, file_format in [
        ("g.json", gnn, "gnn-comparison"),
        ("s.json", ours, "sklearn-fair"),
    ]:
        path = tmp_path / file
        path.write_text(json.dumps(document))
        with pytest.raises(InvalidSplitError) as caught:
            load_splits(path, format=file_format)
        messages.append(str(caught.value).replace(file, "FILE"))
    assert messages[0] == messages[1]
    assert messages[0] == "Fold 0 of the splits in FILE lists test indices more than once: [0]."
    assert "several folds" not in messages[0]


def test_a_graph_tested_in_two_folds_is_still_said_so(tmp_path):
    path = tmp_path / "g.json"
    gnn = [
        {"test": [0, 1], "model_selection": [{"train": [2], "validation": [3]}]},
        {"test": [0, 2, 3], "model_selection": [{"train": [1], "validation": [4]}]},
    ]
    path.write_text(json.dumps(gnn))
    with pytest.raises(InvalidSplitError, match=r"tested in several folds: \[0\]"):
        load_splits(path, format="gnn-comparison")


# --- a file that indexes fewer graphs than X --------------------------------------------------


def _gnn_file(path, n_graphs, n_folds=2):
    """A gnn-comparison split file over ``n_graphs`` graphs: folds of every n_folds-th graph,
    each outer training set cut into a train and a validation half."""
    folds = []
    for k in range(n_folds):
        test = list(range(k, n_graphs, n_folds))
        train = [i for i in range(n_graphs) if i not in test]
        half = len(train) // 2
        folds.append(
            {"test": test, "model_selection": [{"train": train[half:], "validation": train[:half]}]}
        )
    path.write_text(json.dumps(folds))
    return load_splits(path, format="gnn-comparison")


def _graph(n_nodes, edges):
    edge_index = np.array(edges, dtype=np.int64).T.reshape(2, -1)
    return SimpleNamespace(x=np.ones((n_nodes, 1)), edge_index=edge_index, y=0)


def _mismatch(saved, X):
    with pytest.raises(SplitsMismatchError) as caught:
        list(PredefinedSplits(saved).split(X))
    return str(caught.value)


def test_the_paper_split_file_of_another_data_set_is_not_blamed_on_degenerate_graphs(data_dir):
    # IMDB-BINARY's split file (1,000 graphs) with IMDB-MULTI's 1,500 graphs
    saved = load_splits(
        data_dir / "gnn_comparison_splits" / "COLLABORATIVE_1" / "IMDB-BINARY_splits.json",
        format="gnn-comparison",
    )
    y = np.loadtxt(data_dir / "TUDataset/IMDB-MULTI/raw/IMDB-MULTI_graph_labels.txt", dtype=int)
    assert (saved.n_samples, y.size) == (1000, 1500)
    with pytest.raises(SplitsMismatchError) as caught:
        list(PredefinedSplits(saved).split(np.zeros((1500, 1)), y))
    message = str(caught.value)
    assert message.startswith("PredefinedSplits are for 1000 samples but X has 1500.")
    assert ANOTHER in message and "500 of 1500" in message
    assert DROP not in message


def test_the_graphs_of_another_data_set_are_counted(data_dir):
    saved = load_splits(
        data_dir / "gnn_comparison_splits" / "COLLABORATIVE_1" / "IMDB-BINARY_splits.json",
        format="gnn-comparison",
    )
    graphs = load_tu_dataset("IMDB-MULTI", data_dir / "TUDataset", features="degree")
    # the count the message rests on, read independently of the library's graph reading
    assert (graphs.node_counts > 1).all() and (graphs.edge_counts > 0).all()
    message = _mismatch(saved, graphs)
    assert ANOTHER in message and "no graphs of X have at most one node or no edge" in message
    assert DROP not in message


def test_graphs_without_degenerate_ones_to_drop(tmp_path):
    saved = _gnn_file(tmp_path / "s.json", 4)
    # two graphs more than the file, neither degenerate: dropping cannot leave 4
    graphs = [_graph(3, [(0, 1), (1, 2)]) for _ in range(6)]
    message = _mismatch(saved, graphs)
    assert message.startswith("PredefinedSplits are for 4 samples but X has 6.")
    assert ANOTHER in message and DROP not in message
    # one degenerate graph (a single node) of the two extra: still not the difference
    graphs[5] = _graph(1, [])
    message = _mismatch(saved, graphs)
    assert "only 1 graph of X has at most one node or no edge" in message
    assert DROP not in message
    # three single-node graphs for two extra: dropping them leaves 3, not 4
    graphs = [_graph(1, [])] * 3 + [_graph(2, [(0, 1)])] * 3
    message = _mismatch(saved, graphs)
    assert "3 graphs of X have at most one node" in message and DROP not in message


def test_degenerate_graphs_that_are_the_difference_get_the_advice(tmp_path):
    saved = _gnn_file(tmp_path / "s.json", 4)
    # a single-node graph and an edgeless pair: the reference drops both (4 of 6 kept)
    graphs = [_graph(3, [(0, 1)]), _graph(1, []), _graph(2, [(0, 1)]), _graph(2, []),
              _graph(2, [(1, 0)]), _graph(4, [(0, 3)])]  # fmt: skip
    message = _mismatch(saved, graphs)
    assert DROP in message and ANOTHER not in message


def test_a_graph_of_self_loops_only_may_be_kept_by_the_reference(tmp_path):
    """Graph 1 has one node, graph 2 two nodes and only a self-loop: the reference drops
    graph 1 and keeps graph 2 (a self-loop is a line of A), but once loaded graph 2 has no
    edge. A file of the other 3 graphs is then the one drop_degenerate fits."""
    raw = tmp_path / "TOY" / "raw"
    raw.mkdir(parents=True)
    (raw / "TOY_graph_indicator.txt").write_text("1\n2\n2\n3\n3\n4\n4\n")
    (raw / "TOY_A.txt").write_text("2, 2\n4, 5\n5, 4\n6, 7\n7, 6\n")
    (raw / "TOY_graph_labels.txt").write_text("1\n2\n1\n2\n")
    every = load_tu_dataset("TOY", tmp_path, features="degree")
    kept = load_tu_dataset("TOY", tmp_path, features="degree", drop_degenerate=True)
    assert (len(every), len(kept)) == (4, 3)
    assert every.edge_counts.tolist() == [0, 0, 2, 2]  # the self-loop is gone
    saved = _gnn_file(tmp_path / "s.json", 3, n_folds=3)
    assert DROP in _mismatch(saved, every)
    assert [test.tolist() for _, test in PredefinedSplits(saved).split(kept)] == [[0], [1], [2]]


def test_data_that_are_not_graphs_get_the_advice_only_as_a_possibility(tmp_path):
    saved = _gnn_file(tmp_path / "s.json", 200)
    # one sample more than the file in 201 (under 1%): either cause
    message = _mismatch(saved, np.zeros((201, 1)))
    assert "may have been made for another data set" in message and DROP in message
    # 20 more: too many for the degenerate graphs of a paper's data set
    message = _mismatch(saved, np.zeros((220, 1)))
    assert ANOTHER in message and "20 of 220" in message and DROP not in message


def test_counting_the_graphs_keeps_torch_state_and_survives_an_unreadable_graph(tmp_path):
    # review45b REV-3: the count read a PyG dataset's graphs outside NestedCV's guard, so a
    # random transform moved the user's global torch state; and a graph whose reading raised
    # another error than ValueError/TypeError replaced the mismatch error with that one
    torch = pytest.importorskip("torch")
    from torch_geometric.data import Data, InMemoryDataset

    class Noisy(InMemoryDataset):
        def __init__(self, graphs):
            super().__init__(None, transform=self.noise)
            self.data, self.slices = self.collate(graphs)

        @staticmethod
        def noise(graph):
            graph = graph.clone()
            graph.x = graph.x + torch.randn_like(graph.x)
            return graph

    graphs = [
        Data(x=torch.ones(3, 2), edge_index=torch.tensor([[0, 1], [1, 2]]), y=torch.tensor([i % 2]))
        for i in range(6)
    ]
    saved = _gnn_file(tmp_path / "s.json", 4)
    torch.manual_seed(0)
    before = torch.random.get_rng_state().clone()
    message = _mismatch(saved, Noisy(graphs))
    assert torch.equal(before, torch.random.get_rng_state())
    assert ANOTHER in message

    class Unreadable(list):
        def __getitem__(self, index):
            raise RuntimeError("the disk went away")

    unreadable = Unreadable(_graph(3, [(0, 1)]) for _ in range(6))
    assert _mismatch(saved, unreadable).startswith("PredefinedSplits are for 4 samples")
