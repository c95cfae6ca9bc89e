"""Faults that must not take a run down (issue 13 C): time limits, cache folders that break,
entries that are not what they seem. A worker that dies is in test_cache.py."""

import inspect
import os
import sys
import time
import warnings
from pathlib import Path

import cloudpickle
import joblib
import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.exceptions import FitFailedWarning
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import CacheWarning
from sklearn_fair.model_selection import HoldoutSplit
from sklearn_fair.model_selection._nested._cache import ORPHANED_PART_AGE

X, y = make_classification(n_samples=60, n_features=4, random_state=0)
# one inner split per outer fold: a test whose fits kill their worker restarts loky once per kill
HOLDOUT = HoldoutSplit(test_size=0.3, random_state=0)


class SlowForDeep(ClassifierMixin, BaseEstimator):
    """Majority vote; a fit with depth 2 runs 600 ticks of 0.1 s (a minute), each tick
    appended to the file ``ticks`` (if given), so that a test counts the work it did; one
    with depth 3 sleeps 0.7 s."""

    def __init__(self, depth=1, ticks=None):
        self.depth = depth
        self.ticks = ticks

    def fit(self, X, y):
        if self.depth == 2:
            for _ in range(600):
                time.sleep(0.1)
                if self.ticks is not None:
                    with open(self.ticks, "a") as file:
                        file.write(".")
        if self.depth == 3:  # a fit of 0.7 s
            time.sleep(0.7)
        self.classes_, counts = np.unique(y, return_counts=True)
        self.majority_ = self.classes_[np.argmax(counts)]
        return self

    def predict(self, X):
        return np.full(len(X), self.majority_)


class CatchesEverything(SlowForDeep):
    """SlowForDeep whose depth-2 fit is a loop of ticks that skips a tick that raises
    (``except Exception``, as training loops skip a bad epoch), and keeps the ticks it did."""

    def fit(self, X, y):
        self.ticks_done_ = 0
        for _ in range(12 if self.depth == 2 else 0):
            try:
                time.sleep(0.1)
                self.ticks_done_ += 1
            except Exception:
                pass
        self.classes_, counts = np.unique(y, return_counts=True)
        self.majority_ = self.classes_[np.argmax(counts)]
        return self


# loky's workers cannot import this test module: its classes travel by value
cloudpickle.register_pickle_by_value(sys.modules[__name__])


def nested(estimator=None, grid=None, **kwargs):
    """A run of a fast tree; ``nested(SlowForDeep(), {"depth": [1, 2]})`` for a slow one."""
    params = dict(outer_cv=3, inner_cv=2, n_refits=1, refit=False, random_state=0)
    params.update(kwargs)
    return NestedCV(estimator or DecisionTreeClassifier(), grid or {"max_depth": [1, 2]}, **params)


@pytest.mark.parametrize("backend", ["loky", "threading"])
def test_a_fit_that_catches_its_interruption_still_ran_over(backend):
    # the limit's FitTimeoutError, caught by the fit's own except Exception, left a fit cut
    # short that returned normally: scored and cached as a success
    with joblib.parallel_config(backend=backend), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = nested(CatchesEverything(), {"depth": [1, 2]}, fit_timeout=0.5, n_jobs=2)
        model.fit(X, y)
    slow = [t for t in model.failed_tasks_ if t["key"]["candidate"] == 1]
    assert len(slow) == 6 and all("caught the interruption" in t["error"] for t in slow)
    assert all(p == {"depth": 1} for p in model.best_params_per_fold_)


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_a_fit_over_the_time_limit_is_recorded_as_failed(n_jobs, tmp_path):
    ticks = tmp_path / "ticks"
    with pytest.warns(FitFailedWarning, match="ran over fit_timeout=0.5 s"):
        model = nested(SlowForDeep(ticks=ticks), {"depth": [1, 2]}, fit_timeout=0.5, n_jobs=n_jobs)
        model.fit(X, y)
    slow = [t for t in model.failed_tasks_ if t["key"]["candidate"] == 1]
    assert len(slow) == 6 and all("FitTimeoutError" in t["error"] for t in slow)
    # each slow fit was stopped at its limit (5 ticks of 0.1 s), inside its worker: the 6
    # fits did about 30 of their 3600 ticks, and no worker had to be killed
    assert len(ticks.read_text()) <= 6 * 10
    assert not any("worker was killed" in t["error"] for t in slow)
    assert all(p == {"depth": 1} for p in model.best_params_per_fold_)


