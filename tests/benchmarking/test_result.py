"""BenchmarkResult: tables, paired comparisons, ranks, rliable's aggregates, budgets, plots."""

import json
import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression, LogisticRegressionCV
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier
from statsmodels.stats.multitest import multipletests

from sklearn_fair import BenchmarkResult, benchmark
from sklearn_fair.exceptions import SplitsMismatchError, UnequalBudgetWarning
from sklearn_fair.report import result_to_dict
from sklearn_fair.stats import rank_comparison


@pytest.fixture(scope="module")
def result():
    datasets = {
        name: make_classification(n_samples=n, n_features=6, n_informative=3, random_state=s)
        for name, n, s in (("a", 60, 0), ("b", 70, 1), ("c", 80, 2))
    }
    models = {
        "prior": DummyClassifier(),
        "tree": (DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2, 3, 4]}),
        "logistic": (LogisticRegression(), {"C": [0.01, 0.1, 1.0, 10.0]}),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return benchmark(models, datasets, outer_cv=5, n_refits=1, baseline="prior", random_state=0)


def _folds(scores, n=20, shift=0):
    """Saved results (result_to_dict's shape) with 4 folds of n rows each."""
    return {
        "outer_results": [
            {
                "test_score": s,
                "test_scores": [s],
                "validation_score": s,
                "best_params": {},
                "train_indices": [i for i in range(4 * n) if i // n != f],
                "test_indices": list(range(f * n + shift, (f + 1) * n + shift)),
                "fit_time": 1.0,
            }
            for f, s in enumerate(scores)
        ]
    }


def test_scores_are_the_cells_outer_scores(result):
    scores = result.scores
    assert list(scores.columns) == ["dataset", "model", "outer_fold", "score", "validation_score"]
    assert len(scores) == 3 * 3 * 5
    for (dataset, model), nested in result.estimators.items():
        rows = scores[(scores.dataset == dataset) & (scores.model == model)]
        np.testing.assert_array_equal(rows.score, nested.outer_scores_)
        np.testing.assert_array_equal(rows.validation_score, nested.validation_scores_)


def test_compare_to_is_the_corrected_t_test_with_holm_across_the_family(result):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnequalBudgetWarning)
        table = result.compare_to()
    assert len(table) == 3 * 2 and set(table.baseline) == {"prior"}
    pvalues = []
    for row in table.itertuples():
        a = result.estimators[row.dataset, row.model]
        b = result.estimators[row.dataset, "prior"]
        d = a.outer_scores_ - b.outer_scores_
        folds = a.outer_results_
        n_train = np.mean([len(f["train_indices"]) for f in folds])
        n_test = np.mean([len(f["test_indices"]) for f in folds])
        t = d.mean() / np.sqrt((1 / len(d) + n_test / n_train) * d.var(ddof=1))
        assert row.statistic == pytest.approx(t)
        assert row.pvalue == pytest.approx(2 * stats.t.sf(abs(t), len(d) - 1))
        assert row.effect_size == pytest.approx(d.mean() / d.std(ddof=1))
        u = stats.mannwhitneyu(a.outer_scores_, b.outer_scores_).statistic
        assert row.probability_of_improvement == pytest.approx(u / len(d) ** 2)
        pvalues.append(row.pvalue)
    reject, adjusted, _, _ = multipletests(pvalues, alpha=0.05, method="holm")
    np.testing.assert_allclose(table.pvalue_holm, adjusted)
    assert list(table.significant) == list(reject)


def test_a_baseline_with_a_much_smaller_budget_is_warned_about(result):
    with pytest.warns(UnequalBudgetWarning) as caught:
        result.compare_to("prior")
    # one warning, naming every cell (2 models on 3 data sets), where each of its 12 cells
    # once gave a paragraph of its own
    (warning,) = [w for w in caught if w.category is UnequalBudgetWarning]
    message = str(warning.message)
    assert "baseline 'prior' was tuned with a much smaller budget" in message
    for dataset in ("a", "b", "c"):
        for model in ("tree", "logistic"):
            assert f"'{model}' on '{dataset}' (4 candidates against 1)" in message
    assert warning.filename == __file__  # it points at the user's line
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnequalBudgetWarning)
        result.compare_to("tree")  # tree and logistic: 4 candidates each
        # a chance-level floor is compared with, not tuned like the models: no warning
        floor = BenchmarkResult(result.cells, baseline="prior", baseline_floor=True)
        assert len(floor.compare_to()) == 6


