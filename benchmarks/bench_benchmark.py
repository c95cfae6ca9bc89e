"""One task pool for a whole benchmark against NestedCV run cell by cell: time and data shipped.

Workload: 4 data sets (make_classification, 300 rows, 20 features) x 3 tuned models (a tree,
logistic regression, k-NN; 4 candidates each), outer_cv=5, the default inner hold-out, 1 refit:
the same fits either way (the script checks that every cell's outer scores are identical).

* ``one pool``: ``sklearn_fair.benchmark(..., n_jobs=N)``, every cell's tasks in one scheduler
  loop, so the tail of one cell overlaps the next;
* ``cell by cell``: ``NestedCV(..., n_jobs=N).fit`` for each cell in turn (each waits for its
  slowest fold before the next starts).

Both run in the same process, alternately, ``--repeats`` times, after an untimed run that
starts the workers; the table gives the median wall
time of each and their ratio. Data shipped: the bytes joblib writes for the workers, once for
the benchmark (each data set's arrays once, however many models share them) and summed over
the cells for the cell-by-cell runs.

Usage::

    python benchmarks/bench_benchmark.py [--n-jobs 2] [--repeats 3] [--output PATH]
"""

import argparse
import json
import os
import tempfile
import time
import warnings
from pathlib import Path

import joblib
import numpy as np
from _machine import Load, loaded_note, run_fields
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

import sklearn_fair
from sklearn_fair import NestedCV, benchmark
from sklearn_fair.model_selection._engine import PlansData, RunData

MODELS = {
    "tree": (DecisionTreeClassifier(random_state=0), {"max_depth": [2, 4, 8, None]}),
    "logistic": (LogisticRegression(max_iter=500), {"C": [0.001, 0.01, 0.1, 1.0]}),
    "knn": (KNeighborsClassifier(), {"n_neighbors": [1, 5, 15, 45]}),
}
SETTINGS = dict(outer_cv=5, n_refits=1, random_state=0)


def datasets():
    return {
        f"d{seed}": make_classification(
            n_samples=300, n_features=20, n_informative=6, random_state=seed
        )
        for seed in range(4)
    }


def one_pool(data, n_jobs):
    result = benchmark(MODELS, data, n_jobs=n_jobs, **SETTINGS)
    return {key: nested.outer_scores_ for key, nested in result.estimators.items()}


def cell_by_cell(data, n_jobs):
    scores = {}
    for dataset, (X, y) in data.items():
        for model, (estimator, grid) in MODELS.items():
            nested = NestedCV(estimator, grid, n_jobs=n_jobs, refit=False, **SETTINGS)
            scores[dataset, model] = nested.fit(X, y).outer_scores_
    return scores


def shipped_bytes(data):
    """Bytes joblib writes for the workers: the benchmark's one file, or one file per cell."""
    with tempfile.TemporaryDirectory() as folder:
        parts = [RunData(X, y) for X, y in data.values() for _ in MODELS]
        joblib.dump(PlansData(parts), Path(folder) / "all.joblib")
        together = os.path.getsize(Path(folder) / "all.joblib")
        apart = 0
        for i, part in enumerate(parts):
            joblib.dump(part, Path(folder) / f"{i}.joblib")
            apart += os.path.getsize(Path(folder) / f"{i}.joblib")
    return together, apart


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--output", type=Path, default=Path(__file__).parent / "results" / "benchmark.json"
    )
    args = parser.parse_args()
    warnings.simplefilter("ignore", sklearn_fair.exceptions.SearchSpaceEdgeWarning)
    data = datasets()
    whole = Load(workers=args.n_jobs)
    times = {"one pool": [], "cell by cell": []}
    loads = []  # one a repeat: its pair of runs, side by side
    reference = cell_by_cell(data, args.n_jobs)  # untimed: starts the worker pool
    for _ in range(args.repeats):
        with Load(workers=args.n_jobs) as load:
            for name, run in (("one pool", one_pool), ("cell by cell", cell_by_cell)):
                start = time.perf_counter()
                scores = run(data, args.n_jobs)
                times[name].append(time.perf_counter() - start)
                for key, values in scores.items():
                    np.testing.assert_array_equal(values, reference[key])
        loads.append(load)
    whole.stop()
    together, apart = shipped_bytes(data)
    medians = {name: float(np.median(values)) for name, values in times.items()}
    ratio = medians["cell by cell"] / medians["one pool"]
    note = loaded_note(loads)
    print(f"n_jobs={args.n_jobs}, {args.repeats} repeats")
    for repeat, load in enumerate(loads):
        print(
            f"  repeat {repeat}: "
            + ", ".join(f"{name} {values[repeat]:.2f} s" for name, values in times.items())
            + f" {load}"
        )
    for name, values in times.items():
        print(
            f"  {name:12s}: median {medians[name]:.2f} s  ({', '.join(f'{v:.2f}' for v in values)})"
        )
    print(f"  cell by cell / one pool: {ratio:.2f}")
    print(f"  data shipped: one pool {together / 1e6:.2f} MB, cell by cell {apart / 1e6:.2f} MB")
    print(f"{whole}; {note}")
    report = {
        **run_fields(),
        "n_jobs": args.n_jobs,
        "load": whole.fields(),
        "load_of_each_repeat": [load.fields() for load in loads],
        "loaded_machine": note,
        "workload": "4 data sets (300 x 20) x 3 models x 4 candidates, outer_cv=5, "
        "inner hold-out, 1 refit",
        "wall_seconds": times,
        "median_wall_seconds": medians,
        "ratio_cell_by_cell_over_one_pool": ratio,
        "shipped_bytes": {"one_pool": together, "cell_by_cell": apart},
        "identical_scores": True,
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(report, indent=2) + "\n")
    print(f"written to {args.output}")


if __name__ == "__main__":
    main()
