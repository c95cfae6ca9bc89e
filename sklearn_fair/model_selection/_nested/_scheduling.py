"""The order in which a nested run's tasks are released and run.

Dependencies, not phases: an outer fold's refits are released as soon as *that fold's* selection
is complete, so no core waits for the slowest fold. Among the ready tasks, the one on the longest
predicted path goes first (a selection fit counts its own duration plus the refit that waits for
its fold), with durations predicted from the fits that finished, a winner's selection fits
scaled by the training size predicting its refits. A candidate not yet timed goes first, so that
every duration is known early; ties go to the lowest outer fold, so that folds complete one
after the other. Replaying measured durations (``bench_scaling.py``, the gradient-boosting
workload), a 16-worker run takes 2.9 s against 2.3 s for the best any schedule could do and
4.0 s for the faster of scikit-learn's two nested idioms. This module only decides, so the
benchmark replays durations through the very same rules. A batch takes its first task's
neighbours (:meth:`NestedSchedule.pop_near`). One worker gains nothing from the order, so it
runs the tasks in the plan's (the lowest fold first, then the kinds in the order they were
released): a model that draws from np.random then gets the same draws after the same
np.random.seed, as in scikit-learn's sequential nested idiom, whatever the fits' durations.

The seed probe (see ``_seeds.py``): each outer fold runs two refits first and keeps them when
they agree, else gets every seed. Each fold decides for itself: whether a seed changes a model
depends on its training rows (a tree breaks ties between equally good features by its seed,
and one fold's rows may hold a tie where another's do not), not only on its hyper-parameters.
"""

import heapq
from collections import defaultdict, deque

from ._reuse import prefix_group
from ._seeds import same_output as _same_output
from ._tasks import FINAL, REFIT, SEARCH, SELECTION

__all__ = ["NestedSchedule"]


