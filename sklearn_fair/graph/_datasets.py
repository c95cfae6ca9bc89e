"""TU graph-classification data sets with the node-feature schemes of the fair-comparison paper."""

import os
import shutil
from pathlib import Path

import torch
from torch_geometric.datasets import TUDataset
from torch_geometric.transforms import BaseTransform, Compose, Constant, OneHotDegree
from torch_geometric.utils import degree

__all__ = ["FEATURE_SCHEMES", "load_mutag", "load_tu_dataset"]

#: The node-feature schemes that :func:`load_tu_dataset` accepts, with what each one builds.
FEATURE_SCHEMES = {
    "auto": "the paper's choice: 'node-labels' for chemical data sets, "
    "'node-labels+attributes' for ENZYMES; social data sets need an explicit choice",
    "node-labels": "one-hot encoding of the node labels (chemical data sets)",
    "node-labels+attributes": "the node's continuous attributes, then its one-hot label",
    "constant": "the constant feature 1 on every node (the paper's first choice for social data)",
    "degree": "the node degree as a single feature (the paper's second choice for social data)",
    "one-hot-degree": "one-hot encoding of the node degree, up to the largest degree in the data",
}

# Errica et al. (2020) used the node attributes of ENZYMES only; PROTEINS(_full) and the other
# chemical data sets get their one-hot node labels.
_WITH_ATTRIBUTES = {"ENZYMES"}

_BUNDLED = Path(__file__).resolve().parent / "data"


class _DegreeFeature(BaseTransform):
    """Replace the node features by the node degree, one float column."""

    def forward(self, data):
        data.x = degree(data.edge_index[0], data.num_nodes, dtype=torch.float).view(-1, 1)
        return data


class _DropEdgeAttr(BaseTransform):
    """Remove ``edge_attr`` (PyG keeps one-hot edge labels even with ``use_edge_attr=False``)."""

    def forward(self, data):
        data.edge_attr = None
        return data


def _feature_transform(features, dataset):
    if features == "constant":
        return Constant(value=1.0, cat=False)
    if features == "degree":
        return _DegreeFeature()
    if features == "one-hot-degree":
        max_degree = 0
        for data in dataset:
            if data.num_edges:
                max_degree = max(max_degree, int(degree(data.edge_index[0], data.num_nodes).max()))
        return OneHotDegree(max_degree, cat=False)
    return None


