"""Running plans' tasks in the schedule's order: in the caller's process, on loky's worker
processes, on threads or on a Dask cluster, as ``n_jobs`` and the joblib backend in force say.

Only as many tasks as there are workers are in flight, so the schedule's priorities decide what
runs next. A task that kills its worker is recorded as failed while the run finishes.
"""

import concurrent.futures
import contextlib
import copy
import functools
import importlib
import os
import tempfile
import threading
import time
import uuid
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, replace

import joblib
from sklearn import config_context, get_config

from ...exceptions import CacheWarning
from ...utils import compact_graphs
from ...utils._stacklevel import external_stacklevel
from ._batching import PREFETCH, AutoBatching
from ._cache import EntryCheck, write_entry
from ._cache_key import KeyBuilder, UnhashableError, check_in_worker
from ._data import SharedRunData, for_workers
from ._progress import Progress
from ._reuse import PrefixReuse, discard_run
from ._scheduling import NestedSchedule
from ._tasks import (
    FitTask,
    SearchTask,
    TaskBatch,
    TaskContext,
    empty_result,
    run_fit_task,
    run_search_task,
)
from ._timeout import watch_parent

__all__ = ["PlansData", "run_plan", "run_plans"]


def execute(task, data, cache_entry, config=None, filters=None):
    """What a worker runs: a :class:`PlanTask`, with its own plan's context and part of ``data``
    (the run's PlansData), then its cache entry; a list of results for a TaskBatch.
    ``config``: scikit-learn's configuration where the task was submitted (metadata routing
    on, ...), which a worker thread or process does not inherit; ``filters``: the warning
    filters there, which a worker process does not inherit (a warning the user turned into an
    error fails the fit, as in the caller's process), both as joblib's ``delayed`` of
    ``sklearn.utils.parallel`` carries them: ``(the caller's process id, the filters)``, set
    only in another process (the caller's threads share its filters), where each task that
    writes a cache entry first checks its estimator is the one its key describes."""
    if filters is not None and filters[0] != os.getpid():
        batch = zip(task.tasks, task.entries) if isinstance(task, TaskBatch) else None
        for tagged, entry in batch or [(task, cache_entry)]:
            if entry is not None:
                check_in_worker(tagged.task, tagged.context.estimator, entry[2])
        with _shipped_filters(filters[1]):
            return execute(task, data, cache_entry, config)
    if config is not None:
        with config_context(**config):
            return execute(task, data, cache_entry)
    if isinstance(task, TaskBatch):
        return [execute(t, data, e) for t, e in zip(task.tasks, task.entries)]
    run = run_search_task if isinstance(task.task, SearchTask) else run_fit_task
    result = run(task.task, task.context, data.resolve().part(task.index))
    if cache_entry is not None and not result["error"]:
        error = write_entry(*cache_entry, result)
        if error:
            result["cache_error"] = error
    return result


def _portable_filters():
    """This process's id and warning filters (those of the context in force, where Python
    keeps them per context), each category by its module and name (a category the user
    defined in a module that a worker cannot import is left out there, not a broken pool).
    A filter of a tuple of categories (``simplefilter(action, (A, B))``, which Python
    honours, as scikit-learn's ``ignore_warnings(category=(A, B))`` installs it) is one filter
    per category, in its place: a warning matches one of them where it matches the tuple."""
    in_force = getattr(warnings, "_get_filters", lambda: warnings.filters)()
    return os.getpid(), [
        (action, message, (category.__module__, category.__qualname__), module, lineno)
        for action, message, categories, module, lineno in in_force
        for category in _categories(categories)
    ]


def _categories(category):
    """The classes of a filter's category: itself, or those of a tuple (nested, as
    ``issubclass`` takes them), in order."""
    if isinstance(category, tuple):
        return [c for item in category for c in _categories(item)]
    return [category]


