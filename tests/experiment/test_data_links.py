"""Links and special files where an experiment reads its data: a TU data set's ``raw/``
folder, its raw files and its archive follow the rule of every path of the file (links
followed, but only to where the file may read: its folder or the data folder), and each is a
regular file (a folder for ``raw/``), else refused saying what it is, never skipped as if
absent, never opened if it is a device, never waited on if it is a FIFO."""

import os
import shutil
import tarfile
import threading
from pathlib import Path

import pytest

import sklearn_fair.graph
from sklearn_fair.exceptions import ExperimentConfigError
from sklearn_fair.experiment import dry_run, load_config, run_experiment
from sklearn_fair.utils._tu_format import TUFormatError

from .test_tu_data import TU

MUTAG_RAW = Path(sklearn_fair.graph.__file__).parent / "data" / "MUTAG" / "raw"
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")


@pytest.fixture
def folders(tmp_path):
    """``(experiment folder, a folder outside it)``; the experiment's TU/MUTAG is empty."""
    experiment, outside = tmp_path / "experiment", tmp_path / "outside"
    (experiment / "TU" / "MUTAG").mkdir(parents=True)
    shutil.copytree(MUTAG_RAW, outside / "raw")
    (experiment / "e.toml").write_text(TU)
    return experiment, outside


def _raw(experiment):
    raw = experiment / "TU" / "MUTAG" / "raw"
    shutil.copytree(MUTAG_RAW, raw)
    return raw


def _problem(path, **options):
    """The dry run's data problem (the labels-only path), checked to be the run's error (the
    path that copies the raw files), without fitting anything."""
    problem = dry_run(path, timing=False, **options).data_problem
    with pytest.raises(ExperimentConfigError) as info:
        run_experiment(path, **options)
    assert problem == f"MUTAG: {info.value}"
    return problem


def test_a_raw_folder_linked_out_of_the_folders_is_outside(folders):
    # the raw folder was read wherever its link led; a CSV file's link out was refused
    experiment, outside = folders
    raw = experiment / "TU" / "MUTAG" / "raw"
    raw.symlink_to(outside / "raw", target_is_directory=True)
    with pytest.raises(ExperimentConfigError) as info:
        load_config(experiment / "e.toml", data_dir=experiment)
    assert "key 'data.root'" in str(info.value)
    assert f"the path '{raw}', which leads to '{outside / 'raw'}', is outside" in str(info.value)
    assert "--allow-outside-paths" in str(info.value)
    # the user may allow it; a file cannot
    report = dry_run(experiment / "e.toml", timing=False, allow_outside_paths=True)
    assert report.data_problem is None and report.total_fits == 3 * 2 + 3 * 1


def test_a_raw_file_linked_out_of_the_folders_is_outside_and_one_inside_is_read(folders):
    experiment, outside = folders
    raw = _raw(experiment)
    (raw / "MUTAG_A.txt").unlink()
    (raw / "MUTAG_A.txt").symlink_to(outside / "raw" / "MUTAG_A.txt")
    with pytest.raises(ExperimentConfigError) as info:
        load_config(experiment / "e.toml", data_dir=experiment)
    leads = f"the path '{raw / 'MUTAG_A.txt'}', which leads to '{outside / 'raw' / 'MUTAG_A.txt'}'"
    assert f"{leads}, is outside" in str(info.value)
    # a link to a regular file inside the folder is followed
    shutil.copy(MUTAG_RAW / "MUTAG_A.txt", experiment / "edges.txt")
    (raw / "MUTAG_A.txt").unlink()
    (raw / "MUTAG_A.txt").symlink_to(Path("..", "..", "..", "edges.txt"))
    report = dry_run(experiment / "e.toml", timing=False, data_dir=experiment)
    assert report.data_problem is None and report.total_fits == 3 * 2 + 3 * 1
    from sklearn_fair.experiment._reading._data import work_copy

    with work_copy(experiment / "TU", "MUTAG", experiment / "work") as folder:
        copy = folder / "MUTAG" / "raw"
        assert not (copy / "MUTAG_A.txt").is_symlink()
        assert (copy / "MUTAG_A.txt").read_bytes() == (MUTAG_RAW / "MUTAG_A.txt").read_bytes()


@needs_fifo
@pytest.mark.parametrize("part", ["A", "node_labels"], ids=["required", "optional"])
def test_a_raw_file_that_is_a_fifo_is_refused_saying_so(folders, part):
    # a required one was reported missing ("lacks MUTAG_A.txt"); an optional one was skipped,
    # so that MUTAG was read without its node labels
    experiment, _ = folders
    raw = _raw(experiment)
    (raw / f"MUTAG_{part}.txt").unlink()
    os.mkfifo(raw / f"MUTAG_{part}.txt")
    problem = _problem(experiment / "e.toml")
    assert "key 'data.root'" in problem
    assert f"{raw / f'MUTAG_{part}.txt'} is not a regular file: it is a FIFO; " in problem
    assert "a TU data set's raw files are regular text files" in problem
    assert "lacks" not in problem


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero on this system")
def test_a_raw_file_linked_to_a_device_is_refused_even_where_outside_paths_are_allowed(folders):
    experiment, _ = folders
    raw = _raw(experiment)
    (raw / "MUTAG_node_labels.txt").unlink()
    (raw / "MUTAG_node_labels.txt").symlink_to("/dev/zero")
    with pytest.raises(ExperimentConfigError, match="which leads to '/dev/zero', is outside"):
        load_config(experiment / "e.toml", data_dir=experiment)
    problem = _problem(experiment / "e.toml", allow_outside_paths=True)
    assert f"{raw / 'MUTAG_node_labels.txt'} is not a regular file: it is a device; " in problem


