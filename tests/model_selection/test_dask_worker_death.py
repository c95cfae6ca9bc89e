"""A fit that kills its Dask worker process is recorded as failed, as on loky, and the run
finishes: the scattered data that went with the dead workers is scattered again and the tasks
Dask cancelled with it are run again."""

import logging
import os
import sys
import warnings

import joblib
import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.exceptions import FitFailedWarning

from sklearn_fair import NestedCV

distributed = pytest.importorskip("dask.distributed")
dask = pytest.importorskip("dask")

X, y = make_classification(n_samples=48, n_features=4, random_state=0)

# Dask's workers import the estimator's class by name: it is written to a module on their path
MODULE = '''
import os

from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LogisticRegression


class DiesOrRaises(ClassifierMixin, BaseEstimator):
    """Logistic regression, but with mode="exit" every fit ends its worker process
    (os._exit, as a segfault or the out-of-memory killer does); with mode="raise" it raises."""

    def __init__(self, mode="ok"):
        self.mode = mode

    def fit(self, X, y):
        if self.mode == "exit":
            os._exit(3)
        if self.mode == "raise":
            raise RuntimeError("this fit fails")
        self.model_ = LogisticRegression().fit(X, y)
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        return self.model_.predict(X)
'''


@pytest.fixture
def estimator_class(tmp_path, monkeypatch):
    (tmp_path / "dies_or_raises.py").write_text(MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), *sys.path]))
    from dies_or_raises import DiesOrRaises

    return DiesOrRaises


def nested(estimator_class, failing_mode):
    return NestedCV(
        estimator_class(),
        {"mode": ["ok", failing_mode]},
        outer_cv=2,
        inner_cv=2,
        n_refits=1,
        refit=False,
        random_state=0,
    )


def fingerprint(model):
    return (
        model.outer_scores_.tolist(),
        model.best_params_per_fold_,
        [fold["test_scores"].tolist() for fold in model.outer_results_],
        sorted(str(task["key"]) for task in model.failed_tasks_),
    )


# allowed-failures: how many workers a task may kill before Dask gives up on it (KilledWorker);
# with 2 workers the scattered data goes with them first, and Dask cancels the tasks needing it
@pytest.mark.parametrize("allowed_failures", [0, 3])
def test_a_fit_that_kills_its_dask_worker_is_recorded_as_failed(estimator_class, allowed_failures):
    # it raised FutureCancelledError: execute-... cancelled for reason: already forgotten
    # (FuturesCancelledError with allowed-failures=0), and the run was lost
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FitFailedWarning)
        reference = nested(estimator_class, "raise").fit(X, y)  # in this process: no crash
    config = {
        "distributed.scheduler.allowed-failures": allowed_failures,
        # a LocalCluster closes a worker's nanny when no worker of its name is back 15 s after
        # its death: on a loaded machine, one restarting then was closed for good
        "distributed.deploy.lost-worker-timeout": "10 minutes",
    }
    with (
        dask.config.set(config),
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            silence_logs=logging.CRITICAL,
        ) as cluster,
        distributed.Client(cluster),
        joblib.parallel_backend("dask"),
    ):
        with pytest.warns(FitFailedWarning, match="4 of the 10 fits of NestedCV failed"):
            model = nested(estimator_class, "exit").fit(X, y)

    # the 4 selection fits of candidate 1 killed their workers: each is recorded as failed,
    # naming its outer fold and inner split, as loky records it; every other fit scored
    errors = sorted(task["error"] for task in model.failed_tasks_)
    assert errors == [
        "WorkerDiedError: the worker process died while running the selection fit (outer "
        f"fold {fold}, candidate 1, inner split {split}) (a crash, os._exit, or the operating "
        "system killing it, e.g. for lack of memory); rerun alone, it died again."
        for fold in (0, 1)
        for split in (0, 1)
    ]
    assert model.outer_scores_.tolist() == [1.0, 1.0]
    # the scores are those of a run whose failing fits raise instead
    assert fingerprint(model) == fingerprint(reference)
    np.testing.assert_array_equal(model.validation_scores_, reference.validation_scores_)
