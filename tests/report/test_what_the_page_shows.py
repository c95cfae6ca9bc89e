"""What a report's plots and sentences show: every name in the figure and in its legend, the
interval named as the one computed, and a p-value below the printed floor said as one."""

import re

import numpy as np
import pytest
from scipy import stats
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import KNeighborsClassifier

from sklearn_fair import BenchmarkResult, NestedCV

from ._figures import cut_texts

pytest.importorskip("matplotlib")

ESTIMATORS = [
    DummyClassifier(strategy="most_frequent"),
    LogisticRegression(C=1.0, class_weight="balanced", max_iter=1000),
    KNeighborsClassifier(n_neighbors=7, weights="distance", metric="manhattan"),
]


LONG = "make_classification(n_samples=60, n_features=5, random_state={})"


def _benchmark(names, n_datasets=3, dataset=LONG):
    """The ``ESTIMATORS`` under ``names``, each on the same outer folds of ``n_datasets`` data
    sets (named ``dataset.format(seed)``)."""
    from sklearn.datasets import make_classification

    cells = {}
    for seed in range(n_datasets):
        X, y = make_classification(n_samples=60, n_features=5, random_state=seed)
        named = dataset.format(seed)
        for name, estimator in zip(names, ESTIMATORS):
            nested = NestedCV(estimator, outer_cv=3, refit=False, random_state=0)
            cells[named, name] = nested.fit(X, y)
    return BenchmarkResult.from_results(cells)


@pytest.fixture(scope="module")
def long_names():
    return _benchmark([repr(estimator) for estimator in ESTIMATORS])


@pytest.fixture(scope="module")
def underscored():
    return _benchmark(["_prior", "logistic", "_knn"], n_datasets=2)


def _one_dataset(result):
    dataset = result.datasets[0]
    return {model: result.cells[dataset, model] for model in result.models}


def _legend_texts(figure):
    legends = list(figure.legends) + [ax.get_legend() for ax in figure.axes if ax.get_legend()]
    (legend,) = legends
    return [text.get_text() for text in legend.get_texts()]


def test_the_optimism_plot_keeps_a_long_names_legend_inside_the_figure(long_names):
    # the legend hung below the axes of a figure 4.8 inches wide whatever its labels, and lost
    # both ends of "KNeighborsClassifier(metric='manhattan', ...) (optimism +0.01)": the
    # markers and the optimism
    from sklearn_fair.report import plot_optimism

    figure = plot_optimism(_one_dataset(long_names))
    assert cut_texts(figure, at_least=4) == []
    assert any(text.startswith("KNeighborsClassifier(") for text in _legend_texts(figure))


def test_the_optimism_plot_of_short_names_keeps_its_size(fitted):
    from sklearn_fair.report import plot_optimism

    assert tuple(plot_optimism(fitted).get_size_inches()) == (4.8, 5.4)


def test_the_benchmark_plots_keep_long_names_inside_the_figure(long_names):
    # both were 6 inches wide whatever the names: the critical-difference diagram lost the
    # start of its left names and the end of its right ones, the intervals' x label its end
    pytest.importorskip("scikit_posthocs")
    for figure in (long_names.plot_critical_difference(), long_names.plot_intervals()):
        assert cut_texts(figure, at_least=4) == []


def test_the_benchmark_plots_of_short_names_keep_their_size():
    pytest.importorskip("scikit_posthocs")
    result = _benchmark(["prior", "logistic", "knn"], n_datasets=2, dataset="data set {}")
    assert result.plot_critical_difference().get_size_inches()[0] == 6
    assert result.plot_intervals().get_size_inches()[0] == 6


def test_legends_name_the_models_whose_names_start_with_an_underscore(underscored):
    # matplotlib leaves out of a legend the labels that start with "_": the legends of
    # plot_intervals and plot_optimism showed only "logistic" of the three models
    from matplotlib.figure import Figure

    from sklearn_fair.report import plot_optimism

    assert _legend_texts(underscored.plot_intervals()) == ["_prior", "logistic", "_knn"]
    ax = Figure().add_subplot()
    underscored.plot_intervals(ax=ax)
    assert _legend_texts(ax.figure) == ["_prior", "logistic", "_knn"]
    models = _legend_texts(plot_optimism(_one_dataset(underscored)))[:3]
    assert [text.partition(" (optimism")[0] for text in models] == ["_prior", "logistic", "_knn"]


def test_the_pairwise_comparison_names_the_interval_it_prints(fitted):
    # the section said "95% Student t interval of each difference" beside intervals of the
    # corrected resampled t (the column: "(corrected t)")
    from sklearn_fair.report import nested_cv_report

    report = nested_cv_report(fitted, n_resamples=200)
    section = next(s for s in report.sections() if s.title == "Pairwise comparison")
    ((_, _, _, interval, _, _, _),) = section.rows
    low, high = (float(x) for x in interval.text.strip("[]").split(", "))
    # by hand: 4 outer folds of 15 of the 60 rows, the difference logistic - knn
    difference = fitted["logistic"].outer_scores_ - fitted["knn"].outer_scores_
    k = difference.size
    half = stats.t.ppf(0.975, k - 1) * np.sqrt((1 / k + 15 / 45) * np.var(difference, ddof=1))
    decimals = len(interval.text.split(", ")[0].partition(".")[2])
    assert low == pytest.approx(difference.mean() - half, abs=0.51 * 10**-decimals)
    assert high == pytest.approx(difference.mean() + half, abs=0.51 * 10**-decimals)
    student = stats.t.ppf(0.975, k - 1) * stats.sem(difference)
    assert abs(high - (difference.mean() + student)) > 10**-decimals  # not Student's t
    paragraph = section.paragraphs[0]
    assert "95% corrected resampled t interval of each difference" in paragraph
    assert "Student t" not in paragraph


def _tiny_p_results():
    """A classifier far better than chance on each of 10 outer folds, and chance."""
    from sklearn.datasets import make_classification

    X, y = make_classification(n_samples=100, n_features=4, class_sep=2.0, random_state=0)
    models = {"logistic": LogisticRegression(), "prior": DummyClassifier()}
    return {
        name: NestedCV(model, outer_cv=10, refit=False, random_state=0).fit(X, y)
        for name, model in models.items()
    }


def test_a_p_value_below_the_floor_reads_p_less_than(tmp_path):
    # the verdict printed "Holm-adjusted p = < 0.001"
    from sklearn_fair.report import comparison_text, nested_cv_report
    from sklearn_fair.stats import compare

    results = _tiny_p_results()
    assert compare(results)["pvalue_holm"][0] < 0.001  # the premise
    report = nested_cv_report(results, n_resamples=200)
    texts = {"verdict": report.verdict(), "comparison_text": comparison_text(results)}
    for where, text in texts.items():
        assert "= <" not in text, where
        assert re.search(r"Holm-adjusted p < 0\.001\b", text), (where, text)
    assert re.search(r"\bp < 0\.001, Holm-adjusted", texts["comparison_text"])
