"""The graph demo runs the fair protocol on the bundled MUTAG and prints both models.

The printed figures are recomputed here from the outer-fold scores with scipy and the hand
formula of Nadeau and Bengio's corrected resampled t-test, not read back from the code that
printed them.
"""

import io

import numpy as np
from scipy import stats

from sklearn_fair.graph._demo import run_graph_demo


def _corrected_ttest(a, b, n_train, n_test):
    """Nadeau & Bengio (2003): the variance of the k fold differences inflated by n_test/n_train."""
    d = np.asarray(a) - np.asarray(b)
    k = len(d)
    variance = (1 / k + n_test / n_train) * np.var(d, ddof=1)
    t = d.mean() / np.sqrt(variance)
    return d.mean(), 2 * stats.t.sf(abs(t), k - 1)


def test_quick_graph_demo(tmp_path, monkeypatch):
    monkeypatch.setenv("SKLEARN_FAIR_CACHE", str(tmp_path))
    out = io.StringIO()
    results = run_graph_demo(quick=True, file=out)
    text = out.getvalue()
    assert set(results) == {"MolecularFingerprint", "GIN"}
    assert (
        "MUTAG: 188 graphs, 7 node features (one-hot atom labels), class counts [63, 125]" in text
    )
    # the corrected resampled t, as README says of every interval of the mean (it printed a
    # Student t's, and the first model's method under both rows)
    assert "interval: corrected resampled t (Nadeau & Bengio), 2 df, of the mean of 3" in text
    assert "compare() on the 3 paired outer-fold accuracy scores" in text
    for name, nested in results.items():
        scores = nested.outer_scores_
        assert scores.shape == (3,)
        sizes = [(len(f["train_indices"]), len(f["test_indices"])) for f in nested.outer_results_]
        n_train, n_test = np.mean(sizes, axis=0)
        half = stats.t.ppf(0.975, 2) * np.sqrt((1 / 3 + n_test / n_train) * np.var(scores, ddof=1))
        low, high = scores.mean() - half, scores.mean() + half
        low, high = max(low, 0.0), min(high, 1.0)  # an accuracy's interval is clipped to [0, 1]
        row = next(line for line in text.splitlines() if line.startswith(name + " "))
        assert f"{scores.mean():.3f}" in row and f"{np.std(scores):.3f}" in row
        assert f"[{low:.3f}, {high:.3f}]" in row
    # both models on the same outer folds (the three of 188 graphs), compared as compare() says
    folds = [
        (len(f["train_indices"]), len(f["test_indices"]))
        for f in results["MolecularFingerprint"].outer_results_
    ]
    assert all(train + test == 188 for train, test in folds)
    n_train, n_test = np.mean(folds, axis=0)
    a, b = results["MolecularFingerprint"].outer_scores_, results["GIN"].outer_scores_
    difference, pvalue = _corrected_ttest(a, b, n_train, n_test)
    # as the report prints them: two significant digits of the smallest std of the fold
    # scores, p-values to two significant digits
    d = 1 - int(np.floor(np.log10(min(s for s in (np.std(a), np.std(b)) if s > 0))))
    assert f"MolecularFingerprint - GIN: {difference:+.{d}f} accuracy" in text
    if pvalue <= 0.05:  # one pair: Holm's adjustment leaves its p-value as it is
        better = "MolecularFingerprint" if difference > 0 else "GIN"
        assert f"  -> {better} better: the difference is demonstrated" in text
    else:
        assert "  -> difference not demonstrated" in text
    p = "p < 0.001" if pvalue < 0.001 else f"p = {pvalue:.2g}"
    assert f"{p}, Holm-adjusted {p}" in text
