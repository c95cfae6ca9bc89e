"""Mini-batches cut straight from a GraphCollection's stacked arrays.

``collate_graphs`` builds with numpy indexing the tensors of ``Batch.from_data_list`` (``x``,
``edge_index`` shifted by each graph's node offset, ``edge_attr``, ``y``, ``batch``, ``ptr``):
going through ``Data`` objects and PyG's generic collate costs 12-20% of a GIN epoch. Only PyG's
public constructor is used, so the batches lack the slice bookkeeping that ``get_example`` and
``to_data_list`` need (PyG's own error); a module that takes its batch apart trains with PyG's
``DataLoader`` as ``iterator_train`` and ``iterator_valid`` (the same batches and draws).
"""

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, Subset
from torch_geometric.data import Batch

from ._collection import labels_as_tensor

__all__ = ["GraphDataset", "GraphLoader", "collate_graphs"]


def collate_graphs(graphs, indices):
    """The graphs ``indices`` of the collection ``graphs`` as one PyG ``Batch``."""
    part = graphs.take(indices)  # fresh arrays: shifted in place
    part.edge_index += np.repeat(part.node_ptr[:-1], part.edge_counts)
    fields = {
        "x": torch.from_numpy(part.x),
        "edge_index": torch.from_numpy(part.edge_index),
        "batch": torch.from_numpy(
            np.repeat(np.arange(len(part), dtype=np.int64), part.node_counts)
        ),
        "ptr": torch.from_numpy(part.node_ptr),  # Batch.num_graphs is len(ptr) - 1
    }
    if part.edge_attr is not None:
        fields["edge_attr"] = torch.from_numpy(part.edge_attr)
    if part.y is not None:
        fields["y"] = labels_as_tensor(part.y)
    return Batch(**fields)


class GraphDataset(Dataset):
    """A GraphCollection with one encoded class index per graph; items are ``(Data, label)``.

    ``validation`` optionally carries the dataset to early-stop on (validation data given to
    ``fit``), so that it travels with the training data through skorch's hooks.
    """

    def __init__(self, graphs, labels, validation=None):
        self.graphs = graphs
        self.labels = labels
        self.validation = validation

    def __len__(self):
        return len(self.graphs)

    def __getitem__(self, index):
        return self.graphs[int(index)], self.labels[index]


def _resolve(dataset):
    """The GraphDataset under ``dataset`` (through skorch's and torch's ``Subset``) and indices."""
    indices = None
    while isinstance(dataset, Subset):
        subset = np.asarray(dataset.indices, dtype=np.int64)
        indices = subset if indices is None else subset[indices]
        dataset = dataset.dataset
    if not isinstance(dataset, GraphDataset):
        raise TypeError(
            "GraphClassifier's loader reads a GraphDataset or a torch Subset of one (what "
            f"train_split returns from the dataset it is given). Got {type(dataset).__name__}."
        )
    if indices is None:
        indices = np.arange(len(dataset), dtype=np.int64)
    return dataset, indices


class _Batches(Dataset):
    """The graphs of a GraphDataset or a Subset of one, fetched a whole batch at a time."""

    def __init__(self, dataset):
        self.data, self.indices = _resolve(dataset)

    def __len__(self):
        return len(self.indices)

    def __getitems__(self, positions):  # torch's DataLoader fetches a batch through it
        chosen = self.indices[positions]
        return collate_graphs(self.data.graphs, chosen), self.data.labels[torch.from_numpy(chosen)]


def _as_is(batch):
    return batch


class GraphLoader(DataLoader):
    """torch's ``DataLoader`` of ``(Batch, labels)`` over a GraphDataset (or a Subset of one).

    What GraphClassifier uses instead of PyG's ``DataLoader``: torch's sampling, so the same
    batches in the same order with the same random draws, each batch cut from the arrays at once.
    """

    def __init__(self, dataset, batch_size=1, shuffle=False, **kwargs):
        kwargs.setdefault("collate_fn", _as_is)
        super().__init__(_Batches(dataset), batch_size=batch_size, shuffle=shuffle, **kwargs)