class NestedSchedule:
    """Which tasks of ``plan`` are ready, in which order, and what each completion releases."""

    def __init__(self, plan):
        self.plan = plan
        self.results = {}  # task key -> result
        self.selections = {}  # fold -> selection (see _selection.select_fold)
        self._ready = {}  # kind -> deque of tasks, natural order
        self._kind_order = {}  # kind -> its place in the order kinds were first seen
        self._n_ready = 0
        self._selection_left = {}
        self._refits_released = defaultdict(set)
        # kind of duration ((SELECTION, candidate), SEARCH or REFIT) -> [sum of seconds, count]
        self._stats = {}
        self._selection_seconds = [0.0, 0]  # sum and count of all the selection durations
        # ready selection kinds, in two heaps with lazy deletion (an entry is current while its
        # version is the kind's): untimed ones by (head fold, order); timed ones by (-mean,
        # head fold, order); and the means of the timed candidates, for the waiting refit
        self._version = {}
        self._untimed = []
        self._timed = []
        self._means = []
        self._other_ready = {}  # ready refit, final and search kinds (few: one per fold)
        # training rows -> {prefix group: {selection kind: its ready task on those rows}}
        self._on_rows = {}
        self._groups = {}  # candidate -> its prefix_group
        self._refit_scale = plan.refit_scale
        self._no_fold = len(plan.outer_splits)  # where the selection on all the data ranks
        # False for one worker: tasks then run in the plan's order whatever their durations,
        # so that a model drawing from np.random gets the same draws after the same np.random.seed
        # (as scikit-learn's sequential nested idiom), not an order that timings decide
        self.order_by_time = True
        self._released = 0
        self._completed = 0
        for fold in plan.selection_folds:
            tasks = plan.selection_tasks(fold)
            self._selection_left[fold] = len(tasks)
            for task in tasks:
                self._push(task)
        self._n_selection = self._released

    @staticmethod
    def _kind(task):
        if task.key.phase == SELECTION:
            return (SELECTION, task.key.candidate)
        return (task.key.phase, task.key.outer_fold)

    def _push(self, task):
        kind = self._kind(task)
        tasks = self._ready.get(kind)
        if tasks is None:
            tasks = self._ready[kind] = deque()
            self._kind_order[kind] = len(self._kind_order)
        tasks.append(task)
        if kind[0] == SELECTION:
            groups = self._on_rows.setdefault(task.train, {})
            groups.setdefault(self._group(task), {})[kind] = task
        self._n_ready += 1
        self._released += 1
        if len(tasks) == 1:  # a new head
            if kind[0] == SELECTION:
                self._index(kind)
            else:
                self._other_ready[kind] = None

    def _head(self, kind):
        fold = self._ready[kind][0].key.outer_fold
        return self._no_fold if fold is None else fold

    def _index(self, kind):
        """(Re)file a ready selection kind under its current head and mean."""
        version = self._version.get(kind, 0) + 1
        self._version[kind] = version
        if not self._ready.get(kind):
            return
        head, order = self._head(kind), self._kind_order[kind]
        stats = self._stats.get(kind) if self.order_by_time else None
        if stats is None:
            heapq.heappush(self._untimed, (head, order, version, kind))
        else:
            heapq.heappush(self._timed, (-(stats[0] / stats[1]), head, order, version, kind))

    def _top(self, heap):
        while heap and heap[0][-2] != self._version[heap[0][-1]]:
            heapq.heappop(heap)
        return heap[0] if heap else None

    def has_ready(self):
        return self._n_ready > 0

    @property
    def n_ready(self):
        """How many tasks are ready to run."""
        return self._n_ready

    def pop(self):
        """The ready task first on the critical path (None when none is ready)."""
        if not self._n_ready:
            return None
        return self._take(self._choose())

    def _choose(self):
        """The kind whose next task runs: untimed candidates first, then the longest predicted
        path, the lowest fold, the kind seen first. Heaps keep the cost independent of the number
        of candidates; only the few ready refit, final and search kinds are compared one by one."""
        untimed = self._top(self._untimed)
        if not self.order_by_time:  # the lowest fold first, then the kind seen first
            kinds = [*self._other_ready, *([untimed[-1]] if untimed is not None else [])]
            return min(kinds, key=lambda kind: (self._head(kind), self._kind_order[kind]))
        if untimed is not None:
            return untimed[-1]
        best, kind = None, None
        timed = self._top(self._timed)
        if timed is not None:
            best, kind = (-timed[0] + self._refit_estimate(), -timed[1], -timed[2]), timed[-1]
        for other in self._other_ready:
            rank = (self.predicted_duration(other), -self._head(other), -self._kind_order[other])
            if best is None or rank > best:
                best, kind = rank, other
        return kind

    def _take(self, kind):
        tasks = self._ready[kind]
        task = tasks.popleft()
        self._n_ready -= 1
        if kind[0] == SELECTION:
            self._off_rows(task, kind)
            self._index(kind)
        elif not tasks:
            del self._other_ready[kind]
        return task

    def _off_rows(self, task, kind):
        groups = self._on_rows[task.train]
        group = self._group(task)
        del groups[group][kind]
        if not groups[group]:
            del groups[group]
            if not groups:
                del self._on_rows[task.train]

    def pop_near(self, task):
        """A ready selection task on the rows ``task`` trains on, one whose pipeline prefix is
        set as ``task``'s first (None when there is none): a batch of them lets its worker fit
        the shared steps once (``reuse_prefix``), wherever the critical path goes next."""
        if task.key.phase != SELECTION or task.train not in self._on_rows:
            return None
        group = self._group(task)
        if group is None:  # nothing reused: no reason to keep tasks together
            return None
        groups = self._on_rows[task.train]
        kinds = groups.get(group) or next(iter(groups.values()))
        kind, near = next(iter(kinds.items()))
        self._off_rows(near, kind)
        tasks = self._ready[kind]
        del tasks[next(i for i, t in enumerate(tasks) if t is near)]
        self._n_ready -= 1
        self._index(kind)
        return near

    def _group(self, task):
        candidate = task.key.candidate
        if candidate not in self._groups:
            self._groups[candidate] = prefix_group(self.plan.estimator, task.params)
        return self._groups[candidate]

    def _refit_estimate(self):
        """The refit that waits for a fold still selecting: the slowest candidate's, scaled."""
        means = self._means  # (-mean, count, kind): current while the kind's count is count
        while means and means[0][1] != self._stats[means[0][2]][1]:
            heapq.heappop(means)
        return (-means[0][0] if means else 0.0) * self._refit_scale

    def priority(self, task):
        """The task's predicted path (larger runs first), for executors that order tasks."""
        kind = self._kind(task)
        waiting = self._refit_estimate() if kind[0] == SELECTION else 0.0
        return self.predicted_duration(kind) + waiting

    @property
    def finished(self):
        return self._completed == self._released and not self._n_ready

    @property
    def n_expected(self):
        """How many tasks the run will have (an upper bound until each fold's probe has
        answered)."""
        plan = self.plan
        n_seeds = len(plan.refit_seeds)
        refits = sum(
            2 if self.seeds_agree(fold) else n_seeds for fold in range(len(plan.outer_splits))
        )
        return self._n_selection + refits + (1 if plan.final else 0)

    def _mean(self, kind):
        stats = self._stats.get(kind)
        return None if stats is None else stats[0] / stats[1]

    def predicted_duration(self, kind):
        phase, which = kind
        if phase == SELECTION and kind in self._stats:
            return self._mean(kind)
        if phase == SEARCH and SEARCH in self._stats:
            return self._mean(SEARCH)
        if phase in (REFIT, FINAL):
            selection = self.selections.get(which)
            if selection is not None:
                winner = (SELECTION, selection["best_index"])
                if winner in self._stats:
                    return self._mean(winner) * self._refit_scale
            if REFIT in self._stats:
                return self._mean(REFIT)
        total, count = self._selection_seconds
        return total / count if count else 0.0

    def complete(self, task, result):
        """Record ``result`` of ``task``; release what it unblocks."""
        self.results[task.key] = result
        self._completed += 1
        phase, fold = task.key.phase, task.key.outer_fold
        if not result.get("cached") and not result["error"]:
            kind = {SELECTION: self._kind(task), SEARCH: SEARCH}.get(phase, REFIT)
            stats = self._stats.setdefault(kind, [0.0, 0])
            stats[0] += result["fit_time"]
            stats[1] += 1
            if phase == SELECTION:
                self._selection_seconds[0] += result["fit_time"]
                self._selection_seconds[1] += 1
                self._index(kind)
                heapq.heappush(self._means, (-(stats[0] / stats[1]), stats[1], kind))
        if phase in (SELECTION, SEARCH):
            self._selection_left[fold] -= 1
            if self._selection_left[fold] == 0:
                self._fold_selected(fold)
        elif phase == REFIT and self.seeds_agree(fold) is False:
            self._release_refits(fold, range(len(self.plan.refit_seeds)))

    def _fold_selected(self, fold):
        plan = self.plan
        self.selections[fold] = plan.select(fold, self.results)
        if fold is None:  # the selection on all the data: the final fit
            self._push(plan.final_task(self.selections[None]))
            return
        if self.selections[fold].get("failed"):  # no candidate selected: no refit (h5)
            return
        # a probing fold trains two refits first; the others wait for their verdict
        self._release_refits(fold, range(2 if plan.probe else len(plan.refit_seeds)))

    def _release_refits(self, fold, indices):
        for index in indices:
            if index not in self._refits_released[fold]:
                self._refits_released[fold].add(index)
                self._push(self.plan.refit_task(fold, self.selections[fold], index))

    def seeds_agree(self, fold):
        """Whether ``fold``'s first two refits gave the same output, so that it keeps those two
        (None: not both done, or no probe); two that failed, at fit or at scoring, show
        nothing (:func:`~._seeds.same_output`)."""
        if not self.plan.probe:
            return None
        first, second = (self.results.get(self.plan.refit_key(fold, i)) for i in (0, 1))
        if first is None or second is None:
            return None
        return bool(_same_output(first, second))

    def refits_of(self, fold):
        """The keys of the refits that ran for ``fold``, in seed order."""
        return [self.plan.refit_key(fold, i) for i in sorted(self._refits_released[fold])]
