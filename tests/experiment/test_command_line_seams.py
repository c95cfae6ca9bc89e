"""Where ``sklearn-fair run``, ``cache verify`` and ``demo`` meet what is around them: Ctrl-C
while the results are written, the command line's options against the file's, a results
folder that cannot be made, a machine without torch or without the device asked for, a cache
sample that draws nothing."""

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import sklearn_fair
from sklearn_fair.cli import main

IRIS = """\
[experiment]
progress = false
output_dir = "out"

[data]
dataset = "sklearn:iris"

[protocol]
outer_cv = 3
inner_cv = 2
n_refits = 1

[models.tree]
estimator = "sklearn.tree.DecisionTreeClassifier"
params = { random_state = 0 }
grid = { max_depth = [1, 2] }

[models.knn]
estimator = "sklearn.neighbors.KNeighborsClassifier"
grid = { n_neighbors = [1, 5] }
"""

MUTAG = """\
[experiment]
progress = false
output_dir = "out"

[data]
dataset = "tu:MUTAG"
root = "TU"
features = "node-labels"

[protocol]
outer_cv = 3
n_refits = 1

[models.dummy]
estimator = "sklearn.dummy.DummyClassifier"
"""

GRAPH_MODEL = """
[models.gin]
estimator = "sklearn_fair.graph.GraphClassifier"
params = { module = { class = "sklearn_fair.graph.GIN" }, max_epochs = 2 }
grid = { module__hidden_units = [[8, 8]] }
"""


def write(folder, text, name="e.toml"):
    path = Path(folder) / name
    path.write_text(text)
    return path


def with_mutag(folder):
    """The bundled MUTAG's raw files under ``folder/TU`` (not through sklearn_fair.graph,
    which imports torch)."""
    raw = Path(sklearn_fair.__file__).parent / "graph" / "data" / "MUTAG" / "raw"
    shutil.copytree(raw, Path(folder) / "TU" / "MUTAG" / "raw")


def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


# -- 1. Ctrl-C while the results folder is written ------------------------------------------


def test_ctrl_c_while_writing_says_the_folder_is_incomplete_and_the_fits_cached(
    tmp_path, monkeypatch, capsys
):
    from sklearn_fair.experiment._running._resultfile import ResultsFolder

    path = write(tmp_path, IRIS)
    assert main(["run", str(path)]) == 0
    out = tmp_path / "out"
    old_table = (out / "table.md").read_text()
    path.write_text(IRIS.replace("n_neighbors = [1, 5]", "n_neighbors = [15, 25]"))
    write_text = ResultsFolder.write_text

    def stopped_at_the_table(self, parts, text):
        if parts == ("table.md",):  # summary.csv and the model files are written by then
            raise KeyboardInterrupt
        return write_text(self, parts, text)

    monkeypatch.setattr(ResultsFolder, "write_text", stopped_at_the_table)
    capsys.readouterr()
    assert main(["run", str(path)]) == 130
    err = capsys.readouterr().err
    assert "no fit of the run was cached" not in err  # every fit is: the outputs were next
    assert "INCOMPLETE" in err and str(out) in err and str(out / "cache") in err
    assert "holds files of this run and of an earlier one" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    # the folder holds two runs' files, and its record says it is not complete
    assert (out / "table.md").read_text() == old_table
    record = json.loads((out / "outputs.json").read_text())
    assert record["complete"] is False
    # the files written before the interrupt are recorded as they are now: a later run
    # removes those it does not write
    assert record["files"]["summary.csv"] == sha256(out / "summary.csv")
    assert record["files"]["models/knn.json"] == sha256(out / "models" / "knn.json")

    monkeypatch.undo()
    assert main(["run", str(path)]) == 0  # served by the cache: the folder is written whole
    record = json.loads((out / "outputs.json").read_text())
    assert record["complete"] is True
    assert (out / "table.md").read_text() != old_table
    assert record["files"]["table.md"] == sha256(out / "table.md")


