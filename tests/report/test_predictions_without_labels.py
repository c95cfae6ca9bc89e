"""Predictions kept of a model fitted without labels (y=None): the reports say there are none
to draw them against, and plot_predictions refuses with that reason (hunt UNSUP-2)."""

import warnings

import pytest
from sklearn.datasets import make_blobs
from sklearn.mixture import GaussianMixture

from sklearn_fair import NestedCV, benchmark
from sklearn_fair.report import nested_cv_report

pytest.importorskip("matplotlib")

X, _ = make_blobs(60, centers=2, random_state=0)
GRID = {"n_components": [1, 2]}
SENTENCE = "the data were given without labels (y=None): there are none to draw its predictions"


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def test_the_report_of_a_nested_cv_without_labels_says_so(tmp_path):
    nested = NestedCV(GaussianMixture(random_state=0), param_grid=GRID, outer_cv=3, inner_cv=3,
                      n_refits=1, keep_predictions=True)  # fmt: skip
    _quiet(nested.fit, X)
    report = nested_cv_report(nested)
    assert SENTENCE in " ".join(_quiet(report.to_html).split())
    path = tmp_path / "r.html"
    _quiet(report.save, path)
    assert SENTENCE in " ".join(path.read_text(encoding="utf-8").split())


def test_a_benchmark_without_labels_reports_it_and_refuses_to_plot_its_predictions():
    result = _quiet(
        benchmark, {"gmm": (GaussianMixture(random_state=0), GRID)}, {"d": (X, None)},
        outer_cv=3, inner_cv=3, n_refits=1, keep_predictions=True, random_state=0,
    )  # fmt: skip
    assert SENTENCE in " ".join(_quiet(result.to_html).split())
    with pytest.raises(ValueError, match=r"'gmm' on 'd' have no labels.*'d'.*\(y=None\)"):
        result.plot_predictions("d", "gmm")
