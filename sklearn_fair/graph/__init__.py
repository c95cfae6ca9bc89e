"""Graph classification with graph neural networks as scikit-learn estimators.

Everything here needs the ``graph`` extra (PyTorch, PyTorch Geometric and skorch). From a
checkout of sklearn-fair, in its root folder, PyTorch first (the build you want; without a GPU
add ``--index-url https://download.pytorch.org/whl/cpu``), then the extra::

    pip install "torch==2.13.0"
    pip install -e ".[graph]"

:class:`GraphClassifier` (a skorch net), :class:`GraphCollection` (graphs as stacked arrays),
the models and search spaces (:data:`PAPER_GRIDS`, :data:`SMALL_GRIDS`) of the fair-comparison
paper (Errica et al., ICLR 2020), and the loaders :func:`load_tu_dataset` and :func:`load_mutag`.
"""

from ..utils import install_hint

try:
    import skorch  # noqa: F401
    import torch  # noqa: F401
    import torch_geometric  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised in a torch-free environment
    raise ImportError(
        f"sklearn_fair.graph needs PyTorch, PyTorch Geometric and skorch ({exc.name!r} is "
        f"missing). {install_hint('graph')}."
    ) from exc

from ._classifier import GraphClassifier
from ._collection import GraphCollection
from ._datasets import FEATURE_SCHEMES, load_mutag, load_tu_dataset
from ._grids import PAPER_GRIDS, SMALL_GRIDS
from .models import (
    DGCNN,
    ECC,
    GIN,
    DeepMultisets,
    DiffPool,
    GraphSAGE,
    MolecularFingerprint,
)

__all__ = [
    "DGCNN",
    "ECC",
    "FEATURE_SCHEMES",
    "GIN",
    "PAPER_GRIDS",
    "SMALL_GRIDS",
    "DeepMultisets",
    "DiffPool",
    "GraphClassifier",
    "GraphCollection",
    "GraphSAGE",
    "MolecularFingerprint",
    "load_mutag",
    "load_tu_dataset",
    "run_graph_demo",
]


def __getattr__(name):
    # The demo pulls in the report and statistics layers (jinja2 among them), which a worker
    # process that only fits a GraphClassifier does not need: imported on first use.
    if name == "run_graph_demo":
        from ._demo import run_graph_demo

        return run_graph_demo
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | {"run_graph_demo"})
