"""NestedCV against both of scikit-learn's nested idioms, side by side in one run.

The same work three ways, with identical splitters, on a grid whose fits differ in length
(gradient boosting by default, ``--workload svc`` for an SVC grid):

- parallel inner search: ``cross_validate(GridSearchCV(est, grid, cv=inner, n_jobs=W), X, y,
  cv=outer)``;
- parallel outer folds: ``cross_validate(GridSearchCV(est, grid, cv=inner), X, y, cv=outer,
  n_jobs=W)``;
- ``NestedCV(est, grid, outer_cv=outer, inner_cv=inner, n_refits=1, n_jobs=W)``;

plus NestedCV with ``n_jobs=1`` for the serial time, whose W-th part is the ceiling of any
W-worker run. Reports the per-fold test scores (they must be identical), the wall times, the
ratios to the faster idiom and to the ceiling, and NestedCV's parallel efficiency = (sum of
task times) / (W x wall time).

Usage: python benchmarks/bench_nested.py [--workload gb|svc] [--repeats 3] [--n-jobs 2]
(results: benchmarks/results/nested.json for gb, nested_svc.json for svc)
"""

import argparse
import importlib
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed
from sklearn.datasets import make_classification
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_validate
from sklearn.svm import SVC

from sklearn_fair import NestedCV
from sklearn_fair.model_selection import HoldoutSplit
from sklearn_fair.utils import package_versions

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


def workload(name, n_samples=None):
    description, make_estimator, grid, data = WORKLOADS[name]
    X, y = make_classification(
        n_samples=n_samples or data["n_samples"],
        n_features=20,
        n_informative=8,
        flip_y=data["flip_y"],
        random_state=0,
    )
    outer = StratifiedKFold(n_splits=10, shuffle=True, random_state=0)
    inner = HoldoutSplit(test_size=0.1, stratify=True, random_state=0)
    return X, y, make_estimator(), grid, outer, inner


def warm_up(n_jobs):
    """Start the worker processes and import what every method runs, before timing, so that
    no method pays for starting processes or importing modules (they share one loky pool)."""
    modules = [
        "sklearn.ensemble",
        "sklearn.svm",
        "sklearn.model_selection",
        "sklearn_fair.model_selection._nested._running",
    ]
    Parallel(n_jobs=n_jobs)(
        delayed(importlib.import_module)(name) for name in modules * (2 * n_jobs)
    )


def run_inner_parallel(X, y, estimator, grid, outer, inner, n_jobs):
    warm_up(n_jobs)
    start = time.perf_counter()
    search = GridSearchCV(estimator, grid, cv=inner, n_jobs=n_jobs)
    results = cross_validate(search, X, y, cv=outer)
    return time.perf_counter() - start, results["test_score"], None


def run_outer_parallel(X, y, estimator, grid, outer, inner, n_jobs):
    warm_up(n_jobs)
    start = time.perf_counter()
    search = GridSearchCV(estimator, grid, cv=inner, n_jobs=1)
    results = cross_validate(search, X, y, cv=outer, n_jobs=n_jobs)
    return time.perf_counter() - start, results["test_score"], None


def run_nested(X, y, estimator, grid, outer, inner, n_jobs):
    warm_up(n_jobs)
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


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workload", choices=sorted(WORKLOADS), default="gb")
    parser.add_argument("--n-samples", type=int, default=None)
    parser.add_argument("--n-jobs", type=int, default=2)
    args = parser.parse_args(argv)
    X, y, estimator, grid, outer, inner = workload(args.workload, args.n_samples)
    W = args.n_jobs
    methods = {
        "sklearn_inner_parallel": lambda: run_inner_parallel(
            X, y, estimator, grid, outer, inner, W
        ),
        "sklearn_outer_parallel": lambda: run_outer_parallel(
            X, y, estimator, grid, outer, inner, W
        ),
        "nested_cv": lambda: run_nested(X, y, estimator, grid, outer, inner, W),
        "nested_cv_serial": lambda: run_nested(X, y, estimator, grid, outer, inner, 1),
    }
    walls = {name: [] for name in methods}
    scores, efficiencies = {}, []
    for repeat in range(args.repeats):
        # Rotate the order so that drift on a shared machine hits every method alike.
        names = list(methods)
        names = names[repeat % len(names) :] + names[: repeat % len(names)]
        for name in names:
            wall, fold_scores, task_time = methods[name]()
            walls[name].append(wall)
            scores[name] = np.asarray(fold_scores)
            if name == "nested_cv":
                efficiencies.append(task_time / (W * wall))
            print(f"repeat {repeat} {name:24s} wall {wall:7.2f} s", flush=True)

    identical = all(np.array_equal(scores["nested_cv"], other) for other in scores.values())
    median = {name: float(np.median(values)) for name, values in walls.items()}
    faster_idiom = min(median["sklearn_inner_parallel"], median["sklearn_outer_parallel"])
    ceiling = median["nested_cv_serial"] / W
    figures = {
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "workload": {
            "name": args.workload,
            "data": f"make_classification(n_samples={len(y)}, n_features=20, "
            f"flip_y={WORKLOADS[args.workload][3]['flip_y']})",
            "estimator": WORKLOADS[args.workload][0],
            "grid": grid,
            "outer": "StratifiedKFold(10, shuffle=True, random_state=0)",
            "inner": "HoldoutSplit(test_size=0.1, stratify=True, random_state=0)",
            "n_refits": 1,
            "n_jobs": W,
            "repeats": args.repeats,
        },
        "per_fold_test_scores": {
            **{name: values.tolist() for name, values in scores.items()},
            "identical": identical,
        },
        "wall_seconds": walls,
        "wall_seconds_median": median,
        "speedup_over_faster_idiom": faster_idiom / median["nested_cv"],
        "speedup_over_faster_idiom_target": 1.0,
        "fraction_of_ceiling": ceiling / median["nested_cv"],
        "fraction_of_ceiling_target": 0.95,
        "ceiling_seconds": ceiling,
        "parallel_efficiency_median": float(np.median(efficiencies)),
        "parallel_efficiency_all": efficiencies,
        "versions": package_versions(),
        "cpu_count": os.cpu_count(),
        "load_average_at_end": os.getloadavg(),
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    output = RESULTS / ("nested.json" if args.workload == "gb" else f"nested_{args.workload}.json")
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(figures, indent=2) + "\n")
    print(f"per-fold test scores identical across methods: {identical}")
    for name, value in median.items():
        print(f"  {name:24s} median wall {value:7.2f} s")
    print(
        f"NestedCV vs the faster idiom: {figures['speedup_over_faster_idiom']:.3f}x (target >= 1)"
    )
    print(
        f"NestedCV reaches {figures['fraction_of_ceiling']:.3f} of the ceiling serial/{W} "
        f"= {ceiling:.2f} s (target >= 0.95)"
    )
    print(f"NestedCV parallel efficiency: {figures['parallel_efficiency_median']:.3f}")
    print(f"written to {output}")
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
