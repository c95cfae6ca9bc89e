"""What the pictures say agrees with the tables beside them: a cell whose folds failed is named
where its point would be (it was left out silently), the critical-difference diagram prints
the Ranks table's 2 decimals (it printed 2 significant digits), plot_optimism's legend the
report's decimals, plot_intervals' axis the metric's direction, and no title or label is cut
off by the figure's edge; compare_across on one complete data set says why it cannot compare
(it raised the signed-rank test's error, naming a parameter 'a' the user never passed)."""

import math
import re
import warnings

import numpy as np
import pytest
from scipy.stats import rankdata
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import load_iris, make_classification, make_regression
from sklearn.dummy import DummyClassifier, DummyRegressor
from sklearn.linear_model import Lasso, LogisticRegression, Ridge
from sklearn.metrics import fbeta_score, make_scorer
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV, benchmark
from sklearn_fair.report import nested_cv_report, plot_optimism

from ._figures import cut_texts

pytest.importorskip("matplotlib")


class Fragile(ClassifierMixin, BaseEstimator):
    """A logistic regression on the columns after the first (a row number) that raises when
    fitted on 101 to 124 rows without row 0: the outer training set of data set "a" (150 rows)
    whose fold tests row 0, and no other fit of these benchmarks."""

    def fit(self, X, y):
        if 0 not in X[:, 0] and 100 < len(X) < 125:
            raise ValueError("this fold breaks the model")
        self.model_ = LogisticRegression().fit(X[:, 1:], y)
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        return self.model_.predict(X[:, 1:])


