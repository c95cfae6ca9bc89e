"""Scaling you can plan with: measured task durations replayed under 2 to 64 workers.

A nested run is measured serially (``n_jobs=1``), task by task. Its durations are then replayed
on a simulated clock for W workers, three ways:

- **NestedCV**: the engine's own :class:`NestedSchedule` decides what runs next and what each
  completion releases (critical path first, a fold's refit as soon as its selection is
  complete), and its batching and prefetch cut and send the tasks, as ``run_plan`` does; it hands
  back each task's measured result (same key, scores, fit and score times).
- **parallel inner search**, ``cross_validate(GridSearchCV(est, grid, cv=inner, n_jobs=W), X, y,
  cv=outer)``: outer folds one after the other; in each, joblib dispatches the candidate x
  inner-split fits (candidate-major, as GridSearchCV generates them) to W workers, with joblib's
  pre-dispatch (``2*n_jobs``) and auto-batching rules; then the winner is refitted and scored in
  the main process while the workers wait.
- **parallel outer folds**, ``cross_validate(GridSearchCV(est, grid, cv=inner, n_jobs=1), X, y,
  cv=outer, n_jobs=W)``: each outer fold (its whole inner search, refit and score) is one joblib
  task.

All three do the same fits on the same splits (``n_refits=1`` and no final model, as in
``bench_nested.py``), so a fit has the same measured duration (fit + score time) in all three.
Each dispatched task also costs the main process a per-task overhead (submitting, pickling,
collecting), one task at a time; it is measured for each method on a no-op run of the same
tasks (an estimator that fits nothing but carries the real one, so tasks pickle alike) with 2
warm workers, as the value for which the simulator reproduces that run's wall time, and assumed
the same for any W. Worker pools are started before every timed run: start-up is not simulated.
``bound`` is a floor no schedule of the tasks beats: max(total work / W, a fold's longest
selection fit plus its refit).

Two checks of the simulator. Real 2-worker runs of the three methods, compared with the
prediction from that repeat's serial measurements (the simulator leaves out workers slowing
each other down, and other jobs on the machine: the fits' slowdown is reported beside each
error). And real runs at 2 to 16 workers in which every fit sleeps its measured duration
(``Replay``), which checks the schedules and the dispatch model at more workers than the
machine has cores.

Workloads: ``gb``, the gradient-boosting workload of ``bench_nested.py``; ``gnn``,
GraphClassifier(GIN) on PROTEINS (from ``$SKLEARN_FAIR_DATA``), a 2-candidate grid, a few epochs
without early stopping (so the idioms, which pass no validation data, train exactly as NestedCV
does), 10 stratified outer folds and a 10% stratified hold-out inside.

Usage: python benchmarks/bench_scaling.py [--workloads gb gnn] [--repeats 3] [--epochs 4]
[--replay-workers 2 4 8 16]  (results: benchmarks/results/scaling.json)
"""

import argparse
import dataclasses
import hashlib
import heapq
import itertools
import json
import os
import subprocess
import sys
import time
import warnings
from collections import deque
from pathlib import Path

import joblib
import numpy as np
from _machine import Load, loaded_note, run_fields
from joblib.parallel import get_active_backend
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.model_selection import GridSearchCV, ParameterGrid, StratifiedKFold, cross_validate

