"""A time limit for one fit, in whatever thread or process it runs.

The limit is enforced from a watchdog thread, which raises :class:`FitTimeoutError` inside the
fitting thread (``PyThreadState_SetAsyncExc``). This works in the main thread of a loky worker,
in a Dask worker's thread and in the caller's own thread alike. The exception arrives at the next
Python instruction, so a fit stuck for a long time inside one compiled call is stopped when that
call returns; the loky runner also kills a worker that overruns its limit by far.
"""

import ctypes
import threading
from contextlib import contextmanager

__all__ = ["FitTimeoutError", "time_limit"]


class FitTimeoutError(TimeoutError):
    """A fit that ran over NestedCV's ``fit_timeout``."""


@contextmanager
def time_limit(seconds, what):
    """Raise FitTimeoutError in this thread if the block runs longer than ``seconds``."""
    if seconds is None:
        yield
        return
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
        yield
    except FitTimeoutError:
        raise FitTimeoutError(f"The {what} ran over fit_timeout={seconds} s.") from None
    finally:
        with lock:
            state["done"] = True
            if state["fired"]:
                # the block ended as the limit passed: withdraw the exception if still pending
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target), None)
        timer.cancel()