@pytest.mark.parametrize(
    "baseline",
    [
        LogisticRegressionCV(Cs=4, cv=3),
        make_pipeline(StandardScaler(), GridSearchCV(LogisticRegression(), {"C": [0.1, 1.0]})),
    ],
    ids=["LogisticRegressionCV", "search-in-a-pipeline"],
)
def test_a_baseline_that_tunes_itself_is_not_said_to_have_a_smaller_budget(baseline, tmp_path):
    # it searches 4 (2) values of C on splits of its own, which NestedCV's budget does not
    # see: "1 candidate against 4" would be false
    X, y = make_classification(n_samples=60, n_features=6, n_informative=3, random_state=0)
    models = {"self": baseline, "logistic": (LogisticRegression(), {"C": [0.01, 0.1, 1, 10]})}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tuned = benchmark(models, {"a": (X, y)}, outer_cv=3, n_refits=1, random_state=0)
    budget = tuned.budget.set_index("model")
    assert budget.loc["self", "n_candidates"] == 1  # as NestedCV saw
    assert budget.loc["self", "n_hidden_searches"] == 1
    assert budget.loc["logistic", "n_hidden_searches"] == 0
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnequalBudgetWarning)
        tuned.compare_to("self")
        # and so after a save and load (no fitted estimator), and from result_to_dict's files
        path = tmp_path / "tuned.json"
        tuned.save(path)
        BenchmarkResult.load(path).compare_to("self")
        saved = {key: json.loads(json.dumps(result_to_dict(cell.estimator)))
                 for key, cell in tuned.cells.items()}  # fmt: skip
        BenchmarkResult.from_results(saved, baseline="self").compare_to()
    # a baseline tuned by NestedCV with 1 candidate still is, on the same cells
    with pytest.warns(UnequalBudgetWarning, match="4 candidates against 1"):
        BenchmarkResult(
            {**tuned.cells, ("a", "self"): result_of_one_candidate(X, y)}, baseline="self"
        ).compare_to()


