"""The warnings a task's fit and scoring raise, recorded where the task runs and shown once per
run in the caller's process, whether the task ran there, in a worker process, in a thread of a
pool (the threading backend, Dask's workers) or was read from the cache: a ConvergenceWarning
is not lost in a worker, nor left out of a run served from the cache.

A task records under the filters in force (one the user turned into an error still raises).
In the main thread of its process (the caller's, or a loky worker's) it records as
``warnings.catch_warnings(record=True)`` does; in another thread, where that is not
thread-safe before Python 3.14, through a ``warnings.showwarning`` installed once that keeps
what each recording thread raises apart, and passes on what other threads raise. Warnings
raised in threads a fit starts itself show as they are raised.
A cache entry holds at most :data:`MAX_RECORDED` of them, each message at most
:data:`MAX_MESSAGE` characters; a category is shown as itself only where the caller's process
has imported it (nothing a cache file names is imported), else as a UserWarning naming it.
What a part of the task raises is also told apart, while it is recorded
(:func:`warnings_raised_inside`): the warnings of each outer test score.
"""

import functools
import sys
import threading
import warnings
from contextlib import contextmanager

__all__ = [
    "recorded_warnings",
    "replay_warnings",
    "warnings_problem",
    "warnings_raised_inside",
]

MAX_RECORDED = 20
MAX_MESSAGE = 4000
# a recorded warning: [its category's module, the category, message, file, line, the module
# that raised it]
_FIELD_TYPES = (str, str, str, str, int, str)


@contextmanager
def recorded_warnings(result):
    """Record the distinct warnings raised inside into ``result["warnings"]`` (the key left out
    where none was)."""
    if threading.current_thread() is not threading.main_thread():
        with _recorded_in_thread() as recorded:
            try:
                yield
            finally:
                if recorded:
                    result["warnings"] = recorded
        return
    with warnings.catch_warnings(record=True) as caught:  # the filters in force still apply
        outer, _recording.log = getattr(_recording, "log", None), caught
        try:
            yield
        finally:
            _recording.log = outer
            recorded = []
            for w in caught:
                _add(recorded, w.message, w.category, w.filename, w.lineno)
            if recorded:
                result["warnings"] = recorded


def _add(recorded, message, category, filename, lineno):
    """Append the warning to ``recorded`` unless it is there or ``recorded`` is full."""
    item = [category.__module__, category.__qualname__, str(message)[:MAX_MESSAGE],
            str(filename), int(lineno), _module_named(str(filename))]  # fmt: skip
    if item not in recorded and len(recorded) < MAX_RECORDED:
        recorded.append(item)


# what the current thread records into (None: it does not record)
_recording = threading.local()
_install_lock = threading.Lock()


@contextmanager
def _recorded_in_thread():
    """Yield the list the warnings that this thread shows are recorded into, while inside."""
    with _install_lock:
        if not getattr(warnings.showwarning, "_sklearn_fair_recorder", False):
            warnings.showwarning = _recorder(warnings.showwarning)
    outer, recorded = getattr(_recording, "recorded", None), []
    outer_log = getattr(_recording, "log", None)
    _recording.recorded, _recording.log = recorded, []
    # as catch_warnings does: a warning a previous task showed is not hidden by the registries
    # of the "default", "once" and "module" actions
    _filters_mutated()
    try:
        yield recorded
    finally:
        _recording.recorded, _recording.log = outer, outer_log


def _recorder(previous):
    """A ``warnings.showwarning`` recording what a recording thread shows; the others' warnings
    go to ``previous``. One per install, so that a ``previous`` wrapping an older one (a
    library's ``showwarning`` installed later) cannot call back into itself."""

    def showwarning(message, category, filename, lineno, file=None, line=None):
        recorded = getattr(_recording, "recorded", None)
        if recorded is None:
            return previous(message, category, filename, lineno, file, line)
        _add(recorded, message, category, filename, lineno)
        _recording.log.append(warnings.WarningMessage(message, category, filename, lineno))
        # the registries now mark it shown for the whole process: let a task running in
        # another thread, which raises it too, record it in its own result (cache entry)
        _filters_mutated()

    showwarning._sklearn_fair_recorder = True
    return showwarning


@contextmanager
def warnings_raised_inside(category):
    """Yield a list that holds, on leaving, the distinct messages of the warnings of
    ``category`` raised inside while a task records its warnings (:func:`recorded_warnings`,
    which records them too), in any thread, also where a filter in force ignores them
    (:func:`_seen_though_ignored`; not in a thread of a pool, where they stay ignored);
    empty outside a task. One the task raised before (the same text at the same line) counts
    again: the registries of the "default" and "module" actions are reset on entering."""
    messages = []
    log = getattr(_recording, "log", None)
    if log is None:
        yield messages
        return
    start = len(log)
    _filters_mutated()
    try:
        with _seen_though_ignored(category):
            yield messages
    finally:
        for shown in log[start:]:
            text = str(shown.message)[:MAX_MESSAGE]
            if issubclass(shown.category, category) and text not in messages:
                messages.append(text)


@contextmanager
def _seen_though_ignored(category):
    """Inside, warnings of ``category`` are recorded even where a filter in force ignores
    them (a session that silences scikit-learn's warnings still gets its outer scores'
    notes; their replay still ignores them), unless a filter turns them into errors, which
    must still raise. In the main thread only: the filters are the process's, and a task in
    another thread must not see them changed."""
    if threading.current_thread() is not threading.main_thread() or any(
        action == "error" and issubclass(category, filtered)
        for action, _, filtered, _, _ in warnings.filters
    ):
        yield
        return
    with warnings.catch_warnings():  # the filters restored on leaving; shown into the log
        warnings.simplefilter("always", category)
        yield


def _filters_mutated():
    mutated = getattr(warnings, "_filters_mutated", None)
    if mutated is not None:
        mutated()


def warnings_problem(recorded):
    """Why a cache entry's ``warnings`` cannot be replayed (None if they can)."""
    if not isinstance(recorded, list) or len(recorded) > MAX_RECORDED:
        return f"warnings is not a list of at most {MAX_RECORDED}"
    for item in recorded:
        if not (
            isinstance(item, list)
            and len(item) == len(_FIELD_TYPES)
            and all(type(v) is kind for v, kind in zip(item, _FIELD_TYPES))
            and len(item[2]) <= MAX_MESSAGE
        ):
            return "a warning is not [module, category, message, file, line, its module]"
    return None


def replay_warnings(results):
    """Show each distinct warning that the tasks of ``results`` recorded, once, through the
    caller's filters, at the line that raised it."""
    shown = set()
    for result in results:
        for item in result.get("warnings") or ():
            module, name, message, filename, lineno, raised_in = item
            if tuple(item) in shown:
                continue
            shown.add(tuple(item))
            category = _category(module, name)
            if category is None:
                category, message = UserWarning, f"{module}.{name}: {message}"
            # by the module that raised it, as a filter on module="sklearn" matches it
            warnings.warn_explicit(message, category, filename, lineno, module=raised_in or None)


@functools.lru_cache(maxsize=256)
def _module_named(filename):
    """The name of the imported module whose file is ``filename`` ("" if none)."""
    for name, module in list(sys.modules.items()):
        if getattr(module, "__file__", None) == filename:
            return name
    return ""


def _category(module_name, qualname):
    """The warning class named, where the caller's process has imported its module."""
    value = sys.modules.get(module_name)
    for part in qualname.split("."):
        value = getattr(value, part, None)
    if isinstance(value, type) and issubclass(value, Warning):
        return value
    return None
