"""Edge-Conditioned Convolution network (Simonovsky and Komodakis, CVPR 2017)."""

import torch.nn.functional as F
from torch import nn
from torch_geometric.nn import NNConv, global_mean_pool

__all__ = ["ECC"]


class _ECCConv(nn.Module):
    """Edge-conditioned convolution, batch norm, ReLU: the filter comes from a small MLP."""

    def __init__(self, in_channels, out_channels, edge_channels):
        super().__init__()
        filter_network = nn.Sequential(
            nn.Linear(edge_channels, 16), nn.ReLU(), nn.Linear(16, in_channels * out_channels)
        )
        # ECC averages the filtered neighbours.
        self.conv = NNConv(in_channels, out_channels, filter_network, aggr="mean")
        self.norm = nn.BatchNorm1d(out_channels)

    def forward(self, x, edge_index, edge_attr):
        return self.norm(F.relu(self.conv(x, edge_index, edge_attr)))


class ECC(nn.Module):
    """Edge-conditioned convolutions, mean pooling and a two-layer MLP.

    After Simonovsky and Komodakis, "Dynamic Edge-Conditioned Filters in Convolutional
    Neural Networks on Graphs" (CVPR 2017), with the sizes of Errica et al. (ICLR 2020):
    ``num_layers`` blocks of three edge-conditioned convolutions
    (:class:`~torch_geometric.nn.conv.NNConv`, whose weight matrix for each edge is
    computed from the edge's features by an MLP), each followed by batch norm, ReLU and
    dropout; a final convolution; mean pooling over the graph; and a two-layer MLP.
    Without edge features every edge gets the constant feature 1, as in the paper, which
    used data sets without edge labels. Unlike the original ECC, no graph coarsening
    happens between blocks (it needs precomputed multi-resolution graphs).

    Parameters
    ----------
    in_channels : int
        Number of node features.
    out_channels : int
        Number of classes.
    num_layers : int, default=2
        Number of blocks of three convolutions.
    dim_embedding : int, default=32
        Width of every convolution.
    dropout : float, default=0.05
        Dropout after each convolution.
    dropout_final : float, default=0.1
        Dropout in the final MLP.
    edge_dim : int, default=None
        Number of edge features; ``None`` uses a constant 1 per edge.
        :class:`~sklearn_fair.graph.GraphClassifier` fills it in from the data.

    Examples
    --------
    >>> import torch
    >>> from torch_geometric.data import Batch, Data
    >>> graph = Data(x=torch.randn(4, 3), edge_index=torch.tensor([[0, 1, 2], [1, 2, 3]]))
    >>> model = ECC(3, 2, num_layers=1, dim_embedding=8)
    >>> model(Batch.from_data_list([graph, graph])).shape
    torch.Size([2, 2])
    """

    def __init__(
        self,
        in_channels,
        out_channels,
        *,
        num_layers=2,
        dim_embedding=32,
        dropout=0.05,
        dropout_final=0.1,
        edge_dim=None,
    ):
        super().__init__()
        self.edge_dim = edge_dim
        self.dropout = dropout
        self.dropout_final = dropout_final
        edge_channels = edge_dim or 1
        widths = [in_channels] + [dim_embedding] * (3 * num_layers + 1)
        self.convs = nn.ModuleList(
            _ECCConv(width_in, width_out, edge_channels)
            for width_in, width_out in zip(widths[:-1], widths[1:])
        )
        self.hidden = nn.Linear(dim_embedding, dim_embedding)
        self.output = nn.Linear(dim_embedding, out_channels)

    def forward(self, data):
        x, edge_index = data.x, data.edge_index
        edge_attr = data.edge_attr if self.edge_dim else None
        if edge_attr is None:
            edge_attr = x.new_ones(edge_index.size(1), 1)
        elif edge_attr.dim() == 1:
            edge_attr = edge_attr.view(-1, 1)
        edge_attr = edge_attr.to(x.dtype)
        for conv in self.convs:
            x = F.dropout(conv(x, edge_index, edge_attr), p=self.dropout, training=self.training)
        x = global_mean_pool(x, data.batch, size=data.num_graphs)
        x = F.dropout(F.relu(self.hidden(x)), p=self.dropout_final, training=self.training)
        return self.output(x)
