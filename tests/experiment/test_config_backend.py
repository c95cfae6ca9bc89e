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
        # the file's n_jobs = 2 is past the default jobs limit (the cores) of a 1-CPU runner
        limits = {{"jobs": 2}}
        config = load_config({str(tmp_path / "e.toml")!r}, limits=limits)
        report = dry_run({str(tmp_path / "e.toml")!r}, sample_size=20, n_timed=1, limits=limits)
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


def _listening_addresses():
    """The addresses this process and its children listen on (TCP)."""
    import psutil

    me = psutil.Process()
    addresses = set()
    for process in [me, *me.children(recursive=True)]:
        for connection in process.net_connections(kind="tcp"):
            if connection.status == psutil.CONN_LISTEN:
                addresses.add(connection.laddr.ip)
    return addresses


def test_a_run_on_dask_starts_a_cluster_of_n_jobs_workers_that_listens_on_this_machine_only(
    tmp_path, monkeypatch
):
    distributed = pytest.importorskip("distributed")
    (tmp_path / "e.toml").write_text(DASK)
    started = []
    original = distributed.Client.__init__

    def recording(self, *args, **kwargs):
        original(self, *args, **kwargs)
        info = self.scheduler_info()
        threads = sorted(worker["nthreads"] for worker in info["workers"].values())
        started.append((info["address"], _listening_addresses(), threads))

    monkeypatch.setattr(distributed.Client, "__init__", recording)
    from sklearn_fair.experiment import run_experiment

    environment = dict(os.environ)
    result = run_experiment(tmp_path / "e.toml", limits={"jobs": 2})  # on a 1-CPU runner too
    assert result.status == {"knn": "computed"}
    # distributed's nannies left OMP_NUM_THREADS=1, PYTHONHASHSEED... in this process's
    # environment: every later subprocess and torch import ran single-threaded
    assert dict(os.environ) == environment
    ((address, listening, threads),) = started
    assert address.startswith("tcp://127.0.0.1:")
    assert listening == {"127.0.0.1"}  # dask's default served its dashboard on 0.0.0.0
    assert threads == [1, 1]  # the file's n_jobs, one fit each
