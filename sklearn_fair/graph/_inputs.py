"""What GraphClassifier accepts as graphs and labels, checked and turned into a GraphCollection."""

import warnings

import numpy as np
from sklearn.exceptions import DataConversionWarning
from sklearn.utils.validation import column_or_1d

from ..utils import check_graphs, to_numpy
from ..utils._stacklevel import external_stacklevel
from ._batching import GraphDataset
from ._collection import GraphCollection, stack_graphs

__all__ = ["as_collection", "read_labels"]


def as_collection(X, name="X"):
    """The graphs of ``X`` as a GraphCollection checked by :func:`~sklearn_fair.utils.check_graphs`
    (a collection again: its arrays may have changed), with float32 node and edge features (the
    dtype of a module's weights) of shape (n_nodes or n_edges, n_features): a 1-D ``x`` or
    ``edge_attr`` is one feature, as PyG's ``num_node_features`` counts it."""
    if isinstance(X, GraphDataset):
        X = X.graphs
    if isinstance(X, GraphCollection):
        check_graphs(X, name)
        graphs = X
    else:
        graphs = stack_graphs(X, name)
    arrays = graphs.__graph_arrays__()
    for key, ptr in (("x", graphs.node_ptr), ("edge_attr", graphs.edge_ptr)):
        array = arrays[key]
        if array is None or (array.dtype == np.float32 and array.ndim == 2):
            continue
        array = array.reshape(len(array), -1)
        with np.errstate(over="ignore"):
            arrays[key] = array.astype(np.float32)
        # check_graphs saw finite values; float32 holds them unless they exceed its range
        overflow = ~np.isfinite(arrays[key]).all(axis=1)
        if overflow.any():
            graph = np.searchsorted(ptr, np.flatnonzero(overflow)[0], side="right") - 1
            raise ValueError(
                f"Graph {graph} of {name} has {key!r} values beyond float32's range (about "
                "3.4e38), the dtype of a module's weights; rescale them."
            )
    if arrays["x"] is graphs.x and arrays["edge_attr"] is graphs.edge_attr:
        return graphs
    return GraphCollection._from_checked(**arrays)


def read_labels(graphs, y, name, y_name):
    """One label per graph: ``y`` if given, else the graphs' own ``y``."""
    if y is None:
        if graphs.y is None:
            raise ValueError(
                f"The graphs of {name} carry no labels ('y' is missing); pass {y_name}."
            )
        labels = graphs.y
    else:
        labels = to_numpy(y)
        if labels.ndim == 2 and labels.shape[1] == 1:
            # scikit-learn's words, at the user's line (column_or_1d's warn=True names ours)
            warnings.warn(
                f"A column-vector {y_name} was passed when a 1d array was expected. Please "
                f"change the shape of {y_name} to (n_samples, ), for example using ravel().",
                DataConversionWarning,
                stacklevel=external_stacklevel(),
            )
        labels = column_or_1d(labels)
    if len(labels) != len(graphs):
        raise ValueError(
            f"{name} holds {len(graphs)} graphs but {y_name} holds {len(labels)} labels; "
            "they must have the same length."
        )
    if labels.dtype.kind == "f" and not np.isfinite(labels).all():
        where = np.flatnonzero(~np.isfinite(labels))[:10].tolist()
        raise ValueError(f"{y_name} contains NaN or infinite labels, at indices {where}.")
    if labels.dtype.kind == "O":
        import pandas as pd  # a dependency, imported only where labels are objects

        # None, NaN, pd.NA or NaT among strings: else a TypeError from sorting the classes
        missing = pd.isna(labels)
        if missing.any():
            where = np.flatnonzero(missing)[:10].tolist()
            raise ValueError(
                f"{y_name} contains missing labels (None or NaN), at indices {where}; remove "
                "those graphs or give them their labels."
            )
    return labels