def test_a_cached_fit_that_ran_over_a_new_fit_timeout_is_run_again_under_it(tmp_path):
    # cached without a limit, the slow fits took 0.7 s each; a run with fit_timeout=0.5 was
    # served them (no failure) where it would have stopped them
    slow = SlowForDeep(ticks=None, depth=1)
    grid = {"depth": [1, 3]}

    def run(cache, fit_timeout):
        model = nested(slow, grid, fit_timeout=fit_timeout, cache_dir=cache, n_jobs=1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FitFailedWarning)
            return model.fit(X, y)

    first = run(tmp_path, None)
    served, reference = run(tmp_path, 0.5), run(None, 0.5)
    assert len(reference.failed_tasks_) == 6
    assert [t["key"] for t in served.failed_tasks_] == [t["key"] for t in reference.failed_tasks_]
    assert served.best_params_per_fold_ == reference.best_params_per_fold_
    assert served.cache_info_["hits"] > 0  # the fast fits still came from the cache
    # and the slow ones, run again, are not counted as hits too: each task once
    n_tasks = served.cache_info_["hits"] + served.cache_info_["computed"]
    assert n_tasks == first.cache_info_["computed"] and first.cache_info_["hits"] == 0


class BlockThenTick(ClassifierMixin, BaseEstimator):
    """Majority vote; a fit with ``block`` first waits ``block`` s in one blocking call
    (time.sleep), then runs 100 ticks of 0.01 s, each appended to the file ``ticks``."""

    def __init__(self, block=0.0, ticks=None):
        self.block = block
        self.ticks = ticks

    def fit(self, X, y):
        if self.block:
            time.sleep(self.block)
            for _ in range(100):
                time.sleep(0.01)
                with open(self.ticks, "a") as file:
                    file.write(".")
        self.classes_, counts = np.unique(y, return_counts=True)
        self.majority_ = self.classes_[np.argmax(counts)]
        return self

    def predict(self, X):
        return np.full(len(X), self.majority_)


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_on_threads_a_fit_over_the_limit_stops_at_its_next_python_instruction(n_jobs, tmp_path):
    # as documented: on threads the exception reaches the fit once its blocking call has
    # returned (a thread cannot be interrupted or killed), and stops it at the next Python
    # instruction: of the 100 ticks that follow the call, at most the first is done. With
    # n_jobs=1 the fit runs in this (the main) thread, where the timer signal interrupts it.
    ticks = tmp_path / "ticks"
    ticks.write_text("")
    model = nested(BlockThenTick(ticks=str(ticks)), {"block": [0.0, 1.5]}, fit_timeout=0.5)
    with joblib.parallel_backend("threading", n_jobs=n_jobs):
        with pytest.warns(FitFailedWarning, match="ran over fit_timeout=0.5 s"):
            model.set_params(n_jobs=n_jobs).fit(X, y)
    slow = [t for t in model.failed_tasks_ if t["key"]["candidate"] == 1]
    assert len(slow) == 6 and all("FitTimeoutError" in t["error"] for t in slow)
    assert len(ticks.read_text()) <= (6 if n_jobs == 2 else 0)
    assert all(p == {"block": 0.0} for p in model.best_params_per_fold_)


THREADS_SCRIPT = """
import itertools, time
import joblib
import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn_fair import NestedCV

calls = itertools.count()

class FirstHangsOthersFail(ClassifierMixin, BaseEstimator):
    def __init__(self, c=1):
        self.c = c
    def fit(self, X, y):
        if next(calls) == 0:
            time.sleep(1e6)
        raise ValueError("a fit that fails")

X, y = np.zeros((40, 2)), np.array([0, 1] * 20)
with joblib.parallel_backend("threading", n_jobs=2):
    try:
        NestedCV(FirstHangsOthersFail(), {"c": [1, 2]}, outer_cv=2, inner_cv=2,
                 error_score="raise", n_jobs=2, random_state=0).fit(X, y)
    except ValueError as error:
        print("raised:", error, flush=True)
"""


