"""Graph data without torch: recognising it, checking it (:func:`check_graphs`, the one check of
every graph input), reading one class label per graph, tensors as arrays, and packing PyG's
containers compactly for worker processes (torch imported only when graphs are packed)."""

import contextlib
import copy
import numbers
import sys

import numpy as np


def to_numpy(value):
    """Return ``value`` as a numpy array; a torch tensor is detached and moved to the CPU first.

    A floating-point tensor of a dtype numpy lacks (``bfloat16``, the ``float8`` types) comes
    back as float32, which holds each of its values exactly.

    Parameters
    ----------
    value : array-like or torch.Tensor
        Anything ``numpy.asarray`` takes, or a tensor (torch is never imported here).

    Returns
    -------
    array : ndarray

    Examples
    --------
    >>> from sklearn_fair.utils import to_numpy
    >>> to_numpy([1, 2, 3])
    array([1, 2, 3])
    """
    if is_tensor(value):
        value = value.detach().cpu()
        try:
            value = value.numpy()
        except TypeError:  # "Got unsupported ScalarType BFloat16"
            if not value.is_floating_point():
                raise
            # numpy's floats are float16/32/64: the others are narrower than float32
            value = value.float().numpy()
    return np.asarray(value)


def is_tensor(value):
    """Whether ``value`` is a torch tensor, without importing torch: a tensor exists only once
    torch is imported (a PyG ``Data`` has ``detach`` and ``cpu`` methods too)."""
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(value, torch.Tensor)


def is_graph_data(X):
    """Whether ``X`` is a sequence of graph objects: indexable, its first item has a ``.y``.

    Arrays with a ``shape`` (numpy, pandas, scipy's sparse matrices) are tabular, except a
    1-D object array whose first item is a graph, or a pandas Series whose first item (by
    position) is a graph with an ``edge_index`` attribute (as a PyG ``Data`` has); so is an
    item with a ``shape``: ``(df, y)`` is a DataFrame and its labels, though a DataFrame
    with a column ``y`` has an attribute ``y``.
    """
    pandas = sys.modules.get("pandas")  # imported wherever a pandas Series is
    series = pandas is not None and isinstance(X, pandas.Series)
    if isinstance(X, np.ndarray) or series:
        if not (X.dtype == object and X.ndim == 1 and len(X) > 0):
            return False
        first = _first(X)
        # a Series of graphs has an edge_index too (a PyG Data has one, None where unset): a
        # Series of points (shapely's, a namedtuple Point(x, y)) is a table's column
        return _is_graph(first) and (not series or hasattr(first, "edge_index"))
    if hasattr(X, "shape") or isinstance(X, (str, bytes)):
        return False
    try:
        return len(X) > 0 and _is_graph(X[0])
    except (TypeError, IndexError, KeyError):
        return False


def read_as_graphs(name):
    """Why ``name`` (a list or object array) was read as graphs, for an error about one of its
    items: a user's objects with a ``y`` (points) are taken for graphs there."""
    return (
        f"({name} was read as a sequence of graphs because its first item has a 'y' "
        "attribute, as a PyG Data has. If its items are not graphs, e.g. points with x and y, "
        "pass them as a pandas Series, or their fields as a DataFrame or 2-D array.)"
    )


def _is_graph(item):
    # a DataFrame's shape is its class's (a PyG Data object may hold a field named shape)
    return hasattr(item, "y") and not hasattr(type(item), "shape")


def _first(X):
    return X.iloc[0] if hasattr(X, "iloc") else X[0]


def graphs_in_order(X):
    """The graphs of ``X`` as a list, by position: a pandas Series by ``.iloc``, as
    scikit-learn's ``_safe_indexing`` reads it (``X[i]`` would look up the index label ``i``,
    another graph once the Series was shuffled), anything else by ``X[i]``."""
    items = X.iloc if hasattr(X, "iloc") else X
    return [items[index] for index in range(len(X))]


