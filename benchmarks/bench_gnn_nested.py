"""GNN NestedCV with one worker and with two, side by side in one run (issue 14).

GraphClassifier(GIN) on PROTEINS (``$SKLEARN_FAIR_DATA/TUDataset``), a 2-candidate grid, a few
epochs, 5 outer folds with the default inner hold-out and 2 refits. Reports the wall time of
``n_jobs=1`` and ``n_jobs=2`` (and their ratio; the ceiling is 2), whether the outer scores are
bit-identical, and the peak memory of each: the proportional set size (PSS, shared pages
split between the processes that map them) of the calling process and all its worker
processes, sampled every 50 ms. The sampling thread reads every process's page maps, which
takes CPU from the workers, so memory is measured in runs of its own (one per ``n_jobs``)
and the timed runs do not sample. Results: ``benchmarks/results/gnn_nested.json``.

Usage: python benchmarks/bench_gnn_nested.py [--epochs 10] [--repeats 4]
"""

import argparse
import contextlib
import json
import os
import sys
import threading
import time
from pathlib import Path

import numpy as np
import psutil

from sklearn_fair import NestedCV
from sklearn_fair.graph import GIN, GraphClassifier, load_tu_dataset
from sklearn_fair.model_selection import StratifiedGraphKFold
from sklearn_fair.utils import package_versions

RESULTS = Path(__file__).resolve().parent / "results"
DATA = Path(
    os.environ.get("SKLEARN_FAIR_DATA", Path(__file__).resolve().parents[2] / "shared" / "data")
)


class PeakMemory:
    """Samples the PSS of this process and its children in a thread; ``peak`` in bytes."""

    def __init__(self, interval=0.05):
        self.interval, self.peak, self._stop = interval, 0, threading.Event()

    def _total(self):
        me = psutil.Process()
        total = 0
        for process in [me, *me.children(recursive=True)]:
            try:
                total += process.memory_full_info().pss
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
        return total

    def _run(self):
        while not self._stop.is_set():
            self.peak = max(self.peak, self._total())
            time.sleep(self.interval)

    def __enter__(self):
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


def run(graphs, n_jobs, epochs, memory=None):
    nested = NestedCV(
        GraphClassifier(
            GIN,
            max_epochs=epochs,
            batch_size=32,
            lr=0.01,
            patience=epochs,
            module__hidden_units=[32, 32],
        ),
        {"module__dropout": [0.0, 0.5]},
        outer_cv=StratifiedGraphKFold(5, random_state=0),
        n_refits=2,
        refit=False,
        random_state=0,
        n_jobs=n_jobs,
    )
    with memory or contextlib.nullcontext():
        start = time.perf_counter()
        nested.fit(graphs)
        wall = time.perf_counter() - start
    return wall, nested.outer_scores_


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=4)
    args = parser.parse_args(argv)
    graphs = load_tu_dataset("PROTEINS", DATA / "TUDataset")
    run(graphs[::10], 2, 1)  # start and warm the worker processes (imports), untimed
    walls = {1: [], 2: []}
    peaks = {1: [], 2: []}
    scores = {}
    for repeat in range(args.repeats):
        for n_jobs in (1, 2) if repeat % 2 == 0 else (2, 1):
            wall, outer = run(graphs, n_jobs, args.epochs)
            walls[n_jobs].append(wall)
            scores.setdefault(n_jobs, outer)
            identical = np.array_equal(outer, scores[n_jobs])
            print(
                f"repeat {repeat} n_jobs={n_jobs} wall {wall:7.2f} s "
                f"(same scores as before: {identical})",
                flush=True,
            )
    for n_jobs in (1, 2):
        memory = PeakMemory()
        run(graphs, n_jobs, args.epochs, memory)
        peaks[n_jobs].append(memory.peak)
        print(f"n_jobs={n_jobs} peak {memory.peak / 2**20:7.1f} MiB (a run of its own)", flush=True)
    speedup = float(np.median(walls[1]) / np.median(walls[2]))
    memory_ratio = float(np.max(peaks[2]) / np.max(peaks[1]))
    identical = bool(np.array_equal(scores[1], scores[2]))
    figures = {
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "workload": {
            "data": f"PROTEINS ({len(graphs)} graphs), load_tu_dataset",
            "estimator": "GraphClassifier(GIN, hidden_units=[32, 32], batch_size=32, lr=0.01, "
            f"max_epochs={args.epochs})",
            "grid": {"module__dropout": [0.0, 0.5]},
            "outer": "StratifiedGraphKFold(5, random_state=0)",
            "inner": "default 10% hold-out",
            "n_refits": 2,
        },
        "wall_seconds": {str(k): v for k, v in walls.items()},
        "speedup_n_jobs_2_over_1": speedup,
        "speedup_target": 1.8,
        "ceiling": 2.0,
        "peak_pss_bytes": {str(k): v for k, v in peaks.items()},
        "peak_memory_ratio": memory_ratio,
        "peak_memory_ratio_target": 1.5,
        "outer_scores": {str(k): v.tolist() for k, v in scores.items()},
        "identical_scores": identical,
        "versions": package_versions(["torch", "torch-geometric", "skorch"]),
        "cpu_count": os.cpu_count(),
        "load_average_at_end": os.getloadavg(),
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "gnn_nested.json").write_text(json.dumps(figures, indent=2) + "\n")
    print(f"speed-up n_jobs=2 over n_jobs=1: {speedup:.2f}x (target >= 1.8, ceiling 2)")
    print(f"peak memory n_jobs=2 / n_jobs=1: {memory_ratio:.2f} (target <= 1.5)")
    print(f"outer scores identical: {identical}")
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