def result_of_one_candidate(X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        one = benchmark({"self": LogisticRegression()}, {"a": (X, y)}, outer_cv=3, n_refits=1,
                        random_state=0)  # fmt: skip
    return one.cells["a", "self"]


def test_budget_counts_candidates_and_fits(result):
    budget = result.budget.set_index(["dataset", "model"])
    assert budget.loc[("a", "tree"), "n_candidates"] == 4
    assert budget.loc[("a", "tree"), "n_inner_fits"] == 4 * 5  # one hold-out per fold
    assert budget.loc[("a", "prior"), "n_candidates"] == 1
    assert budget.loc[("a", "tree"), "n_refit_fits"] == 5
    assert (budget.fit_time > 0).all()


def test_paired_comparisons_refuse_other_splits():
    cells = {
        ("d", "x"): _folds([0.8, 0.7, 0.9, 0.8]),
        ("d", "y"): _folds([0.6, 0.7, 0.5, 0.6], shift=1),
    }
    result = BenchmarkResult.from_results(cells)
    with pytest.raises(SplitsMismatchError, match="same outer splits"):
        result.compare_to("y")


def test_table_prints_mean_and_std_and_marks_the_best_and_the_not_worse():
    cells = {
        ("d", "best"): _folds([0.80, 0.82, 0.78, 0.81]),
        ("d", "close"): _folds([0.79, 0.83, 0.77, 0.80]),
        ("d", "bad"): _folds([0.40, 0.42, 0.41, 0.39]),
    }
    table = BenchmarkResult.from_results(cells).table(scale=100)
    best = 100 * np.array([0.80, 0.82, 0.78, 0.81])
    assert table.loc["best", "d"] == f"**{best.mean():.1f} ± {best.std():.1f}**"
    assert table.loc["close", "d"].startswith("*") and not table.loc["close", "d"].startswith("**")
    assert table.loc["bad", "d"] == "40.5 ± 1.1"
    plain = BenchmarkResult.from_results(cells).table(mark=False, decimals=2)
    assert plain.loc["best", "d"] == "0.80 ± 0.01"


def test_table_decimals_follow_the_spread_so_good_models_do_not_print_as_one():
    cells = {
        ("d", "x"): _folds([1.0, 0.98, 1.0, 0.99]),
        ("d", "y"): _folds([0.97, 1.0, 0.99, 1.0]),
    }
    table = BenchmarkResult.from_results(cells).table(mark=False)
    x = np.array([1.0, 0.98, 1.0, 0.99])
    # two significant digits of the smallest std (0.0083): four decimals, not "1.0 ± 0.0"
    assert table.loc["x", "d"] == f"{x.mean():.4f} ± {x.std():.4f}" == "0.9925 ± 0.0083"


def test_every_table_speaks_the_metrics_printed_units():
    from sklearn.datasets import make_regression
    from sklearn.dummy import DummyRegressor
    from sklearn.linear_model import Ridge

    datasets = {
        name: make_regression(n_samples=60, n_features=4, noise=10, random_state=seed)
        for name, seed in (("r1", 0), ("r2", 1))
    }
    models = {"mean": DummyRegressor(), "ridge": (Ridge(), {"alpha": [0.1, 10.0]})}
    bench = benchmark(
        models, datasets, outer_cv=4, scoring="neg_root_mean_squared_error", baseline="mean",
        baseline_floor=True, random_state=0,
    )  # fmt: skip
    rmse = {key: -nested.outer_scores_ for key, nested in bench.estimators.items()}
    scores = bench.scores
    for (dataset, model), values in rmse.items():
        rows = scores[(scores.dataset == dataset) & (scores.model == model)]
        np.testing.assert_allclose(rows.score, values)  # positive RMSEs
        assert (rows.score > 0).all()
    table = bench.compare_to()
    for row in table.itertuples():
        ridge, mean = rmse[row.dataset, "ridge"], rmse[row.dataset, "mean"]
        assert row.mean == pytest.approx(ridge.mean()) and row.baseline_mean == pytest.approx(
            mean.mean()
        )
        assert row.difference == pytest.approx(ridge.mean() - mean.mean()) and row.difference < 0
        assert row.ci_low <= row.difference <= row.ci_high
        assert row.statistic < 0  # the sign of the difference
        # a smaller RMSE is better: the verdict follows the metric's direction
        assert row.verdict == ("better" if row.significant else "difference not demonstrated")
    assert table.significant.any()
    aggregate = bench.aggregate(n_resamples=200)
    pooled = np.concatenate([rmse[d, "ridge"] for d in bench.datasets])
    assert aggregate.loc["ridge", "iqm"] == pytest.approx(stats.trim_mean(pooled, 0.25))
    assert aggregate.loc["ridge", "iqm_ci_low"] <= aggregate.loc["ridge", "iqm"]
    assert aggregate.loc["ridge", "iqm"] <= aggregate.loc["ridge", "iqm_ci_high"]
    assert aggregate.loc["ridge", "mean"] == pytest.approx(pooled.mean())
    assert aggregate.loc["ridge", "probability_of_improvement"] > 0.5  # ridge beats the mean
    # the fraction of RMSEs below each threshold
    threshold = float(np.median(pooled))
    profile = bench.performance_profiles([threshold])
    expected = np.mean([np.mean(rmse[d, "ridge"] < threshold) for d in bench.datasets])
    assert profile.loc[threshold, "ridge"] == pytest.approx(expected)
    means = bench.mean_scores()
    assert means.loc["r1", "ridge"] == pytest.approx(rmse["r1", "ridge"].mean())


def test_rank_comparison_is_on_the_mean_scores(result):
    ours = result.rank_comparison()
    direct = rank_comparison(result.mean_scores())
    assert ours.average_ranks == direct.average_ranks and ours.pvalue == direct.pvalue
    means = result.mean_scores()
    assert means.loc["a", "tree"] == pytest.approx(result.estimators["a", "tree"].score_mean_)


def test_aggregate_uses_rliables_definitions(result):
    aggregate = result.aggregate(n_resamples=200)
    for model in result.models:
        pooled = np.concatenate(
            [result.estimators[d, model].outer_scores_ for d in result.datasets]
        )
        # rliable: aggregate_iqm = scipy.stats.trim_mean(scores, 0.25, axis=None)
        assert aggregate.loc[model, "iqm"] == pytest.approx(stats.trim_mean(pooled, 0.25))
        assert aggregate.loc[model, "mean"] == pytest.approx(pooled.mean())
        assert aggregate.loc[model, "iqm_ci_low"] <= aggregate.loc[model, "iqm"]
        assert aggregate.loc[model, "iqm"] <= aggregate.loc[model, "iqm_ci_high"]
    # rliable: the probability of improvement is the Mann-Whitney U / (n m) averaged over tasks
    expected = np.mean(
        [
            stats.mannwhitneyu(
                result.estimators[d, "tree"].outer_scores_,
                result.estimators[d, "prior"].outer_scores_,
            ).statistic
            / 25
            for d in result.datasets
        ]
    )
    assert aggregate.loc["tree", "probability_of_improvement"] == pytest.approx(expected)
    assert np.isnan(aggregate.loc["prior", "probability_of_improvement"])
    again = result.aggregate(n_resamples=200)
    assert again.equals(aggregate)  # one explicit generator: the same seed, the same intervals


def test_the_bootstrap_is_stratified_over_data_sets():
    # each data set's scores are constant: resampling folds within each data set never changes
    # the pooled IQM, while resampling the pooled folds would
    cells = {
        (d, m): _folds([v] * 4)
        for d, v in (("low", 0.2), ("high", 0.9))
        for m, v in (("x", v), ("y", v / 2))
    }
    aggregate = BenchmarkResult.from_results(cells).aggregate(n_resamples=300)
    assert aggregate.loc["x", "iqm_ci_low"] == aggregate.loc["x", "iqm_ci_high"]
    assert aggregate.loc["x", "iqm"] == pytest.approx(np.mean([0.2] * 4 + [0.9] * 4))


def test_performance_profiles_by_hand():
    cells = {
        ("d1", "x"): _folds([0.1, 0.2, 0.3, 0.4]),
        ("d2", "x"): _folds([0.5, 0.6, 0.7, 0.8]),
    }
    profile = BenchmarkResult.from_results(cells).performance_profiles([0.25, 0.65])
    # tau 0.25: d1 2/4, d2 4/4 -> 0.75; tau 0.65: d1 0, d2 2/4 -> 0.25
    np.testing.assert_allclose(profile["x"], [0.75, 0.25])


def test_from_results_of_saved_dicts_gives_the_same_tables(result):
    saved = {key: result_to_dict(nested) for key, nested in result.estimators.items()}
    again = BenchmarkResult.from_results(saved, baseline="prior")
    assert again.table().equals(result.table())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnequalBudgetWarning)
        np.testing.assert_allclose(again.compare_to().pvalue, result.compare_to().pvalue)


def test_a_benchmark_needs_every_cell_and_one_metric_per_data_set():
    with pytest.raises(ValueError, match="every model on every data set"):
        BenchmarkResult.from_results({("a", "x"): _folds([1] * 4), ("b", "y"): _folds([1] * 4)})


def test_plots(result):
    figure = result.plot_critical_difference()
    texts = " ".join(t.get_text() for ax in figure.axes for t in ax.texts)
    assert all(model in texts for model in result.models)
    # the level as the reports print it: a report's 1 - 0.95 is 0.050000000000000044
    title = result.plot_critical_difference(alpha=1 - 0.95).axes[0].get_title()
    assert title.endswith("at alpha = 0.05)")
    assert str(result.rank_comparison(alpha=1 - 0.95)).endswith("at alpha = 0.05.")
    figure = result.plot_intervals()
    assert len(figure.axes[0].containers) == len(result.models)


