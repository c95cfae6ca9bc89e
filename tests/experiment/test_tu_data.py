"""TU graph data sets in experiment files: a working copy, never a download, never a pickle
that the runner did not write."""

import io
import os
import pickle
import shutil
import tarfile
from pathlib import Path

import pytest

import sklearn_fair.graph
from sklearn_fair.cli import main
from sklearn_fair.exceptions import ExperimentConfigError
from sklearn_fair.experiment import dry_run, load_config, run_experiment

TU = """\
[experiment]
progress = false
cache_dir = "cache"

[data]
dataset = "tu:MUTAG"
root = "TU"

[protocol]
outer_cv = 3
n_refits = 1

[models.gin]
estimator = "sklearn_fair.graph.GraphClassifier"
params = { module = { class = "sklearn_fair.graph.GIN" } }
grid_preset = "sklearn_fair.graph.SMALL_GRIDS:GIN"
grid = { max_epochs = [4] }
"""


def test_missing_tu_folder_is_named_and_never_downloaded(tmp_path, monkeypatch, capsys):
    import socket

    def no_network(*args, **kwargs):
        raise AssertionError("the runner tried to reach the network")

    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(socket.socket, "connect", no_network)
    path = tmp_path / "e.toml"
    path.write_text(TU)
    with pytest.raises(ExperimentConfigError) as info:
        run_experiment(path)
    message = str(info.value)
    assert f"the TU data set folder '{tmp_path / 'TU' / 'MUTAG' / 'raw'}' is missing" in message
    assert "never downloads" in message and "MUTAG.zip" in message
    # the dry run says what is missing, and does not guess a count without the labels
    for timing in ([], ["--no-timing"]):
        assert main(["run", "--dry-run", str(path), *timing]) == 1
        output = capsys.readouterr().out
        assert "NOT AVAILABLE" in output and "is missing" in output
        assert "Total: not counted: the data cannot be read" in output


def test_graph_dry_run_times_epochs(tmp_path):
    """A tu: data set is copied beside the cache, timed per epoch and counted."""

    raw = tmp_path / "TU" / "MUTAG" / "raw"
    raw.parent.mkdir(parents=True)
    shutil.copytree(Path(sklearn_fair.graph.__file__).parent / "data" / "MUTAG" / "raw", raw)
    before = sorted(p.name for p in raw.parent.iterdir())
    path = tmp_path / "e.toml"
    path.write_text(TU)
    report = dry_run(path, sample_size=32, n_timed=1)
    assert report.total_fits == 3 * 2 + 3 * 1
    estimate = report.estimates["gin"]
    assert estimate.seconds > 0
    assert "for 2 epochs (max_epochs lowered)" in estimate.basis
    assert "per sample-epoch" in estimate.basis and "an upper bound" in estimate.basis
    # the user's data folder is left as it was; PyG works in a copy under cache_dir
    assert sorted(p.name for p in raw.parent.iterdir()) == before
    assert (tmp_path / "cache" / "tu_data" / "MUTAG" / "raw" / "MUTAG_A.txt").is_file()


def test_compressed_tu_folder_is_extracted_safely(tmp_path):
    """A data set stored as NAME.tar.xz (COLLAB in the shared data) is read without
    extracting anything but its raw text files."""

    folder = tmp_path / "TU" / "MUTAG"
    folder.mkdir(parents=True)
    source = Path(sklearn_fair.graph.__file__).parent / "data" / "MUTAG" / "raw"
    with tarfile.open(folder / "MUTAG.tar.xz", "w:xz") as archive:
        for name in sorted(os.listdir(source)):
            if name.endswith(".txt") and name.startswith("MUTAG_"):
                archive.add(f"{source}/{name}", arcname=f"raw/{name}")
        evil = tarfile.TarInfo("../../evil.txt")
        evil.size = 4
        archive.addfile(evil, io.BytesIO(b"evil"))
        link = tarfile.TarInfo("raw/MUTAG_link.txt")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        archive.addfile(link)
    path = tmp_path / "e.toml"
    path.write_text(TU)
    report = dry_run(path, sample_size=16, n_timed=1)
    assert report.data_problem is None and report.estimates["gin"].seconds > 0
    copied = sorted(p.name for p in (tmp_path / "cache" / "tu_data" / "MUTAG" / "raw").iterdir())
    wanted = [n for n in os.listdir(source) if n.startswith("MUTAG_") and n.endswith(".txt")]
    assert copied == sorted(wanted)
    assert not (tmp_path / "evil.txt").exists() and not (tmp_path.parent / "evil.txt").exists()
    assert sum(n_train for n_train, _ in report.plans["gin"].outer) == 2 * 188