@functools.lru_cache(maxsize=512)
def _category(module_name, name):
    """The warning class named, imported under no filter of the caller's (whose error filter
    would stop a module that warns as it loads), once per worker; None where it cannot be."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            category = importlib.import_module(module_name)
            for part in name.split("."):
                category = getattr(category, part)
        except Exception:  # noqa: BLE001 - whatever stops the import: the filter is left out
            return None
    return category if isinstance(category, type) and issubclass(category, Warning) else None


# the shipped filters installed in this process: tasks in several threads of a worker (Dask's)
# share one install, as a task's catch_warnings restored the worker's own filters while
# another thread's fit ran (a warning the user turned into an error did not fail that fit)
_filters_changed = threading.Condition()
_installed = {"key": None, "tasks": 0, "saved": None}


@contextmanager
def _shipped_filters(filters):
    """Run inside with ``filters`` (:func:`_portable_filters` of another process) this
    process's; a task shipping other filters waits until no task runs under these."""
    key = repr(filters)
    with _filters_changed:
        while _installed["tasks"] and _installed["key"] != key:
            _filters_changed.wait()
        if not _installed["tasks"]:
            saved = warnings.filters[:]
            try:
                _set_filters(filters)
            except BaseException:
                warnings.filters[:] = saved
                warnings._filters_mutated()
                raise
            _installed.update(key=key, saved=saved)
        _installed["tasks"] += 1
    try:
        yield
    finally:
        with _filters_changed:
            _installed["tasks"] -= 1
            if not _installed["tasks"]:
                warnings.filters[:] = _installed["saved"]
                warnings._filters_mutated()
                _installed.update(key=None, saved=None)
                _filters_changed.notify_all()


def _set_filters(filters):
    """Make ``filters`` (:func:`_portable_filters` of another process) this process's, in
    order, but for those whose category this process cannot import."""
    categories = [_category(*named) for _, _, named, _, _ in filters]
    warnings.resetwarnings()
    for (action, message, _, module, lineno), category in zip(filters, categories):
        if category is None:
            continue
        pattern = {
            "message": getattr(message, "pattern", message) or "",
            "module": getattr(module, "pattern", module) or "",
        }
        warnings.filterwarnings(action, category=category, lineno=lineno, append=True, **pattern)


def _failure(task, message):
    if isinstance(task, TaskBatch):
        return [_failure(t, message) for t in task.tasks]
    return empty_result(task.key, message)


# -- executors: ``capacity`` (how many more tasks may be submitted now), ``in_flight``,
# ``submit(task, entry, priority)``, ``wait()`` (blocks until a task returns; a list of (task,
# result)) and ``close(abort)``


class SequentialExecutor:
    """Runs each task at once, in the caller's process and thread."""

    n_workers = 1

    def __init__(self, data):
        self.data = data
        self._done = []

    @property
    def capacity(self):
        return 0 if self._done else 1

    @property
    def in_flight(self):
        return len(self._done)

    def submit(self, task, cache_entry, priority=0):
        self._done.append((task, execute(task, self.data, cache_entry)))

    def wait(self):
        done, self._done = self._done, []
        return done

    def close(self, abort=False):
        pass


class _OneTaskPerWorker:
    """Bookkeeping of an executor with ``n_workers``, ``fit_timeout`` and a dict ``_running``."""

    @property
    def capacity(self):
        # tasks kept waiting ahead of the workers: none with a time limit, which counts a
        # task's time from its submission
        prefetch = PREFETCH if self.fit_timeout is None else 0
        return self.n_workers + prefetch - len(self._running)

    @property
    def in_flight(self):
        return len(self._running)


class _DaemonThreads:
    """``n`` daemon threads running submitted calls: ``submit(fn, *args)`` gives a Future.

    Not concurrent.futures' ThreadPoolExecutor, whose threads Python joins at exit: a fit
    that never returns (a thread cannot be killed) would keep the process from ever exiting
    once NestedCV gave up on it (an error, Ctrl-C). Daemon threads end with the process.
    """

    def __init__(self, n):
        import queue
        import threading

        self._calls = queue.SimpleQueue()
        for number in range(n):
            name = f"sklearn-fair-fit-{number}"
            threading.Thread(target=self._work, name=name, daemon=True).start()
        self._n = n

    def _work(self):
        while True:
            call = self._calls.get()
            if call is None:
                return
            future, fn, args = call
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = fn(*args)
            except BaseException as error:
                future.set_exception(error)
            else:
                future.set_result(result)
            del call, future, fn, args

    def submit(self, fn, *args):
        future = concurrent.futures.Future()
        self._calls.put((future, fn, args))
        return future

    def shutdown(self, cancel_futures=False):
        """Each thread ends once its call returns; with ``cancel_futures`` the calls not
        started are cancelled (a running one cannot be)."""
        if cancel_futures:
            while not self._calls.empty():
                call = self._calls.get()
                if call is not None:
                    call[0].cancel()
        for _ in range(self._n):
            self._calls.put(None)


class ThreadExecutor(_OneTaskPerWorker):
    """Threads of the caller's process (joblib's ``threading`` backend)."""

    def __init__(self, data, fit_timeout, n_workers):
        self.data, self.fit_timeout, self.n_workers = data, fit_timeout, n_workers
        self._pool = _DaemonThreads(n_workers)
        self._running = {}

    def submit(self, task, cache_entry, priority=0):
        future = self._pool.submit(execute, task, self.data, cache_entry, get_config())
        self._running[future] = task

    def wait(self):
        done, _ = concurrent.futures.wait(
            list(self._running), return_when=concurrent.futures.FIRST_COMPLETED
        )
        return [(self._running.pop(future), future.result()) for future in done]

    def close(self, abort=False):
        self._pool.shutdown(cancel_futures=abort)


