"""Benchmark ``fingerprint`` of a frame of text columns: each cell fed on its own (what it did
before hunt LARGE's LARGE-3) against the bytes of each distinct text made once and joined
(what it does now).

Side by side in one process, on a 10,000 x 200 frame of category columns of 30 levels, and the
same frame of object (str) columns: the seconds (best of 3) both ways, and whether both give
one digest (results saved before must still extend with ``previous=``). ``benchmark()`` and
every run with a ``cache_dir`` fingerprint each data set. Run from the repository root::

    python benchmarks/bench_fingerprint_text.py

and it writes ``benchmarks/results/fingerprint_text.json``.
"""

import json
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from _machine import Load, loaded_note, run_fields

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's sklearn_fair

from sklearn_fair.utils import _hashing, fingerprint  # noqa: E402

SHAPE = (10_000, 200)
LEVELS = 30
RESULTS = Path(__file__).resolve().parent / "results" / "fingerprint_text.json"


def per_cell(hasher, items):
    """Each item fed on its own, as ``fingerprint`` fed an object column before."""
    for item in items:
        _hashing.update_hasher(hasher, item)


def timed(frame, repeats=3):
    """``(best seconds, digest)`` of ``fingerprint(frame)``."""
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        digest = fingerprint(frame)
        seconds.append(time.perf_counter() - start)
    return min(seconds), digest


def both_ways(frame):
    joined = _hashing._update_objects
    _hashing._update_objects = per_cell
    try:
        with Load() as before_load:
            before_s, before_digest = timed(frame)
    finally:
        _hashing._update_objects = joined
    with Load() as after_load:
        after_s, after_digest = timed(frame)
    return {
        "per cell": {"seconds (best of 3)": before_s, "load": before_load.fields()},
        "distinct texts joined": {"seconds (best of 3)": after_s, "load": after_load.fields()},
        "same_digest": before_digest == after_digest,
    }, [before_load, after_load]


def main():
    whole = Load()
    rng = np.random.default_rng(0)
    levels = [f"level_{i}" for i in range(LEVELS)]
    categories = pd.DataFrame(
        {f"c{j}": pd.Categorical(rng.choice(levels, SHAPE[0])) for j in range(SHAPE[1])}
    )
    frames = {"category": categories, "object": categories.astype(object)}
    figures, loads = {}, []
    for name, frame in frames.items():
        figures[name], taken = both_ways(frame)
        loads += taken
    report = {
        **run_fields(),
        "load": whole.stop().fields(),
        "loaded_machine": loaded_note(loads),
        "workload": {"shape": list(SHAPE), "levels": LEVELS, "columns": list(frames)},
        **figures,
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    for name, figure in figures.items():
        before = figure["per cell"]["seconds (best of 3)"]
        after = figure["distinct texts joined"]["seconds (best of 3)"]
        print(
            f"{SHAPE[0]:,} x {SHAPE[1]} {name} columns: per cell {before:.2f} s, distinct "
            f"texts joined {after:.2f} s ({before / after:.1f}x); same digest: "
            f"{figure['same_digest']}"
        )
    print(f"{whole}; {report['loaded_machine']}")
    print(f"written to {RESULTS}")


if __name__ == "__main__":
    main()
