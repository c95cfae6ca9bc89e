"""The structure-agnostic MolecularFingerprint baseline."""

from torch import nn
from torch_geometric.nn import global_add_pool

from ._checks import COUNT, check_params

__all__ = ["MolecularFingerprint"]


class MolecularFingerprint(nn.Module):
    """Sum of the node features, then a one-hidden-layer MLP with ReLU.

    The chemical baseline of Errica et al. (ICLR 2020): it ignores the edges, so it shows how
    much a graph model gains from the structure (summing one-hot atom labels counts the atoms
    of each type, a simple molecular fingerprint). One deliberate difference from the
    reference (diningphil/gnn-comparison): its MLP ends with a ReLU on the logits, which clips
    every negative class score to 0, so a graph whose scores are all negative gets uniform
    probabilities and no gradient. We leave that ReLU out; the model is otherwise the same.

    Parameters
    ----------
    in_channels : int
        Number of node features.
    out_channels : int
        Number of classes.
    hidden_units : int, default=32
        Width of the hidden layer, at least 1.

    Examples
    --------
    >>> import torch
    >>> from torch_geometric.data import Batch, Data
    >>> graph = Data(x=torch.ones(3, 4), edge_index=torch.tensor([[0, 1], [1, 0]]))
    >>> model = MolecularFingerprint(4, 2, hidden_units=8)
    >>> model(Batch.from_data_list([graph, graph])).shape
    torch.Size([2, 2])
    """

    def __init__(self, in_channels, out_channels, *, hidden_units=32):
        super().__init__()
        hidden_units = check_params(self, {"hidden_units": [COUNT]}, hidden_units=hidden_units)
        # No ReLU on the logits, unlike the reference (see the docstring).
        self.mlp = nn.Sequential(
            nn.Linear(in_channels, hidden_units), nn.ReLU(), nn.Linear(hidden_units, out_channels)
        )

    def forward(self, data):
        return self.mlp(global_add_pool(data.x, data.batch, size=data.num_graphs))
