"""load_tu_dataset's feature schemes on the real TU files, and the bundled MUTAG."""

import numpy as np
import pytest
import torch

from sklearn_fair.graph import FEATURE_SCHEMES, load_mutag, load_tu_dataset
from sklearn_fair.model_selection import read_graph_labels


def test_chemical_data_get_one_hot_node_labels(mutag):
    assert len(mutag) == 188
    graph = mutag[0]
    assert graph.x.shape[1] == 7
    torch.testing.assert_close(graph.x.sum(dim=1), torch.ones(graph.num_nodes))
    assert graph.edge_attr is None  # the paper did not use the edge labels
    np.testing.assert_array_equal(np.bincount(read_graph_labels(mutag)), [63, 125])


def test_edge_labels_on_request(tu_root):
    graphs = load_tu_dataset("MUTAG", tu_root("MUTAG"), use_edge_attr=True)
    assert graphs[0].edge_attr.shape[1] == 4


@pytest.mark.parametrize("features, width", [("constant", 1), ("degree", 1), ("one-hot-degree", 5)])
def test_structural_feature_schemes(features, width, tu_root):
    graphs = load_tu_dataset("MUTAG", tu_root("MUTAG"), features=features)
    graph = graphs[0]
    assert graph.x.shape == (graph.num_nodes, width)
    if features == "constant":
        assert torch.all(graph.x == 1)
    if features == "degree":
        degrees = torch.bincount(graph.edge_index[0], minlength=graph.num_nodes).float()
        torch.testing.assert_close(graph.x.view(-1), degrees)


def test_enzymes_uses_its_node_attributes(tu_root):
    graphs = load_tu_dataset("ENZYMES", tu_root("ENZYMES"))
    assert graphs.num_node_features == 3 + 18
    assert load_tu_dataset("ENZYMES", tu_root("ENZYMES"), features="node-labels")[0].x.shape[1] == 3


def test_social_data_need_an_explicit_scheme(tu_root):
    root = tu_root("IMDB-BINARY")
    with pytest.raises(ValueError, match="features='constant'.*features='degree'"):
        load_tu_dataset("IMDB-BINARY", root)
    graphs = load_tu_dataset("IMDB-BINARY", root, features="degree")
    assert len(graphs) == 1000 and graphs[0].x.shape[1] == 1


def test_unknown_scheme_is_named(tu_root):
    with pytest.raises(ValueError, match="'features' parameter.*Got 'labels'"):
        load_tu_dataset("MUTAG", tu_root("MUTAG"), features="labels")
    assert set(FEATURE_SCHEMES) >= {"auto", "constant", "degree", "one-hot-degree"}


def test_bundled_mutag_matches_the_shared_copy(tmp_path, mutag):
    bundled = load_mutag(data_home=tmp_path)
    assert (tmp_path / "TUDataset" / "MUTAG" / "raw" / "MUTAG_A.txt").is_file()
    assert len(bundled) == len(mutag)
    for index in (0, 100, 187):
        assert torch.equal(bundled[index].x, mutag[index].x)
        assert torch.equal(bundled[index].edge_index, mutag[index].edge_index)
        assert torch.equal(bundled[index].y, mutag[index].y)
    again = load_mutag(data_home=tmp_path, features="degree")  # reuses the cache
    assert again.num_node_features == 1


def test_bundled_mutag_has_provenance():
    from pathlib import Path

    import sklearn_fair.graph

    folder = Path(sklearn_fair.graph.__file__).parent / "data" / "MUTAG"
    assert "Licence" in (folder / "PROVENANCE.md").read_text()
    assert len(list((folder / "raw").iterdir())) == 6
