"""The fits of a plan whose entries are already in the run's task cache (an earlier run's,
or a run stopped midway): the run serves them from there, unless an entry fails its checks.

An entry is looked up by the name the run gives it (NestedCV's task cache names each task
by its key) and only its file's existence is checked: nothing is read. A selection task is
in the cache or not; a refit depends on the candidate each fold selects, which is known only
when the run has selected it: a refit slot counts as cached where every candidate's refit
is, and as possibly cached where some are.
"""

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from ...model_selection._engine import UnhashableError, entry_path, task_names

__all__ = ["CachedFits", "cached_fits"]


@dataclass
class CachedFits:
    """The fits of one plan already in the task cache.

    Attributes
    ----------
    selection : list of (int, int, int)
        ``(outer fold, candidate, inner split)`` of each selection fit in the cache.
    refits : list of (int, int)
        ``(outer fold, refit index)`` of each refit in the cache whichever candidate the fold
        selects.
    maybe_refits : int
        Refits in the cache for some of the candidates the fold may select, not all.
    """

    selection: list = field(default_factory=list)
    refits: list = field(default_factory=list)
    maybe_refits: int = 0

    @property
    def n_fits(self):
        return len(self.selection) + len(self.refits)


def _entry_exists(folder, name):
    """Whether the task cache ``folder`` holds the entry ``name`` as a regular file (not a
    link) in a subfolder that is a folder (not a link), where the run's TaskCache reads it."""
    path = entry_path(folder, name)
    try:
        # the run refuses an entry whose subfolder is a link to a folder elsewhere
        parent, entry = os.lstat(path.parent), os.lstat(path)
        return stat.S_ISDIR(parent.st_mode) and stat.S_ISREG(entry.st_mode)
    except OSError:  # absent, or on no folder: the run computes the task
        return False


def cached_fits(plan, data, cache):
    """The :class:`CachedFits` of ``plan`` (a ModelPlan) on ``data`` in the task cache folder
    ``cache``; None where the run's names cannot be known here (a search run whole, data
    whose features are not read, an estimator the run does not cache) or ``cache`` is not a
    folder."""
    nested = plan.nested_plan
    try:
        if not stat.S_ISDIR(os.stat(cache).st_mode):
            return None
    except OSError:
        return None
    if plan.whole_search or nested is None or not data.complete:
        return None
    if not any(Path(cache).glob("*/*.json")):  # a folder without entries: nothing to name
        return CachedFits()
    slots = [(fold, index) for fold in range(len(plan.outer)) for index in range(plan.n_refits)]
    try:
        selection, refits = task_names(nested, slots)
    except UnhashableError:
        return None
    folder = Path(cache)
    # task_names names the selection tasks in the order of the plan's own
    keys = [task.key for fold in range(nested.n_outer) for task in nested.selection_tasks(fold)]
    found = CachedFits()
    for key, name in zip(keys, selection, strict=True):
        if _entry_exists(folder, name):
            found.selection.append((key.outer_fold, key.candidate, key.inner_split))
    for slot, names in zip(slots, refits, strict=True):
        present = sum(_entry_exists(folder, name) for name in names)
        if names and present == len(names):
            found.refits.append(slot)
        elif present:
            found.maybe_refits += 1
    return found
