"""The graph demo runs the fair protocol on the bundled MUTAG and prints both models."""

import io

import numpy as np

from sklearn_fair.graph._demo import run_graph_demo


def test_quick_graph_demo(tmp_path, monkeypatch):
    monkeypatch.setenv("SKLEARN_FAIR_CACHE", str(tmp_path))
    out = io.StringIO()
    results = run_graph_demo(quick=True, file=out)
    text = out.getvalue()
    assert "MolecularFingerprint" in text and "GIN" in text
    assert "95% bootstrap CI" in text
    assert set(results) == {"MolecularFingerprint", "GIN"}
    for nested in results.values():
        assert nested.outer_scores_.shape == (3,)
        assert np.all((0 <= nested.outer_scores_) & (nested.outer_scores_ <= 1))
