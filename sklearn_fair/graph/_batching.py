"""Mini-batches cut straight from a GraphCollection's stacked arrays.

``collate_graphs`` builds, with a few numpy index operations, the tensors that
``torch_geometric.data.Batch.from_data_list`` builds from per-graph ``Data`` objects: ``x``,
``edge_index`` shifted by each graph's node offset in the batch, ``edge_attr``, ``y``, the
``batch`` vector and ``ptr`` (from which ``Batch.num_graphs`` is read). Going through ``Data``
objects and PyG's generic collate costs 12-20% of a GIN epoch.

Only PyG's public constructor is used, so these batches carry no slice bookkeeping (private
attributes that ``Batch.from_data_list`` alone writes): ``Batch.get_example`` and
``Batch.to_data_list`` raise PyG's own error on them. A module that takes its batch apart
into graphs can be trained with PyG's loader: ``iterator_train=torch_geometric.loader.DataLoader``
and ``iterator_valid=...`` (the same batches and draws, see the tests).
"""

import numpy as np
import torch
from torch.utils.data import Dataset, Subset
from torch_geometric.data import Batch

from ._collection import gather

__all__ = ["GraphDataset", "GraphLoader", "collate_graphs"]


def collate_graphs(graphs, indices):
    """The graphs ``indices`` of the collection ``graphs`` as one PyG ``Batch``."""
    indices = np.asarray(indices, dtype=np.int64)
    node_rows, node_ptr, node_counts = gather(graphs.node_ptr, indices)
    edge_cols, edge_ptr, edge_counts = gather(graphs.edge_ptr, indices)
    # np.take: a C-contiguous result, several times faster than fancy indexing on axis 1
    edge_index = np.take(graphs.edge_index, edge_cols, axis=1)
    edge_index += np.repeat(node_ptr[:-1], edge_counts)
    n_graphs = len(indices)
    fields = {
        "x": torch.from_numpy(np.take(graphs.x, node_rows, axis=0)),
        "edge_index": torch.from_numpy(edge_index),
        "batch": torch.from_numpy(np.repeat(np.arange(n_graphs, dtype=np.int64), node_counts)),
        "ptr": torch.from_numpy(node_ptr),  # Batch.num_graphs is len(ptr) - 1
    }
    if graphs.edge_attr is not None:
        fields["edge_attr"] = torch.from_numpy(np.take(graphs.edge_attr, edge_cols, axis=0))
    if graphs.y is not None:
        fields["y"] = torch.from_numpy(np.take(graphs.y, indices))
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


class GraphLoader:
    """Iterate over ``(Batch, labels)`` mini-batches of a GraphDataset (or a Subset of one).

    The drop-in for PyG's ``DataLoader`` that GraphClassifier uses by default: the same
    batches, in the same order, with the same random draws as torch's ``DataLoader``
    (so a seeded fit gives the same weights either way), built from stacked arrays.

    Parameters
    ----------
    dataset : GraphDataset or torch.utils.data.Subset of one
    batch_size : int, default=1
    shuffle : bool, default=False
        Draw a new order of the graphs for every pass.
    generator : torch.Generator, default=None
        Source of the orders; ``None`` uses torch's global generator.
    drop_last : bool, default=False
        Skip the last batch when it is smaller than ``batch_size``.
    """

    def __init__(self, dataset, batch_size=1, shuffle=False, generator=None, drop_last=False):
        self.dataset = dataset
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.generator = generator
        self.drop_last = drop_last
        self._data, self._indices = _resolve(dataset)

    def __len__(self):
        n_graphs = len(self._indices)
        if self.drop_last:
            return n_graphs // self.batch_size
        return -(-n_graphs // self.batch_size)

    def __iter__(self):
        # The random draws of torch's DataLoader, in its order, so that a seeded fit trains
        # on the same batches and draws the same dropout masks as with PyG's DataLoader: a
        # base seed per pass (from the global generator when none is given, shuffled or not),
        # then RandomSampler's permutation, and a second one it draws on reaching the end.
        torch.empty((), dtype=torch.int64).random_(generator=self.generator)
        indices = self._indices
        generator = self.generator
        if self.shuffle:
            if generator is None:
                seed = int(torch.empty((), dtype=torch.int64).random_().item())
                generator = torch.Generator().manual_seed(seed)
            indices = indices[torch.randperm(len(indices), generator=generator).numpy()]
        graphs, labels = self._data.graphs, self._data.labels
        for batch in range(len(self)):
            chosen = indices[batch * self.batch_size : (batch + 1) * self.batch_size]
            yield collate_graphs(graphs, chosen), labels[torch.from_numpy(chosen)]
        if self.shuffle:
            torch.randperm(len(indices), generator=generator)
