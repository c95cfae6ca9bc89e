"""The same workloads, through sklearn-fair's public API, on two checkouts side by side.

For a change that must leave every figure at least as good (issue 22's "one step, every
benchmark figure at least as good"), each workload runs on the checkout before the change and
on the one after it, alternately, in one command on one machine. Each (checkout, workload)
runs in a fresh interpreter with ``PYTHONPATH`` set to that checkout (the first ``fit`` of the
process is *cold*: its workers start and import inside it), then ``--repeats`` more times in
the same process (*warm*: the workers already run). The cold time includes the import of
sklearn-fair's entry point (``from sklearn_fair import NestedCV``, scikit-learn already
imported): what a session's first call pays, whichever part of it a checkout defers to its
first fit. The outer scores of the two checkouts must be identical (or the difference
explained: a deliberate change of results shows here); the figures are the cold time, the
median warm time and their ratios before / after (above 1: the change is faster).

Workloads (the engine's jobs, each a few seconds):

- ``text``: TF-IDF + TruncatedSVD + LogisticRegression, C over 6 values and the SVD rank over
  2, on a generated corpus of 1,200 documents, ``n_jobs=2`` (and ``text_serial``, ``n_jobs=1``);
- ``wide``: a ColumnTransformer over a 300-column DataFrame before a LogisticRegression,
  C over 6 values, 1,000 rows, ``n_jobs=2``;
- ``svc``: SVC, C over 6 values, 2,000 rows, ``n_jobs=2``;
- ``gb``: GradientBoostingClassifier, 4 x 2 grid, 1,000 rows, ``n_jobs=2``;
- ``noop``: an estimator that does nothing, 1,000 candidates, ``n_jobs=1`` (the scheduler's
  own cost);
- ``bootstrap``: ``stats.bootstrap_ci`` of the mean and the IQM of 200 scores, BCa,
  10,000 resamples.

All use 5 outer folds (StratifiedKFold, shuffled, seed 0) and a stratified 10% hold-out inside,
``n_refits=1``, ``random_state=0``.

Usage::

    git worktree add /tmp/before <commit>
    python benchmarks/bench_before_after.py --before /tmp/before [--after .] [--repeats 2]

Results: ``benchmarks/results/before_after.json``.
"""

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from statistics import median

from _machine import Load, loaded_note, run_fields

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "before_after.json"
WORKLOADS = ("text", "text_serial", "wide", "svc", "gb", "noop", "bootstrap")


def _nested_workload(name):
    import numpy as np
    from _workloads import Noop, make_corpus, make_wide, text_pipeline, wide_pipeline
    from sklearn.datasets import make_classification
    from sklearn.ensemble import GradientBoostingClassifier
    from sklearn.model_selection import StratifiedKFold
    from sklearn.svm import SVC

    start = time.perf_counter()
    from sklearn_fair import NestedCV
    from sklearn_fair.model_selection import HoldoutSplit

    imported = time.perf_counter() - start

    n_jobs = 1 if name in ("text_serial", "noop") else 2
    if name.startswith("text"):
        (X, y), estimator = make_corpus(1200), text_pipeline()
        grid = {
            "logisticregression__C": [0.01, 0.1, 1.0, 10.0, 100.0, 1000.0],
            "truncatedsvd__n_components": [10, 30],
        }
    elif name == "wide":
        (X, y), estimator = make_wide(1000), wide_pipeline()
        grid = {"logisticregression__C": [0.001, 0.01, 0.1, 1.0, 10.0, 100.0]}
    elif name == "noop":
        X, y = np.random.default_rng(0).normal(size=(300, 5)), np.arange(300) % 2
        estimator, grid = Noop(), {"a": list(range(1000))}
    else:
        flip_y, n_samples = (0.25, 2000) if name == "svc" else (0.1, 1000)
        X, y = make_classification(
            n_samples=n_samples, n_features=20, n_informative=8, flip_y=flip_y, random_state=0
        )
        if name == "svc":
            estimator, grid = SVC(), {"C": [0.01, 0.1, 1.0, 10.0, 100.0, 1000.0]}
        else:
            estimator = GradientBoostingClassifier(random_state=0)
            grid = {"n_estimators": [25, 50, 100, 200], "max_depth": [1, 3]}

    def run():
        nested = NestedCV(
            estimator,
            grid,
            outer_cv=StratifiedKFold(5, shuffle=True, random_state=0),
            inner_cv=HoldoutSplit(test_size=0.1, stratify=True, random_state=0),
            n_refits=1,
            refit=False,
            n_jobs=n_jobs,
            random_state=0,
        ).fit(X, y)
        return np.asarray(nested.outer_scores_, dtype=float)

    return run, imported


def _bootstrap_workload():
    import numpy as np

    start = time.perf_counter()
    from sklearn_fair.stats import bootstrap_ci, iqm

    imported = time.perf_counter() - start
    scores = np.random.default_rng(0).beta(8, 3, size=200)

    def run():
        intervals = [
            bootstrap_ci(scores, statistic, method="bca", n_resamples=10_000, random_state=0)
            for statistic in (np.mean, iqm)
        ]
        return np.array([[i.low, i.high] for i in intervals], dtype=float)

    return run, imported