def load_tu_dataset(name, root, *, features="auto", use_edge_attr=False, force_reload=False):
    """Load a TU graph-classification data set with the paper's node features.

    A thin layer over PyTorch Geometric's :class:`~torch_geometric.datasets.TUDataset`,
    which downloads the data into ``root/name`` when its raw files are not there yet.
    The node features follow Errica et al., "A Fair Comparison of Graph Neural Networks
    for Graph Classification" (ICLR 2020): chemical data sets use the one-hot node labels
    (ENZYMES also its 18 continuous node attributes); social data sets, which have no node
    labels, get either a constant 1 on every node or the node degree.

    Parameters
    ----------
    name : str
        Name of the TU data set, e.g. ``"MUTAG"``, ``"PROTEINS"``, ``"NCI1"``,
        ``"IMDB-BINARY"``.
    root : str or path-like
        Writable folder that holds (or will hold) ``name/raw`` and ``name/processed``.
    features : str, default="auto"
        Node-feature scheme, one of the keys of :data:`FEATURE_SCHEMES`: ``"auto"``,
        ``"node-labels"``, ``"node-labels+attributes"``, ``"constant"``, ``"degree"``
        or ``"one-hot-degree"``. ``"auto"`` is the paper's choice for chemical data and
        raises for data sets without node labels, because the paper reported both
        ``"constant"`` and ``"degree"`` there.
    use_edge_attr : bool, default=False
        Keep the edge labels (one-hot) and edge attributes as ``edge_attr``. The paper did
        not use them, so by default the graphs carry no ``edge_attr``.
    force_reload : bool, default=False
        Process the raw files again even if a processed copy exists.

    Returns
    -------
    dataset : torch_geometric.datasets.TUDataset
        Indexable (``dataset[i]`` is a ``Data`` object with ``x``, ``edge_index`` and the
        label ``y``), so scikit-learn can split it; the labels are ``dataset.y``.

    Raises
    ------
    ValueError
        If ``features`` is not a known scheme, or is ``"auto"`` (or ``"node-labels"``)
        for a data set without node labels.

    Examples
    --------
    >>> import shutil, tempfile
    >>> from sklearn_fair.graph import load_mutag, load_tu_dataset
    >>> root = tempfile.mkdtemp()
    >>> _ = shutil.copytree(load_mutag().raw_dir, f"{root}/MUTAG/raw")
    >>> graphs = load_tu_dataset("MUTAG", root, features="degree")
    >>> len(graphs), graphs.num_node_features
    (188, 1)
    """
    if not isinstance(features, str) or features not in FEATURE_SCHEMES:
        raise ValueError(
            f"The 'features' parameter of load_tu_dataset must be one of "
            f"{sorted(FEATURE_SCHEMES)}. Got {features!r} instead."
        )
    use_node_attr = features == "node-labels+attributes" or (
        features == "auto" and name in _WITH_ATTRIBUTES
    )
    dataset = TUDataset(
        str(root),
        name,
        use_node_attr=use_node_attr,
        use_edge_attr=use_edge_attr,
        force_reload=force_reload,
    )
    if features in ("auto", "node-labels", "node-labels+attributes") and (
        dataset.num_node_labels == 0 and not (use_node_attr and dataset.num_node_attributes)
    ):
        raise ValueError(
            f"The TU data set {name!r} has no node labels, so features={features!r} gives no "
            "node features. Choose a scheme for graphs without node labels, as the paper did "
            "for social data sets: features='constant' (1 on every node) or features='degree' "
            "(or 'one-hot-degree')."
        )
    transforms = [] if use_edge_attr else [_DropEdgeAttr()]
    feature_transform = _feature_transform(features, dataset)
    if feature_transform is not None:
        transforms.append(feature_transform)
    if transforms:
        dataset.transform = transforms[0] if len(transforms) == 1 else Compose(transforms)
    return dataset


def _default_data_home():
    home = os.environ.get("SKLEARN_FAIR_CACHE")
    return Path(home) if home else Path.home() / ".cache" / "sklearn_fair"


def load_mutag(*, features="auto", data_home=None):
    """Load MUTAG, bundled with sklearn-fair, so the graph examples run offline.

    MUTAG (Debnath et al., 1991) holds 188 nitroaromatic compounds labelled by their
    mutagenic effect on a bacterium (125 mutagenic, 63 not); nodes are atoms with 7
    labels. The raw TU files ship in ``sklearn_fair/graph/data/MUTAG`` (see its
    ``PROVENANCE.md``); they are copied to ``data_home/TUDataset/MUTAG/raw`` because
    PyTorch Geometric writes its processed files beside them.

    Parameters
    ----------
    features : str, default="auto"
        Node-feature scheme, see :func:`load_tu_dataset`; ``"auto"`` gives the one-hot
        atom labels (7 features).
    data_home : str or path-like, default=None
        Writable cache folder. ``None`` uses ``$SKLEARN_FAIR_CACHE`` or, if unset,
        ``~/.cache/sklearn_fair``.

    Returns
    -------
    dataset : torch_geometric.datasets.TUDataset
        The 188 graphs, labels in ``dataset.y`` (0: not mutagenic, 1: mutagenic).

    Examples
    --------
    >>> from sklearn_fair.graph import load_mutag
    >>> graphs = load_mutag()
    >>> len(graphs), graphs.num_node_features, graphs.num_classes
    (188, 7, 2)
    """
    root = Path(data_home) if data_home is not None else _default_data_home()
    raw_dir = root / "TUDataset" / "MUTAG" / "raw"
    raw_dir.mkdir(parents=True, exist_ok=True)
    for source in (_BUNDLED / "MUTAG" / "raw").iterdir():
        target = raw_dir / source.name
        if not target.exists() or target.stat().st_size != source.stat().st_size:
            shutil.copyfile(source, target)
    return load_tu_dataset("MUTAG", root / "TUDataset", features=features)
