"""load_tu_dataset: the graphs PyG's TUDataset builds from the same raw files, checked files,
no code from data, and the reference's filter of degenerate graphs."""

import pickle
import shutil
import socket
from pathlib import Path

import numpy as np
import pytest
import torch
from torch_geometric.datasets import TUDataset
from torch_geometric.transforms import Constant, OneHotDegree
from torch_geometric.utils import degree

import sklearn_fair.graph
from sklearn_fair.graph import (
    FEATURE_SCHEMES,
    GraphCollection,
    _datasets,
    load_mutag,
    load_tu_dataset,
)
from sklearn_fair.utils._tu_format import TUFormatError

BUNDLED = Path(sklearn_fair.graph.__file__).parent / "data"


@pytest.fixture(scope="module")
def pyg_copy(tmp_path_factory, request):
    """``name -> root`` of a private copy of the raw files for PyG (which writes beside them).

    MUTAG comes from the package, the others from the shared data folder."""
    root = tmp_path_factory.mktemp("pyg")

    def copy(name):
        if not (root / name).exists():
            if name == "MUTAG":
                source = BUNDLED / name
            else:
                source = request.getfixturevalue("data_dir") / "TUDataset" / name
            shutil.copytree(source / "raw", root / name / "raw")
        return root

    return copy


def pyg_reference(root, name, features, use_edge_attr):
    """The graphs as PyG's TUDataset and its transforms give them, one Data per graph."""
    use_node_attr = features == "node-labels+attributes" or (
        features == "auto" and name == "ENZYMES"
    )
    dataset = TUDataset(str(root), name, use_node_attr=use_node_attr, use_edge_attr=use_edge_attr)
    graphs = [dataset[index] for index in range(len(dataset))]
    if features == "constant":
        graphs = [Constant(1.0, cat=False)(graph) for graph in graphs]
    elif features == "degree":
        for graph in graphs:
            graph.x = degree(graph.edge_index[0], graph.num_nodes).view(-1, 1)
    elif features == "one-hot-degree":
        largest = max(
            int(degree(graph.edge_index[0], graph.num_nodes).max()) if graph.num_edges else 0
            for graph in graphs
        )
        graphs = [OneHotDegree(largest, cat=False)(graph) for graph in graphs]
    if not use_edge_attr:
        for graph in graphs:
            del graph.edge_attr
    return graphs


SCHEMES = ["auto", "node-labels+attributes", "degree", "constant", "one-hot-degree"]


@pytest.mark.parametrize(
    "name, features, use_edge_attr",
    [("MUTAG", features, False) for features in SCHEMES]
    + [("MUTAG", "auto", True)]
    + [(name, features, False) for name in ("PROTEINS", "ENZYMES") for features in SCHEMES]
    + [("PTC_MR", "auto", True)],
)
def test_same_graphs_as_pyg_tudataset(name, features, use_edge_attr, pyg_copy, tmp_path):
    root = pyg_copy(name)
    theirs = pyg_reference(root, name, features, use_edge_attr)
    ours = load_tu_dataset(name, root, features=features, use_edge_attr=use_edge_attr)
    assert isinstance(ours, GraphCollection)
    assert len(ours) == len(theirs)
    for index, (graph, reference) in enumerate(zip(ours, theirs, strict=True)):
        assert sorted(graph.keys()) == sorted(reference.keys()), index
        for key in reference.keys():
            assert graph[key].dtype == reference[key].dtype, (index, key)
            assert torch.equal(graph[key], reference[key]), (index, key)


def test_mutag_without_shared_data(monkeypatch):
    """MUTAG ships in the package; nothing here may need the shared data folder."""
    monkeypatch.setenv("SKLEARN_FAIR_DATA", "/nonexistent")
    graphs = load_mutag()
    assert len(graphs) == 188 and graphs.num_node_features == 7
    np.testing.assert_array_equal(np.bincount(graphs.y), [63, 125])
    assert graphs.edge_attr is None  # the paper did not use the edge labels
    torch.testing.assert_close(graphs[0].x.sum(dim=1), torch.ones(graphs[0].num_nodes))
    assert load_mutag(features="degree").num_node_features == 1


def test_enzymes_uses_its_node_attributes(tu_root):
    graphs = load_tu_dataset("ENZYMES", tu_root("ENZYMES"))
    assert graphs.num_node_features == 18 + 3
    assert load_tu_dataset("ENZYMES", tu_root("ENZYMES"), features="node-labels")[0].x.shape[1] == 3


