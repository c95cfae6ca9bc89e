"""Fixtures for the graph tests: the bundled MUTAG (no shared data needed), one torch thread.

The graph tests need the ``graph`` extra (torch, PyG, skorch). Without it they fail, so that a
broken install is not hidden behind skips; a torch-free environment is skipped only when it says
so (``SKLEARN_FAIR_WITHOUT_TORCH=1``), and never on CI (``CI`` set), which installs the extra.
``test_import.py`` runs without torch either way.
"""

import os
import shutil
from pathlib import Path

import numpy as np
import pytest

try:
    import torch
except ImportError:
    if os.environ.get("SKLEARN_FAIR_WITHOUT_TORCH") == "1" and not os.environ.get("CI"):
        # deliberately torch-free: collect only the tests that need no torch
        collect_ignore = [
            path.name
            for path in Path(__file__).parent.glob("test_*.py")
            if path.name != "test_import.py"
        ]
        torch = None
    else:
        raise ImportError(
            "The graph tests need torch, torch_geometric and skorch: pip install "
            "'sklearn-fair[graph]'. To skip them deliberately in a torch-free environment "
            "(never on CI), set SKLEARN_FAIR_WITHOUT_TORCH=1."
        ) from None


@pytest.fixture(autouse=True, scope="session")
def _one_torch_thread():
    if torch is None:
        yield
        return
    # Tiny models on a shared 2-core machine: more threads only add contention.
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.fixture(scope="session")
def mutag():
    """MUTAG (188 graphs, 7 one-hot atom labels), read from the copy bundled in the package."""
    from sklearn_fair.graph import load_mutag

    return load_mutag()


@pytest.fixture(scope="session")
def mutag_root(tmp_path_factory):
    """A writable folder holding ``MUTAG/raw`` copied from the package (not the shared data)."""
    import sklearn_fair.graph

    root = tmp_path_factory.mktemp("bundled")
    shutil.copytree(Path(sklearn_fair.graph.__file__).parent / "data" / "MUTAG", root / "MUTAG")
    return root


@pytest.fixture(scope="session")
def mutag_split(mutag):
    """A fixed stratified 75/25 split of MUTAG as lists of graphs, with the test majority rate."""
    from sklearn.model_selection import train_test_split

    y = mutag.y
    train, test = train_test_split(
        np.arange(len(mutag)), test_size=0.25, stratify=y, random_state=0
    )
    X_train = [mutag[int(i)] for i in train]
    X_test = [mutag[int(i)] for i in test]
    majority = np.bincount(y[test]).max() / len(test)
    return X_train, X_test, majority


def _random_graphs(n_graphs=12, edge_features=True, seed=0):
    """Small random PyG graphs with labels; graph 3 has one node, graphs 3 and 5 no edges."""
    from torch_geometric.data import Data

    rng = np.random.default_rng(seed)
    graphs = []
    for index in range(n_graphs):
        n_nodes = 1 if index == 3 else int(rng.integers(2, 7))
        n_edges = 0 if index in (3, 5) else int(rng.integers(1, 9))
        fields = dict(
            x=torch.from_numpy(rng.normal(size=(n_nodes, 3)).astype(np.float32)),
            edge_index=torch.from_numpy(rng.integers(0, n_nodes, size=(2, n_edges))),
            y=torch.tensor([index % 3]),
        )
        if edge_features:
            fields["edge_attr"] = torch.from_numpy(rng.normal(size=(n_edges, 2)).astype(np.float32))
        graphs.append(Data(**fields))
    return graphs


@pytest.fixture
def random_graphs():
    """A function returning small random graphs (see ``_random_graphs``)."""
    return _random_graphs
