"""Issue 27.2: short fits go to the workers several per round trip; results do not change, and a
fit that kills its worker inside a batch is still found, alone."""

import os
import sys
import warnings

import cloudpickle
import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.exceptions import FitFailedWarning
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV
from sklearn_fair.model_selection import HoldoutSplit
from sklearn_fair.model_selection._nested import _batching, _running
from sklearn_fair.model_selection._nested._batching import AutoBatching
from sklearn_fair.model_selection._nested._tasks import TaskBatch

X, y = make_classification(n_samples=120, n_features=5, random_state=0)


def result(seconds, cached=False):
    return {"fit_time": seconds, "score_time": 0.0, "cached": cached}


def test_the_batch_grows_while_tasks_are_short_and_stays_at_one_for_long_ones():
    batching = AutoBatching(n_workers=2)
    assert batching.next_size(100) == 1  # nothing timed yet
    for _ in range(20):
        batching.record(result(0.001))
    assert batching.size == min(_batching.MAX_BATCH, int(_batching.TARGET_SECONDS / 0.001))
    assert batching.next_size(1000) == batching.size
    assert batching.next_size(10) == 5  # an even share of what is ready, at most
    assert batching.next_size(1) == 1
    for _ in range(20):
        batching.record(result(2.0))
    assert batching.next_size(1000) == 1
    batching.record(result(0.0, cached=True))  # a cached result took no time of a worker
    assert batching.next_size(1000) == 1
    assert AutoBatching(2, enabled=False).next_size(1000) == 1


def test_tasks_sharing_fitted_steps_batch_longer_within_a_quarter_of_an_even_share():
    batching = AutoBatching(n_workers=2)
    assert batching.shared_size(1000) == 1  # nothing timed yet
    for _ in range(20):
        batching.record(result(1 / 32))  # exact in binary: the moving average stays put
    assert batching.next_size(1000) == int(_batching.TARGET_SECONDS * 32)
    assert batching.shared_size(1000) == int(_batching.SHARED_SECONDS * 32)
    assert batching.shared_size(80) == 80 // (4 * 2)  # a quarter of an even share
    assert batching.shared_size(8) == batching.next_size(8)  # never less than strangers
    assert AutoBatching(2, enabled=False).shared_size(1000) == 1


class CountingSubmits:
    def __init__(self, monkeypatch):
        self.sizes = []
        original = _running.LokyExecutor.submit

        def submit(executor, task, entry, priority=0):
            self.sizes.append(len(task.tasks) if isinstance(task, TaskBatch) else 1)
            return original(executor, task, entry, priority)

        monkeypatch.setattr(_running.LokyExecutor, "submit", submit)


def comparable(model):
    return (
        model.outer_scores_.tolist(),
        {k: np.asarray(v).tolist() for k, v in model.cv_results_.items() if "time" not in k},
    )


GRID = {"max_depth": list(range(1, 21))}


def nested_run():
    return [
        NestedCV(
            DecisionTreeClassifier(), GRID, outer_cv=4, inner_cv=2, n_refits=1, refit=False,
            random_state=0, n_jobs=2,
        ).fit(X, y)
    ]  # fmt: skip


def benchmark_run():
    """The same fits under ``benchmark()``, next to a second cell's."""
    from sklearn_fair import benchmark

    models = {
        "tree": (DecisionTreeClassifier(), GRID),
        "leaf": (DecisionTreeClassifier(), {"min_samples_leaf": [1, 5]}),
    }
    result = benchmark(
        models, {"a": (X, y)}, outer_cv=4, inner_cv=2, n_refits=1, random_state=0, n_jobs=2
    )
    return [result.estimators["a", "tree"], result.estimators["a", "leaf"]]


@pytest.mark.parametrize("run", [nested_run, benchmark_run], ids=["NestedCV", "benchmark"])
def test_short_fits_go_several_per_round_trip_and_the_results_do_not_change(monkeypatch, run):
    # a target far above any fit's duration: batch sizes then follow from the rule alone, not
    # from how busy the machine is
    monkeypatch.setattr(_batching, "TARGET_SECONDS", 1000.0)
    counting = CountingSubmits(monkeypatch)
    batched = run()
    n_tasks = sum(len(model.cv_results_["params"]) * 2 + 4 for model in batched)
    assert sum(counting.sizes) == n_tasks
    assert max(counting.sizes) > 1 and len(counting.sizes) < n_tasks / 2
    monkeypatch.setattr(_batching, "TARGET_SECONDS", 0.0)  # every task alone
    counting.sizes.clear()
    alone = run()
    assert max(counting.sizes) == 1
    assert [comparable(m) for m in batched] == [comparable(m) for m in alone]


class KillsAtDepth(DecisionTreeClassifier):
    def fit(self, X, y, sample_weight=None):
        if self.max_depth == 7 and os.environ.get("SKLEARN_FAIR_TEST_KILL") == "1":
            os._exit(1)
        return super().fit(X, y, sample_weight=sample_weight)