def read_graph_labels(X):
    """Return the class label of every graph in ``X`` as a 1-D numpy array.

    Parameters
    ----------
    X : sequence of graphs
        A PyTorch Geometric dataset, a list, object array or pandas Series (read by position)
        of ``Data`` objects, or anything indexable whose items carry a label ``.y`` (holding
        exactly one value).

    Returns
    -------
    y : ndarray of shape (n_graphs,)

    Raises
    ------
    ValueError
        Naming the first graph without a label, or with more than one value.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> from sklearn_fair.utils import read_graph_labels
    >>> graphs = [SimpleNamespace(y=[1]), SimpleNamespace(y=0), SimpleNamespace(y=[1])]
    >>> read_graph_labels(graphs)
    array([1, 0, 1])
    """
    if hasattr(type(X), "__graph_labels__"):  # a container that stores its labels together
        labels = X.__graph_labels__()
        if labels is not None:  # None: the loop below names graph 0 as unlabelled
            return np.asarray(labels)
    labels = []
    for index, graph in enumerate(graphs_in_order(X)):
        label = getattr(graph, "y", None)
        if label is None:
            raise ValueError(
                f"Graph {index} of X has no label (its 'y' is missing or None); "
                "every graph needs exactly one class label, or pass y explicitly."
            )
        labels.append(_one_label(label, index, "X"))
    return np.asarray(labels)


def _one_label(label, index, name):
    values = to_numpy(label).reshape(-1)
    if values.size != 1:
        raise ValueError(
            f"Graph {index} of {name} has {values.size} label values {values.tolist()[:5]}; "
            "graph classification needs exactly one label per graph."
        )
    return values[0]


def check_graphs(X, name="X", *, require_x=False):
    """Check graphs before any fit: the one check of GraphCollection, GraphClassifier and NestedCV.

    What PyG gives a meaning to is checked where present: ``x`` (real, finite, one width, of
    shape ``(n_nodes, n_features)`` with ``n_features >= 1`` or ``(n_nodes,)``),
    ``edge_index`` (integers of shape ``(2, n_edges)``, ids local to the graph), ``edge_attr``
    (one row per edge, real, finite, one width, of shape ``(n_edges, n_features)`` or
    ``(n_edges,)``), ``y`` (one value) and
    an explicit ``num_nodes`` (the rows of ``x``). ``x``, ``edge_attr`` and ``y`` are on every
    graph or on none, and a graph whose node count is known has a node. Other attributes are
    not read. A graph without ``x`` is named, with the node-feature schemes that give it one,
    in the same words wherever it is refused.

    Parameters
    ----------
    X : sequence of graphs
        A GraphCollection, a PyG dataset, or any indexable sequence of such objects (a
        pandas Series is read by position).
    name : str, default="X"
        How the errors name ``X``.
    require_x : bool, default=False
        Whether graphs without a node-feature matrix ``x`` are refused, as by the estimators
        that read it (:class:`~sklearn_fair.graph.GraphClassifier`,
        :class:`~sklearn_fair.graph.GraphCollection`). Otherwise graphs of which none has
        ``x`` are taken, e.g. for an estimator that reads only their structure or labels.

    Returns
    -------
    arrays : dict
        The graphs stacked as a GraphCollection stores them (``x``, ``edge_index``,
        ``node_ptr``, ``edge_ptr``, ``y``, ``edge_attr``); None where absent or unknown.

    Raises
    ------
    ValueError
        Naming the first wrong graph by its position in ``X``, and what is wrong.

    Examples
    --------
    >>> import numpy as np
    >>> from types import SimpleNamespace
    >>> from sklearn_fair.utils import check_graphs
    >>> ring = SimpleNamespace(x=np.ones((3, 2)), edge_index=np.array([[0, 1, 2], [1, 2, 0]]), y=1)
    >>> check_graphs([ring, ring])["node_ptr"]
    array([0, 3, 6])
    >>> wide = SimpleNamespace(x=np.ones((3, 4)), edge_index=np.zeros((2, 0), dtype=int), y=0)
    >>> check_graphs([ring, wide])
    Traceback (most recent call last):
    ...
    ValueError: The graphs of X have node-feature matrices of different widths [2, 4] ...
    """
    if not len(X):
        raise ValueError(f"{name} holds no graphs; at least one graph is needed.")
    if hasattr(type(X), "__graph_arrays__"):  # a container that stores its graphs stacked
        arrays = X.__graph_arrays__()
    else:
        arrays = _stack(graphs_in_order(X), name)
    if require_x and arrays["x"] is None:
        raise ValueError(missing_x(0, name))
    _check_stacked(arrays, name)
    return arrays


