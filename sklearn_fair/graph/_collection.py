"""GraphCollection: many graphs in a few stacked numpy arrays.

Invariants (checked by the public constructor, kept by every operation): graph ``i`` owns the
rows ``node_ptr[i]:node_ptr[i + 1]`` of ``x`` and the columns ``edge_ptr[i]:edge_ptr[i + 1]``
of ``edge_index`` (and rows of ``edge_attr``); ``edge_index`` holds node ids local to their
graph, as PyG stores a data set, so one graph is a plain slice; only numpy arrays are held.
Why: PyG's ``InMemoryDataset``, once a label has been read, pickles every per-graph view with a
copy of the whole storage (3.5 GB for PROTEINS); this container is what a parallel run ships.
"""

import numbers

import numpy as np
import torch
from torch_geometric.data import Batch, Data

from ..utils import check_graphs
from ..utils._graphs import graphs_in_order

__all__ = ["GraphCollection", "labels_as_tensor", "stack_graphs"]

# Attributes of a Data object that a collection keeps; anything else is refused, not dropped.
_KNOWN_KEYS = {"x", "edge_index", "edge_attr", "y", "num_nodes"}
_ARRAYS = ("x", "edge_index", "node_ptr", "edge_ptr", "y", "edge_attr")


class GraphCollection:
    """Graphs for graph classification, stored as stacked numpy arrays.

    Behaves like a sequence of PyTorch Geometric ``Data`` objects (``len(c)``, ``c[i]``,
    iteration); ``c[indices]`` and ``c[start:stop]`` return a smaller collection. Its pickle
    holds only numpy arrays, so parallel workers get it at the size of the data (joblib
    memory-maps large arrays), and :func:`sklearn_fair.utils.fingerprint` hashes them directly.
    :func:`~sklearn_fair.graph.load_tu_dataset` returns one; :meth:`from_data_list` builds one.

    Parameters
    ----------
    x : array-like of shape (n_nodes_total, n_node_features) or (n_nodes_total,)
        Node features of all graphs, graph after graph (1-D: one feature, as in PyG).
    edge_index : array-like of int of shape (2, n_edges_total)
        Edges of all graphs, graph after graph, as node ids local to their graph
        (0 is the graph's first node).
    node_ptr : array-like of int of shape (n_graphs + 1,)
        Graph ``i`` owns the rows ``node_ptr[i]:node_ptr[i + 1]`` of ``x``.
    edge_ptr : array-like of int of shape (n_graphs + 1,)
        Graph ``i`` owns the columns ``edge_ptr[i]:edge_ptr[i + 1]`` of ``edge_index``.
    y : array-like of shape (n_graphs,), default=None
        One label per graph; ``None`` for unlabelled graphs.
    edge_attr : array-like of shape (n_edges_total, n_edge_features) or (n_edges_total,), \
default=None
        Edge features, in the order of ``edge_index`` (1-D: one feature).

    Attributes
    ----------
    x, edge_index, node_ptr, edge_ptr, y, edge_attr : ndarray or None
        The arrays above (``edge_index``, ``node_ptr`` and ``edge_ptr`` as int64).

    See Also
    --------
    sklearn_fair.graph.load_tu_dataset : TU data sets as a GraphCollection.

    Examples
    --------
    >>> import torch
    >>> from torch_geometric.data import Data
    >>> from sklearn_fair.graph import GraphCollection
    >>> triangle = Data(x=torch.ones(3, 2), edge_index=torch.tensor([[0, 1, 2], [1, 2, 0]]),
    ...                 y=torch.tensor([1]))
    >>> pair = Data(x=torch.zeros(2, 2), edge_index=torch.tensor([[0], [1]]), y=torch.tensor([0]))
    >>> graphs = GraphCollection.from_data_list([triangle, pair, triangle])
    >>> len(graphs), graphs.num_node_features, graphs.y
    (3, 2, array([1, 0, 1]))
    >>> graphs[1]
    Data(x=[2, 2], edge_index=[2, 1], y=[1])
    >>> graphs[[2, 1]].node_counts
    array([3, 2])
    """

    def __init__(self, x, edge_index, node_ptr, edge_ptr, *, y=None, edge_attr=None):
        x = np.asarray(x)
        indices = {"edge_index": edge_index, "node_ptr": node_ptr, "edge_ptr": edge_ptr}
        for name, array in indices.items():
            array = np.asarray(array)
            if array.size and array.dtype.kind not in "iu":
                raise ValueError(
                    f"The '{name}' parameter of GraphCollection must hold integers. "
                    f"Got dtype {array.dtype} instead."
                )
            indices[name] = array.astype(np.int64, copy=False)
        edge_index = indices["edge_index"].reshape(2, -1)
        node_ptr, edge_ptr = indices["node_ptr"], indices["edge_ptr"]
        _check_ptr("node_ptr", node_ptr, len(x), "rows of x")
        _check_ptr("edge_ptr", edge_ptr, edge_index.shape[1], "columns of edge_index")
        if len(node_ptr) != len(edge_ptr):
            raise ValueError(
                f"node_ptr and edge_ptr must have the same length (n_graphs + 1). Got "
                f"{len(node_ptr)} and {len(edge_ptr)} instead."
            )
        n_graphs = len(node_ptr) - 1
        if y is not None:
            y = np.asarray(y).reshape(-1)
            if len(y) != n_graphs:
                raise ValueError(
                    f"y holds {len(y)} labels for {n_graphs} graphs; give one label per graph."
                )
        if edge_attr is not None:
            edge_attr = np.asarray(edge_attr)
            if len(edge_attr) != edge_index.shape[1]:
                raise ValueError(
                    f"edge_attr has {len(edge_attr)} rows for {edge_index.shape[1]} edges; "
                    "give one row per edge."
                )
        self._set(x, edge_index, node_ptr, edge_ptr, y, edge_attr)
        check_graphs(self, "GraphCollection")  # the graphs' own rules, as for any graph input

    def _set(self, x, edge_index, node_ptr, edge_ptr, y, edge_attr):
        self.x = x
        self.edge_index = edge_index
        self.node_ptr = node_ptr
        self.edge_ptr = edge_ptr
        self.y = y
        self.edge_attr = edge_attr
        return self

    @classmethod
    def _from_checked(cls, *arrays, **named):
        """Build from arrays that already satisfy the invariants (no checks, no copies)."""
        return cls.__new__(cls)._set(*arrays, **named)

    @classmethod
    def from_data_list(cls, data_list):
        """Stack a sequence of PyTorch Geometric ``Data`` objects into a collection.

        Parameters
        ----------
        data_list : sequence of torch_geometric.data.Data
            Graphs with a node-feature matrix ``x`` and an ``edge_index``; either all or
            none carry a label ``y`` (one value each) and an ``edge_attr``.

        Returns
        -------
        collection : GraphCollection

        Raises
        ------
        ValueError
            If a graph has no ``x``, a label with several values, an attribute the collection
            cannot hold (rather than drop it), or if only some graphs have ``y`` or ``edge_attr``.
        """
        return stack_graphs(data_list, "data_list")

    def __len__(self):
        return len(self.node_ptr) - 1

    def __iter__(self):
        return (self._graph(index) for index in range(len(self)))

    def __getitem__(self, key):
        if isinstance(key, numbers.Integral) and not isinstance(key, bool):
            index = int(key)
            if not -len(self) <= index < len(self):
                raise IndexError(f"Graph index {index} is out of range for {len(self)} graphs.")
            return self._graph(index % len(self))
        if isinstance(key, slice):
            return self.take(np.arange(len(self))[key])
        given = type(key).__name__
        if isinstance(key, torch.Tensor):
            key = key.cpu().numpy()
        indices = np.asarray(key)
        if indices.ndim == 0 and indices.dtype.kind in "iu":  # tensor(3), as PyG's datasets
            return self[int(indices)]
        if indices.dtype == bool:
            if indices.shape != (len(self),):
                raise IndexError(
                    f"A boolean mask must have one entry per graph ({len(self)}). "
                    f"Got shape {indices.shape} instead."
                )
            indices = np.flatnonzero(indices)
        if indices.ndim != 1 or (indices.size and indices.dtype.kind not in "iu"):
            raise TypeError(
                "A GraphCollection is indexed by an int, a slice, a 1-D array of ints or a "
                f"boolean mask. Got {given} instead."
            )
        return self.take(indices)

    def take(self, indices):
        """Return the graphs at ``indices`` (repeats allowed) as a new collection.

        Parameters
        ----------
        indices : array-like of int of shape (n_selected,)
            Graph positions; negative values count from the end.

        Returns
        -------
        collection : GraphCollection
        """
        indices = np.asarray(indices, dtype=np.int64).reshape(-1)
        n_graphs = len(self)
        if indices.size and (indices.min() < -n_graphs or indices.max() >= n_graphs):
            bad = indices[(indices < -n_graphs) | (indices >= n_graphs)][0]
            raise IndexError(f"Graph index {int(bad)} is out of range for {n_graphs} graphs.")
        indices = indices % max(n_graphs, 1)
        node_rows, node_ptr = _gather(self.node_ptr, indices)
        edge_cols, edge_ptr = _gather(self.edge_ptr, indices)
        # np.take: a C-contiguous result, several times faster than fancy indexing on axis 1
        return self._from_checked(
            np.take(self.x, node_rows, axis=0),
            np.take(self.edge_index, edge_cols, axis=1),
            node_ptr,
            edge_ptr,
            None if self.y is None else np.take(self.y, indices),
            None if self.edge_attr is None else np.take(self.edge_attr, edge_cols, axis=0),
        )

    def _graph(self, index):
        first, last = self.node_ptr[index], self.node_ptr[index + 1]
        start, stop = self.edge_ptr[index], self.edge_ptr[index + 1]
        # copies: the arrays may be read-only memory maps in a joblib worker
        fields = {
            "x": torch.from_numpy(np.array(self.x[first:last])),
            "edge_index": torch.from_numpy(np.array(self.edge_index[:, start:stop])),
        }
        if self.edge_attr is not None:
            fields["edge_attr"] = torch.from_numpy(np.array(self.edge_attr[start:stop]))
        if self.y is not None:
            fields["y"] = labels_as_tensor(np.array(self.y[index : index + 1]))
        return Data(**fields)

    @property
    def node_counts(self):
        """ndarray of shape (n_graphs,): the number of nodes of each graph."""
        return np.diff(self.node_ptr)

    @property
    def edge_counts(self):
        """ndarray of shape (n_graphs,): the number of edges of each graph."""
        return np.diff(self.edge_ptr)

    @property
    def num_node_features(self):
        """int: the number of node features (columns of ``x``; 1 for a 1-D ``x``, as in PyG)."""
        return 1 if self.x.ndim == 1 else int(self.x.shape[-1])

    @property
    def num_edge_features(self):
        """int or None: the number of edge features, ``None`` without ``edge_attr`` or with one
        of width 0 (no edge feature)."""
        if self.edge_attr is None:
            return None
        return 1 if self.edge_attr.ndim == 1 else int(self.edge_attr.shape[-1]) or None

    @property
    def num_classes(self):
        """int: the number of distinct labels (0 for unlabelled graphs)."""
        return 0 if self.y is None else len(np.unique(self.y))

    def __graph_arrays__(self):
        """The arrays: the hook of ``utils.check_graphs`` (and ``utils.fingerprint``'s)."""
        return {key: getattr(self, key) for key in _ARRAYS}

    __fingerprint__ = __graph_arrays__

    def __graph_labels__(self):
        """The label of every graph, or None (the fast path of ``utils.read_graph_labels``,
        which says what is missing)."""
        return self.y

    def __repr__(self):
        edge = self.num_edge_features
        edge = "" if edge is None else f", num_edge_features={edge}"
        labels = "" if self.y is not None else ", unlabelled"
        return (
            f"GraphCollection(n_graphs={len(self)}, n_nodes={len(self.x)}, "
            f"n_edges={self.edge_index.shape[1]}, num_node_features={self.num_node_features}"
            f"{edge}{labels})"
        )


