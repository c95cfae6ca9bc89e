"""Issue 22.5: NestedCV drives joblib through its public API only, and still shares joblib's
warm pool of loky workers (no restart when switching between joblib and NestedCV)."""

import os
import re
from pathlib import Path

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


def _worker_pids():
    return set(Parallel(n_jobs=2)(delayed(os.getpid)() for _ in range(16)))


def test_nested_cv_and_joblib_share_one_pool_of_workers():
    X = np.random.default_rng(0).normal(size=(60, 3))
    y = np.arange(60) % 2
    before = _worker_pids()
    nested = NestedCV(
        DecisionTreeClassifier(), {"max_depth": [1, 2]}, outer_cv=3, inner_cv=2, n_refits=1,
        refit=False, n_jobs=2, random_state=0,
    ).fit(X, y)  # fmt: skip
    assert len(nested.outer_scores_) == 3
    # no new worker process after: NestedCV's pool was joblib's warm one, not a restarted one
    # (a restarted pool has new process ids; joblib may send all 16 tiny tasks to one worker)
    after = _worker_pids()
    assert after and after <= before, (before, after)