@pytest.fixture(scope="module")
def failed_on_a():
    """fragile fails a's outer fold that tests row 0 (1 of 5), and no fold of b."""
    datasets = {}
    for name, n in (("a", 150), ("b", 180)):
        X, y = make_classification(n_samples=n, n_features=5, random_state=n)
        datasets[name] = (np.c_[np.arange(n), X], y)
    models = {"fragile": Fragile(), "knn": KNeighborsClassifier(), "dummy": DummyClassifier()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the failed fold's warnings
        return benchmark(
            models, datasets, outer_cv=5, n_refits=1, baseline="dummy", random_state=0,
            n_jobs=1,
        )  # fmt: skip


def test_plot_intervals_names_the_cell_whose_folds_failed(failed_on_a):
    figure = failed_on_a.plot_intervals()
    ax = figure.axes[0]
    texts = [t for t in ax.texts if t.get_text()]
    assert [t.get_text() for t in texts] == ["fragile: failed (1 of 5 folds)"]
    # at fragile's place on a: a is the first row, fragile the first of 3 offsets
    (text,) = texts
    assert text.get_position()[1] == pytest.approx(0 - 0.3)
    low, high = sorted(ax.get_ylim())
    assert low <= text.get_position()[1] <= high
    # in fragile's colour, as its legend entry
    fragile = ax.containers[0].lines[0]
    assert np.isnan(fragile.get_xdata()[0])  # no point drawn there
    assert text.get_color() == fragile.get_color()


def test_the_reports_plots_say_what_is_not_drawn(failed_on_a):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = failed_on_a.report(n_resamples=200)
        (plots,) = [s for s in report.sections(figures=True) if s and s.title == "Plots"]
    assert "Not drawn: fragile on a (folds failed; see Failed fits)." in plots.paragraphs


def test_compare_across_on_one_complete_data_set_says_why(failed_on_a):
    expected = (
        "compare_across needs at least 2 data sets where every model has every fold's score "
        "(a signed-rank test over the data sets); only b has them. Left out: a, where "
        "folds of fragile failed (see failures)."
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the data set left out, as warned
        with pytest.raises(ValueError) as error:
            failed_on_a.compare_across()
        report = str(failed_on_a.report(n_resamples=200))
    assert str(error.value) == expected
    assert f"No comparison across the data sets: {expected}" in report.replace("\n", " ")
    assert "'a' parameter" not in report


@pytest.fixture(scope="module")
def regressors():
    datasets = {
        "a": make_regression(n_samples=80, n_features=4, noise=10, random_state=0),
        "b": make_regression(n_samples=80, n_features=4, noise=30, random_state=1),
    }
    models = {"ridge": Ridge(), "knn": KNeighborsRegressor(), "mean": DummyRegressor()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return benchmark(
            models, datasets, outer_cv=3, n_refits=1, random_state=0, n_jobs=1,
            scoring="neg_root_mean_squared_error", keep_predictions=True,
        )  # fmt: skip


def test_plot_intervals_says_lower_is_better_for_an_error(regressors):
    # scikit-learn negates the RMSE so that greater is better: the plot draws the RMSE itself
    assert regressors.table().columns.name == "test RMSE (lower is better)"
    figure = regressors.plot_intervals()
    # each data set on an axis of its own (an RMSE is on each one's scale), labelled below
    assert figure.axes[-1].get_xlabel() == (
        "RMSE: mean and 95% corrected t interval (lower is better)\n"
        "(each data set on an axis of its own: its own scale)"
    )


def test_the_regression_panel_is_titled_as_its_axes_say(regressors):
    figure = regressors.plot_predictions("a", "ridge")
    (ax,) = [ax for ax in figure.axes if ax.get_title() == "actual against predicted"]
    # "A against B": A on the y axis (scikit-learn's actual_vs_predicted: actual on y)
    assert ax.get_ylabel().lower().startswith("actual")
    assert ax.get_xlabel().lower().startswith("predicted")


def test_the_critical_difference_diagram_prints_the_ranks_tables_decimals():
    pytest.importorskip("scikit_posthocs")
    datasets = {
        f"d{i}": make_classification(n_samples=90, n_features=5, n_informative=3, random_state=i)
        for i in range(4)
    }
    models = {
        "logistic": LogisticRegression(),
        "knn": KNeighborsClassifier(),
        "tree": DecisionTreeClassifier(random_state=0),
        "nb": GaussianNB(),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = benchmark(models, datasets, outer_cv=3, n_refits=1, random_state=0, n_jobs=1)
    # each data set's mean accuracies ranked by scipy (1: best), averaged over the data sets
    means = result.scores.groupby(["dataset", "model"]).score.mean().unstack()[list(models)]
    ranks = dict(zip(means.columns, np.mean([rankdata(-row) for row in means.to_numpy()], 0)))
    # a rank that 2 significant digits would print otherwise (knn's 1.875: "1.9")
    assert any(format(r, ".2g") != format(r, ".2f").rstrip("0") for r in ranks.values())
    figure = result.plot_critical_difference()
    printed = {}
    for text in figure.axes[0].texts:
        match = re.fullmatch(r"(\w+) \(([\d.]+)\)|\(([\d.]+)\) (\w+)", text.get_text())
        if match:
            name, rank = (match[1], match[2]) if match[1] else (match[4], match[3])
            printed[name] = rank
    assert printed == {name: f"{rank:.2f}" for name, rank in ranks.items()}


def test_plot_optimism_prints_the_reports_decimals():
    X, y = make_regression(n_samples=150, n_features=8, noise=20, random_state=0)
    kw = dict(
        outer_cv=5, inner_cv=3, refit=False, random_state=0,
        scoring="neg_root_mean_squared_error",
    )  # fmt: skip
    results = {
        "ridge": NestedCV(Ridge(), {"alpha": [0.1, 10.0]}, **kw).fit(X, y),
        "lasso": NestedCV(Lasso(), {"alpha": [0.1, 10.0]}, **kw).fit(X, y),
        "knn": NestedCV(KNeighborsRegressor(), {"n_neighbors": [3, 9]}, **kw).fit(X, y),
    }
    # the report's rule by hand: two significant digits of the smallest std of the RMSEs,
    # more while the best mean prints as another (ridge's 20.48 and lasso's 20.49: 20.5)
    rmse = {name: -r.outer_scores_ for name, r in results.items()}
    d = 1 - math.floor(math.log10(min(np.std(v) for v in rmse.values())))
    means = sorted(np.mean(v) for v in rmse.values())
    while round(means[0], d) == round(means[1], d):
        d += 1
    assert d == 2
    # optimism of an error: mean test RMSE minus mean validation RMSE
    optimism = {
        name: np.mean(rmse[name]) - np.mean(-r.validation_scores_) for name, r in results.items()
    }
    figure = plot_optimism(results)
    legend = [t.get_text() for t in figure.legends[0].get_texts()][:3]
    assert legend == [f"{name} (optimism {optimism[name]:.{d}f})" for name in results]
    assert legend[0] == "ridge (optimism -0.99)"  # not "-1.0"
    report = nested_cv_report(results, n_resamples=200)
    for name in results:  # the table beside it prints the same number
        (row,) = [line for line in str(report).splitlines() if re.match(rf"{name} +RMSE ", line)]
        assert f" {optimism[name]:.{d}f} " in row


def test_plot_optimism_keeps_a_long_metrics_title_and_label_within_the_figure():
    X, y = load_iris(return_X_y=True)
    scorer = make_scorer(fbeta_score, beta=0.5, average="macro")
    kw = dict(outer_cv=3, inner_cv=3, refit=False, random_state=0, scoring=scorer)
    results = {
        "logistic": NestedCV(LogisticRegression(max_iter=500), {"C": [0.1, 1]}, **kw).fit(X, y),
        "knn": NestedCV(KNeighborsClassifier(), {"n_neighbors": [3, 9]}, **kw).fit(X, y),
    }
    figure = plot_optimism(results)
    ax = figure.axes[0]
    assert ax.get_title() == "Validation versus test F-beta (macro average, beta=0.5) per fold"
    assert cut_texts(figure) == []