class _LokyPool:
    """Loky's worker processes as joblib starts them, through joblib's public API only.

    Several workers: a ``joblib.Parallel`` entered on a loky backend, so joblib configures the
    pool as for its own calls and NestedCV and scikit-learn's ``n_jobs`` share one warm pool
    instead of restarting it for each other. One worker (a time limit that can always be
    enforced, where joblib would run ``n_jobs=1`` in the caller's process): joblib's reusable
    executor.

    Workers watch this process (:func:`~._timeout.watch_parent`) from their first task, not
    through an initializer: loky keeps a pool only for the same initializer, and joblib's
    calls have none. So that a worker that gets no task of the run ends with this process too,
    the first tasks are one :func:`_watch` per worker, which wait for each other. They carry
    the run's ``data`` handle and ``contexts``, so a fresh worker imports the estimators'
    modules (torch, for a GNN) and loads the data in its first task: loky measures a worker's
    memory after its first task and replaces a worker that grows by 300 MB more, which a
    worker that imported torch in its second task did (restarted, with a warning).
    """

    def __init__(self, n_workers, backend, folder, data=None, contexts=()):
        self._loky, self._parallel, self._executor = backend, None, None
        if n_workers == 1:
            from joblib.executor import get_memmapping_executor

            self._executor = get_memmapping_executor(1, timeout=300)
        else:
            self._parallel = joblib.Parallel(n_jobs=n_workers, backend=backend)
            self._parallel.__enter__()
        arrived = tempfile.mkdtemp(prefix="watch-", dir=folder)
        for _ in range(n_workers):
            self.submit(_watch, arrived, n_workers, data, contexts)

    def submit(self, function, *args):
        call = functools.partial(_watched, os.getpid(), function, *args)
        if self._executor is not None:
            return self._executor.submit(call)
        # recent joblib names it ``submit``, older ``apply_async`` (the same future of loky's)
        submit = getattr(self._loky, "submit", None) or self._loky.apply_async
        return submit(call)

    def kill(self):
        """End every worker now (the tasks in flight are lost)."""
        # and wait until they are dead: with wait=False loky's manager thread reads the kill
        # flag later, and the next reusable executor shuts the old one down again without
        # it, which overwrote it: a worker stuck in its fit was left running for ever, and
        # Python's exit waited on it (loky joins its manager thread at exit)
        if self._executor is not None:
            self._executor.shutdown(wait=True, kill_workers=True)
        else:
            self._loky.abort_everything(ensure_ready=False)  # terminate(): waits, kills

    def close(self):
        if self._parallel is not None:
            self._parallel.__exit__(None, None, None)
            self._parallel = None


def _watched(parent, function, *args):
    """``function(*args)`` in a worker that watches ``parent``, the process that runs NestedCV."""
    watch_parent(parent)
    return function(*args)


def _watch(arrived, n_workers, data=None, contexts=(), deadline=10.0):
    """Mark this worker's arrival in the folder ``arrived`` and wait for ``n_workers`` (at most
    ``deadline`` s), so that no worker takes two of these first tasks while another takes none.
    ``data`` is loaded here; ``contexts`` did their work when unpickled (see :class:`_LokyPool`)."""
    if data is not None:
        data.resolve()
    open(os.path.join(arrived, str(os.getpid())), "w").close()
    end = time.monotonic() + deadline
    while len(os.listdir(arrived)) < n_workers and time.monotonic() < end:
        time.sleep(0.002)


def _loky_backend(backend):
    """``backend`` if it is joblib's loky backend, else a fresh loky backend instance."""
    if type(backend).__name__ == "LokyBackend":
        return backend
    from joblib.parallel import get_active_backend

    with joblib.parallel_config(backend="loky"):
        return get_active_backend()[0]