def test_social_data_need_an_explicit_scheme(tu_root):
    root = tu_root("IMDB-BINARY")
    with pytest.raises(ValueError, match="features='constant'.*features='degree'"):
        load_tu_dataset("IMDB-BINARY", root)
    graphs = load_tu_dataset("IMDB-BINARY", root, features="degree")
    assert len(graphs) == 1000 and graphs[0].x.shape[1] == 1


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(features="labels"), r"'features' parameter.*Got 'labels'"),
        (dict(use_edge_attr="yes"), "'use_edge_attr' parameter"),
        (dict(drop_degenerate=1), "'drop_degenerate' parameter"),
    ],
)
def test_bad_parameters_are_named(kwargs, match):
    with pytest.raises(ValueError, match=match):
        load_tu_dataset("MUTAG", BUNDLED, **kwargs)
    assert set(FEATURE_SCHEMES) >= {"auto", "constant", "degree", "one-hot-degree"}


@pytest.mark.parametrize("name", ["../MUTAG", "MUTAG/raw", "", ".."])
def test_a_name_is_not_a_path(name):
    with pytest.raises(ValueError, match="'name' parameter"):
        load_tu_dataset(name, BUNDLED)


def test_a_missing_data_set_names_the_folder_and_never_downloads(tmp_path, monkeypatch):
    def no_network(*args, **kwargs):
        raise AssertionError("load_tu_dataset tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    with pytest.raises(FileNotFoundError) as error:
        load_tu_dataset("PROTEINS", tmp_path)
    message = str(error.value)
    assert str(tmp_path / "PROTEINS" / "raw") in message
    assert "PROTEINS_A.txt" in message and "download PROTEINS.zip" in message


class _Alarm:
    """Unpickling this writes a file: the proof that a pickle was loaded."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (Path.write_text, (Path(self.path), "unpickled"))


def test_processed_files_are_never_unpickled(tmp_path):
    shutil.copytree(BUNDLED / "MUTAG" / "raw", tmp_path / "MUTAG" / "raw")
    marker = tmp_path / "code-ran"
    processed = tmp_path / "MUTAG" / "processed"
    processed.mkdir()
    for name in ("data.pt", "pre_filter.pt", "pre_transform.pt", "MUTAG.pt"):
        (processed / name).write_bytes(pickle.dumps(_Alarm(marker)))
    graphs = load_tu_dataset("MUTAG", tmp_path)
    assert len(graphs) == 188
    assert not marker.exists()


def write_tu(folder, name="TOY", **files):
    """A TU data set from file contents; the defaults are 3 graphs of 2, 3 and 2 nodes."""
    contents = {
        "graph_indicator": "1\n1\n2\n2\n2\n3\n3\n",
        "A": "1, 2\n2, 1\n3, 4\n4, 5\n5, 3\n6, 7\n7, 6\n",
        "graph_labels": "1\n-1\n1\n",
        "node_labels": "0\n1\n1\n2\n0\n1\n1\n",
    }
    contents.update(files)
    raw = folder / name / "raw"
    raw.mkdir(parents=True, exist_ok=True)
    for part, text in contents.items():
        if text is not None:
            (raw / f"{name}_{part}.txt").write_text(text)
    return folder


def test_the_toy_data_set_reads(tmp_path):
    graphs = load_tu_dataset("TOY", write_tu(tmp_path))
    np.testing.assert_array_equal(graphs.y, [1, 0, 1])
    np.testing.assert_array_equal(graphs.node_counts, [2, 3, 2])
    assert graphs.num_node_features == 3
    np.testing.assert_array_equal(graphs[1].edge_index.numpy(), [[0, 1, 2], [1, 2, 0]])


@pytest.mark.parametrize(
    "files, where, match",
    [
        (dict(A="1, 2\n2, 1\n3, 4\n4, 9\n"), "TOY_A.txt, line 4", "out of range"),
        (dict(A="1, 2\n2, 3\n"), "TOY_A.txt, line 2", "joins graph 1 and graph 2"),
        (dict(graph_labels="1\n-1\n1\n1\n"), "TOY_graph_labels.txt has 4 lines", "more than"),
        (dict(graph_labels="1\n-1\n"), "TOY_graph_labels.txt has 2 lines", "fewer than"),
        (dict(node_labels="0\n1\nC\n2\n0\n1\n1\n"), "TOY_node_labels.txt, line 3", "'C' is not"),
        (dict(A="1, 2\n2, 1.5\n"), "TOY_A.txt, line 2", "'1.5' is not an integer"),
        (dict(A="1, 2\n\n2, 1\n"), "TOY_A.txt, line 2", "empty line"),
        (dict(A="1, 2\n2, 1, 3\n"), "TOY_A.txt, line 2", "3 values"),
        (dict(graph_indicator="1\n1\n3\n3\n3\n4\n4\n"), "indicator.txt, line 3", "graph id 3"),
        (dict(graph_indicator="1\n2\n1\n2\n2\n3\n3\n"), "indicator.txt, line 3", "after 2"),
        (dict(graph_indicator="2\n2\n"), "indicator.txt, line 1", "must be 1"),
        (dict(node_labels="0\n1\n1\n"), "TOY_node_labels.txt has 3 lines", "7 nodes"),
        (dict(edge_labels="1\n2\n"), "TOY_edge_labels.txt has 2 lines", "7 edges"),
        (dict(node_attributes="0.5\n1\n1\n2\nnan?\n1\n1\n"), "attributes.txt, line 5", "number"),
        # issue 28.3: empty or malformed files name the file and the field, no bare IndexError
        (dict(A=""), "TOY_A.txt is empty", "edge list"),
        (dict(A="\n"), "TOY_A.txt, line 1", "empty line"),
        (dict(A="1\n2\n"), "TOY_A.txt, line 1", "expected 2 .*edge list"),
        (dict(graph_indicator=""), "TOY_graph_indicator.txt is empty", "graph id of each node"),
        (dict(graph_labels=""), "TOY_graph_labels.txt is empty", "graph labels"),
        (dict(graph_labels="1, 2\n1, 2\n1, 2\n"), "graph_labels.txt, line 1", "expected 1"),
        (dict(node_labels=""), "TOY_node_labels.txt is empty", "node labels"),
        (dict(edge_attributes=""), "TOY_edge_attributes.txt is empty", "edge attributes"),
    ],
)
def test_inconsistent_raw_files_name_the_file_and_line(files, where, match, tmp_path):
    root = write_tu(tmp_path, **files)
    with pytest.raises(ValueError, match=match) as error:
        load_tu_dataset("TOY", root)
    assert where in str(error.value)


@pytest.mark.parametrize(
    "files, use_edge_attr, where, shown",
    [
        # np.eye(10**12 + 1) was asked for: numpy's "array is too big", naming no file; a
        # smaller label (10**5: 37 GiB) ran out of memory or made the machine swap
        (
            dict(node_labels="0\n1\n1\n2\n0\n1\n1000000000000\n"),
            False,
            "node_labels",
            "0 (line 1) to 1000000000000 (line 7)",
        ),
        (
            dict(node_labels="0\n1\n-1000000000000\n2\n0\n1\n1\n"),
            False,
            "node_labels",
            "-1000000000000 (line 3) to 2 (line 4)",
        ),
        # the subtraction from the minimum overflowed int64 (an IndexError)
        (
            dict(node_labels="0\n1\n1\n2\n0\n-9223372036854775808\n9223372036854775807\n"),
            False,
            "node_labels",
            "-9223372036854775808 (line 6) to 9223372036854775807 (line 7)",
        ),
        (
            dict(node_labels="0, 1\n1, 1\n1, 1\n2, 1\n0, 1\n1, 1\n1, 1000000000000\n"),
            False,
            "node_labels",
            "labels (column 2) run from 1 (line 1) to 1000000000000 (line 7)",
        ),
        (
            dict(edge_labels="0\n1\n1\n1000000000000\n0\n1\n1\n"),
            True,
            "edge_labels",
            "0 (line 1) to 1000000000000 (line 4)",
        ),
    ],
    ids=["node-label", "negative", "int64-ends", "second-column", "edge-label"],
)
def test_a_huge_label_is_refused_before_its_one_hot_table_is_built(
    files, use_edge_attr, where, shown, tmp_path
):
    """Files from elsewhere are hostile: one large label asked for a dense identity matrix of
    its size (TUDataset's encoding: a column for every value from the smallest label)."""
    root = write_tu(tmp_path, **files)
    with pytest.raises(TUFormatError) as error:
        load_tu_dataset("TOY", root, use_edge_attr=use_edge_attr)
    message = str(error.value)
    assert f"{root / 'TOY' / 'raw' / f'TOY_{where}.txt'}: the labels" in message
    assert shown in message
    assert f"more than the MAX_LABEL_COLUMNS={2**16} that a label file may ask for" in message


def test_labels_up_to_the_bounds_are_encoded_as_tudataset(tmp_path, monkeypatch):
    """Columns for the labels absent between the smallest and largest, as TUDataset: the
    bounds count them too; at the bounds the load is as before, one past them is refused."""
    root = write_tu(tmp_path, node_labels="3\n7\n7\n5\n3\n7\n7\n")  # 5 columns, 35 values
    reference = pyg_reference(tmp_path, "TOY", "auto", use_edge_attr=False)
    graphs = load_tu_dataset("TOY", root)
    assert graphs.num_node_features == 5
    for graph, theirs in zip(graphs, reference, strict=True):
        assert torch.equal(graph.x, theirs.x)
    monkeypatch.setattr(_datasets, "MAX_LABEL_COLUMNS", 5)
    monkeypatch.setattr(_datasets, "MAX_LABEL_VALUES", 35)
    np.testing.assert_array_equal(load_tu_dataset("TOY", root).x, graphs.x)
    monkeypatch.setattr(_datasets, "MAX_LABEL_COLUMNS", 4)
    with pytest.raises(TUFormatError, match=r"here 5 columns, more than the MAX_LABEL_COLUMNS=4"):
        load_tu_dataset("TOY", root)
    monkeypatch.setattr(_datasets, "MAX_LABEL_COLUMNS", 5)
    monkeypatch.setattr(_datasets, "MAX_LABEL_VALUES", 34)
    with pytest.raises(
        TUFormatError, match=r"5 columns for 7 rows, 35 values, more than the MAX_LABEL_VALUES=34"
    ):
        load_tu_dataset("TOY", root)
    # labels a scheme does not use are not encoded
    assert load_tu_dataset("TOY", root, features="degree").num_node_features == 1


def test_drop_degenerate_graphs_as_the_reference(tmp_path):
    # graph 1: one node; graph 2: two nodes, no edge; graph 3: two nodes, only a self-loop
    # (an edge for the reference's networkx graph, so kept); graph 4: a proper edge
    root = write_tu(
        tmp_path,
        graph_indicator="1\n2\n2\n3\n3\n4\n4\n",
        A="1, 1\n4, 4\n6, 7\n7, 6\n",
        graph_labels="1\n2\n1\n2\n",
        node_labels=None,
    )
    every = load_tu_dataset("TOY", root, features="degree")
    kept = load_tu_dataset("TOY", root, features="degree", drop_degenerate=True)
    assert len(every) == 4 and len(kept) == 2
    for ours, position in zip(kept, [2, 3], strict=True):
        for key in ("x", "edge_index", "y"):
            assert torch.equal(ours[key], every[position][key])
    np.testing.assert_array_equal(kept.y, [0, 1])  # labels encoded over all graphs first


@pytest.mark.parametrize(
    "name, features",
    [("PROTEINS", "auto"), ("NCI1", "auto"), ("IMDB-BINARY", "degree")],
)
def test_drop_degenerate_changes_none_of_our_data_sets(name, features, tu_root):
    """As the user guide states (computed over every data set of the shared folder)."""
    root = tu_root(name)
    graphs = load_tu_dataset(name, root, features=features)
    kept = load_tu_dataset(name, root, features=features, drop_degenerate=True)
    assert len(kept) == len(graphs)
    assert (graphs.node_counts > 1).all() and (graphs.edge_counts > 0).all()


def test_load_mutag_data_home_is_deprecated(tmp_path):
    with pytest.warns(FutureWarning, match="'data_home' parameter of load_mutag"):
        graphs = load_mutag(data_home=tmp_path)
    assert len(graphs) == 188
    assert not any(tmp_path.iterdir())  # nothing copied anywhere


def test_bundled_mutag_has_provenance():
    folder = BUNDLED / "MUTAG"
    assert "Licence" in (folder / "PROVENANCE.md").read_text()
    assert len(list((folder / "raw").iterdir())) == 6
