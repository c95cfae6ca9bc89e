"""The machine's load around each figure a benchmark measures (issue 35.5).

Every script in ``benchmarks/`` prints and saves each figure with the load average before and
after it was taken (``os.getloadavg()``: 1, 5 and 15 minutes), and says when it was taken on a
loaded machine: other jobs then shared the cores, so its seconds (and a parallel speed-up) are
not a quiet machine's; only ratios measured side by side, interleaved, still compare::

    from _machine import Load

    with Load(workers=2) as load:
        seconds = measure()
    print(f"NestedCV {seconds:.2f} s {load}")  # NestedCV 3.30 s (load 0.41 -> 1.12)
    figures["nested"] = {"seconds": seconds, **load.fields()}

A figure is marked loaded when the 1-minute load exceeded :data:`LOADED_PER_CORE` per core
before it, or after it by more than the measurement's own busy processes (``workers``) add.
"""

import os

__all__ = ["LOADED_PER_CORE", "Load", "load_average", "loaded_note"]

#: The 1-minute load per core above which a machine is loaded (1.5 on two cores).
LOADED_PER_CORE = 0.75


def load_average():
    """The load average over 1, 5 and 15 minutes, rounded to 0.01."""
    return [round(value, 2) for value in os.getloadavg()]


class Load:
    """The load before and after a measurement: a context manager, or :meth:`stop` by hand.

    ``workers``: how many processes the measurement itself keeps busy (its share of the load
    after it, not counted as other jobs').
    """

    def __init__(self, workers=1):
        self.workers = workers
        self.before, self.after = load_average(), None

    def __enter__(self):
        self.before, self.after = load_average(), None
        return self

    def __exit__(self, *exc_info):
        self.stop()

    def stop(self):
        self.after = load_average()
        return self

    @property
    def loaded(self):
        """Whether other jobs shared the machine during the measurement."""
        limit = LOADED_PER_CORE * (os.cpu_count() or 1)
        after = self.after or self.before
        return self.before[0] > limit or after[0] > limit + self.workers

    def fields(self):
        """What a results file stores with the figure."""
        return {"load_before": self.before, "load_after": self.after, "loaded": self.loaded}

    def __str__(self):
        after = self.after or self.before
        text = f"(load {self.before[0]:.2f} -> {after[0]:.2f}"
        return text + ("; LOADED machine: compare ratios only)" if self.loaded else ")")


def loaded_note(loads):
    """A sentence for a results file: how many of ``loads`` were taken on a loaded machine.

    ``loads``: Load objects, or results (dicts, lists) in which every dict with a ``loaded``
    key is a figure's :meth:`Load.fields`, searched through.
    """
    flags = list(_loaded_flags(loads))
    loaded = sum(flags)
    if not loaded:
        return "every figure was taken on a quiet machine"
    return (
        f"{loaded} of {len(flags)} figures were taken on a loaded machine (1-minute load above "
        f"{LOADED_PER_CORE} per core): their seconds are not a quiet machine's; compare ratios "
        "measured side by side only"
    )


def _loaded_flags(value):
    if isinstance(value, Load):
        yield value.loaded
    elif isinstance(value, dict):
        if isinstance(value.get("loaded"), bool):
            yield value["loaded"]
        for item in value.values():
            yield from _loaded_flags(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _loaded_flags(item)
