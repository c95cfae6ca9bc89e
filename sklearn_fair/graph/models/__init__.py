"""The graph-classification models of the fair-comparison paper, as torch modules of PyG layers."""

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
