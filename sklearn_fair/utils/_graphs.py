"""Graph data without torch: recognising it, reading one class label per graph, and packing
PyG's containers compactly for worker processes (torch imported only when graphs are packed)."""

import copy
import numbers
import sys

import numpy as np

from ._arrays import to_numpy

__all__ = [
    "CollatedGraphs",
    "check_graph_sizes",
    "compact_graphs",
    "is_graph_data",
    "read_graph_labels",
]


def is_graph_data(X):
    """Whether ``X`` is a sequence of graph objects (items carrying a ``.y``).

    Arrays with a ``shape`` (numpy, pandas) are tabular data; anything else
    that is indexable and whose first item has an attribute ``y`` (a PyTorch
    Geometric ``Data`` object, a dataset of them, a numpy object array of
    them) counts as graph data.
    """
    if isinstance(X, np.ndarray):
        return X.dtype == object and X.ndim == 1 and len(X) > 0 and hasattr(X[0], "y")
    if hasattr(X, "shape") or isinstance(X, (str, bytes)):
        return False
    try:
        return len(X) > 0 and hasattr(X[0], "y")
    except (TypeError, IndexError, KeyError):
        return False


def read_graph_labels(X):
    """Return the class label of every graph in ``X`` as a 1-D numpy array.

    Parameters
    ----------
    X : sequence of graphs
        A PyTorch Geometric dataset, a list or object array of ``Data``
        objects, or anything indexable whose items carry a label ``.y``
        (a tensor, an array or a scalar holding exactly one value).

    Returns
    -------
    y : ndarray of shape (n_graphs,)

    Raises
    ------
    ValueError
        If a graph has no label, or a label with more than one value; the
        message names the index of the first such graph.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> from sklearn_fair.utils import read_graph_labels
    >>> graphs = [SimpleNamespace(y=[1]), SimpleNamespace(y=0), SimpleNamespace(y=[1])]
    >>> read_graph_labels(graphs)
    array([1, 0, 1])
    """
    if hasattr(type(X), "__graph_labels__"):  # a container that stores its labels together
        return np.asarray(X.__graph_labels__())
    labels = []
    for index in range(len(X)):
        label = getattr(X[index], "y", None)
        if label is None:
            raise ValueError(
                f"Graph {index} of X has no label (its 'y' is missing or None); "
                "every graph needs exactly one class label, or pass y explicitly."
            )
        values = to_numpy(label).reshape(-1)
        if values.size != 1:
            raise ValueError(
                f"Graph {index} of X has {values.size} label values {values.tolist()[:5]}; "
                "graph classification needs exactly one label per graph."
            )
        labels.append(values[0])
    return np.asarray(labels)


def check_graph_sizes(X):
    """Raise a ValueError naming the first graph of ``X`` that has no nodes.

    Run before any fit: a graph without nodes gives a model nothing to read, and an error
    that only surfaces in the fits whose training set holds it comes after the others ran.
    """
    for index in range(len(X)):
        if getattr(X[index], "num_nodes", None) == 0:
            raise ValueError(
                f"Graph {index} of X has no nodes; every graph needs at least one node."
            )


def compact_graphs(X):
    """``X`` in a form whose pickle is about the size of its graphs' arrays, indexed as ``X`` is.

    What a parallel run writes once for its workers. PyG's ``InMemoryDataset`` keeps its graphs
    in one collated storage, but once a graph has been read it also caches one ``Data`` per
    graph, each a view of the whole storage, and pickling writes the storage again for every
    view (3.67 GB instead of 3.3 MB for an iterated PROTEINS); a list of ``Data`` pickles every
    tensor with its own header. So:

    * an ``InMemoryDataset`` (iterated or not, sliced or not) becomes its own
      ``InMemoryDataset.copy()``: the same class, transform and indexing, the selected graphs
      collated into one storage, no cache;
    * a list, tuple or object array of ``Data`` (of one class, with the same attributes)
      becomes a :class:`CollatedGraphs`, the graphs collated by ``InMemoryDataset.collate``,
      that gives back a list (an object array for an array) of ``Data`` equal to the
      originals when indexed by an array of rows;
    * anything else (a GraphCollection, tabular data, a PyG ``Dataset`` that reads its graphs
      from its files, graphs whose attributes differ, which PyG's collate would drop) is
      returned as it is.

    Parameters
    ----------
    X : object
        The ``X`` of a run.

    Returns
    -------
    X_compact : object
        ``X`` itself, or the compact form above.

    Examples
    --------
    >>> import torch
    >>> from torch_geometric.data import Data
    >>> from sklearn_fair.utils import compact_graphs
    >>> storage = torch.arange(3000.0).reshape(1000, 3)
    >>> graphs = [Data(x=storage[i : i + 10], edge_index=torch.zeros(2, 0, dtype=torch.long),
    ...                y=torch.tensor([i % 2])) for i in range(0, 1000, 10)]
    >>> compact = compact_graphs(graphs)  # pickled, each view would write all of the storage
    >>> type(compact).__name__, len(compact)
    ('CollatedGraphs', 100)
    >>> chosen = compact[[3, 0]]
    >>> type(chosen).__name__, torch.equal(chosen[0].x, graphs[3].x)
    ('list', True)
    """
    data_module = sys.modules.get("torch_geometric.data")
    if data_module is None:  # no PyG object can exist in this process
        return X
    if isinstance(X, data_module.InMemoryDataset):
        # copy.copy first: copy() caches the graphs it reads in the dataset it is called on,
        # and a shallow copy does that in its own cache when the user's is still empty
        return copy.copy(X).copy()
    if isinstance(X, (list, tuple)) or (
        isinstance(X, np.ndarray) and X.dtype == object and X.ndim == 1
    ):
        if len(X) and isinstance(X[0], data_module.Data):
            # PyG's collate takes the attributes of the first graph for all: graphs with other
            # attributes (or of another class) would lose theirs, so they travel as they are
            first, keys = type(X[0]), set(X[0].keys())
            if all(type(graph) is first and set(graph.keys()) == keys for graph in X):
                return CollatedGraphs(X)
    return X


class CollatedGraphs:
    """A sequence of PyG ``Data`` objects stored collated, as PyG's ``InMemoryDataset`` does.

    Made by :func:`compact_graphs` from a list, tuple or object array of ``Data``; indexed
    like the original: an int gives one ``Data``, an array of rows (or a slice, or a boolean
    mask) a list of ``Data`` (an object array if the original was an array), each equal to
    the original graph (same attributes, values and dtypes).

    Parameters
    ----------
    graphs : sequence of torch_geometric.data.Data
        Graphs of one class, with the same attributes.

    Attributes
    ----------
    graphs : torch_geometric.data.InMemoryDataset
        The collated storage.
    as_array : bool
        Whether indexing gives an object array (the original was one) or a list.

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
        self.graphs = InMemoryDataset()
        self.graphs.data, self.graphs.slices = InMemoryDataset.collate(list(graphs))
        self._n_graphs = len(graphs)

    def __len__(self):
        return self._n_graphs

    def __iter__(self):
        for index in range(len(self)):
            yield self[index]

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
        graphs = [self[int(row)] for row in rows.reshape(-1)]
        if not self.as_array:
            return graphs
        array = np.empty(len(graphs), dtype=object)
        for position, graph in enumerate(graphs):  # np.array(graphs) would iterate each Data
            array[position] = graph
        return array
