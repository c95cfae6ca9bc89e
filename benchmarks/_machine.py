"""The machine's load around each figure a benchmark measures (issue 35.5).

Every script in ``benchmarks/`` prints and saves each figure with the load average before and
after it was taken (``os.getloadavg()``: 1, 5 and 15 minutes), and says when it was taken on a
loaded machine: other jobs then shared the cores, so its seconds (and a parallel speed-up) are
not a quiet machine's; only ratios measured side by side, interleaved, still compare::

    from _machine import Load

    with Load(workers=2) as load:
        seconds = measure()
    print(f"NestedCV {seconds:.2f} s {load}")
    # NestedCV 3.30 s (load 0.41 -> 1.12; other jobs 0.01 cores)
    figures["nested"] = {"seconds": seconds, **load.fields()}

and records the run with them: ``{**run_fields(), "load": whole.fields(), "loaded_machine":
loaded_note(figures), ...}`` (the command, the versions, the cores; ``whole`` a Load of the
whole run).

On Linux with psutil, a figure is marked loaded when other jobs used more than
:data:`OTHER_CORES` of a core on average while it was taken: the CPU time all processes spent
(``/proc/stat``) minus that of this process and its children, live (psutil) or ended
(``os.times``), over the wall time. A child killed with :func:`kill_process_group` counts as
this script's own with its whole group: its workers, orphaned by the kill, are reaped by no
process of this tree, and ``os.times`` would never count them. The load average cannot tell
them apart: after a figure whose two workers kept both cores busy, the next figure starts at a
1-minute load of about 1.5 although nothing else runs. For a figure shorter than
:data:`MIN_SECONDS`, or where CPU time cannot be read, a figure is marked loaded when the
1-minute load exceeded :data:`LOADED_PER_CORE` per core before it, or after it by more than the
measurement's own busy processes (``workers``) add.
"""

import os
import platform
import shlex
import signal
import sys
import time
from pathlib import Path

__all__ = [
    "LOADED_PER_CORE",
    "MIN_SECONDS",
    "OTHER_CORES",
    "Load",
    "kill_process_group",
    "load_average",
    "loaded_note",
    "run_fields",
]

REPO = Path(__file__).resolve().parents[1]

#: The 1-minute load per core above which a machine is loaded (1.5 on two cores), where the
#: CPU time of other jobs cannot be measured.
LOADED_PER_CORE = 0.75

#: The cores other jobs may keep busy on average while a figure is taken, on a quiet machine.
OTHER_CORES = 0.25

#: The shortest figure measured by CPU time: the kernel counts it in ticks of 10 ms, too coarse
#: for a figure of a few tens of ms (the load average rule decides for those).
MIN_SECONDS = 1.0

# CPU seconds of the processes that kill_process_group killed and no process of this tree
# reaps: counted as this script's own by _cpu_seconds.
_killed_cpu_seconds = 0.0


def run_fields(packages=(), argv=None):
    """What a results file records of the run besides its figures.

    ``packages``: distributions beyond Python, sklearn-fair, scikit-learn, NumPy, SciPy and
    joblib whose versions matter (``"torch"``, ``"pandas"``); ``argv``: the arguments the
    script's ``main`` parsed (default: the command line's).

    Returns ``command`` (to rerun it from the repository root), ``versions``, ``cpu_count``
    (the cores) and ``platform``.
    """
    from sklearn_fair.utils import package_versions

    script = Path(sys.argv[0])
    script = os.path.relpath(script.resolve(), REPO) if script.is_file() else str(script)
    return {
        "command": shlex.join(["python", script, *(sys.argv[1:] if argv is None else argv)]),
        "versions": package_versions(packages),
        "cpu_count": os.cpu_count(),
        "platform": platform.platform(),
    }


def load_average():
    """The load average over 1, 5 and 15 minutes, rounded to 0.01."""
    return [round(value, 2) for value in os.getloadavg()]


