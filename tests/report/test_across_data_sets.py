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

from ._saved_folds import saved_folds


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
    for row, p in zip(section.rows, table.p_better, strict=True):
        cell = str(row[1])  # three decimals; "> 0.999" for one short of 1 that rounds to 1
        assert (0.999 < p < 1) if cell == "> 0.999" else cell == f"{p:.3f}"


def _saved(differences, n=20):
    """A saved result of 4 folds of n rows: 0.5 + each difference."""
    return saved_folds([0.5 + d for d in differences], n)


def test_the_win_counts_are_compare_tos_verdicts_one_family():
    """A difference that Holm over one model's data sets would call a win, but Holm over all
    of compare_to's comparisons does not: no count contradicts compare_to."""
    from statsmodels.stats.multitest import multipletests

    from sklearn_fair import BenchmarkResult

    clear, flat = [0.0512 - 0.01, 0.0512 + 0.01] * 2, [0.01, -0.01] * 2
    cells = {}
    for dataset in ("d1", "d2", "d3"):
        cells[dataset, "base"] = _saved([0.0] * 4)
        cells[dataset, "m1"] = _saved(clear if dataset == "d1" else flat)
        cells[dataset, "m2"] = _saved(flat)
    result = BenchmarkResult.from_results(cells, baseline="base", metric="accuracy")
    against = result.compare_to(confidence=0.95)
    m1 = against[against.model == "m1"]
    # the setup: Holm within m1's three data sets rejects on d1, Holm across all six does not
    assert list(multipletests(m1.pvalue, alpha=0.05, method="holm")[0]) == [True, False, False]
    assert not multipletests(against.pvalue, alpha=0.05, method="holm")[0].any()
    assert set(against.verdict) == {"difference not demonstrated"}
    table = result.compare_across(rope=0.01, alpha=0.05).set_index("model")
    for model in ("m1", "m2"):
        verdicts = against[against.model == model].verdict
        expected = [sum(verdicts == v) for v in ("better", "difference not demonstrated", "worse")]
        assert table.loc[model, ["wins", "ties", "losses"]].tolist() == expected
    # and so on the report's page
    report = result.report(n_resamples=200)
    section = next(s for s in report.sections() if s.title.startswith("Across the data sets"))
    assert [str(row[-1]) for row in section.rows] == ["0 / 3 / 0", "0 / 3 / 0"]


def test_a_models_posterior_is_seeded_by_its_name_not_its_place():
    from sklearn_fair import BenchmarkResult
    from sklearn_fair.stats import bayesian_signed_rank
    from sklearn_fair.utils._random import named_generator

    rng = np.random.default_rng(0)
    datasets = [f"d{i}" for i in range(6)]
    saved = {
        (d, m): _saved(rng.uniform(-0.05, 0.1 if m != "base" else 0.05, 4))
        for d in datasets
        for m in ("base", "m1", "m2")
    }

    def across(models):
        cells = {(d, m): saved[d, m] for d in datasets for m in models}
        result = BenchmarkResult.from_results(cells, baseline="base", metric="accuracy")
        table = result.compare_across(rope=0.01, random_state=3, n_samples=2000)
        return result, table.set_index("model")[["p_better", "p_equivalent", "p_worse"]]

    result, both = across(["base", "m1", "m2"])
    _, alone = across(["base", "m1"])
    _, reordered = across(["m2", "base", "m1"])
    assert alone.loc["m1"].tolist() == both.loc["m1"].tolist() == reordered.loc["m1"].tolist()
    assert reordered.loc["m2"].tolist() == both.loc["m2"].tolist()
    means = result.mean_scores()
    for model in ("m1", "m2"):
        expected = bayesian_signed_rank(
            means[model], means["base"], rope=0.01, n_samples=2000,
            random_state=named_generator(3, "compare_across", model, "base"),
        )  # fmt: skip
        assert both.loc[model].tolist() == [
            expected.p_a_better,
            expected.p_equivalent,
            expected.p_b_better,
        ]


