"""The coverage benchmark's replication runs, and its rule picks what the numbers say."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_coverage.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_coverage", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("problem", ["balanced classification", "imbalanced classification",
                                     "regression"])  # fmt: skip
def test_one_replication_gives_every_interval_in_range(bench, problem):
    X_truth, y_truth = bench.PROBLEMS[problem][0](np.random.default_rng(0), 2000)
    row = bench._replicate_quietly(problem, 50, 7, X_truth, y_truth)
    expected = {"t", "normal", "bootstrap", "corrected t (5-fold)", "t (5x5-fold)",
                "corrected t (5x5-fold)", "conservative Z"}  # fmt: skip
    if problem != "imbalanced classification":
        expected |= {"NCV (Bates et al.)", "naive pointwise (reference)"}
    assert set(row["intervals"]) == expected
    low_bound, high_bound = bench.RANGES[problem]
    for levels in row["intervals"].values():
        (low90, high90, _), (low95, high95, _) = levels["0.90"], levels["0.95"]
        assert low_bound <= low95 <= low90 <= high90 <= high95 <= high_bound
    assert low_bound <= row["err_xy"] <= high_bound


def _setting(coverages, width):
    entry = {
        key: {"mean_width": width, "Err_XY": {"coverage": c, "reaches_nominal": c >= n - 0.02}}
        for key, c, n in zip(("0.90", "0.95"), coverages, (0.90, 0.95))
    }
    return entry


def test_the_rule_picks_the_narrowest_that_reaches_nominal_everywhere(bench):
    results = [
        {"summary": {"intervals": {
            "t": _setting((0.85, 0.93), 1.0),
            "corrected t (5-fold)": _setting((0.90, 0.95), 1.5),
            "conservative Z": _setting((0.95, 0.99), 2.0),
        }}}
        for _ in range(3)
    ]  # fmt: skip
    rule = bench.default_rule(results)
    assert set(rule["qualifying"]) == {"corrected t (5-fold)", "conservative Z"}
    assert rule["narrowest"] == rule["narrowest_from_fold_scores"] == "corrected t (5-fold)"
    assert rule["coverage_ranges"]["t"]["0.90"] == (0.85, 0.85)
    results[1]["summary"]["intervals"]["corrected t (5-fold)"] = _setting((0.80, 0.95), 1.5)
    rule = bench.default_rule(results)
    assert rule["narrowest"] == "conservative Z" and rule["narrowest_from_fold_scores"] is None


def test_a_results_file_without_any_load_does_not_call_the_machine_quiet(bench):
    # merging partial files that predate the load fields: no figure says how loaded the
    # machine was, so the note must not claim a quiet machine
    from _machine import loaded_note  # bench_coverage put benchmarks/ on sys.path

    assert loaded_note([None, {"seconds": 1.0}]) == "the load was not recorded"
    assert loaded_note([{"loaded": False}]) == "every figure was taken on a quiet machine"
    assert loaded_note([{"loaded": False}, {"loaded": True}]).startswith("1 of 2 figures")


_KILLED_CHILD = """
import subprocess, sys, time
burner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
print(burner.pid, flush=True)
time.sleep(600)
"""


def _alive(process):
    import psutil

    try:
        return process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def test_a_killed_childs_workers_count_as_the_scripts_own_cpu_time(bench):
    # bench_resume SIGKILLs a NestedCV child with its workers: orphaned, no process of the
    # script's tree reaps them, and their CPU time counted as other jobs' (resume.json's whole
    # run marked loaded)
    import subprocess
    import sys
    import time

    import psutil
    from _machine import _cpu_seconds, kill_process_group

    child = subprocess.Popen(
        [sys.executable, "-c", _KILLED_CHILD], stdout=subprocess.PIPE, start_new_session=True
    )
    try:
        burner = psutil.Process(int(child.stdout.readline()))
        start = _cpu_seconds()
        deadline = time.monotonic() + 60
        while sum(burner.cpu_times()[:2]) < 1.0 and time.monotonic() < deadline:
            time.sleep(0.05)
        burned = sum(burner.cpu_times()[:2])  # read by psutil before the kill
        assert burned >= 1.0
        kill_process_group(child)
        own = _cpu_seconds()[2] - start[2]
    finally:
        if child.poll() is None:
            child.kill()
        child.stdout.close()
    deadline = time.monotonic() + 10  # the kill is delivered, the orphan reaped, meanwhile
    while _alive(burner) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(burner)
    # the burner's time, plus the child's start and this test's own polling: not twice over
    # (less what it burned before ``start`` was read, a few ticks: 1.03 burned, 1.02999... own)
    assert burned - 0.1 <= own < burned + 1.0