class LokyExecutor(_OneTaskPerWorker):
    """Loky's worker processes, data shipped once per worker. When a worker dies, every task
    in flight is suspect and rerun alone in a fresh pool; one that kills its worker when alone
    is recorded as failed. A loky ``backend`` in force is used as it is (its settings hold)."""

    def __init__(self, data, fit_timeout, n_workers, backend=None, contexts=()):
        self.fit_timeout, self.n_workers = fit_timeout, n_workers
        self._contexts = _one_context_per_kind(contexts)
        self._loky = _loky_backend(backend)
        self._shared = SharedRunData(data)
        self._pool = None
        try:
            self._pool = self._new_pool()
        except BaseException:  # an interrupt while the workers start: nothing else closes it
            self._shared.close()
            raise
        self._running = {}  # future -> (task, cache_entry)
        self._suspects = []  # (task, cache_entry): to rerun alone
        self._resubmit = []  # (task, cache_entry): innocent victims of a killed pool
        self._alone = False
        self._started = {}  # future -> file the worker creates when it starts the task
        self._refused = set()  # futures of tasks a broken pool refused: they never ran

    def _new_pool(self):
        if self._pool is not None:
            # no longer ours before it closes: an interrupt while the next one starts must
            # not kill a closed pool (loky's backend has no workers then: AttributeError)
            pool, self._pool = self._pool, None
            pool.close()
        self._accepted = False  # whether the pool took a task of the run
        return _LokyPool(
            self.n_workers, self._loky, self._shared.folder, self._shared.handle, self._contexts
        )

    @property
    def capacity(self):
        if self._suspects or self._resubmit or self._alone:
            return 0
        return super().capacity

    @property
    def in_flight(self):
        return len(self._running) + len(self._suspects) + len(self._resubmit)

    def submit(self, task, cache_entry, priority=0):
        args = (task, self._shared.handle, cache_entry, get_config(), _portable_filters())
        try:
            if _time_limit_of(task) is None:
                future = self._pool.submit(execute, *args)
            else:  # the worker marks when it starts the task: a time limit counts from there
                started = os.path.join(self._shared.folder, f"started-{uuid.uuid4().hex}")
                future = self._pool.submit(_mark_started_then_execute, started, *args)
                self._started[future] = started
        except Exception as exception:
            if not self._accepted or not _worker_died(exception):
                raise  # a pool that broke before any fit: no task's doing
            # a worker died since the last wait and loky refuses new tasks: this one never
            # ran, and is run again once the death is collected
            future = concurrent.futures.Future()
            future.set_exception(exception)
            self._refused.add(future)
        else:
            self._accepted = True
        self._running[future] = (task, cache_entry)

    def wait(self):
        while True:
            for task, entry in self._resubmit:
                self.submit(task, entry)
            self._resubmit = []
            if not self._running and self._suspects:
                self._alone = True
                self.submit(*self._suspects.pop(0))
            done, _ = concurrent.futures.wait(
                list(self._running),
                timeout=None if self.fit_timeout is None else 1.0,
                return_when=concurrent.futures.FIRST_COMPLETED,
            )
            finished = self._collect(done) if done else self._kill_overrunning()
            if finished:
                return finished

    def _collect(self, done):
        finished, died = [], []
        for future in done:
            task, entry = self._running.pop(future)
            self._started.pop(future, None)
            exception = future.exception()
            if exception is None:
                finished.append((task, future.result()))
            elif future in self._refused:
                self._refused.discard(future)
                self._resubmit.append((task, entry))
            elif _worker_died(exception) and "serialize" not in str(exception):
                died.append((task, entry))
            else:
                # an error of the task's own (error_score="raise"), or a task that cannot
                # reach its worker (e.g. a class the worker cannot import): not a fit's fault
                raise exception
        if died or self._resubmit:
            if self._alone and died:
                task, _ = died[0]
                finished.append((task, _failure(task, _died_message(task))))
            else:
                # the pool broke: every task in flight failed with it, the culprit among them
                self._suspects += died
                for future, pair in self._running.items():
                    (self._resubmit if future in self._refused else self._suspects).append(pair)
                self._running.clear()
                self._refused.clear()
            self._pool = self._new_pool()
        if not self._running:
            self._alone = False
        return finished

    def _kill_overrunning(self):
        """Kill the pool if a fit is still running shortly after its own limit (stuck in
        compiled code, beyond the worker's timer), so that a hung fit costs about the limit.
        A task without a limit (a benchmark's model without ``fit_timeout``) is never one that
        overran: it is run again, as every other task in flight."""
        overran = set()
        for future, (task, _) in self._running.items():
            limit = _time_limit_of(task)
            if future.done() or limit is None:  # done: its result arrived since the wait
                continue
            if self._running_for(future) > limit + overrun_grace(limit):
                overran.add(future)
        if not overran:
            return []
        self._pool.kill()
        self._pool = self._new_pool()
        finished = []
        for future, (task, entry) in self._running.items():
            if future in overran:
                limit = _time_limit_of(task)
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

    def _running_for(self, future):
        """Seconds since the worker started the task of ``future`` (0 if it has not, or has
        run it)."""
        try:
            return time.time() - os.stat(self._started[future]).st_mtime
        except (KeyError, OSError):
            return 0.0

    def close(self, abort=False):
        try:
            if self._pool is not None:  # None: interrupted while a new pool started
                if abort:
                    self._pool.kill()
                self._pool.close()
        finally:  # a second interrupt while the pool is killed
            self._shared.close()