def test_a_hung_fit_on_threads_does_not_keep_python_from_exiting(tmp_path):
    # the run gives up (a fit raises with error_score="raise") while another thread is in a
    # fit that never returns: NestedCV raises, and the process exits (Python joins the
    # threads of concurrent.futures' pools at exit, which waited for the hung fit for ever)
    import subprocess

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    try:
        done = subprocess.run(
            [sys.executable, "-c", THREADS_SCRIPT], env=env, capture_output=True, text=True,
            timeout=240,
        )  # fmt: skip
    except subprocess.TimeoutExpired:  # subprocess.run has killed it
        pytest.fail("the process did not exit after NestedCV raised")
    assert done.returncode == 0 and done.stdout == "raised: a fit that fails\n", done.stderr


class Hung(ClassifierMixin, BaseEstimator):
    """Majority vote; with ``hang`` the fit blocks in time.sleep for ever (``"sleep"``), or
    does so with SIGALRM blocked, as a fit stuck in compiled code is out of reach
    (``"stuck"``)."""

    def __init__(self, hang=None):
        self.hang = hang

    def fit(self, X, y):
        if self.hang == "stuck":
            import signal

            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        if self.hang is not None:
            time.sleep(1e6)
        self.classes_, counts = np.unique(y, return_counts=True)
        self.majority_ = self.classes_[np.argmax(counts)]
        return self

    def predict(self, X):
        return np.full(len(X), self.majority_)


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_a_hung_fit_is_stopped_at_its_limit_with_n_jobs_1_too(n_jobs):
    # time.sleep does not see an exception sent to its thread; the worker's timer signal
    # interrupts it, so the fit ends at the limit, in its worker, which lives on
    with pytest.warns(FitFailedWarning, match="ran over fit_timeout=1 s"):
        model = nested(Hung(), {"hang": [None, "sleep"]}, fit_timeout=1, n_jobs=n_jobs).fit(X, y)
    hung = [t for t in model.failed_tasks_ if t["key"]["candidate"] == 1]
    assert len(hung) == 6
    assert all("FitTimeoutError" in t["error"] for t in hung)
    assert not any("worker was killed" in t["error"] for t in hung)


def test_a_fit_out_of_the_timers_reach_has_its_worker_killed():
    from sklearn_fair.model_selection._nested._running import overrun_grace

    # the worker is killed shortly after the limit, not after max(30 s, limit) more
    assert overrun_grace(1) == 2.0 and overrun_grace(100) == 25.0 and overrun_grace(1e4) == 30
    with pytest.warns(FitFailedWarning, match="its worker was killed"):
        model = nested(
            Hung(), {"hang": [None, "stuck"]}, outer_cv=2, inner_cv=HOLDOUT, fit_timeout=1, n_jobs=2
        ).fit(X, y)
    stuck = [t for t in model.failed_tasks_ if t["key"]["candidate"] == 1]
    assert len(stuck) == 2 and all("its worker was killed" in t["error"] for t in stuck)
    # the innocent fits in flight with them were run again, and the run finished
    assert all(p == {"hang": None} for p in model.best_params_per_fold_)
    # and the workers said killed are dead: none of this process's children is stuck in a
    # fit (SIGALRM blocked). One was left when loky's next executor overwrote the kill flag,
    # and Python's exit (loky joins its manager thread at exit) then waited on it for ever
    if sys.platform.startswith("linux"):
        assert not [pid for pid in _children(os.getpid()) if _blocks_sigalrm(pid)]


def _stuck_forever(started):
    import signal

    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
    with open(started + ".part", "w") as file:
        file.write(str(os.getpid()))
    os.replace(started + ".part", started)
    time.sleep(1e6)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("n_workers", [1, 2])