@needs_fifo
def test_an_archive_that_is_a_fifo_is_refused_saying_so(folders):
    # it was taken for absent: "the TU data set folder ... is missing"
    experiment, _ = folders
    archive = experiment / "TU" / "MUTAG" / "MUTAG.tar.xz"
    os.mkfifo(archive)
    problem = _problem(experiment / "e.toml")
    assert f"{archive} is not a regular file: it is a FIFO; " in problem
    assert "a TU data set's archive is a regular file" in problem


@pytest.mark.parametrize(
    "kind, words",
    [
        (tarfile.SYMTYPE, "a symbolic link to '/etc/passwd'"),
        (tarfile.LNKTYPE, "a hard link to '/etc/passwd'"),
        (tarfile.CHRTYPE, "a device"),
        (tarfile.FIFOTYPE, "a FIFO"),
    ],
    ids=["symbolic link", "hard link", "device", "FIFO"],
)
@pytest.mark.parametrize("part", ["A", "node_labels"], ids=["required", "optional"])
def test_an_archive_entry_named_as_a_raw_file_that_is_not_a_file_is_refused(
    folders, kind, words, part
):
    # never followed or created as before, but it was skipped: a required file was reported
    # missing, an optional one left out (MUTAG read without its node labels)
    experiment, _ = folders
    archive = experiment / "TU" / "MUTAG" / "MUTAG.tar.xz"
    with tarfile.open(archive, "w:xz") as tar:
        for name in sorted(os.listdir(MUTAG_RAW)):
            if name.startswith("MUTAG_") and name != f"MUTAG_{part}.txt":
                tar.add(MUTAG_RAW / name, arcname=f"raw/{name}")
        entry = tarfile.TarInfo(f"raw/MUTAG_{part}.txt")
        entry.type = kind
        if kind in (tarfile.SYMTYPE, tarfile.LNKTYPE):
            entry.linkname = "/etc/passwd"
        tar.addfile(entry)
    problem = _problem(experiment / "e.toml")
    assert f"{archive}: its entry 'raw/MUTAG_{part}.txt' is {words}, not a regular file; " in (
        problem
    )
    assert "lacks" not in problem


@needs_fifo
@pytest.mark.parametrize("listed", [False, True], ids=["seen", "put there after it was listed"])
def test_a_fifo_as_a_raw_file_is_never_waited_on(tmp_path, monkeypatch, listed):
    # a FIFO opened for reading blocks until a writer comes: refused before it is opened,
    # and, put there after the kind was checked, on the file opened without blocking
    from sklearn_fair.utils import _tu_format

    os.mkfifo(tmp_path / "fifo")
    if listed:
        regular, stat = os.stat(MUTAG_RAW / "MUTAG_A.txt"), os.stat

        def listed_as_regular(path, *args, **kwargs):
            return regular if path == tmp_path / "fifo" else stat(path, *args, **kwargs)

        monkeypatch.setattr(_tu_format.os, "stat", listed_as_regular)
    outcome = []

    def read():
        try:
            _tu_format.open_regular(tmp_path / "fifo", "the file", "accepted", TUFormatError)
        except TUFormatError as error:
            outcome.append(str(error))

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    thread.join(10)
    if thread.is_alive():  # pragma: no cover - unblock it
        os.close(os.open(tmp_path / "fifo", os.O_WRONLY | os.O_NONBLOCK))
    assert outcome == ["the file is not a regular file: it is a FIFO; accepted."]


def test_a_raw_folder_that_is_a_file_says_so(folders):
    experiment, _ = folders
    (experiment / "TU" / "MUTAG" / "raw").write_text("")
    problem = dry_run(experiment / "e.toml", timing=False).data_problem
    assert f"'{experiment / 'TU' / 'MUTAG' / 'raw'}' is not a folder: it is a regular file" in (
        problem
    )


def test_a_raw_file_that_is_a_link_leading_nowhere_is_refused(folders):
    # the node labels were taken as absent: the run fitted on one constant feature per node
    experiment, _ = folders
    raw = _raw(experiment)
    path = raw / "MUTAG_node_labels.txt"
    path.unlink()
    path.symlink_to("moved.txt")
    problem = _problem(experiment / "e.toml", data_dir=experiment)
    assert f"{path} is a link to 'moved.txt', which does not exist" in problem