def _page(result, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnequalBudgetWarning)
        return result.to_html(n_resamples=500, **kwargs)


def _sections(result, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnequalBudgetWarning)
        report = result.report(n_resamples=500, **kwargs)
        return report.verdict(), report.sections(figures=True)


def test_to_html_is_the_two_model_reports_template(result):
    from sklearn_fair.report._html import html_page

    page = _page(result)
    verdict, sections = _sections(result)
    assert page == html_page("Benchmark report", sections, lead=verdict)
    # one page (no report nested inside it), the verdict first, then the table with intervals
    assert page.count("<html") == 1 and page.count("<h1>") == 1
    assert page.index('<p class="lead">') < page.index("<section") < page.index("95% interval")
    assert [s.title for s in sections[:3]] == [
        "Test performance", "Scores as a paper prints them", "Against the baseline prior",
    ]  # fmt: skip
    titles = [s.title for s in sections]
    assert {"Ranks", "Plots", "Selected hyper-parameters", "Tuning budgets"} <= set(titles)
    assert page.count("data:image/png;base64,") == 2  # the intervals and the CD diagram
    assert "much smaller tuning budget" in page  # the baseline's budget warning is shown
    assert "**" not in page


def test_a_rendering_computes_compare_to_and_the_ranks_once(result, monkeypatch):
    from sklearn_fair.report._html import html_page

    # the page as the pieces make it, each from a report of its own (nothing shared)
    verdict = _sections(result)[0]
    sections = _sections(result)[1]
    expected = html_page("Benchmark report", sections, lead=verdict)
    calls = {"compare_to": 0, "rank_comparison": 0}
    for name in calls:
        method = getattr(BenchmarkResult, name)

        def counted(self, *args, _method=method, _name=name, **kwargs):
            calls[_name] += 1
            return _method(self, *args, **kwargs)

        monkeypatch.setattr(BenchmarkResult, name, counted)
    page = _page(result)
    assert calls == {"compare_to": 1, "rank_comparison": 1}
    assert page == expected
    assert "Ranks" in page and page.count("data:image/png;base64,") == 2  # with the CD diagram


def test_the_verdict_names_the_differences_compare_to_demonstrates(result):
    verdict, _ = _sections(result)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnequalBudgetWarning)
        table = result.compare_to()
    assert verdict.startswith("Against the baseline prior, in test accuracy (corrected ")
    assert f"Holm across the {len(table)} comparisons" in verdict
    assert verdict.count(".") == verdict.count("level 0.05") + 1  # one sentence
    for model in ("tree", "logistic"):
        rows = table[(table.model == model) & table.significant & (table.difference > 0)]
        if len(rows):
            named = verdict.split(f"{model} is better than prior on ")[1].split(";")[0]
            assert sorted(named.replace(" and ", ", ").split(", ")) == sorted(rows.dataset)
        else:
            assert f"{model} is better" not in verdict


def test_without_a_baseline_the_verdict_is_the_best_of_each_data_set(result):
    plain = BenchmarkResult(result.cells, random_state=0)
    verdict, sections = _sections(plain)
    means = plain.mean_scores()
    for dataset in plain.datasets:
        best = means.loc[dataset].idxmax()
        assert f"{best} on" in verdict
    # the Holm-adjusted p of each model against its data set's best, by statsmodels
    worse = set()
    for dataset in plain.datasets:
        best = means.loc[dataset].idxmax()
        others = [m for m in plain.models if m != best]
        p = [plain._paired(dataset, m, best).pvalue for m in others]
        adjusted = multipletests(p, method="holm")[1]
        worse |= {(m, dataset) for m, q in zip(others, adjusted) if q <= 0.05}
    if worse:
        assert "shown to be worse than the best" in verdict
        for model, _ in worse:
            assert f"{model} on" in verdict.split("level 0.05):")[1]
    else:
        assert "no model is shown to be worse" in verdict
    standing = {(row[0], row[1]): str(row[-1]) for row in sections[0].rows}
    for (dataset, model), text in standing.items():
        expected = "best" if means.loc[dataset].idxmax() == model else (
            "worse" if (model, dataset) in worse else "not shown worse")  # fmt: skip
        assert text.split(" (")[0] == expected


def _corrected_p(a, b, n_train=60, n_test=20):
    """The corrected resampled t-test's two-sided p of paired fold scores, by hand."""
    d = np.asarray(a) - np.asarray(b)
    t = d.mean() / np.sqrt((1 / len(d) + n_test / n_train) * d.var(ddof=1))
    return 2 * stats.t.sf(abs(t), len(d) - 1)