def test_a_killed_pool_has_no_live_worker_once_the_kill_returns(tmp_path, n_workers):
    # the runner replaces a killed pool at once: its workers must be dead by then, not
    # left for loky's manager thread to kill later (which the next executor prevented)
    from sklearn_fair.model_selection._nested._running import _loky_backend, _LokyPool

    pool = _LokyPool(n_workers, _loky_backend(None), str(tmp_path))
    started = tmp_path / "started"
    pool.submit(_stuck_forever, str(started))
    for _ in range(1200):  # the worker starts and begins the task (at most 2 min)
        if started.exists():
            break
        time.sleep(0.1)
    pid = int(started.read_text())
    try:
        pool.kill()
        assert not _alive(pid)
    finally:
        pool.close()
        try:
            os.kill(pid, 9)
        except ProcessLookupError:
            pass


def _blocks_sigalrm(pid):
    import signal

    try:
        with open(f"/proc/{pid}/status") as file:
            blocked = next(line for line in file if line.startswith("SigBlk:")).split()[1]
    except (OSError, StopIteration):
        return False
    return bool(int(blocked, 16) >> (signal.SIGALRM - 1) & 1)


WORKER_SCRIPT = """
import os, sys, time
import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn_fair import NestedCV

class Sleeper(ClassifierMixin, BaseEstimator):
    def __init__(self, c=1):
        self.c = c
    def fit(self, X, y):
        open(os.path.join(sys.argv[1], str(os.getpid())), "w").close()
        time.sleep(1e6)

import cloudpickle
cloudpickle.register_pickle_by_value(sys.modules[__name__])
X, y = np.zeros((40, 2)), np.array([0, 1] * 20)
# one inner split per outer fold: the 2 selection fits are all there is to run until they
# end (never: the refits wait on them), one per worker (with a time limit tasks are sent one
# at a time, none queued ahead), so the third worker of n_jobs=3 never runs a task
from sklearn.model_selection import ShuffleSplit
NestedCV(Sleeper(), {"c": [1]}, outer_cv=2, inner_cv=ShuffleSplit(1, test_size=0.5,
         random_state=0), n_refits=1, refit=False, n_jobs=3, random_state=0,
         fit_timeout=1e6).fit(X, y)
"""


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie waiting for its (dead) parent's reaper is gone for every purpose
    try:
        with open(f"/proc/{pid}/stat") as file:
            return file.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def _children(pid):
    """Pids of the live processes whose parent is ``pid`` (from /proc)."""
    children = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as file:
                fields = file.read().split(")")[-1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            children.append(int(entry))
    return children


def _is_loky_worker(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as file:
            return b"LokyProcess" in file.read()
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM"])
def test_workers_end_when_the_main_process_dies(tmp_path, how):
    import signal
    import subprocess

    script = tmp_path / "main.py"
    script.write_text(WORKER_SCRIPT)
    pids = tmp_path / "pids"
    pids.mkdir()
    # the run's data folder, where loky's resource tracker must remove it once the run is dead
    shared = tmp_path / "shared"
    shared.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "JOBLIB_TEMP_FOLDER": str(shared)}
    main = subprocess.Popen([sys.executable, str(script), str(pids)], env=env)
    children = []
    try:
        for _ in range(1200):  # the workers start and two begin a fit (at most 2 min)
            children = _children(main.pid)
            if len(list(pids.iterdir())) >= 2 or main.poll() is not None:
                break
            time.sleep(0.1)
        busy = [int(p.name) for p in pids.iterdir()]
        # every process the run started: 3 workers (2 in a fit, 1 that never ran a task)
        # and the resource trackers
        children = _children(main.pid)
        idle = [pid for pid in children if pid not in busy and _is_loky_worker(pid)]
        assert len(busy) == 2 and main.poll() is None
        assert set(busy) <= set(children) and len(idle) == 1, (busy, children)
        main.send_signal(getattr(signal, how))
        main.wait()
        polls = 0
        while any(_alive(pid) for pid in children) and polls < 100:  # 10 s at most
            time.sleep(0.1)
            polls += 1
        left = [pid for pid in children if _alive(pid)]
        assert not left, f"processes alive after {polls} polls: {left} (busy: {busy})"
        # the copy of the data written for the workers (a /dev/shm folder by default) was left
        # for ever; the tracker removes it, as it removes joblib's memory-mapping folders
        polls = 0
        while list(shared.glob("sklearn_fair_run_*")) and polls < 100:
            time.sleep(0.1)
            polls += 1
        assert not list(shared.glob("sklearn_fair_run_*"))
    finally:
        main.kill()
        main.wait()
        for pid in {*children, *(int(p.name) for p in pids.iterdir())}:
            try:
                os.kill(pid, 9)
            except ProcessLookupError:
                pass


ORPHAN_SCRIPT = """
import multiprocessing, os, sys
multiprocessing.current_process().name = "LokyProcess-1"  # as loky names its workers
from sklearn_fair.model_selection._nested._timeout import watch_parent
watch_parent(int(sys.argv[1]))
print("still running")
"""


@pytest.mark.parametrize("orphaned", [True, False])
def test_a_worker_whose_parent_died_before_it_started_ends_at_once(orphaned):
    # every task runs watch_parent(pid of the main process) first: a worker that takes a task
    # after the main process died (its parent pid is no longer that one) ends there, before
    # it runs the fit
    import subprocess

    parent = os.getpid() + 1_000_000 if orphaned else os.getpid()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-c", ORPHAN_SCRIPT, str(parent)],
        env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    if orphaned:
        assert (done.returncode, done.stdout) == (1, "")
    else:
        assert (done.returncode, done.stdout) == (0, "still running\n")


def test_a_fit_over_the_time_limit_on_dask_is_recorded_as_failed(tmp_path, monkeypatch):
    distributed = pytest.importorskip("dask.distributed")
    # Dask's workers import the estimator's class by name: give them a module on their path
    (tmp_path / "slow_for_deep.py").write_text(
        inspect.getsource(SlowForDeep).join(
            [
                "import time\n\nimport numpy as np\nfrom sklearn.base import BaseEstimator, "
                "ClassifierMixin\n\n\n",
                "\n",
            ]
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), *sys.path]))
    from slow_for_deep import SlowForDeep as Importable

    ticks = tmp_path / "ticks"
    ticks.write_text("")

    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        with distributed.Client(cluster), joblib.parallel_backend("dask"):
            with pytest.warns(FitFailedWarning, match="ran over fit_timeout"):
                model = NestedCV(
                    Importable(ticks=str(ticks)),
                    {"depth": [1, 2]},
                    outer_cv=3,
                    inner_cv=2,
                    n_refits=1,
                    refit=False,
                    random_state=0,
                    fit_timeout=0.5,
                ).fit(X, y)
    assert sum("FitTimeoutError" in t["error"] for t in model.failed_tasks_) == 6
    # as documented for Dask: the exception reaches the fit in its worker thread at its next
    # Python instruction, between two ticks: the 6 slow fits did about 30 of their 3600 ticks
    assert len(ticks.read_text()) <= 6 * 20