def test_the_ranks_per_data_set_are_those_the_average_ranks_average():
    from sklearn_fair import BenchmarkResult

    # m1 and m2 tie on d1; on d2 and d3 every model differs
    differences = {
        "d1": {"base": 0.0, "m1": 0.05, "m2": 0.05},
        "d2": {"base": 0.0, "m1": 0.05, "m2": 0.02},
        "d3": {"base": 0.03, "m1": 0.01, "m2": 0.02},
    }
    cells = {
        (d, m): _saved([shift - 0.01, shift + 0.01] * 2)
        for d, shifts in differences.items()
        for m, shift in shifts.items()
    }
    result = BenchmarkResult.from_results(cells, metric="accuracy")
    report = result.report(n_resamples=200)
    rows = {(r["dataset"], r["model"]): r for r in report.rows}
    assert (rows["d1", "m1"]["rank_test"], rows["d1", "m2"]["rank_test"]) == (1.5, 1.5)
    # scipy's average ranks by hand: d1 (3, 1.5, 1.5), d2 (3, 1, 2), d3 (1, 3, 2)
    expected = {"base": 7 / 3, "m1": 5.5 / 3, "m2": 5.5 / 3}
    for model, average in result.rank_comparison().average_ranks.items():
        printed = np.mean([rows[d, model]["rank_test"] for d in differences])
        assert printed == pytest.approx(average) == pytest.approx(expected[model])
    assert "1.5" in [str(row[-3]) for row in report.sections()[0].rows]


def test_a_probability_short_of_certain_does_not_print_as_certain():
    datasets = {
        f"d{i}": make_classification(n_samples=80, class_sep=2.0, random_state=i) for i in range(6)
    }
    models = {"prior": DummyClassifier(), "logistic": (LogisticRegression(), {"C": [0.1, 1.0]})}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = benchmark(
            models, datasets, outer_cv=3, inner_cv=2, n_refits=1, baseline="prior",
            random_state=0,
        )  # fmt: skip
    row = result.compare_across(rope=0.01).set_index("model").loc["logistic"]
    probabilities = row[["p_better", "p_equivalent", "p_worse"]].to_numpy(float)
    assert 0.999 < probabilities[0] < 1 and 0 < probabilities[1] < 0.001  # the case at hand
    report = result.report(n_resamples=100)
    section = next(s for s in report.sections() if s.title.startswith("Across the data sets"))
    printed = [str(cell) for cell in section.rows[0][1:4]]
    for value, text in zip(probabilities, printed):
        if text in ("1.000", "0.000"):
            assert value == float(text)  # only a certain 1 or 0 prints as one
        else:
            assert text in ("> 0.999", "< 0.001") or abs(float(text) - value) <= 0.0005
    assert printed[:2] == ["> 0.999", "< 0.001"]


def test_compare_across_asks_for_a_rope_in_an_errors_units(result):
    # rope=0.01 is a point of accuracy; for an RMSE it is a number in the target's units the
    # library does not know (the report leaves the comparison out): rope=None asks for it
    from sklearn.datasets import make_regression
    from sklearn.dummy import DummyRegressor
    from sklearn.linear_model import Ridge

    datasets = {
        f"d{seed}": make_regression(n_samples=40, n_features=4, noise=30.0, random_state=seed)
        for seed in range(3)
    }
    models = {"mean": DummyRegressor(), "ridge": (Ridge(), {"alpha": [0.1, 10.0]})}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        regression = benchmark(
            models, datasets, outer_cv=3, n_refits=1, baseline="mean", random_state=0,
            scoring="neg_root_mean_squared_error",
        )  # fmt: skip
    with pytest.raises(ValueError, match=r"not for RMSE.*pass rope="):
        regression.compare_across()
    assert regression.compare_across(rope=5.0)["rope"].tolist() == [5.0]
    # a metric in [0, 1] (the fixture's accuracy) keeps its point of accuracy
    assert result.compare_across()["rope"].tolist() == [0.01, 0.01]
