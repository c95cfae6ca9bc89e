"""The graph demo runs the fair protocol on the bundled MUTAG and prints both models."""

import io

import numpy as np

from sklearn_fair.graph._demo import run_graph_demo
from sklearn_fair.stats import compare


def test_quick_graph_demo(tmp_path, monkeypatch):
    monkeypatch.setenv("SKLEARN_FAIR_CACHE", str(tmp_path))
    out = io.StringIO()
    results = run_graph_demo(quick=True, file=out)
    text = out.getvalue()
    assert "MolecularFingerprint" in text and "GIN" in text
    assert "test accuracy" in text and "95% interval" in text
    assert "(interval: Student t, 2 df, of the mean of 3 scores;" in text
    assert "compare() on the 3 paired outer-fold accuracy scores" in text
    verdict = compare(results)["verdict"][0]
    assert f"  -> {verdict}" in text
    assert set(results) == {"MolecularFingerprint", "GIN"}
    for nested in results.values():
        assert nested.outer_scores_.shape == (3,)
        assert np.all((0 <= nested.outer_scores_) & (nested.outer_scores_ <= 1))
