"""GraphSAGE (Hamilton et al., NeurIPS 2017) for graph classification, as in Errica et al."""

import torch
import torch.nn.functional as F
from torch import nn
from torch_geometric.nn import SAGEConv, global_max_pool

__all__ = ["GraphSAGE"]

_AGGREGATIONS = {"add": "sum", "sum": "sum", "mean": "mean", "max": "max"}


class GraphSAGE(nn.Module):
    """GraphSAGE layers over full neighbourhoods, then max-pooling over all nodes.

    Each :class:`~torch_geometric.nn.conv.SAGEConv` layer combines a node with an
    aggregate of *all* its neighbours (no neighbour sampling: graphs in graph
    classification are small). With ``aggregation="max"`` the neighbours are first
    passed through a linear layer with ReLU, the max-pooling aggregator of the GraphSAGE
    paper. The node embeddings of all layers are concatenated, max-pooled over all nodes
    of the graph, and classified by a two-layer MLP, as described by Errica et al.

    Parameters
    ----------
    in_channels : int
        Number of node features.
    out_channels : int
        Number of classes.
    dim_embedding : int, default=64
        Width of every layer.
    num_layers : int, default=3
        Number of GraphSAGE layers.
    aggregation : {"max", "mean", "add"}, default="max"
        Neighbourhood aggregation.

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
        if aggregation not in _AGGREGATIONS:
            raise ValueError(
                f"The 'aggregation' parameter of GraphSAGE must be one of "
                f"{sorted(_AGGREGATIONS)}. Got {aggregation!r} instead."
            )
        aggr = _AGGREGATIONS[aggregation]
        self.convs = nn.ModuleList(
            SAGEConv(
                in_channels if layer == 0 else dim_embedding,
                dim_embedding,
                aggr=aggr,
                project=aggr == "max",
            )
            for layer in range(num_layers)
        )
        self.hidden = nn.Linear(num_layers * dim_embedding, dim_embedding)
        self.output = nn.Linear(dim_embedding, out_channels)

    def forward(self, data):
        x, edge_index = data.x, data.edge_index
        layers = []
        for conv in self.convs:
            x = F.relu(conv(x, edge_index))
            layers.append(x)
        x = global_max_pool(torch.cat(layers, dim=1), data.batch, size=data.num_graphs)
        return self.output(F.relu(self.hidden(x)))
