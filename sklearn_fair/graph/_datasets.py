"""TU graph-classification data sets with the node-feature schemes of the fair-comparison paper.

The raw files parsed by ``utils._tu_format`` become the arrays PyG's ``TUDataset`` builds from them
(self-loops removed, edges coalesced by PyG's own functions, labels one-hot encoded per column
from their minimum, graph labels mapped to 0..C-1 in sorted order), then the feature scheme.
Unlike PyG's ``TUDataset``, edge labels are kept (as ``edge_attr``) only with
``use_edge_attr=True``.

A one-hot column stands for every value from a column's minimum to its maximum, present or not
(as in ``TUDataset``: DD's node labels run from 1 to 89, 82 of them present, and give 89
columns), so one large label in a file from elsewhere would ask for any number of columns. A
label file whose one-hot table would be wider than ``MAX_LABEL_COLUMNS`` or hold more than
``MAX_LABEL_VALUES`` values is refused before anything is built, naming the file and the
labels (labels that are not used, as node labels with ``features='degree'``, are not
encoded); within these bounds the features are ``TUDataset``'s.
"""

import os
import re
import warnings
from numbers import Integral
from pathlib import Path

import numpy as np
import torch
from sklearn.utils._param_validation import Interval, StrOptions, validate_params
from torch_geometric.utils import coalesce, remove_self_loops

from ..utils._stacklevel import external_stacklevel
from ..utils._tu_format import (
    FEATURE_SCHEMES,
    MAX_TU_SIZE,
    NODE_LABEL_SCHEMES,
    TUFormatError,
    no_node_features,
    read_tu_files,
    uses_node_attributes,
)
from ._collection import GraphCollection

__all__ = ["FEATURE_SCHEMES", "load_mutag", "load_tu_dataset"]

#: The most one-hot columns the labels of one file may give (its columns together): 65,536;
#: the paper's data sets need at most 89 (DD's node labels).
MAX_LABEL_COLUMNS = 2**16
#: The most values the one-hot table of one label file may hold (rows times columns): 2**30,
#: 4 GiB as float32; the paper's data sets need at most 29.8 million (DD's node labels).
MAX_LABEL_VALUES = 2**30

_BUNDLED = Path(__file__).resolve().parent / "data"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]*")