def _cpu_seconds():
    """(wall, CPU seconds of every process, CPU seconds of this process and its children), or
    None where they cannot be read (not Linux, no psutil)."""
    try:
        import psutil

        with open("/proc/stat") as file:
            fields = [int(value) for value in file.readline().split()[1:9]]
    except (ImportError, OSError, ValueError):
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields
    busy = (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")
    times = os.times()
    own = times.user + times.system + times.children_user + times.children_system
    for child in psutil.Process().children(recursive=True):
        try:
            cpu = child.cpu_times()
        except psutil.Error:  # ended meanwhile: counted once reaped, by os.times
            continue
        own += cpu.user + cpu.system + cpu.children_user + cpu.children_system
    return time.monotonic(), busy, own + _killed_cpu_seconds


def kill_process_group(process):
    """SIGKILL a child and every process of its group, counting their CPU time as this
    script's own.

    ``process``: a ``subprocess.Popen`` started with ``start_new_session=True`` (the leader of
    its process group); waited for. The group is stopped first, so that the CPU time read of
    each member is all it used: once killed, the child's workers are orphans that no process
    of this tree reaps, and a :class:`Load` would count their time as other jobs'.
    """
    global _killed_cpu_seconds
    try:
        import psutil
    except ImportError:  # then no Load reads CPU time (_cpu_seconds): nothing to count
        psutil = None
    group = process.pid  # a session's leader leads its process group
    os.killpg(group, signal.SIGSTOP)
    used = 0.0
    for member in psutil.process_iter() if psutil is not None else ():
        try:
            # the child itself is counted by os.times once reaped
            if member.pid == process.pid or os.getpgid(member.pid) != group:
                continue
            cpu = member.cpu_times()
        except (OSError, psutil.Error):  # ended meanwhile, or not ours to read
            continue
        used += cpu.user + cpu.system + cpu.children_user + cpu.children_system
    os.killpg(group, signal.SIGKILL)
    process.wait()  # the child itself: os.times counts it once reaped
    _killed_cpu_seconds += used


class Load:
    """The load before and after a measurement: a context manager, or :meth:`stop` by hand.

    ``workers``: how many processes the measurement itself keeps busy (its share of the load
    after it, not counted as other jobs'; used only where other jobs' CPU time cannot be read).
    """

    def __init__(self, workers=1):
        self.workers = workers
        self._start()

    def _start(self):
        self.before, self.after, self.other_cores = load_average(), None, None
        self._cpu = _cpu_seconds()

    def __enter__(self):
        self._start()
        return self

    def __exit__(self, *exc_info):
        self.stop()

    def stop(self):
        self.after = load_average()
        end = _cpu_seconds()
        if self._cpu is not None and end is not None and end[0] - self._cpu[0] >= MIN_SECONDS:
            wall, busy, own = (b - a for a, b in zip(self._cpu, end))
            self.other_cores = round(max(busy - own, 0.0) / wall, 3)
        return self

    @property
    def loaded(self):
        """Whether other jobs shared the machine during the measurement."""
        if self.other_cores is not None:
            return self.other_cores > OTHER_CORES
        limit = LOADED_PER_CORE * (os.cpu_count() or 1)
        after = self.after or self.before
        return self.before[0] > limit or after[0] > limit + self.workers

    def fields(self):
        """What a results file stores with the figure."""
        return {
            "load_before": self.before,
            "load_after": self.after,
            "other_jobs_cores": self.other_cores,
            "loaded": self.loaded,
        }

    def __str__(self):
        after = self.after or self.before
        text = f"(load {self.before[0]:.2f} -> {after[0]:.2f}"
        if self.other_cores is not None:
            text += f"; other jobs {self.other_cores:.2f} cores"
        return text + ("; LOADED machine: compare ratios only)" if self.loaded else ")")


def loaded_note(loads):
    """A sentence for a results file: how many of ``loads`` were taken on a loaded machine.

    ``loads``: Load objects, or results (dicts, lists) in which every dict with a ``loaded``
    key is a figure's :meth:`Load.fields`, searched through.
    """
    flags = list(_loaded_flags(loads))
    loaded = sum(flags)
    if not flags:
        return "the load was not recorded"
    if not loaded:
        return "every figure was taken on a quiet machine"
    return (
        f"{loaded} of {len(flags)} figures were taken on a loaded machine (other jobs kept "
        f"more than {OTHER_CORES} of a core busy, or where that cannot be read, a 1-minute load "
        f"above {LOADED_PER_CORE} per core): their seconds are not a quiet machine's; compare "
        "ratios measured side by side only"
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
