"""Fixtures for the graph tests: MUTAG from the shared data folder, one torch thread."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")  # the graph extra is installed on CI; skip elsewhere


@pytest.fixture(autouse=True, scope="session")
def _one_torch_thread():
    # Tiny models on a shared 2-core machine: more threads only add contention.
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.fixture(scope="session")
def mutag(tu_root):
    """MUTAG (188 graphs, 7 one-hot atom labels) from a temp copy of the shared data."""
    from sklearn_fair.graph import load_tu_dataset

    return load_tu_dataset("MUTAG", tu_root("MUTAG"))


@pytest.fixture(scope="session")
def mutag_split(mutag):
    """A fixed stratified 75/25 split of MUTAG as lists of graphs, with the test majority rate."""
    from sklearn.model_selection import train_test_split

    y = mutag.y.numpy()
    train, test = train_test_split(
        np.arange(len(mutag)), test_size=0.25, stratify=y, random_state=0
    )
    X_train = [mutag[int(i)] for i in train]
    X_test = [mutag[int(i)] for i in test]
    majority = np.bincount(y[test]).max() / len(test)
    return X_train, X_test, majority