@validate_params(
    {
        "name": [str],
        "root": [str, os.PathLike],
        "features": [StrOptions(set(FEATURE_SCHEMES))],
        "use_edge_attr": ["boolean"],
        "drop_degenerate": ["boolean"],
        "max_size": [Interval(Integral, 1, None, closed="left")],
    },
    prefer_skip_nested_validation=True,
)
def load_tu_dataset(
    name,
    root,
    *,
    features="auto",
    use_edge_attr=False,
    drop_degenerate=False,
    max_size=MAX_TU_SIZE,
):
    """Load a TU graph-classification data set with the paper's node features.

    Reads the text files of ``root/name/raw/`` (the layout of PyTorch Geometric's
    ``TUDataset``) and returns the graphs, features and labels ``TUDataset`` would, in a
    :class:`~sklearn_fair.graph.GraphCollection`. The node features follow Errica et al., "A
    Fair Comparison of Graph Neural Networks for Graph Classification" (ICLR 2020): chemical
    data sets use the one-hot node labels (ENZYMES also its 18 continuous node attributes);
    social data sets, without node labels, get a constant 1 on every node or the node degree.

    Nothing is downloaded, and no processed or pickled file is read (``processed/`` is
    ignored), so a data folder cannot run code. The raw files are checked: a value that is
    not a number, a node id out of range, an edge between two graphs, an unsorted graph
    indicator, or a file with more or fewer lines than it needs raises a ValueError naming
    the file and the line. Only regular files are read (a link to one is followed): a raw
    file that is a FIFO, a device, a folder or a link leading nowhere is refused, naming it,
    and the raw files may hold at most ``max_size`` bytes together.

    Node and edge labels are one-hot encoded as ``TUDataset`` does it: a column for every
    value from the smallest label to the largest, present or not. A label file whose one-hot
    table would be wider than 65,536 columns (``MAX_LABEL_COLUMNS``) or hold more than 2**30
    values (``MAX_LABEL_VALUES``, 4 GiB) is refused with a ValueError naming the file, the
    smallest and largest label and their lines, so one stray large label cannot make the load
    allocate without bound; the paper's widest, DD's node labels, need 89 columns. Labels
    are encoded only where they are used: node labels for the schemes built from them, edge
    labels with ``use_edge_attr=True``.

    Parameters
    ----------
    name : str
        Name of the TU data set, e.g. ``"MUTAG"``, ``"PROTEINS"``, ``"NCI1"``,
        ``"IMDB-BINARY"``.
    root : str or path-like
        Folder that holds ``name/raw/name_A.txt`` and the other raw files (read only).
    features : str, default="auto"
        Node-feature scheme, a key of :data:`FEATURE_SCHEMES`. ``"auto"`` is the paper's
        choice for chemical data and raises for data sets without node labels, because the
        paper reported both ``"constant"`` and ``"degree"`` there.
    use_edge_attr : bool, default=False
        Keep the edge attributes and one-hot edge labels as ``edge_attr``, which the paper
        did not use.
    drop_degenerate : bool, default=False
        Drop the graphs with at most one node or without edges (self-loops count), as the
        paper's reference code builds a data set (its REDDIT-MULTI-5K split file indexes
        4,999 of 5,000 graphs); labels and feature widths are computed before, as there.
        MUTAG, PTC_MR, NCI1, PROTEINS(_full), ENZYMES, DD, IMDB-BINARY, IMDB-MULTI,
        REDDIT-BINARY and COLLAB hold no such graph.
    max_size : int, default=2**32
        The most bytes the raw files (those of the format that are there) may hold
        together, 4 GiB: a larger data set is refused before any file is read, and a file
        that grows while it is read is refused there; the largest data set of the paper,
        COLLAB, holds 365 MB. A folder from elsewhere cannot make the load read more.

    Returns
    -------
    graphs : GraphCollection
        Indexable (``graphs[i]`` is a ``Data`` object with ``x``, ``edge_index`` and the
        label ``y``), so scikit-learn can split it; the labels are ``graphs.y``.

    Raises
    ------
    FileNotFoundError
        If ``root/name/raw`` lacks ``name_graph_indicator.txt``, ``name_A.txt`` or
        ``name_graph_labels.txt``; the message names them and says where to get them.
    ValueError
        If ``features`` is not a known scheme, or is ``"auto"`` (or ``"node-labels"``)
        for a data set without node labels, if a raw file is inconsistent or is not a
        regular file, if the raw files hold more than ``max_size`` bytes, if the labels of
        a file span more one-hot columns or values than the bounds above, or if
        ``features="one-hot-degree"`` would hold more than ``MAX_LABEL_VALUES`` values
        (nodes times the largest degree plus one).

    Examples
    --------
    >>> from pathlib import Path
    >>> import sklearn_fair.graph
    >>> from sklearn_fair.graph import load_tu_dataset
    >>> bundled = Path(sklearn_fair.graph.__file__).parent / "data"   # MUTAG ships here
    >>> graphs = load_tu_dataset("MUTAG", bundled, features="degree")
    >>> len(graphs), graphs.num_node_features
    (188, 1)
    >>> graphs[0]
    Data(x=[17, 1], edge_index=[2, 38], y=[1])
    """
    # a name becomes a path: no separator, no '..'
    if not _NAME.fullmatch(name) or ".." in name:
        raise ValueError(
            "The 'name' parameter of load_tu_dataset must be the name of a TU data set (letters, "
            f"digits, '_', '-', '.'), e.g. 'PROTEINS'. Got {name!r} instead."
        )
    raw = Path(root) / name / "raw"
    files = read_tu_files(name, raw, max_size)
    use_node_attr = uses_node_attributes(name, features)
    n_nodes = len(files.node_graph)
    x = None
    if features in NODE_LABEL_SCHEMES:
        # the other schemes replace x: their node labels are read and checked, not encoded
        attributes = _as_float32(files.node_attributes, n_nodes)
        labels = _one_hot_columns(files.node_labels, n_nodes, raw / f"{name}_node_labels.txt")
        if labels.shape[1] == 0 and not (use_node_attr and attributes.shape[1]):
            raise ValueError(no_node_features(name, features))
        x = np.concatenate([attributes, labels], axis=1) if use_node_attr else labels

    n_edges = len(files.edges)
    edge_attr = None
    if use_edge_attr:
        edge_attr = np.concatenate(
            [
                _as_float32(files.edge_attributes, n_edges),
                _one_hot_columns(files.edge_labels, n_edges, raw / f"{name}_edge_labels.txt"),
            ],
            axis=1,
        )
        edge_attr = edge_attr if edge_attr.shape[1] else None
    rows, cols, edge_attr = _coalesce(files.edges, edge_attr, n_nodes)

    if features == "constant":
        x = np.ones((n_nodes, 1), dtype=np.float32)
    elif features in ("degree", "one-hot-degree"):
        degree = np.bincount(rows, minlength=n_nodes)
        if features == "degree":
            x = degree.astype(np.float32).reshape(-1, 1)
        else:
            x = _one_hot_degree(degree, raw / f"{name}_A.txt", files.node_graph)

    n_graphs = files.n_graphs
    node_ptr = np.cumsum([0, *np.bincount(files.node_graph, minlength=n_graphs)], dtype=np.int64)
    edge_graph = files.node_graph[rows]
    edge_ptr = np.cumsum([0, *np.bincount(edge_graph, minlength=n_graphs)], dtype=np.int64)
    offsets = node_ptr[edge_graph]
    edge_index = np.stack([rows - offsets, cols - offsets])
    y = np.unique(files.graph_labels, return_inverse=True)[1].astype(np.int64)
    graphs = GraphCollection(x, edge_index, node_ptr, edge_ptr, y=y, edge_attr=edge_attr)
    if drop_degenerate:
        graphs = graphs[~files.degenerate()]
    return graphs


