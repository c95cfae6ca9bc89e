"""NestedCV against both of scikit-learn's nested idioms, side by side in one run.

The same work three ways, with identical splitters, on a grid whose fits differ in length
(gradient boosting by default; ``--workload svc`` an SVC grid; ``text`` TF-IDF + TruncatedSVD +
LogisticRegression on a generated corpus, C over 6 values and the SVD rank over 2; ``wide`` a
ColumnTransformer over 300 columns of a DataFrame before a LogisticRegression, C over 6 values;
several workloads in one command run side by side):

- parallel inner search: ``cross_validate(GridSearchCV(est, grid, cv=inner, n_jobs=W), X, y,
  cv=outer)``;
- parallel outer folds: ``cross_validate(GridSearchCV(est, grid, cv=inner), X, y, cv=outer,
  n_jobs=W)``;
- ``NestedCV(est, grid, outer_cv=outer, inner_cv=inner, n_refits=1, n_jobs=W)``;

plus NestedCV with ``n_jobs=1`` for the serial time, whose W-th part is the ceiling of any
W-worker run. The serial run is timed with BLAS and OpenMP limited to the threads each of the W
loky workers gets (``max(cpu_count // W, 1)``: 1 on two cores, threadpoolctl), not the caller's
default of one a core: the ceiling is then that of W such workers, like for like (timed with
the default threads, ``nested_wide.json``'s fraction of the ceiling read 4.74 against a target
of 0.95). Reports the per-fold test scores (they must be identical), the wall times, the
ratios to the faster idiom and to the ceiling, and NestedCV's parallel efficiency = (sum of
task times) / (W x wall time).

On ``text`` and ``wide`` most of each fit is the pipeline's prefix (the vectoriser and the SVD,
the ColumnTransformer), which NestedCV fits once per set of rows and reuses for every
candidate (``reuse_prefix=True``, issue 27.1); the idioms fit it once per candidate.

``--workload noop``: the scheduler's own cost. An estimator that fits nothing, grids of 100 to
10,000 candidates (``--candidates``), 3 outer folds and a hold-out inside, in the caller's
process (``--n-jobs 1`` by default for it); reports the wall time per task at each size and
the slope of a straight line through them (milliseconds per task per 1,000 candidates: flat
is 0).

The methods run in one process in the order of a user's session, which alternates them: the
workers are started (and the workload's modules imported) once, before the first timed run, and
each method then finds the pool as the method before it left it (NestedCV and scikit-learn's
``n_jobs`` share one pool of loky workers). The order rotates with each repeat, so that drift on
a shared machine hits every method alike. ``--cold``: each method's first call in a fresh
interpreter instead, its workers' start and imports inside the timed run, as a user's script
pays it (``nested_<name>_cold.json``).

Each timed run is printed and saved with the load average before and after it, and marked when
the machine was loaded (``_machine.py``): seconds measured on a busy machine are not a quiet
one's; the ratios of runs interleaved in one process still compare.

Usage: python benchmarks/bench_nested.py [--workload gb svc text wide | noop] [--repeats 3]
[--n-jobs 2] [--cold] [--quick] (results: benchmarks/results/nested.json for gb,
nested_<name>.json otherwise; ``--quick``: a smaller data set and one repeat, a smoke run whose
results go to ``*_quick.json``)
"""

import argparse
import importlib
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from _machine import Load, loaded_note, run_fields
from _workloads import Noop, make_corpus, make_wide, text_pipeline, wide_pipeline
from joblib import Parallel, cpu_count, delayed
from sklearn.datasets import make_classification
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_validate
from sklearn.svm import SVC
from threadpoolctl import threadpool_limits

from sklearn_fair import NestedCV
from sklearn_fair.model_selection import HoldoutSplit

RESULTS = Path(__file__).resolve().parent / "results"


