"""The task cache on graph data: entry names that survive a new process, grids of objects."""

import subprocess
import sys
import textwrap

import numpy as np
from skorch.callbacks import LRScheduler

from sklearn_fair import NestedCV
from sklearn_fair.graph import GraphClassifier, MolecularFingerprint
from sklearn_fair.model_selection import StratifiedGraphKFold

ENTRY_NAME = textwrap.dedent(
    """
    import numpy as np
    import torch
    from sklearn.metrics import get_scorer
    from skorch.callbacks import LRScheduler
    from sklearn_fair.graph import GraphClassifier, MolecularFingerprint, load_mutag
    from sklearn_fair.model_selection._nested._cache_key import KeyBuilder
    from sklearn_fair.model_selection._nested._data import RunData
    from sklearn_fair.model_selection._nested._tasks import FitTask, TaskKey

    graphs = load_mutag()
    rows = {("train",): np.arange(100), ("test",): np.arange(100, 188)}
    keys = KeyBuilder(RunData(graphs, graphs.y, rows=rows), {"score": get_scorer("accuracy")})
    estimator = GraphClassifier(MolecularFingerprint, max_epochs=2, random_state=0)
    params = {
        "module__hidden_units": 8,
        "callbacks": [LRScheduler(step_every="epoch")],
        # a tensor pickles differently in every process; the key must not
        "criterion__weight": torch.tensor([1.0, 2.0]),
    }
    task = FitTask(TaskKey("refit", 0, refit=0), params, train=("train",), test=("test",))
    print(keys.key(task, estimator)[0])
    """
)


def entry_name(cache_dir):
    completed = subprocess.run(
        [sys.executable, "-c", ENTRY_NAME, str(cache_dir)],
        capture_output=True,
        text=True,
        check=True,
    )
    return completed.stdout.strip().splitlines()[-1]


def test_entry_names_of_graph_tasks_are_the_same_in_every_process(tmp_path):
    """torch tensors pickle differently in each process; the cache must not depend on that."""
    first, second = entry_name(tmp_path), entry_name(tmp_path)
    assert first == second
    assert len(first) == 64


def test_cached_graph_run_is_read_back_and_identical(mutag, tmp_path):
    graphs = [mutag[i] for i in range(60)] + [mutag[i] for i in range(130, 188)]
    kwargs = dict(
        outer_cv=StratifiedGraphKFold(3, random_state=0),
        n_refits=1,
        random_state=0,
        refit=False,
        cache_dir=tmp_path,
    )
    estimator = GraphClassifier(MolecularFingerprint, max_epochs=3, batch_size=32)
    grid = {"module__hidden_units": [8, 16]}
    cold = NestedCV(estimator, grid, **kwargs).fit(graphs)
    # copies of the graphs: equal content, other tensor objects
    warm = NestedCV(estimator, grid, **kwargs).fit([graph.clone() for graph in graphs])
    assert warm.cache_info_["computed"] == 0
    np.testing.assert_array_equal(warm.outer_scores_, cold.outer_scores_)


def test_objects_in_a_grid_are_cloned_for_every_fit(mutag, tmp_path):
    """skorch fills a callback in place; a shared instance would carry state between fits."""
    graphs = [mutag[i] for i in range(60)] + [mutag[i] for i in range(130, 188)]
    scheduler = LRScheduler(policy="StepLR", step_size=1, gamma=0.5)
    grid = {"callbacks": [[scheduler]], "module__hidden_units": [8, 16]}
    nested = NestedCV(
        GraphClassifier(MolecularFingerprint, max_epochs=2, batch_size=32),
        grid,
        outer_cv=StratifiedGraphKFold(3, random_state=0),
        n_refits=2,
        random_state=0,
        refit=False,
        cache_dir=tmp_path,
    ).fit(graphs)
    assert nested.outer_scores_.shape == (3,)
    assert not hasattr(scheduler, "lr_scheduler_")  # the user's instance was never used
