"""The tuning budget of a search that NestedCV runs whole (a halving search, a callable refit):
its distinct candidates and the inner fits it made, counted by the estimator itself, the same
in result_to_dict and in a benchmark's budget, and the unequal-budget warning that reads them."""

import warnings

import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.experimental import enable_halving_search_cv  # noqa: F401
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    GridSearchCV,
    HalvingGridSearchCV,
    StratifiedKFold,
    cross_validate,
)

from sklearn_fair import NestedCV, benchmark
from sklearn_fair.exceptions import UnequalBudgetWarning
from sklearn_fair.report import result_to_dict

FITS = []


class CountingLR(ClassifierMixin, BaseEstimator):
    """A logistic regression that counts its fits (in this process: n_jobs=1)."""

    def __init__(self, C=1.0):
        self.C = C

    def fit(self, X, y):
        FITS.append(len(y))
        self.model_ = LogisticRegression(C=self.C, max_iter=500).fit(X, y)
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        return self.model_.predict(X)


X, Y = make_classification(300, 8, random_state=0)
OUTER = StratifiedKFold(3, shuffle=True, random_state=1)
GRID = {"C": [0.001, 0.01, 0.1, 1, 10, 100]}


def _halving():
    return HalvingGridSearchCV(
        CountingLR(), GRID, cv=StratifiedKFold(3), factor=2, min_resources=40, random_state=0
    )


@pytest.fixture(scope="module")
def truth():
    """The inner fits scikit-learn's own nested CV of the search makes, counted."""
    FITS.clear()
    reference = cross_validate(_halving(), X, Y, cv=OUTER, return_estimator=True)
    searches = reference["estimator"]
    counted = len(FITS) - len(searches)  # each search refits its winner once
    assert counted == sum(sum(s.n_candidates_) * 3 for s in searches)
    assert all(len(s.cv_results_["params"]) > len(GRID["C"]) for s in searches)  # rows repeat
    return {"n_candidates": len(GRID["C"]), "n_inner_fits": counted, "n_searches": 3}


def test_result_to_dict_records_the_fits_a_whole_search_made(truth):
    FITS.clear()
    nested = NestedCV(_halving(), outer_cv=OUTER, n_refits=1, random_state=0, refit=False)
    nested.fit(X, Y)
    assert len(FITS) - 3 == truth["n_inner_fits"]  # NestedCV made them, and 3 refits
    assert result_to_dict(nested)["budget"] == truth


def test_benchmark_records_the_same_budget(truth):
    FITS.clear()
    result = benchmark(
        {"halving": _halving()}, {"d": (X, Y)}, outer_cv=OUTER, n_refits=1, random_state=0,
        n_jobs=1,
    )  # fmt: skip
    assert len(FITS) - 3 == truth["n_inner_fits"]
    (row,) = result.budget.to_dict("records")
    assert {key: row[key] for key in truth} == truth
    assert result_to_dict(result.estimators["d", "halving"])["budget"] == truth


def test_a_callable_refit_counts_its_candidates_and_fits():
    search = GridSearchCV(CountingLR(), GRID, cv=3, refit=lambda results: 0)
    FITS.clear()
    nested = NestedCV(search, outer_cv=OUTER, n_refits=1, random_state=0, refit=False)
    nested.fit(X, Y)
    expected = {"n_candidates": 6, "n_inner_fits": 6 * 3 * 3, "n_searches": 3}
    # the fits on inner training splits (2/3 of an outer training fold of 200 rows): not the
    # refits, nor the search's own refit of its winner
    assert sum(1 for n_rows in FITS if n_rows < 200) == expected["n_inner_fits"]
    assert result_to_dict(nested)["budget"] == expected


def _budget_warnings(models):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = benchmark(
            models, {"d": (X, Y)}, outer_cv=OUTER, n_refits=1, random_state=0, baseline="base"
        )
        result.compare_to()
    return result, [str(w.message) for w in caught if w.category is UnequalBudgetWarning]


def test_a_halving_baseline_of_few_candidates_is_warned_of():
    lr = LogisticRegression(max_iter=300)
    base = HalvingGridSearchCV(
        lr, {"C": [0.01, 1.0]}, cv=3, factor=2, min_resources=50, random_state=0
    )
    model = GridSearchCV(lr, {"C": [10.0**k for k in range(-4, 5)]}, cv=3)
    result, messages = _budget_warnings({"base": base, "model": model})
    assert result.budget.set_index("model").loc["base", "n_candidates"] == 2
    assert len(messages) == 1 and "(9 candidates against 2)" in messages[0]


def test_the_warning_names_the_candidates_a_halving_search_tried():
    lr = LogisticRegression(max_iter=300)
    Cs = [10.0**k for k in range(-4, 5)]
    model = HalvingGridSearchCV(lr, {"C": Cs}, cv=3, factor=2, min_resources=20, random_state=0)
    base = GridSearchCV(lr, {"C": [0.01, 1.0]}, cv=3)
    result, messages = _budget_warnings({"base": base, "model": model})
    assert result.budget.set_index("model").loc["model", "n_candidates"] == len(Cs)
    assert len(messages) == 1 and "(9 candidates against 2)" in messages[0]
