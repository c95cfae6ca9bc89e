"""Issue 22.5: NestedCV drives joblib through its public API only, and its runs share one warm
pool of loky workers."""

import os
import re
import sys
import time
from pathlib import Path

import cloudpickle
import numpy as np
import pytest
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV

ROOT = Path(__file__).resolve().parents[2]

# private modules, attributes and classes of joblib that code once reached into
PRIVATE = re.compile(
    r"joblib\._(?!_)|_parallel_backends|\._backend\._|\._effective_n_jobs|AutoBatchingMixin"
    r"|_temp_folder_manager|\._workers\b"
)


def test_no_private_joblib_api_in_the_package_or_the_benchmarks():
    offenders = []
    for folder in ("sklearn_fair", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if PRIVATE.search(line):
                    offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []


# loky's workers need not import this test module: its functions travel by value
cloudpickle.register_pickle_by_value(sys.modules[__name__])


class PidRecorder(DecisionTreeClassifier):
    """A tree whose fit leaves its worker's pid in the folder ``pids``."""

    def __init__(self, max_depth=None, pids=None):
        super().__init__(max_depth=max_depth)
        self.pids = pids

    def fit(self, X, y, sample_weight=None):
        Path(self.pids, str(os.getpid())).touch()
        time.sleep(0.05)  # both workers get fits
        return super().fit(X, y, sample_weight=sample_weight)


def _worker_pids_of_a_run(folder, X, y):
    folder.mkdir()
    nested = NestedCV(
        PidRecorder(pids=str(folder)), {"max_depth": [1, 2]}, outer_cv=3, inner_cv=2,
        n_refits=1, refit=False, n_jobs=2, random_state=0,
    ).fit(X, y)  # fmt: skip
    assert len(nested.outer_scores_) == 3
    return {int(name) for name in os.listdir(folder)}


def test_nested_cv_runs_share_one_warm_pool_of_workers(tmp_path):
    X = np.random.default_rng(0).normal(size=(60, 3))
    y = np.arange(60) % 2
    first = _worker_pids_of_a_run(tmp_path / "first", X, y)
    second = _worker_pids_of_a_run(tmp_path / "second", X, y)
    assert os.getpid() not in first and 1 <= len(first) <= 2
    # the same worker processes: the second run found the first one's pool warm (a restarted
    # pool has new process ids)
    assert second == first


def _pid_once_both_arrived(folder):
    """A worker's pid, once two workers have run this (each waits for the other)."""
    Path(folder, str(os.getpid())).touch()
    for _ in range(1200):
        if len(os.listdir(folder)) >= 2:
            return os.getpid()
        time.sleep(0.1)


def _both_workers(folder):
    from joblib import Parallel, delayed

    folder.mkdir()
    return set(Parallel(n_jobs=2)(delayed(_pid_once_both_arrived)(str(folder)) for _ in range(2)))


def test_nested_cv_and_scikit_learns_n_jobs_share_one_warm_pool(tmp_path):
    # a user's session alternates them: each found the other's workers warm, none restarted
    # them (loky keeps a pool only for the same executor arguments, joblib's)
    from sklearn.model_selection import cross_validate

    X = np.random.default_rng(0).normal(size=(60, 3))
    y = np.arange(60) % 2
    before = _both_workers(tmp_path / "before")
    nested = _worker_pids_of_a_run(tmp_path / "nested", X, y)
    (tmp_path / "sklearn").mkdir()
    cross_validate(PidRecorder(pids=str(tmp_path / "sklearn")), X, y, cv=4, n_jobs=2)
    sklearn = {int(name) for name in os.listdir(tmp_path / "sklearn")}
    again = _worker_pids_of_a_run(tmp_path / "again", X, y)
    after = _both_workers(tmp_path / "after")
    used = before | nested | sklearn | again | after
    # the same two workers throughout: a restarted pool would have brought new process ids
    assert len(before) == 2 and os.getpid() not in before and used == before


def _modules_once_both_arrived(folder, names):
    """(pid, which of ``names`` the worker has imported), once two workers ran this."""
    pid = _pid_once_both_arrived(folder)
    return pid, [name for name in names if name in sys.modules]


def test_the_workers_of_a_tabular_run_import_no_torch(tmp_path):
    # a worker imports what its tasks need: a tabular fit does not pay for torch and PyG
    # (seconds per worker, hundreds of MiB), nor for the benchmarking and report layers
    from joblib import Parallel, delayed
    from joblib.externals.loky import get_reusable_executor

    get_reusable_executor().shutdown(wait=True)  # fresh workers: none ran an earlier test's GNN
    X = np.random.default_rng(0).normal(size=(60, 3))
    y = np.arange(60) % 2
    used = _worker_pids_of_a_run(tmp_path / "run", X, y)
    (tmp_path / "ask").mkdir()
    heavy = ["torch", "torch_geometric", "skorch", "sklearn_fair.benchmarking", "matplotlib"]
    report = dict(
        Parallel(n_jobs=2)(
            delayed(_modules_once_both_arrived)(str(tmp_path / "ask"), heavy) for _ in range(2)
        )
    )
    assert used <= set(report) and report == dict.fromkeys(report, [])


class HeavyOnArrival(PidRecorder):
    """A PidRecorder whose arrival in a worker costs 400 MB once per process, as unpickling a
    GNN (importing torch, PyG and skorch) costs a fresh worker hundreds of MB."""

    def __setstate__(self, state):
        if not hasattr(sys, "_sklearn_fair_test_ballast"):
            sys._sklearn_fair_test_ballast = b"x" * 400_000_000  # touched pages: resident
        super().__setstate__(state)

    def fit(self, X, y, sample_weight=None):
        time.sleep(0.15)  # loky checks a worker's memory at most once a second
        return super().fit(X, y, sample_weight=sample_weight)


def test_a_worker_that_loads_a_heavy_estimator_is_not_replaced_as_a_leak(tmp_path, recwarn):
    # loky measures a worker's memory after its first task and replaces a worker that has
    # grown by 300 MB since: the first task a NestedCV worker runs (the watch) unpickles the
    # run's estimator, so importing torch counts as the worker's start, not as a leak (before,
    # each fresh worker was replaced once, re-importing torch, with loky's warning)
    import warnings

    from joblib.externals.loky import get_reusable_executor

    pytest.importorskip("psutil", reason="loky checks workers' memory only with psutil")
    get_reusable_executor().shutdown(wait=True)  # fresh workers
    X = np.random.default_rng(0).normal(size=(60, 3))
    y = np.arange(60) % 2
    (tmp_path / "pids").mkdir()
    warnings.simplefilter("always")
    NestedCV(
        HeavyOnArrival(pids=str(tmp_path / "pids")), {"max_depth": [1, 2]}, outer_cv=4,
        inner_cv=3, n_refits=1, refit=False, n_jobs=2, random_state=0,
    ).fit(X, y)  # fmt: skip
    stopped = [w for w in recwarn if "A worker stopped" in str(w.message)]
    assert stopped == []
    assert len(os.listdir(tmp_path / "pids")) <= 2  # no fit ran on a replacement worker
    get_reusable_executor().shutdown(wait=True)  # give the 800 MB back


def test_a_fresh_worker_unpickles_one_context_per_kind_of_estimator():
    # the watch carries what imports the run's modules, not every cell's context: a benchmark
    # of 5,000 cells of two models ships two
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from sklearn_fair.model_selection._nested._running import _one_context_per_kind
    from sklearn_fair.model_selection._nested._tasks import TaskContext

    def contexts(make):
        return [TaskContext(make(), {}) for _ in range(50)]

    tree = contexts(DecisionTreeClassifier)
    pipe = contexts(lambda: make_pipeline(StandardScaler(), LogisticRegression()))
    other = contexts(lambda: make_pipeline(StandardScaler(), DecisionTreeClassifier()))
    kept = _one_context_per_kind(tree + pipe + other)
    assert [context.estimator for context in kept] == [
        tree[0].estimator,
        pipe[0].estimator,
        other[0].estimator,
    ]
