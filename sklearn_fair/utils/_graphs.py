"""Graph data without torch: recognising it, reading one class label per graph."""

import numpy as np

from ._arrays import to_numpy

__all__ = ["check_graph_sizes", "is_graph_data", "read_graph_labels"]


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