class _RaisedInWorker:
    """A KeyboardInterrupt or SystemExit that a task raised in a Dask worker, sent back as a
    result: raised there, it hung an in-process cluster and killed a worker process (then
    blamed as a death), where joblib and loky raise it in the caller."""

    def __init__(self, exception):
        self.exception = exception


def _dask_execute(*args):
    """:func:`execute` in a Dask worker, a KeyboardInterrupt or SystemExit returned."""
    try:
        return execute(*args)
    except (KeyboardInterrupt, SystemExit) as exception:
        return _RaisedInWorker(exception)


def _mark_started_then_execute(started, *args):
    """:func:`execute`, after creating the file ``started`` (its time is the task's start),
    which is removed once the task has run: the time its result takes to be pickled and sent
    back (a large fitted model) does not count against the time limit."""
    open(started, "w").close()
    try:
        return execute(*args)
    finally:
        with contextlib.suppress(OSError):
            os.remove(started)


def _time_limit_of(task):
    """The ``fit_timeout`` of ``task`` (a PlanTask: its plan's), None for none; a batch's, the
    sum of its tasks' limits (None if one of them has none)."""
    if isinstance(task, TaskBatch):
        limits = [_time_limit_of(t) for t in task.tasks]
        return None if None in limits else sum(limits)
    return task.context.fit_timeout


def overrun_grace(limit):
    """Seconds past ``fit_timeout`` before a worker that has not returned is killed: time for
    the stopped fit's result to travel back."""
    return min(max(2.0, 0.25 * limit), 30.0)


def _worker_died(exception):
    from joblib.externals.loky.process_executor import BrokenProcessPool

    return isinstance(exception, (BrokenProcessPool, concurrent.futures.BrokenExecutor))


def _died_message(task):
    return (
        f"WorkerDiedError: the worker process died while running the {task.key.describe()} "
        "(a crash, os._exit, or the operating system killing it, e.g. for lack of memory); "
        "rerun alone, it died again."
    )


class DaskExecutor(_OneTaskPerWorker):
    """The workers of a Dask cluster (joblib's ``dask`` backend); data scattered once, and again
    if a worker's death loses it. A task whose worker died (``KilledWorker``) or that Dask
    cancelled (the scattered data it needs went with a dead worker) is suspect and, as on
    loky, rerun alone once the tasks in flight have returned; one that dies again when alone
    is recorded as failed."""

    def __init__(self, data, fit_timeout, client):
        self.fit_timeout, self.client = fit_timeout, client
        self.n_workers = max(1, sum(client.nthreads().values()))
        self._shipped = for_workers(data)
        self._data = self._scatter()
        self._running = {}  # future -> (task, cache_entry, priority)
        self._suspects = []  # (task, cache_entry, priority): to rerun alone
        self._alone = False

    def _scatter(self):
        self._check_client()
        return self.client.scatter(self._shipped, broadcast=True, hash=False)

    def _check_client(self):
        if self.client.status in ("closing", "closed"):
            # Dask's own error is an AttributeError on None from inside the closed client
            raise RuntimeError(
                "The Dask client was closed during the run (by the program, or by Dask once "
                "it lost the scheduler): NestedCV cannot send its fits to the cluster. Keep "
                "the client and its cluster running until fit returns."
            )

    @property
    def capacity(self):
        if self._suspects or self._alone:
            return 0
        return super().capacity

    @property
    def in_flight(self):
        return len(self._running) + len(self._suspects)

    def submit(self, task, cache_entry, priority=0):
        self._check_client()
        if self._data.status != "finished":
            # a worker's death lost the scattered data (no copy left): ship it again
            self._data.release()
            try:
                self._data = self._scatter()
            except OSError as exc:  # TimeoutError: no worker came back
                raise RuntimeError(
                    "NestedCV lost its Dask workers or scheduler during the run (fits may have "
                    "killed the workers, or the scheduler stopped) and could not scatter its "
                    f"data to the cluster again: {type(exc).__name__}: {exc}"
                ) from exc
        future = self.client.submit(
            _dask_execute,
            task,
            self._data,
            cache_entry,
            get_config(),
            _portable_filters(),
            pure=False,
            priority=priority,
        )
        self._running[future] = (task, cache_entry, priority)

    def wait(self):
        from distributed import wait

        while True:
            if not self._running and self._suspects:
                self._alone = True
                self.submit(*self._suspects.pop(0))
            try:
                # Dask's wait uses the default client: the backend's may be another
                with self.client.as_current():
                    wait(list(self._running), return_when="FIRST_COMPLETED")
            except concurrent.futures.CancelledError:
                pass  # recent Dask raises for a cancelled future: collected below
            done = [future for future in self._running if future.done()]
            finished = self._collect(done)
            if finished:
                return finished

    def _collect(self, done):
        finished, died = [], []
        for future in done:
            task, entry, priority = self._running.pop(future)
            try:
                # a result can be lost after it was computed too: with its worker, when
                # the scattered data it was computed from went with it (cancelled)
                result = future.result()
                if isinstance(result, _RaisedInWorker):
                    raise result.exception
                finished.append((task, result))
            except concurrent.futures.CancelledError:
                died.append((task, entry, priority))
            except Exception as exception:
                if not _dask_worker_died(exception):
                    raise  # an error of the task's own (error_score="raise")
                died.append((task, entry, priority))
        if died:
            if self._alone:
                task = died[0][0]
                finished.append((task, _failure(task, _died_message(task))))
            else:
                # the culprit is among them, and so may be tasks queued on its worker or
                # needing the data that went with it: each is rerun alone
                self._suspects += died
        if not self._running:
            self._alone = False
        return finished

    def close(self, abort=False):
        for future in self._running:
            future.cancel()
        self._data.release()


