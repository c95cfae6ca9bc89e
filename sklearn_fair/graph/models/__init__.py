"""Graph-classification models of the fair-comparison paper, as torch modules built from PyG layers.

Every model takes ``in_channels`` (node features) and ``out_channels`` (classes) first,
takes a PyG ``Batch`` in ``forward`` and returns one row of logits per graph.
:class:`~sklearn_fair.graph.GraphClassifier` fills in both sizes from the data.
"""

from ._deep_multisets import DeepMultisets
from ._dgcnn import DGCNN
from ._diffpool import DiffPool
from ._ecc import ECC
from ._gin import GIN
from ._graphsage import GraphSAGE
from ._molecular_fingerprint import MolecularFingerprint

__all__ = [
    "DGCNN",
    "ECC",
    "GIN",
    "DeepMultisets",
    "DiffPool",
    "GraphSAGE",
    "MolecularFingerprint",
]
