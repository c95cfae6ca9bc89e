"""Progress of a nested run: a bar on a terminal, plain lines in a log file."""

import sys
import time

from ...utils import is_terminal as _is_terminal

__all__ = ["Progress"]


class Progress:
    """Reports finished fits out of ``total`` when ``verbose >= 1``: a tqdm bar with an ETA on a
    terminal; elsewhere (a log file, a CI console) one plain line at the start, every tenth of
    the run and the end, never the carriage returns that make a log unreadable. The total
    announced (the plan's upper bound) stays; tasks found unneeded later are counted as skipped,
    with the reason (:meth:`set_total`). Tasks read from the cache are counted as done and
    said apart; the time left is estimated from the computed ones alone."""

    def __init__(self, verbose, total, *, stream=None, label="NestedCV fits"):
        self.verbose = verbose
        self.total = total
        self.skipped = 0
        self.cached = 0
        self._reason = None
        self.stream = stream if stream is not None else sys.stderr
        self.label = label
        self.done = 0
        self._bar = None
        self._start = time.monotonic()
        self._next_line = 0.1
        self._closed = False
        if verbose >= 1 and _is_terminal(self.stream):
            from tqdm.auto import tqdm

            self._bar = tqdm(total=total, desc=label, unit="fit", file=self.stream, leave=True)
        elif verbose >= 1:
            self._line()

    @property
    def needed(self):
        """The tasks that will run: the announced total less those skipped."""
        return self.total - self.skipped

    def set_total(self, total, reason="not needed"):
        """Say that the run needs ``total`` tasks: fewer than announced are counted as skipped;
        more (an upper bound that was not one) raises the total, and says so."""
        if total > self.total:
            self.total = total
            if self._bar is not None:
                self._bar.total = total
                self._bar.refresh()
            elif self.verbose >= 1:
                print(f"{self.label}: the total is now {total}", file=self.stream, flush=True)
        skipped = max(self.total - total, 0)
        if skipped == self.skipped:
            return
        self.skipped, self._reason = skipped, reason
        if self._bar is not None:
            self._postfix()
        elif self.verbose >= 1:
            print(
                f"{self.label}: {skipped} of the {self.total} skipped ({reason})",
                file=self.stream,
                flush=True,
            )

    def update(self, n=1, *, cached=False):
        """Count ``n`` tasks done; ``cached``: read from the cache, so left out of the rate
        that estimates the time left."""
        self.done += n
        if cached:
            self.cached += n
        if self._bar is not None and cached:
            # tqdm's rate is (n - initial) / elapsed, or its average over the updates: a task
            # read from the cache counts there as initial, as done before the bar started
            self._bar.initial += n
            self._bar.last_print_n += n
            self._bar.n += n
            self._postfix()
        elif self._bar is not None:
            self._bar.update(n)
        elif self.verbose >= 1 and self.needed > 0 and self.done >= self._next_line * self.needed:
            while self._next_line * self.needed <= self.done:
                self._next_line += 0.1
            if self.done < self.needed:
                self._line()

    def _postfix(self):
        """The bar's note: the tasks read from the cache, and those skipped."""
        notes = [f"{self.cached} read from the cache"] if self.cached else []
        if self.skipped:
            notes.append(f"{self.skipped} skipped ({self._reason})")
        self._bar.set_postfix_str(", ".join(notes))

    def _line(self):
        elapsed = time.monotonic() - self._start
        text = f"{self.label}: {self.done}/{self.total} done"
        if self.skipped:
            text += f", {self.skipped} skipped"
        if self.cached:
            text += f", {self.cached} read from the cache"
        text += f", {elapsed:.1f} s elapsed"
        computed = self.done - self.cached
        if computed > 0 and self.done < self.needed:
            text += f", about {elapsed / computed * (self.needed - self.done):.1f} s left"
        print(text, file=self.stream, flush=True)

    def close(self):
        if self._closed:
            return
        self._closed = True
        if self._bar is not None:
            if self.skipped:
                # the bar ends where the run did: the skipped tasks count as finished work
                self._bar.update(self.skipped)
            self._bar.close()
        elif self.verbose >= 1 and self.done:
            self._line()
