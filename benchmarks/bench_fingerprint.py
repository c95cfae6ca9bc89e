"""Benchmark ``fingerprint`` of a large array: the bytes hashed through a copy (``tobytes``,
what it did before hunt LARGE's LARGE-2) against through a view (what it does now).

Side by side in one process, on a 1,000,000 x 50 float64 array (381 MiB): the seconds (best
of 3) and the peak of memory allocated while hashing (``tracemalloc``), both ways, and whether
both give one digest. ``benchmark()`` and every run with a ``cache_dir`` fingerprint each
data set. Run from the repository root::

    python benchmarks/bench_fingerprint.py

and it writes ``benchmarks/results/fingerprint.json``.
"""

import hashlib
import json
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
from _machine import Load, loaded_note, run_fields

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's sklearn_fair

from sklearn_fair.utils import fingerprint  # noqa: E402

SHAPE = (1_000_000, 50)
RESULTS = Path(__file__).resolve().parent / "results" / "fingerprint.json"


def copied(array):
    """The hash of the array's bytes through a copy, as ``fingerprint`` took it before."""
    return hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()


def viewed(array):
    """The hash of the array's bytes through a view, as ``fingerprint`` takes it now."""
    return hashlib.sha256(np.ascontiguousarray(array).reshape(-1).view(np.uint8)).hexdigest()


def measured(function, array, repeats=3):
    """``(best seconds, peak MiB allocated)`` of ``function(array)``."""
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        function(array)
        seconds.append(time.perf_counter() - start)
    tracemalloc.start()
    try:
        function(array)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return min(seconds), peak / 2**20


def main():
    whole = Load()
    array = np.random.default_rng(0).normal(size=SHAPE)
    with Load() as before_load:
        before_s, before_mib = measured(copied, array)
    with Load() as after_load:
        after_s, after_mib = measured(viewed, array)
    with Load() as library_load:
        library_s, library_mib = measured(fingerprint, array)
    report = {
        **run_fields(),
        "load": whole.stop().fields(),
        "loaded_machine": loaded_note([before_load, after_load, library_load]),
        "workload": {"shape": list(SHAPE), "dtype": "float64", "MiB": array.nbytes / 2**20},
        "copy": {"seconds (best of 3)": before_s, "peak_MiB": before_mib,
                 "load": before_load.fields()},
        "view": {"seconds (best of 3)": after_s, "peak_MiB": after_mib,
                 "load": after_load.fields()},
        "fingerprint": {"seconds (best of 3)": library_s, "peak_MiB": library_mib,
                        "load": library_load.fields()},
        "same_digest": copied(array) == viewed(array),
    }  # fmt: skip
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    print(
        f"{SHAPE[0]:,} x {SHAPE[1]} float64 ({array.nbytes / 2**20:.0f} MiB): copy "
        f"{before_s:.2f} s, +{before_mib:.0f} MiB {before_load}; view {after_s:.2f} s, "
        f"+{after_mib:.0f} MiB {after_load}; fingerprint() {library_s:.2f} s, "
        f"+{library_mib:.0f} MiB {library_load}; same digest: {report['same_digest']}"
    )
    print(f"{whole}; {report['loaded_machine']}")
    print(f"written to {RESULTS}")


if __name__ == "__main__":
    main()
