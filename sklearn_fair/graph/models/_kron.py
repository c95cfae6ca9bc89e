"""Graph coarsening by Kron reduction of the normalised Laplacian, as the ECC reference does it.

The rules of diningphil/gnn-comparison's ``datasets/manager.py`` (after Simonovsky and Komodakis,
CVPR 2017, who follow Shuman et al., 2016), described with our differences in the ECC
docstring; the code is ours. The start vector of the power iteration is a fixed draw (seed 0)
from the reference's distribution, so it depends only on the number of nodes.
"""

import numpy as np
from scipy.sparse.csgraph import connected_components

__all__ = ["coarsen_graph", "normalized_laplacian"]

POWER_ITERATIONS = 30  # the reference's ``num_simulations``
_START_SEED = 0
# Kron reduction turns some exact zeros into round-off (a 2-node graph reduced to one node gives
# about 1e-17 instead of 0). Every non-zero entry becomes an edge of ECC, so such residue is
# zeroed; a genuine coupling this weak (nodes linked only through long chains of dropped
# nodes) is treated as absent too.
ROUND_OFF = 1e-10


def normalized_laplacian(edge_index, num_nodes):
    """Dense ``I - D^-1/2 A D^-1/2``, 0 rows for isolated nodes: networkx's
    ``normalized_laplacian_matrix`` of the reference's ``nx.Graph`` (an edge counts once)."""
    adjacency = np.zeros((num_nodes, num_nodes))
    if edge_index.size:
        adjacency[edge_index[0], edge_index[1]] = 1.0
        adjacency[edge_index[1], edge_index[0]] = 1.0
    degree = adjacency.sum(axis=1)
    with np.errstate(divide="ignore"):
        scale = np.where(degree > 0, 1.0 / np.sqrt(degree), 0.0)
    return scale[:, None] * (np.diag(degree) - adjacency) * scale[None, :]


def _leading_sign_split(laplacian):
    """Nodes where the power-iteration estimate of the leading eigenvector is >= 0."""
    n = laplacian.shape[0]
    vector = np.random.default_rng(_START_SEED).uniform(-1.0, -0.5, size=n)
    for _ in range(POWER_ITERATIONS):
        vector = laplacian @ vector
        norm = np.linalg.norm(vector)
        if norm == 0:  # no edges at all: the reference gets NaN and keeps every node
            return np.ones(n, dtype=bool)
        vector = vector / norm
    return vector >= 0


def _decimate(laplacian):
    """One level down: the kept nodes and the Kron-reduced Laplacian on them."""
    keep = _leading_sign_split(laplacian)
    labels = connected_components(laplacian != 0, directed=False)[1]
    # A component with no kept node (30 steps not converged) stays whole: the reference's rule
    # for a whole graph; for a component of a disconnected one it would invert a singular matrix.
    keep |= ~np.isin(labels, labels[keep])
    drop = ~keep
    if not drop.any():
        return keep, laplacian.copy()
    kept_block = laplacian[np.ix_(keep, keep)]
    coupling = laplacian[np.ix_(keep, drop)]
    # Each dropped set is a proper subset of its connected component, so its block is
    # positive definite and the solve is well posed.
    reduced = kept_block - coupling @ np.linalg.solve(
        laplacian[np.ix_(drop, drop)], laplacian[np.ix_(drop, keep)]
    )
    reduced[np.abs(reduced) < ROUND_OFF] = 0.0
    return keep, reduced


def coarsen_graph(edge_index, num_nodes, num_levels):
    """Laplacian pyramid of one graph: the dense Laplacians of levels ``0..num_levels`` (level 0:
    the normalised Laplacian) and, per level but the last, the mask of the nodes that form the
    next one."""
    laplacian = normalized_laplacian(np.asarray(edge_index, dtype=np.int64), int(num_nodes))
    laplacians, keeps = [laplacian], []
    for _ in range(num_levels):
        if laplacian.shape[0] == 1:
            # The reference's rule for a graph reduced to one node: the next level is the
            # 1x1 identity (one self-loop of weight 1).
            keep, laplacian = np.ones(1, dtype=bool), np.eye(1)
        else:
            keep, laplacian = _decimate(laplacian)
        keeps.append(keep)
        laplacians.append(laplacian)
    return laplacians, keeps
