"""What a task cache costs a run, side by side in one process: the same nested
cross-validation without a cache, into an empty cache (cold) and from the full one (warm).

A user pays the cold run once per study and the warm one on every rerun; both are compared
with the run without a cache, as the ratios ``cold / none`` and ``warm / none`` of CPU and of
wall time, best of ``--repeats`` (each repeat a fresh cache). Workloads: ``tree``, a Pipeline
of StandardScaler and DecisionTreeClassifier over 32 candidates, 5 x 5 folds (805 entries:
describing the candidates is most of the warm run's cost), and ``logreg``, a
LogisticRegression over 4 values of C, 5 x 3 folds (65 entries). Serial (``n_jobs=1``), BLAS
and OpenMP at one thread: the ratio is the cache's own work.

Usage: python benchmarks/bench_cache.py [--repeats 3]
"""

import argparse
import json
import sys
import tempfile
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _machine import Load, loaded_note, run_fields  # noqa: E402

RESULTS = HERE / "results" / "cache.json"


def workload(name):
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    if name == "tree":
        X, y = make_classification(300, 10, random_state=0)
        estimator = make_pipeline(StandardScaler(), DecisionTreeClassifier(random_state=0))
        grid = {
            "decisiontreeclassifier__max_depth": list(range(1, 17)),
            "decisiontreeclassifier__criterion": ["gini", "entropy"],
        }
        inner = 5
    else:
        X, y = make_classification(500, 20, random_state=0)
        estimator, grid, inner = LogisticRegression(max_iter=200), {"C": [0.01, 0.1, 1, 10]}, 3
    splits = dict(
        inner_cv=StratifiedKFold(inner, shuffle=True, random_state=0),
        cv=StratifiedKFold(5, shuffle=True, random_state=1),
    )
    return X, y, estimator, grid, splits


def measure(name, repeats, work):
    from threadpoolctl import threadpool_limits

    from sklearn_fair import nested_cross_validate

    X, y, estimator, grid, splits = workload(name)

    def run(cache):
        return nested_cross_validate(
            estimator, X, y, param_grid=grid, n_refits=1, random_state=0, cache_dir=cache,
            **splits,
        )  # fmt: skip

    times = {"none": [], "cold": [], "warm": []}
    with threadpool_limits(1), warnings.catch_warnings(), Load() as load:
        warnings.simplefilter("ignore")
        reference = run(None)["test_score"]  # imports and first calls, untimed
        for _repeat in range(repeats):
            cache = Path(tempfile.mkdtemp(dir=work))
            for kind, where in (("none", None), ("cold", cache), ("warm", cache)):
                cpu, wall = time.process_time(), time.perf_counter()
                scores = run(where)["test_score"]
                times[kind].append((time.process_time() - cpu, time.perf_counter() - wall))
                if list(scores) != list(reference):
                    raise AssertionError(f"{kind} run scored {scores}, not {reference}")
    entries = sum(1 for _ in cache.glob("*/*.json"))
    best = {kind: [min(t[i] for t in values) for i in (0, 1)] for kind, values in times.items()}
    return {
        "entries": entries,
        "cpu_seconds": {kind: round(value[0], 3) for kind, value in best.items()},
        "wall_seconds": {kind: round(value[1], 3) for kind, value in best.items()},
        "cpu_ratio": {k: round(best[k][0] / best["none"][0], 3) for k in ("cold", "warm")},
        "wall_ratio": {k: round(best[k][1] / best["none"][1], 3) for k in ("cold", "warm")},
        "identical_scores": True,
        "load": load.fields(),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workload", nargs="+", default=["tree", "logreg"])
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as work:
        figures = {name: measure(name, args.repeats, work) for name in args.workload}
    record = {
        **run_fields(argv=argv),
        "what": "a run with a task cache against the same run without one (best of repeats)",
        "repeats": args.repeats,
        "workloads": figures,
        "loaded_machine": loaded_note(figures),
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(record, indent=2) + "\n")
    for name, result in figures.items():
        print(
            f"{name}: {result['entries']} entries; CPU cold/none {result['cpu_ratio']['cold']}, "
            f"warm/none {result['cpu_ratio']['warm']}; wall cold/none "
            f"{result['wall_ratio']['cold']}, warm/none {result['wall_ratio']['warm']}"
        )


if __name__ == "__main__":
    main()