def torch_state_kept():
    """A PyG dataset's random transform draws from torch as its graphs are read: inside, the
    user's global torch random state is left as it was, as fits and predictions leave it."""
    torch = sys.modules.get("torch")  # only graphs of a torch-using X draw from it
    return torch.random.fork_rng(devices=[]) if torch else contextlib.nullcontext()


def reads_node_features(estimator):
    """Whether ``estimator`` fits on the graphs' ``x`` (a GraphClassifier), without importing
    torch: a GraphClassifier exists only once its module is imported."""
    module = sys.modules.get("sklearn_fair.graph._classifier")
    return module is not None and isinstance(estimator, module.GraphClassifier)


def missing_x(index, name, other=None):
    """Why graph ``index`` of ``name`` without ``x`` is refused (``other``: a graph that has
    one): the one message of every check, with the node-feature schemes that give it one."""
    rule = (
        ""
        if other is None
        else f" but graph {other} has one; either every graph has node features or none has"
    )
    return (
        f"Graph {index} of {name} has no node-feature matrix 'x'{rule}. Graphs without node "
        "features (e.g. the social TU data sets) need a feature scheme: load them with "
        "load_tu_dataset(name, root, features='constant') for a constant 1 per node, "
        "features='degree' for the node degree, or features='one-hot-degree'; or give a PyG "
        "dataset one with transform=torch_geometric.transforms.Constant() (a constant 1 per "
        "node) or transform=torch_geometric.transforms.OneHotDegree(max_degree)."
    )


def _field(graph, key):
    keys = getattr(graph, "keys", None)
    if callable(keys):  # a PyG Data: read only what it stores (its num_nodes would guess)
        return graph[key] if key in keys() else None
    return getattr(graph, key, None)


def _all_or_none(values, key, what, name):
    present = [value is not None for value in values]
    if any(present) and not all(present):
        missing, given = present.index(False), present.index(True)
        if key == "x":
            raise ValueError(missing_x(missing, name, given))
        raise ValueError(
            f"Graph {missing} of {name} has no {what} ({key!r}) but graph {given} has; "
            f"either every graph has {what} or none has."
        )
    return all(present)


def _same_widths(arrays, kind, name):
    widths = [array.shape[1:] for array in arrays]
    if len(set(widths)) > 1:
        index = next(i for i, width in enumerate(widths) if width != widths[0])
        sizes = sorted({int(np.prod(width)) for width in widths})
        raise ValueError(
            f"The graphs of {name} have {kind}-feature matrices of different widths {sizes} "
            f"(graph 0: {widths[0]}, graph {index}: {widths[index]} per {kind}); every graph "
            f"needs the same {kind} features."
        )


