"""features="one-hot-degree" of a crafted TU folder: one node of large degree asked for a
(nodes x largest degree) float32 table, unbounded (a 700 KB star of 40,000 nodes, 6.4 GB);
it is refused as a label file of the same size is, before anything is allocated."""

import tracemalloc

import numpy as np
import pytest

from sklearn_fair.graph import _datasets, load_tu_dataset
from sklearn_fair.utils._tu_format import TUFormatError


def write_star(root, n):
    """Graph 1: a star of ``n`` nodes (node 1 the centre); graph 2: a single edge."""
    raw = root / "STAR" / "raw"
    raw.mkdir(parents=True)
    (raw / "STAR_graph_indicator.txt").write_text("1\n" * n + "2\n2\n")
    edges = "".join(f"1,{k}\n{k},1\n" for k in range(2, n + 1))
    (raw / "STAR_A.txt").write_text(edges + f"{n + 1},{n + 2}\n{n + 2},{n + 1}\n")
    (raw / "STAR_graph_labels.txt").write_text("0\n1\n")
    return raw


def test_a_star_too_wide_to_one_hot_is_refused_before_allocating(tmp_path):
    # 33,002 nodes, the centre of degree 32,999: 33,002 * 33,000 = 1,089,066,000 values,
    # past 2**30 = 1,073,741,824 (4.1 GiB of float32) from 600 KB of raw files
    raw = write_star(tmp_path, 33_000)
    tracemalloc.start()
    try:
        with pytest.raises(TUFormatError) as error:
            # max_size: a raw file is read into a buffer of what is left of it (4 GiB)
            load_tu_dataset("STAR", tmp_path, features="one-hot-degree", max_size=2**21)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20, peak
    message = str(error.value)
    for words in (
        str(raw / "STAR_A.txt"),
        "node 1 (of graph 1) has degree 32999",
        "features='one-hot-degree'",
        "33000 columns for 33002 nodes, 1089066000 values",
        "MAX_LABEL_VALUES=1073741824",
        "features='degree'",
    ):
        assert words in message, (words, message)
    # the same folder loads with the degree as one feature
    graphs = load_tu_dataset("STAR", tmp_path, features="degree", max_size=2**21)
    assert graphs[0].x.max().item() == 32_999


def test_the_bound_counts_nodes_times_the_largest_degree_plus_one(tmp_path, monkeypatch):
    # 7 nodes (a star of 5, an edge), degrees 4, 1, 1, 1, 1, 1, 1: 7 rows of 5 columns
    write_star(tmp_path, 5)
    monkeypatch.setattr(_datasets, "MAX_LABEL_VALUES", 34)
    with pytest.raises(TUFormatError, match="5 columns for 7 nodes, 35 values"):
        load_tu_dataset("STAR", tmp_path, features="one-hot-degree", max_size=2**20)
    monkeypatch.setattr(_datasets, "MAX_LABEL_VALUES", 35)
    graphs = load_tu_dataset("STAR", tmp_path, features="one-hot-degree", max_size=2**20)
    expected = np.zeros((7, 5), dtype=np.float32)
    expected[np.arange(7), [4, 1, 1, 1, 1, 1, 1]] = 1
    np.testing.assert_array_equal(np.concatenate([graphs[0].x, graphs[1].x]), expected)