def _mutag(tmp_path):

    raw = tmp_path / "TU" / "MUTAG" / "raw"
    raw.parent.mkdir(parents=True)
    shutil.copytree(Path(sklearn_fair.graph.__file__).parent / "data" / "MUTAG" / "raw", raw)
    (tmp_path / "e.toml").write_text(TU)
    return tmp_path / "e.toml"


class _Planted:
    """Unpickling it creates a file: a stand-in for code run by a pickle."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (open, (self.marker, "w"))


def test_a_processed_file_left_in_the_work_folder_is_never_loaded(tmp_path):
    """Issue 13 B1, for the runner: PyG's processed files are pickles."""
    path = _mutag(tmp_path)
    processed = tmp_path / "cache" / "tu_data" / "MUTAG" / "processed"
    dry_run(path, sample_size=16, n_timed=1)  # makes the working copy
    processed.mkdir(exist_ok=True)  # as a PyG TUDataset or an attacker would leave it
    marker = tmp_path / "code-ran"
    for name in ("data.pt", "pre_transform.pt", "pre_filter.pt"):
        with open(processed / name, "wb") as file:
            pickle.dump(_Planted(str(marker)), file)
    report = dry_run(path, sample_size=16, n_timed=1)
    assert report.estimates["gin"].seconds > 0
    assert not marker.exists()
    # a processed folder that links elsewhere is not followed
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.rmtree(processed)
    processed.symlink_to(elsewhere, target_is_directory=True)
    dry_run(path, sample_size=16, n_timed=1)
    assert list(elsewhere.iterdir()) == []


def test_device_is_set_on_the_estimators_that_have_one(tmp_path):
    path = tmp_path / "e.toml"
    path.write_text(TU.replace('root = "TU"', 'root = "TU"\nfeatures = "degree"'))
    spec = load_config(path, device="cuda:1").models["gin"]
    assert spec.estimator.device == "cuda:1"
    iris = (
        '[data]\ndataset = "sklearn:iris"\n[models.knn]\n'
        'estimator = "sklearn.neighbors.KNeighborsClassifier"\n'
    )
    (tmp_path / "iris.toml").write_text(iris)
    with pytest.raises(ExperimentConfigError, match="no model of .* has a 'device' parameter"):
        load_config(tmp_path / "iris.toml", device="cuda")


@pytest.mark.parametrize("planted", ["work folder", "lock"])
def test_a_link_where_the_working_copies_go_is_refused_and_nothing_outside_changes(
    tmp_path, planted
):
    # the working copies live in the cache (by default inside the results folder, or a cache
    # that 'cache verify' audits): a link planted there must not lead a copy, or the removal
    # of a stale one, to a folder elsewhere
    from sklearn_fair.experiment._reading._data import work_copy

    raw = tmp_path / "TU" / "TOY" / "raw"
    raw.mkdir(parents=True)
    (raw / "TOY_graph_indicator.txt").write_text("1\n1\n")
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "TOY").mkdir(parents=True)
    (elsewhere / "TOY" / "keep.txt").write_text("the user's")
    work = tmp_path / "cache" / "tu_data"
    if planted == "work folder":
        work.parent.mkdir()
        work.symlink_to(elsewhere)
    else:
        work.mkdir(parents=True)
        (work / ".TOY.lock").symlink_to(elsewhere / "made.lock")
    with pytest.raises(ExperimentConfigError, match="symbolic link"):
        work_copy(tmp_path / "TU", "TOY", work)
    assert sorted(p.name for p in elsewhere.rglob("*")) == ["TOY", "keep.txt"]