def test_a_read_only_cache_folder_is_refused_before_any_fit(tmp_path, monkeypatch):
    from sklearn_fair.model_selection._nested import _cache

    def read_only(*args, **kwargs):  # what a read-only folder answers (root writes anywhere)
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(_cache.tempfile, "mkstemp", read_only)
    with pytest.raises(ValueError, match="'cache_dir' parameter of NestedCV must be a writable"):
        nested(SlowForDeep(), {"depth": [1, 2]}, cache_dir=tmp_path / "cache").fit(X, y)


def test_a_cache_folder_replaced_by_a_file_is_refused(tmp_path):
    (tmp_path / "cache").write_text("not a folder")
    with pytest.raises(ValueError, match="'cache_dir' parameter of NestedCV must be"):
        nested(cache_dir=tmp_path / "cache").fit(X, y)


def test_a_cache_write_that_fails_later_warns_once_and_the_run_finishes(tmp_path, monkeypatch):
    from sklearn_fair.model_selection._nested import _running

    calls = []

    def disk_full(*args):
        calls.append(args)
        return "OSError: [Errno 28] No space left on device"

    monkeypatch.setattr(_running, "write_entry", disk_full)
    with pytest.warns(CacheWarning, match="No space left on device") as record:
        model = nested(cache_dir=tmp_path / "cache").fit(X[:, :2], y)
    assert len([w for w in record if issubclass(w.category, CacheWarning)]) == 1
    assert model.outer_scores_.shape == (3,)
    assert len(calls) == 1  # after the first failure the cache is no longer written