def test_models_tied_at_the_best_mean_are_all_the_best():
    # x and y have the same fold scores on "tie" (ranks 1.5 each): both are the best there,
    # bold, "best" in the report and named in the verdict; on "apart" x alone is the best
    x, y, z = [0.80, 0.82, 0.78, 0.81], [0.79, 0.83, 0.77, 0.80], [0.40, 0.42, 0.41, 0.39]
    cells = {
        ("tie", "x"): _folds(x), ("tie", "y"): _folds(x), ("tie", "z"): _folds(z),
        ("apart", "x"): _folds(x), ("apart", "y"): _folds(y), ("apart", "z"): _folds(z),
    }  # fmt: skip
    plain = BenchmarkResult.from_results(cells)
    best = {("tie", "x"), ("tie", "y"), ("apart", "x")}
    for statistic in ("mean", "iqm"):
        table = plain.table(statistic=statistic, n_resamples=200)
        bold = {(d, m) for d in plain.datasets for m in plain.models if table.loc[m, d][:2] == "**"}
        assert bold == best, statistic
        assert table.loc["y", "apart"][0] == "*" != table.loc["y", "apart"][1]  # italics
    # the others are tested against the first best, Holm over every pair of the data set's
    # models (the family of its report's pairwise comparison); the tied best are both best
    tie, apart = plain._against_the_best("tie")[1], plain._against_the_best("apart")[1]
    # x and x: no difference on any fold, p = 1
    holm = multipletests([1.0, _corrected_p(z, x), _corrected_p(z, x)], method="holm")[1]
    assert tie == pytest.approx({"z": holm[1]})
    pairs = [_corrected_p(y, x), _corrected_p(z, x), _corrected_p(z, y)]
    holm = multipletests(pairs, method="holm")[1]
    assert apart == pytest.approx(dict(zip("yz", holm[:2])))
    verdict, sections = _sections(plain)
    assert ": x and y (tied) on tie; x on apart; shown to be worse" in verdict
    standing = {(str(r[0]), str(r[1])): r[-1] for r in sections[0].rows}
    assert {k for k, cell in standing.items() if str(cell) == "best"} == best
    assert all(standing[k].emphasis == "strong" for k in best)
    assert str(standing["apart", "y"]).startswith("not shown worse")
    paper = next(s for s in sections if s.title == "Scores as a paper prints them")
    strong = {(d, str(r[0])) for r in paper.rows for d, c in zip(plain.datasets, r[1:])
              if c.emphasis == "strong"}  # fmt: skip
    assert strong == best
    # the three forms say the same
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnequalBudgetWarning)
        report = plain.report(n_resamples=200)
    markdown, html, text = report.to_markdown(), report.to_html(plots=False), report.to_text()
    for form in (markdown, html, text):
        assert "x and y (tied) on tie; x on apart" in form
    rows = [line.split(" | ") for line in markdown.splitlines() if line.startswith("| tie |")]
    rows += [line.split(" | ") for line in markdown.splitlines() if line.startswith("| apart |")]
    assert {(r[0][2:], r[1]) for r in rows if r[-1] == "**best** |"} == best
    assert markdown.count("| x | **0.803 ± 0.015** | **0.803 ± 0.015** |") == 1
    assert markdown.count("| y | **0.803 ± 0.015** | *0.798 ± 0.022* |") == 1
    assert html.count("<strong>best</strong>") == 3
    assert html.count('data-label="tie"><strong>') == 2
    assert html.count('data-label="apart"><strong>') == 1
    lines = [line.split() for line in text.splitlines() if line.split()[:1] in (["tie"], ["apart"])]
    assert {(w[0], w[1]) for w in lines if w[-1] == "**best**"} == best  # the text's marks too


def test_means_equal_but_for_rounding_tie_for_the_best_and_in_the_ranks():
    # the same fold scores in another order: np.mean gives 0.8 and 0.7999999999999999
    a, b, z = [0.7, 0.8, 0.9, 0.85], [0.7, 0.85, 0.8, 0.9], [0.5, 0.55, 0.6, 0.5]
    assert float(np.mean(a)) != float(np.mean(b))  # the case this test is about
    cells = {(d, m): _folds(s) for d in ("d", "e") for m, s in (("a", a), ("b", b), ("z", z))}
    result = BenchmarkResult.from_results(cells)
    table = result.table()
    assert {m for m in result.models if table.loc[m, "d"][:2] == "**"} == {"a", "b"}
    verdict, _ = _sections(result)
    assert "a and b (tied) on d and e" in verdict
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnequalBudgetWarning)
        rows = result.report(n_resamples=200).rows
    assert {(r["dataset"], r["model"]): r["rank_test"] for r in rows} == {
        (d, m): rank for d in ("d", "e") for m, rank in (("a", 1.5), ("b", 1.5), ("z", 3))
    }
    # the Ranks section's average ranks are the mean of these
    ranks = result.rank_comparison().average_ranks
    assert dict(ranks) == pytest.approx({"a": 1.5, "b": 1.5, "z": 3.0})


def _by_model(section):
    """The rows of a section by model, each a dict column header -> cell."""
    headers = [str(c) for c in section.columns]
    return {str(row[headers.index("model")]): dict(zip(headers, row)) for row in section.rows}


def test_the_table_intervals_are_corrected_t_intervals_kept_in_the_metrics_range():
    near_one = {
        ("d", "x"): _folds([0.97, 1.0, 0.95, 1.0]),
        ("d", "y"): _folds([0.80, 0.85, 0.90, 0.75]),
    }
    for cell in near_one.values():  # an accuracy, as result_to_dict records it
        cell["metrics"] = {"score": {"name": "accuracy", "scoring": "accuracy", "sign": 1,
                                     "note": ""}}  # fmt: skip
        cell["refit_metric"] = "score"
    plain = BenchmarkResult.from_results(near_one)
    _, sections = _sections(plain)
    rows = _by_model(sections[0])
    for model, scores in (("x", [0.97, 1.0, 0.95, 1.0]), ("y", [0.80, 0.85, 0.90, 0.75])):
        # Nadeau and Bengio's corrected t: 4 folds of 20 test and 60 training rows
        scale = np.sqrt(1 / 4 + 20 / 60) * np.std(scores, ddof=1)
        low, high = stats.t.interval(0.95, 3, loc=np.mean(scores), scale=scale)
        interval = rows[model]["95% interval of the mean (corrected t)"]
        got = [float(v) for v in str(interval).strip("[]").split(", ")]
        assert got == pytest.approx([max(low, 0), min(high, 1)], abs=1e-3)
        assert "clipped" in interval.title if high > 1 else True
    scale = np.sqrt(1 / 4 + 20 / 60) * np.std([0.97, 1.0, 0.95, 1.0], ddof=1)
    assert stats.t.interval(0.95, 3, loc=0.98, scale=scale)[1] > 1


