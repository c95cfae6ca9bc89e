"""``sklearn-fair run`` keeps a failed scorer's traceback off the console, as it does a failed
fit's: the failures are in each model's JSON (``failed_fits``) and the run's last line says so;
NestedCV's warning, which points at ``failed_tasks_`` (never shown by the CLI), is not printed."""

import json
import os
import subprocess
import sys
from pathlib import Path

import sklearn_fair

EXPERIMENT = """\
[experiment]
output_dir = "out"
random_state = 0
progress = false

[data]
dataset = "sklearn:iris"

[protocol]
outer_cv = 3
inner_cv = 2
n_refits = 1

[models.knn]
estimator = "sklearn.neighbors.KNeighborsClassifier"
grid = { n_neighbors = [3, 60] }
"""


def test_a_failed_scorer_is_reported_without_a_traceback(tmp_path):
    # 60 neighbours of the 50 rows of an inner training set: the fit passes, predict (and so
    # the scorer) raises, in each of the 3 x 2 inner splits
    (tmp_path / "e.toml").write_text(EXPERIMENT)
    # a process of its own: its stderr is the console's, whatever pytest does with warnings
    package = Path(sklearn_fair.__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(package), *sys.path])}
    done = subprocess.run(
        [sys.executable, "-m", "sklearn_fair", "run", "e.toml"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert "failed_tasks_" not in done.stderr
    record = json.loads((tmp_path / "out" / "models" / "knn.json").read_text())
    failed = record["failed_fits"]
    assert len(failed) == 3 * 2
    assert all("n_neighbors = 60" in fit["error"] for fit in failed)
    assert {fit["phase"] for fit in failed} == {"selection"}
    assert (
        f"sklearn-fair run: {len(failed)} fit(s) failed in 1 model(s) on 1 data set(s) (listed "
        "in each model's JSON, 'failed_fits')"
    ) in done.stderr