def test_stored_entries_are_still_read_after_a_write_fails(tmp_path):
    # Every selection entry is blocked by a folder, so the first write fails before any
    # refit is looked up: the refits' entries must still be read (they are checked against
    # their keys), and only the selection fits run again.
    import json

    cache = tmp_path / "cache"
    first = nested(cache_dir=cache, n_jobs=1).fit(X, y)
    phases = {}
    for entry in sorted(Path(cache).glob("*/*.json")):
        phase = json.loads(entry.read_text())["key"]["phase"]
        phases[phase] = phases.get(phase, 0) + 1
        if phase == "selection":
            entry.unlink()
            entry.mkdir()
    assert set(phases) == {"selection", "refit"}
    with pytest.warns(CacheWarning, match="Could not write"):
        rerun = nested(cache_dir=cache, n_jobs=1).fit(X, y)
    assert rerun.cache_info_ == {"hits": phases["refit"], "computed": phases["selection"]}
    np.testing.assert_array_equal(rerun.outer_scores_, first.outer_scores_)


def test_leftover_part_files_of_dead_processes_are_removed(tmp_path):
    cache = tmp_path / "cache"
    (cache / "ab").mkdir(parents=True)
    dead = cache / "ab" / f".{'a' * 64}.999999999-1.part"
    dead.write_text("{")
    alive = cache / "ab" / f".{'b' * 64}.{os.getpid()}-1.part"
    alive.write_text("{")
    # of a process gone here, but written a moment ago: it may be writing on another host
    recent = cache / "ab" / f".{'c' * 64}.999999998-1.part"
    recent.write_text("{")
    long_ago = time.time() - 2 * ORPHANED_PART_AGE
    for part in (dead, alive):
        os.utime(part, (long_ago, long_ago))
    nested(cache_dir=cache).fit(X, y)
    assert not dead.exists() and alive.exists() and recent.exists()


@pytest.mark.parametrize("kind", ["symlink", "directory", "oversized", "deeply-nested"])
def test_an_entry_that_is_not_a_small_json_file_is_recomputed(tmp_path, kind):
    cache = tmp_path / "cache"
    first = nested(cache_dir=cache).fit(X, y)
    entry = sorted(Path(cache).glob("*/*.json"))[0]
    entry.unlink()
    if kind == "symlink":
        target = tmp_path / "elsewhere.json"
        target.write_text("{}")
        entry.symlink_to(target)
    elif kind == "directory":
        entry.mkdir()
    elif kind == "oversized":
        entry.write_text(" " * (2 << 20))
    else:
        entry.write_text("[" * 200_000 + "]" * 200_000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CacheWarning)  # a folder in the way cannot be replaced
        rerun = nested(cache_dir=cache).fit(X, y)
    assert rerun.cache_info_["computed"] == 1
    np.testing.assert_array_equal(rerun.outer_scores_, first.outer_scores_)


class DiesOnAllTheData(Hung):
    """Majority vote whose worker dies (os._exit, as on out-of-memory) when fit on all 60 rows."""

    def fit(self, X, y):
        if len(X) == 60:
            os._exit(3)
        return super().fit(X, y)


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_a_final_fit_whose_worker_dies_raises_naming_it(n_jobs):
    # it raised a bare KeyError: 'estimator'; the final fit raises its error as GridSearchCV's
    # refit does, and a fit that kills its worker is recorded with WorkerDiedError
    model = nested(DiesOnAllTheData(), {"hang": [None]}, refit=True, fit_timeout=30, n_jobs=n_jobs)
    match = r"(?s)The final fit \(all the data\) of NestedCV failed.*WorkerDiedError: the worker"
    with pytest.raises(ValueError, match=match):
        model.fit(X, y)


def test_an_interrupt_while_the_workers_start_removes_the_data_folder(tmp_path, monkeypatch):
    """A Ctrl-C while the pool started (after the data were written for the workers) left
    the folder, a copy of X in /dev/shm, for ever: nothing closed it."""
    from sklearn_fair.model_selection._nested import _running

    def interrupted(self):
        raise KeyboardInterrupt

    monkeypatch.setenv("JOBLIB_TEMP_FOLDER", str(tmp_path))
    monkeypatch.setattr(_running.LokyExecutor, "_new_pool", interrupted)
    with pytest.raises(KeyboardInterrupt):
        nested(DecisionTreeClassifier(), {"max_depth": [1]}, outer_cv=2, n_jobs=2).fit(X, y)
    assert not list(tmp_path.glob("sklearn_fair_run_*"))


