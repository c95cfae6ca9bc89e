"""Graphs given as a plain list of arrays (adjacency matrices of different sizes, or
``(x, edge_index)`` tuples) are items, as scikit-learn's splitters index them: the sampler keeps
the very objects imbalanced-learn's RandomUnderSampler keeps of the same indices. A list of
rows of one width is still a table."""

import numpy as np
import pytest
from imblearn.under_sampling import RandomUnderSampler

from sklearn_fair.sampling import RandomGraphUnderSampler

rng = np.random.RandomState(0)
SIZES = rng.randint(3, 12, 60)
Y = (SIZES > 8).astype(int)


def _reference_indices(y, seed):
    """The rows imbalanced-learn's RandomUnderSampler keeps (a column of row numbers as X)."""
    sampler = RandomUnderSampler(random_state=seed)
    sampler.fit_resample(np.arange(len(y))[:, None], y)
    return np.sort(sampler.sample_indices_)


@pytest.mark.parametrize(
    "graphs",
    [
        [(rng.rand(k, k) < 0.3).astype(float) for k in SIZES],
        [(np.ones((k, 1)), np.zeros((2, k), dtype=int)) for k in SIZES],
        [(rng.rand(4, 4) < 0.3).astype(float) for _ in SIZES],  # 2-D items of one shape
    ],
    ids=["adjacency matrices", "(x, edge_index) tuples", "matrices of one shape"],
)
def test_a_list_of_arrays_is_items(graphs):
    sampler = RandomGraphUnderSampler(random_state=0)
    kept, y_kept = sampler.fit_resample(graphs, Y)
    expected = _reference_indices(Y, 0)
    assert np.array_equal(np.sort(sampler.sample_indices_), expected)
    assert len(kept) == expected.size and np.array_equal(np.bincount(y_kept), [19, 19])
    by_identity = {id(g): i for i, g in enumerate(graphs)}
    assert sorted(by_identity[id(g)] for g in kept) == expected.tolist()


def test_a_list_of_rows_of_one_width_is_still_a_table():
    rows = [[float(k), float(k) ** 2] for k in SIZES]
    # as imbalanced-learn's sampler takes (and gives back) a list of rows
    kept, _ = RandomGraphUnderSampler(random_state=0).fit_resample(rows, Y)
    reference, _ = RandomUnderSampler(random_state=0).fit_resample(rows, Y)
    assert type(kept) is type(reference) and np.asarray(kept).shape == (38, 2)
    assert sorted(map(tuple, kept)) == sorted(map(tuple, reference))
