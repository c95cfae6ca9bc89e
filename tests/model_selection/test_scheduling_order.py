"""Issue 27.3: the scheduler's own cost does not grow with the number of candidates, and its
order is the documented critical-path rule's, checked against a plain reimplementation."""

import heapq
import itertools

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV
from sklearn_fair.model_selection._nested._planning import make_plan
from sklearn_fair.model_selection._nested._scheduling import NestedSchedule
from sklearn_fair.model_selection._nested._tasks import FINAL, REFIT, SEARCH, SELECTION

X, y = make_classification(n_samples=80, n_features=4, random_state=0)


class ReferenceSchedule(NestedSchedule):
    """The rule as documented, computed from scratch at every pop: scan every ready kind; rank
    it (untimed candidate first, then predicted path, then lowest head fold; max() keeps the
    first kind seen among equals); a selection fit's path is its candidate's mean duration
    plus the waiting refit (the slowest candidate's mean, scaled); a refit's the winner's mean
    scaled, else the refits' mean, else the selection fits' mean."""

    def __init__(self, plan):
        self.durations = {}  # kind of duration -> list of seconds
        super().__init__(plan)

    def complete(self, task, result):
        if not result.get("cached") and not result["error"]:
            phase = task.key.phase
            kind = {SELECTION: (SELECTION, task.key.candidate), SEARCH: SEARCH}.get(phase, REFIT)
            self.durations.setdefault(kind, []).append(result["fit_time"])
        super().complete(task, result)

    def mean(self, kind):
        values = self.durations.get(kind)
        return sum(values) / len(values) if values else None

    def reference_duration(self, kind):
        phase, which = kind
        if phase == SELECTION and self.mean(kind) is not None:
            return self.mean(kind)
        if phase == SEARCH and self.mean(SEARCH) is not None:
            return self.mean(SEARCH)
        if phase in (REFIT, FINAL):
            selection = self.selections.get(which)
            if selection is not None:
                winner = self.mean((SELECTION, selection["best_index"]))
                if winner is not None:
                    return winner * self.plan.refit_scale
            if self.mean(REFIT) is not None:
                return self.mean(REFIT)
        every = [t for k, v in self.durations.items() if isinstance(k, tuple) for t in v]
        return sum(every) / len(every) if every else 0.0

    def _choose(self):
        means = [self.mean(k) for k in self.durations if isinstance(k, tuple)]
        waiting = max(means, default=0.0) * self.plan.refit_scale
        n_outer = len(self.plan.outer_splits)

        def rank(kind):
            untimed = kind[0] == SELECTION and self.mean(kind) is None
            path = self.reference_duration(kind) + (waiting if kind[0] == SELECTION else 0.0)
            head = self._ready[kind][0].key.outer_fold
            return (untimed, path, -(n_outer if head is None else head))

        return max((k for k, tasks in self._ready.items() if tasks), key=rank)


def make(n_candidates=6, n_refits=2, final=False, outer_cv=4, inner_cv=2):
    nested = NestedCV(
        DecisionTreeClassifier(),
        {"max_depth": list(range(1, n_candidates + 1))},
        outer_cv=outer_cv,
        inner_cv=inner_cv,
        n_refits=n_refits,
        random_state=0,
    )
    return make_plan(nested, X, y, None, {}, final=final, return_estimator=False, owner="NestedCV")


def replay(schedule, n_workers, seconds, outcome=lambda key: {}):
    """Run ``schedule`` on a simulated clock; returns the keys in the order they were popped."""
    popped, running, now, order = [], [], 0.0, itertools.count()
    while not schedule.finished:
        while len(running) < n_workers and schedule.has_ready():
            task = schedule.pop()
            popped.append(task.key)
            heapq.heappush(running, (now + seconds(task.key), next(order), task))
        now, _, task = heapq.heappop(running)
        extra = outcome(task.key)
        result = {
            "key": task.key,
            "scores": {"score": float(task.key.candidate or 0) % 3},
            "fit_time": seconds(task.key),
            "score_time": 0.0,
            "error": None,
            "predictions": extra.pop("predictions", "same"),
            **extra,
        }
        schedule.complete(task, result)
    return popped


def recorded(seed):
    """Durations as measured fits have them: per candidate, with noise, refits longer."""
    rng = np.random.default_rng(seed)
    base = rng.lognormal(0, 1, 64)
    noise = {}

    def seconds(key):
        if key not in noise:
            scale = 3.0 if key.phase in (REFIT, FINAL) else 1.0
            candidate = key.candidate if key.candidate is not None else key.outer_fold or 0
            noise[key] = scale * base[candidate % 64] * rng.uniform(0.8, 1.25)
        return noise[key]

    return seconds


@pytest.mark.parametrize(
    "n_candidates, n_refits, final, n_workers, seed",
    [
        (6, 2, False, 2, 0),
        (6, 3, True, 1, 1),
        (12, 1, True, 4, 2),
        (30, 3, False, 16, 3),
        (5, 2, True, 3, 4),
    ],
)
def test_the_order_is_the_documented_rules_on_recorded_durations(
    n_candidates, n_refits, final, n_workers, seed
):
    plan = make(n_candidates, n_refits, final)

    def outcome(key):  # some fits fail, some come from the cache, some seeds matter
        if key.phase == SELECTION and (key.candidate + key.inner_split) % 7 == 3:
            return {"error": "boom"}
        if key.phase == SELECTION and key.candidate % 5 == 4:
            return {"cached": True}
        if key.phase == REFIT and seed % 2:
            return {"predictions": f"seed {key.refit}"}
        return {}

    expected = replay(ReferenceSchedule(plan), n_workers, recorded(seed), outcome)
    got = replay(NestedSchedule(plan), n_workers, recorded(seed), outcome)
    assert got == expected
    assert len(set(got)) == len(got)
    assert {k.phase for k in got} >= {SELECTION, REFIT}


def test_equal_durations_keep_the_natural_order():
    plan = make(8, 1, True)
    expected = replay(ReferenceSchedule(plan), 2, lambda key: 1.0)
    assert replay(NestedSchedule(plan), 2, lambda key: 1.0) == expected


class Counting(NestedSchedule):
    calls = 0

    def predicted_duration(self, kind):
        Counting.calls += 1
        return super().predicted_duration(kind)


@pytest.mark.parametrize("n_candidates", [10, 200])
def test_a_pop_looks_at_a_bounded_number_of_kinds_whatever_the_number_of_candidates(
    n_candidates,
):
    # the old rule ranked every ready kind, i.e. every candidate, at every pop
    Counting.calls = 0
    schedule = Counting(make(n_candidates, 1, False, outer_cv=3, inner_cv=2))
    n_pops = len(replay(schedule, 2, recorded(0)))
    # at most one look per ready refit kind (one per outer fold) per pop
    assert Counting.calls <= 3 * n_pops
