"""Issue 32: the dry run's count equals the fits a run makes, counting and timing alike.

Each fit is recorded where it happens, by a module-level estimator of a module written for the
test (a name of its own, so that no process holds an older copy) that appends a line to a log
file: the record survives clones and the run's worker processes, and is independent of the
planner it checks. The expected totals are worked out by hand too (outer folds x candidates x
inner splits, plus the refits of NestedCV's seed rule)."""

import csv
import importlib

import cloudpickle
import numpy as np
import pytest
from sklearn.datasets import load_iris

from sklearn_fair.experiment import dry_run, run_experiment

from ._fit_log import counted_experiment

COUNTER = """\
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.tree import DecisionTreeClassifier

LOG = LOG_PATH


class Counted(ClassifierMixin, BaseEstimator):
    # a tree that records each fit in LOG; fail: the fit raises

    def __init__(self, max_depth=None, fail=False):
        self.max_depth = max_depth
        self.fail = fail

    def fit(self, X, y):
        with open(LOG, "a") as f:
            f.write(str(len(X)) + chr(10))
        if self.fail:
            raise ValueError("this candidate fails")
        self.tree_ = self._tree().fit(X, y)
        self.classes_ = self.tree_.classes_
        return self

    def _tree(self):
        return DecisionTreeClassifier(max_depth=self.max_depth, random_state=0)

    def predict(self, X):
        return self.tree_.predict(X)


class Seeded(Counted):
    # Counted, with a random_state that changes its trees

    def __init__(self, max_depth=None, fail=False, random_state=None):
        super().__init__(max_depth, fail)
        self.random_state = random_state

    def _tree(self):
        return DecisionTreeClassifier(
            max_depth=self.max_depth, max_features=0.5, random_state=self.random_state
        )
"""

KFOLD = "outer_cv = 3\ninner_cv = 2\nn_refits = 3"
GROUPED = (
    'outer_cv = { splitter = "sklearn.model_selection.GroupKFold", params = { n_splits = 3 } }\n'
    'inner_cv = { splitter = "sklearn.model_selection.LeaveOneGroupOut" }\nn_refits = 2'
)
# name -> (protocol, model tables, the total worked out by hand; None: seeds decide, see below)
CASES = {
    # no random_state: one refit per fold; 3 x 3 x 2 + 3
    "no seed": (KFOLD, 'estimator = "MODULE.Counted"\ngrid = { max_depth = [1, 2, 3] }', 21),
    # the user's seed is kept: one refit per fold
    "seeded by the user": (
        KFOLD,
        'estimator = "MODULE.Seeded"\nparams = { random_state = 0 }\n'
        "grid = { max_depth = [1, 2, 3] }",
        21,
    ),
    # a seed left unset: three refits per fold, or two on a fold whose two seeds agree
    "seed unset": (KFOLD, 'estimator = "MODULE.Seeded"\ngrid = { max_depth = [1, 2] }', None),
    # an empty grid: the estimator as given, one candidate; 3 x 1 x 2 + 3
    "empty grid": (KFOLD, 'estimator = "MODULE.Counted"\ngrid = {}', 9),
    # the default inner hold-out: one inner split; 4 x 2 x 1 + 4
    "inner hold-out": (
        "outer_cv = 4\nn_refits = 2",
        'estimator = "MODULE.Counted"\ngrid = { max_depth = [1, 2] }',
        12,
    ),
    # a GridSearchCV taken apart, its cv None: scikit-learn's 5 folds; 3 x 2 x 5 + 3
    "grid search, default cv": (
        "outer_cv = 3\nn_refits = 2",
        'estimator = "sklearn.model_selection.GridSearchCV"\nparams = { estimator = '
        '{ estimator = "MODULE.Counted" }, param_grid = { max_depth = [1, 2] } }',
        33,
    ),
    # n_iter above the space's 3 candidates: the 3; 3 x 3 x 2 + 3
    "randomized search, small space": (
        KFOLD,
        'estimator = "sklearn.model_selection.RandomizedSearchCV"\nparams = { estimator = '
        '{ estimator = "MODULE.Counted" }, n_iter = 10, '
        "param_distributions = { max_depth = [1, 2, 3] } }",
        21,
    ),
    # a candidate whose fits fail (scored error_score) still fits: 3 x 4 x 2 + 3
    "a failing candidate": (
        KFOLD + "\nerror_score = 0",
        'estimator = "MODULE.Counted"\ngrid = { max_depth = [1, 2], fail = [false, true] }',
        27,
    ),
    # 2 x 3 outer folds; 6 x 2 x 2 + 6
    "repeated outer folds": (
        'outer_cv = { splitter = "sklearn.model_selection.RepeatedStratifiedKFold", params = '
        "{ n_splits = 3, n_repeats = 2, random_state = 0 } }\ninner_cv = 2\nn_refits = 2",
        'estimator = "MODULE.Counted"\ngrid = { max_depth = [1, 2] }',
        30,
    ),
    # 10 groups, 3 outer group folds (test folds of 4, 3 and 3 groups): one inner split per
    # group of the training fold, 6 + 7 + 7; 2 x 20 + 3
    "grouped, leave one group out inside": (
        GROUPED,
        'estimator = "MODULE.Counted"\ngrid = { max_depth = [1, 2] }',
        43,
    ),
    # two models (of different classes, so that no task of one is a task of the other):
    # 3 x 2 x 2 + 3 and 3 x 3 x 2 + 3
    "two models": (
        KFOLD,
        'estimator = "MODULE.Counted"\ngrid = { max_depth = [1, 2] }\n\n[models.other]\n'
        'estimator = "MODULE.Seeded"\nparams = { random_state = 0 }\n'
        "grid = { max_depth = [1, 2, 3] }",
        15 + 21,
    ),
}


