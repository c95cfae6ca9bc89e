"""The structure-agnostic DeepMultisets baseline."""

import torch.nn.functional as F
from torch import nn
from torch_geometric.nn import global_add_pool

from ._checks import COUNT, check_params

__all__ = ["DeepMultisets"]


class DeepMultisets(nn.Module):
    """An MLP on each node, sum-pooling, then an MLP on the graph (Deep Sets).

    The baseline of Errica et al. (ICLR 2020) for social data and ENZYMES, after
    Zaheer et al., "Deep Sets" (NeurIPS 2017): the graph is treated as a multiset of
    nodes and its edges are ignored.

    Parameters
    ----------
    in_channels : int
        Number of node features.
    out_channels : int
        Number of classes.
    hidden_units : int, default=32
        Width of the node embedding and of the hidden graph layer, at least 1.

    Examples
    --------
    >>> import torch
    >>> from torch_geometric.data import Batch, Data
    >>> graph = Data(x=torch.ones(3, 4), edge_index=torch.empty(2, 0, dtype=torch.long))
    >>> model = DeepMultisets(4, 3, hidden_units=8)
    >>> model(Batch.from_data_list([graph, graph])).shape
    torch.Size([2, 3])
    """

    def __init__(self, in_channels, out_channels, *, hidden_units=32):
        super().__init__()
        hidden_units = check_params(self, {"hidden_units": [COUNT]}, hidden_units=hidden_units)
        self.node_layer = nn.Linear(in_channels, hidden_units)
        self.graph_layer = nn.Linear(hidden_units, hidden_units)
        self.output_layer = nn.Linear(hidden_units, out_channels)

    def forward(self, data):
        x = F.relu(self.node_layer(data.x))
        x = global_add_pool(x, data.batch, size=data.num_graphs)
        return self.output_layer(F.relu(self.graph_layer(x)))