cloudpickle.register_pickle_by_value(sys.modules[__name__])


def fit_with_killers(estimator, grid):
    """NestedCV with two workers, of one inner split per outer fold (each kill restarts loky)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FitFailedWarning)
        return NestedCV(
            estimator, grid, outer_cv=2, inner_cv=HoldoutSplit(test_size=0.3, random_state=0),
            n_refits=1, refit=False, random_state=0, n_jobs=2,
        ).fit(X, y)  # fmt: skip


def killed(model):
    """(candidate, outer fold) of each failed task, all of them worker deaths."""
    assert all("WorkerDiedError" in t["error"] for t in model.failed_tasks_)
    return {(t["key"]["candidate"], t["key"]["outer_fold"]) for t in model.failed_tasks_}


@pytest.mark.parametrize("in_pipeline", [False, True], ids=["tree", "neighbours in a pipeline"])
def test_a_fit_that_kills_its_worker_inside_a_batch_is_found_alone(monkeypatch, in_pipeline):
    monkeypatch.setenv("SKLEARN_FAIR_TEST_KILL", "1")  # read in the workers, started now
    from joblib.externals.loky import get_reusable_executor

    get_reusable_executor().shutdown(wait=True)  # workers that see the variable
    # batches whatever the load: of any tasks, or (in a pipeline) of neighbours only
    monkeypatch.setattr(_batching, "TARGET_SECONDS", 0.0 if in_pipeline else 1000.0)
    monkeypatch.setattr(_batching, "SHARED_SECONDS", 1000.0)
    counting = CountingSubmits(monkeypatch)
    estimator, prefix = KillsAtDepth(), ""
    if in_pipeline:
        estimator, prefix = make_pipeline(StandardScaler(), KillsAtDepth()), "killsatdepth__"
    model = fit_with_killers(estimator, {f"{prefix}max_depth": list(range(1, 17))})
    get_reusable_executor().shutdown(wait=True)
    assert max(counting.sizes) > 1  # the killer ran in batches first
    assert killed(model) == {(6, fold) for fold in range(2)}  # max_depth=7 only, every fold
    assert len(model.failed_tasks_) == 2  # 2 folds x 1 inner split of max_depth=7
    assert all(p[f"{prefix}max_depth"] != 7 for p in model.best_params_per_fold_)


def test_fits_with_a_time_limit_are_never_batched(monkeypatch):
    counting = CountingSubmits(monkeypatch)
    NestedCV(
        DecisionTreeClassifier(),
        {"max_depth": list(range(1, 11))},
        outer_cv=3,
        inner_cv=2,
        n_refits=1,
        refit=False,
        random_state=0,
        n_jobs=2,
        fit_timeout=30.0,
    ).fit(X, y)
    assert counting.sizes and max(counting.sizes) == 1


class KillsAndSaysSo(DecisionTreeClassifier):
    def fit(self, X, y, sample_weight=None):
        folder = os.environ.get("SKLEARN_FAIR_TEST_KILLED_IN")
        if self.max_depth == 3 and folder:
            open(os.path.join(folder, str(os.getpid())), "w").close()
            os._exit(1)
        return super().fit(X, y, sample_weight=sample_weight)


def test_a_task_handed_to_a_pool_that_broke_since_the_last_wait_is_run_again(monkeypatch, tmp_path):
    # a worker dies while the runner hands out the next tasks: loky refuses them at once
    # (BrokenProcessPool from submit, not from a future). That refusal is the killer's doing;
    # the refused tasks never ran, and are run again like every other task in flight.
    monkeypatch.setenv("SKLEARN_FAIR_TEST_KILLED_IN", str(tmp_path))
    from joblib.externals.loky import get_reusable_executor

    get_reusable_executor().shutdown(wait=True)  # workers that see the variable
    monkeypatch.setattr(_batching, "TARGET_SECONDS", 0.0)  # every task alone
    original = _running._LokyPool.submit

    def submit_once_the_killer_is_dead(pool, function, *args):
        if function is _running.execute and os.listdir(tmp_path):
            import time

            time.sleep(1.0)  # loky's manager thread has seen the death: the pool is broken
            for name in os.listdir(tmp_path):
                os.remove(tmp_path / name)
        return original(pool, function, *args)

    monkeypatch.setattr(_running._LokyPool, "submit", submit_once_the_killer_is_dead)
    model = fit_with_killers(KillsAndSaysSo(), {"max_depth": list(range(1, 9))})
    get_reusable_executor().shutdown(wait=True)
    assert killed(model) == {(2, fold) for fold in range(2)}  # max_depth=3 only, every fold
    reference = NestedCV(
        DecisionTreeClassifier(),
        {"max_depth": [1, 2, 4, 5, 6, 7, 8]},
        outer_cv=2,
        inner_cv=HoldoutSplit(test_size=0.3, random_state=0),
        n_refits=1,
        refit=False,
        random_state=0,
    ).fit(X, y)
    assert model.outer_scores_.tolist() == reference.outer_scores_.tolist()
