"""DiffPool (Ying et al., NeurIPS 2018): hierarchical pooling with learned cluster assignments."""

import math

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from torch_geometric.nn import dense_diff_pool
from torch_geometric.utils import to_dense_adj, to_dense_batch

from ._checks import COUNT, check_params

__all__ = ["DiffPool"]


class _DenseSAGEConv(nn.Module):
    """``mean_{j in N(i)} x_j W + b``: PyG 1.4's DenseSAGEConv with the reference's
    ``add_loop=False`` (no root weight, no L2 normalisation; no neighbours: the bias)."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.linear = nn.Linear(in_channels, out_channels)

    def forward(self, x, adj, mask=None):
        out = torch.matmul(adj, x) / adj.sum(dim=-1, keepdim=True).clamp(min=1)
        out = self.linear(out)
        if mask is not None:
            out = out * mask.unsqueeze(-1).to(out.dtype)
        return out


class _DenseSAGEBlock(nn.Module):
    """Three dense GraphSAGE convolutions; the output concatenates all three."""

    def __init__(self, in_channels, hidden_channels, out_channels, *, project=False):
        super().__init__()
        widths = [in_channels, hidden_channels, hidden_channels, out_channels]
        self.convs = nn.ModuleList(_DenseSAGEConv(a, b) for a, b in zip(widths, widths[1:]))
        # Batch norm over every row of the dense batch, padding included, as in the reference.
        self.norms = nn.ModuleList([nn.BatchNorm1d(hidden_channels) for _ in range(2)])
        width = 2 * hidden_channels + out_channels
        self.project = nn.Linear(width, out_channels) if project else None
        self.out_channels = out_channels if project else width

    def forward(self, x, adj, mask=None):
        layers = []
        for index, conv in enumerate(self.convs):
            x = conv(x, adj, mask)
            if index < 2:
                x = F.relu(x)
                x = self.norms[index](x.flatten(0, 1)).view_as(x)
            layers.append(x)
        x = torch.cat(layers, dim=-1)
        return self.project(x) if self.project is not None else x


class DiffPool(nn.Module):
    """DiffPool: GraphSAGE embeddings pooled by learned soft cluster assignments.

    Following Ying et al., "Hierarchical Graph Representation Learning with
    Differentiable Pooling" (NeurIPS 2018) as implemented by Errica et al. (ICLR 2020,
    diningphil/gnn-comparison). Each DiffPool layer runs two blocks of three dense GraphSAGE
    convolutions (ReLU and batch norm after the first two), one for the node embeddings (the
    three outputs concatenated) and one for the assignment of nodes to clusters (the three
    outputs concatenated and projected linearly to the number of clusters), then pools with
    :func:`~torch_geometric.nn.dense.dense_diff_pool`. The convolutions are those of PyTorch
    Geometric 1.4 called as the reference calls them: the mean of the neighbours' features
    times one weight matrix plus a bias, without the node's own features (no self-loop, no
    root weight) and without L2 normalisation. A final GraphSAGE block follows the last
    pooling; the max over the nodes (clusters) of every level is concatenated and classified
    by a two-layer MLP (ReLU).

    The number of clusters is ``ceil(0.1 * max_num_nodes)`` with one DiffPool layer, and
    ``ceil(0.25 * max_num_nodes)`` with more, each further layer taking ``ceil(0.25 * c)``
    of the previous ``c``, where ``max_num_nodes`` is the largest graph. The reference takes
    the largest graph of the whole data set (its test graphs included); by default we take the
    largest graph given to :meth:`~sklearn_fair.graph.GraphClassifier.fit` (``node_counts``),
    which can be smaller in some folds. Pass ``max_num_nodes`` (e.g.
    ``max(g.num_nodes for g in dataset)``) to use the reference's rule.

    The link-prediction loss ``||A - S S^T||_F / numel(A)`` and the entropy of the
    assignments ``S``, summed over the DiffPool layers, are left in ``auxiliary_loss`` by
    every forward pass, in training and evaluation alike: the reference adds them to the
    training loss and to the validation loss that early stopping reads.
    :class:`~sklearn_fair.graph.GraphClassifier` adds them to the loss.

    Batch norm needs two rows in training: where the last level has one cluster (graphs of
    at most 10 nodes), a training batch of one graph (the last batch of an epoch, when the
    training graphs leave a remainder of 1 by ``batch_size``) fails with PyTorch's "Expected
    more than 1 value per channel when training", as the reference would; a
    :class:`~sklearn_fair.graph.GraphClassifier` with ``iterator_train__drop_last=True``
    leaves such a batch out (a change to the reference's training).

    Parameters
    ----------
    in_channels : int
        Number of node features.
    out_channels : int
        Number of classes.
    num_layers : int, default=1
        Number of DiffPool layers (the paper's grid uses 2), at least 1.
    gnn_dim_hidden : int, default=64
        Width of the first two convolutions of each GraphSAGE block, at least 1.
    dim_embedding : int, default=128
        Width of the third convolution of each block, at least 1.
    dim_embedding_MLP : int, default=50
        Width of the hidden layer of the final MLP, at least 1.
    node_counts : array-like of int, default=None
        Node counts of the training graphs; their maximum sets the number of clusters when
        ``max_num_nodes`` is ``None``. :class:`~sklearn_fair.graph.GraphClassifier` fills it in.
    max_num_nodes : int, default=None
        Largest graph size that sets the number of clusters; takes precedence over
        ``node_counts``.

    Attributes
    ----------
    num_clusters : list of int
        Number of clusters of each DiffPool layer.
    auxiliary_loss : torch.Tensor or None
        Link-prediction plus entropy loss of the last forward pass.

    Examples
    --------
    >>> import torch
    >>> from torch_geometric.data import Batch, Data
    >>> graph = Data(x=torch.randn(5, 3), edge_index=torch.tensor([[0, 1, 2], [1, 2, 3]]))
    >>> model = DiffPool(3, 2, gnn_dim_hidden=8, dim_embedding=8, dim_embedding_MLP=8,
    ...                  num_layers=2, node_counts=[5, 12, 7])
    >>> model.num_clusters
    [3, 1]
    >>> model(Batch.from_data_list([graph, graph])).shape
    torch.Size([2, 2])
    >>> bool(model.auxiliary_loss > 0)
    True
    """

    def __init__(
        self,
        in_channels,
        out_channels,
        *,
        num_layers=1,
        gnn_dim_hidden=64,
        dim_embedding=128,
        dim_embedding_MLP=50,
        node_counts=None,
        max_num_nodes=None,
    ):
        super().__init__()
        sizes = dict(
            num_layers=num_layers,
            gnn_dim_hidden=gnn_dim_hidden,
            dim_embedding=dim_embedding,
            dim_embedding_MLP=dim_embedding_MLP,
        )
        num_layers, gnn_dim_hidden, dim_embedding, dim_embedding_MLP = check_params(
            self, dict.fromkeys(sizes, [COUNT]), **sizes
        )
        if max_num_nodes is None:
            if node_counts is None or len(node_counts) == 0:
                raise ValueError(
                    "DiffPool needs node_counts or max_num_nodes to size its clusters; "
                    "GraphClassifier fills node_counts from the training graphs."
                )
            max_num_nodes = int(np.max(node_counts))
        # checked after it is read from node_counts, which sets it when it is None
        max_num_nodes = check_params(self, {"max_num_nodes": [COUNT]}, max_num_nodes=max_num_nodes)
        coarsening = 0.1 if num_layers == 1 else 0.25
        clusters = math.ceil(coarsening * max_num_nodes)
        embed_width = 2 * gnn_dim_hidden + dim_embedding
        self.num_clusters = []
        self.pool_blocks = nn.ModuleList()
        self.embed_blocks = nn.ModuleList()
        width = in_channels
        for _ in range(num_layers):
            self.num_clusters.append(clusters)
            self.pool_blocks.append(_DenseSAGEBlock(width, gnn_dim_hidden, clusters, project=True))
            self.embed_blocks.append(_DenseSAGEBlock(width, gnn_dim_hidden, dim_embedding))
            width = embed_width
            clusters = math.ceil(coarsening * clusters)
        self.final_block = _DenseSAGEBlock(embed_width, gnn_dim_hidden, dim_embedding)
        self.hidden = nn.Linear(embed_width * (num_layers + 1), dim_embedding_MLP)
        self.output = nn.Linear(dim_embedding_MLP, out_channels)
        self.auxiliary_loss = None

    def forward(self, data):
        x, mask = to_dense_batch(data.x, data.batch, batch_size=data.num_graphs)
        adj = to_dense_adj(data.edge_index, data.batch, batch_size=data.num_graphs)
        readouts, auxiliary = [], 0
        for pool_block, embed_block in zip(self.pool_blocks, self.embed_blocks):
            assignment = pool_block(x, adj, mask)
            x = embed_block(x, adj, mask)
            x, adj, link_loss, entropy_loss = dense_diff_pool(x, adj, assignment, mask)
            readouts.append(x.max(dim=1).values)
            auxiliary = auxiliary + link_loss + entropy_loss
            mask = None  # after pooling every graph has the same number of clusters
        x = self.final_block(x, adj)
        readouts.append(x.max(dim=1).values)
        self.auxiliary_loss = auxiliary
        return self.output(F.relu(self.hidden(torch.cat(readouts, dim=1))))
