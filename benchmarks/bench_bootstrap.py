"""Benchmark bootstrap_ci against a plain Python loop and scipy.stats.bootstrap.

For the mean and the IQM of n=50 scores with 10,000 resamples, times three
ways to get the same percentile (and BCa) interval, side by side:

- ours: ``sklearn_fair.stats.bootstrap_ci`` (vectorised over chunks of resamples);
- loop: draw one resample, evaluate the statistic on it, repeat 10,000 times;
- scipy: ``scipy.stats.bootstrap(..., vectorized=True)``.

Targets: ours >= 30x faster than the loop and no slower than scipy. It also
measures the peak memory (tracemalloc) of ``bootstrap_ci`` on 10,000 values,
target under 200 MB. Run from the repository root::

    python benchmarks/bench_bootstrap.py

and it writes ``benchmarks/results/bootstrap.json``.
"""

import json
import time
import tracemalloc
from pathlib import Path

import numpy as np
from _machine import Load, loaded_note, run_fields
from scipy import stats

from sklearn_fair.stats import bootstrap_ci, iqm

N_VALUES = 50
N_RESAMPLES = 10_000
N_VALUES_MEMORY = 10_000
CONFIDENCE = 0.95
REPEATS = 7
STATISTICS = {"mean": np.mean, "iqm": iqm}
RESULTS = Path(__file__).resolve().parent / "results" / "bootstrap.json"


def best_time(function, repeats=REPEATS):
    """The fastest of ``repeats`` calls, in seconds (the least disturbed by other load)."""
    function()  # warm-up: imports, caches
    timings = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        timings.append(time.perf_counter() - start)
    return min(timings)


def plain_loop(values, statistic, method):
    rng = np.random.default_rng(0)
    n = values.shape[0]
    theta = np.empty(N_RESAMPLES)
    for i in range(N_RESAMPLES):
        theta[i] = statistic(values[rng.integers(0, n, n)])
    alpha = 1 - CONFIDENCE
    if method == "percentile":
        return np.percentile(theta, [50 * alpha, 100 - 50 * alpha])
    estimate = statistic(values)
    jackknife = np.array([statistic(np.delete(values, i)) for i in range(n)])
    z0 = stats.norm.ppf((np.mean(theta < estimate) + np.mean(theta <= estimate)) / 2)
    d = jackknife.mean() - jackknife
    a = np.sum(d**3) / (6 * np.sum(d**2) ** 1.5)
    z = stats.norm.ppf([alpha / 2, 1 - alpha / 2])
    return np.percentile(theta, 100 * stats.norm.cdf(z0 + (z0 + z) / (1 - a * (z0 + z))))


def scipy_bootstrap(values, statistic, method):
    result = stats.bootstrap(
        (values,),
        statistic,
        n_resamples=N_RESAMPLES,
        confidence_level=CONFIDENCE,
        method="BCa" if method == "bca" else "percentile",
        vectorized=True,
        rng=np.random.default_rng(0),
    )
    return result.confidence_interval


def ours(values, statistic, method):
    return bootstrap_ci(
        values, statistic, n_resamples=N_RESAMPLES, confidence=CONFIDENCE, method=method
    )


def peak_memory_mb(values, statistic, method):
    tracemalloc.start()
    ours(values, statistic, method)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def main():
    rng = np.random.default_rng(12345)
    values = rng.normal(0.8, 0.05, size=N_VALUES)
    large = rng.normal(0.8, 0.05, size=N_VALUES_MEMORY)
    whole, rows = Load(), []
    header = (
        f"{'statistic':<9} {'method':<10} {'ours ms':>8} {'loop ms':>9} {'scipy ms':>9} "
        f"{'vs loop':>8} {'vs scipy':>9} {'peak MB (n=10k)':>16}"
    )
    print(f"bootstrap_ci: n={N_VALUES} values, {N_RESAMPLES} resamples, best of {REPEATS}")
    print(header)
    for name, statistic in STATISTICS.items():
        for method in ("percentile", "bca"):
            with Load() as load:  # the three side by side, and the memory
                ours_s = best_time(lambda s=statistic, m=method: ours(values, s, m))
                loop_s = best_time(
                    lambda s=statistic, m=method: plain_loop(values, s, m), repeats=3
                )
                scipy_s = best_time(lambda s=statistic, m=method: scipy_bootstrap(values, s, m))
                peak = peak_memory_mb(large, statistic, method)
            ours_ci = tuple(ours(values, statistic, method))
            scipy_ci = tuple(float(x) for x in scipy_bootstrap(values, statistic, method))
            row = {
                "statistic": name,
                "method": method,
                "ours_ms": 1e3 * ours_s,
                "loop_ms": 1e3 * loop_s,
                "scipy_ms": 1e3 * scipy_s,
                "speedup_vs_loop": loop_s / ours_s,
                "speedup_vs_scipy": scipy_s / ours_s,
                "peak_memory_mb_10000_values": peak,
                "ours_interval": ours_ci,
                "scipy_interval": scipy_ci,
                "meets_targets": bool(loop_s / ours_s >= 30 and scipy_s >= ours_s and peak < 200),
                **load.fields(),
            }
            rows.append(row)
            print(
                f"{name:<9} {method:<10} {row['ours_ms']:8.2f} {row['loop_ms']:9.1f} "
                f"{row['scipy_ms']:9.2f} {row['speedup_vs_loop']:7.1f}x "
                f"{row['speedup_vs_scipy']:8.2f}x {peak:16.1f} {load}"
            )
    report = {
        **run_fields(),
        "load": whole.stop().fields(),
        "loaded_machine": loaded_note(rows),
        "n_values": N_VALUES,
        "n_resamples": N_RESAMPLES,
        "n_values_memory": N_VALUES_MEMORY,
        "repeats": REPEATS,
        "targets": {"speedup_vs_loop": 30, "speedup_vs_scipy": 1.0, "peak_memory_mb": 200},
        "results": rows,
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    print(f"{whole}; {report['loaded_machine']}; written to {RESULTS}")


if __name__ == "__main__":
    main()
