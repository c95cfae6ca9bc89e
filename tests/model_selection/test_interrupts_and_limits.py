"""A Ctrl-C that a fit catches, one model's fit_timeout in a benchmark, and a fit whose worker
died under error_score="raise": none of them may leave a wrong number."""

import os
import signal
import sys
import time
from pathlib import Path

import cloudpickle
import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, cross_val_score

from sklearn_fair import NestedCV, benchmark
from sklearn_fair.model_selection import HoldoutSplit

# the module travels to loky's workers by value: they need not import this file
cloudpickle.register_pickle_by_value(sys.modules[__name__])

X, y = make_classification(n_samples=60, n_features=5, random_state=0)
GRID = {"C": [0.1, 1.0]}


class SwallowsCtrlC(ClassifierMixin, BaseEstimator):
    """Logistic regression. The first fit on 40 rows or more (a refit on an outer training fold
    of X) once the file ``marker`` does not exist creates it and sends its process SIGINT;
    as MLPClassifier's fit does, it catches the KeyboardInterrupt and returns a model cut
    short (here: one that predicts the minority class), or with ``then="raise"`` raises a
    ValueError instead."""

    def __init__(self, C=1.0, marker=None, then="return"):
        self.C = C
        self.marker = marker
        self.then = then

    def fit(self, X, y):
        self.lr_ = LogisticRegression(C=self.C).fit(X, y)
        self.classes_ = self.lr_.classes_
        self.cut_short_ = None
        if self.marker is not None and len(X) >= 40 and not os.path.exists(self.marker):
            Path(self.marker).touch()
            try:
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.2)
            except KeyboardInterrupt:
                if self.then == "raise":
                    raise ValueError("training failed after an interruption") from None
                values, counts = np.unique(y, return_counts=True)
                self.cut_short_ = values[np.argmin(counts)]
        return self

    def predict(self, X):
        if self.cut_short_ is not None:
            return np.full(len(X), self.cut_short_)
        return self.lr_.predict(X)


def _reference():
    # scikit-learn's nested CV of the same deterministic model on the same (unshuffled) folds
    search = GridSearchCV(SwallowsCtrlC(), GRID, cv=2)
    return cross_val_score(search, X, y, cv=3)


def _nested(estimator, cache, n_jobs):
    return NestedCV(estimator, GRID, outer_cv=3, inner_cv=2, n_refits=1, refit=False,
                    random_state=0, cache_dir=cache, n_jobs=n_jobs)  # fmt: skip


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_a_ctrl_c_the_fit_caught_stops_the_run_and_caches_nothing_cut_short(tmp_path, n_jobs):
    marker, cache = str(tmp_path / "interrupted"), tmp_path / "cache"
    handler = signal.getsignal(signal.SIGINT)
    # before: the fit returned its cut-short model, which was scored and cached; with n_jobs=1
    # the run finished with that fold's score, and every later run read it from the cache
    with pytest.raises(KeyboardInterrupt):
        _nested(SwallowsCtrlC(marker=marker), cache, n_jobs).fit(X, y)
    assert os.path.exists(marker)  # the interrupting fit ran
    assert signal.getsignal(signal.SIGINT) is handler
    # resumed from the cache (the marker exists: no interruption now), the run is the one
    # scikit-learn computes: no cut-short refit was served from the cache
    resumed = _nested(SwallowsCtrlC(marker=marker), cache, n_jobs).fit(X, y)
    np.testing.assert_allclose(resumed.outer_scores_, _reference(), rtol=1e-12)
    assert signal.getsignal(signal.SIGINT) is handler


def test_a_fit_that_caught_a_ctrl_c_and_raised_is_no_failed_fit_but_a_stop(tmp_path):
    # before: recorded as a failed fit (a FitFailedWarning) and the run went on
    estimator = SwallowsCtrlC(marker=str(tmp_path / "interrupted"), then="raise")
    with pytest.raises(KeyboardInterrupt, match="caught the KeyboardInterrupt"):
        _nested(estimator, None, 1).fit(X, y)


