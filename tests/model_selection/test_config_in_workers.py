"""Every fit runs under the caller's scikit-learn configuration, whatever runs it: a worker
thread or process does not inherit it (joblib's delayed of sklearn.utils.parallel carries it,
and so does NestedCV now). With metadata routing on, fits in workers ran with it off: other
scores (a calibrator passed weights its model declined) or every fit failing."""

import contextlib
import sys

import cloudpickle
import joblib
import numpy as np
import pytest
import sklearn
from sklearn.base import BaseEstimator, ClassifierMixin

from sklearn_fair import NestedCV


class SeesTheConfig(ClassifierMixin, BaseEstimator):
    """Predicts every label right when it was fitted with metadata routing on, else wrong."""

    def __init__(self, C=1.0):
        self.C = C

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        self.routing_ = sklearn.get_config()["enable_metadata_routing"]
        return self

    def predict(self, X):
        truth = (np.asarray(X)[:, 0] > 0).astype(int)
        return truth if self.routing_ else 1 - truth


# its classes travel to worker processes by value (the tests are not an importable package)
cloudpickle.register_pickle_by_value(sys.modules[__name__])

X = np.linspace(-1, 1, 60)[:, None]
Y = (X[:, 0] > 0).astype(int)


@pytest.mark.parametrize(
    "where",
    [
        {"n_jobs": 2, "backend": "threading"},
        {"n_jobs": 1, "fit_timeout": 60},  # a fit under a time limit runs in a worker process
    ],
    ids=["threads", "process"],
)
def test_fits_in_workers_see_the_callers_configuration(where):
    options = dict(outer_cv=3, inner_cv=2, n_refits=1, refit=False, random_state=0)
    backend = where.pop("backend", None)
    with sklearn.config_context(enable_metadata_routing=True):
        serial = NestedCV(SeesTheConfig(), {"C": [1.0, 2.0]}, **options).fit(X, Y)
        with joblib.parallel_config(backend=backend) if backend else contextlib.nullcontext():
            workers = NestedCV(SeesTheConfig(), {"C": [1.0, 2.0]}, **options, **where).fit(X, Y)
    assert serial.outer_scores_.tolist() == [1.0, 1.0, 1.0]
    assert workers.outer_scores_.tolist() == serial.outer_scores_.tolist()


class WarnsBelowOne(ClassifierMixin, BaseEstimator):
    """Right below C=1, where its fit raises a ConvergenceWarning; wrong from 1 on."""

    def __init__(self, C=1.0):
        self.C = C

    def fit(self, X, y):
        import warnings

        from sklearn.exceptions import ConvergenceWarning

        if self.C < 1:
            warnings.warn("did not converge", ConvergenceWarning, stacklevel=2)
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        truth = (np.asarray(X)[:, 0] > 0).astype(int)
        return truth if self.C < 1 else 1 - truth


def test_fits_in_worker_processes_see_the_callers_warning_filters():
    # a warning the user turns into an error fails the fit in the caller's process (as in
    # scikit-learn's workers, which get the filters too); a worker process ran it under its
    # own filters, so the candidate that warns was selected there
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    options = dict(outer_cv=3, inner_cv=2, n_refits=1, refit=False, random_state=0)
    grid = {"C": [0.5, 2.0]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        warnings.simplefilter("error", ConvergenceWarning)
        serial = NestedCV(WarnsBelowOne(), grid, **options).fit(X, Y)
        worker = NestedCV(WarnsBelowOne(), grid, fit_timeout=60, **options).fit(X, Y)
    assert serial.best_params_per_fold_ == [{"C": 2.0}] * 3  # C=0.5 failed: not selected
    assert worker.best_params_per_fold_ == serial.best_params_per_fold_
    assert worker.outer_scores_.tolist() == serial.outer_scores_.tolist() == [0.0, 0.0, 0.0]
