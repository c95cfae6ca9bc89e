"""Benchmark BenchmarkResult.aggregate(): 4 models x 4 data sets x 5 folds, 2,000 resamples.

Side by side in one process, CPU seconds (``time.process_time``):

- before: the previous implementation, a Python loop over the resamples that calls
  ``stats.iqm`` and ``stats.probability_of_improvement`` (each through scikit-learn's
  parameter validation) on every resample;
- after: ``BenchmarkResult.aggregate()``, ``scipy.stats.bootstrap`` with one sample per data
  set, every resample at once.

Targets (issue 34): after under 2 s of CPU and at least 20 times faster than before; the same
``random_state`` gives the same table. Run from the repository root::

    python benchmarks/bench_aggregate.py

and it writes ``benchmarks/results/aggregate.json``.
"""

import json
import sys
import time
from pathlib import Path

import numpy as np
from _machine import Load, loaded_note, run_fields

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's sklearn_fair

from sklearn_fair import BenchmarkResult  # noqa: E402
from sklearn_fair.stats import iqm, probability_of_improvement  # noqa: E402
from sklearn_fair.utils import as_generator  # noqa: E402

N_MODELS, N_DATASETS, N_FOLDS, N_RESAMPLES = 4, 4, 5, 2000
RESULTS = Path(__file__).resolve().parent / "results" / "aggregate.json"


def scores():
    rng = np.random.default_rng(0)
    return {
        (f"data{d}", f"model{m}"): {"test_scores": list(rng.normal(0.7 + 0.02 * m, 0.05, N_FOLDS))}
        for d in range(N_DATASETS)
        for m in range(N_MODELS)
    }


def before(result, n_resamples=N_RESAMPLES, confidence=0.95, random_state=0):
    """The loop of the previous release (commit 6711756), for the timing only."""
    rng = as_generator(random_state)

    def bootstrap(statistic, *groups):
        values = [
            statistic(*[[s[rng.integers(0, len(s), len(s))] for s in g] for g in groups])
            for _ in range(n_resamples)
        ]
        tail = (1 - confidence) / 2
        return tuple(np.quantile(values, [tail, 1 - tail]))

    def pooled_iqm(groups):
        return iqm(np.concatenate(groups))

    def pooled_mean(groups):
        return float(np.mean(np.concatenate(groups)))

    def average_poi(x, y):
        return float(np.mean([probability_of_improvement(a, b) for a, b in zip(x, y)]))

    rows = {}
    for model in result.models:
        per_dataset = [np.asarray(result.cells[d, model].scores) for d in result.datasets]
        base = [np.asarray(result.cells[d, result.baseline].scores) for d in result.datasets]
        rows[model] = [bootstrap(pooled_iqm, per_dataset), bootstrap(pooled_mean, per_dataset)]
        if model != result.baseline:
            rows[model].append(bootstrap(average_poi, per_dataset, base))
    return rows


def cpu_seconds(function, repeats):
    timings = []
    for _ in range(repeats):
        start = time.process_time()
        function()
        timings.append(time.process_time() - start)
    return min(timings)


def main():
    import sklearn_fair

    print(f"sklearn_fair from {Path(sklearn_fair.__file__).parent}")
    whole = Load()
    result = BenchmarkResult.from_results(scores(), baseline="model0")
    result.aggregate(n_resamples=10)  # warm-up: imports
    with Load() as after_load:
        after_s = cpu_seconds(lambda: result.aggregate(n_resamples=N_RESAMPLES), repeats=5)
    with Load() as before_load:
        before_s = cpu_seconds(lambda: before(result), repeats=1)
    first = result.aggregate(n_resamples=N_RESAMPLES, random_state=0)
    same = bool(first.equals(result.aggregate(n_resamples=N_RESAMPLES, random_state=0)))
    report = {
        **run_fields(["pandas"]),
        "load": whole.stop().fields(),
        "loaded_machine": loaded_note([before_load, after_load]),
        "workload": {
            "models": N_MODELS,
            "datasets": N_DATASETS,
            "folds": N_FOLDS,
            "n_resamples": N_RESAMPLES,
        },
        "before_cpu_seconds": before_s,
        "before_load": before_load.fields(),
        "after_cpu_seconds (best of 5)": after_s,
        "after_load": after_load.fields(),
        "speedup": before_s / after_s,
        "same_table_for_the_same_random_state": same,
        "targets": {"after_cpu_seconds": 2.0, "speedup": 20},
        "meets_targets": bool(after_s < 2.0 and before_s / after_s >= 20 and same),
        "table": json.loads(first.to_json(orient="index")),
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    print(
        f"aggregate(), {N_MODELS} models x {N_DATASETS} data sets x {N_FOLDS} folds, "
        f"{N_RESAMPLES} resamples: before {before_s:.2f} s CPU {before_load}, after "
        f"{after_s:.3f} s CPU {after_load} ({before_s / after_s:.0f}x); same table for the "
        f"same seed: {same}"
    )
    print(f"{whole}; {report['loaded_machine']}")
    print(f"written to {RESULTS}")


if __name__ == "__main__":
    main()