def _experiment(tmp_path, monkeypatch, protocol, models):
    """The experiment file, the fit log and the name of the counting module (``MODULE``)."""
    data = 'dataset = "sklearn:iris"'
    if "Group" in protocol:  # 10 groups of 15 samples
        X, y = load_iris(return_X_y=True)
        with open(tmp_path / "grouped.csv", "w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["a", "b", "c", "d", "group", "target"])
            writer.writerows([*row, g, label] for row, g, label in zip(X, np.arange(150) % 10, y))
        data = 'dataset = "csv"\npath = "grouped.csv"\ntarget = "target"\ngroups = "group"'
    return counted_experiment(
        tmp_path,
        monkeypatch,
        COUNTER,
        '[experiment]\nprogress = false\noutput_dir = "out"\nrandom_state = 0\n\n'
        f"[data]\n{data}\n\n[protocol]\n{protocol}\n\n[models.model]\n{models}",
    )


def _counted(path, log, module, n_jobs=1):
    """The dry run's counts (only counting, then timing too) and the fits of the run."""
    options = dict(allowed_packages=(module,))
    counting = dry_run(path, timing=False, **options)
    timing = dry_run(path, timing=True, n_timed=1, sample_size=16, **options)
    log.unlink(missing_ok=True)  # the timing fits are not the run's
    run_experiment(path, n_jobs=n_jobs, **options)
    return counting, timing, len(log.read_text().splitlines())


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_dry_run_counts_the_fits_of_the_run(tmp_path, monkeypatch, case):
    protocol, models, by_hand = CASES[case]
    counting, timing, fits = _counted(*_experiment(tmp_path, monkeypatch, protocol, models))
    assert (counting.min_total_fits, counting.total_fits) == (
        timing.min_total_fits,
        timing.total_fits,
    )
    if by_hand is not None:  # no seed to probe: one number, the run's
        assert counting.min_total_fits == counting.total_fits == fits == by_hand
    else:  # each fold's probe decides: its three refits, or its first two where they agree
        assert (counting.min_total_fits, counting.total_fits) == (3 * 2 * 2 + 3 * 2, 3 * 2 * 2 + 9)
        assert counting.min_total_fits <= fits <= counting.total_fits


def test_the_count_holds_across_worker_processes(tmp_path, monkeypatch):
    protocol, models, by_hand = CASES["no seed"]
    path, log, module = _experiment(tmp_path, monkeypatch, protocol, models)
    # worker processes started by an earlier test do not have tmp_path on their path: the
    # module's classes travel by value
    counter = importlib.import_module(module)
    cloudpickle.register_pickle_by_value(counter)
    try:
        counting, timing, fits = _counted(path, log, module, n_jobs=2)
    finally:
        cloudpickle.unregister_pickle_by_value(counter)
    assert counting.total_fits == timing.total_fits == fits == by_hand


def _counted_by_value(path, log, module, n_jobs):
    # worker processes started by an earlier test do not have tmp_path on their path: the
    # module's classes travel by value
    counter = importlib.import_module(module)
    cloudpickle.register_pickle_by_value(counter)
    try:
        return _counted(path, log, module, n_jobs=n_jobs)
    finally:
        cloudpickle.unregister_pickle_by_value(counter)


# name -> (protocol, model tables, data sets, (fewest, most) by hand, fits when the run ends)
SHARED = {
    # the other model's candidates 1 and 2 are this model's: 3 x 3 x 2 distinct selection
    # fits; 3 refits where the winners coincide, 6 at most; no sharing at most: 15 + 21
    "two models sharing candidates": (
        KFOLD,
        'estimator = "MODULE.Counted"\ngrid = { max_depth = [1, 2] }\n\n[models.other]\n'
        'estimator = "MODULE.Counted"\ngrid = { max_depth = [1, 2, 3] }',
        1,
        (18 + 3, 15 + 21),
        None,
    ),
    # the same, with a seed left unset: at the fewest each fold keeps two refits (its seeds
    # inert), shared where the winners coincide: 18 + 3 x 2; at most 12 + 9 + 18 + 9. The
    # refits spared were counted over one refit a fold (and two on the first): 26
    "two seeded models sharing candidates": (
        KFOLD,
        'estimator = "MODULE.Seeded"\ngrid = { max_depth = [1, 2] }\n\n[models.other]\n'
        'estimator = "MODULE.Seeded"\ngrid = { max_depth = [1, 2, 3] }',
        1,
        (18 + 3 * 2, 12 + 9 + 18 + 9),
        None,
    ),
    # two names for one model: every task is shared, the winners too: 3 x 2 x 2 + 3
    "the same model twice": (
        KFOLD,
        'estimator = "MODULE.Counted"\ngrid = { max_depth = [1, 2] }\n\n[models.again]\n'
        'estimator = "MODULE.Counted"\ngrid = { max_depth = [1, 2] }',
        1,
        (15, 30),
        15,
    ),
    # one model over cumulative time-ordered folds (outer origins 60, 90, 120; inner origins
    # 30, 45, ... in each): the inner splits at 30 and 45 come back in every later fold, 6
    # distinct of 2 + 4 + 6; 2 x 6 + 3 at the fewest, 2 x 12 + 3 at most. The dry run counted
    # 27 and said nothing of the tasks the run fits once
    "one model's repeated inner splits": (
        'outer_cv = { splitter = "sklearn_fair.model_selection.RollingOrigin", params = '
        "{ initial = 60, assess = 30, skip = 29 } }\n"
        'inner_cv = { splitter = "sklearn_fair.model_selection.RollingOrigin", params = '
        "{ initial = 30, assess = 15, skip = 14 } }\nn_refits = 1",
        'estimator = "MODULE.Counted"\ngrid = { max_depth = [1, 2] }',
        1,
        (15, 27),
        15,
    ),
    # one data set listed twice: one data set's fits
    "a data set twice": (
        KFOLD,
        'estimator = "MODULE.Counted"\ngrid = { max_depth = [1, 2] }',
        2,
        (15, 30),
        15,
    ),
}


@pytest.mark.parametrize("case", sorted(SHARED))
def test_tasks_that_models_share_are_fitted_once_and_counted(tmp_path, monkeypatch, case):
    protocol, models, n_datasets, (fewest, most), expected = SHARED[case]
    path, log, module = _experiment(tmp_path, monkeypatch, protocol, models)
    if n_datasets == 2:
        text = path.read_text().replace("[data]\n", "[data.first]\n")
        path.write_text(text + '\n[data.second]\ndataset = "sklearn:iris"\n')
    counting, timing, fits = _counted_by_value(path, log, module, n_jobs=2)
    assert (counting.min_total_fits, counting.total_fits) == (fewest, most)
    assert (timing.min_total_fits, timing.total_fits) == (fewest, most)
    assert fewest <= fits <= most
    if expected is not None:
        assert fits == expected
    # each distinct task is fitted once, whatever n_jobs and the order tasks finish in:
    # one worker, in another results folder (so another cache), fits as many
    log.unlink()
    run_experiment(path, n_jobs=1, allowed_packages=(module,), output_dir=tmp_path / "again")
    assert len(log.read_text().splitlines()) == fits
