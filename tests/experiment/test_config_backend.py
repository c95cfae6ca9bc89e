"""An experiment file that names the dask backend: reading it, and its dry run, start no
cluster and connect nowhere (only a run starts one, see ``run_experiment``)."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

DASK = """\
[experiment]
progress = false
backend = "dask"
n_jobs = 2

[data]
dataset = "sklearn:iris"

[protocol]
outer_cv = 3
inner_cv = 2
n_refits = 1

[models.knn]
estimator = "sklearn.neighbors.KNeighborsClassifier"
grid = { n_neighbors = [3, 5] }
"""


def test_reading_and_dry_running_a_dask_file_start_no_cluster(tmp_path):
    pytest.importorskip("distributed")
    (tmp_path / "e.toml").write_text(DASK)
    # a fresh process: another test may have imported dask.distributed in this one
    script = textwrap.dedent(
        f"""
        import socket, sys
        def no_network(*args, **kwargs):
            raise AssertionError("a connection was opened")
        socket.socket.connect = socket.socket.bind = socket.create_connection = no_network
        from sklearn_fair.experiment import dry_run, load_config
        config = load_config({str(tmp_path / "e.toml")!r})
        report = dry_run({str(tmp_path / "e.toml")!r}, sample_size=20, n_timed=1)
        print(config.backend, report.total_fits > 0, "distributed" in sys.modules)
        """
    )
    root = os.fspath(Path(__file__).resolve().parents[2])  # this checkout's sklearn_fair
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["dask", "True", "False"]
