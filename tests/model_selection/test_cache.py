"""Resumable runs: the task cache, interruption (SIGKILL), corrupt entries, fault isolation."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import cloudpickle
import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.exceptions import FitFailedWarning
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV, nested_cross_validate

GRID = {"max_depth": [1, 2, 3]}


@pytest.fixture
def data():
    return make_classification(n_samples=80, n_features=6, random_state=0)


def entries(directory):
    return sorted(Path(directory).glob("*/*.json"))


def nested(cache_dir, **kwargs):
    params = dict(outer_cv=4, n_refits=2, random_state=0, cache_dir=cache_dir)
    params.update(kwargs)
    return NestedCV(DecisionTreeClassifier(), GRID, **params)


def n_tasks(model):
    # one inner split per outer fold x candidate (-1: the final selection's, counted apart)
    n_selection = int(np.sum(model.cv_results_["outer_fold"] >= 0))
    return n_selection + sum(len(fold["refit_seeds"]) for fold in model.outer_results_)


def test_cached_rerun_is_identical_and_computes_nothing_but_the_final_fit(data, tmp_path):
    X, y = data
    cold = nested(tmp_path).fit(X, y)
    final_selection = len(GRID["max_depth"])  # refit=True selects once more on all the data
    assert cold.cache_info_ == {"hits": 0, "computed": n_tasks(cold) + final_selection + 1}
    # every scored task is stored; the final fit (refit=True) is not
    assert len(entries(tmp_path)) == n_tasks(cold) + final_selection
    warm = nested(tmp_path).fit(X, y)
    assert warm.cache_info_ == {"hits": n_tasks(cold) + final_selection, "computed": 1}
    np.testing.assert_array_equal(warm.outer_scores_, cold.outer_scores_)
    np.testing.assert_array_equal(warm.validation_scores_, cold.validation_scores_)
    assert warm.best_params_per_fold_ == cold.best_params_per_fold_
    assert warm.best_params_ == cold.best_params_


def test_entries_are_plain_json_with_scores(data, tmp_path):
    X, y = data
    nested(tmp_path, refit=False).fit(X, y)
    entry = json.loads(entries(tmp_path)[0].read_text())
    assert entry["format"].startswith("sklearn-fair-task/")
    assert set(entry["payload"]) >= {"scores", "fit_time", "score_time"}
    assert entry["key"]["phase"] in ("selection", "refit")  # the full key, checked on load
    assert not list(Path(tmp_path).rglob("*.pkl"))


def test_changing_the_data_invalidates_every_entry(data, tmp_path):
    X, y = data
    nested(tmp_path, refit=False).fit(X, y)
    X_changed = X.copy()
    X_changed[0, 0] += 1.0
    rerun = nested(tmp_path, refit=False).fit(X_changed, y)
    assert rerun.cache_info_["hits"] == 0


def test_changing_one_candidate_invalidates_only_its_entries(data, tmp_path):
    X, y = data
    first = nested(tmp_path, refit=False).fit(X, y)
    grid = {"max_depth": [1, 2, 5]}  # the third candidate changes
    rerun = NestedCV(
        DecisionTreeClassifier(),
        grid,
        outer_cv=4,
        n_refits=2,
        random_state=0,
        cache_dir=tmp_path,
        refit=False,
    ).fit(X, y)
    n_outer = first.n_splits_
    changed_refits = sum(
        len(new["refit_seeds"])
        for old, new in zip(first.outer_results_, rerun.outer_results_)
        if old["best_params"] != new["best_params"]
    )
    # the new candidate in every fold, plus the refits of the folds whose winner changed
    expected_computed = n_outer + changed_refits
    assert rerun.cache_info_["computed"] == expected_computed


def test_changing_the_splits_invalidates_the_selection_entries(data, tmp_path):
    X, y = data
    nested(tmp_path, refit=False).fit(X, y)
    rerun = nested(tmp_path, refit=False, random_state=1).fit(X, y)  # new hold-outs and seeds
    assert rerun.cache_info_["hits"] == 0


def test_corrupt_and_partial_entries_are_recomputed(data, tmp_path):
    X, y = data
    cold = nested(tmp_path, refit=False).fit(X, y)
    files = entries(tmp_path)
    files[0].write_text(files[0].read_text()[:20])  # truncated
    payload = json.loads(files[1].read_text())
    payload["payload"]["scores"]["score"] = 0.123  # tampered: checksum no longer matches
    files[1].write_text(json.dumps(payload))
    (files[2].parent / ".leftover.part").write_text("{")  # a temp file of a killed writer
    rerun = nested(tmp_path, refit=False).fit(X, y)
    assert rerun.cache_info_["computed"] == 2
    np.testing.assert_array_equal(rerun.outer_scores_, cold.outer_scores_)
    json.loads(files[0].read_text())  # rewritten whole


def test_nested_cross_validate_uses_the_same_cache(data, tmp_path):
    X, y = data
    kwargs = dict(param_grid=GRID, outer_cv=4, n_refits=2, random_state=0, cache_dir=tmp_path)
    first = nested_cross_validate(DecisionTreeClassifier(), X, y, **kwargs)
    n_entries = len(entries(tmp_path))
    second = nested_cross_validate(DecisionTreeClassifier(), X, y, **kwargs)
    assert len(entries(tmp_path)) == n_entries
    np.testing.assert_array_equal(first["test_score"], second["test_score"])


def test_unwritable_cache_dir_is_a_clear_error(data, tmp_path):
    X, y = data
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(ValueError, match="cache_dir"):
        nested(blocker / "sub").fit(X, y)


class FailingTree(DecisionTreeClassifier):
    """Fails for max_depth=2 in every fit."""

    def fit(self, X, y, sample_weight=None):
        if self.max_depth == 2:
            raise RuntimeError("depth two is broken")
        return super().fit(X, y, sample_weight=sample_weight)


def test_failed_tasks_are_listed_with_tracebacks_and_retried(data, tmp_path):
    X, y = data
    model = NestedCV(
        FailingTree(), GRID, outer_cv=4, n_refits=1, random_state=0, cache_dir=tmp_path, refit=False
    )
    with pytest.warns(FitFailedWarning, match="depth two is broken"):
        model.fit(X, y)
    assert len(model.failed_tasks_) == 4  # one per outer fold, candidate max_depth=2
    assert {t["key"]["candidate"] for t in model.failed_tasks_} == {1}
    assert all("RuntimeError: depth two is broken" in t["error"] for t in model.failed_tasks_)
    assert all(p["max_depth"] != 2 for p in model.best_params_per_fold_)
    with pytest.warns(FitFailedWarning):
        rerun = NestedCV(
            FailingTree(),
            GRID,
            outer_cv=4,
            n_refits=1,
            random_state=0,
            cache_dir=tmp_path,
            refit=False,
        ).fit(X, y)
    assert rerun.cache_info_["computed"] == 4  # only the failures are tried again


SLOW_MODULE = textwrap.dedent(
    """
    import os
    import time
    from pathlib import Path

    from sklearn.tree import DecisionTreeClassifier


    # set by a test on the module: the class travels by value to workers started earlier,
    # which would not see an environment variable set now
    KILL_MARKER = None


    class SlowTree(DecisionTreeClassifier):
        def fit(self, X, y, sample_weight=None):
            time.sleep(float(os.environ.get("SLOW_TREE_SECONDS", "0")))
            marker = KILL_MARKER
            if marker and Path(marker).exists() and self.max_depth == 3:
                os._exit(1)  # the worker process dies, as on out-of-memory
            return super().fit(X, y, sample_weight=sample_weight)
    """
)

RUN_SCRIPT = textwrap.dedent(
    """
    import sys
    from sklearn.datasets import make_classification
    from sklearn_fair import NestedCV
    from slow_tree import SlowTree

    X, y = make_classification(n_samples=80, n_features=6, random_state=0)
    NestedCV(SlowTree(), {"max_depth": [1, 2, 3]}, outer_cv=4, n_refits=2, random_state=0,
             cache_dir=sys.argv[1], refit=False, n_jobs=int(sys.argv[2])).fit(X, y)
    """
)


@pytest.fixture
def slow_tree(tmp_path, monkeypatch):
    module_dir = tmp_path / "modules"
    module_dir.mkdir()
    (module_dir / "slow_tree.py").write_text(SLOW_MODULE)
    (module_dir / "run.py").write_text(RUN_SCRIPT)
    monkeypatch.syspath_prepend(str(module_dir))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(module_dir), *sys.path]))
    import slow_tree as module

    # worker processes started by an earlier test do not have the module on their path:
    # its class travels by value
    cloudpickle.register_pickle_by_value(module)
    yield module, module_dir
    cloudpickle.unregister_pickle_by_value(module)
    sys.modules.pop("slow_tree", None)


def test_sigkill_then_rerun_recomputes_only_missing_tasks(data, tmp_path, slow_tree, monkeypatch):
    module, module_dir = slow_tree
    X, y = data
    cache = tmp_path / "cache"
    env = {**os.environ, "SLOW_TREE_SECONDS": "0.15"}
    process = subprocess.Popen(
        [sys.executable, str(module_dir / "run.py"), str(cache), "1"], env=env
    )
    deadline = time.monotonic() + 120
    while len(entries(cache)) < 8 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert process.returncode == -signal.SIGKILL, "the run finished before it could be killed"
    done_before = len(entries(cache))

    resumed = NestedCV(
        module.SlowTree(),
        {"max_depth": [1, 2, 3]},
        outer_cv=4,
        n_refits=2,
        random_state=0,
        cache_dir=cache,
        refit=False,
    ).fit(X, y)
    uninterrupted = NestedCV(
        module.SlowTree(),
        {"max_depth": [1, 2, 3]},
        outer_cv=4,
        n_refits=2,
        random_state=0,
        refit=False,
    ).fit(X, y)
    total = n_tasks(uninterrupted)
    assert 8 <= done_before < total
    assert resumed.cache_info_["hits"] == done_before
    assert resumed.cache_info_["computed"] == total - done_before
    np.testing.assert_array_equal(resumed.outer_scores_, uninterrupted.outer_scores_)
    np.testing.assert_array_equal(resumed.validation_scores_, uninterrupted.validation_scores_)
    assert resumed.best_params_per_fold_ == uninterrupted.best_params_per_fold_


def test_dead_worker_loses_no_finished_task(data, tmp_path, slow_tree, monkeypatch):
    module, _ = slow_tree
    X, y = data
    marker = tmp_path / "kill-worker"
    marker.write_text("")
    monkeypatch.setattr(module, "KILL_MARKER", str(marker))
    cache = tmp_path / "cache"

    def run():
        return NestedCV(
            module.SlowTree(),
            {"max_depth": [1, 2, 3]},
            outer_cv=2,  # each kill restarts loky
            n_refits=1,
            random_state=0,
            cache_dir=cache,
            refit=False,
            n_jobs=2,
        ).fit(X, y)

    # max_depth=3 kills its worker: the run still finishes, with those fits recorded as failed
    with pytest.warns(FitFailedWarning, match="WorkerDiedError"):
        crashed = run()
    killers = [t for t in crashed.failed_tasks_ if "WorkerDiedError" in t["error"]]
    assert {(t["key"]["phase"], t["key"]["candidate"]) for t in killers} == {("selection", 2)}
    assert sorted(t["key"]["outer_fold"] for t in killers) == [0, 1]
    assert all("outer fold" in t["error"] and "candidate 2" in t["error"] for t in killers)
    assert all(p["max_depth"] != 3 for p in crashed.best_params_per_fold_)
    finished = len(entries(cache))
    assert finished == n_tasks(crashed) - len(killers)
    marker.unlink()
    rerun = run()
    # everything that finished is read back; only the fits that killed their worker run again
    assert rerun.cache_info_["hits"] >= finished - sum(
        len(f["refit_seeds"]) for f in crashed.outer_results_
    )
    assert rerun.failed_tasks_ == []
    assert rerun.outer_scores_.shape == (2,)
