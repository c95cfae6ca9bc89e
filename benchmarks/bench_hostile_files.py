"""Hostile experiment files: how long each refusal takes and how much memory it needs.

Every case of the hostile-file matrix (``tests/experiment/test_hostile_files.py``, the one
list of cases) is run through ``sklearn-fair run`` and ``sklearn-fair run --dry-run`` in a
child process of its own, as a user would run it. For each: the exit status (target 2),
whether a traceback was printed (target: never), the time the child spends in ``main``
after importing ``sklearn_fair.cli`` and ``sklearn_fair.experiment`` (the cost of starting
Python and importing sklearn-fair, ``import_seconds``, is reported apart; target: the rest
under 1 s), and the child's peak resident memory, imports included (target < 500 MB). Also
the split file of 2.2 million folds.

Then every case of the output matrix (``OUTPUT_CASES``: names that are paths, formulas or
control characters, links and a FIFO where outputs go, hostile CSVs, a failing model), through
both paths of the runner (one ``[data]`` table, several ``[data.NAME]`` tables), run and dry
run: the exit status against the matrix's, a traceback, control characters on the terminal,
and whether anything outside the results folder was created or changed (a snapshot of the
tree around it, before and after; target: never).

Usage: python benchmarks/bench_hostile_files.py
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from _machine import Load, loaded_note, run_fields

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests" / "experiment"))

import test_hostile_files as matrix  # noqa: E402

RESULTS = HERE / "results" / "hostile_files.json"
CHILD = """
import resource, sys, time
start = time.perf_counter()
from sklearn_fair.cli import main
import sklearn_fair.experiment  # what main imports first: not the file's cost
imported = time.perf_counter()
status = main(sys.argv[1:])
end = time.perf_counter()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
sys.stderr.write(f"\\n@@ {status} {imported - start} {end - imported} {peak}\\n")
"""


def run(argv, cwd=None):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1", "MPLBACKEND": "Agg"}
    with Load() as load:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, *argv], env=env, capture_output=True, text=True,
            timeout=600, cwd=cwd,
        )  # fmt: skip
    tail = done.stderr.rsplit("@@", 1)[-1].split()
    status, imported, work, peak = int(tail[0]), float(tail[1]), float(tail[2]), int(tail[3])
    figures = {
        "status": status,
        "traceback": "Traceback" in done.stderr,
        "import_seconds": imported,
        "seconds_after_import": work,
        "peak_rss_mb": peak / 1024,
        "message": done.stderr.rsplit("@@", 1)[0].strip()[-300:],
        "control_characters": any(c in done.stdout + done.stderr for c in "\x1b\x07\r"),
        **load.fields(),
    }
    return figures, load


def output_rows():
    """Every output case, one data set and several, run and dry run, each in a fresh folder."""
    rows = []
    for case in matrix.OUTPUT_CASES:
        for several in (False, True):
            with tempfile.TemporaryDirectory() as folder:
                folder = Path(folder)
                path, expected = matrix.write_output_case(folder, case, several)
                before = matrix.snapshot(folder, folder / "out")
                for dry in (True, False):
                    argv = ["run", str(path)] + (["--dry-run", "--no-timing"] if dry else [])
                    row = {"case": case, "path": "several" if several else "one data set",
                           "mode": "dry-run" if dry else "run"}  # fmt: skip
                    figures, load = run(argv, cwd=folder)
                    row.update(figures)
                    row["expected_status"] = (1 if "CSV" in case else 0) if dry else expected
                    row["outside_changed"] = matrix.snapshot(folder, folder / "out") != before
                    rows.append(row)
                    print(
                        f"{case:52s} {row['path']:12s} {row['mode']:8s} exit {row['status']} "
                        f"(expected {row['expected_status']})  outside changed: "
                        f"{row['outside_changed']}  {row['seconds_after_import']:.2f} s {load}"
                    )
    return rows


def main():
    whole, rows = Load(), []
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        for case in matrix.CASES:
            path = matrix.write_case(folder, case)
            for dry in (False, True):
                argv = ["run", str(path)] + (["--dry-run", "--no-timing"] if dry else [])
                row = {"case": case, "mode": "dry-run" if dry else "run"}
                figures, load = run(argv)
                row.update(file_bytes=path.stat().st_size, **figures)
                rows.append(row)
                print(
                    f"{case:45s} {row['mode']:8s} exit {row['status']}  "
                    f"{row['seconds_after_import']:.3f} s  {row['peak_rss_mb']:.0f} MB {load}"
                )
            path.unlink()
        # the split file of 2.2 million folds, just under the 64 MiB cap
        splits = folder / "splits.json"
        with open(splits, "w") as file:
            file.write('{"format":"sklearn-fair-splits","version":1,"n_samples":2,')
            file.write('"kfold":false,"labels_fingerprint":null,"folds":[')
            file.write(",".join(['{"train":[0],"test":[1]}'] * 2_200_000))
            file.write("]}")
        path = folder / "hostile.toml"
        path.write_text(matrix.toml().replace("outer_cv = 3", 'splits_file = "splits.json"'))
        for dry in (False, True):
            argv = ["run", str(path)] + (["--dry-run", "--no-timing"] if dry else [])
            row = {"case": "split file of 2.2 million folds", "mode": "dry-run" if dry else "run"}
            figures, load = run(argv)
            row.update(file_bytes=splits.stat().st_size, **figures)
            rows.append(row)
            print(
                f"{row['case']:45s} {row['mode']:8s} exit {row['status']}  "
                f"{row['seconds_after_import']:.3f} s  {row['peak_rss_mb']:.0f} MB {load}"
            )
    outputs = output_rows()
    record = {
        **run_fields(),
        "load": whole.stop().fields(),
        "loaded_machine": loaded_note(rows + outputs),
        "targets": {"status": 2, "seconds_after_import": 1.0, "peak_rss_mb": 500},
        "all_refused_with_status_2": all(r["status"] == 2 for r in rows),
        "any_traceback": any(r["traceback"] for r in rows),
        "max_seconds_after_import": max(r["seconds_after_import"] for r in rows),
        "max_peak_rss_mb": max(r["peak_rss_mb"] for r in rows),
        "rows": rows,
        "output_cases": len(matrix.OUTPUT_CASES),
        "output_runs": len(outputs),
        "output_all_as_expected": all(r["status"] == r["expected_status"] for r in outputs),
        "output_any_outside_changed": any(r["outside_changed"] for r in outputs),
        "output_any_traceback": any(r["traceback"] for r in outputs),
        "output_any_control_characters": any(r["control_characters"] for r in outputs),
        "output_rows": outputs,
    }
    RESULTS.write_text(json.dumps(record, indent=1))
    print(
        f"\n{len(rows)} runs; all exit 2: {record['all_refused_with_status_2']}; traceback: "
        f"{record['any_traceback']}; slowest {record['max_seconds_after_import']:.3f} s after "
        f"import; largest peak {record['max_peak_rss_mb']:.0f} MB. Output matrix: "
        f"{len(outputs)} runs of {len(matrix.OUTPUT_CASES)} cases, all as expected: "
        f"{record['output_all_as_expected']}; outside changed: "
        f"{record['output_any_outside_changed']}; traceback: {record['output_any_traceback']}; "
        f"control characters: {record['output_any_control_characters']}.\n{whole}; "
        f"{record['loaded_machine']}. Saved to {RESULTS}."
    )


if __name__ == "__main__":
    main()
