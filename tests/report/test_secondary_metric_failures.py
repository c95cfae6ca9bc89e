"""A secondary metric that is NaN on some outer folds (F8): its mean and its ranks are n/a on
those data sets, and every form of the report says why, in the words of the Ranks section's
"Left out: ..." sentence, instead of a bare "n/a"."""

import html
import warnings

import numpy as np
import pytest
from scipy.stats import rankdata
from sklearn.datasets import load_breast_cancer, load_iris, load_wine
from sklearn.metrics import accuracy_score
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import benchmark

MODELS = ["knn", "tree", "bayes"]


def _accuracy_on_even_folds(estimator, X, y):
    """Accuracy, or NaN on a fold with an odd number of rows (as roc_auc is on a fold that
    lacks a class): the same score as "accuracy" wherever it is defined."""
    return float("nan") if len(y) % 2 else accuracy_score(y, estimator.predict(X))


@pytest.fixture(scope="module")
def result():
    models = {
        "knn": (KNeighborsClassifier(), {"n_neighbors": [3, 7]}),
        "tree": (DecisionTreeClassifier(random_state=0), {"max_depth": [2, 4]}),
        "bayes": GaussianNB(),
    }
    datasets = {
        "iris": load_iris(return_X_y=True),  # 150 rows: outer test folds of 50, none odd
        "wine": load_wine(return_X_y=True),  # 178: folds of 60, 59 and 59
        "cancer": load_breast_cancer(return_X_y=True),  # 569: 190, 190 and 189
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return benchmark(
            models, datasets, scoring={"acc": "accuracy", "even": _accuracy_on_even_folds},
            refit="acc", outer_cv=3, inner_cv=2, n_refits=1, random_state=0,
        )  # fmt: skip


def test_the_secondary_metric_is_ranked_where_defined_and_explained_where_not(result):
    odd = {  # by hand: the outer folds with an odd number of test rows score NaN
        d: sum(len(t) % 2 for t in result.cells[d, "knn"].test_indices) for d in result.datasets
    }
    assert odd == {"iris": 0, "wine": 2, "cancer": 1}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = result.report(n_resamples=200)
        pages = [report.to_text(), report.to_markdown(), html.unescape(report.to_html(plots=False))]
    rows = {(r["dataset"], r["model"], r["scoring"]): r for r in report.rows}
    # on iris the secondary metric is accuracy itself: its means and ranks are accuracy's
    acc = [np.mean(result.cells["iris", m].scores) for m in MODELS]
    for model, mean, rank in zip(MODELS, acc, rankdata(-np.asarray(acc))):
        assert rows["iris", model, "even"]["test_mean"] == pytest.approx(mean)
        assert rows["iris", model, "even"]["rank_test"] == rank
    for dataset in ("wine", "cancer"):
        for model in MODELS:
            row = rows[dataset, model, "even"]
            assert np.isnan(row["test_mean"]) and row["rank_test"] is None
            assert row["ci_method"].startswith(f"not computed: {odd[dataset]} of 3 folds failed")
            assert rows[dataset, model, "acc"]["rank_test"] is not None  # accuracy is complete
    summary = next(s for s in report.sections() if s.title == "Test performance")
    column = [str(c) for c in summary.columns].index("rank by test")
    printed = [row[column].text for row in summary.rows if str(row[2]) == "even"]
    assert printed == [f"{r:g}" for r in rankdata(-np.asarray(acc))] + ["n/a"] * 6
    why = (
        "even: n/a where folds failed (see Failed fits): a mean, its intervals and the IQM need "
        "every fold's score, and a rank every model's score on the data set. Left out: wine, "
        "where folds of knn, tree and bayes failed; cancer, where folds of knn, tree and bayes "
        "failed."
    )
    for page in pages:
        assert why in " ".join(page.split())
        assert "acc: n/a" not in page  # the selecting metric is complete: nothing to explain


def test_on_one_data_set_every_table_says_why_it_prints_n_a(result):
    from sklearn_fair import BenchmarkResult

    wine = BenchmarkResult({k: c for k, c in result.cells.items() if k[0] == "wine"})
    odd = [len(t) % 2 == 1 for t in result.cells["wine", "knn"].test_indices]  # by hand
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = wine.report(n_resamples=200)
        sections = report.sections()
        pages = [report.to_text(), report.to_markdown(), html.unescape(report.to_html(plots=False))]
    why = (
        "even: n/a where folds failed (see Failed fits): a mean, its intervals and the IQM need "
        "every fold's score, and a rank every model's score. Folds of knn, tree and bayes failed."
    )
    for page in pages:
        assert why in " ".join(page.split())
    for model in MODELS:
        section = next(s for s in sections if s.title == f"Selected hyper-parameters: {model}")
        printed = [str(row[-1]) for row in section.rows if str(row[0]) != "median"]
        assert [text == "n/a" for text in printed] == odd  # the last column: test even
        assert "n/a where folds failed (see Failed fits)." in section.paragraphs


def test_the_verdict_and_failed_fits_say_which_metric_the_failed_fits_left_without_scores(result):
    """The fits that failed scored NaN for "even" only (the engine lists them as failed): the
    selecting metric has every fold's score and none was given error_score."""
    for cell in result.cells.values():
        assert np.all(np.isfinite(cell.scores))  # accuracy: every outer fold scored
        odd = [len(t) % 2 == 1 for t in cell.test_indices]  # by hand: NaN where odd
        assert list(np.isnan(cell.scores_per_metric["even"])) == odd
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = result.report(n_resamples=200)
        pages = [report.to_text(), report.to_markdown(), html.unescape(report.to_html(plots=False))]
    said = "every outer fold has a test acc score; even is n/a where folds failed."
    assert report.verdict().endswith(f'see "Failed fits"; {said}')
    failed = next(s for s in report.sections() if s.title == "Failed fits")
    assert failed.paragraphs[0].endswith(f"In the tables above, {said}")
    for page in pages:
        words = " ".join(page.split())
        assert words.count(said) == 2  # the verdict and the Failed fits section
        assert "were given error_score" not in words and "include them" not in words


def test_the_test_performance_section_counts_the_folds_where_the_metric_failed(result):
    """As table() prints a cell whose folds failed: "failed (k of n folds)", not "n/a ± n/a"."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = result.report(n_resamples=200)
        summary = next(s for s in report.sections() if s.title == "Test performance")
        pages = [report.to_text(), report.to_markdown(), html.unescape(report.to_html(plots=False))]
    columns = [str(c) for c in summary.columns]
    printed = {
        (str(row[0]), str(row[1]), str(row[2])): row[columns.index("test mean ± std")].text
        for row in summary.rows
    }
    rows = {(r["dataset"], r["model"], r["scoring"]): r for r in report.rows}
    odd = {  # by hand: the outer folds with an odd number of test rows score NaN
        d: sum(len(t) % 2 for t in result.cells[d, "knn"].test_indices) for d in result.datasets
    }
    for (dataset, _, scoring), text in printed.items():
        k = odd[dataset] if scoring == "even" else 0
        assert (text == f"failed ({k} of 3 folds)") if k else ("±" in text), text
    assert [r.get("n_failed_folds") for r in rows.values()] == [
        odd[d] if s == "even" else 0 for d, _, s in rows
    ]
    for page in pages:
        words = " ".join(page.split())
        assert (
            words.count("failed (2 of 3 folds)") == 3 and words.count("failed (1 of 3 folds)") == 3
        )
        assert "n/a ± n/a" not in page and "[n/a, n/a]" not in page
