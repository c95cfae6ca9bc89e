import numpy as np
import pytest
from scipy import stats

from sklearn_fair.stats import Summary, bootstrap_ci, iqm, summarize


@pytest.mark.parametrize("n", [2, 3, 5, 10, 31])
def test_fields_match_independent_references(n):
    scores = np.random.default_rng(n).uniform(0.6, 0.9, size=n)
    summary = summarize(scores)
    assert summary.n == n
    assert summary.mean == pytest.approx(np.mean(scores))
    assert summary.std == pytest.approx(np.std(scores, ddof=1))
    assert summary.sem == pytest.approx(stats.sem(scores))
    low, high = stats.norm.interval(0.95, loc=np.mean(scores), scale=stats.sem(scores))
    assert summary.ci == pytest.approx((low, high))
    assert summary.median == pytest.approx(np.median(scores))
    assert summary.iqm == pytest.approx(stats.trim_mean(scores, 0.25))
    assert summary.iqm_ci_low <= summary.iqm <= summary.iqm_ci_high
    assert summary.iqm_ci == tuple(bootstrap_ci(scores, iqm))


def test_reproducible_and_seeded():
    scores = np.random.default_rng(0).uniform(0.6, 0.9, size=15)
    assert summarize(scores) == summarize(scores)
    assert summarize(scores, random_state=1).iqm_ci != summarize(scores, random_state=2).iqm_ci


def test_prints_and_converts():
    summary = summarize([0.80, 0.82, 0.85, 0.79, 0.84], confidence=0.9)
    text = str(summary)
    assert "5 scores" in text and "0.8200" in text and "90% normal interval" in text
    assert repr(summary).startswith("Summary(n=5, mean=0.82")
    as_dict = summary.to_dict()
    assert as_dict["mean"] == pytest.approx(0.82)
    assert set(as_dict) == {
        "n", "mean", "std", "sem", "ci_low", "ci_high", "median", "iqm", "iqm_ci_low",
        "iqm_ci_high", "confidence",
    }  # fmt: skip
    assert isinstance(summary, Summary)


@pytest.mark.parametrize(
    "scores, match",
    [([0.8], "at least 2"), ([], "at least 2"), ([0.8, np.nan, 0.7], "NaN"), ([[0.8, 0.7]], "1-D")],
)
def test_bad_inputs(scores, match):
    with pytest.raises(ValueError, match=match):
        summarize(scores)
