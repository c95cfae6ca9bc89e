"""Progress of a nested run: a bar on a terminal, plain lines in a log file."""

import sys
import time

__all__ = ["Progress"]


class Progress:
    """Reports finished fits out of ``total`` when ``verbose >= 1``.

    On a terminal it is a tqdm bar with an ETA. Anywhere else (a log file, a CI console,
    pytest's captured output) it writes a plain line at every tenth of the run, without the
    carriage returns and cursor escapes that make a log unreadable.
    """

    def __init__(self, verbose, total, *, stream=None, label="NestedCV fits"):
        self.verbose = verbose
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.label = label
        self.done = 0
        self._bar = None
        self._start = time.monotonic()
        self._next_line = 0.1
        if verbose >= 1 and _is_terminal(self.stream):
            from tqdm.auto import tqdm

            self._bar = tqdm(total=total, desc=label, unit="fit", file=self.stream, leave=True)
        elif verbose >= 1:
            self._line()

    def set_total(self, total):
        self.total = total
        if self._bar is not None:
            self._bar.total = total
            self._bar.refresh()

    def update(self, n=1):
        self.done += n
        if self._bar is not None:
            self._bar.update(n)
        elif self.verbose >= 1 and self.done >= self._next_line * self.total:
            while self._next_line * self.total <= self.done:
                self._next_line += 0.1
            self._line()

    def _line(self):
        elapsed = time.monotonic() - self._start
        text = f"{self.label}: {self.done}/{self.total} done, {elapsed:.1f} s elapsed"
        if 0 < self.done < self.total:
            text += f", about {elapsed / self.done * (self.total - self.done):.1f} s left"
        print(text, file=self.stream, flush=True)

    def close(self):
        if self._bar is not None:
            self._bar.close()


def _is_terminal(stream):
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
