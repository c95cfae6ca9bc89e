"""Graph Isomorphism Network (Xu et al., ICLR 2019) as configured by Errica et al. (2020)."""

from collections.abc import Sequence

import numpy as np
import torch.nn.functional as F
from sklearn.utils._param_validation import Options, StrOptions
from torch import nn
from torch_geometric.nn import GINConv, global_add_pool, global_mean_pool
from torch_geometric.utils import remove_self_loops

from ._checks import COUNT, DROPOUT, check_params

__all__ = ["GIN"]

_POOLINGS = {"sum": global_add_pool, "mean": global_mean_pool}


class _Widths(Options):
    """The widths of the GIN layers: a non-empty sequence (a list, tuple or 1-D array) of ints
    of at least 1, one a layer. An ``Options``: the kind of constraint scikit-learn's
    validation takes as it is."""

    def __init__(self):
        super().__init__(object, set())

    def is_satisfied_by(self, val):
        listed = isinstance(val, Sequence) and not isinstance(val, (str, bytes))
        listed = listed or (isinstance(val, np.ndarray) and val.ndim == 1)
        return listed and len(val) > 0 and all(map(COUNT.is_satisfied_by, val))

    def __str__(self):
        return (
            "a non-empty list or tuple of ints of at least 1, one width a layer (such as [64, 64])"
        )


def _mlp(in_channels, out_channels):
    return nn.Sequential(
        nn.Linear(in_channels, out_channels),
        nn.BatchNorm1d(out_channels),
        nn.ReLU(),
        nn.Linear(out_channels, out_channels),
        nn.BatchNorm1d(out_channels),
        nn.ReLU(),
    )


class GIN(nn.Module):
    """Graph Isomorphism Network with a readout of every layer.

    Following Xu et al., "How Powerful are Graph Neural Networks?" (ICLR 2019) as
    implemented by Errica et al. (ICLR 2020, diningphil/gnn-comparison): a two-layer MLP
    (with batch norm) embeds the input features, then one
    :class:`~torch_geometric.nn.conv.GINConv` per entry of ``hidden_units`` follows, each
    with a two-layer MLP. Every layer is mapped to class scores, pooled over the graph (sum
    or mean) and dropped out, and the scores of all layers are added. As in the reference,
    the input embedding is mapped to class scores node by node and then pooled, while every
    GIN layer is pooled first and then mapped (with sum pooling the first order adds the
    bias once per node).

    One deliberate difference: the reference applies the dropout of the input embedding's
    scores at evaluation too (``F.dropout`` without ``training=self.training``), so its
    validation and test predictions are random when ``dropout > 0``. Here that dropout, like
    the others, is active in training only.

    Parameters
    ----------
    in_channels : int
        Number of node features.
    out_channels : int
        Number of classes.
    hidden_units : sequence of int, default=(64, 64, 64, 64)
        Width of each GIN layer, one int of at least 1 a layer (at least one layer; a single
        layer is ``[64]``, not ``64``); the input MLP has width ``hidden_units[0]``.
    train_eps : bool, default=False
        Learn the weight ``epsilon`` of the node's own embedding.
    aggregation : {"sum", "mean"}, default="sum"
        Graph readout of each layer.
    dropout : float, default=0.5
        Dropout on each layer's class scores, in [0, 1).

    Examples
    --------
    >>> import torch
    >>> from torch_geometric.data import Batch, Data
    >>> graph = Data(x=torch.randn(4, 3), edge_index=torch.tensor([[0, 1, 2], [1, 2, 3]]))
    >>> model = GIN(3, 2, hidden_units=[8, 8])
    >>> model(Batch.from_data_list([graph, graph])).shape
    torch.Size([2, 2])
    """

    def __init__(
        self,
        in_channels,
        out_channels,
        *,
        hidden_units=(64, 64, 64, 64),
        train_eps=False,
        aggregation="sum",
        dropout=0.5,
    ):
        super().__init__()
        hidden_units, aggregation, dropout = check_params(
            self,
            {
                "hidden_units": [_Widths()],
                "aggregation": [StrOptions(set(_POOLINGS))],
                "dropout": [DROPOUT],
            },
            hidden_units=hidden_units,
            aggregation=aggregation,
            dropout=dropout,
        )
        self.pooling = _POOLINGS[aggregation]
        self.dropout = dropout
        self.input_mlp = _mlp(in_channels, hidden_units[0])
        widths = [hidden_units[0], *hidden_units]
        self.convs = nn.ModuleList(
            GINConv(_mlp(width_in, width_out), train_eps=train_eps)
            for width_in, width_out in zip(widths[:-1], widths[1:])
        )
        self.readouts = nn.ModuleList(nn.Linear(width, out_channels) for width in widths)

    def forward(self, data):
        x, edge_index, batch = data.x, data.edge_index, data.batch
        # PyG 1.4's GINConv, the reference's, dropped self-loops: a node counts once, via eps.
        edge_index, _ = remove_self_loops(edge_index)
        x = self.input_mlp(x)
        layers = [x]
        for conv in self.convs:
            x = conv(x, edge_index)
            layers.append(x)
        size = data.num_graphs
        out = 0
        for index, (h, readout) in enumerate(zip(layers, self.readouts)):
            if index == 0:
                scores = self.pooling(readout(h), batch, size=size)
            else:
                scores = readout(self.pooling(h, batch, size=size))
            out = out + F.dropout(scores, p=self.dropout, training=self.training)
        return out
