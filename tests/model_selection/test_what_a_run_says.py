"""What a run says about itself: why a fold selected nothing, how many outer folds failed, its
progress when the cache answered, the summary of a run whose folds failed, and its resampling
in words. Each count is checked against the splitter's own splits or the fits the estimator
logged."""

import math
import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.exceptions import FitFailedWarning
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    KFold,
    LeaveOneOut,
    RepeatedKFold,
    RepeatedStratifiedKFold,
    ShuffleSplit,
)
from sklearn.neighbors import KNeighborsClassifier

from sklearn_fair import NestedCV
from sklearn_fair.model_selection import HoldoutSplit

X, y = make_classification(n_samples=60, n_features=4, random_state=0)
MARKED = X.copy()
MARKED[0, 0] = 1e6  # row 0: a fit on at most max_rows rows that trains on it fails
OUTER, INNER = KFold(3), KFold(2)


class FailsOnRowZero(ClassifierMixin, BaseEstimator):
    """Majority vote that logs each fit as (rows, failed); a fit on at most ``max_rows`` rows
    that include row 0 (marked) raises."""

    log = []

    def __init__(self, C=1.0, max_rows=np.inf):
        self.C = C
        self.max_rows = max_rows

    def fit(self, X, y):
        failed = bool(np.max(X[:, 0]) > 1e5 and len(X) <= self.max_rows)
        type(self).log.append((len(X), failed))
        if failed:
            raise ValueError("trained on row 0")
        self.classes_, counts = np.unique(y, return_counts=True)
        self.majority_ = self.classes_[np.argmax(counts)]
        return self

    def predict(self, X):
        return np.full(len(X), self.majority_)


@pytest.fixture(autouse=True)
def _empty_log():
    FailsOnRowZero.log = []


def _folds_training_on_row_zero():
    return [fold for fold, (train, _) in enumerate(OUTER.split(X)) if 0 in train]


def _fit(estimator, **params):
    params = {"outer_cv": OUTER, "inner_cv": INNER, "refit": False, "n_refits": 1, **params}
    return NestedCV(estimator, {"C": [1.0, 2.0]}, **params).fit(MARKED, y)


# --- why no candidate could be selected -----------------------------------------------------


def test_no_selection_from_failed_fits_alone_does_not_blame_the_scorer():
    # inner fits (20 rows) that train on row 0 fail; the others score finite accuracies, and
    # the mean of each candidate is NaN only because error_score=nan enters it
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FitFailedWarning)
        nested = _fit(FailsOnRowZero(max_rows=20))
    fold = _folds_training_on_row_zero()[0]
    train = list(OUTER.split(X))[fold][0]
    inner_failing = sum(1 for t, _ in INNER.split(train) if 0 in train[t])
    n_fits, n_failed = 2 * INNER.get_n_splits(), 2 * inner_failing
    assert sum(failed for _, failed in FailsOnRowZero.log) == n_failed * 2  # two such folds
    rows = nested.cv_results_["outer_fold"] == fold
    split_scores = np.array([nested.cv_results_[f"split{s}_test_score"][rows] for s in (0, 1)])
    assert np.isfinite(split_scores).sum() == n_fits - n_failed
    message = nested.outer_results_[fold]["selection_failed"]
    assert f"{n_failed} of the {n_fits} inner fits failed (given error_score)" in message
    assert f"the other {n_fits - n_failed} scored finite values" in message
    assert "error_score=nan" in message
    assert "returned NaN" not in message and "single class" not in message
    assert "failed_tasks_" in message


# --- FitFailedWarning counts outer folds as folds -------------------------------------------


def test_the_warning_counts_failed_outer_folds_as_folds():
    with pytest.warns(FitFailedWarning) as caught:
        nested = _fit(FailsOnRowZero(max_rows=20))
    failing = _folds_training_on_row_zero()
    message = str(next(w.message for w in caught if w.category is FitFailedWarning))
    n_outer = OUTER.get_n_splits()
    # scikit-learn's sentence (its own test suite matches it), then what a "fit" is here
    assert f"{len(failing)} fits failed out of a total of {n_outer}." in message
    assert f"{len(failing)} of the {n_outer} outer folds have no model" in message
    n_failed = sum(failed for _, failed in FailsOnRowZero.log)
    assert f"{n_failed} of the {len(FailsOnRowZero.log)} fits of NestedCV failed" in message
    assert np.flatnonzero(np.isnan(nested.outer_scores_)).tolist() == failing


# --- progress of a run read from the cache --------------------------------------------------


def test_progress_of_a_cached_run_ends_as_the_computed_one(tmp_path, capsys):
    # LogisticRegression ignores its seed: of n_refits=3 per fold, each fold's first two
    # refits show it (the probe) and its third is skipped
    n_outer, n_refits, n_candidates, n_inner = 3, 3, 2, 2
    total = n_outer * n_candidates * n_inner + n_outer * n_refits
    skipped = n_outer * (n_refits - 2)
    last_lines = []
    for _ in range(2):
        nested = NestedCV(
            LogisticRegression(), {"C": [0.1, 1.0]}, outer_cv=n_outer, inner_cv=n_inner,
            n_refits=n_refits, random_state=0, refit=False, cache_dir=tmp_path, verbose=1,
        ).fit(X, y)  # fmt: skip
        last_lines.append(capsys.readouterr().err.strip().splitlines()[-1])
    assert nested.cache_info_ == {"hits": total - skipped, "computed": 0}
    for line in last_lines:
        assert line.startswith(f"NestedCV fits: {total - skipped}/{total} done, {skipped} skipped")


