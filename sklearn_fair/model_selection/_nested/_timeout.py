"""A time limit for one fit, in whatever thread or process it runs; and workers that end
with the process that started them.

In a process's main thread (where a loky worker runs its tasks) the limit is a real-time timer
(``signal.setitimer``), whose signal interrupts blocking calls such as ``time.sleep`` too.
Measured: an exception sent with ``PyThreadState_SetAsyncExc`` does not stop ``time.sleep(3)``
before its 3 s; the timer's signal stops it at the limit. In any other thread (Dask's, the
threading backend's) a watchdog raises :class:`FitTimeoutError` in the fitting thread with
``PyThreadState_SetAsyncExc``, at its next Python instruction. A fit stuck in one compiled call
is beyond both: the loky runner kills its worker; a thread cannot be killed.

A Ctrl-C that a fit catches (scikit-learn's MLPClassifier, skorch's NeuralNet and so the graph
models end training on a KeyboardInterrupt and return the model trained so far) is noticed the
same way, in a process's main thread, the only one Python delivers SIGINT to: a fit in another
thread never sees it, so cannot catch it.
"""

import ctypes
import os
import signal
import threading
from contextlib import contextmanager

from ...exceptions import FitTimeoutError

__all__ = ["FitTimeoutError", "interrupt_not_caught", "time_limit", "watch_parent"]


@contextmanager
def time_limit(seconds, what):
    """Raise FitTimeoutError in this thread if the block runs longer than ``seconds``; after it,
    if the block caught the one raised in it and returned."""
    if seconds is None:
        yield
        return
    in_main = threading.current_thread() is threading.main_thread()
    limit = _signal_limit if in_main and hasattr(signal, "setitimer") else _thread_limit
    try:
        with limit(seconds) as state:
            yield
    except FitTimeoutError:
        raise FitTimeoutError(f"The {what} ran over fit_timeout={seconds} s.") from None
    if state["fired"]:  # it caught the interruption (``except Exception``) and went on
        raise FitTimeoutError(
            f"The {what} ran over fit_timeout={seconds} s (it caught the interruption and "
            "returned, so what it returned is cut short)."
        )


@contextmanager
def interrupt_not_caught(what):
    """Raise KeyboardInterrupt after the block if a Ctrl-C (SIGINT) raised an exception inside
    it that the block caught, whether it then returned or raised another exception: what it
    returned was cut short, and must be neither scored, recorded nor cached. The handler in
    force still handles the signal (KeyboardInterrupt, as before); it is back in place after
    the block. Outside a process's main thread, or where SIGINT has no Python handler (ignored,
    or the default action that ends the process), the block runs as it is."""
    previous = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or not callable(previous):
        yield
        return
    raised = []

    def note(signum, frame):
        try:
            previous(signum, frame)
        except BaseException as exc:
            raised.append(exc)
            raise

    signal.signal(signal.SIGINT, note)
    try:
        yield
    except BaseException as exc:
        if not raised or any(exc is r for r in raised):
            raise
        raise _interrupted(what) from exc
    finally:
        signal.signal(signal.SIGINT, previous)
    if raised:
        raise _interrupted(what)


def _interrupted(what):
    return KeyboardInterrupt(
        f"Ctrl-C interrupted the {what}, which caught the KeyboardInterrupt and went on: what "
        "it returned is cut short, so it is neither scored nor cached."
    )


@contextmanager
def _signal_limit(seconds):
    state = {"done": False, "fired": False}

    def interrupt(signum, frame):
        if not state["done"]:
            state["fired"] = True
            raise FitTimeoutError

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield state
    finally:
        state["done"] = True
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextmanager
def _thread_limit(seconds):
    target = threading.get_ident()
    lock = threading.Lock()
    state = {"done": False, "fired": False}

    def interrupt():
        with lock:
            if state["done"]:
                return
            state["fired"] = True
            ctypes.pythonapi.PyThreadState_SetAsyncExc(
                ctypes.c_ulong(target), ctypes.py_object(FitTimeoutError)
            )

    timer = threading.Timer(seconds, interrupt)
    timer.daemon = True
    timer.start()
    try:
        yield state
    finally:
        with lock:
            state["done"] = True
            if state["fired"]:
                # the block ended as the limit passed: withdraw the exception if still pending
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target), None)
        timer.cancel()


_watched = {"pid": None}


def watch_parent(parent=None, interval=0.25):
    """In a loky worker: end it (``os._exit``) within a second of the death of ``parent`` (the
    pid each task carries; None: the current parent), which loky's workers would otherwise
    outlive until their idle timeout. A daemon thread polls ``os.getppid()``, which changes
    when the worker is adopted. Installed once per process; a no-op outside loky workers."""
    import multiprocessing

    if not multiprocessing.current_process().name.startswith("LokyProcess"):
        return False
    if parent is None:
        parent = os.getppid()
    if os.getppid() != parent:
        os._exit(1)  # orphaned before it started: nobody will ever read what it does
    if _watched["pid"] == os.getpid():
        return True
    _watched["pid"] = os.getpid()

    def watch():
        import time

        while True:
            time.sleep(interval)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="sklearn-fair-parent-watch", daemon=True).start()
    return True