class SlowToSendBack(DecisionTreeClassifier):
    """A tree whose fitted state takes 4 s to pickle (a large model on its way back)."""

    def __getstate__(self):
        state = super().__getstate__()
        if hasattr(self, "tree_"):
            time.sleep(4.0)
        return state


def test_a_fit_inside_its_limit_whose_result_is_slow_to_come_back_is_not_killed():
    # the limit counted from the task's start to its result's arrival: the fits took about
    # 0.05 s of their fit_timeout=1.0, but pickling the fitted trees took 4 s, and every refit
    # was killed and recorded as "ran over fit_timeout=1.0 s and did not stop"
    from sklearn_fair import nested_cross_validate

    params = dict(param_grid={"max_depth": [2]}, cv=2, inner_cv=2, n_refits=1, random_state=0)
    limited = nested_cross_validate(
        SlowToSendBack(), X, y, fit_timeout=1.0, return_estimator=True, **params
    )
    reference = nested_cross_validate(DecisionTreeClassifier(), X, y, **params)
    np.testing.assert_array_equal(limited["test_score"], reference["test_score"])
    assert all(isinstance(e, SlowToSendBack) for e in limited["estimator"])


class KillsAtDepthThree(DecisionTreeClassifier):
    def fit(self, X, y, sample_weight=None):
        if self.max_depth == 3 and os.environ.get("SKLEARN_FAIR_TEST_KILL") == "1":
            os._exit(1)
        return super().fit(X, y, sample_weight=sample_weight)


def test_an_interrupt_while_a_replacement_pool_starts_is_a_keyboard_interrupt(monkeypatch):
    # a worker died; Ctrl-C while loky started the pool that replaces it raised
    # AttributeError: 'NoneType' object has no attribute 'terminate' (the closed pool was
    # killed again), which a user's ``except KeyboardInterrupt`` does not catch
    monkeypatch.setenv("SKLEARN_FAIR_TEST_KILL", "1")  # read in the workers, started now
    from joblib.externals.loky import get_reusable_executor

    get_reusable_executor().shutdown(wait=True)
    entered, enter = [], joblib.Parallel.__enter__

    def interrupted_the_second_time(parallel):
        entered.append(parallel)
        if len(entered) == 2:  # the replacement pool
            raise KeyboardInterrupt
        return enter(parallel)

    monkeypatch.setattr(joblib.Parallel, "__enter__", interrupted_the_second_time)
    model = nested(KillsAtDepthThree(), {"max_depth": [1, 2, 3, 4]}, outer_cv=2, n_jobs=2)
    try:
        with pytest.raises(KeyboardInterrupt), warnings.catch_warnings():
            warnings.simplefilter("ignore", FitFailedWarning)
            model.fit(X, y)
    finally:
        get_reusable_executor().shutdown(wait=True)
    assert len(entered) == 2


class ExitsAtDepthTwo(DecisionTreeClassifier):
    def fit(self, X, y, sample_weight=None):
        if self.max_depth == 2:
            raise SystemExit("the fit at max_depth=2 exits")
        return super().fit(X, y, sample_weight=sample_weight)


def test_a_fit_that_exits_on_dask_raises_its_exit_in_the_caller():
    # as joblib and loky raise it: on Dask a SystemExit (or KeyboardInterrupt) raised in a
    # fit killed its worker process, and the fit was recorded as a dead worker's
    # (WorkerDiedError), or under error_score="raise" the run raised that instead; an
    # in-process cluster hung for ever
    distributed = pytest.importorskip("dask.distributed")
    with pytest.raises(SystemExit, match="the fit at max_depth=2 exits"):
        ExitsAtDepthTwo(max_depth=2).fit(X, y)  # what the serial run raises
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        with distributed.Client(cluster), joblib.parallel_backend("dask"):
            with pytest.raises(SystemExit, match="the fit at max_depth=2 exits"):
                nested(ExitsAtDepthTwo(), {"max_depth": [1, 2]}, outer_cv=2).fit(X, y)
