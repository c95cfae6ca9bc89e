"""Running a plan's tasks: in the caller's process, on loky's process executor, on threads,
or on a Dask cluster, in the order the schedule gives.

The backend follows joblib's: ``n_jobs`` and any ``joblib.parallel_config`` (or
``parallel_backend``) context in force, such as ``"dask"``. Only as many tasks as there are
workers are in flight at a time, so the schedule's priorities (critical path first, refits as
soon as their fold is selected) decide what runs next.

Faults are contained. On loky, a task that kills its worker process (a segfault, ``os._exit``,
running out of memory) breaks the whole pool; the tasks that were in flight are then run again
one at a time in a fresh pool, so the one that kills is found, recorded as a failed task naming
its fold and candidate, and the run finishes. On Dask a killed worker is the cluster's business:
a task that keeps killing workers comes back as ``KilledWorker`` and is recorded as failed. A fit
that overruns ``fit_timeout`` is stopped from inside its worker; on loky a worker that still has
not returned long after the limit is killed.
"""

import concurrent.futures
import time
import warnings
from collections import Counter

import joblib
import numpy as np
from sklearn.exceptions import FitFailedWarning

from ...exceptions import CacheWarning
from ._cache import write_entry
from ._cache_key import KeyBuilder, UnhashableError
from ._data import SharedRunData, for_workers
from ._progress import Progress
from ._scheduling import NestedSchedule
from ._tasks import FitTask, SearchTask, TaskContext, run_fit_task, run_search_task

__all__ = ["run_plan"]


def execute(task, context, data, cache_entry):
    """What a worker runs for one task: the task, then its cache entry (if it succeeded)."""
    if isinstance(task, SearchTask):
        result = run_search_task(task, context, data)
    else:
        result = run_fit_task(task, context, data)
    if cache_entry is not None and not result["error"]:
        error = write_entry(*cache_entry, result)
        if error:
            result["cache_error"] = error
    return result


def _failure(task, message):
    return {
        "key": task.key,
        "scores": {},
        "fit_time": 0.0,
        "score_time": 0.0,
        "error": message,
        "predictions": None,
    }


# -- executors -------------------------------------------------------------------------------
#
# All executors offer: ``capacity`` (how many more tasks may be submitted now), ``in_flight``
# (tasks submitted and not yet returned), ``submit(task, entry, priority)``, ``wait()`` (blocks
# until at least one task returns; a list of (task, result)) and ``close(abort)``.


class SequentialExecutor:
    """Runs each task at once, in the caller's process and thread."""

    n_workers = 1

    def __init__(self, data, context):
        self.data, self.context = data, context
        self._done = []

    @property
    def capacity(self):
        return 0 if self._done else 1

    @property
    def in_flight(self):
        return len(self._done)

    def submit(self, task, cache_entry, priority=0):
        self._done.append((task, execute(task, self.context, self.data, cache_entry)))

    def wait(self):
        done, self._done = self._done, []
        return done

    def close(self, abort=False):
        pass


class _OneTaskPerWorker:
    """Bookkeeping of an executor with ``n_workers`` and a dict ``_running`` of futures."""

    @property
    def capacity(self):
        return self.n_workers - len(self._running)

    @property
    def in_flight(self):
        return len(self._running)


class ThreadExecutor(_OneTaskPerWorker):
    """Threads of the caller's process (joblib's ``threading`` backend)."""

    def __init__(self, data, context, n_workers):
        self.data, self.context, self.n_workers = data, context, n_workers
        self._pool = concurrent.futures.ThreadPoolExecutor(n_workers)
        self._running = {}

    def submit(self, task, cache_entry, priority=0):
        future = self._pool.submit(execute, task, self.context, self.data, cache_entry)
        self._running[future] = task

    def wait(self):
        done, _ = concurrent.futures.wait(
            list(self._running), return_when=concurrent.futures.FIRST_COMPLETED
        )
        return [(self._running.pop(future), future.result()) for future in done]

    def close(self, abort=False):
        self._pool.shutdown(wait=not abort, cancel_futures=abort)