def _stack(graphs, name):
    """The arrays of the graphs stacked, with what only the single graphs can tell checked."""
    rows = []
    for index, graph in enumerate(graphs):
        x, edge_index, edge_attr, label, num_nodes = (
            _field(graph, key) for key in ("x", "edge_index", "edge_attr", "y", "num_nodes")
        )
        if x is not None:
            x = to_numpy(x)
            if x.ndim == 0 or num_nodes not in (None, len(x)):
                given = "" if num_nodes is None else f" and num_nodes={num_nodes}"
                raise ValueError(
                    f"Graph {index} of {name} has 'x' of shape {x.shape}{given}; 'x' needs "
                    f"one row per node. {read_as_graphs(name)}"
                )
            num_nodes = len(x)
        edge_index = to_numpy([] if edge_index is None else edge_index)
        if not edge_index.size:
            edge_index = np.zeros((2, 0), np.int64)
        if edge_index.ndim != 2 or len(edge_index) != 2 or edge_index.dtype.kind not in "iu":
            raise ValueError(
                f"Graph {index} of {name} has an 'edge_index' of shape {edge_index.shape} and "
                f"dtype {edge_index.dtype}; it must hold integers, of shape (2, n_edges)."
            )
        if edge_attr is not None:
            edge_attr = to_numpy(edge_attr)
            if edge_attr.ndim == 0 or len(edge_attr) != edge_index.shape[1]:
                raise ValueError(
                    f"Graph {index} of {name} has 'edge_attr' of shape {edge_attr.shape} for "
                    f"{edge_index.shape[1]} edges; 'edge_attr' needs one row per edge."
                )
        if label is not None:
            label = _one_label(label, index, name)
        rows.append((x, edge_index.astype(np.int64, copy=False), edge_attr, label, num_nodes))
    xs, edges, attrs, labels, counts = zip(*rows)
    arrays = {
        "x": None,
        "edge_index": np.concatenate(edges, axis=1),
        "node_ptr": None,
        "edge_ptr": np.cumsum([0, *(edge_index.shape[1] for edge_index in edges)], dtype=np.int64),
        "y": None,
        "edge_attr": None,
    }
    if _all_or_none(xs, "x", "node features", name):
        _same_widths(xs, "node", name)
        arrays["x"] = np.concatenate(xs)
    if _all_or_none(attrs, "edge_attr", "edge features", name):
        _same_widths(attrs, "edge", name)
        arrays["edge_attr"] = np.concatenate(attrs)
    if _all_or_none(labels, "y", "label", name):
        arrays["y"] = np.asarray(labels)
    if all(count is not None for count in counts):
        arrays["node_ptr"] = np.cumsum([0, *counts], dtype=np.int64)
    return arrays


def _check_stacked(arrays, name):
    """Nodes in every graph, real and finite features, local edges (vectorised)."""
    node_ptr, edge_ptr, edge_index = arrays["node_ptr"], arrays["edge_ptr"], arrays["edge_index"]
    if node_ptr is not None:
        empty = np.flatnonzero(np.diff(node_ptr) == 0)
        if len(empty):
            raise ValueError(
                f"Graph {empty[0]} of {name} has no nodes; every graph needs at least one node."
            )
    for key, ptr, what in (("x", node_ptr, "node"), ("edge_attr", edge_ptr, "edge")):
        values = arrays[key]
        if values is None:
            continue
        if values.ndim > 2:  # the graphs share the feature axes: graph 0 shows them
            rows, axes = f"n_{what}s", ", ".join(map(str, values.shape[1:]))
            raise ValueError(
                f"The graphs of {name} have {key!r} of shape ({rows}, {axes}) (graph 0: "
                f"{(int(ptr[1] - ptr[0]), *values.shape[1:])}); {what} features must be of "
                f"shape ({rows}, n_features), or ({rows},) for one: flatten the feature axes."
            )
        # as scikit-learn refuses (n, 0); an edge_attr of width 0 (PyG's TUDataset keeps
        # one where a data set has edge attributes but use_edge_attr=False) is no feature
        if key == "x" and values.ndim == 2 and values.shape[1] == 0:
            raise ValueError(
                f"Found 0 node feature(s) in 'x' of the graphs of {name} (graph 0: shape "
                f"{(int(ptr[1] - ptr[0]), 0)}) while a minimum of 1 is required. Give graphs "
                "without node features one, e.g. a constant 1 per node (PyG's "
                "transform=torch_geometric.transforms.Constant(), load_tu_dataset's "
                "features='constant')."
            )
        if values.dtype.kind not in "biuf":
            raise ValueError(
                f"The graphs of {name} have {key!r} of dtype {values.dtype}; node and edge "
                "features must be real numbers (they are used as float32)."
            )
        if values.dtype.kind == "f" and len(values):
            finite = np.isfinite(values).reshape(len(values), -1).all(axis=1)
            if not finite.all():
                # ptr is known: x gives the node counts, and edges are always counted
                graph = np.searchsorted(ptr, np.flatnonzero(~finite)[0], side="right") - 1
                raise ValueError(
                    f"Graph {graph} of {name} has NaN or infinite {what} features in {key!r}; "
                    "remove or impute them."
                )
    if node_ptr is None or not edge_index.size:
        return
    graph_of_edge = np.repeat(np.arange(len(node_ptr) - 1), np.diff(edge_ptr))
    limits = np.diff(node_ptr)[graph_of_edge]
    bad = np.flatnonzero(((edge_index < 0) | (edge_index >= limits)).any(axis=0))
    if len(bad):
        graph, edge = int(graph_of_edge[bad[0]]), bad[0]
        raise ValueError(
            f"Graph {graph} of {name} has an 'edge_index' entry out of range for its "
            f"{int(limits[edge])} nodes (the edge {tuple(edge_index[:, edge].tolist())}); edge "
            "ids are local to each graph, from 0."
        )


