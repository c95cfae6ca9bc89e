"""Hostile experiment files: how long each refusal takes and how much memory it needs.

Every case of the hostile-file matrix (``tests/experiment/test_hostile_files.py``, the one
list of cases) is run through ``sklearn-fair run`` and ``sklearn-fair run --dry-run`` in a
child process of its own, as a user would run it. For each: the exit status (target 2),
whether a traceback was printed (target: never), the time the child spends in ``main``
after importing ``sklearn_fair.cli`` and ``sklearn_fair.experiment`` (the cost of starting
Python and importing sklearn-fair, ``import_seconds``, is reported apart; target: the rest
under 1 s), and the child's peak resident memory, imports included (target < 500 MB). Also
the split file of 2.2 million folds.

Usage: python benchmarks/bench_hostile_files.py
"""

import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

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


def run(argv):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, *argv], env=env, capture_output=True, text=True, timeout=600
    )
    tail = done.stderr.rsplit("@@", 1)[-1].split()
    status, imported, work, peak = int(tail[0]), float(tail[1]), float(tail[2]), int(tail[3])
    return {
        "status": status,
        "traceback": "Traceback" in done.stderr,
        "import_seconds": imported,
        "seconds_after_import": work,
        "peak_rss_mb": peak / 1024,
        "message": done.stderr.rsplit("@@", 1)[0].strip()[-300:],
    }


def main():
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        for case in matrix.CASES:
            path = matrix.write_case(folder, case)
            for dry in (False, True):
                argv = ["run", str(path)] + (["--dry-run", "--no-timing"] if dry else [])
                row = {"case": case, "mode": "dry-run" if dry else "run"}
                row.update(file_bytes=path.stat().st_size, **run(argv))
                rows.append(row)
                print(
                    f"{case:45s} {row['mode']:8s} exit {row['status']}  "
                    f"{row['seconds_after_import']:.3f} s  {row['peak_rss_mb']:.0f} MB"
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
            row.update(file_bytes=splits.stat().st_size, **run(argv))
            rows.append(row)
            print(
                f"{row['case']:45s} {row['mode']:8s} exit {row['status']}  "
                f"{row['seconds_after_import']:.3f} s  {row['peak_rss_mb']:.0f} MB"
            )
    import sklearn

    import sklearn_fair

    record = {
        "command": "python benchmarks/bench_hostile_files.py",
        "versions": {
            "python": platform.python_version(),
            "sklearn": sklearn.__version__,
            "sklearn_fair": sklearn_fair.__version__,
        },
        "cores": os.cpu_count(),
        "load_average": os.getloadavg(),
        "targets": {"status": 2, "seconds_after_import": 1.0, "peak_rss_mb": 500},
        "all_refused_with_status_2": all(r["status"] == 2 for r in rows),
        "any_traceback": any(r["traceback"] for r in rows),
        "max_seconds_after_import": max(r["seconds_after_import"] for r in rows),
        "max_peak_rss_mb": max(r["peak_rss_mb"] for r in rows),
        "rows": rows,
    }
    RESULTS.write_text(json.dumps(record, indent=1))
    print(
        f"\n{len(rows)} runs; all exit 2: {record['all_refused_with_status_2']}; traceback: "
        f"{record['any_traceback']}; slowest {record['max_seconds_after_import']:.3f} s after "
        f"import; largest peak {record['max_peak_rss_mb']:.0f} MB. Saved to {RESULTS}."
    )


if __name__ == "__main__":
    main()
