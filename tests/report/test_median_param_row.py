"""The "median" row of the selected hyper-parameters prints its number as the folds' rows do."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV
from sklearn_fair.report import nested_cv_report

OUTER = StratifiedKFold(3, shuffle=True, random_state=1)


def _selection_table(nested, name):
    """The cells of the selection table's rows (first column -> the parameter's column)."""
    lines = nested_cv_report(nested).to_markdown().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| outer fold"))
    header = [cell.strip() for cell in lines[start].strip("|").split("|")]
    column = header.index(name)
    rows = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        rows[cells[0]] = cells[column]
    return rows


def _fit(estimator, grid, X, y, outer_cv=OUTER):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return NestedCV(
            estimator, grid, outer_cv=outer_cv, inner_cv=3, n_refits=1, random_state=0
        ).fit(X, y)


@pytest.mark.parametrize(
    "estimator, name, value",
    [
        (DecisionTreeClassifier(random_state=0), "max_leaf_nodes", 12345),
        (LogisticRegression(), "C", 1.00002),
    ],
)
def test_the_median_of_one_value_reads_as_the_folds_rows(estimator, name, value):
    X, y = make_classification(150, 6, random_state=0)
    nested = _fit(estimator, {name: [value]}, X, y)
    chosen = [params[name] for params in nested.best_params_per_fold_]
    assert float(np.median(chosen)) == value
    rows = _selection_table(nested, name)
    assert [rows[str(fold)] for fold in range(3)] == [str(value)] * 3
    assert rows["median"] == str(value)


@pytest.mark.parametrize(
    "estimator, name, values, seed, n_folds",
    [
        (DecisionTreeClassifier(random_state=0), "max_leaf_nodes", [3, 12345], 5, 3),
        (LogisticRegression(), "C", [0.00100002, 1.00004], 8, 4),
    ],
)
def test_the_median_of_other_selections_reads_as_the_row_of_its_value(
    estimator, name, values, seed, n_folds
):
    X, y = make_classification(120, 6, flip_y=0.2, random_state=seed)
    outer = StratifiedKFold(n_folds, shuffle=True, random_state=1)
    nested = _fit(estimator, {name: values}, X, y, outer_cv=outer)
    chosen = [params[name] for params in nested.best_params_per_fold_]
    assert len(set(chosen)) == 2  # the folds disagree
    median = float(np.median(chosen))
    # an odd count, or two middle values alike: the median is a value a fold selected
    (fold, *_) = [k for k, v in enumerate(chosen) if v == median]
    rows = _selection_table(nested, name)
    assert rows["median"] == rows[str(fold)] == str(chosen[fold])