from sklearn_fair import NestedCV
from sklearn_fair.model_selection import HoldoutSplit
from sklearn_fair.model_selection._engine import (
    PREFETCH,
    REFIT,
    SELECTION,
    AutoBatching,
    NestedSchedule,
    make_plan,
    run_plan,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_nested import workload as tabular_workload  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
WORKERS = (2, 4, 8, 16, 32, 64)
METHODS = ("nested_cv", "parallel_inner", "parallel_outer")
TARGET_AT_16 = 1.3
TARGET_ERROR = 0.10


# -- workloads ---------------------------------------------------------------------------------


@dataclasses.dataclass
class Workload:
    """What the three methods run: the same data, estimator, grid and splitters."""

    X: object
    y: np.ndarray
    estimator: object
    grid: dict
    outer: object
    inner: object
    nested_params: dict  # NestedCV's own parameters beyond the shared ones
    description: dict

    def but(self, **changes):
        return dataclasses.replace(self, **changes)


def gb_workload(args):
    X, y, estimator, grid, outer, inner = tabular_workload("gb")
    description = {
        "data": f"make_classification(n_samples={len(y)}, n_features=20, flip_y=0.1)",
        "estimator": "GradientBoostingClassifier(random_state=0)",
        "grid": grid,
    }
    return Workload(X, y, estimator, grid, outer, inner, {}, description)


def gnn_workload(args):
    import torch

    from sklearn_fair.graph import GIN, GraphClassifier, load_tu_dataset
    from sklearn_fair.utils import read_graph_labels

    torch.set_num_threads(1)  # the fits set their own threads; this is the main process's
    root = Path(os.environ.get("SKLEARN_FAIR_DATA", Path(__file__).parents[2] / "shared/data"))
    graphs = load_tu_dataset("PROTEINS", root / "TUDataset")
    y = np.asarray(read_graph_labels(graphs))
    # no early stopping and no internal validation split: every fit trains max_epochs epochs on
    # exactly its training graphs, in NestedCV and in the idioms alike
    estimator = GraphClassifier(
        GIN,
        max_epochs=args.epochs,
        patience=None,
        validation_fraction=None,
        module__dropout=0.5,
        random_state=0,
    )
    grid = {"module__hidden_units": [[32, 32], [64, 64, 64, 64]]}
    outer = StratifiedKFold(n_splits=10, shuffle=True, random_state=0)
    inner = HoldoutSplit(test_size=0.1, stratify=True, random_state=0)
    description = {
        "data": f"PROTEINS ({len(y)} graphs), load_tu_dataset",
        "estimator": f"GraphClassifier(GIN, max_epochs={args.epochs}, patience=None, "
        "validation_fraction=None, module__dropout=0.5, random_state=0)",
        "grid": grid,
        "nested_cv": "early_stopping_split='estimator'",
    }
    nested_params = {"early_stopping_split": "estimator"}
    return Workload(graphs, y, estimator, grid, outer, inner, nested_params, description)


WORKLOADS = {"gb": gb_workload, "gnn": gnn_workload}


class NoOp(ClassifierMixin, BaseEstimator):
    """Fits nothing; ``payload`` (the real estimator, never fitted) makes its tasks pickle like
    the real ones and the workers import what the real estimator needs."""

    def __init__(self, option=0, payload=None):
        self.option = option
        self.payload = payload

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


def noop_workload(workload):
    n_candidates = len(ParameterGrid(workload.grid))
    return workload.but(
        estimator=NoOp(payload=workload.estimator), grid={"option": list(range(n_candidates))}
    )


# -- the three methods, for real -----------------------------------------------------------------


def run_nested(workload, n_jobs):
    """NestedCV.fit's two steps (plan, run); returns (wall seconds, plan, finished schedule)."""
    nested = NestedCV(
        workload.estimator,
        workload.grid,
        outer_cv=workload.outer,
        inner_cv=workload.inner,
        n_refits=1,
        refit=False,
        n_jobs=n_jobs,
        random_state=0,
        **workload.nested_params,
    )
    start = time.perf_counter()
    plan = make_plan(
        nested,
        workload.X,
        workload.y,
        groups=None,
        params={},
        final=False,
        return_estimator=False,
        owner="NestedCV",
    )
    schedule = run_plan(plan)
    return time.perf_counter() - start, plan, schedule


def run_idiom(method, workload, n_jobs):
    """One scikit-learn idiom; returns (wall seconds, cross_validate's results with the fitted
    searches)."""
    inner_jobs, outer_jobs = (n_jobs, None) if method == "parallel_inner" else (1, n_jobs)
    search = GridSearchCV(workload.estimator, workload.grid, cv=workload.inner, n_jobs=inner_jobs)
    start = time.perf_counter()
    results = cross_validate(
        search, workload.X, workload.y, cv=workload.outer, n_jobs=outer_jobs, return_estimator=True
    )
    return time.perf_counter() - start, results


def run_method(method, workload, n_jobs):
    """Wall seconds of one method's run."""
    if method == "nested_cv":
        return run_nested(workload, n_jobs)[0]
    return run_idiom(method, workload, n_jobs)[0]


# -- a measured run --------------------------------------------------------------------------------


@dataclasses.dataclass
class Measured:
    """A measured nested run: its plan and each task's result (TaskKey -> result dict)."""

    plan: object
    results: dict
    grid: dict

    def but(self, **changes):
        return dataclasses.replace(self, **changes)

    def grid_position(self, candidate):
        """Where the plan's candidate stands in ParameterGrid(grid), GridSearchCV's order."""
        return list(ParameterGrid(self.grid)).index(self.plan.candidates[candidate])

    def winner(self, fold):
        return self.plan.select(fold, self.results)["best_index"]

    def folds(self):
        """Per outer fold: its selection durations in GridSearchCV's order, and its refit's."""
        plan, results = self.plan, self.results
        order = [plan.candidates.index(candidate) for candidate in ParameterGrid(self.grid)]
        folds = []
        for fold in range(plan.n_outer):
            selection = [
                duration(results[plan.selection_key(fold, c, s)])
                for c in order
                for s in range(len(plan.inner_splits_of(fold)))
            ]
            folds.append((selection, duration(results[plan.refit_key(fold, 0)])))
        return folds


def duration(result):
    return result["fit_time"] + result["score_time"]


def median_run(runs):
    """Each task's median fit and score times over several measured runs of the same plan."""
    first = runs[0]
    results = {
        key: {
            **result,
            "fit_time": float(np.median([run.results[key]["fit_time"] for run in runs])),
            "score_time": float(np.median([run.results[key]["score_time"] for run in runs])),
        }
        for key, result in first.results.items()
    }
    return first.but(results=results)


def idiom_durations(measured, idiom_results):
    """``measured`` with the task times an idiom's own run had: GridSearchCV's mean fit and score
    times of each candidate (exact with one inner split), its refit time, and cross_validate's
    score time for the refit's score."""
    plan, results = measured.plan, {}
    for fold, search in enumerate(idiom_results["estimator"]):
        cv = search.cv_results_
        for c in range(len(plan.candidates)):
            i = measured.grid_position(c)
            for s in range(len(plan.inner_splits_of(fold))):
                key = plan.selection_key(fold, c, s)
                fit_time, score_time = cv["mean_fit_time"][i], cv["mean_score_time"][i]
                results[key] = {**measured.results[key], "fit_time": fit_time}
                results[key]["score_time"] = score_time
        key = plan.refit_key(fold, 0)
        results[key] = {**measured.results[key], "fit_time": search.refit_time_}
        results[key]["score_time"] = float(idiom_results["score_time"][fold])
    return measured.but(results=results)


# -- the simulator -------------------------------------------------------------------------------


def simulate_nested(measured, n_workers, overhead):
    """Makespan of the measured tasks under NestedCV's own schedule with ``n_workers`` workers.

    As ``run_plan``: tasks are cut into batches by NestedCV's own batching rule (``AutoBatching``,
    fed with the tasks' measured durations), at most ``n_workers + PREFETCH`` batches are in
    flight (the extra ones wait for a free worker), a batch's results come back together when it
    ends; the main process spends ``overhead`` on each task, one task at a time, before its
    batch can start.
    """
    schedule = NestedSchedule(measured.plan)
    batching = AutoBatching(n_workers)
    now, main_free, order = 0.0, 0.0, itertools.count()
    running, queue = [], deque()  # (finish, order, batch); (batch, time it can start)

    def start_queued():
        while queue and len(running) < n_workers:
            batch, ready_at = queue.popleft()
            finish = max(now, ready_at) + sum(duration(measured.results[t.key]) for t in batch)
            heapq.heappush(running, (finish, next(order), batch))

    while not schedule.finished:
        while len(running) + len(queue) < n_workers + PREFETCH and schedule.has_ready():
            size = batching.next_size(schedule.n_ready)
            batch = [schedule.pop() for _ in range(min(size, schedule.n_ready))]
            main_free = max(now, main_free) + overhead * len(batch)
            queue.append((batch, main_free))
            start_queued()
        if not running:
            raise RuntimeError("The simulated run stalled: no task is ready or running.")
        now, _, batch = heapq.heappop(running)
        start_queued()  # a prefetched batch starts as soon as the worker is free
        for task in batch:
            result = dict(measured.results[task.key])
            schedule.complete(task, result)
            batching.record(result)
    return now


def _auto_batching():
    """joblib's own batch-size rule, fed with simulated batch durations: a fresh loky backend
    (got through the public ``parallel_config``), whose ``compute_batch_size`` and
    ``batch_completed`` (joblib's backend interface) make it; no worker is started."""
    with joblib.parallel_config(backend="loky"):
        backend, _ = get_active_backend()
    backend.parallel = type("_Quiet", (), {"verbose": 0})()  # what it reads when it would log
    return backend


def joblib_makespan(durations, n_workers, overhead):
    """Makespan of ``joblib.Parallel(n_jobs=n_workers)`` (loky) over tasks of ``durations``.

    Mirrors ``Parallel``'s dispatch: ``pre_dispatch="2*n_jobs"`` tasks at the start, then one
    batch per completed batch; batches cut by joblib's auto-batching (the loky backend's
    batch-size rule, timing each batch from dispatch to completion, queueing included) and by
    the look-ahead slicing of ``dispatch_one_batch``; the workers take batches in dispatch
    order. The main process spends ``overhead`` on each task, one at a time, before its batch
    starts.
    """
    batching = _auto_batching()
    original = iter(range(len(durations)))
    ready, queue, running = deque(), deque(), []
    order, now, main_free = itertools.count(), 0.0, 0.0
    free = n_workers

    def dispatch_one(iterator, is_original):
        size = batching.compute_batch_size()
        if not ready:
            items = list(itertools.islice(iterator, size * n_workers))
            if not items:
                return False
            if is_original and len(items) < size * n_workers:
                final = max(1, len(items) // (10 * n_workers))
            else:
                final = max(1, len(items) // n_workers)
            for i in range(0, len(items), final):
                ready.append(items[i : i + final])
        queue.append((ready.popleft(), now))
        return True

    def start_queued():
        nonlocal free, main_free
        while free and queue:
            batch, dispatched = queue.popleft()
            main_free = max(now, main_free) + overhead * len(batch)
            finish = main_free + sum(durations[i] for i in batch)
            heapq.heappush(running, (finish, next(order), batch, dispatched))
            free -= 1

    pre_dispatch = itertools.islice(original, 2 * n_workers)
    while dispatch_one(pre_dispatch, False):
        pass
    start_queued()
    iterating = True
    while running:
        now, _, batch, dispatched = heapq.heappop(running)
        free += 1
        start_queued()  # the freed worker takes the next queued batch
        batching.batch_completed(len(batch), now - dispatched)
        if iterating:
            iterating = dispatch_one(original, True)
        start_queued()
    return now


def simulate(method, measured, n_workers, overhead):
    """Simulated wall time of ``method`` on ``n_workers`` workers."""
    if method == "nested_cv":
        return simulate_nested(measured, n_workers, overhead)
    folds = measured.folds()
    if method == "parallel_inner":
        # the refit and the outer score run in the main process, the workers idle
        return sum(joblib_makespan(sel, n_workers, overhead) + refit for sel, refit in folds)
    return joblib_makespan([sum(sel) + refit for sel, refit in folds], n_workers, overhead)


def lower_bound(measured, n_workers):
    """No schedule of the tasks on ``n_workers`` workers, overhead-free, ends sooner: the total
    work shared perfectly, or the longest chain (a fold's longest selection fit, then its
    refit), whichever is longer."""
    folds = measured.folds()
    total = sum(sum(selection) + refit for selection, refit in folds)
    chain = max(max(selection) + refit for selection, refit in folds)
    return max(total / n_workers, chain)


def calibrate_overhead(method, measured, n_workers, noop_wall):
    """The per-task overhead for which the simulated no-op run lasts ``noop_wall``."""
    zero = measured.but(
        results={k: {**r, "fit_time": 0.0, "score_time": 0.0} for k, r in measured.results.items()}
    )
    low, high = 0.0, noop_wall
    for _ in range(40):
        middle = (low + high) / 2
        if simulate(method, zero, n_workers, middle) < noop_wall:
            low = middle
        else:
            high = middle
    return (low + high) / 2


# -- validation: real 2-worker runs --------------------------------------------------------------


def validation_repeat(name, repeat, workload):
    """A serial run that measures every task, then each method's real 2-worker run against the
    simulator's predictions: from the serial run's task times (what one can plan with), and
    from the task times of that very run (the schedule alone, whatever slowed the fits down);
    returns (record, measured serial run)."""
    whole = Load(workers=2)
    with Load(workers=1) as load:
        wall, plan, schedule = run_nested(workload, n_jobs=1)
    record = {"serial_load": load.fields()}
    measured = Measured(plan, schedule.results, workload.grid)
    serial_tasks = sum(duration(r) for r in measured.results.values())
    record.update(serial_wall=wall, serial_task_seconds=serial_tasks)
    nested_winners = [measured.grid_position(measured.winner(f)) for f in range(plan.n_outer)]
    print(f"[{name}] repeat {repeat} serial NestedCV {wall:7.2f} s {load}", flush=True)
    noop = noop_workload(workload)
    methods = METHODS if repeat % 2 == 0 else METHODS[::-1]  # drift hits all alike
    for method in methods:
        for _ in range(2):  # the no-op runs warm this method's pool: the first one starts it
            noop_wall = run_method(method, noop, 2)
        overhead = calibrate_overhead(method, measured, 2, noop_wall)
        with Load(workers=2) as load:
            if method == "nested_cv":
                wall, plan_2, schedule_2 = run_nested(workload, 2)
            else:
                wall, idiom_results = run_idiom(method, workload, 2)
        if method == "nested_cv":
            own = Measured(plan_2, schedule_2.results, workload.grid)
            same_winners = True
        else:
            own = idiom_durations(measured, idiom_results)
            winners = [int(search.best_index_) for search in idiom_results["estimator"]]
            same_winners = winners == nested_winners
        predicted = simulate(method, measured, 2, overhead)
        predicted_own = simulate(method, own, 2, overhead)
        inflation = sum(duration(r) for r in own.results.values()) / serial_tasks
        record[method] = {
            "noop_wall": noop_wall,
            "overhead_per_task": overhead,
            "measured_wall": wall,
            "predicted_wall": predicted,
            "relative_error": (predicted - wall) / wall,
            # above 1: the fits themselves ran slower than in the serial run
            "task_time_inflation": inflation,
            "predicted_wall_from_own_task_times": predicted_own,
            "relative_error_from_own_task_times": (predicted_own - wall) / wall,
            "same_winners_as_nested_cv": same_winners,
            **load.fields(),
        }
        print(
            f"[{name}] repeat {repeat} {method:14s} 2 workers: measured {wall:7.2f} s, "
            f"predicted {predicted:7.2f} s ({100 * (predicted - wall) / wall:+.1f}%), "
            f"from its own task times {predicted_own:7.2f} s "
            f"({100 * (predicted_own - wall) / wall:+.1f}%); task time x{inflation:.2f}, "
            f"overhead {1000 * overhead:.1f} ms/task {load}",
            flush=True,
        )
    record["load"] = whole.stop().fields()
    return record, measured


# -- validation: real runs whose fits sleep ------------------------------------------------------


class Replay(ClassifierMixin, BaseEstimator):
    """Replays a measured fit: sleeps its fit time in ``fit`` and its score time in ``score``,
    and returns its measured score.

    ``X`` is a column of row numbers, so a fit knows its training rows; ``table`` maps
    (``candidate``, fingerprint of the training rows) to (fit seconds, score seconds, score).
    Sleeping workers leave the CPUs free, so many of them can be run on a small machine.
    """

    def __init__(self, candidate=0, table=None):
        self.candidate = candidate
        self.table = table

    def fit(self, X, y):
        fit_time, self.score_time_, self.score_ = self.table[(self.candidate, rows_key(X))]
        time.sleep(fit_time)
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])

    def score(self, X, y, sample_weight=None):
        time.sleep(self.score_time_)
        return self.score_


def rows_key(X):
    rows = np.sort(np.asarray(X)[:, 0].astype(np.int64))
    return hashlib.sha1(rows.tobytes()).hexdigest()


def replay_workload(workload, measured, zero=False):
    """The workload whose fits replay ``measured`` (with ``zero``, in no time: a no-op run)."""
    plan, table = measured.plan, {}
    for key, result in measured.results.items():
        fold = key.outer_fold
        if key.phase == SELECTION:
            rows, candidate = plan.rows(("inner", fold, key.inner_split, "train")), key.candidate
        else:
            rows, candidate = plan.rows(("train", fold)), measured.winner(fold)
        times = (0.0, 0.0) if zero else (result["fit_time"], result["score_time"])
        score = result["scores"]["score"]
        table[(measured.grid_position(candidate), rows_key(rows[:, None]))] = (*times, score)
    n_candidates = len(ParameterGrid(workload.grid))
    return workload.but(
        X=np.arange(len(workload.y))[:, None],
        estimator=Replay(table=table),
        grid={"candidate": list(range(n_candidates))},
    )


def replay_validation(workload, measured, workers):
    """Real runs of the three methods whose fits sleep their measured durations, against the
    simulator, at each number of ``workers``; the per-task overhead is calibrated once, on the
    no-op run with the fewest workers, as for the scaling table."""
    replay = replay_workload(workload, measured)
    noop = replay_workload(workload, measured, zero=True)
    figures, overheads = {}, {}
    for n_workers in sorted(workers):
        row = {}
        for method in METHODS:
            for _ in range(2):  # the first no-op run starts the pool
                noop_wall = run_method(method, noop, n_workers)
            if method not in overheads:
                overheads[method] = calibrate_overhead(method, measured, n_workers, noop_wall)
            with Load(workers=1) as load:  # sleeping workers: the caller's process is the load
                wall = run_method(method, replay, n_workers)
            predicted = simulate(method, measured, n_workers, overheads[method])
            error = (predicted - wall) / wall
            row[method] = {
                "noop_wall": noop_wall,
                "overhead_per_task": overheads[method],
                "measured_wall": wall,
                "predicted_wall": predicted,
                "relative_error": error,
                **load.fields(),
            }
            print(
                f"replay {method:14s} {n_workers:2d} workers: measured {wall:7.2f} s, "
                f"predicted {predicted:7.2f} s ({100 * error:+.1f}%) {load}",
                flush=True,
            )
        figures[str(n_workers)] = row
    return figures


# -- one workload --------------------------------------------------------------------------------


def bench_workload(name, args):
    workload = WORKLOADS[name](args)
    repeats, runs = [], []
    for repeat in range(args.repeats):
        record, measured = validation_repeat(name, repeat, workload)
        repeats.append(record)
        runs.append(measured)
    # the scaling table: each task's median duration, each method's median overhead
    measured = median_run(runs)
    overheads = {m: float(np.median([r[m]["overhead_per_task"] for r in repeats])) for m in METHODS}
    serial = float(np.median([r["serial_wall"] for r in repeats]))
    makespans = {w: {m: simulate(m, measured, w, overheads[m]) for m in METHODS} for w in WORKERS}
    bounds = {w: lower_bound(measured, w) for w in WORKERS}
    faster_idiom = {w: min(v["parallel_inner"], v["parallel_outer"]) for w, v in makespans.items()}
    return {
        "workload": {
            **workload.description,
            "outer": "StratifiedKFold(10, shuffle=True, random_state=0)",
            "inner": "HoldoutSplit(test_size=0.1, stratify=True, random_state=0)",
            "n_refits": 1,
            "final_model": False,
        },
        "n_tasks": len(measured.results),
        "n_selection_tasks": sum(k.phase == SELECTION for k in measured.results),
        "n_refit_tasks": sum(k.phase == REFIT for k in measured.results),
        "task_seconds": _spread([duration(r) for r in measured.results.values()]),
        "serial_wall_median": serial,
        "overhead_per_task_median": overheads,
        "makespans": {str(w): v for w, v in makespans.items()},
        "speedup_vs_serial": {
            str(w): {m: serial / t for m, t in v.items()} for w, v in makespans.items()
        },
        "ceiling_speedup": {str(w): float(w) for w in WORKERS},
        "ceiling_makespan": {str(w): serial / w for w in WORKERS},
        "nested_cv_vs_faster_idiom": {
            str(w): faster_idiom[w] / v["nested_cv"] for w, v in makespans.items()
        },
        # no schedule beats the bound, so none is more than (faster idiom / bound) times faster
        # than the faster idiom
        "lower_bound_any_schedule": {str(w): b for w, b in bounds.items()},
        "faster_idiom_vs_lower_bound": {str(w): faster_idiom[w] / bounds[w] for w in WORKERS},
        "tasks": [
            {**key._asdict(), "fit_time": r["fit_time"], "score_time": r["score_time"]}
            for key, r in measured.results.items()
        ],
        "replay_validation": replay_validation(workload, measured, args.replay_workers),
        "validation_2_workers": {
            "repeats": repeats,
            "relative_error": {
                m: _spread([r[m]["relative_error"] for r in repeats]) for m in METHODS
            },
            "relative_error_from_own_task_times": {
                m: _spread([r[m]["relative_error_from_own_task_times"] for r in repeats])
                for m in METHODS
            },
            "task_time_inflation": {
                m: _spread([r[m]["task_time_inflation"] for r in repeats]) for m in METHODS
            },
            "target_abs_relative_error": TARGET_ERROR,
        },
    }


def _spread(values):
    values = np.asarray(values, dtype=float)
    return {
        "median": float(np.median(values)),
        "min": float(values.min()),
        "max": float(values.max()),
        "all": values.tolist(),
    }


def print_table(name, figures):
    serial = figures["serial_wall_median"]
    print(f"\n{name}: {figures['n_tasks']} tasks, serial {serial:.1f} s (median)")
    print("makespans (s) and speed-ups vs serial; bound: no schedule of these tasks is faster")
    print(
        f"{'workers':>7} {'serial/W':>9} {'bound':>7} {'NestedCV':>15} {'par. inner':>15}"
        f" {'par. outer':>15} {'NestedCV/faster':>16}"
    )
    for w in WORKERS:
        m = figures["makespans"][str(w)]
        cells = " ".join(f"{m[k]:>7.1f} ({serial / m[k]:>4.1f}x)" for k in METHODS)
        print(
            f"{w:>7} {serial / w:>9.1f} {figures['lower_bound_any_schedule'][str(w)]:>7.1f} "
            f"{cells} {figures['nested_cv_vs_faster_idiom'][str(w)]:>15.2f}x"
        )
    validation = figures["validation_2_workers"]
    print("real 2-worker runs, (predicted - measured) / measured, median [min, max]:")
    for label, field in (
        ("from the serial task times", "relative_error"),
        ("from the run's own task times", "relative_error_from_own_task_times"),
        ("fits' slowdown vs serial (x)", "task_time_inflation"),
    ):
        scale, unit = (1, "") if field == "task_time_inflation" else (100, "%")
        print(
            f"  {label:31s}"
            + ", ".join(
                f"{m} {scale * e['median']:+.2f}{unit} [{scale * e['min']:+.2f}, "
                f"{scale * e['max']:+.2f}]"
                for m, e in validation[field].items()
            )
        )
    for w, row in figures["replay_validation"].items():
        print(
            f"sleep replay, {w:>2} workers: "
            + ", ".join(f"{m} {100 * r['relative_error']:+.1f}%" for m, r in row.items())
        )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workloads", nargs="+", choices=sorted(WORKLOADS), default=["gb", "gnn"])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--epochs", type=int, default=4, help="GNN epochs per fit")
    parser.add_argument("--replay-workers", type=int, nargs="*", default=[2, 4, 8, 16])
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")  # edge-of-grid warnings of the no-op runs and the like

    uptime_before = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    figures = {name: bench_workload(name, args) for name in args.workloads}
    uptime_after = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    output = {
        **run_fields(["torch", "torch-geometric", "skorch"], argv),
        "workers": list(WORKERS),
        "target_nested_cv_vs_faster_idiom_at_16": TARGET_AT_16,
        "workloads": figures,
        "uptime_before": uptime_before,
        "uptime_after": uptime_after,
        "loaded_machine": loaded_note(figures),
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / "scaling.json"
    # a run of some workloads keeps the others' figures, each with the run that measured it
    # (its versions and load too) and the notes written of them; a workload run again loses
    # the notes of its earlier figures
    keys = ("command", "versions", "uptime_before", "uptime_after", "loaded_machine", "date")
    run = {key: output[key] for key in keys}
    earlier = json.loads(path.read_text()) if path.exists() else {}
    output["workloads"] = {**earlier.get("workloads", {}), **figures}
    output["runs"] = {**earlier.get("runs", {}), **dict.fromkeys(figures, run)}
    unrecorded = [n for n, w in output["workloads"].items() if loaded_note(w) == loaded_note([])]
    output["loaded_machine"] = loaded_note(output["workloads"]) + (  # every figure kept
        f"; the load of {', '.join(unrecorded)} was not recorded" if unrecorded else ""
    )
    notes = {k: v for k, v in earlier.get("notes", {}).items() if k not in figures}
    if notes:
        output["notes"] = notes
    path.write_text(json.dumps(output, indent=2, default=_plain) + "\n")
    for name, values in figures.items():
        print_table(name, values)
    print(f"\nuptime before: {uptime_before}\nuptime after:  {uptime_after}")
    print(f"{output['loaded_machine']}; written to {path}")
    return 0


def _plain(value):
    return value.__name__ if isinstance(value, type) else repr(value)


if __name__ == "__main__":
    sys.exit(main())