def test_names_are_escaped_and_errors_printed_as_positive_errors():
    from sklearn.datasets import make_regression
    from sklearn.dummy import DummyRegressor
    from sklearn.linear_model import Ridge

    hostile = '<img src=x onerror="alert(1)">'
    datasets = {"r & d": make_regression(n_samples=60, n_features=4, noise=10, random_state=0)}
    models = {"mean": DummyRegressor(), hostile: (Ridge(), {"alpha": [0.1, 10.0]})}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bench = benchmark(models, datasets, outer_cv=4, scoring="neg_root_mean_squared_error",
                          baseline="mean", random_state=0)  # fmt: skip
    page = _page(bench)
    assert hostile not in page and "r & d" not in page
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in page and "r &amp; d" in page
    _, sections = _sections(bench)
    rows = _by_model(sections[0])
    for model in models:
        cell = bench.cells["r & d", model]
        rmse = -cell.scores
        assert str(rows[model]["metric"]) == "RMSE"
        mean = float(str(rows[model]["test mean ± std"]).split(" ± ")[0])
        assert mean > 0 and mean == pytest.approx(rmse.mean(), rel=1e-2)
        # optimism in printed units: test RMSE minus validation RMSE, positive = optimistic
        optimism = np.mean(rmse) - np.mean(-cell.validation_scores)
        assert float(str(rows[model]["optimism"])) == pytest.approx(optimism, abs=0.51)
    baseline = next(s for s in sections if s.title.startswith("Against the baseline"))
    (row,) = _by_model(baseline).values()
    difference = np.mean(-bench.cells["r & d", hostile].scores) - np.mean(
        -bench.cells["r & d", "mean"].scores
    )
    printed = float(str(row["model - baseline"]).split(" ")[0])
    assert printed == pytest.approx(difference, abs=0.51) and printed < 0  # Ridge: smaller RMSE
    assert str(row["model - baseline"]).endswith(" RMSE")
    assert any("lower is better, so a negative difference" in p for p in baseline.paragraphs)


def test_table_of_iqms_with_their_bootstrap_intervals():
    scores = [0.1, 0.5, 0.6, 0.7, 0.9, 0.2, 0.4, 0.8]
    cells = {("d", "x"): _folds(scores), ("d", "y"): _folds([0.3] * 8)}
    table = BenchmarkResult.from_results(cells).table(statistic="iqm", mark=False, decimals=3)
    # rliable's IQM: the 25% trimmed mean (drops 2 of 8 at each end)
    expected = stats.trim_mean(scores, 0.25)
    text = table.loc["x", "d"]
    assert text.startswith(f"{expected:.3f} [")
    low, high = (float(v) for v in text.split("[")[1].rstrip("]").split(","))
    assert min(scores) <= low <= expected <= high <= max(scores)
    assert table.loc["y", "d"] == "0.300 [0.300, 0.300]"
    with pytest.raises(ValueError, match="'statistic' parameter"):
        BenchmarkResult.from_results(cells).table(statistic="median")


def test_the_iqm_interval_of_the_table_is_at_its_confidence():
    from sklearn_fair.stats import bootstrap_ci, iqm
    from sklearn_fair.utils._random import named_generator

    scores = [0.1, 0.5, 0.6, 0.7, 0.9, 0.2, 0.4, 0.8]
    cells = {("d", "x"): _folds(scores), ("d", "y"): _folds([0.3] * 8)}
    benchmark_ = BenchmarkResult.from_results(cells)  # random_state None: the root is 0

    def interval(confidence):
        text = benchmark_.table(
            statistic="iqm", mark=False, decimals=6, confidence=confidence, n_resamples=2000
        )
        return [float(v) for v in text.loc["x", "d"].split("[")[1].rstrip("]").split(",")]

    narrow, wide = interval(0.5), interval(0.95)
    assert wide[0] < narrow[0] and narrow[1] < wide[1]
    for confidence, printed in ((0.5, narrow), (0.95, wide)):
        expected = bootstrap_ci(
            scores, iqm, n_resamples=2000, confidence=confidence,
            random_state=named_generator(0, "d", "x"),
        )  # fmt: skip
        assert printed == pytest.approx([expected.low, expected.high], abs=5e-7)


def test_one_level_parameter_for_every_comparison(result):
    # compare_to, table and the report decide at 1 - confidence, as stats.compare does; the
    # former alpha still works, with a FutureWarning that says what to pass instead
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnequalBudgetWarning)
        strict = result.compare_to(confidence=0.999)
        assert list(strict.significant) == list(strict.pvalue_holm <= 1 - 0.999)
        with pytest.warns(FutureWarning, match="confidence=0.999"):
            old = result.compare_to(alpha=0.001)
        assert old.equals(strict)
    with pytest.warns(FutureWarning, match="'alpha' parameter of table is deprecated"):
        assert result.table(alpha=0.001).equals(result.table(confidence=0.999))


