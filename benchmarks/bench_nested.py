"""NestedCV against scikit-learn's nested idiom, side by side in one run.

The same work both ways: ``cross_validate(GridSearchCV(est, grid, cv=inner, n_jobs=2), X, y,
cv=outer)`` and ``NestedCV(est, grid, outer_cv=outer, inner_cv=inner, n_refits=1, n_jobs=2)``
with identical splitters, on a grid whose fits differ in length (gradient boosting by default,
``--workload svc`` for an SVC grid). Reports both methods' per-fold test scores (they must be
identical), the wall-time ratio and NestedCV's parallel efficiency = (sum of task times) /
(n_jobs x wall time).

Usage: python benchmarks/bench_nested.py [--workload gb|svc] [--repeats 3] [--n-jobs 2]
(results: benchmarks/results/nested.json for gb, nested_svc.json for svc)
"""

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import joblib
import numpy as np
import sklearn
from joblib import Parallel, delayed
from sklearn.datasets import make_classification
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_validate
from sklearn.svm import SVC

import sklearn_fair
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
    """Start the worker processes before timing, so neither method pays for it."""
    Parallel(n_jobs=n_jobs)(delayed(np.sqrt)(i) for i in range(4 * n_jobs))


def run_sklearn(X, y, estimator, grid, outer, inner, n_jobs):
    warm_up(n_jobs)
    start = time.perf_counter()
    search = GridSearchCV(estimator, grid, cv=inner, n_jobs=n_jobs)
    results = cross_validate(search, X, y, cv=outer)
    return time.perf_counter() - start, results["test_score"]


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

    sklearn_walls, nested_walls, efficiencies = [], [], []
    for repeat in range(args.repeats):
        # Alternate the order so that drift on a shared machine hits both methods alike.
        order = ("sklearn", "nested") if repeat % 2 == 0 else ("nested", "sklearn")
        for method in order:
            if method == "sklearn":
                wall, sklearn_scores = run_sklearn(X, y, estimator, grid, outer, inner, args.n_jobs)
                sklearn_walls.append(wall)
            else:
                wall, nested_scores, task_time = run_nested(
                    X, y, estimator, grid, outer, inner, args.n_jobs
                )
                nested_walls.append(wall)
                efficiencies.append(task_time / (args.n_jobs * wall))
            print(f"repeat {repeat} {method:8s} wall {wall:7.2f} s", flush=True)

    identical = bool(np.array_equal(sklearn_scores, nested_scores))
    ratio = float(np.median(sklearn_walls) / np.median(nested_walls))
    efficiency = float(np.median(efficiencies))
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
            "n_jobs": args.n_jobs,
            "repeats": args.repeats,
        },
        "per_fold_test_scores": {
            "sklearn": np.asarray(sklearn_scores).tolist(),
            "nested_cv": np.asarray(nested_scores).tolist(),
            "identical": identical,
        },
        "wall_seconds": {"sklearn": sklearn_walls, "nested_cv": nested_walls},
        "speedup_median": ratio,
        "speedup_target": 1.2,
        "parallel_efficiency_median": efficiency,
        "parallel_efficiency_all": efficiencies,
        "parallel_efficiency_target": 0.85,
        "versions": {
            "python": platform.python_version(),
            "sklearn_fair": sklearn_fair.__version__,
            "scikit-learn": sklearn.__version__,
            "numpy": np.__version__,
            "joblib": joblib.__version__,
        },
        "cpu_count": os.cpu_count(),
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    output = RESULTS / ("nested.json" if args.workload == "gb" else f"nested_{args.workload}.json")
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(figures, indent=2) + "\n")
    print(f"per-fold test scores identical: {identical}")
    print(
        f"wall time  sklearn idiom median {np.median(sklearn_walls):.2f} s, "
        f"NestedCV median {np.median(nested_walls):.2f} s"
    )
    print(f"speed-up (sklearn / NestedCV): {ratio:.2f}x (target >= 1.2)")
    print(f"NestedCV parallel efficiency: {efficiency:.3f} (target >= 0.85)")
    print(f"written to {output}")
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