def compact_graphs(X):
    """``X`` in a form whose pickle is about the size of its graphs' arrays, indexed as ``X`` is.

    What a parallel run writes once for its workers. PyG's ``InMemoryDataset`` keeps its graphs
    in one collated storage, but once a graph has been read it also caches one ``Data`` per
    graph, each a view of the whole storage, and pickling writes the storage again for every
    view (3.67 GB instead of 3.3 MB for an iterated PROTEINS); a list of ``Data`` pickles every
    tensor with its own header. So an ``InMemoryDataset`` becomes its own
    ``InMemoryDataset.copy()`` (same class, transform and indexing, one storage, no cache), and
    a list, tuple, object array or pandas Series (read by position, its index labels and name
    kept) of ``Data`` of one class with the same attributes a :class:`CollatedGraphs`: a Series
    of ``Data`` would otherwise pickle each of its graphs on its own (3.4 GB instead of 1.5 MB
    for an iterated ENZYMES). Anything else (tabular data, a PyG ``Dataset`` that reads its files,
    graphs whose attributes differ, which PyG's collate would drop, or that are not all tensors
    of one dimension or more: a label ``y=1`` would come back as ``tensor([1])``) is returned
    as it is.

    Parameters
    ----------
    X : object
        The ``X`` of a run.

    Returns
    -------
    X_compact : object
        ``X`` itself, or its compact form.

    Examples
    --------
    >>> import torch
    >>> from torch_geometric.data import Data
    >>> from sklearn_fair.utils import compact_graphs
    >>> storage = torch.arange(3000.0).reshape(1000, 3)
    >>> graphs = [Data(x=storage[i : i + 10], edge_index=torch.zeros(2, 0, dtype=torch.long),
    ...                y=torch.tensor([i % 2])) for i in range(0, 1000, 10)]
    >>> compact = compact_graphs(graphs)  # pickled, each view would write all of the storage
    >>> type(compact).__name__, torch.equal(compact[[3, 0]][0].x, graphs[3].x)
    ('CollatedGraphs', True)
    """
    data_module = sys.modules.get("torch_geometric.data")
    if data_module is None:  # no PyG object can exist in this process
        return X
    if isinstance(X, data_module.InMemoryDataset):
        # copy.copy first: copy() caches the graphs it reads in the dataset it is called on,
        # and a shallow copy does that in its own cache when the user's is still empty
        return copy.copy(X).copy()
    if isinstance(X, (list, tuple, np.ndarray)) or hasattr(X, "iloc"):
        graphs = graphs_in_order(X) if is_graph_data(X) else []
        if graphs and isinstance(graphs[0], data_module.Data):
            # PyG's collate takes the attributes of the first graph for all: graphs with other
            # attributes (or of another class) would lose theirs, so they travel as they are
            first, kinds = type(graphs[0]), _kinds(graphs[0])
            same = all(type(g) is first and _kinds(g) == kinds for g in graphs)
            if same and _collates_back(graphs):
                return CollatedGraphs(X)
    return X