def _dask_worker_died(exception):
    """Whether ``exception`` says the task's worker died (Dask's ``KilledWorker``)."""
    return type(exception).__name__ == "KilledWorker"


def make_executor(data, fit_timeout, n_jobs, contexts=()):
    """The executor for ``n_jobs`` under the joblib backend in force (joblib's public API)."""
    from joblib.parallel import get_active_backend

    backend, _ = get_active_backend()
    name = type(backend).__name__
    if name == "DaskDistributedBackend":
        return DaskExecutor(data, fit_timeout, backend.client)
    n_workers = joblib.effective_n_jobs(n_jobs)
    if n_workers <= 1 or name == "SequentialBackend":
        if fit_timeout is not None and name == "LokyBackend":
            # a fit stuck where no exception reaches it can only be stopped in a process
            # of its own: fit_timeout holds with n_jobs=1 too
            return LokyExecutor(data, fit_timeout, 1, backend, contexts)
        return SequentialExecutor(data)
    if name == "ThreadingBackend":
        return ThreadExecutor(data, fit_timeout, n_workers)
    if name not in ("LokyBackend", "MultiprocessingBackend"):
        warnings.warn(
            f"NestedCV runs on loky's worker processes, not on the joblib backend {name} in "
            "force: it drives loky, threading and dask itself.",
            UserWarning,
            stacklevel=external_stacklevel(),
        )
    return LokyExecutor(data, fit_timeout, n_workers, backend, contexts)


# -- the run: one loop for one plan or many (a benchmark), whose cells share one pool of workers
# and one shipment of the data (PlansData)


