"""How many tasks go to a worker per round trip, and how many wait ahead of the workers.

Short fits are batched as joblib's auto-batching does: the batch grows while a task (a moving
average of fit and score time) takes less than a fraction of :data:`TARGET_SECONDS`, up to
:data:`MAX_BATCH`, never beyond an even share of the ready tasks (so no worker waits while
another holds a long batch), cut from the schedule's order. A task is followed in its batch by
the ready tasks that train on the same rows and share the steps of its pipeline, for up to
:data:`SHARED_SECONDS`, so that one worker fits those steps once (``reuse_prefix``).
:data:`PREFETCH` more tasks than workers are kept in flight, so that a worker that finishes
finds its next task waiting. Neither with ``fit_timeout``: a limit is per fit, and the
executors time a fit from its submission.
"""

__all__ = ["AutoBatching", "MAX_BATCH", "PREFETCH", "SHARED_SECONDS", "TARGET_SECONDS"]

#: The duration a batch aims at: long against a round trip (about a millisecond), short
#: against a run, so that batching costs the critical-path order nothing that matters.
TARGET_SECONDS = 0.1
MAX_BATCH = 64
#: The duration (at the tasks' mean) up to which tasks sharing fitted steps go in one batch:
#: longer than a batch of strangers, as each after the first skips the steps it shares, and
#: never more than a quarter of an even share of the ready tasks.
SHARED_SECONDS = 1.0
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

    def shared_size(self, n_ready):
        """How many of the ``n_ready`` tasks a batch takes when they share fitted steps."""
        if not self.enabled or self.mean is None:
            return self.next_size(n_ready)
        ideal = int(SHARED_SECONDS / self.mean) if self.mean > 0 else MAX_BATCH
        share = min(MAX_BATCH, ideal, n_ready // (4 * self.n_workers))
        return max(self.next_size(n_ready), share)
