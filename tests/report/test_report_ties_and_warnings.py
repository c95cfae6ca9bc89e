"""The report says in which outer folds the selection was a tie (hunt HTMLPIC-1)."""

import warnings

import pytest
from sklearn.datasets import load_iris
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV
from sklearn_fair.report import BenchmarkResult, nested_cv_report, result_to_dict

X, y = load_iris(return_X_y=True)

# Iris's trees stop growing at depth 5 or 6: max_depth 20 and 30 are one model, which ties
# with itself in every fold, while a stump (depth 1) separates at most two of the three
# classes (validation accuracy near 2/3, below the deep tree's): 2 of the 3 candidates tie.
GRID = {"max_depth": [1, 20, 30]}
TIED = (
    "In 3 of the 3 outer folds the validation data could not separate the best candidates: "
    "2 of the 3 in outer fold 0, 2 of the 3 in outer fold 1 and 2 of the 3 in outer fold 2 "
    "tie for the best mean validation accuracy."
)


def _fitted(grid=GRID):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return NestedCV(
            DecisionTreeClassifier(random_state=0), grid, outer_cv=3, inner_cv=3, refit=False,
            random_state=0,
        ).fit(X, y)  # fmt: skip


def _flat(text):
    return " ".join(text.split())


@pytest.fixture(scope="module")
def fitted():
    return _fitted()


def test_selection_section_names_the_tied_folds_in_every_form(fitted):
    report = nested_cv_report({"tree": fitted}, n_resamples=50)
    for form in (report.to_text(), report.to_markdown(), report.to_html(plots=False)):
        assert TIED in _flat(form)
    section = _flat(report.to_text()).split("Selected hyper-parameters: tree")[1]
    assert section.lstrip(" =").startswith(TIED)


def test_no_tie_no_note():
    # one candidate: nothing to tie with
    report = nested_cv_report({"tree": _fitted({"max_depth": [20]})}, n_resamples=50)
    assert "could not separate" not in report.to_text()


def test_benchmark_selection_counts_name_the_tied_folds(fitted):
    cells = {("iris", "tree"): fitted, ("iris copy", "tree"): _fitted()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        text = _flat(str(BenchmarkResult.from_results(cells).report(n_resamples=50)))
    assert f"tree on iris: {TIED}" in text
    assert f"tree on iris copy: {TIED}" in text


def test_saved_result_says_nothing_of_ties(fitted):
    # a saved result does not record the ties: its report must not invent them
    report = nested_cv_report({"tree": result_to_dict(fitted)}, n_resamples=50)
    assert "could not separate" not in report.to_text()


def test_copies_of_one_candidate_are_no_tie():
    # review45b REV-1: a grid listing depth 2 three times; the data separate depth 1 from
    # depth 2 (a stump separates at most two of iris's three classes), and the three copies
    # are one model, which "tie" whatever the data: the note said "3 in outer fold 0 ..."
    # where SelectionTieWarning (which counts distinct candidates) said nothing
    fitted = _fitted({"max_depth": [2, 2, 2, 1]})
    text = _flat(nested_cv_report({"tree": fitted}, X=X, y=y, n_resamples=100).to_text())
    assert "could not separate" not in text
    # copies of a tied candidate count once: depth 20 and 30 tie (one model), depth 30 twice
    fitted = _fitted({"max_depth": [1, 20, 30, 30]})
    text = _flat(nested_cv_report({"tree": fitted}, X=X, y=y, n_resamples=100).to_text())
    assert TIED in text
