"""GNN NestedCV with one worker and with two: cold and warm, PyG's TUDataset and ours (issue 23.1).

The workload of issue 23: ``NestedCV(GraphClassifier(GIN, module__hidden_units=[32, 32],
max_epochs=12), {"lr": [0.01, 0.001]}, outer_cv=4, n_refits=1, random_state=0)`` on PROTEINS
(``$SKLEARN_FAIR_DATA/TUDataset``), about 40 s with ``n_jobs=1`` on this quiet two-core
machine (36.5 to 46.8 s, cold and warm, in the run of ``results/gnn_nested.json``; 32 to 39 s
in the run before it), run on two containers of the same graphs:

* ``TUDataset``: PyG's own data set (from a copy of the raw files in a temporary folder),
  iterated once as a user who looked at it has done (PyG then caches one ``Data`` per graph,
  each a view of the whole storage: pickled as it is, that is 3.67 GB);
* ``load_tu_dataset``: sklearn-fair's GraphCollection.

For each container and ``n_jobs`` in (1, 2) it measures

* **cold**: the first ``fit`` of a fresh Python process (what a user's first run of a session
  pays, the start of the worker processes and their imports included), one child process per
  measurement, ``--cold-repeats`` times (default 3), alternating the order of ``n_jobs``; the
  speed-up is the ratio of the medians (one cold run per figure varied by 30% on this two-core
  machine);
* **warm**: ``fit`` in a process whose workers already run (after an untimed warm-up run),
  ``--repeats`` times (default 3), alternating the order of ``n_jobs`` so that load hits both
  alike;
* **memory**: the peak proportional set size (PSS, shared pages split between the processes
  that map them: the fair measure of a process tree) of the process and all its workers, with
  the sums of their RSS (an over-count: a shared page once per process) and USS (private pages
  only) beside it, sampled every 50 ms in runs of their own
  (the sampler's reads of page maps take CPU, so timed runs do not sample), with
  ``--memory-epochs`` epochs (default 2: the peak is that of one fit's graphs and model, which
  more epochs only repeat). ``cold``: a fresh process, so the n_jobs=2 tree holds two more
  interpreters that imported torch, PyG and skorch (about 370 MiB each, what any process-based
  parallelism pays); ``warm``: in the process whose workers already run, so both trees hold
  the same processes and the ratio shows what the data and the work add.

The outer scores of every run must be identical (both containers, both ``n_jobs``, cold and
warm). It also records what a worker imports for a GNN task (``python -X importtime`` of the
two modules a worker loads: the task runner and GraphClassifier), by top-level package, and
the memory (RSS, PSS, USS) of a fresh interpreter after each step of those imports and a small
GIN fit, with the thread pools as they are and at one OpenMP/MKL thread.

Speed-up targets (issue 35.2): n_jobs=2 at least 1.85x n_jobs=1 warm and 1.5x cold; cold peak
memory of the n_jobs=2 tree at most 2x that of n_jobs=1 (1.2x warm, issue 23). Each figure is
printed and saved with the load average before and after it, and marked when the machine was
loaded (``_machine.py``): speed-ups measured while other jobs share the cores are not
meaningful.

Usage::

    python benchmarks/bench_gnn_nested.py            # the full measurement (about 20 min)
    python benchmarks/bench_gnn_nested.py --quick    # 2 epochs, one repeat: a smoke run

Results: ``benchmarks/results/gnn_nested.json`` (``gnn_nested_quick.json`` with ``--quick``).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from _machine import Load, loaded_note, run_fields

RESULTS = Path(__file__).resolve().parent / "results"
REPO = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("SKLEARN_FAIR_DATA", REPO.parent / "shared" / "data"))
CONTAINERS = ("TUDataset", "load_tu_dataset")
# issue 35.2 (issue 23's were 1.8x warm, 1.25x cold, memory 1.2x)
TARGETS = {
    "warm_speedup": 1.85,
    "cold_speedup": 1.5,
    "memory_ratio_cold": 2.0,
    "memory_ratio_warm": 1.2,
}


MEASURES = ("pss", "rss", "uss")


class PeakMemory:
    """Samples the memory of this process and its children in a thread; ``peak`` in bytes.

    At each sample the tree's PSS, RSS and USS are summed over its processes, and ``peak``
    keeps the largest sum of each. PSS (``/proc/PID/smaps_rollup``: each shared page split
    between the processes that map it) is the fair figure for a tree; a sum of RSS counts
    every shared page (torch's libraries, say) once per process that maps it, and a sum of
    USS (private pages only) leaves shared pages out: both are kept, beside it, as bounds.
    """

    def __init__(self, interval=0.05):
        self.interval, self._stop = interval, threading.Event()
        self.peak = dict.fromkeys(MEASURES, 0)

    def _total(self):
        import psutil

        me = psutil.Process()
        total = dict.fromkeys(MEASURES, 0)
        for process in [me, *me.children(recursive=True)]:
            try:
                info = process.memory_full_info()
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
            for measure in MEASURES:
                total[measure] += getattr(info, measure)
        return total

    def _run(self):
        while not self._stop.is_set():
            for measure, value in self._total().items():
                self.peak[measure] = max(self.peak[measure], value)
            time.sleep(self.interval)

    def __enter__(self):
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


def load(container, root, n_graphs=None):
    """PROTEINS as ``container``: an iterated TUDataset under ``root``, or a GraphCollection."""
    if n_graphs:  # every k-th graph: both classes
        graphs = load(container, root)
        return graphs[:: max(1, len(graphs) // n_graphs)]
    if container == "TUDataset":
        from torch_geometric.datasets import TUDataset

        dataset = TUDataset(str(root), "PROTEINS")
        for _ in dataset:  # as a user who looked at the graphs: one cached view per graph
            pass
        return dataset
    from sklearn_fair.graph import load_tu_dataset

    return load_tu_dataset("PROTEINS", root)


def nested(n_jobs, epochs):
    from sklearn_fair import NestedCV
    from sklearn_fair.graph import GIN, GraphClassifier

    return NestedCV(
        GraphClassifier(GIN, module__hidden_units=[32, 32], max_epochs=epochs),
        {"lr": [0.01, 0.001]},
        outer_cv=4,
        n_refits=1,
        random_state=0,
        n_jobs=n_jobs,
    )


def fit(graphs, n_jobs, epochs, memory=None):
    model = nested(n_jobs, epochs)
    sampler = PeakMemory() if memory else None
    start = time.perf_counter()
    if sampler:
        with sampler:
            model.fit(graphs)
    else:
        model.fit(graphs)
    wall = time.perf_counter() - start
    return {
        "wall": wall,
        "scores": [float(s) for s in model.outer_scores_],
        "peak": sampler.peak if sampler else None,
    }


def child(args):
    """One cold run in this fresh process; prints its figures as one JSON line."""
    graphs = load(args.container, Path(args.root), args.graphs)
    if args.load_only:
        return 0
    result = fit(graphs, args.n_jobs, args.epochs, memory=args.memory)
    print("RESULT " + json.dumps(result), flush=True)
    return 0


def run_child(container, n_jobs, epochs, root, memory=False, load_only=False, n_graphs=None):
    command = (
        [
            sys.executable,
            __file__,
            "--child",
            "--container",
            container,
            "--n-jobs",
            str(n_jobs),
            "--epochs",
            str(epochs),
            "--root",
            str(root),
        ]
        + (["--memory"] if memory else [])
        + (["--load-only"] if load_only else [])
        + (["--graphs", str(n_graphs)] if n_graphs else [])
    )
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if load_only and done.returncode == 0:
        return None
    for line in done.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT ") :])
    raise RuntimeError(f"child run failed ({done.returncode}):\n{done.stderr[-3000:]}")


def worker_imports():
    """Seconds a fresh interpreter spends importing what a worker imports for a GNN task."""
    code = (
        "import sklearn_fair.model_selection._nested._running, sklearn_fair.graph._classifier; "
        "import sys; print(len(sys.modules))"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    wall = time.perf_counter() - start
    # "import time: self | cumulative | name": the self times, summed by top-level package,
    # say where the import time goes (sklearn_fair's own modules apart from what they import)
    packages = {}
    for match in re.finditer(r"import time:\s+(\d+) \|\s+\d+ \| +(\S+)", done.stderr):
        top = match[2].split(".")[0]
        packages[top] = packages.get(top, 0) + int(match[1]) / 1e6
    order = sorted(packages.items(), key=lambda item: -item[1])
    return {
        "command": f"python -X importtime -c '{code}'",
        "interpreter_wall_seconds": wall,
        "self_seconds_by_top_level_package": {
            name: round(seconds, 3) for name, seconds in order if seconds >= 0.05
        },
        "self_seconds_total": round(sum(packages.values()), 3),
        "modules_imported": int(done.stdout.split()[-1]),
    }


def _mib(peak):
    return " ".join(f"{measure} {peak[measure] / 2**20:7.1f} MiB" for measure in MEASURES)


MEMORY_STEPS = """
import json, psutil, sys
def mem():
    info = psutil.Process().memory_full_info()
    return {k: round(getattr(info, k) / 2**20, 1) for k in ("rss", "pss", "uss")}
out = {"bare interpreter": mem()}
import sklearn.base
out["+ sklearn"] = mem()
import torch
out["+ torch"] = mem()
import torch_geometric
out["+ torch_geometric"] = mem()
import sklearn_fair.model_selection._nested._running, sklearn_fair.graph._classifier
out["+ the task runner and GraphClassifier"] = mem()
from sklearn_fair.graph import GIN, GraphClassifier, load_mutag
GraphClassifier(GIN, module__hidden_units=[32, 32], max_epochs=2).fit(load_mutag())
out["+ a GIN fit (MUTAG, 2 epochs)"] = mem()
out["torch.get_num_threads()"] = torch.get_num_threads()
out["modules"] = len(sys.modules)
print(json.dumps(out))
"""


def worker_memory():
    """MiB (RSS, PSS, USS) of a fresh interpreter as it imports what a worker imports for a
    GNN task and fits a small GIN: with the thread pools as they are, and with OpenMP and MKL
    at one thread (joblib gives each loky worker ``cpu_count // n_jobs`` threads)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    figures = {}
    for label, threads in (("threads as they are", {}), ("OMP/MKL_NUM_THREADS=1", "1")):
        run_env = {k: v for k, v in env.items() if k not in ("OMP_NUM_THREADS", "MKL_NUM_THREADS")}
        if threads:
            run_env.update(OMP_NUM_THREADS=threads, MKL_NUM_THREADS=threads)
        done = subprocess.run(
            [sys.executable, "-c", MEMORY_STEPS],
            capture_output=True,
            text=True,
            env=run_env,
            check=True,
        )
        figures[label] = json.loads(done.stdout.strip().splitlines()[-1])
    return {"MiB_after_each_step": figures}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 epochs, 1 repeat (a smoke run)")
    parser.add_argument("--epochs", type=int, default=None, help="default 12 (2 with --quick)")
    parser.add_argument("--repeats", type=int, default=None, help="warm repeats (default 3)")
    parser.add_argument(
        "--cold-repeats", type=int, default=None, help="cold runs of each figure (default 3)"
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--container", choices=CONTAINERS, help=argparse.SUPPRESS)
    parser.add_argument("--n-jobs", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--root", help=argparse.SUPPRESS)
    parser.add_argument("--memory", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--load-only", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--graphs", type=int, default=None, help=argparse.SUPPRESS)  # smoke
    parser.add_argument(
        "--memory-epochs", type=int, default=2, help="epochs of the memory runs (default 2)"
    )
    args = parser.parse_args(argv)
    if args.epochs is None:
        args.epochs = 2 if args.quick else 12
    if args.repeats is None:
        args.repeats = 1 if args.quick else 3
    if args.cold_repeats is None:
        args.cold_repeats = 1 if args.quick else 3
    if args.child:
        return child(args)

    whole = Load(workers=2)
    loads = {}  # label of a figure -> its Load
    started = time.strftime("%Y-%m-%d %H:%M:%S")
    root = Path(tempfile.mkdtemp(prefix="bench_gnn_nested_"))
    shutil.copytree(DATA / "TUDataset" / "PROTEINS", root / "PROTEINS")  # PyG writes there
    figures = {"cold": {}, "warm": {}, "memory": {"cold": {}, "warm": {}}}
    scores = {}
    name = "gnn_nested_quick.json" if args.quick else "gnn_nested.json"

    def save_partial():
        # what is measured so far, in case the run is stopped (a busy machine makes it long)
        RESULTS.mkdir(exist_ok=True)
        partial = {
            "complete": False,
            **run_fields(["torch", "torch-geometric", "skorch"], argv),
            "figures_so_far": figures,
            "outer_scores_so_far": scores,
            "load_of_each_figure": {label: load.fields() for label, load in loads.items()},
            "load_at_start": whole.before,
            "started": started,
            "saved": time.strftime("%Y-%m-%d %H:%M:%S"),
        }
        (RESULTS / name).write_text(json.dumps(partial, indent=2) + "\n")

    try:
        # PyG processes the raw files once, untimed, so that no cold run pays for it
        run_child("TUDataset", 1, 1, root, load_only=True)
        for repeat in range(args.cold_repeats):
            for container in CONTAINERS:
                for n_jobs in (1, 2) if repeat % 2 == 0 else (2, 1):
                    label = f"cold {container} n_jobs={n_jobs} repeat {repeat}"
                    with Load(workers=n_jobs) as loads[label]:
                        result = run_child(
                            container, n_jobs, args.epochs, root, n_graphs=args.graphs
                        )
                    walls = figures["cold"].setdefault(container, {}).setdefault(str(n_jobs), [])
                    walls.append(result["wall"])
                    save_partial()
                    scores[label] = result["scores"]
                    print(
                        f"cold {container:16} n_jobs={n_jobs} {result['wall']:7.2f} s "
                        f"{loads[label]}",
                        flush=True,
                    )
        for container in CONTAINERS:
            graphs = load(container, root, args.graphs)
            fit(graphs[::10], 2, 1)  # start and warm the workers, untimed
            walls = {1: [], 2: []}
            for repeat in range(args.repeats):
                for n_jobs in (1, 2) if repeat % 2 == 0 else (2, 1):
                    label = f"warm {container} n_jobs={n_jobs} repeat {repeat}"
                    with Load(workers=n_jobs) as loads[label]:
                        result = fit(graphs, n_jobs, args.epochs)
                    walls[n_jobs].append(result["wall"])
                    scores[label] = result["scores"]
                    print(
                        f"warm {container:16} n_jobs={n_jobs} {result['wall']:7.2f} s "
                        f"{loads[label]}",
                        flush=True,
                    )
            figures["warm"][container] = {str(k): v for k, v in walls.items()}
            save_partial()
            for n_jobs in (1, 2):  # the workers of the runs above are alive in both
                label = f"warm peak memory {container} n_jobs={n_jobs}"
                with Load(workers=n_jobs) as loads[label]:
                    result = fit(graphs, n_jobs, args.memory_epochs, memory=True)
                figures["memory"]["warm"].setdefault(container, {})[str(n_jobs)] = result["peak"]
                print(f"{label} {_mib(result['peak'])} {loads[label]}", flush=True)
        for container in CONTAINERS:
            for n_jobs in (1, 2):
                label = f"cold peak memory {container} n_jobs={n_jobs}"
                with Load(workers=n_jobs) as loads[label]:
                    result = run_child(
                        container, n_jobs, args.memory_epochs, root, memory=True,
                        n_graphs=args.graphs,
                    )  # fmt: skip
                figures["memory"]["cold"].setdefault(container, {})[str(n_jobs)] = result["peak"]
                print(f"{label} {_mib(result['peak'])} {loads[label]}", flush=True)
        save_partial()
        imports = worker_imports()
        imports_memory = worker_memory()
    finally:
        shutil.rmtree(root, ignore_errors=True)

    import numpy as np

    reference = next(iter(scores.values()))
    identical = all(value == reference for value in scores.values())
    summary = {}
    for container in CONTAINERS:
        warm = figures["warm"][container]
        cold = figures["cold"][container]
        memory = {kind: figures["memory"][kind][container] for kind in ("cold", "warm")}
        summary[container] = {
            "warm_speedup": float(np.median(warm["1"]) / np.median(warm["2"])),
            "cold_speedup": float(np.median(cold["1"]) / np.median(cold["2"])),
            # PSS, the fair measure of a tree; the RSS and USS sums beside it
            "memory_ratio_cold": memory["cold"]["2"]["pss"] / memory["cold"]["1"]["pss"],
            "memory_ratio_warm": memory["warm"]["2"]["pss"] / memory["warm"]["1"]["pss"],
            **{
                f"memory_ratio_{kind}_{measure}_sum": memory[kind]["2"][measure]
                / memory[kind]["1"][measure]
                for kind in ("cold", "warm")
                for measure in ("rss", "uss")
            },
        }
    whole.stop()
    note = loaded_note(list(loads.values()))
    result = {
        "complete": True,
        **run_fields(["torch", "torch-geometric", "skorch"], argv),
        "workload": {
            "data": "PROTEINS (1113 graphs): PyG's TUDataset (iterated once) and load_tu_dataset",
            "estimator": f"GraphClassifier(GIN, module__hidden_units=[32, 32], "
            f"max_epochs={args.epochs})",
            "grid": {"lr": [0.01, 0.001]},
            "outer_cv": 4,
            "n_refits": 1,
            "random_state": 0,
            "memory_runs_max_epochs": args.memory_epochs,
        },
        "wall_seconds": {"cold": figures["cold"], "warm": figures["warm"]},
        "peak_memory_bytes": figures["memory"],
        "peak_memory_note": "each figure the peak, over 50 ms samples, of the sum over the "
        "process tree (the process and its loky workers) of each process's PSS (shared pages "
        "split between the processes mapping them: the fair figure), RSS (shared pages counted "
        "once per process: an over-count) and USS (private pages only: an under-count)",
        "worker_memory": imports_memory,
        "summary": summary,
        "targets": TARGETS,
        "ceiling": 2.0,
        "identical_scores": identical,
        "outer_scores": scores,
        "worker_imports": imports,
        "load": whole.fields(),
        "load_of_each_figure": {label: load.fields() for label, load in loads.items()},
        "loaded_machine": note,
        "started": started,
        "finished": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / name).write_text(json.dumps(result, indent=2) + "\n")
    for container, figure in summary.items():
        print(
            f"{container:16} warm {figure['warm_speedup']:.2f}x (target >= "
            f"{TARGETS['warm_speedup']}), cold {figure['cold_speedup']:.2f}x (target >= "
            f"{TARGETS['cold_speedup']}), memory {figure['memory_ratio_warm']:.2f} warm (target "
            f"<= {TARGETS['memory_ratio_warm']}), {figure['memory_ratio_cold']:.2f} cold (target "
            f"<= {TARGETS['memory_ratio_cold']})"
        )
    print(f"outer scores identical: {identical} {whole}; {note}")
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
