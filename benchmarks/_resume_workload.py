"""The workload of bench_resume.py, importable by its child process."""

import os
import sys

from sklearn.datasets import make_classification
from sklearn.svm import SVC

GRID = {"C": [0.01, 0.1, 1.0, 10.0, 100.0, 1000.0]}


class LoggedSVC(SVC):
    """An SVC that appends one line to $RESUME_BENCH_LOG each time a fit starts."""

    def fit(self, X, y, sample_weight=None):
        log = os.environ.get("RESUME_BENCH_LOG")
        if log:
            with open(log, "a") as file:
                file.write(f"{self.C} {self.random_state}\n")
        return super().fit(X, y, sample_weight=sample_weight)


def data():
    return make_classification(
        n_samples=2000, n_features=20, n_informative=8, flip_y=0.25, random_state=0
    )


def model(cache_dir, n_jobs):
    from sklearn_fair import NestedCV

    return NestedCV(
        LoggedSVC(),
        GRID,
        outer_cv=10,
        n_refits=3,
        refit=False,
        random_state=0,
        n_jobs=n_jobs,
        cache_dir=cache_dir,
    )


def run_child():
    """The child process that bench_resume.py kills; imported, not run as __main__, so that
    LoggedSVC has the same qualified name (and cache key) in the child and the parent."""
    X, y = data()
    model(sys.argv[1], int(sys.argv[2])).fit(X, y)