@pytest.mark.parametrize(
    "call, parameter",
    [
        (lambda r: r.table(decimals=-3), "decimals"),
        (lambda r: r.table(scale=0), "scale"),
        (lambda r: r.aggregate(n_resamples=0), "n_resamples"),
        (lambda r: r.aggregate(n_resamples=-3), "n_resamples"),
        (lambda r: r.compare_to(confidence=1.0), "confidence"),
        (lambda r: r.compare_across(rope=-0.1), "rope"),
        # a bool passed as a number: rope=True was a ROPE of 1.0, prior=True a prior of 1
        (lambda r: r.compare_across(rope=True), "rope"),
        (lambda r: r.compare_across(prior=True), "prior"),
        (lambda r: r.report(rope=True), "rope"),
        (lambda r: r.table(scale=True), "scale"),
        (lambda r: r.report(interval="z"), "interval"),
        (lambda r: r.to_html(n_resamples=0), "n_resamples"),
        (lambda r: r.probability_of_improvement("x", "y", random_state=True), "random_state"),
        # a name that is no model's: KeyError ('d', 'nope') before
        (lambda r: r.probability_of_improvement("nope", "y"), "model"),
        (lambda r: r.probability_of_improvement("x", ["y"]), "other"),
    ],
)
def test_bad_parameters_are_refused_by_name(call, parameter):
    # issue 36.4: before, table(decimals=-3) reached a format string and aggregate(n_resamples=0)
    # numpy's indexing
    result = BenchmarkResult.from_results(
        {("d", "x"): _folds([0.8, 0.7, 0.9, 0.8]), ("d", "y"): _folds([0.6, 0.7, 0.5, 0.6])}
    )
    with pytest.raises(ValueError, match=f"The '{parameter}' parameter of BenchmarkResult"):
        call(result)


def test_the_interval_plot_draws_the_interval_the_table_uses(result):
    # the report's plot drew the corrected t, whatever interval its table printed
    from scipy import stats as scipy_stats

    dataset, model = result.datasets[0], result.models[1]  # not the prior: its folds vary
    scores = np.asarray(result.cells[dataset, model].scores, dtype=float)
    low, high = scipy_stats.t.interval(
        0.9, len(scores) - 1, loc=scores.mean(), scale=scipy_stats.sem(scores)
    )
    ax = result.plot_intervals(confidence=0.9, interval="t").axes[0]
    assert "90% Student t interval" in ax.get_xlabel()
    bar = ax.containers[1].lines[2][0].get_segments()[0]
    assert [bar[0][0], bar[1][0]] == pytest.approx([max(low, 0.0), min(high, 1.0)])
    assert "corrected t" in result.plot_intervals().axes[0].get_xlabel()
    with pytest.raises(ValueError, match="'interval' parameter"):
        result.plot_intervals(interval="wide")


def _iqm_interval(text):
    """``(iqm, low, high)`` of a table(statistic="iqm") cell, ``"0.81 [0.75, 0.86]"``."""
    centre, interval = text.split(" [")
    return (float(centre), *(float(v) for v in interval.rstrip("]").split(",")))


def test_a_cells_iqm_interval_is_one_in_the_report_the_table_and_the_plot():
    from sklearn_fair.report import plot_fold_scores
    from sklearn_fair.stats import bootstrap_ci, iqm
    from sklearn_fair.utils._random import named_generator

    # continuous scores, so that the seed and the resample count show in every interval
    rng = np.random.default_rng(0)
    scores = {(d, m): rng.uniform(0.5, 0.9, 8) for d in ("a", "b") for m in ("x", "y", "z")}
    cells = BenchmarkResult.from_results({key: _folds(s) for key, s in scores.items()}).cells
    # the benchmark's random_state (7) is the root; each cell's seed comes from its names
    seven = BenchmarkResult(cells, random_state=7)
    fewer = BenchmarkResult({k: c for k, c in cells.items() if k[1] != "y"}, random_state=7)
    for confidence, n_resamples in ((0.9, 500), (0.95, None)):
        options = {} if n_resamples is None else {"n_resamples": n_resamples}  # the defaults
        table = seven.table(statistic="iqm", mark=False, decimals=9, confidence=confidence,
                            **options)  # fmt: skip
        rows = seven.report(confidence=confidence, **options).rows
        smaller = fewer.report(confidence=confidence, **options).rows
        assert len(rows) == 6 and len(smaller) == 4
        for row in rows:
            dataset, model = row["dataset"], row["model"]
            printed = (row["iqm"], row["iqm_ci_low"], row["iqm_ci_high"])
            assert _iqm_interval(table.loc[model, dataset]) == pytest.approx(printed, abs=1e-9)
            values = scores[dataset, model]
            expected = bootstrap_ci(
                values, iqm, n_resamples=n_resamples or 10_000, confidence=confidence,
                random_state=named_generator(7, dataset, model),
            )  # fmt: skip
            assert printed == pytest.approx((stats.trim_mean(values, 0.25), *expected))
            if model != "y":  # a model more changes no other cell's interval
                (alone,) = [r for r in smaller if (r["dataset"], r["model"]) == (dataset, model)]
                assert (alone["iqm_ci_low"], alone["iqm_ci_high"]) == printed[1:]
    # the report's plot draws the same interval of each model
    report = seven.report(n_resamples=500)
    figure = plot_fold_scores(
        {m: cells["b", m] for m in seven.models}, n_resamples=500, random_state=report._root
    )
    bars = [c for c in figure.axes[0].containers if c.lines[0].get_marker() == "s"]
    assert len(bars) == 3
    for model, bar in zip(seven.models, bars):
        (row,) = [r for r in report.rows if (r["dataset"], r["model"]) == ("b", model)]
        (segment,) = bar.lines[2][0].get_segments()
        assert [segment[0][0], segment[1][0]] == pytest.approx(
            [row["iqm_ci_low"], row["iqm_ci_high"]]
        )


