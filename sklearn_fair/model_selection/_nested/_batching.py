"""How many tasks go to a worker per round trip, and how many wait ahead of the workers.

Short fits are batched as joblib's auto-batching does: the tasks' measured durations (fit and
score time, a moving average) decide the batch size, which grows while a task takes less than
a fraction of :data:`TARGET_SECONDS`, up to :data:`MAX_BATCH`, and never beyond an even share of
the tasks ready (so no worker waits while another holds a long batch). Batches are cut from the
schedule's order, so a batch is the next few tasks on the critical path. Fits with a time limit
are never batched (a limit is per fit, and a batch would outlast it).

:data:`PREFETCH` more tasks than there are workers are kept in flight, so a worker that
finishes finds its next task already waiting instead of waiting for the caller to hear of the
finish, choose and send one; none with ``fit_timeout`` (the executors time a fit from its
submission, and a task waiting in the queue would seem to overrun).
"""

__all__ = ["AutoBatching", "MAX_BATCH", "PREFETCH", "TARGET_SECONDS"]

#: The duration a batch aims at: long against a round trip (about a millisecond), short
#: against a run, so that batching costs the critical-path order nothing that matters.
TARGET_SECONDS = 0.1
MAX_BATCH = 64
PREFETCH = 1
_SMOOTHING = 0.3


class AutoBatching:
    """The size of the next batch, from the durations of the tasks that finished."""

    def __init__(self, n_workers, enabled=True):
        self.n_workers = max(1, n_workers)
        self.enabled = enabled
        self.mean = None  # moving average of a task's seconds
        self.size = 1

    def record(self, result):
        """Take the duration of a computed task (not one read from the cache) into account."""
        if not self.enabled or result.get("cached"):
            return
        seconds = result["fit_time"] + result["score_time"]
        if self.mean is None:
            self.mean = seconds
        else:
            self.mean = (1 - _SMOOTHING) * self.mean + _SMOOTHING * seconds
        ideal = int(TARGET_SECONDS / self.mean) if self.mean > 0 else MAX_BATCH
        self.size = min(MAX_BATCH, max(1, ideal))

    def next_size(self, n_ready):
        """How many of the ``n_ready`` tasks the next round trip takes."""
        if not self.enabled:
            return 1
        return max(1, min(self.size, n_ready // self.n_workers))