def _kinds(graph):
    """``graph``'s attributes: name -> (type, number of dimensions of a tensor)."""
    return {key: (type(value), getattr(value, "ndim", None)) for key, value in graph.items()}


def _collates_back(graphs):
    """Whether PyG's collate gives back the attributes of ``graphs`` (of the same kinds) as
    they are: a Python number or a 0-d tensor comes back as a tensor of shape [1]."""
    pair = CollatedGraphs(graphs[:2])
    return all(_kinds(pair[index]) == _kinds(graphs[index]) for index in range(len(pair)))


class CollatedGraphs:
    """A sequence of PyG ``Data`` objects stored collated, as PyG's ``InMemoryDataset`` does.

    Indexed like the original, by position: an int gives one ``Data``, rows (an array, a slice
    or a boolean mask) a list of ``Data`` (an object array if the original was one, a pandas
    Series of the rows' index labels and the original's name if it was a Series, as
    scikit-learn's ``_safe_indexing`` gives), each equal to the original graph (same
    attributes, values and dtypes).

    Parameters
    ----------
    graphs : sequence of torch_geometric.data.Data
        Graphs of one class, with the same attributes: a list, tuple, object array or pandas
        Series (read by position).

    Attributes
    ----------
    graphs : torch_geometric.data.InMemoryDataset
        The collated storage.
    as_array : bool
        Whether indexing gives an object array (the original was one) or a list.
    index : pandas.Index or None
        The index of the original pandas Series (rows give a Series of their labels); None
        for any other original.
    name : hashable
        The name of the original pandas Series (None for any other original).

    Examples
    --------
    >>> import torch
    >>> from torch_geometric.data import Data
    >>> from sklearn_fair.utils import CollatedGraphs
    >>> graphs = [Data(x=torch.ones(n, 2), y=torch.tensor([n % 2])) for n in (2, 3, 4)]
    >>> collated = CollatedGraphs(graphs)
    >>> len(collated), collated[1]
    (3, Data(x=[3, 2], y=[1]))
    >>> [graph.num_nodes for graph in collated[[2, 0]]]
    [4, 2]
    """

    def __init__(self, graphs):
        from torch_geometric.data import InMemoryDataset

        self.as_array = isinstance(graphs, np.ndarray)
        self.index = graphs.index if hasattr(graphs, "iloc") else None
        self.name = graphs.name if self.index is not None else None
        self.graphs = InMemoryDataset()
        self.graphs.data, self.graphs.slices = InMemoryDataset.collate(graphs_in_order(graphs))
        self._n_graphs = len(graphs)

    def __len__(self):
        return self._n_graphs

    def __iter__(self):
        return (self[index] for index in range(len(self)))

    def __getitem__(self, key):
        if isinstance(key, numbers.Integral) and not isinstance(key, (bool, np.bool_)):
            index = int(key)
            if not -len(self) <= index < len(self):
                raise IndexError(f"Graph index {index} is out of range for {len(self)} graphs.")
            # get() of a one-graph storage returns a copy of it, of several graphs one graph
            return self.graphs.get(index % len(self))
        rows = np.arange(len(self))[key] if isinstance(key, slice) else np.asarray(key)
        if rows.dtype == bool:
            rows = np.flatnonzero(rows)
        rows = rows.reshape(-1)
        graphs = [self[int(row)] for row in rows]
        if not self.as_array and self.index is None:
            return graphs
        array = np.empty(len(graphs), dtype=object)
        array[:] = graphs  # np.array(graphs) would iterate each Data
        if self.index is None:
            return array
        import pandas as pd

        return pd.Series(array, index=self.index[rows], name=self.name)
