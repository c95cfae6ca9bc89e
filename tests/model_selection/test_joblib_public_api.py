"""Issue 22.5: NestedCV drives joblib through its public API only, and still shares joblib's
warm pool of loky workers (no restart when switching between joblib and NestedCV)."""

import os
import re
import sys
import time
from pathlib import Path

import cloudpickle
import numpy as np
from joblib import Parallel, delayed
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


def _pid_once_both_run(folder):
    """This worker's pid, once two workers have each started one such task (a barrier)."""
    Path(folder, str(os.getpid())).touch()
    deadline = time.monotonic() + 120
    while len(os.listdir(folder)) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    return os.getpid()


def _worker_pids(folder):
    """The pids of both workers of joblib's pool (each runs one of two tasks that wait for
    each other, so neither worker can take both)."""
    folder.mkdir()
    pids = Parallel(n_jobs=2, batch_size=1)(delayed(_pid_once_both_run)(folder) for _ in range(2))
    return set(pids)


def test_nested_cv_and_joblib_share_one_pool_of_workers(tmp_path):
    X = np.random.default_rng(0).normal(size=(60, 3))
    y = np.arange(60) % 2
    before = _worker_pids(tmp_path / "before")
    assert len(before) == 2
    nested = NestedCV(
        DecisionTreeClassifier(), {"max_depth": [1, 2]}, outer_cv=3, inner_cv=2, n_refits=1,
        refit=False, n_jobs=2, random_state=0,
    ).fit(X, y)  # fmt: skip
    assert len(nested.outer_scores_) == 3
    # the same worker processes after: NestedCV's pool was joblib's warm one (a restarted pool
    # has new process ids)
    assert _worker_pids(tmp_path / "after") == before