# --- summary() of a run whose outer folds failed --------------------------------------------


def test_summary_of_failed_outer_folds_names_them_and_computes_nothing():
    # refits (40 rows) that train on row 0 fail: those outer folds are scored error_score=nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FitFailedWarning)
        nested = _fit(FailsOnRowZero(max_rows=40))
    failing = _folds_training_on_row_zero()
    assert np.flatnonzero(np.isnan(nested.outer_scores_)).tolist() == failing
    summary = nested.summary()
    assert summary.n == OUTER.get_n_splits()
    assert all(math.isnan(v) for v in (summary.mean, summary.std, summary.ci_low, summary.iqm))
    folds = ", ".join(f"{fold} (nan)" for fold in failing)
    assert summary.ci_method == (
        f"not computed: {len(failing)} of {OUTER.get_n_splits()} outer folds failed (outer "
        f"fold(s) {folds}; see failed_tasks_)"
    )
    assert summary.notes and "failed_tasks_" in summary.notes[0]
    assert "not computed" in str(summary) and "note:" in str(summary)


@pytest.mark.parametrize("error_score", [0.0, -1.0])
def test_summary_of_folds_scored_a_numeric_error_score_computes_nothing(error_score):
    # outer_results_: a failed fold is failed whatever number error_score is; with 0.0 the
    # mean took the failed folds' zeros in, with -1.0 summarize refused it as out of range
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FitFailedWarning)
        nested = _fit(FailsOnRowZero(max_rows=40), error_score=error_score)
    failing = _folds_training_on_row_zero()
    assert np.flatnonzero(nested.outer_scores_ == error_score).tolist() == failing
    summary = nested.summary()
    assert all(math.isnan(v) for v in (summary.mean, summary.std, summary.ci_low, summary.iqm))
    folds = ", ".join(f"{fold} ({error_score})" for fold in failing)
    assert summary.ci_method == (
        f"not computed: {len(failing)} of {OUTER.get_n_splits()} outer folds failed (outer "
        f"fold(s) {folds}; see failed_tasks_)"
    )


def test_summary_of_a_complete_run_is_computed():
    nested = _fit(FailsOnRowZero(max_rows=0))  # no fit fails
    assert not any(failed for _, failed in FailsOnRowZero.log)
    summary = nested.summary()
    assert summary.mean == pytest.approx(np.mean(nested.outer_scores_))
    assert "not computed" not in summary.ci_method and not summary.notes


# --- resampling_ in words -------------------------------------------------------------------

X31, y31 = make_classification(n_samples=31, n_features=4, random_state=0)


def _resampling(**params):
    nested = NestedCV(
        KNeighborsClassifier(), {"n_neighbors": [1, 3]}, random_state=0, refit=False, **params
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nested.fit(X31, y31)


def test_a_repeated_k_fold_is_named_by_its_folds_and_repeats():
    outer = RepeatedStratifiedKFold(n_splits=2, n_repeats=3, random_state=0)
    inner = RepeatedKFold(n_splits=2, n_repeats=2, random_state=0)
    nested = _resampling(outer_cv=outer, inner_cv=inner)
    assert nested.resampling_["outer"] == (
        f"{outer.cvargs['n_splits']}-fold RepeatedStratifiedKFold, {outer.n_repeats} repeats "
        f"({len(nested.outer_results_)} splits)"
    )
    assert nested.resampling_["inner"] == (
        f"{inner.cvargs['n_splits']}-fold RepeatedKFold, {inner.n_repeats} repeats "
        f"({inner.get_n_splits()} splits), in each outer training fold"
    )


@pytest.mark.parametrize(
    "inner, words",
    [
        (ShuffleSplit(1, test_size=0.25, random_state=0), "one 75%/25% random hold-out (Shuf"),
        (ShuffleSplit(1, train_size=0.6, random_state=0), "one 60%/40% random hold-out (Shuf"),
        (HoldoutSplit(test_size=0.125, random_state=0), "one 87.5%/12.5% stratified hold-out"),
        (HoldoutSplit(test_size=1 / 3, random_state=0), "one 66.7%/33.3% stratified hold-out"),
        (HoldoutSplit(test_size=0.1, random_state=0), "one 90%/10% stratified hold-out"),
    ],
)  # fmt: skip
def test_a_single_hold_out_says_its_shares(inner, words):
    nested = _resampling(outer_cv=3, inner_cv=inner)
    assert [f["inner_splits"] for f in nested.outer_results_] == [1, 1, 1]
    assert nested.resampling_["inner"].startswith(words)


def test_inner_split_counts_that_differ_between_folds_are_given_as_a_range():
    nested = _resampling(outer_cv=KFold(3), inner_cv=LeaveOneOut())
    sizes = [len(train) for train, _ in KFold(3).split(X31)]  # LeaveOneOut: one split a row
    assert [f["inner_splits"] for f in nested.outer_results_] == sizes
    assert min(sizes) != max(sizes)
    assert nested.resampling_["inner"] == (
        f"{min(sizes)}-{max(sizes)} splits of LeaveOneOut, in each outer training fold"
    )
