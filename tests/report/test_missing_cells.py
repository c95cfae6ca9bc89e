"""A model that fails on one data set: the other cells are still read, tested and reported,
and every output says which cells are missing (issue 36.3)."""

import html
import warnings

import numpy as np
import pytest
from scipy.stats import rankdata
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import benchmark
from sklearn_fair.exceptions import MissingCellsWarning


class _FailsOnWideData(DecisionTreeClassifier):
    """A tree that cannot fit data with more than 5 features (every fold of that data set)."""

    def fit(self, X, y, sample_weight=None):
        if np.asarray(X).shape[1] > 5:
            raise ValueError("too many features")
        return super().fit(X, y, sample_weight=sample_weight)


@pytest.fixture(scope="module")
def result():
    datasets = {
        "narrow": make_classification(n_samples=60, n_features=5, random_state=0),
        "wide": make_classification(n_samples=60, n_features=8, random_state=1),
        "narrow2": make_classification(n_samples=60, n_features=4, random_state=2),
    }
    models = {
        "prior": DummyClassifier(),
        "logistic": (LogisticRegression(), {"C": [0.1, 1.0]}),
        "tree": (_FailsOnWideData(random_state=0), {"max_depth": [2, 4]}),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return benchmark(
            models, datasets, outer_cv=3, n_refits=1, baseline="prior", baseline_floor=True,
            random_state=0,
        )  # fmt: skip


def test_the_failed_cell_is_known_and_listed(result):
    assert result.missing == {("wide", "tree"): 3}
    failures = result.failures
    assert set(zip(failures.dataset, failures.model)) == {("wide", "tree")}


def test_tables_and_tests_work_on_the_other_cells(result):
    table = result.table(mark=True)
    assert table.loc["tree", "wide"] == "failed (3 of 3 folds)"
    assert "**" in table["wide"].str.cat()  # the wide data set still has its best model
    comparison = result.compare_to()
    failed = comparison[(comparison.dataset == "wide") & (comparison.model == "tree")].iloc[0]
    assert failed.verdict == "not tested: folds of tree failed" and not failed.significant
    tested = comparison[comparison.pvalue.notna()]
    assert len(tested) == 5  # Holm's family: the pairs that were tested
    with pytest.warns(MissingCellsWarning, match=r"leaves out the data sets \['wide'\]"):
        aggregate = result.aggregate(n_resamples=100)
    assert np.isfinite(aggregate.loc["tree", "iqm"])
    # the frame (and the runner's aggregate.csv) names what it pooled, not only the warning
    assert set(aggregate["datasets"]) == {"narrow, narrow2"}
    pooled = np.concatenate(
        [result.estimators[d, "tree"].outer_scores_ for d in ("narrow", "narrow2")]
    )
    assert aggregate.loc["tree", "mean"] == pytest.approx(pooled.mean())
    with pytest.warns(MissingCellsWarning):
        profile = result.performance_profiles()
    assert np.isfinite(profile.index.to_numpy()).all()


def test_every_report_form_says_which_cells_failed(result):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MissingCellsWarning)
        report = result.report(n_resamples=200)
        page = report.to_html(plots=True)
    assert "failed (3 of 3 folds)" in page and "Failed fits" in page
    assert "not tested: folds of tree failed" in page
    row = next(r for r in report.rows if (r["dataset"], r["model"]) == ("wide", "tree"))
    assert row["ci_method"].startswith("not computed: 3 of 3 folds failed")
    logistic = next(r for r in report.rows if (r["dataset"], r["model"]) == ("wide", "logistic"))
    assert np.isfinite(logistic["test_mean"])


def test_the_report_counts_holms_family_as_the_tested_comparisons(result):
    # 2 models against the baseline on 3 data sets, less the one cell whose folds failed
    family = 2 * 3 - len(result.missing)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MissingCellsWarning)
        report = result.report(n_resamples=200)
        text = report.to_text()
    assert f"Holm across the {family} comparisons" in report.verdict()
    assert f"Holm's method across all {family} comparisons" in " ".join(text.split())
    assert "Holm across the 6 comparisons" not in text


def test_a_data_set_with_a_failed_cell_is_left_out_of_every_rank(result):
    # A rank needs every model's score: the data set where tree failed ("wide") ranks no model
    # in the rows, and the Ranks section leaves it out, as rank_comparison does, and says so.
    means = result.mean_scores()
    complete = ["narrow", "narrow2"]
    expected = {d: dict(zip(means.columns, rankdata(-means.loc[d].to_numpy()))) for d in complete}
    average = {m: np.mean([expected[d][m] for d in complete]) for m in means.columns}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MissingCellsWarning)
        report = result.report(n_resamples=200)
        sections = {section.title: section for section in report.sections()}
        ranks = result.rank_comparison().average_ranks
        pages = [report.to_text(), report.to_markdown(), report.to_html()]
    for row in report.rows:
        if row["dataset"] == "wide":
            assert row["rank_test"] is None and row["rank_validation"] is None, row["model"]
        else:
            assert row["rank_test"] == expected[row["dataset"]][row["model"]]
    assert ranks == pytest.approx(average)
    printed = {str(model): float(rank.text) for model, rank in sections["Ranks"].rows}
    assert printed == pytest.approx(average, abs=0.005)
    summary = sections["Test performance"]
    column = [str(c) for c in summary.columns].index("rank by test")
    wide = [row[column].text for row in summary.rows if row[0] == "wide"]
    assert wide == ["n/a"] * 3
    for text in pages:
        words = " ".join(text.split())
        assert "over 2 data sets" in words
        assert "Left out: wide, where folds of tree failed; a rank test needs" in words
        assert "n/a where folds failed (see Failed fits): a mean, its intervals" in words
        assert "on the data set. Left out: wide, where folds of tree failed." in words


