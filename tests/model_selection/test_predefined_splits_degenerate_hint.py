"""A gnn-comparison split file that indexes fewer graphs than X: the mismatch says why.

The reference code of Errica et al. (``datasets/manager.py``, ``_process``) keeps only the
graphs with more than one node and at least one edge, so its split files index those alone.
"""

import json

import numpy as np
import pytest
from sklearn.model_selection import KFold

from sklearn_fair.exceptions import SplitsMismatchError
from sklearn_fair.graph import load_tu_dataset
from sklearn_fair.model_selection import PredefinedSplits, load_splits, save_splits

# six graphs as (number of nodes, undirected edges): the third has one node and the fifth no
# edge, so the reference keeps graphs 0, 1, 3 and 5
GRAPHS = [(3, [(0, 1), (1, 2), (2, 0)]), (2, [(0, 1)]), (1, []), (3, [(0, 1), (1, 2)]), (2, []),
          (2, [(0, 1)])]  # fmt: skip
KEPT = [0, 1, 3, 5]
MISMATCH = "PredefinedSplits are for 4 samples but X has 6."
HINT = (
    "If the splits come from a gnn-comparison split file (Errica et al.): the reference code "
    "keeps only the graphs with more than one node and at least one edge"
)


@pytest.fixture
def tiny(tmp_path):
    raw = tmp_path / "TINY" / "raw"
    raw.mkdir(parents=True)
    indicator, lines, first = [], [], 1
    for graph, (n_nodes, edges) in enumerate(GRAPHS, start=1):
        indicator += [graph] * n_nodes
        for u, v in edges:
            lines += [f"{first + u}, {first + v}", f"{first + v}, {first + u}"]
        first += n_nodes
    (raw / "TINY_graph_indicator.txt").write_text("".join(f"{g}\n" for g in indicator))
    (raw / "TINY_A.txt").write_text("".join(f"{line}\n" for line in lines))
    (raw / "TINY_graph_labels.txt").write_text("1\n2\n1\n2\n1\n2\n")
    # the reference's split file of the four graphs it keeps: 2 outer folds, one hold-out each
    splits = [
        {"test": [0, 1], "model_selection": [{"train": [2], "validation": [3]}]},
        {"test": [2, 3], "model_selection": [{"train": [0], "validation": [1]}]},
    ]
    path = tmp_path / "TINY_splits.json"
    path.write_text(json.dumps(splits))
    return tmp_path, path


def test_gnn_comparison_file_on_all_graphs_says_to_drop_the_degenerate_ones(tiny):
    root, path = tiny
    cv = PredefinedSplits(load_splits(path, format="gnn-comparison"))
    graphs = load_tu_dataset("TINY", root, features="degree")
    assert len(graphs) == len(GRAPHS)
    with pytest.raises(SplitsMismatchError) as caught:
        list(cv.split(graphs))
    message = str(caught.value)
    assert message.startswith(MISMATCH + " " + HINT)
    assert "drop_degenerate=True" in message and "drop_degenerate = true" in message

    # what the hint says fits: the graphs kept are the reference's, in order
    kept = load_tu_dataset("TINY", root, features="degree", drop_degenerate=True)
    assert [int(g.num_nodes) for g in kept] == [GRAPHS[i][0] for i in KEPT]
    assert [int(g.y) for g in kept] == [0, 1, 1, 1]  # raw labels 1, 2, 2, 2
    tests = [test.tolist() for _, test in cv.split(kept)]
    assert tests == [[0, 1], [2, 3]]


def test_no_hint_where_dropping_graphs_cannot_be_the_cause(tiny, tmp_path):
    root, path = tiny
    graphs = load_tu_dataset("TINY", root, features="degree")
    # X smaller than the splits: dropping graphs would not help
    with pytest.raises(SplitsMismatchError) as caught:
        list(PredefinedSplits(load_splits(path, format="gnn-comparison")).split(graphs[:3]))
    assert str(caught.value) == "PredefinedSplits are for 4 samples but X has 3."
    # splits saved with their labels' fingerprint, or without inner splits: not a
    # gnn-comparison file
    X, y = np.zeros((4, 1)), np.array([0, 1, 0, 1])
    fingerprinted = tmp_path / "fingerprinted.json"
    save_splits(KFold(2).split(X), fingerprinted, y=y)
    plain = tmp_path / "plain.json"
    save_splits(KFold(2).split(X), plain, n_samples=4)
    for saved in (fingerprinted, plain):
        with pytest.raises(SplitsMismatchError) as caught:
            list(PredefinedSplits(load_splits(saved)).split(graphs))
        assert str(caught.value) == MISMATCH
