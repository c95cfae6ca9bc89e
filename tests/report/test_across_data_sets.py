"""The report and BenchmarkResult across data sets: the test chosen as autorank chooses it, and
the Bayesian signed-rank test with a ROPE, checked against autorank and baycomp."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import benchmark


@pytest.fixture(scope="module")
def result():
    datasets = {
        f"d{seed}": make_classification(n_samples=60, n_features=6, random_state=seed)
        for seed in range(6)
    }
    models = {
        "prior": DummyClassifier(),
        "logistic": (LogisticRegression(), {"C": [0.1, 1.0]}),
        "tree": (DecisionTreeClassifier(random_state=0), {"max_depth": [2, 4]}),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return benchmark(
            models, datasets, outer_cv=3, n_refits=1, baseline="prior", baseline_floor=True,
            random_state=0,
        )  # fmt: skip


def test_compare_across_is_baycomps_signed_rank_test_with_a_rope(result):
    baycomp = pytest.importorskip("baycomp")
    table = result.compare_across(rope=0.01).set_index("model")
    means = result.mean_scores()
    for model in ("logistic", "tree"):
        expected = baycomp.SignedRankTest.probs(
            means[model].to_numpy(), means["prior"].to_numpy(), rope=0.01, nsamples=50_000
        )
        got = table.loc[model, ["p_better", "p_equivalent", "p_worse"]].to_numpy(float)
        # baycomp draws its own samples: Monte-Carlo agreement (0.5 / sqrt(50000) each)
        np.testing.assert_allclose(got, expected, atol=0.01)
        assert table.loc[model, ["wins", "ties", "losses"]].sum() == len(result.datasets)


def test_the_report_quotes_the_chosen_test_and_the_bayesian_comparison(result):
    autorank = pytest.importorskip("autorank")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        chosen = autorank.autorank(result.mean_scores(), alpha=0.05, verbose=False)
    ours = result.multiple_comparison()
    assert ours.omnibus == chosen.omnibus  # the same family chosen from the same checks
    report = result.report(n_resamples=200)
    text = report.to_text()
    assert str(ours) in text  # the paragraph, quotable as it is
    section = next(s for s in report.sections() if s.title.startswith("Across the data sets"))
    table = result.compare_across(rope=0.01)
    assert [str(row[0]) for row in section.rows] == list(table.model)
    assert [str(row[1]) for row in section.rows] == [f"{p:.3f}" for p in table.p_better]
