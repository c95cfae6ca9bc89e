"""Progress over a short sequence of steps: a bar on a terminal, one line per step elsewhere."""

import sys
import time


def is_terminal(stream):
    """Whether ``stream`` is an interactive terminal (False for files, pipes, StringIO)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def progress_over(items, *, label, enabled=True, stream=None, name=str):
    """Iterate over ``items`` reporting each one: a tqdm bar on a terminal, lines elsewhere.

    Off a terminal each item gets its own line when it starts (``label: 2/3 name``), so the
    lines of other progress reports never share its line.

    Parameters
    ----------
    items : sequence
        What to iterate over (its ``len`` is the total, fixed before the first item).
    label : str
        What the items are ("models").
    enabled : bool, default=True
        Report at all.
    stream : file-like, default=None
        Where to write (standard error by default).
    name : callable, default=str
        The name of an item in its line.

    Yields
    ------
    item
        Each of ``items``, in order.

    Examples
    --------
    >>> import io
    >>> from sklearn_fair.utils import progress_over
    >>> log = io.StringIO()
    >>> for step in progress_over(["logreg", "knn"], label="models", stream=log):
    ...     pass
    >>> print(log.getvalue().split("\\n")[:2])
    ['models: 1/2 logreg', 'models: 2/2 knn']
    """
    items = list(items)
    stream = stream if stream is not None else sys.stderr
    if not enabled:
        yield from items
        return
    if is_terminal(stream):
        from tqdm.auto import tqdm

        bar = tqdm(items, desc=label, unit=label.rstrip("s") or "item", file=stream)
        for item in bar:
            bar.set_postfix_str(name(item))
            yield item
        return
    start = time.monotonic()
    for index, item in enumerate(items):
        print(f"{label}: {index + 1}/{len(items)} {name(item)}", file=stream, flush=True)
        yield item
    print(
        f"{label}: {len(items)}/{len(items)} done, {time.monotonic() - start:.1f} s elapsed",
        file=stream,
        flush=True,
    )