def run_child(name, repeats):
    """In the child: the cold run, then ``repeats`` warm ones; a JSON line on stdout."""
    sys.path.insert(0, str(HERE))
    run, imported = _bootstrap_workload() if name == "bootstrap" else _nested_workload(name)
    walls, output = [], None
    for _ in range(repeats + 1):
        start = time.perf_counter()
        output = run()
        walls.append(time.perf_counter() - start)
    import sklearn_fair

    print(
        json.dumps(
            {
                # a session's first call pays the import of sklearn-fair's entry point too
                # (scikit-learn already imported): a package that imports less up front
                # imports the rest inside its first fit
                "cold": imported + walls[0],
                "import": imported,
                "first_run": walls[0],
                "warm": walls[1:],
                "output_sha256": hashlib.sha256(output.round(12).tobytes()).hexdigest(),
                "sklearn_fair": str(Path(sklearn_fair.__file__).parent),
            }
        )
    )


def measure(checkout, name, repeats):
    environment = {
        **os.environ,
        "PYTHONPATH": str(Path(checkout).resolve()),
        "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS", "1"),
    }
    completed = subprocess.run(
        [sys.executable, __file__, "--child", name, "--repeats", str(repeats)],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode:
        raise RuntimeError(f"{name} on {checkout} failed:\n{completed.stderr[-3000:]}")
    return json.loads(completed.stdout.strip().splitlines()[-1])


def unrecorded_note(rows):
    """Where rows kept from earlier commands recorded no load: which (loaded_note counts the
    others only)."""
    names = [name for name, row in rows.items() if loaded_note(row) == "the load was not recorded"]
    return f"; the load of {', '.join(names)} was not recorded" if names else ""


def revision(checkout):
    completed = subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    )
    return completed.stdout.strip() or "unknown"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="the checkout before the change")
    parser.add_argument("--after", default=str(HERE.parent), help="default: this checkout")
    parser.add_argument("--repeats", type=int, default=2, help="warm runs after the cold one")
    parser.add_argument("--workloads", nargs="+", choices=WORKLOADS, default=list(WORKLOADS))
    parser.add_argument("--child", choices=WORKLOADS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return run_child(args.child, args.repeats)
    if not args.before:
        parser.error("--before: the checkout to compare with is required")

    checkouts = {"before": args.before, "after": args.after}
    revisions = {which: revision(checkout) for which, checkout in checkouts.items()}
    whole = Load(workers=2)
    rows = {}
    for index, name in enumerate(args.workloads):
        # alternate which checkout goes first, so that drift hits both alike
        order = ["before", "after"] if index % 2 == 0 else ["after", "before"]
        figures, loads = {}, {}
        for which in order:
            with Load(workers=2) as loads[which]:
                figures[which] = measure(checkouts[which], name, args.repeats)
        before, after = figures["before"], figures["after"]
        rows[name] = {
            **{f"{which}_cold_seconds": figures[which]["cold"] for which in checkouts},
            **{f"{which}_import_seconds": figures[which]["import"] for which in checkouts},
            **{f"{which}_warm_seconds": figures[which]["warm"] for which in checkouts},
            "cold_speedup": before["cold"] / after["cold"],
            "warm_speedup": median(before["warm"]) / median(after["warm"]),
            "identical_output": before["output_sha256"] == after["output_sha256"],
            **{f"{which}_load": loads[which].fields() for which in checkouts},
            "date": time.strftime("%Y-%m-%d %H:%M:%S"),
        }
        row = rows[name]
        print(
            f"{name:12s} cold {before['cold']:7.2f} -> {after['cold']:7.2f} s "
            f"({row['cold_speedup']:.2f}x); warm {median(before['warm']):7.2f} -> "
            f"{median(after['warm']):7.2f} s ({row['warm_speedup']:.2f}x); identical "
            f"output: {row['identical_output']}; before {loads['before']}, after "
            f"{loads['after']}",
            flush=True,
        )
    whole.stop()
    run = run_fields(argv=argv)
    command = run["command"]
    for row in rows.values():
        row["command"], row["after_revision"] = command, revisions["after"]
    # a run of some workloads keeps the other workloads' rows (each names its own command)
    earlier = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    if earlier.get("before", {}).get("revision") == revisions["before"]:
        rows = {**earlier.get("workloads", {}), **rows}
    document = {
        **run,
        **{
            which: {"path": str(checkout), "revision": revisions[which]}
            for which, checkout in checkouts.items()
        },
        "repeats": args.repeats,
        "workloads": rows,
        "load": whole.fields(),
        "loaded_machine": loaded_note(rows) + unrecorded_note(rows),
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(document, indent=2) + "\n")
    print(f"{whole}; {document['loaded_machine']}; written to {RESULTS}")
    return document


if __name__ == "__main__":
    main()