def _coalesce(edges, edge_attr, n_nodes):
    """What TUDataset does to the edge list: PyG's ``remove_self_loops`` then ``coalesce``
    (sorted, unique edges, the attributes of repeated edges summed). As fast as the numpy copy
    they replaced (13 ms against 17 ms on PROTEINS, 114 ms each on REDDIT-BINARY), and equal."""
    edge_index = torch.from_numpy(np.ascontiguousarray(edges.T, dtype=np.int64))
    attr = None if edge_attr is None else torch.from_numpy(np.ascontiguousarray(edge_attr))
    edge_index, attr = remove_self_loops(edge_index, attr)
    edge_index, attr = coalesce(edge_index, attr, num_nodes=n_nodes, reduce="sum")
    rows, cols = edge_index.numpy()
    return rows, cols, None if attr is None else attr.numpy()


def _as_float32(table, n_rows):
    if table is None:
        return np.zeros((n_rows, 0), dtype=np.float32)
    return table.astype(np.float32)


def _one_hot_columns(table, n_rows, path):
    """Each label column shifted to start at 0, one-hot encoded up to its maximum, side by side.

    ``path`` is the file the labels come from: a table wider than ``MAX_LABEL_COLUMNS`` or
    larger than ``MAX_LABEL_VALUES`` is refused, naming it, before anything is allocated."""
    if table is None:
        return np.zeros((n_rows, 0), dtype=np.float32)
    if not len(table):
        return np.zeros((0, table.shape[1]), dtype=np.float32)
    low, high = table.argmin(axis=0), table.argmax(axis=0)
    # Python ints: labels near both ends of int64 would overflow a numpy subtraction
    widths = [int(table[h, j]) - int(table[lo, j]) + 1 for j, (lo, h) in enumerate(zip(low, high))]
    width = sum(widths)
    values = len(table) * width
    if width > MAX_LABEL_COLUMNS or values > MAX_LABEL_VALUES:
        j = int(np.argmax(widths))
        column = f" (column {j + 1})" if table.shape[1] > 1 else ""
        if width > MAX_LABEL_COLUMNS:
            asked = f"{width} columns, more than the MAX_LABEL_COLUMNS={MAX_LABEL_COLUMNS}"
        else:
            asked = (
                f"{width} columns for {len(table)} rows, {values} values, more than the "
                f"MAX_LABEL_VALUES={MAX_LABEL_VALUES}"
            )
        raise TUFormatError(
            f"{path}: the labels{column} run from {table[low[j], j]} (line {low[j] + 1}) to "
            f"{table[high[j], j]} (line {high[j] + 1}). PyTorch Geometric's TUDataset one-hot "
            "encodes them with a column for every value from the smallest to the largest: "
            f"here {asked} that a label file may ask for. TU labels are small integers (the "
            "paper's data sets need at most 89 columns): check the file."
        )
    columns = (table - table.min(axis=0)).T
    return np.concatenate([_one_hot(c, w) for c, w in zip(columns, widths)], axis=1)


