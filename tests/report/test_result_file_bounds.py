"""What reading a saved result costs and accepts: a file over the size cap is refused before a
byte is read, and a key given twice (which readers resolve differently) is refused."""

import json
import tracemalloc

import pytest

from sklearn_fair import BenchmarkResult
from sklearn_fair.exceptions import InvalidResultError
from sklearn_fair.model_selection._bounded_json import read_json


def test_a_file_over_max_bytes_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "big.json"
    with open(path, "wb") as file:
        file.truncate(2**30)  # sparse: no disk
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match="larger than max_bytes"):
            read_json(path, max_bytes=64 * 2**20, max_depth=4, error=ValueError)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2**20  # it read (and allocated) nothing of the 64 MiB it may read


def test_a_saved_benchmark_with_a_key_given_twice_is_refused(tmp_path):
    cells = {
        ("d", "a"): {"test_scores": [0.8, 0.7, 0.9]},
        ("d", "b"): {"test_scores": [0.6, 0.65, 0.7]},
    }
    path = BenchmarkResult.from_results(cells, metric="accuracy").save(tmp_path / "b.json")
    text = path.read_text()
    assert BenchmarkResult.load(path).mean_scores().loc["d", "a"] == pytest.approx(0.8)
    # an edit the checksum cannot see: Python reads the last value (the one it was computed
    # on), a reader that keeps the first reads 0.999
    first = text.index('"test_score"')
    edited = text[:first] + '"test_score":0.999,' + text[first:]
    assert json.loads(edited) == json.loads(text)
    path.write_text(edited)
    with pytest.raises(InvalidResultError, match="twice"):
        BenchmarkResult.load(path)