class LokyExecutor:
    """Worker processes of loky (joblib's default backend), data shipped once per worker.

    When a worker dies, every task in flight is suspect: they are rerun one at a time in a
    fresh pool (no other task runs meanwhile), and one that kills its worker when alone is the
    culprit, recorded as failed.
    """

    def __init__(self, data, context, n_workers):
        self.context, self.n_workers = context, n_workers
        self._shared = SharedRunData(data)
        self._pool = self._new_pool()
        self._running = {}  # future -> (task, cache_entry, start time)
        self._suspects = []  # (task, cache_entry): to rerun alone
        self._resubmit = []  # (task, cache_entry): innocent victims of a killed pool
        self._alone = False

    def _new_pool(self):
        # joblib configures loky's executor exactly as for its own Parallel calls (worker
        # environment, memmapping reducers, idle timeout), so NestedCV and joblib share one warm
        # pool instead of restarting it for each other; a broken pool is replaced by loky.
        if getattr(self, "_parallel", None) is not None:
            self._parallel.__exit__(None, None, None)
        self._parallel = joblib.Parallel(n_jobs=self.n_workers)
        self._parallel.__enter__()
        return self._parallel._backend._workers

    @property
    def capacity(self):
        if self._suspects or self._resubmit or self._alone:
            return 0
        return self.n_workers - len(self._running)

    @property
    def in_flight(self):
        return len(self._running) + len(self._suspects) + len(self._resubmit)

    def submit(self, task, cache_entry, priority=0):
        future = self._pool.submit(execute, task, self.context, self._shared.handle, cache_entry)
        self._running[future] = (task, cache_entry, time.monotonic())

    def wait(self):
        limit = self.context.fit_timeout
        while True:
            for task, entry in self._resubmit:
                self.submit(task, entry)
            self._resubmit = []
            if not self._running and self._suspects:
                self._alone = True
                self.submit(*self._suspects.pop(0))
            done, _ = concurrent.futures.wait(
                list(self._running),
                timeout=None if limit is None else 1.0,
                return_when=concurrent.futures.FIRST_COMPLETED,
            )
            finished = self._collect(done) if done else self._kill_overrunning(limit)
            if finished:
                return finished

    def _collect(self, done):
        finished, died = [], []
        for future in done:
            task, entry, _ = self._running.pop(future)
            exception = future.exception()
            if exception is None:
                finished.append((task, future.result()))
            elif _worker_died(exception) and not _serialization_failed(exception):
                died.append((task, entry))
            else:
                # an error of the task's own (error_score="raise"), or a task that cannot
                # reach its worker (e.g. a class the worker cannot import): not a fit's fault
                raise exception
        if died:
            if self._alone:
                task, _ = died[0]
                finished.append((task, _failure(task, _died_message(task))))
            else:
                # the pool broke: every task in flight failed with it, the culprit among them
                self._suspects += died + [(t, e) for t, e, _ in self._running.values()]
                self._running.clear()
            self._pool = self._new_pool()
        if not self._running:
            self._alone = False
        return finished

    def _kill_overrunning(self, limit):
        """Kill the pool if a fit overran its limit far beyond the watchdog's reach."""
        now = time.monotonic()
        grace = max(30.0, limit)
        if not any(now - start > limit + grace for _, _, start in self._running.values()):
            return []
        self._pool.shutdown(wait=False, kill_workers=True)
        self._pool = self._new_pool()
        finished = []
        for task, entry, start in self._running.values():
            if now - start > limit + grace:
                message = (
                    f"FitTimeoutError: the {task.key.describe()} ran over fit_timeout={limit} s "
                    "and did not stop; its worker was killed."
                )
                finished.append((task, _failure(task, message)))
            else:
                self._resubmit.append((task, entry))
        self._running.clear()
        self._alone = False
        return finished

    def close(self, abort=False):
        if abort:
            self._pool.shutdown(wait=False, kill_workers=True)
        self._parallel.__exit__(None, None, None)
        self._shared.close()


def _worker_died(exception):
    from joblib.externals.loky.process_executor import BrokenProcessPool

    return isinstance(exception, (BrokenProcessPool, concurrent.futures.BrokenExecutor))


def _serialization_failed(exception):
    return "serialize" in str(exception)


def _died_message(task):
    return (
        f"WorkerDiedError: the worker process died while running the {task.key.describe()} "
        "(a crash, os._exit, or the operating system killing it, e.g. for lack of memory); "
        "rerun alone, it died again."
    )


class DaskExecutor(_OneTaskPerWorker):
    """The workers of a Dask cluster (joblib's ``dask`` backend); data scattered once."""

    def __init__(self, data, context, client):
        self.context, self.client = context, client
        self.n_workers = max(1, sum(client.nthreads().values()))
        self._data = client.scatter(for_workers(data), broadcast=True, hash=False)
        self._running = {}

    def submit(self, task, cache_entry, priority=0):
        future = self.client.submit(
            execute, task, self.context, self._data, cache_entry, pure=False, priority=priority
        )
        self._running[future] = task

    def wait(self):
        from distributed import wait

        done, _ = wait(list(self._running), return_when="FIRST_COMPLETED")
        finished = []
        for future in done:
            task = self._running.pop(future)
            if future.status == "error":
                exception = future.exception()
                if type(exception).__name__ == "KilledWorker":
                    finished.append((task, _failure(task, _died_message(task))))
                    continue
                raise exception
            finished.append((task, future.result()))
        return finished

    def close(self, abort=False):
        for future in self._running:
            future.cancel()
        self._data.release()