WORKLOADS = {
    # Fit time of an SVC grows with C on noisy data; the winner is usually a cheap candidate.
    "svc": (
        "SVC()",
        lambda: SVC(),
        {"C": [0.01, 0.1, 1.0, 10.0, 100.0, 1000.0], "gamma": ["scale"]},
        dict(n_samples=4000, flip_y=0.25),
    ),
    # Fit time grows with the number and depth of trees; the winner is usually the largest
    # (and slowest) candidate, as is common when tuning capacity.
    "gb": (
        "GradientBoostingClassifier(random_state=0)",
        lambda: GradientBoostingClassifier(random_state=0),
        {"n_estimators": [25, 50, 100, 200], "max_depth": [1, 3]},
        dict(n_samples=1500, flip_y=0.1),
    ),
}


PIPELINES = {
    "text": (
        "TfidfVectorizer(sublinear_tf=True) + TruncatedSVD(random_state=0) + "
        "LogisticRegression(max_iter=200)",
        text_pipeline,
        {
            "logisticregression__C": [0.01, 0.1, 1.0, 10.0, 100.0, 1000.0],
            "truncatedsvd__n_components": [10, 30],
        },
        dict(n_samples=1200),
        "generated corpus (make_corpus): make_classification(n_features=40) as class word "
        "rates over 2,000 words, 80 words a document",
    ),
    "wide": (
        "ColumnTransformer(240 numeric: SimpleImputer + StandardScaler, 60 categorical: "
        "OneHotEncoder) + LogisticRegression(max_iter=300)",
        wide_pipeline,
        {"logisticregression__C": [0.001, 0.01, 0.1, 1.0, 10.0, 100.0]},
        dict(n_samples=1500),
        "make_wide: DataFrame of 240 numeric columns (5% missing) and 60 categorical ones",
    ),
}


#: ``--quick``: rows of each workload (a smoke run, not a figure)
QUICK_SAMPLES = {"svc": 800, "gb": 400, "text": 400, "wide": 400}


def workload(name, n_samples=None, quick=False):
    if quick and n_samples is None:
        n_samples = QUICK_SAMPLES[name]
    outer = StratifiedKFold(n_splits=10, shuffle=True, random_state=0)
    inner = HoldoutSplit(test_size=0.1, stratify=True, random_state=0)
    if name in PIPELINES:
        _, make_estimator, grid, data, _ = PIPELINES[name]
        make_data = make_corpus if name == "text" else make_wide
        X, y = make_data(n_samples or data["n_samples"])
        return X, y, make_estimator(), grid, outer, inner
    description, make_estimator, grid, data = WORKLOADS[name]
    X, y = make_classification(
        n_samples=n_samples or data["n_samples"],
        n_features=20,
        n_informative=8,
        flip_y=data["flip_y"],
        random_state=0,
    )
    return X, y, make_estimator(), grid, outer, inner


def describe_workload(name, y):
    if name in PIPELINES:
        description, _, grid, _, data = PIPELINES[name]
        return {"data": f"{data}, n_samples={len(y)}", "estimator": description, "grid": grid}
    description, _, grid, data = WORKLOADS[name]
    return {
        "data": f"make_classification(n_samples={len(y)}, n_features=20, flip_y={data['flip_y']})",
        "estimator": description,
        "grid": grid,
    }


def warm_up(n_jobs):
    """Start the worker processes and import what every method runs, before timing, so that
    no method pays for starting processes or importing modules (NestedCV and the idioms share
    one pool of workers)."""
    modules = [
        "sklearn.ensemble",
        "sklearn.svm",
        "sklearn.feature_extraction.text",
        "sklearn.decomposition",
        "sklearn.compose",
        "sklearn.linear_model",
        "sklearn.model_selection",
        "sklearn_fair.model_selection._nested._running",
    ]
    Parallel(n_jobs=n_jobs)(
        delayed(importlib.import_module)(name) for name in modules * (2 * n_jobs)
    )


def run_inner_parallel(X, y, estimator, grid, outer, inner, n_jobs):
    start = time.perf_counter()
    search = GridSearchCV(estimator, grid, cv=inner, n_jobs=n_jobs)
    results = cross_validate(search, X, y, cv=outer)
    return time.perf_counter() - start, results["test_score"], None


def run_outer_parallel(X, y, estimator, grid, outer, inner, n_jobs):
    start = time.perf_counter()
    search = GridSearchCV(estimator, grid, cv=inner, n_jobs=1)
    results = cross_validate(search, X, y, cv=outer, n_jobs=n_jobs)
    return time.perf_counter() - start, results["test_score"], None


