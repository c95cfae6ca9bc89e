"""Issue 14.1 and 14.2: a task carries indices, never the data set, and a GNN run gives
bit-identical results for any n_jobs and on Dask."""

import cloudpickle
import joblib
import numpy as np
import pytest

from sklearn_fair import NestedCV
from sklearn_fair.graph import GIN, DeepMultisets, GraphClassifier, load_mutag, load_tu_dataset
from sklearn_fair.model_selection import PredefinedSplits, StratifiedGraphKFold, load_splits
from sklearn_fair.model_selection._nested import _running
from sklearn_fair.model_selection._nested._data import SharedRunData
from sklearn_fair.model_selection._nested._planning import make_plan
from sklearn_fair.model_selection._nested._tasks import TaskContext

ONE_MB = 1 << 20


def payload(task, context, handle):
    """What loky sends for one task: the function and its arguments (the task with its plan's
    context, the data's handle, no cache entry), pickled."""
    sent = _running.PlanTask(0, task, context)
    return len(cloudpickle.dumps((_running.execute, sent, handle, None)))


@pytest.mark.parametrize("name", ["PROTEINS_full", "NCI1"])
def test_a_graph_task_is_small_whatever_the_data_set(data_dir, name):
    graphs = load_tu_dataset(name, data_dir / "TUDataset")
    splits = load_splits(
        data_dir / "gnn_comparison_splits" / "CHEMICAL" / f"{name}_splits.json",
        format="gnn-comparison",
    )
    nested = NestedCV(
        GraphClassifier(GIN, max_epochs=1),
        {"lr": [0.01, 0.001]},
        outer_cv=PredefinedSplits(splits),
        random_state=0,
    )
    plan = make_plan(
        nested, graphs, None, None, {}, final=True, return_estimator=False, owner="NestedCV"
    )
    shared = SharedRunData(plan.data)
    try:
        context = TaskContext(plan.estimator, plan.scorers)
        sizes = [payload(t, context, shared.handle) for t in plan.selection_tasks(0)]
        selected = {"best_params": plan.candidates[0]}
        sizes.append(payload(plan.refit_task(0, selected, 0), context, shared.handle))
        sizes.append(payload(plan.final_task(selected), context, shared.handle))
    finally:
        shared.close()
    whole = len(cloudpickle.dumps(graphs))
    assert whole > 2 * ONE_MB  # a data set that would show in a task's payload
    assert max(sizes) < ONE_MB
    assert max(sizes) * 50 < whole  # the data set is not in the task


def test_a_real_parallel_run_sends_small_tasks(monkeypatch):
    sizes = []
    original = _running.LokyExecutor.submit

    def recording_submit(self, task, cache_entry, priority=0):
        sizes.append(len(cloudpickle.dumps((_running.execute, task, self._shared.handle, None))))
        return original(self, task, cache_entry, priority)

    monkeypatch.setattr(_running.LokyExecutor, "submit", recording_submit)
    mutag = load_mutag()
    NestedCV(
        GraphClassifier(DeepMultisets, max_epochs=1),
        {"lr": [0.01, 0.001]},
        outer_cv=StratifiedGraphKFold(2, random_state=0),
        n_refits=1,
        refit=False,
        random_state=0,
        n_jobs=2,
    ).fit(mutag)
    assert len(sizes) == 2 * 2 + 2 and max(sizes) < 100_000


def test_a_large_tabular_data_set_is_not_sent_with_every_task():
    from sklearn.linear_model import LogisticRegression

    rng = np.random.RandomState(0)
    X, y = rng.normal(size=(200_000, 30)), rng.randint(2, size=200_000)  # 48 MB
    nested = NestedCV(LogisticRegression(), {"C": [0.1, 1.0]}, outer_cv=3, random_state=0)
    plan = make_plan(nested, X, y, None, {}, final=False, return_estimator=False, owner="NestedCV")
    shared = SharedRunData(plan.data)
    try:
        context = TaskContext(plan.estimator, plan.scorers)
        sizes = [payload(t, context, shared.handle) for t in plan.selection_tasks(0)]
    finally:
        shared.close()
    assert max(sizes) < 100_000


def _gnn_nested(**kwargs):
    return NestedCV(
        GraphClassifier(
            GIN, max_epochs=3, batch_size=32, patience=2, module__hidden_units=[16, 16]
        ),
        {"lr": [0.01, 0.001]},
        outer_cv=StratifiedGraphKFold(3, random_state=0),
        n_refits=2,
        refit=False,
        random_state=0,
        **kwargs,
    )


def _assert_same_results(other, sequential):
    np.testing.assert_array_equal(other.outer_scores_, sequential.outer_scores_)
    np.testing.assert_array_equal(other.validation_scores_, sequential.validation_scores_)
    assert len(other.outer_results_) == len(sequential.outer_results_) == 3
    for a, b in zip(other.outer_results_, sequential.outer_results_, strict=True):
        np.testing.assert_array_equal(a["test_scores"], b["test_scores"])


@pytest.fixture(scope="module")
def sequential_gnn_run():
    return _gnn_nested(n_jobs=1).fit(load_mutag())


def test_gnn_results_are_bit_identical_for_any_n_jobs(sequential_gnn_run):
    two_processes = _gnn_nested(n_jobs=2).fit(load_mutag())
    _assert_same_results(two_processes, sequential_gnn_run)


def test_gnn_results_are_bit_identical_on_dask(sequential_gnn_run):
    distributed = pytest.importorskip("dask.distributed")  # the 'dask' extra
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        with distributed.Client(cluster), joblib.parallel_backend("dask"):
            on_dask = _gnn_nested().fit(load_mutag())
    _assert_same_results(on_dask, sequential_gnn_run)
