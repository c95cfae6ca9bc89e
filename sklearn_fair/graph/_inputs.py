"""What GraphClassifier accepts as graphs and labels, checked and turned into a GraphCollection."""

import numpy as np
from sklearn.utils.validation import column_or_1d
from torch_geometric.data import Data

from ..utils import to_numpy
from ._batching import GraphDataset
from ._collection import GraphCollection, stack_graphs

__all__ = ["as_collection", "read_labels"]


def as_collection(X, name="X"):
    """The graphs of ``X`` as a GraphCollection, checked: nodes in every graph, finite features."""
    if isinstance(X, GraphDataset):
        X = X.graphs
    if isinstance(X, Data):
        raise TypeError(
            f"{name} must be a sequence of graphs (a GraphCollection, a PyG dataset, a list or "
            "a numpy object array of Data objects), not a single Data object; wrap it in a list."
        )
    if isinstance(X, GraphCollection):
        graphs = X
    else:
        try:
            items = [X[index] for index in range(len(X))]
        except (TypeError, KeyError) as exc:
            raise TypeError(
                f"{name} must be a sequence of graphs (a GraphCollection, a PyG dataset, a list "
                f"or a numpy object array of Data objects). Got {type(X).__name__} instead."
            ) from exc
        if not items:
            raise ValueError(f"{name} holds no graphs; GraphClassifier needs at least one graph.")
        graphs = stack_graphs(items, name)
    if not len(graphs):
        raise ValueError(f"{name} holds no graphs; GraphClassifier needs at least one graph.")
    graphs = _as_float32(graphs, name)
    empty = np.flatnonzero(graphs.node_counts == 0)
    if len(empty):
        raise ValueError(
            f"Graph {empty[0]} of {name} has no nodes; every graph needs at least one node."
        )
    x = graphs.x
    if x.dtype.kind == "f":
        finite = np.isfinite(x).reshape(len(x), -1).all(axis=1)
        if not finite.all():
            graph = np.searchsorted(graphs.node_ptr, np.flatnonzero(~finite)[0], side="right") - 1
            raise ValueError(
                f"Graph {graph} of {name} has NaN or infinite node features in 'x'; remove or "
                "impute them."
            )
    return graphs


def _as_float32(graphs, name):
    """The collection with float32 node and edge features (the dtype of a module's weights)."""
    arrays = {"x": graphs.x, "edge_attr": graphs.edge_attr}
    for key, array in arrays.items():
        if array is None or array.dtype == np.float32:
            continue
        if array.dtype.kind not in "biuf":
            raise ValueError(
                f"The graphs of {name} have {key!r} of dtype {array.dtype}; node and edge "
                "features must be real numbers (they are used as float32)."
            )
        arrays[key] = array.astype(np.float32)
    if arrays["x"] is graphs.x and arrays["edge_attr"] is graphs.edge_attr:
        return graphs
    return GraphCollection._from_checked(
        arrays["x"],
        graphs.edge_index,
        graphs.node_ptr,
        graphs.edge_ptr,
        graphs.y,
        arrays["edge_attr"],
    )


def read_labels(graphs, y, name, y_name):
    """One label per graph: ``y`` if given, else the graphs' own ``y``."""
    if y is None:
        if graphs.y is None:
            raise ValueError(
                f"The graphs of {name} carry no labels ('y' is missing); pass {y_name}."
            )
        labels = graphs.y
    else:
        labels = column_or_1d(to_numpy(y), warn=True)
    if len(labels) != len(graphs):
        raise ValueError(
            f"{name} holds {len(graphs)} graphs but {y_name} holds {len(labels)} labels; "
            "they must have the same length."
        )
    if labels.dtype.kind == "f" and not np.isfinite(labels).all():
        where = np.flatnonzero(~np.isfinite(labels))[:10].tolist()
        raise ValueError(f"{y_name} contains NaN or infinite labels, at indices {where}.")
    return labels