class _Cache:
    """The run's side of the cache: keys, checked lookups, and giving up with a warning."""

    def __init__(self, plan):
        self.cache, self.keys, self.fit_timeout = plan.cache, None, plan.fit_timeout
        if self.cache is None:
            return
        self.check = EntryCheck(plan.scorers)
        try:
            self.keys = KeyBuilder(plan.data, plan.scorers)
        except UnhashableError as exc:
            self._give_up(exc)

    def _give_up(self, reason):
        warnings.warn(
            f"The cache is not used for this run: {reason}. Results are computed, not cached.",
            CacheWarning,
            stacklevel=external_stacklevel(),
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
        cached = self.cache.load(
            name, description, task.key, self.check, task.fingerprint_predictions
        )
        if cached is not None and self.fit_timeout is not None:
            took = cached["fit_time"] + cached["score_time"]
            if took > self.fit_timeout:
                # it ran over this run's limit: run it again under the limit (not a hit)
                cached, self.cache.hits = None, self.cache.hits - 1
        if self.cache.write_failed or not self.cache.writable:
            # stored entries stay valid (each is checked against its key); only writing stops
            return cached, None
        return cached, (self.cache.directory, name, description)


def _unbatched(finished, alone):
    """(task, result) of every task that finished; the tasks of a batch whose worker died go
    to ``alone``, to run again one by one (so the one that kills is found, and only it)."""
    for task, result in finished:
        if not isinstance(task, TaskBatch):
            yield task, result
        elif all(str(r["error"]).startswith("WorkerDiedError") for r in result):
            alone.extend(zip(task.tasks, task.entries))
        else:
            yield from zip(task.tasks, result)


@dataclass(frozen=True)
class PlanTask:
    """Task ``task`` of plan number ``index`` of :func:`run_plans`, with its plan's context."""

    index: int
    task: object
    context: object

    @property
    def key(self):
        return self.task.key


class PlansData:
    """The RunData of each plan, shipped together; an ``X`` or ``y`` that several plans share
    (every model of a data set) is stored once."""

    def __init__(self, parts):
        self.sources, self.parts, self.source_of, seen = [], [], [], {}
        for data in parts:
            refs = []
            for value in (data.X, data.y):
                if id(value) not in seen:
                    seen[id(value)] = len(self.sources)
                    self.sources.append(value)
                refs.append(seen[id(value)])
            self.source_of.append(tuple(refs))
            self.parts.append(replace(data, X=None, y=None))

    def __len__(self):
        return len(self.parts)

    def resolve(self):
        return self

    def for_workers(self):
        """A copy whose graph sources and parameters are compact (``_data.for_workers``)."""
        compact = copy.copy(self)
        compact.sources = [compact_graphs(source) for source in self.sources]
        compact.parts = [for_workers(part) for part in self.parts]
        return compact

    def part(self, index):
        x, y = self.source_of[index]
        return replace(self.parts[index], X=self.sources[x], y=self.sources[y])


def _one_context_per_kind(contexts):
    """One of ``contexts`` per kind of estimator (its class and those of its deep parameters):
    what a fresh worker unpickles first imports every module the run's tasks import, without
    shipping every cell's context to each worker."""
    kinds = {}
    for context in contexts:
        estimator = context.estimator
        params = estimator.get_params(deep=True) if hasattr(estimator, "get_params") else {}
        classes = {value if isinstance(value, type) else type(value) for value in params.values()}
        kinds.setdefault((type(estimator), frozenset(classes)), context)
    return list(kinds.values())


def run_plan(plan, *, reuse_prefix=True):
    """:func:`run_plans` of the one plan ``plan``, with its ``n_jobs`` and ``verbose``."""
    return run_plans(
        [plan], n_jobs=plan.n_jobs, verbose=plan.verbose, label="NestedCV fits",
        reuse_prefix=reuse_prefix,
    )[0]  # fmt: skip


def run_plans(plans, *, n_jobs=None, verbose=0, label="benchmark fits", reuse_prefix=True):
    """Run every task of every plan on one executor; returns one finished NestedSchedule each.

    Each plan keeps its own schedule, cache and results, so they are those it gets alone; ready
    tasks are taken from the plans in turn. ``reuse_prefix``: a bool, or one per plan; each plan
    reuses only its own fitted steps (row indices name rows of that plan's data only).
    """
    if isinstance(reuse_prefix, bool):
        reuse_prefix = [reuse_prefix] * len(plans)
    reuses = [PrefixReuse() if reuse else None for reuse in reuse_prefix]
    runs = [_PlanRun(i, p, r) for i, (p, r) in enumerate(zip(plans, reuses))]
    fit_timeout = max((p.fit_timeout for p in plans if p.fit_timeout is not None), default=None)
    contexts = [run.context for run in runs]
    executor = make_executor(PlansData([p.data for p in plans]), fit_timeout, n_jobs, contexts)
    for run in runs:  # one worker: the plan's order, not the timings' (see NestedSchedule)
        run.schedule.order_by_time = not isinstance(executor, SequentialExecutor)
    batching = AutoBatching(
        executor.n_workers,
        enabled=fit_timeout is None and not isinstance(executor, SequentialExecutor),
    )
    ready, twins = _ReadyTasks(runs), _Twins()
    alone = []  # (task, entry): tasks of a batch whose worker died, to be sent one by one
    progress = Progress(verbose, sum(r.schedule.n_expected for r in runs), label=label)
    try:
        while not ready.finished:
            while executor.capacity > 0 and (alone or ready.any):
                if alone:
                    task, entry = alone.pop(0)
                    executor.submit(task, entry, priority=ready.priority(task))
                    continue
                batch, near = [], None
                size = batching.next_size(ready.n_ready)
                shared = batching.shared_size(ready.n_ready)
                while len(batch) < shared and ready.any:
                    pair = ready.pop_near(near)
                    if pair is None:
                        if len(batch) >= size:
                            break
                        pair = ready.pop()
                    run, task = near = pair
                    cached, entry = run.cache.lookup(task, run.plan.estimator)
                    if cached is not None:
                        run.schedule.complete(task, cached)
                        progress.update(cached=True)
                    elif not twins.wait_for(entry, run, task):
                        batch.append((PlanTask(run.index, task, run.context), entry))
                _submit(executor, ready, batch)
            # tasks read from the cache can make others unneeded, as computed ones do
            _recount(progress, runs)
            if executor.in_flight == 0:
                if ready.finished or ready.any or alone:
                    continue
                raise RuntimeError("The nested run stalled: no task is ready or running.")
            for tagged, result in _unbatched(executor.wait(), alone):
                run = runs[tagged.index]
                ready.again(twins.computed(run, tagged.task))
                if result.get("cache_error"):
                    run.plan.cache.note_write_failure(result["cache_error"])
                if result.get("cache_unstored"):
                    run.plan.cache.note_unstored(*result.pop("cache_unstored"))
                run.schedule.computed += 1
                run.schedule.complete(tagged.task, result)
                batching.record(result)
                progress.update()
            _recount(progress, runs)
    except BaseException:
        executor.close(abort=True)
        raise
    finally:
        progress.close()
        for reuse in reuses:
            discard_run(reuse)  # what the caller's process stored (sequential and threads)
    executor.close()
    return [run.schedule for run in runs]


def _recount(progress, runs):
    """Tell ``progress`` how many tasks the runs now need (fewer: refits found unneeded)."""
    progress.set_total(
        sum(r.schedule.n_expected for r in runs),
        reason="where a fold's first two seeds gave the same output",
    )


class _PlanRun:
    """One plan's side of a run: its schedule, cache and the context its tasks carry."""

    def __init__(self, index, plan, reuse):
        self.index, self.plan = index, plan
        self.schedule = NestedSchedule(plan)
        self.schedule.computed = 0
        self.cache = _Cache(plan)
        self.context = TaskContext(plan.estimator, plan.scorers, plan.fit_timeout, reuse)


class _Twins:
    """Tasks identical to one being computed (the same cache entry: two models sharing a
    candidate, a data set listed twice, a candidate twice in a grid) wait for it, then are
    served by the entry it wrote: each distinct task is fitted once, whatever ``n_jobs`` and
    the order tasks finish in, as the dry run counts. A twin of a task that failed, or whose
    entry could not be written, runs itself."""

    def __init__(self):
        self._computing = {}  # entry name -> [(run, task) waiting for it]
        self._names = {}  # (plan index, task key) -> the entry name it computes

    def wait_for(self, entry, run, task):
        """Whether ``task`` (to be computed, its cache ``entry``) waits for a twin."""
        if entry is None:
            return False
        name = entry[1]
        if name in self._computing:
            self._computing[name].append((run, task))
            return True
        self._computing[name] = []
        self._names[run.index, task.key] = name
        return False

    def computed(self, run, task):
        """The ``(run, task)`` that waited for ``task`` of ``run``, just computed."""
        name = self._names.pop((run.index, task.key), None)
        return self._computing.pop(name, []) if name is not None else []


class _ReadyTasks:
    """The ready tasks of every plan, taken from the plans in turn; twins first, once the task
    they waited for is computed."""

    def __init__(self, runs):
        self.runs, self._next, self._again = runs, 0, []

    @property
    def finished(self):
        return all(run.schedule.finished for run in self.runs)

    @property
    def any(self):
        return bool(self._again) or any(run.schedule.has_ready() for run in self.runs)

    @property
    def n_ready(self):
        return len(self._again) + sum(run.schedule.n_ready for run in self.runs)

    def again(self, tasks):
        """Make ``tasks``, ``(run, task)`` taken earlier, ready again."""
        self._again.extend(tasks)

    def pop_near(self, near):
        """``(run, task)`` sharing rows and fitted steps with ``near`` (a pair taken before), or
        None; None while twins wait and where the run reuses no fitted step."""
        if near is None or self._again or near[0].context.reuse is None:
            return None
        run, task = near
        task = run.schedule.pop_near(task)
        return None if task is None else (run, task)

    def pop(self):
        """A twin made ready again, else the next ready task of the next plan that has one."""
        if self._again:
            return self._again.pop(0)
        for offset in range(len(self.runs)):
            run = self.runs[(self._next + offset) % len(self.runs)]
            if run.schedule.has_ready():
                self._next = (run.index + 1) % len(self.runs)
                return run, run.schedule.pop()
        raise IndexError("no task is ready")

    def priority(self, tagged):
        return self.runs[tagged.index].schedule.priority(tagged.task)


def _submit(executor, ready, batch):
    """Submit ``batch``, a list of (PlanTask, cache entry): one task alone, several as a batch."""
    if len(batch) == 1:
        task, entry = batch[0]
        executor.submit(task, entry, priority=ready.priority(task))
    elif batch:
        tasks, entries = zip(*batch)
        priority = max(ready.priority(t) for t in tasks)
        executor.submit(TaskBatch(tasks, entries), None, priority=priority)