def make_executor(data, context, n_jobs):
    """The executor for ``n_jobs`` under the joblib backend in force."""
    parallel = joblib.Parallel(n_jobs=n_jobs)
    backend = parallel._backend
    name = type(backend).__name__
    if name == "DaskDistributedBackend":
        return DaskExecutor(data, context, backend.client)
    n_workers = parallel._effective_n_jobs()
    if n_workers <= 1 or name == "SequentialBackend":
        return SequentialExecutor(data, context)
    if name == "ThreadingBackend":
        return ThreadExecutor(data, context, n_workers)
    if name not in ("LokyBackend", "MultiprocessingBackend"):
        warnings.warn(
            f"NestedCV runs on loky's worker processes, not on the joblib backend {name} in "
            "force: it drives loky, threading and dask itself.",
            UserWarning,
            stacklevel=5,
        )
    return LokyExecutor(data, context, n_workers)


# -- the run -----------------------------------------------------------------------------------


class _Cache:
    """The run's side of the cache: keys, lookups, and giving up with a warning."""

    def __init__(self, plan):
        self.cache, self.keys = plan.cache, None
        if self.cache is None:
            return
        try:
            self.keys = KeyBuilder(plan.data, plan.scorers)
        except UnhashableError as exc:
            self._give_up(exc)

    def _give_up(self, reason):
        warnings.warn(
            f"The cache is not used for this run: {reason}. Results are computed, not cached.",
            CacheWarning,
            stacklevel=5,
        )
        self.keys = None

    def lookup(self, task, estimator):
        """``(cached result or None, cache entry to write or None)``."""
        if self.keys is None or not isinstance(task, FitTask) or task.return_estimator:
            return None, None
        try:
            name, description = self.keys.key(task, estimator)
        except UnhashableError as exc:
            self._give_up(exc)
            return None, None
        cached = self.cache.load(name, description, task.key)
        if self.cache.write_failed:
            # stored entries stay valid (each is checked against its key); only writing stops
            return cached, None
        return cached, (self.cache.directory, name, description)


def run_plan(plan):
    """Run every task of ``plan``; returns the finished NestedSchedule."""
    schedule = NestedSchedule(plan)
    cache = _Cache(plan)
    context = TaskContext(plan.estimator, plan.scorers, plan.fit_timeout)
    executor = make_executor(plan.data, context, plan.n_jobs)
    progress = Progress(plan.verbose, schedule.n_expected)
    schedule.computed = 0
    try:
        while not schedule.finished:
            while executor.capacity > 0 and schedule.has_ready():
                task = schedule.pop()
                cached, entry = cache.lookup(task, plan.estimator)
                if cached is not None:
                    schedule.complete(task, cached)
                    progress.update()
                else:
                    executor.submit(task, entry, priority=schedule.priority(task))
            if executor.in_flight == 0:
                if schedule.finished or schedule.has_ready():
                    continue
                raise RuntimeError("The nested run stalled: no task is ready or running.")
            for task, result in executor.wait():
                if result.get("cache_error"):
                    plan.cache.note_write_failure(result["cache_error"])
                schedule.computed += 1
                schedule.complete(task, result)
                progress.update()
            progress.set_total(schedule.n_expected)
    except BaseException:
        executor.close(abort=True)
        raise
    finally:
        progress.close()
    executor.close()
    return schedule


def run_tasks(tasks, estimator, scorers, data, *, n_jobs=None, verbose=0, fit_timeout=None):
    """Run independent FitTasks on the same executors as a nested run; returns key -> result.

    For procedures built on NestedCV's task pool (e.g. an interval that needs its own fits):
    ``data`` is a :class:`~._data.RunData` whose ``rows`` the tasks name.
    """
    context = TaskContext(estimator, scorers, fit_timeout)
    executor = make_executor(data, context, n_jobs)
    pending = list(tasks)
    results = {}
    progress = Progress(verbose, len(pending))
    try:
        while pending or executor.in_flight:
            while pending and executor.capacity > 0:
                executor.submit(pending.pop(0), None)
            for task, result in executor.wait():
                results[task.key] = result
                progress.update()
    except BaseException:
        executor.close(abort=True)
        raise
    finally:
        progress.close()
    executor.close()
    return results


def warn_failures(owner, error_score, results):
    """One FitFailedWarning summarising every failed fit, as scikit-learn's searches do."""
    errors = [r["error"] for r in results if r["error"]]
    if not errors:
        return
    summary = "\n".join(
        f"--- {count} fit(s) failed with:\n{error}"
        for error, count in Counter(e.strip() for e in errors).most_common(3)
    )
    warnings.warn(
        f"{len(errors)} of the {len(results)} fits of {owner} failed and were given "
        f"error_score={error_score!r}.\n{summary}",
        FitFailedWarning,
        stacklevel=5,
    )


def nonfinite(results):
    """The results whose scores include NaN or infinity although the fit did not fail."""
    return [
        r
        for r in results
        if not r["error"] and any(not np.isfinite(v) for v in r["scores"].values())
    ]