def test_a_sigint_handler_that_does_not_raise_still_lets_the_run_finish(tmp_path):
    calls = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: calls.append(signum))
    try:
        model = _nested(SwallowsCtrlC(marker=str(tmp_path / "interrupted")), None, 1).fit(X, y)
        assert signal.getsignal(signal.SIGINT) is not previous  # the test's handler, back
    finally:
        signal.signal(signal.SIGINT, previous)
    assert calls == [signal.SIGINT]  # the handler in force handled the signal
    np.testing.assert_allclose(model.outer_scores_, _reference(), rtol=1e-12)


class SleepsOnce(ClassifierMixin, BaseEstimator):
    """Logistic regression whose first fit (while the file ``marker`` does not exist) sleeps
    ``sleep`` s first."""

    def __init__(self, C=1.0, marker=None, sleep=0.0):
        self.C = C
        self.marker = marker
        self.sleep = sleep

    def fit(self, X, y):
        if self.marker is not None and not os.path.exists(self.marker):
            Path(self.marker).touch()
            time.sleep(self.sleep)
        self.lr_ = LogisticRegression(C=self.C).fit(X, y)
        self.classes_ = self.lr_.classes_
        return self

    def predict(self, X):
        return self.lr_.predict(X)


def test_one_models_fit_timeout_does_not_kill_another_models_fits(tmp_path):
    # "limited" has fit_timeout=0.5 s (its worker is killed 2.5 s into a fit still running);
    # "free" has none, and a fit of 4 s. Before: that fit's worker was killed, and "free" got
    # a FitTimeoutError failure and other scores than alone.
    free = SleepsOnce(marker=str(tmp_path / "slept"), sleep=4.0)
    result = benchmark(
        {"limited": NestedCV(SleepsOnce(), GRID, fit_timeout=0.5), "free": (free, GRID)},
        {"d": (X, y)}, outer_cv=2, inner_cv=2, n_refits=1, random_state=0, n_jobs=1,
    )  # fmt: skip
    assert os.path.exists(tmp_path / "slept")
    assert len(result.failures) == 0, result.failures.to_string()
    scores = result.scores.set_index(["model", "outer_fold"])["score"]
    reference = cross_val_score(GridSearchCV(SleepsOnce(), GRID, cv=2), X, y, cv=2)
    np.testing.assert_allclose(scores["free"].to_numpy(), reference, rtol=1e-12)
    np.testing.assert_allclose(scores["limited"].to_numpy(), reference, rtol=1e-12)


class DiesForLargeC(ClassifierMixin, BaseEstimator):
    """Logistic regression whose fit with C > 5 ends its process (os._exit)."""

    def __init__(self, C=1.0):
        self.C = C

    def fit(self, X, y):
        if self.C > 5:
            os._exit(3)
        self.lr_ = LogisticRegression(C=self.C).fit(X, y)
        self.classes_ = self.lr_.classes_
        return self

    def predict(self, X):
        return self.lr_.predict(X)


def test_a_selection_fit_whose_worker_died_raises_with_error_score_raise():
    # before: ValueError: could not convert string to float: 'raise'; now the message names
    # the fit and its error, as that of a refit whose worker died
    # (fit_timeout: a loky worker of its own with n_jobs=1)
    # (one inner split: each death restarts loky)
    inner = HoldoutSplit(test_size=0.3, random_state=0)
    model = NestedCV(DiesForLargeC(), {"C": [0.1, 10.0]}, outer_cv=2, inner_cv=inner,
                     n_refits=1, refit=False, random_state=0, error_score="raise",
                     fit_timeout=60, n_jobs=1)  # fmt: skip
    with pytest.raises(ValueError, match="error_score='raise'") as info:
        model.fit(X, y)
    message = str(info.value)
    assert message.startswith("The selection fit (outer fold 0, candidate 1, inner split 0) of ")
    assert "The error was:\nWorkerDiedError: the worker process died" in message
