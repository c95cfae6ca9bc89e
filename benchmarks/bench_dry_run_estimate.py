"""The dry run's compute estimate against the measured run, on two workloads (target: the
ratio estimate / measured within [1/1.5, 1.5]).

For each workload the dry run (``dry_run(path, timing=True)``) estimates each model's compute
in seconds of one worker; then, side by side on the same machine, each model's NestedCV is
fitted with ``n_jobs=1`` exactly as the runner builds it (``nested_of``) and its wall time
measured. Three such rounds run one after the other and the medians are compared, so that on
a shared machine the estimate and the run see about the same load (each round's ratio is
saved too). Workloads: HistGradientBoosting on ``digits`` (fits that grow with the rows), and
Ridge with group splitters on a 4000-row CSV (fits of a few milliseconds, where a fixed cost
per fit dominates: the case the issue's Ames run overestimated threefold).

Usage: python benchmarks/bench_dry_run_estimate.py
"""

import json
import tempfile
import time
from pathlib import Path

import numpy as np
from _machine import Load, loaded_note, run_fields

from sklearn_fair.experiment import dry_run, load_config
from sklearn_fair.experiment._counting._plan import nested_of
from sklearn_fair.experiment._reading._data import load_datasets

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "dry_run_estimate.json"

DIGITS = """\
[experiment]
progress = false
random_state = 0

[data]
dataset = "sklearn:digits"

[protocol]
outer_cv = 3
inner_cv = 2
n_refits = 1

[models.hgb]
estimator = "sklearn.ensemble.HistGradientBoostingClassifier"
params = { max_iter = 30, early_stopping = false }
grid = { max_depth = [2, 4], learning_rate = [0.1, 0.3] }
"""
RIDGE = """\
[experiment]
progress = false
random_state = 0

[data]
dataset = "csv"
path = "ridge.csv"
target = "y"
groups = "g"

[protocol]
outer_cv = { splitter = "sklearn.model_selection.GroupKFold", params = { n_splits = 5 } }
inner_cv = { splitter = "sklearn.model_selection.GroupKFold", params = { n_splits = 3 } }
n_refits = 1
scoring = "r2"

[models.ridge]
estimator = "sklearn.linear_model.Ridge"
grid = { alpha = [0.01, 0.1, 1.0, 10.0, 100.0] }

[models.scaled_ridge]
estimator = "sklearn.linear_model.Ridge"
preprocessing = ["sklearn.preprocessing.StandardScaler"]
grid = { alpha = [0.1, 10.0] }
"""


def write_ridge_csv(path, n=4000, d=10):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, d))
    y = X @ rng.normal(size=d) + rng.normal(size=n)
    groups = rng.integers(0, 40, n)
    header = ",".join([f"x{i}" for i in range(d)] + ["y", "g"])
    rows = np.column_stack([X, y, groups])
    np.savetxt(path, rows, delimiter=",", header=header, comments="", fmt="%.6g")


def measure_once(path):
    """One dry-run estimate, then each model's run: ``{model: (estimated, measured, fits,
    basis)}``."""
    estimate = dry_run(path, timing=True, n_jobs=1)
    config = load_config(path)
    (data,) = load_datasets(config).values()
    found = {}
    for name, spec in config.models.items():
        nested = nested_of(config, spec, n_jobs=1)
        start = time.perf_counter()
        nested.fit(data.X, data.y, groups=data.groups)
        measured = time.perf_counter() - start
        found[name] = (
            estimate.estimates[name].seconds,
            measured,
            estimate.plans[name].total_fits,
            estimate.estimates[name].basis,
        )
    return found


def measure(path, rounds):
    """``rounds`` estimate-then-run rounds, one after the other, so that both see the same
    load on a shared machine; the ratio of the medians, and each round's, with its load."""
    found, loads = [], []
    for _ in range(rounds):
        with Load() as load:
            found.append(measure_once(path))
        loads.append(load)
    rows = []
    for name in found[0]:
        estimated = [f[name][0] for f in found]
        measured = [f[name][1] for f in found]
        ratio = float(np.median(estimated) / np.median(measured))
        rows.append(
            {
                "model": name,
                "fits_counted": found[0][name][2],
                "estimated_seconds": float(np.median(estimated)),
                "measured_seconds": float(np.median(measured)),
                "ratio": ratio,
                "within_1.5x": 1 / 1.5 <= ratio <= 1.5,
                "rounds": [
                    {"estimated_seconds": e, "measured_seconds": m, "ratio": e / m, **load.fields()}
                    for e, m, load in zip(estimated, measured, loads)
                ],
                "basis": found[-1][name][3],
            }
        )
        print(
            f"{path.stem:8s} {name:14s} estimated {np.median(estimated):7.2f} s, measured "
            f"{np.median(measured):7.2f} s (medians of {rounds}), ratio {ratio:.2f}; per round "
            + ", ".join(f"{e / m:.2f} {load}" for e, m, load in zip(estimated, measured, loads))
        )
    return rows


def main(rounds=3):
    whole, rows = Load(), []
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        (folder / "digits.toml").write_text(DIGITS)
        write_ridge_csv(folder / "ridge.csv")
        (folder / "ridge.toml").write_text(RIDGE)
        for name in ("digits", "ridge"):
            for row in measure(folder / f"{name}.toml", rounds):
                rows.append({"workload": name, **row})
    record = {
        **run_fields(),
        "load": whole.stop().fields(),
        "loaded_machine": loaded_note(rows),
        "rounds": rounds,
        "target": "estimate / measured within [1/1.5, 1.5]",
        "rows": rows,
    }
    RESULTS.write_text(json.dumps(record, indent=1))
    print(f"{whole}; {record['loaded_machine']}; saved to {RESULTS}.")


if __name__ == "__main__":
    main()
