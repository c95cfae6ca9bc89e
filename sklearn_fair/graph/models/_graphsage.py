"""GraphSAGE (Hamilton et al., NeurIPS 2017) for graph classification, as in Errica et al."""

import torch
import torch.nn.functional as F
from sklearn.utils._param_validation import StrOptions
from torch import nn
from torch_geometric.nn import global_max_pool
from torch_geometric.utils import add_remaining_self_loops, scatter

from ._checks import COUNT, check_params

__all__ = ["GraphSAGE"]

_AGGREGATIONS = {"add": "sum", "sum": "sum", "mean": "mean", "max": "max"}


class _SAGEConv(nn.Module):
    """PyG 1.4's SAGEConv, the reference's layer, described in :class:`GraphSAGE`."""

    def __init__(self, in_channels, out_channels, aggr):
        super().__init__()
        self.linear = nn.Linear(in_channels, out_channels)
        self.aggr = aggr

    def forward(self, x, edge_index):
        num_nodes = x.size(0)
        edge_index, _ = add_remaining_self_loops(edge_index, num_nodes=num_nodes)
        messages = F.linear(x, self.linear.weight)[edge_index[0]]
        out = scatter(messages, edge_index[1], dim=0, dim_size=num_nodes, reduce=self.aggr)
        return out + self.linear.bias


class GraphSAGE(nn.Module):
    """GraphSAGE layers over full neighbourhoods, then max-pooling over all nodes.

    The model of Errica et al. (ICLR 2020, diningphil/gnn-comparison), after Hamilton et al.,
    "Inductive Representation Learning on Large Graphs" (NeurIPS 2017). Each layer is the
    GraphSAGE convolution of PyTorch Geometric 1.4 (the version the reference pins): the node
    and its neighbours share one weight matrix, ``x'_i = aggr_{j in N(i) + {i}} (W x_j) + b``,
    with ``aggr`` the sum, mean or max, a bias, no L2 normalisation, and no neighbour sampling.
    As in the reference there is no non-linearity between layers for ``"add"`` and
    ``"mean"``: the node embeddings are a linear function of the input. With ``"max"`` every
    layer is followed by one linear layer with ReLU, shared by all layers. The node embeddings
    of all layers are concatenated, max-pooled over the graph, and classified by a two-layer
    MLP (ReLU).

    Parameters
    ----------
    in_channels : int
        Number of node features.
    out_channels : int
        Number of classes.
    dim_embedding : int, default=64
        Width of every layer, at least 1.
    num_layers : int, default=3
        Number of GraphSAGE layers, at least 1.
    aggregation : {"max", "mean", "add"}, default="max"
        Neighbourhood aggregation (``"sum"`` is accepted for ``"add"``).

    Examples
    --------
    >>> import torch
    >>> from torch_geometric.data import Batch, Data
    >>> graph = Data(x=torch.randn(4, 3), edge_index=torch.tensor([[0, 1, 2], [1, 2, 3]]))
    >>> model = GraphSAGE(3, 2, dim_embedding=8, num_layers=2)
    >>> model(Batch.from_data_list([graph, graph])).shape
    torch.Size([2, 2])
    """

    def __init__(
        self, in_channels, out_channels, *, dim_embedding=64, num_layers=3, aggregation="max"
    ):
        super().__init__()
        dim_embedding, num_layers, aggregation = check_params(
            self,
            {
                "dim_embedding": [COUNT],
                "num_layers": [COUNT],
                "aggregation": [StrOptions(set(_AGGREGATIONS))],
            },
            dim_embedding=dim_embedding,
            num_layers=num_layers,
            aggregation=aggregation,
        )
        aggr = _AGGREGATIONS[aggregation]
        self.max_transform = nn.Linear(dim_embedding, dim_embedding) if aggr == "max" else None
        self.convs = nn.ModuleList(
            _SAGEConv(in_channels if layer == 0 else dim_embedding, dim_embedding, aggr)
            for layer in range(num_layers)
        )
        self.hidden = nn.Linear(num_layers * dim_embedding, dim_embedding)
        self.output = nn.Linear(dim_embedding, out_channels)

    def forward(self, data):
        x, edge_index = data.x, data.edge_index
        layers = []
        for conv in self.convs:
            x = conv(x, edge_index)
            if self.max_transform is not None:
                x = torch.relu(self.max_transform(x))
            layers.append(x)
        x = global_max_pool(torch.cat(layers, dim=1), data.batch, size=data.num_graphs)
        return self.output(F.relu(self.hidden(x)))