def labels_as_tensor(labels):
    """Numeric labels as a tensor; others (str, object) as they are: torch holds no such tensor."""
    return torch.from_numpy(labels) if labels.dtype.kind in "biuf" else labels


def _gather(ptr, indices):
    """The rows of the graphs ``indices`` (in that order) and their new pointer."""
    starts = ptr[indices]
    counts = ptr[indices + 1] - starts
    new_ptr = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=new_ptr[1:])
    positions = np.arange(new_ptr[-1], dtype=np.int64) + np.repeat(starts - new_ptr[:-1], counts)
    return positions, new_ptr


def _check_ptr(name, ptr, total, what):
    if ptr.ndim != 1 or len(ptr) < 1 or ptr[0] != 0 or ptr[-1] != total:
        raise ValueError(
            f"The '{name}' parameter of GraphCollection must be a 1-D array from 0 to the "
            f"number of {what} ({total}). Got {ptr[:3].tolist()}...{ptr[-1:].tolist()} instead."
        )
    if np.any(np.diff(ptr) < 0):
        raise ValueError(f"The '{name}' parameter of GraphCollection must be non-decreasing.")


def stack_graphs(data_list, name):
    """:meth:`GraphCollection.from_data_list`, naming ``name`` in its errors: what a collection
    cannot hold is refused here, everything else by :func:`~sklearn_fair.utils.check_graphs`."""
    if isinstance(data_list, Data):
        what = (
            f"a PyG Batch of {data_list.num_graphs} graphs; pass batch.to_data_list()"
            if isinstance(data_list, Batch)
            else "a single Data object; wrap it in a list"
        )
        raise TypeError(
            f"{name} must be a sequence of graphs (a GraphCollection, a PyG dataset, a list or "
            f"a numpy object array of Data objects), not {what}."
        )
    if isinstance(data_list, np.ndarray) and data_list.ndim != 1:
        raise TypeError(
            f"{name} is a numpy array of shape {data_list.shape}; graphs in a numpy array go in "
            "a 1-D object array, one Data object per item. np.array(graphs, dtype=object) "
            "unpacks each Data object into its (key, value) pairs: build the array with "
            "array = np.empty(len(graphs), dtype=object); array[:] = graphs, or pass the list."
        )
    try:
        graphs = graphs_in_order(data_list)
    except (TypeError, KeyError) as exc:
        raise TypeError(
            f"{name} must be a sequence of graphs (a GraphCollection, a PyG dataset, a list "
            f"or a numpy object array of Data objects). Got {type(data_list).__name__} instead."
        ) from exc
    for index, graph in enumerate(graphs):
        if not isinstance(graph, Data):
            raise TypeError(
                f"Graph {index} of {name} is a {type(graph).__name__}, not a torch_geometric "
                f"Data object; {name} must be a sequence of Data objects."
            )
        extra = sorted(set(graph.keys()) - _KNOWN_KEYS)
        if extra:
            raise ValueError(
                f"Graph {index} of {name} has the attributes {extra}, which a GraphCollection "
                "does not hold (it keeps x, edge_index, edge_attr and y)."
            )
    arrays = check_graphs(graphs, name, require_x=True)  # a collection holds an x
    return GraphCollection._from_checked(**arrays)