def _one_hot_degree(degree, path, node_graph):
    """``features='one-hot-degree'``: a column for every degree up to the largest; a table of
    more than ``MAX_LABEL_VALUES`` values is refused, naming the node of largest degree in
    ``path`` (the edge file), before anything is allocated."""
    width = int(degree.max(initial=0)) + 1
    values = len(degree) * width
    if values > MAX_LABEL_VALUES:
        node = int(np.argmax(degree))
        raise TUFormatError(
            f"{path}: node {node + 1} (of graph {node_graph[node] + 1}) has degree {width - 1}, "
            "so features='one-hot-degree' asks for a column for every degree "
            f"from 0 to {width - 1}: {width} columns for {len(degree)} nodes, {values} "
            f"values ({values * 4 / 2**30:.1f} GiB as float32), more than the "
            f"MAX_LABEL_VALUES={MAX_LABEL_VALUES} that a data set may ask for. Use "
            "features='degree' (the degree as one feature) or 'constant', as the paper did "
            "for social data sets, or check the file."
        )
    return _one_hot(degree, width)


def _one_hot(codes, width):
    """Rows of ``width`` float32 zeros with a 1 at each of ``codes`` (no ``width`` squared
    identity matrix, as ``np.eye(width)[codes]`` would build first)."""
    out = np.zeros((len(codes), width), dtype=np.float32)
    out[np.arange(len(codes)), codes] = 1
    return out


@validate_params(
    {"features": [StrOptions(set(FEATURE_SCHEMES))], "data_home": "no_validation"},
    prefer_skip_nested_validation=True,
)
def load_mutag(*, features="auto", data_home=None):
    """Load MUTAG, bundled with sklearn-fair, so the graph examples run offline.

    MUTAG (Debnath et al., 1991) holds 188 nitroaromatic compounds labelled by their
    mutagenic effect on a bacterium (125 mutagenic, 63 not); nodes are atoms with 7
    labels. The raw TU files ship in ``sklearn_fair/graph/data/MUTAG`` (see its
    ``PROVENANCE.md``) and are read in place.

    Parameters
    ----------
    features : str, default="auto"
        Node-feature scheme, see :func:`load_tu_dataset`; ``"auto"`` gives the one-hot
        atom labels (7 features).
    data_home : None
        Deprecated and unused: the bundled files are no longer copied anywhere.

    Returns
    -------
    graphs : GraphCollection
        The 188 graphs, labels in ``graphs.y`` (0: not mutagenic, 1: mutagenic).

    Examples
    --------
    >>> from sklearn_fair.graph import load_mutag
    >>> graphs = load_mutag()
    >>> len(graphs), graphs.num_node_features, graphs.num_classes
    (188, 7, 2)
    """
    graphs = load_tu_dataset("MUTAG", _BUNDLED, features=features)
    if data_home is not None:
        warnings.warn(
            "The 'data_home' parameter of load_mutag is deprecated and has no effect: the "
            "bundled MUTAG files are read in place. Leave it out.",
            FutureWarning,
            stacklevel=external_stacklevel(),
        )
    return graphs
