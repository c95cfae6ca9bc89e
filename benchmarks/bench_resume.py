"""Resumable runs: what a kill costs, and what a fully cached re-run costs.

1. A cold run with a cache, then the same call again (everything cached): the re-run's wall
   time as a fraction of the cold run's (target <= 5%).
2. A run in a child process, killed with SIGKILL (its whole process group, workers included)
   when about half of its tasks are cached, then resumed: how many tasks had started but not
   finished at the kill (in flight), and how many the resumed run recomputed beyond the ones
   that were never finished (target: none; only the in-flight and never-started tasks run).

Usage: python benchmarks/bench_resume.py [--n-jobs 2]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import _resume_workload as workload  # noqa: E402
from _machine import Load, kill_process_group, loaded_note, run_fields  # noqa: E402

RESULTS = HERE / "results" / "resume.json"


def n_entries(cache):
    return len(list(Path(cache).glob("*/*.json")))


def timed_fit(cache, n_jobs, X, y):
    """(seconds, fitted model, Load of the run)."""
    with Load(workers=n_jobs) as load:
        start = time.perf_counter()
        model = workload.model(cache, n_jobs).fit(X, y)
        wall = time.perf_counter() - start
    return wall, model, load


def cached_rerun(n_jobs, X, y, work):
    cache = work / "warm"
    cold_wall, cold, cold_load = timed_fit(cache, n_jobs, X, y)
    warm_wall, warm, warm_load = timed_fit(cache, n_jobs, X, y)
    assert np.array_equal(cold.outer_scores_, warm.outer_scores_)
    return {
        "tasks": cold.cache_info_["computed"],
        "cold_wall_seconds": cold_wall,
        "cold_load": cold_load.fields(),
        "cached_wall_seconds": warm_wall,
        "cached_load": warm_load.fields(),
        "cached_fraction": warm_wall / cold_wall,
        "cached_rerun_computed": warm.cache_info_["computed"],
        "target_fraction": 0.05,
    }, cold


def kill_and_resume(n_jobs, X, y, work, total, reference):
    cache, log = work / "killed", work / "fit-starts.log"
    env = {**os.environ, "RESUME_BENCH_LOG": str(log), "PYTHONPATH": str(HERE)}
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import _resume_workload; _resume_workload.run_child()",
            str(cache),
            str(n_jobs),
        ],
        env=env,
        start_new_session=True,
    )
    while n_entries(cache) < total // 2 and child.poll() is None:
        time.sleep(0.01)
    kill_process_group(child)  # the parent and its worker processes, their CPU time ours
    time.sleep(0.5)
    cached_at_kill = n_entries(cache)
    started_at_kill = len(log.read_text().splitlines())
    resumed_wall, resumed, resumed_load = timed_fit(cache, n_jobs, X, y)
    never_finished = total - cached_at_kill
    return {
        "tasks": total,
        "cached_at_kill": cached_at_kill,
        "started_at_kill": started_at_kill,
        "in_flight_at_kill": started_at_kill - cached_at_kill,
        "resumed_hits": resumed.cache_info_["hits"],
        "resumed_computed": resumed.cache_info_["computed"],
        "recomputed_beyond_unfinished": resumed.cache_info_["computed"] - never_finished,
        "resumed_wall_seconds": resumed_wall,
        "resumed_load": resumed_load.fields(),
        "identical_to_uninterrupted": bool(
            np.array_equal(resumed.outer_scores_, reference.outer_scores_)
            and resumed.best_params_per_fold_ == reference.best_params_per_fold_
        ),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-jobs", type=int, default=2)
    args = parser.parse_args(argv)
    X, y = workload.data()
    whole = Load(workers=args.n_jobs)
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        rerun, reference = cached_rerun(args.n_jobs, X, y, work)
        killed = kill_and_resume(args.n_jobs, X, y, work, rerun["tasks"], reference)
    figures = {
        **run_fields(argv=argv),
        "workload": "NestedCV(SVC, 6 C values, outer 10-fold, hold-out inner, 3 refits) "
        "on make_classification(2000 x 20)",
        "n_jobs": args.n_jobs,
        "cached_rerun": rerun,
        "kill_and_resume": killed,
        "load": whole.stop().fields(),
        "loaded_machine": loaded_note([rerun, killed]),
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(figures, indent=2) + "\n")
    print(
        f"cold run {rerun['cold_wall_seconds']:.2f} s, fully cached re-run "
        f"{rerun['cached_wall_seconds']:.3f} s = {100 * rerun['cached_fraction']:.1f}% "
        f"(target <= 5%), {rerun['cached_rerun_computed']} tasks recomputed; "
        + ", ".join(
            f"{run} load {load['load_before'][0]} -> {load['load_after'][0]}"
            + (" (LOADED machine)" if load["loaded"] else "")
            for run, load in (("cold", rerun["cold_load"]), ("cached", rerun["cached_load"]))
        )
    )
    print(
        f"killed with {killed['cached_at_kill']}/{killed['tasks']} tasks cached, "
        f"{killed['in_flight_at_kill']} in flight; the resumed run computed "
        f"{killed['resumed_computed']} (recomputed beyond the unfinished ones: "
        f"{killed['recomputed_beyond_unfinished']}); identical to uninterrupted: "
        f"{killed['identical_to_uninterrupted']}"
    )
    print(f"{whole}; {figures['loaded_machine']}; written to {RESULTS}")
    ok = killed["recomputed_beyond_unfinished"] == 0 and killed["identical_to_uninterrupted"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
