"""The report's "Interval of the mean" note names the cells each method is of, where the
cells' methods differ (a data set's size, an interval clipped to the metric's range), in every
form the report writes; one method for every cell stays one line."""

import html
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import BenchmarkResult, benchmark

from ._saved_folds import saved_folds

MIDDLE, NEAR_ONE = [0.5, 0.6, 0.55, 0.65], [1.0, 0.8, 1.0, 0.8]


@pytest.fixture(scope="module")
def report():
    # d1 (20 rows a fold): both unclipped; d2 (30 rows a fold): a's interval passes 1 (clipped)
    cells = {
        ("d1", "a"): saved_folds(MIDDLE, 20), ("d1", "b"): saved_folds(MIDDLE[::-1], 20),
        ("d2", "a"): saved_folds(NEAR_ONE, 30), ("d2", "b"): saved_folds(MIDDLE, 30),
    }  # fmt: skip
    result = BenchmarkResult.from_results(cells, metric="accuracy")
    return result.report(n_resamples=200)


def _method(report, dataset, model):
    (row,) = [r for r in report.rows if r["model"] == model and dataset in (None, r["dataset"])]
    return row["ci_method"]


def test_each_interval_method_is_said_after_the_cells_it_is_of(report):
    d1, clipped, d2_b = (_method(report, *c) for c in [("d1", "a"), ("d2", "a"), ("d2", "b")])
    assert _method(report, "d1", "b") == d1
    assert len({d1, clipped, d2_b}) == 3 and "clipped" in clipped  # the setup
    note = f"Interval of the mean on d1: {d1}; of a on d2: {clipped}; of b on d2: {d2_b}."
    assert note in report.to_text()
    assert note in report.to_markdown()
    assert html.escape(note) in report.to_html(plots=False)


def test_on_one_data_set_the_models_are_named(fitted):
    from sklearn_fair.report import nested_cv_report

    report = nested_cv_report(fitted, n_resamples=200)
    logistic, knn = (_method(report, None, model) for model in ("logistic", "knn"))
    assert logistic != knn  # the setup: logistic's interval is clipped
    assert f"Interval of the mean of logistic: {logistic}; of knn: {knn}." in report.to_text()


def test_one_method_for_every_cell_is_one_line():
    cells = {("d1", "a"): saved_folds(MIDDLE, 20), ("d1", "b"): saved_folds(MIDDLE[::-1], 20)}
    report = BenchmarkResult.from_results(cells, metric="accuracy").report(n_resamples=200)
    (method,) = {row["ci_method"] for row in report.rows}
    assert f"Interval of the mean: {method}. Interval of the IQM" in report.to_text()


def _accuracy_on_even_folds(estimator, X, y):
    """Accuracy, or NaN on a fold with an odd number of rows."""
    return float("nan") if len(y) % 2 else float(np.mean(estimator.predict(X) == y))


def test_in_a_report_of_several_metrics_each_method_names_its_metric():
    datasets = {  # 3 outer folds: of 20 rows each on "even", of 21, 20 and 20 on "odd"
        name: make_classification(n_samples=n, n_features=4, random_state=0)
        for name, n in (("even", 60), ("odd", 61))
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = benchmark(
            {"prior": DummyClassifier(), "tree": DecisionTreeClassifier(max_depth=2)}, datasets,
            scoring={"acc": "accuracy", "half": _accuracy_on_even_folds}, refit="acc",
            outer_cv=3, inner_cv=2, n_refits=1, random_state=0,
        )  # fmt: skip
        report = result.report(n_resamples=200)
        text = report.to_text()
    methods = {(r["dataset"], r["model"], r["metric"]): r["ci_method"] for r in report.rows}
    failed = methods["odd", "tree", "half"]
    assert failed.startswith("not computed: 1 of 3 folds failed")  # the setup
    assert methods["odd", "prior", "half"] == failed
    assert f"; on odd (half): {failed};" in text
    assert f"; of tree on odd (acc): {methods['odd', 'tree', 'acc']}." in text
