"""What a nested run reports does not depend on the order in which its fits finished.

With ``n_jobs > 1`` the workers finish fits in any order (and the scheduler's order follows
measured durations), so the results reach the schedule in an order that changes from run to
run. The failed fits, their "first error", the failure warning and the report built from them
must be those of the tasks' own order: outer fold, then phase, candidate, inner split, refit.
"""

import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification

from sklearn_fair import NestedCV
from sklearn_fair.model_selection._nested._planning import make_plan
from sklearn_fair.model_selection._nested._results import (
    assemble,
    warn_or_raise_about_failures,
)
from sklearn_fair.model_selection._nested._running import run_plan
from sklearn_fair.report._results import failures_of

X, y = make_classification(n_samples=60, n_features=4, random_state=0)


class FailsForSomeC(ClassifierMixin, BaseEstimator):
    """Majority vote; C=1 and C=2 fail (each with its own message) on training sets of an odd
    number of rows."""

    def __init__(self, C=0, random_state=None):
        self.C = C
        self.random_state = random_state

    def fit(self, X, y):
        if self.C in (1, 2) and len(y) % 2:
            raise ValueError(f"C={self.C} cannot fit {len(y)} rows")
        self.classes_, counts = np.unique(y, return_counts=True)
        self.majority_ = self.classes_[np.argmax(counts)]
        return self

    def predict(self, X):
        return np.full(len(X), self.majority_)


def _finished_schedule():
    nested = NestedCV(
        FailsForSomeC(), {"C": [0, 1, 2]}, outer_cv=3, inner_cv=3, n_refits=1, random_state=0
    )
    plan = make_plan(nested, X, y, None, {}, final=False, return_estimator=False, owner="NestedCV")
    return run_plan(plan)


def _what_users_read(schedule, order):
    """failed_tasks_ and the warnings' text, with the results having finished in ``order``."""
    items = list(schedule.results.items())
    schedule.results = dict(items[i] for i in order(len(items)))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        results = assemble(schedule)
        warn_or_raise_about_failures(
            "NestedCV",
            np.nan,
            results["outer_results"],
            list(schedule.results.values()),
            raise_when_all_failed=False,
        )
    return results["failed_tasks"], [str(w.message) for w in caught]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_failed_fits_and_their_warning_do_not_depend_on_the_finishing_order(seed):
    schedule = _finished_schedule()
    forward = _what_users_read(schedule, range)
    shuffled = _what_users_read(
        schedule, lambda n: np.random.default_rng(seed).permutation(n).tolist()
    )
    backward = _what_users_read(schedule, lambda n: range(n - 1, -1, -1))
    assert forward == shuffled == backward


def test_the_first_error_of_a_fold_is_that_of_its_lowest_candidate_and_inner_split():
    schedule = _finished_schedule()
    failed, _ = _what_users_read(schedule, lambda n: range(n - 1, -1, -1))
    keys = [task["key"] for task in failed]
    order = [(k["outer_fold"], k["candidate"], k["inner_split"]) for k in keys]
    assert order == sorted(order)  # every failed fit here is a selection fit of a fold
    # by hand: each outer training fold has 40 rows, its inner training sets 26 or 27; C=1 and
    # C=2 fail on 27 rows, so C=1 (candidate 1) comes first in every fold
    failures = failures_of(failed)
    assert sorted(failures) == [0, 1, 2]
    for entry in failures.values():
        assert entry["error"] == "ValueError: C=1 cannot fit 27 rows"


def test_the_cache_warning_names_the_same_rejected_entry_whatever_the_reading_order(tmp_path):
    # the run reads entries in the scheduler's order, which follows measured durations
    from sklearn_fair.model_selection._nested._cache import TaskCache

    names = ["aa" + "0" * 62, "bb" + "1" * 62]
    texts = []
    for order in (names, names[::-1]):
        cache = TaskCache(tmp_path, "NestedCV")
        for name in names:
            path = cache.path_for(name)
            path.parent.mkdir(exist_ok=True)
            path.write_text("not json" if name.startswith("aa") else "[]")
        for name in order:
            assert cache.load(name, {}, None) is None
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            cache.warn_rejected()
        texts.append(str(caught[0].message))
    assert texts[0] == texts[1]
    assert "2 entries" in texts[0] and names[0] in texts[0]  # the first by name