def test_on_one_data_set_the_table_and_the_report_decide_worse_than_the_best_alike():
    # against the best, Holm over the 3 tests gave 'prior' p 0.049 (not italic: worse) in
    # table() and to_latex(), while the report read its pairwise comparison, Holm over the 6
    # pairs: p 0.065, "not shown worse"
    scores = {
        "logistic": [0.888889, 0.722222, 0.944444, 0.666667, 0.888889],
        "tree": [0.888889, 0.777778, 0.777778, 0.666667, 0.944444],
        "nb": [0.888889, 0.833333, 0.777778, 0.666667, 0.833333],
        "prior": [0.5, 0.5, 0.5, 0.5, 0.5],
    }

    def folds(values, n=18):
        return {"outer_results": [
            {"test_score": s, "test_scores": [s], "validation_score": s, "best_params": {},
             "train_indices": [i for i in range(5 * n) if i // n != f],
             "test_indices": list(range(f * n, (f + 1) * n)), "fit_time": 1.0}
            for f, s in enumerate(values)
        ]}  # fmt: skip

    result = BenchmarkResult.from_results({("d", m): folds(v) for m, v in scores.items()})
    # the reference: Nadeau and Bengio's corrected t (test/train 18/72) on every pair, Holm
    pairs = [(a, b) for i, a in enumerate(scores) for b in list(scores)[i + 1 :]]
    pvalues = []
    for a, b in pairs:
        d = np.subtract(scores[a], scores[b])
        t = d.mean() / np.sqrt((1 / len(d) + 18 / 72) * d.var(ddof=1))
        pvalues.append(2 * stats.t.sf(abs(t), len(d) - 1))
    adjusted = dict(zip(pairs, multipletests(pvalues, method="holm")[1]))
    assert 0.05 < adjusted["logistic", "prior"] < 0.07
    table = result.table()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lines = str(result.report(n_resamples=200)).splitlines()
    for model in ("tree", "nb", "prior"):
        italic = table.loc[model, "d"].startswith("*")
        worse = adjusted["logistic", model] <= 0.05
        assert italic == (not worse), model
        (row,) = [line for line in lines if line.startswith(f"{model} ") and "Holm p" in line]
        assert ("not shown worse" in row) == (not worse), row


def test_pooled_intervals_do_not_depend_on_the_order_of_the_data_sets(result):
    # the bootstrap draws each data set's resamples by its place: the same cells given in
    # another order (a file's tables, data sets added with previous=) gave other intervals
    reordered = BenchmarkResult(
        {(d, m): result.cells[d, m] for d in reversed(result.datasets) for m in result.models},
        baseline=result.baseline,
        random_state=result.random_state,
    )
    assert reordered.datasets == ["c", "b", "a"]
    columns = ["iqm", "iqm_ci_low", "iqm_ci_high", "mean", "mean_ci_low", "mean_ci_high"]
    columns += ["probability_of_improvement", "poi_ci_low", "poi_ci_high"]
    ours, theirs = (r.aggregate(n_resamples=300)[columns] for r in (result, reordered))
    np.testing.assert_array_equal(ours.to_numpy(), theirs.to_numpy())
    pair = [r.probability_of_improvement("tree", "logistic", n_resamples=300) for r in
            (result, reordered)]  # fmt: skip
    assert pair[0] == pair[1]
    np.testing.assert_array_equal(
        result.performance_profiles().to_numpy(), reordered.performance_profiles().to_numpy()
    )


def test_the_table_decides_as_each_data_sets_report():
    # the runner writes report.html from the benchmark and report.md from each data set's
    # nested_cv_report: one Holm family (every pair of the data set's models) for both, where
    # the benchmark once adjusted over the tests against the best alone (hunt PIC)
    from sklearn_fair.report import nested_cv_report

    x, y, z = [0.80, 0.82, 0.78, 0.81], [0.75, 0.80, 0.74, 0.78], [0.70, 0.81, 0.71, 0.77]
    cells = {(d, m): _folds(s) for d in ("d0", "d1") for m, s in zip("xyz", (x, y, z))}
    result = BenchmarkResult.from_results(cells)
    for dataset in result.datasets:
        report = nested_cv_report({m: result.cells[dataset, m] for m in result.models})
        table = report.comparison
        for model, p in result._against_the_best(dataset)[1].items():
            (i,) = [i for i, pair in enumerate(zip(table["model_a"], table["model_b"]))
                    if set(pair) == {model, "x"}]  # fmt: skip
            assert p == pytest.approx(table["pvalue_holm"][i])
    # by hand: Holm over the three pairs of the corrected resampled t
    pairs = [_corrected_p(y, x), _corrected_p(z, x), _corrected_p(z, y)]
    holm = multipletests(pairs, method="holm")[1]
    assert result._against_the_best("d0")[1] == pytest.approx({"y": holm[0], "z": holm[1]})