@pytest.mark.parametrize(
    "bad_line, reason",
    [
        ("a" * 100_000, "'" + "a" * 80 + "'... (100000 characters) is not an integer"),
        ("1 -1", "'1 -1' is not an integer"),  # whitespace is not the TU delimiter
    ],
)
def test_a_malformed_graph_labels_file_gets_the_runs_error_in_the_dry_run(
    tmp_path, bad_line, reason
):
    """The counting dry run reads the labels with the run's checked reader: the same error,
    naming the file and the line, quoting a bounded part of a hostile line."""
    path = _mutag(tmp_path)
    labels = tmp_path / "TU" / "MUTAG" / "raw" / "MUTAG_graph_labels.txt"
    lines = labels.read_text().splitlines()
    lines[2] = bad_line
    labels.write_text("\n".join(lines) + "\n")

    problem = dry_run(path, timing=False).data_problem
    with pytest.raises(ExperimentConfigError) as info:
        run_experiment(path)
    ran = str(info.value)
    tail = f"MUTAG_graph_labels.txt, line 3: {reason} (line "
    for message in (problem, ran):
        assert tail in message
        assert len(message) < 2_000  # the hostile line is not copied whole
    # the same message, under the key that names the file's folder (the run said
    # 'data.features'), naming the user's file (the run named its working copy)
    where = f"{path}, line 7, key 'data.root': "
    assert problem == f"MUTAG: {ran}" and ran.startswith(f"{where}{labels}, line 3")
    path.write_text(TU.replace('root = "TU"', 'root = "TU"\nfeatures = "bogus"'))
    with pytest.raises(ExperimentConfigError, match="line 8, key 'data.features': The 'features'"):
        run_experiment(path)  # the scheme's own error stays under its key
    assert f"{labels}, line 3" in problem


@pytest.mark.parametrize("part", ["A", "graph_labels", "graph_indicator"])
def test_a_missing_required_file_is_named_in_the_users_folder_by_every_path(tmp_path, part):
    """The run, the dry run (timed, or counting from the labels) and load_tu_dataset say the
    same: the file the user's folder lacks, under data.root in an experiment. The run raised a
    bare FileNotFoundError naming the working copy, and the counting dry run saw no problem
    without _A.txt."""
    from sklearn_fair.graph import load_tu_dataset

    path = _mutag(tmp_path)
    raw = tmp_path / "TU" / "MUTAG" / "raw"
    (raw / f"MUTAG_{part}.txt").unlink()
    where = f"{path}, line 7, key 'data.root': "
    with pytest.raises(ExperimentConfigError) as info:
        run_experiment(path)
    ran = str(info.value)
    assert ran.startswith(f"{where}{raw} lacks MUTAG_{part}.txt: every TU data set has ")
    assert f"unpack its text files into {raw}/" in ran and "tu_data" not in ran
    for timing in (False, True):
        report = dry_run(path, timing=timing, sample_size=16, n_timed=1)
        assert report.data_problem == f"MUTAG: {ran}"
        assert report.total_fits is None
    with pytest.raises(FileNotFoundError) as info:
        load_tu_dataset("MUTAG", tmp_path / "TU")
    assert where + str(info.value) == ran


def test_a_required_file_missing_from_an_archive_is_named_with_the_archive(tmp_path):
    folder = tmp_path / "TU" / "MUTAG"
    folder.mkdir(parents=True)
    source = Path(sklearn_fair.graph.__file__).parent / "data" / "MUTAG" / "raw"
    with tarfile.open(folder / "MUTAG.tar.xz", "w:xz") as archive:
        archive.add(source / "MUTAG_graph_labels.txt", arcname="raw/MUTAG_graph_labels.txt")
    path = tmp_path / "e.toml"
    path.write_text(TU)
    lacks = f"{folder / 'MUTAG.tar.xz'} lacks MUTAG_graph_indicator.txt, MUTAG_A.txt: "
    assert lacks in dry_run(path, timing=False).data_problem
    with pytest.raises(ExperimentConfigError, match="key 'data.root': ") as info:
        run_experiment(path)
    message = str(info.value)
    assert lacks in message and f"unpack its text files into {folder / 'raw'}/" in message
