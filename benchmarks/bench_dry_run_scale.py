"""How the dry run's own work grows with the number of data sets of a file (target: linear, and
5,000 data sets counted in under 10 s without timing).

Two files, each with N ``[data.NAME]`` tables and two models (a tree and k-NN, two candidates
each, 3 outer folds): "distinct CSVs", every table its own 40-row CSV file (each read and each
model planned by NestedCV's planner on it), and
"one source", every table naming ``sklearn:iris`` (the data are read once and each model
planned once: the tables are the same data). ``dry_run(path, timing=False)`` is timed in this
process after a warm-up, once per N; the seconds per data set should stay flat as N grows.

The headline is the distinct CSVs' seconds at 5,000 data sets, the case a user with many data
sets meets (one source is the cheap case: one plan per model whatever N). Saves
``results/dry_run_scale.json`` and ``results/dry_run_scale.png``; ``--quick`` times smaller
files, extrapolates the headline from them, and saves nothing.

Usage: python benchmarks/bench_dry_run_scale.py [--quick]
"""

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np
from _machine import Load, loaded_note, run_fields

from sklearn_fair.experiment import dry_run

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "dry_run_scale.json"
FIGURE = HERE / "results" / "dry_run_scale.png"
MODELS = """
[protocol]
outer_cv = 3
n_refits = 1

[models.tree]
estimator = "sklearn.tree.DecisionTreeClassifier"
grid = { max_depth = [1, 2] }

[models.knn]
estimator = "sklearn.neighbors.KNeighborsClassifier"
grid = { n_neighbors = [3, 9] }
"""


def one_source(folder, n):
    tables = "".join(f'[data.d{i}]\ndataset = "sklearn:iris"\n' for i in range(n))
    path = folder / f"one_source_{n}.toml"
    path.write_text("[experiment]\nprogress = false\n" + tables + MODELS)
    return path


def distinct_csvs(folder, n):
    rng = np.random.default_rng(0)
    tables = []
    for i in range(n):
        name = folder / f"d{i}.csv"
        if not name.exists():
            X = rng.normal(size=(40, 3))
            y = (X[:, 0] + rng.normal(size=40) > 0).astype(int)
            rows = np.column_stack([X, y])
            np.savetxt(name, rows, delimiter=",", header="a,b,c,y", comments="", fmt="%.5g")
        tables.append(f'[data.d{i}]\ndataset = "csv"\npath = "d{i}.csv"\ntarget = "y"\n')
    path = folder / f"distinct_{n}.toml"
    path.write_text("[experiment]\nprogress = false\n" + "".join(tables) + MODELS)
    return path


def timed(path):
    """Wall seconds, this process's CPU seconds (less moved by other processes on a shared
    machine) and the cells of the dry run of ``path``."""
    start, cpu = time.perf_counter(), time.process_time()
    report = dry_run(path, timing=False)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    assert report.total_fits == len(report.plans) * (3 * 2 * 1 + 3), report.total_fits
    return seconds, cpu, len(report.plans)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller files, nothing saved")
    quick = parser.parse_args().quick
    whole = Load()
    workloads = {
        "distinct CSVs": (distinct_csvs, [50, 100, 200] if quick else [50, 200, 1000, 5000]),
        "one source": (one_source, [50, 200] if quick else [50, 200, 1000, 5000]),
    }
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        timed(one_source(folder, 5))  # warm-up: imports, first plans
        for workload, (write, sizes) in workloads.items():
            for n in sizes:
                path = write(folder, n)
                with Load() as load:
                    seconds, cpu, cells = timed(path)
                rows.append({"workload": workload, "datasets": n, "cells": cells,
                             "seconds": seconds, "cpu_seconds": cpu,
                             "seconds_per_dataset": seconds / n, **load.fields()})  # fmt: skip
                print(f"{workload:14s} {n:5d} data sets: {seconds:7.2f} s, {cpu:7.2f} s CPU "
                      f"({1000 * seconds / n:.2f} ms per data set) {load}")  # fmt: skip
    whole.stop()
    distinct = [r for r in rows if r["workload"] == "distinct CSVs"]
    measured = [r["seconds"] for r in distinct if r["datasets"] == 5000]
    per_dataset = float(np.median([r["seconds_per_dataset"] for r in distinct]))
    headline = measured[0] if measured else per_dataset * 5000
    one_source_largest = max(
        (r for r in rows if r["workload"] == "one source"), key=lambda r: r["datasets"]
    )
    print(
        f"Headline: 5000 distinct data sets (2 models each) counted in {headline:.1f} s "
        f"({'measured' if measured else 'extrapolated'}; target 10 s); one source, "
        f"{one_source_largest['datasets']} tables: {one_source_largest['seconds']:.2f} s. "
        f"Whole run {whole}; {loaded_note(rows)}."
    )
    if quick:
        return
    record = {
        **run_fields(),
        "load": whole.fields(),
        "loaded_machine": loaded_note(rows),
        "target": "5000 data sets counted in under 10 s without timing; linear in N",
        "headline": "distinct_5000_seconds: 5000 data sets, each its own CSV, 2 models",
        "distinct_5000_seconds": headline,
        "distinct_seconds_per_dataset": per_dataset,
        "one_source_5000_seconds": one_source_largest["seconds"],
        "rows": rows,
    }
    RESULTS.write_text(json.dumps(record, indent=1) + "\n")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - the plot extra
        print(f"Saved to {RESULTS} (no figure: matplotlib is not installed).")
        return
    figure, ax = plt.subplots(figsize=(6, 4))
    for workload in workloads:
        points = [(r["datasets"], r["seconds"]) for r in rows if r["workload"] == workload]
        ax.plot(*zip(*points), marker="o", label=workload)
    ax.axhline(10, color="grey", linestyle="--", label="target at 5,000 data sets")
    ax.set(xscale="log", yscale="log", xlabel="data sets in the file",
           ylabel="seconds of dry_run(timing=False)",
           title="Dry run without timing: seconds against data sets")  # fmt: skip
    ax.legend()
    figure.tight_layout()
    figure.savefig(FIGURE, dpi=120)
    print(f"Saved to {RESULTS} and {FIGURE}.")


if __name__ == "__main__":
    main()