def test_ctrl_c_while_writing_a_first_results_folder_names_no_earlier_run(
    tmp_path, monkeypatch, capsys
):
    # it said the folder "holds files of this run and of an earlier one" where there never
    # was an earlier run
    from sklearn_fair.experiment._running._resultfile import ResultsFolder

    path = write(tmp_path, IRIS)
    write_text = ResultsFolder.write_text

    def stopped_at_the_table(self, parts, text):
        if parts == ("table.md",):
            raise KeyboardInterrupt
        return write_text(self, parts, text)

    monkeypatch.setattr(ResultsFolder, "write_text", stopped_at_the_table)
    assert main(["run", str(path)]) == 130
    err = capsys.readouterr().err
    assert "INCOMPLETE: it holds some of this run's files" in err
    assert "earlier" not in err


# -- 2. --n-jobs replaces the file's n_jobs ---------------------------------------------------


def test_the_command_line_n_jobs_replaces_the_file_s_over_the_jobs_limit(tmp_path, capsys):
    path = write(tmp_path, IRIS.replace("[experiment]\n", "[experiment]\nn_jobs = 4\n"))
    limit = ["--limit", "jobs=2"]  # as on a machine of 2 cores
    assert main(["run", str(path), "--dry-run", "--no-timing", *limit]) == 2
    assert "key 'experiment.n_jobs'" in capsys.readouterr().err  # the file's 4 is refused...
    # ...not the 1 the command line runs with
    assert main(["run", str(path), "--dry-run", "--no-timing", "--n-jobs", "1", *limit]) == 0
    assert main(["run", str(path), "--n-jobs", "1", *limit]) == 0
    cache = str(tmp_path / "out" / "cache")
    # every entry recomputed: a sample's draw (entry names hold the source's digest) that
    # drew none of a model's would exit 1 for that reason
    assert main(["cache", "verify", cache, "--sample", "1", "--n-jobs", "1", *limit]) == 0
    # the file's value is still checked for what it is
    path.write_text(IRIS.replace("[experiment]\n", "[experiment]\nn_jobs = 0\n"))
    assert main(["run", str(path), "--dry-run", "--no-timing", "--n-jobs", "1"]) == 2
    assert "must be a non-zero integer" in capsys.readouterr().err


# -- 3. a results folder that cannot be made ------------------------------------------------


@pytest.mark.parametrize("where", ["out", "out/deeper"])
def test_a_file_where_the_results_folder_goes_is_refused_in_one_line(where, tmp_path, capsys):
    path = write(tmp_path, IRIS.replace('output_dir = "out"', f'output_dir = "{where}"'))
    (tmp_path / "out").write_text("not a folder")
    for dry in (["--dry-run", "--no-timing"], []):
        assert main(["run", str(path), *dry]) == 2
        err = capsys.readouterr().err
        assert "is a regular file" in err and str(tmp_path / where) in err
        assert len(err.strip().splitlines()) == 1
    assert (tmp_path / "out").read_text() == "not a folder"


def test_a_results_folder_that_cannot_be_written_is_refused_before_any_fit(
    tmp_path, monkeypatch, capsys
):
    path = write(tmp_path, IRIS)
    (tmp_path / "out").mkdir()
    real = os.access

    def access(where, mode, **kwargs):  # as a read-only folder (the tests may run as root)
        return Path(where) != tmp_path / "out" and real(where, mode, **kwargs)

    monkeypatch.setattr(os, "access", access)
    for dry in (["--dry-run", "--no-timing"], []):
        assert main(["run", str(path), *dry]) == 2
        err = capsys.readouterr().err
        assert "cannot be written" in err and "read-only" in err
    assert list((tmp_path / "out").iterdir()) == []