def test_a_report_with_fewer_than_two_complete_data_sets_says_it_has_no_ranks(result):
    from sklearn_fair import BenchmarkResult

    # two data sets, three models, one failed cell: one complete data set, nothing to rank
    cells = {key: cell for key, cell in result.cells.items() if key[0] != "narrow2"}
    two = BenchmarkResult(cells, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MissingCellsWarning)
        text = " ".join(two.report(n_resamples=200).to_text().split())
    assert "No ranks across data sets" in text and "Left out: wide, where folds of tree" in text
    assert "average rank" not in text


def test_the_comparison_across_data_sets_counts_the_data_sets_it_pools(result):
    complete = result.mean_scores().dropna().index.tolist()  # every model scored
    assert complete == ["narrow", "narrow2"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MissingCellsWarning)
        section = next(
            s for s in result.report(n_resamples=200).sections() if s.title.startswith("Across")
        )
        across = result.compare_across()
    text = " ".join(section.paragraphs)
    assert f"on the {len(complete)} data sets' mean test scores (left out: wide, where" in text
    for row in across.itertuples():
        assert row.wins + row.ties + row.losses == len(complete)


def _printed(section, dataset, model, metric=None):
    """The cells of a model's row of the Test performance section, by column title."""
    columns = [str(c) for c in section.columns]
    for row in section.rows:
        named = dict(zip(columns, (getattr(c, "text", str(c)) for c in row)))
        if (named.get("data set", dataset), named["model"]) == (dataset, model):
            if metric is None or named["metric"] == metric:
                return named
    raise AssertionError(f"no row of {model} on {dataset}")


def test_the_test_performance_section_says_failed_in_the_words_of_table(result):
    # by hand: tree cannot fit the 8 features of "wide", so each of its 3 outer folds failed
    failed = "failed (3 of 3 folds)"
    assert result.table(mark=False).loc["tree", "wide"] == failed
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MissingCellsWarning)
        report = result.report(n_resamples=200)
        summary = next(s for s in report.sections() if s.title == "Test performance")
        pages = [report.to_text(), report.to_markdown(), html.unescape(report.to_html())]
    printed = _printed(summary, "wide", "tree")
    assert printed["test mean ± std"] == failed
    assert [text for title, text in printed.items() if "interval" in title] == ["n/a", "n/a"]
    for page in pages:
        assert page.count(failed) == 2  # the paper's table and the Test performance section
        assert "n/a ± n/a" not in page and "[n/a, n/a]" not in page


def test_a_cell_where_some_folds_failed_says_how_many_in_every_output():
    from sklearn.datasets import load_iris
    from sklearn.model_selection import PredefinedSplit
    from sklearn.naive_bayes import GaussianNB

    from sklearn_fair.report import nested_cv_report

    X, y = load_iris(return_X_y=True)  # rows sorted by class, 50 of each
    fold = np.repeat([1, 2, 1, 2, 0, 0], 25)  # fold 0 tests on class 2, trains on 2 classes
    models = {"prior": DummyClassifier(), "bayes": GaussianNB(priors=[0.3, 0.3, 0.4])}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        one = benchmark(models, {"iris": (X, y)}, outer_cv=PredefinedSplit(fold), n_refits=1)
        report = one.report(n_resamples=200)
        summary = next(s for s in report.sections() if s.title == "Test performance")
        pages = [report.to_text(), report.to_markdown(), html.unescape(report.to_html())]
        alone = nested_cv_report({"bayes": one.estimators["iris", "bayes"]}, n_resamples=200)
    failed = "failed (1 of 3 folds)"  # the priors of 3 classes fail on fold 0 only
    assert one.table(mark=False).loc["bayes", "iris"] == failed
    assert _printed(summary, "iris", "bayes")["test mean ± std"] == failed
    for page in pages:
        assert failed in page and "n/a ± n/a" not in page and "[n/a, n/a]" not in page
    assert alone.verdict().startswith(f"bayes: test accuracy {failed}.")
    assert "[n/a, n/a]" not in alone.verdict()


def test_the_rows_of_a_failed_cell_have_the_keys_of_every_other_row_in_their_order():
    from sklearn_fair.report import nested_cv_report

    complete, failed = {"test_scores": [0.8, 0.7, 0.9]}, {"test_scores": [0.8, None, 0.9]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        first = nested_cv_report({"a": complete, "b": failed}, n_resamples=50)
        second = nested_cv_report({"b": failed, "a": complete}, n_resamples=50)
    for report in (first, second):
        assert [list(row) for row in report.rows if row["n_failed_folds"]] == [
            list(row) for row in report.rows if not row["n_failed_folds"]
        ]
    # so the DataFrame's columns do not depend on which model's folds failed
    assert list(first.to_dataframe().columns) == list(second.to_dataframe().columns)
