"""Issue 22.5: NestedCV drives joblib through its public API only, and its runs share one warm
pool of loky workers."""

import os
import re
import sys
import time
from pathlib import Path

import cloudpickle
import numpy as np
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
    # pool has new process ids). A plain joblib call in between would respawn them once: loky
    # reuses a pool only for the same initializer, and NestedCV's workers watch their parent
    # from their start (test_faults.py)
    assert second == first


def test_a_joblib_call_with_the_worker_pool_options_warms_nested_cvs_pool(tmp_path):
    # what benchmarks/bench_nested.py relies on to time NestedCV on warm workers, as it times
    # scikit-learn's idioms: without these options the call would start a pool of its own,
    # and NestedCV's run would restart its workers inside the timed run
    from joblib import Parallel, delayed

    from sklearn_fair.model_selection._engine import worker_pool_options

    warm = set(Parallel(n_jobs=2, **worker_pool_options())(delayed(os.getpid)() for _ in range(8)))
    X = np.random.default_rng(0).normal(size=(60, 3))
    y = np.arange(60) % 2
    used = _worker_pids_of_a_run(tmp_path / "run", X, y)
    assert os.getpid() not in warm and used <= warm
    plain = set(Parallel(n_jobs=2)(delayed(os.getpid)() for _ in range(8)))
    assert plain.isdisjoint(used)  # the other pool: workers of their own