@pytest.mark.skipif(sys.platform != "linux", reason="/proc, where no folder can be made")
def test_a_results_folder_the_system_refuses_to_make_is_one_line(tmp_path, capsys):
    path = write(tmp_path, IRIS)
    assert main(["run", str(path), "--output-dir", "/proc/sklearn-fair-results"]) == 2
    err = capsys.readouterr().err
    assert "cannot be written" in err and "/proc/sklearn-fair-results" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


# -- 4. graph data without torch -------------------------------------------------------------

NO_TORCH = """\
import sys
class NoTorch:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("torch", "torch_geometric", "skorch"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, NoTorch())
from sklearn_fair.cli import main
sys.exit(main(sys.argv[1:]))
"""


def without_torch(folder, *args):
    # the sklearn_fair under test, wherever it is imported from
    package = str(Path(sklearn_fair.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([package, *sys.path])}
    return subprocess.run(
        [sys.executable, "-c", NO_TORCH, *args],
        capture_output=True,
        text=True,
        cwd=folder,
        env=env,
        timeout=300,
    )


def test_graph_data_without_torch_is_one_line_with_the_install_hint(tmp_path):
    with_mutag(tmp_path)
    path = write(tmp_path, MUTAG)
    assert main(["run", str(path)]) == 0  # with torch: the cache that 'cache verify' reads
    shutil.rmtree(tmp_path / "out" / "cache" / "tu_data")
    for args in (
        ["run", str(path)],
        ["cache", "verify", str(tmp_path / "out" / "cache")],
        ["demo", "--graph"],
    ):
        done = without_torch(tmp_path, *args)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2, done.stderr
        assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
        assert "'torch' is missing" in lines[0] or "'skorch' is missing" in lines[0]
        assert 'pip install -e ".[graph]"' in lines[0]
        if args[0] != "demo":
            assert "key 'data.dataset'" in lines[0]
    # the count needs no torch; the timing does, and says so for the data set
    done = without_torch(tmp_path, "run", str(path), "--dry-run", "--no-timing")
    assert done.returncode == 0 and "Total: 6 fits." in done.stdout, done.stderr
    done = without_torch(tmp_path, "run", str(path), "--dry-run")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "NOT AVAILABLE" in done.stdout and 'pip install -e ".[graph]"' in done.stdout


def test_a_graph_model_without_torch_is_refused_in_a_sentence_that_ends_once(tmp_path):
    with_mutag(tmp_path)
    path = write(tmp_path, MUTAG + GRAPH_MODEL)
    done = without_torch(tmp_path, "run", str(path), "--dry-run", "--no-timing")
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert "key 'models.gin.estimator'" in line and line.endswith('".[graph]".')
    assert ".." not in line


# -- 5. cache verify recomputes something ---------------------------------------------------


def test_cache_verify_that_recomputes_nothing_of_a_model_exits_1_and_says_so(tmp_path, capsys):
    path = write(tmp_path, IRIS)
    assert main(["run", str(path)]) == 0
    capsys.readouterr()
    # 1e-6 of about 15 entries a model: the sample draws none (it exited 0, "0 recomputed")
    assert main(["cache", "verify", str(tmp_path / "out" / "cache"), "--sample", "1e-6"]) == 1
    out = capsys.readouterr().out
    assert out.count("drew none of the cell's") == 2, out  # tree and knn
    assert "--sample 1 recomputes every entry" in out
    # a sample that draws entries of both models exits 0
    assert main(["cache", "verify", str(tmp_path / "out" / "cache"), "--sample", "1"]) == 0


def test_cache_verify_refusal_names_no_option_the_command_line_lacks(tmp_path, capsys):
    path = write(tmp_path, IRIS)
    assert main(["run", str(path)]) == 0
    moved = tmp_path / "a" / "b" / "cache"  # beside neither the file nor its results folder
    shutil.copytree(tmp_path / "out" / "cache", moved)
    record = json.loads((moved / "experiments.json").read_text())
    record["experiments"][0]["path"] = os.path.relpath(path, moved)
    (moved / "experiments.json").write_text(json.dumps(record))
    capsys.readouterr()
    assert main(["cache", "verify", str(moved)]) == 2
    err = capsys.readouterr().err
    assert "--allow-outside-paths" in err and "--output-dir" in err
    assert "--cache-dir" not in err  # no such option: cache_dir is a key of the file


# -- 6. options that need another ---------------------------------------------------------


def test_a_dask_scheduler_without_the_dask_backend_is_refused_before_any_fit(tmp_path, capsys):
    path = write(tmp_path, IRIS)
    assert main(["run", str(path), "--dask-scheduler", "tcp://192.0.2.1:8786"]) == 2
    err = capsys.readouterr().err
    assert "--backend dask" in err and "'loky'" in err
    assert not (tmp_path / "out").exists()


def test_no_timing_without_dry_run_is_a_usage_error(tmp_path, capsys):
    path = write(tmp_path, IRIS)
    with pytest.raises(SystemExit) as info:
        main(["run", str(path), "--no-timing"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "--no-timing" in err and "--dry-run" in err and "usage:" in err
    assert not (tmp_path / "out").exists()


# -- 7. the device, before the first fit --------------------------------------------------


@pytest.mark.parametrize(
    "device, cuda, count, message",
    [
        ("foo", False, 0, "torch does not know that device"),
        ("cuda", False, 0, "torch.cuda.is_available() is False"),
        ("cuda:3", True, 1, "this machine has 1 cuda device(s)"),
    ],
)
def test_a_device_torch_cannot_use_is_refused_before_any_fit(
    device, cuda, count, message, tmp_path, monkeypatch, capsys
):
    torch = pytest.importorskip("torch")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: cuda)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: count)
    with_mutag(tmp_path)
    path = write(tmp_path, MUTAG.partition("[models.dummy]")[0] + GRAPH_MODEL)
    for dry in (["--dry-run", "--no-timing"], []):
        assert main(["run", str(path), "--device", device, *dry]) == 2
        err = capsys.readouterr().err
        assert message in err and f"device='{device}'" in err
        assert len(err.strip().splitlines()) == 1
    out = tmp_path / "out"  # it holds the working copy of the data, no fit nor result
    assert not list(out.glob("cache/??/*.json")) and not (out / "outputs.json").exists()
    assert main(["run", str(path), "--device", "cpu", "--dry-run", "--no-timing"]) == 0


def test_a_device_of_the_file_torch_cannot_use_is_refused_before_any_fit(
    tmp_path, monkeypatch, capsys
):
    torch = pytest.importorskip("torch")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    with_mutag(tmp_path)
    model = GRAPH_MODEL.replace("max_epochs = 2 }", 'max_epochs = 2, device = "cuda" }')
    path = write(tmp_path, MUTAG.partition("[models.dummy]")[0] + model)
    assert main(["run", str(path), "--dry-run", "--no-timing"]) == 2
    err = capsys.readouterr().err
    assert "Model 'gin'" in err and "device='cuda'" in err and "is_available() is False" in err


def test_only_a_torch_networks_device_is_checked():
    # XGBoost's device="gpu" is its own library's word: torch's rule is not its rule
    pytest.importorskip("torch")
    from types import SimpleNamespace

    from sklearn.base import BaseEstimator

    from sklearn_fair.exceptions import ExperimentConfigError
    from sklearn_fair.experiment._counting._checks import _check_devices
    from sklearn_fair.graph import GIN, GraphClassifier

    class OnGpu(BaseEstimator):
        def __init__(self, device="gpu"):
            self.device = device

    def config(**estimators):
        return SimpleNamespace(
            models={n: SimpleNamespace(name=n, estimator=e) for n, e in estimators.items()}
        )

    _check_devices(config(booster=OnGpu(), gin=GraphClassifier(GIN, device="cpu")))
    with pytest.raises(ExperimentConfigError, match="Model 'gin': its device='gpu'"):
        _check_devices(config(booster=OnGpu(), gin=GraphClassifier(GIN, device="gpu")))