def worker_threads(n_jobs):
    """The BLAS and OpenMP threads of each of joblib's ``n_jobs`` loky workers (its default,
    where no ``*_NUM_THREADS`` variable is set)."""
    return max(cpu_count() // n_jobs, 1)


def run_serial(X, y, estimator, grid, outer, inner, n_jobs):
    """NestedCV with ``n_jobs=1``, with the threads of one of ``n_jobs`` workers."""
    with threadpool_limits(worker_threads(n_jobs)):
        return run_nested(X, y, estimator, grid, outer, inner, 1)


def run_nested(X, y, estimator, grid, outer, inner, n_jobs):
    start = time.perf_counter()
    nested = NestedCV(
        estimator,
        grid,
        outer_cv=outer,
        inner_cv=inner,
        n_refits=1,
        refit=False,
        n_jobs=n_jobs,
        random_state=0,
    ).fit(X, y)
    wall = time.perf_counter() - start
    task_time = sum(f["fit_time"] + f["score_time"] for f in nested.outer_results_)
    return wall, nested.outer_scores_, task_time


TARGETS = {"text": 2.0, "wide": 1.0, "gb": 1.0, "svc": 1.0}


def bench_workload(name, args):
    X, y, estimator, grid, outer, inner = workload(name, args.n_samples, args.quick)
    W = args.n_jobs
    whole = Load(workers=W)
    methods = {
        "sklearn_inner_parallel": lambda: run_inner_parallel(
            X, y, estimator, grid, outer, inner, W
        ),
        "sklearn_outer_parallel": lambda: run_outer_parallel(
            X, y, estimator, grid, outer, inner, W
        ),
        "nested_cv": lambda: run_nested(X, y, estimator, grid, outer, inner, W),
        "nested_cv_serial": lambda: run_serial(X, y, estimator, grid, outer, inner, W),
    }
    warm_up(W)  # once: from here on each method finds the pool as the one before left it
    walls = {name: [] for name in methods}
    loads = {name: [] for name in methods}
    scores, efficiencies = {}, []
    for repeat in range(args.repeats):
        # Rotate the order so that drift on a shared machine hits every method alike.
        names = list(methods)
        names = names[repeat % len(names) :] + names[: repeat % len(names)]
        for method in names:
            with Load(workers=1 if method == "nested_cv_serial" else W) as load:
                wall, fold_scores, task_time = methods[method]()
            walls[method].append(wall)
            loads[method].append(load)
            scores[method] = np.asarray(fold_scores)
            if method == "nested_cv":
                efficiencies.append(task_time / (W * wall))
            print(f"[{name}] repeat {repeat} {method:24s} wall {wall:7.2f} s {load}", flush=True)
    whole.stop()

    identical = all(np.array_equal(scores["nested_cv"], other) for other in scores.values())
    median = {method: float(np.median(values)) for method, values in walls.items()}
    faster_idiom = min(median["sklearn_inner_parallel"], median["sklearn_outer_parallel"])
    ceiling = median["nested_cv_serial"] / W
    every_load = [load for values in loads.values() for load in values]
    figures = {
        **run_fields(argv=args.argv),
        "workload": {
            "name": name,
            **describe_workload(name, y),
            "outer": "StratifiedKFold(10, shuffle=True, random_state=0)",
            "inner": "HoldoutSplit(test_size=0.1, stratify=True, random_state=0)",
            "n_refits": 1,
            "n_jobs": W,
            "repeats": args.repeats,
            "reuse_prefix": True,
            "order": "one process, the methods alternating as in a user's session (rotated "
            "each repeat), one shared pool of workers warmed once before the first",
        },
        "per_fold_test_scores": {
            **{method: values.tolist() for method, values in scores.items()},
            "identical": identical,
        },
        "wall_seconds": walls,
        "wall_seconds_median": median,
        "load_of_each_run": {m: [load.fields() for load in values] for m, values in loads.items()},
        "speedup_over_faster_idiom": faster_idiom / median["nested_cv"],
        "speedup_over_faster_idiom_target": TARGETS.get(name, 1.0),
        # serial NestedCV reuses fitted prefixes too: with reuse, the ceiling is of NestedCV's
        # own (smaller) work, not of the idioms'
        "fraction_of_ceiling": ceiling / median["nested_cv"],
        "fraction_of_ceiling_target": 0.95,
        "ceiling_seconds": ceiling,
        "ceiling": f"nested_cv_serial / {W}: NestedCV with n_jobs=1 in this process, BLAS and "
        f"OpenMP limited to {worker_threads(W)} thread(s) (threadpoolctl), as each of the {W} "
        "loky workers is",
        "parallel_efficiency_median": float(np.median(efficiencies)),
        "parallel_efficiency_all": efficiencies,
        "load": whole.fields(),
        "loaded_machine": loaded_note(every_load),
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    output = results_file("nested.json" if name == "gb" else f"nested_{name}.json", args)
    output.write_text(json.dumps(figures, indent=2) + "\n")
    print(f"[{name}] per-fold test scores identical across methods: {identical}")
    for method, value in median.items():
        print(f"  {method:24s} median wall {value:7.2f} s")
    print(
        f"[{name}] NestedCV vs the faster idiom: {figures['speedup_over_faster_idiom']:.3f}x "
        f"(target >= {figures['speedup_over_faster_idiom_target']}) {whole}"
    )
    print(
        f"[{name}] NestedCV reaches {figures['fraction_of_ceiling']:.3f} of the ceiling "
        f"serial/{W} = {ceiling:.2f} s; parallel efficiency "
        f"{figures['parallel_efficiency_median']:.3f}"
    )
    print(f"[{name}] {figures['loaded_machine']}; written to {output}")
    return figures, identical


def results_file(name, args):
    """``results/<name>``, or ``results/<stem>_quick.json`` for a ``--quick`` run."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    return RESULTS / (name.replace(".json", "_quick.json") if args.quick else name)


def bench_noop(args):
    """The engine's own cost per task, against the number of candidates."""
    X = np.random.default_rng(0).normal(size=(300, 5))
    y = np.arange(300) % 2
    whole = Load(workers=args.n_jobs)
    rows = []
    for n_candidates in args.candidates:
        walls, cpus = [], []
        load = Load(workers=args.n_jobs)
        for _ in range(args.repeats):
            nested = NestedCV(
                Noop(),
                {"a": list(range(n_candidates))},
                outer_cv=StratifiedKFold(3, shuffle=True, random_state=0),
                inner_cv=HoldoutSplit(test_size=0.2, random_state=0),
                n_refits=1,
                refit=False,
                n_jobs=args.n_jobs,
                random_state=0,
            )
            start, cpu_start = time.perf_counter(), time.process_time()
            nested.fit(X, y)
            walls.append(time.perf_counter() - start)
            cpus.append(time.process_time() - cpu_start)
        load.stop()
        n_tasks = 3 * n_candidates + 3
        wall, cpu = float(np.median(walls)), float(np.median(cpus))
        rows.append(
            {
                "n_candidates": n_candidates,
                "n_tasks": n_tasks,
                "wall_seconds": walls,
                "cpu_seconds": cpus,
                "ms_per_task": 1000 * wall / n_tasks,
                # CPU time of the caller's process: what a busy machine does not inflate
                "cpu_ms_per_task": 1000 * cpu / n_tasks,
                **load.fields(),
            }
        )
        print(
            f"[noop] {n_candidates:6d} candidates, {n_tasks:6d} tasks: {wall:8.2f} s, "
            f"{1000 * wall / n_tasks:.3f} ms per task (CPU {1000 * cpu / n_tasks:.3f} ms) {load}",
            flush=True,
        )
        rows[-1]["load"] = load
    sizes = np.array([r["n_candidates"] for r in rows], dtype=float)
    per_task = np.array([r["ms_per_task"] for r in rows])
    cpu_per_task = np.array([r["cpu_ms_per_task"] for r in rows])
    slope = float(np.polyfit(sizes / 1000, per_task, 1)[0]) if len(rows) > 1 else 0.0
    cpu_slope = float(np.polyfit(sizes / 1000, cpu_per_task, 1)[0]) if len(rows) > 1 else 0.0
    whole.stop()
    note = loaded_note([row.pop("load") for row in rows])
    figures = {
        **run_fields(argv=args.argv),
        "workload": {
            "name": "noop",
            "estimator": "Noop(): fits nothing, scores 0.0",
            "data": "300 rows, 5 features",
            "outer": "StratifiedKFold(3, shuffle=True, random_state=0)",
            "inner": "HoldoutSplit(test_size=0.2, random_state=0)",
            "n_jobs": args.n_jobs,
            "repeats": args.repeats,
        },
        "sizes": rows,
        "slope_ms_per_task_per_1000_candidates": slope,
        "max_ms_per_task": float(per_task.max()),
        "cpu_slope_ms_per_task_per_1000_candidates": cpu_slope,
        "max_cpu_ms_per_task": float(cpu_per_task.max()),
        "target_ms_per_task": 1.0,
        "load": whole.fields(),
        "loaded_machine": note,
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    output = results_file("nested_noop.json", args)
    output.write_text(json.dumps(figures, indent=2) + "\n")
    print(
        f"[noop] slope {slope:+.4f} ms per task per 1,000 candidates; at most "
        f"{figures['max_ms_per_task']:.3f} ms per task (target < 1); CPU: slope "
        f"{cpu_slope:+.4f}, at most {figures['max_cpu_ms_per_task']:.3f} ms {whole}; {note}; "
        f"written to {output}"
    )
    return figures


METHODS = {
    "sklearn_inner_parallel": run_inner_parallel,
    "sklearn_outer_parallel": run_outer_parallel,
    "nested_cv": run_nested,
}


def cold_child(method, name, args):
    """In a fresh interpreter: ``method``'s first run, its workers' start included."""
    X, y, estimator, grid, outer, inner = workload(name, args.n_samples, args.quick)
    wall, fold_scores, _ = METHODS[method](X, y, estimator, grid, outer, inner, args.n_jobs)
    print(json.dumps({"wall": wall, "scores": np.asarray(fold_scores).tolist()}))


def bench_cold(name, args):
    """Each method's first call in a fresh interpreter, as a user's script pays it."""
    whole = Load(workers=args.n_jobs)
    walls, scores = {method: [] for method in METHODS}, {}
    loads = {method: [] for method in METHODS}
    for repeat in range(args.repeats):
        names = list(METHODS)
        names = names[repeat % len(names) :] + names[: repeat % len(names)]
        for method in names:
            command = [sys.executable, __file__, "--cold-child", method, "--workload", name]
            command += ["--n-jobs", str(args.n_jobs)]
            if args.n_samples:
                command += ["--n-samples", str(args.n_samples)]
            if args.quick:
                command += ["--quick"]
            with Load(workers=args.n_jobs) as load:
                completed = subprocess.run(command, capture_output=True, text=True, check=True)
            figures = json.loads(completed.stdout.strip().splitlines()[-1])
            walls[method].append(figures["wall"])
            loads[method].append(load)
            scores[method] = figures["scores"]
            print(
                f"[{name}] cold {repeat} {method:24s} wall {figures['wall']:7.2f} s {load}",
                flush=True,
            )
    whole.stop()
    median = {method: float(np.median(values)) for method, values in walls.items()}
    faster = min(median["sklearn_inner_parallel"], median["sklearn_outer_parallel"])
    identical = all(values == scores["nested_cv"] for values in scores.values())
    document = {
        **run_fields(argv=args.argv),
        "what": "each method's first call in a fresh interpreter (worker start-up and imports "
        "inside the timed run; the script's own imports and the data are not timed)",
        "workload": {"name": name, "n_jobs": args.n_jobs, "repeats": args.repeats},
        "wall_seconds": walls,
        "wall_seconds_median": median,
        "load_of_each_run": {m: [load.fields() for load in values] for m, values in loads.items()},
        "speedup_over_faster_idiom": faster / median["nested_cv"],
        "speedup_over_faster_idiom_target": TARGETS.get(name, 1.0),
        "identical_scores": identical,
        "load": whole.fields(),
        "loaded_machine": loaded_note([load for values in loads.values() for load in values]),
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    output = results_file(f"nested_{name}_cold.json", args)
    output.write_text(json.dumps(document, indent=2) + "\n")
    print(
        f"[{name}] cold: NestedCV vs the faster idiom {document['speedup_over_faster_idiom']:.3f}x"
        f" (target >= {document['speedup_over_faster_idiom_target']}); identical scores: "
        f"{identical} {whole}; {document['loaded_machine']}; written to {output}"
    )
    return identical


# -- a user's session: NestedCV and scikit-learn's n_jobs alternating (issue 35.1, 35.2) ---------


def session_call(name):
    """One call of the session's small workload (200 rows, LogisticRegression, 3 folds, 2
    workers): NestedCV over 2 candidates, or scikit-learn's ``cross_validate``; its seconds."""
    from sklearn.linear_model import LogisticRegression

    X, y = make_classification(n_samples=200, n_features=10, random_state=0)
    start = time.perf_counter()
    if name == "nested_cv":
        grid = {"C": [0.1, 1.0]}
        NestedCV(LogisticRegression(), grid, outer_cv=3, n_jobs=2, random_state=0).fit(X, y)
    else:
        cross_validate(LogisticRegression(), X, y, cv=3, n_jobs=2)
    return time.perf_counter() - start


SESSION = ("nested_cv", "cross_validate")


# what a fresh interpreter runs for a cold call: the entry point's import alone is timed
# first, then (untimed) this script's other imports, then the first call
SESSION_CHILD = """
import json, sys, time
start = time.perf_counter()
if sys.argv[1] == "nested_cv":
    from sklearn_fair import NestedCV
else:
    from sklearn.model_selection import cross_validate
imported = time.perf_counter() - start
sys.path.insert(0, sys.argv[2])
from bench_nested import session_call
print(json.dumps({"import": imported, "first_call": session_call(sys.argv[1])}))
"""


def bench_session(args):
    """Cold: each call first in a fresh interpreter (interleaved). Warm: in one process, the
    calls in the order N N C C repeated, so that each follows itself and the other alike: a
    call after the other within a small factor of the same call after itself means the two
    share one warm pool (a restart costs seconds)."""
    whole = Load(workers=2)
    cold = {name: [] for name in SESSION}
    for repeat in range(args.repeats):
        for name in SESSION if repeat % 2 == 0 else SESSION[::-1]:
            here = str(Path(__file__).resolve().parent)
            command = [sys.executable, "-c", SESSION_CHILD, name, here]
            with Load(workers=2) as load:
                done = subprocess.run(command, capture_output=True, text=True, check=True)
            figures = json.loads(done.stdout.strip().splitlines()[-1])
            cold[name].append({**figures, **load.fields()})
            print(
                f"[session] cold {name:14s} import {figures['import']:5.2f} s, first call "
                f"{figures['first_call']:5.2f} s {load}",
                flush=True,
            )
    for name in SESSION:  # the workers start, and import what either call needs
        session_call(name)
    after = {f"{name} after {previous}": [] for name in SESSION for previous in SESSION}
    previous = "cross_validate"
    for name in ["nested_cv", "nested_cv", "cross_validate", "cross_validate"] * args.repeats:
        with Load(workers=2) as load:
            seconds = session_call(name)
        after[f"{name} after {previous}"].append({"seconds": seconds, **load.fields()})
        print(f"[session] warm {name:14s} after {previous:14s} {seconds:6.3f} s {load}")
        previous = name
    whole.stop()

    def med(values, key):
        return float(np.median([value[key] for value in values]))

    warm = {label: med(values, "seconds") for label, values in after.items()}
    ratios = {
        name: warm[f"{name} after {other}"] / warm[f"{name} after {name}"]
        for name, other in zip(SESSION, SESSION[::-1])
    }
    first = {name: med(values, "first_call") for name, values in cold.items()}
    total = {
        name: med(values, "first_call") + med(values, "import") for name, values in cold.items()
    }
    figures = {
        **run_fields(argv=args.argv),
        "workload": "make_classification(200 x 10); LogisticRegression; NestedCV(grid C in "
        "[0.1, 1.0], outer_cv=3, n_jobs=2, random_state=0) and cross_validate(cv=3, n_jobs=2)",
        "cold": cold,
        "cold_first_call_median": first,
        "cold_import_and_first_call_median": total,
        "cold_nested_cv_over_cross_validate": first["nested_cv"] / first["cross_validate"],
        "cold_nested_cv_over_cross_validate_with_imports": total["nested_cv"]
        / total["cross_validate"],
        "cold_target": "NestedCV's cold first call within 2x of cross_validate's",
        "warm": after,
        "warm_median_seconds": warm,
        "after_the_other_over_after_itself": ratios,
        "warm_note": "a ratio near 1: the call found the other's workers warm (no restart)",
        "load": whole.fields(),
        "loaded_machine": loaded_note([cold, after]),
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    output = results_file("nested_session.json", args)
    output.write_text(json.dumps(figures, indent=2) + "\n")
    for label, value in warm.items():
        print(f"  warm {label:34s} median {value:6.3f} s")
    for name, ratio in ratios.items():
        print(f"[session] {name} after the other / after itself: {ratio:.2f}")
    print(
        f"[session] cold first call NestedCV / cross_validate: "
        f"{figures['cold_nested_cv_over_cross_validate']:.2f} (target <= 2; with the imports "
        f"{figures['cold_nested_cv_over_cross_validate_with_imports']:.2f}) {whole}; "
        f"{figures['loaded_machine']}; written to {output}"
    )
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--workload", nargs="+", choices=sorted([*WORKLOADS, *PIPELINES, "noop"]), default=["gb"]
    )
    parser.add_argument("--n-samples", type=int, default=None)
    parser.add_argument("--n-jobs", type=int, default=None, help="2; 1 for noop")
    parser.add_argument("--candidates", type=int, nargs="+", default=[100, 300, 1000, 3000, 10000])
    parser.add_argument(
        "--cold", action="store_true", help="each method's first call in a fresh interpreter"
    )
    parser.add_argument(
        "--quick", action="store_true", help="smaller data, one repeat: a smoke run (*_quick.json)"
    )
    parser.add_argument(
        "--session",
        action="store_true",
        help="a user's session: NestedCV and cross_validate alternating, warm and cold",
    )
    parser.add_argument("--cold-child", choices=sorted(METHODS), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    args.argv = argv  # what a results file records as its command (None: the command line's)
    if args.quick:
        args.repeats = 1
        args.candidates = [100, 300]
    if args.cold_child:
        args.n_jobs = args.n_jobs or 2
        return cold_child(args.cold_child, args.workload[0], args)
    if args.session:
        return bench_session(args)
    if "noop" in args.workload:
        args.n_jobs = args.n_jobs or 1
        bench_noop(args)
        return 0
    args.n_jobs = args.n_jobs or 2
    if args.cold:
        return 0 if all([bench_cold(name, args) for name in args.workload]) else 1
    whole = Load(workers=args.n_jobs)
    summary, all_identical, runs = {}, True, []
    for name in args.workload:
        figures, identical = bench_workload(name, args)
        runs.append(figures["load_of_each_run"])
        all_identical &= identical
        summary[name] = {
            "speedup_over_faster_idiom": figures["speedup_over_faster_idiom"],
            "target": figures["speedup_over_faster_idiom_target"],
            "wall_seconds_median": figures["wall_seconds_median"],
            "identical_scores": identical,
            "loaded_machine": figures["loaded_machine"],
        }
    whole.stop()
    if len(args.workload) > 1:
        output = results_file("nested_side_by_side.json", args)
        output.write_text(
            json.dumps(
                {
                    **run_fields(argv=args.argv),
                    "workloads": summary,
                    "n_jobs": args.n_jobs,
                    "repeats": args.repeats,
                    "load": whole.fields(),
                    "loaded_machine": loaded_note(runs),
                    "date": time.strftime("%Y-%m-%d %H:%M:%S"),
                },
                indent=2,
            )
            + "\n"
        )
        for name, row in summary.items():
            print(
                f"{name:5s} NestedCV vs the faster idiom {row['speedup_over_faster_idiom']:.3f}x "
                f"(target >= {row['target']}); {row['loaded_machine']}"
            )
        print(f"{whole}; written to {output}")
    return 0 if all_identical else 1


if __name__ == "__main__":
    sys.exit(main())
