"""The coverage note says where the benchmark's figure was measured for another scheme of
k-fold CV than the run's."""

import pickle
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold, RepeatedKFold, RepeatedStratifiedKFold

from sklearn_fair import NestedCV
from sklearn_fair.report._results import as_result
from sklearn_fair.stats._interval import MEASURED_COVERAGE, coverage_note, times_tested


def _runs(splitter):
    splits = list(splitter.split(np.zeros((40, 1))))
    return times_tested([tr for tr, _ in splits], [te for _, te in splits])


def test_a_repeated_cv_of_another_scheme_says_the_figure_is_not_of_it():
    # CARD-4: 2 times repeated 3-fold CV was quoted "(5 times repeated 5-fold CV)" bare
    X, y = make_classification(n_samples=60, n_features=5, random_state=0)
    outer = RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nested = NestedCV(
            LogisticRegression(), {"C": [0.1, 1.0]}, outer_cv=outer, inner_cv=2, n_refits=1,
            random_state=0,
        ).fit(X, y)  # fmt: skip
    assert len(nested.outer_results_) == outer.get_n_splits() == 6
    low, high = MEASURED_COVERAGE["corrected_t_repeated"]["ranges"]["0.95"]
    cell = as_result("m", nested, dataset="d")
    for note in (
        nested.summary().ci_coverage,
        cell.summary(root=0, confidence=0.95, interval="corrected_t", n_resamples=10).ci_coverage,
    ):
        assert (
            f"{low:.0f}-{high:.0f}% of the time at nominal 95% (5 times repeated 5-fold CV): "
            "it under-covers; this run's 2 times repeated 3-fold CV was not measured"
        ) in note


@pytest.mark.parametrize(
    "splitter, interval, other",
    [
        (KFold(5), "corrected_t", None),
        (RepeatedKFold(n_splits=5, n_repeats=5, random_state=0), "t", None),
        (KFold(10), "corrected_t", "10-fold CV"),
        (RepeatedKFold(n_splits=5, n_repeats=2, random_state=0), "t", "2 times repeated 5-fold CV"),
    ],
)
def test_the_note_names_the_run_s_scheme_only_where_it_differs(splitter, interval, other):
    note = coverage_note(interval, 0.95, _runs(splitter))
    if other is None:
        assert "was not measured" not in note
    else:
        assert note.endswith(f"; this run's {other} was not measured")
    # a bare count says nothing of the folds: no claim of either
    assert "was not measured" not in coverage_note(interval, 0.95, int(_runs(splitter)))


def test_times_tested_keeps_its_folds_through_a_pickle():
    runs = pickle.loads(pickle.dumps(_runs(RepeatedKFold(n_splits=4, n_repeats=3))))
    assert runs == 3 and runs.n_splits == 4
