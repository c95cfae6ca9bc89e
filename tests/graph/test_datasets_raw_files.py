"""load_tu_dataset reads only regular raw files: a FIFO, a device or a folder named as one
of the format's files is refused, naming it, never skipped or waited on."""

import os
import shutil
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

import sklearn_fair.graph
from sklearn_fair.graph import load_tu_dataset
from sklearn_fair.utils._tu_format import TUFormatError

BUNDLED = Path(sklearn_fair.graph.__file__).parent / "data"

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and /dev are POSIX")


@pytest.fixture
def mutag(tmp_path):
    """A copy of the bundled MUTAG: ``(root, raw folder)``."""
    shutil.copytree(BUNDLED / "MUTAG" / "raw", tmp_path / "MUTAG" / "raw")
    return tmp_path, tmp_path / "MUTAG" / "raw"


def _fifo(path):
    path.unlink(missing_ok=True)
    os.mkfifo(path)


def _device(target):
    def make(path):
        path.unlink(missing_ok=True)
        path.symlink_to(target)

    return make


def _folder(path):
    path.unlink(missing_ok=True)
    path.mkdir()


@pytest.mark.parametrize(
    "part, make, kind",
    [
        ("node_labels", _fifo, "a FIFO"),
        ("node_labels", _device("/dev/zero"), "a device"),
        ("node_labels", _device("/dev/null"), "a device"),
        ("node_labels", _folder, "a folder"),
        ("node_attributes", _fifo, "a FIFO"),  # absent in MUTAG: any optional file
        ("edge_attributes", _device("/dev/zero"), "a device"),
        ("A", _fifo, "a FIFO"),  # a required file: not reported missing
        ("graph_labels", _device("/dev/zero"), "a device"),
    ],
)
def test_a_raw_file_that_is_not_regular_is_refused(mutag, part, make, kind):
    # it was skipped: optional node labels left out without a word (features='degree'
    # loaded), a required file reported missing
    root, raw = mutag
    path = raw / f"MUTAG_{part}.txt"
    make(path)
    with pytest.raises(TUFormatError, match="regular") as error:
        load_tu_dataset("MUTAG", root, features="degree")
    message = str(error.value)
    assert f"{path} is not a regular file: it is {kind}" in message
    assert "regular text files" in message


def test_other_files_and_dangling_links_are_as_before(mutag):
    root, raw = mutag
    expected = load_tu_dataset("MUTAG", BUNDLED, use_edge_attr=True)
    os.mkfifo(raw / "README2.txt")  # not a file of the format: never opened
    (raw / "processed").mkdir()
    (raw / "MUTAG_other.txt").symlink_to(raw / "nowhere.txt")  # not a file of the format
    (raw / "MUTAG_link_A.txt").symlink_to("/dev/zero")
    graphs = load_tu_dataset("MUTAG", root, use_edge_attr=True)
    for field in ("x", "edge_index", "edge_attr", "y", "node_ptr", "edge_ptr"):
        np.testing.assert_array_equal(getattr(graphs, field), getattr(expected, field))


@pytest.mark.parametrize("part", ["A", "node_labels", "node_attributes"])
def test_a_raw_file_that_is_a_link_leading_nowhere_is_refused(mutag, part):
    # it was taken as absent: MUTAG's node labels left out without a word (one constant
    # feature per node), where PyG's TUDataset fails to read the file
    root, raw = mutag
    path = raw / f"MUTAG_{part}.txt"
    path.unlink(missing_ok=True)
    path.symlink_to(raw / "moved.txt")
    with pytest.raises(TUFormatError) as error:
        load_tu_dataset("MUTAG", root)
    assert f"{path} is a link to '{raw / 'moved.txt'}', which does not exist" in str(error.value)


def test_a_link_to_a_regular_file_is_followed(mutag, tmp_path):
    root, raw = mutag
    (raw / "MUTAG_node_labels.txt").rename(tmp_path / "labels.txt")
    (raw / "MUTAG_node_labels.txt").symlink_to(tmp_path / "labels.txt")
    graphs = load_tu_dataset("MUTAG", root)
    np.testing.assert_array_equal(graphs.x, load_tu_dataset("MUTAG", BUNDLED).x)


@pytest.mark.parametrize("part", ["A", "node_labels"])
def test_a_fifo_put_there_after_the_listing_does_not_block(mutag, monkeypatch, part):
    # the file was opened blocking (read_bytes): a FIFO that replaced it after the folder was
    # listed hung the load until someone wrote to it
    import sklearn_fair.utils._tu_format as tu_format

    root, raw = mutag
    path = raw / f"MUTAG_{part}.txt"
    listed = tu_format.check_tu_files

    def swap(*args, **kwargs):  # called once the folder is listed
        listed(*args, **kwargs)
        _fifo(path)

    monkeypatch.setattr(tu_format, "check_tu_files", swap)
    outcome = []

    def load():
        try:
            load_tu_dataset("MUTAG", root, features="degree")
        except Exception as error:  # noqa: BLE001 - inspected below
            outcome.append(error)
        else:
            outcome.append(None)

    thread = threading.Thread(target=load, daemon=True)
    thread.start()
    thread.join(20)
    blocked = thread.is_alive()
    if blocked:  # let the reader go: a writer that opens and closes gives it an end of file
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(20)
    assert not blocked, "the load waited on the FIFO"
    assert isinstance(outcome[0], TUFormatError)
    assert f"{path} is not a regular file: it is a FIFO" in str(outcome[0])


def _size(raw):
    return sum(path.stat().st_size for path in raw.glob("MUTAG_*.txt"))


def test_raw_files_past_max_size_are_refused_before_they_are_read(mutag, monkeypatch):
    # they were read whole, however large (read_bytes): 300 MB of NUL bytes named as edge
    # attributes took 3.3 GiB (tracemalloc) before the error
    import sklearn_fair.utils._tu_format as tu_format

    root, raw = mutag
    total = _size(raw)  # 112,657 bytes, counted by the file system
    assert len(load_tu_dataset("MUTAG", root, max_size=total)) == 188
    opened = []
    monkeypatch.setattr(tu_format, "_read_regular", lambda *args: opened.append(args))
    with pytest.raises(ValueError, match=f"hold {total} bytes together") as error:
        load_tu_dataset("MUTAG", root, max_size=total - 1)
    assert not opened
    assert str(raw) in str(error.value) and f"max_size={total - 1}" in str(error.value)
    assert isinstance(error.value, TUFormatError)


def test_a_raw_file_that_grows_past_max_size_is_refused_as_it_is_read(mutag, monkeypatch):
    import sklearn_fair.utils._tu_format as tu_format

    root, raw = mutag
    total, path = _size(raw), raw / "MUTAG_edge_labels.txt"  # the last one read
    listed = tu_format.check_tu_files

    def grow(*args, **kwargs):  # called once the folder is listed
        listed(*args, **kwargs)
        with open(path, "ab") as file:
            file.write(b"1\n")

    monkeypatch.setattr(tu_format, "check_tu_files", grow)
    with pytest.raises(ValueError, match="grew while") as error:
        load_tu_dataset("MUTAG", root, max_size=total + 1)
    assert str(path) in str(error.value) and f"max_size={total + 1}" in str(error.value)


def test_past_4_gib_is_refused_by_default_before_any_file_is_read(mutag, monkeypatch):
    # a sparse file (no disk used) of 4 GiB + 1 byte as edge attributes: read whole before
    import pathlib

    import sklearn_fair.utils._tu_format as tu_format

    root, raw = mutag
    with open(raw / "MUTAG_edge_attributes.txt", "wb") as file:
        file.truncate(4 * 1024**3 - _size(raw) + 1)

    def never(*args):
        raise AssertionError("a raw file was read")

    monkeypatch.setattr(pathlib.Path, "read_bytes", never)
    monkeypatch.setattr(tu_format, "_read_regular", never, raising=False)
    with pytest.raises(ValueError, match=f"hold {4 * 1024**3 + 1} bytes together"):
        load_tu_dataset("MUTAG", root, use_edge_attr=True)


@pytest.mark.parametrize("value", [0, -1, 1.5, "big"])
def test_a_bad_max_size_is_named(value):
    with pytest.raises(ValueError, match="'max_size' parameter of load_tu_dataset"):
        load_tu_dataset("MUTAG", BUNDLED, max_size=value)


def test_reading_sets_aside_what_the_files_hold_not_what_is_left_of_max_size(mutag):
    # read(max_size + 1) allocated a buffer of 4 GiB for MUTAG's 112 kB by default
    import tracemalloc

    root, _ = mutag
    tracemalloc.start()
    try:
        graphs = load_tu_dataset("MUTAG", root)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(graphs) == 188
    assert peak < 64 * 2**20, f"{peak / 2**20:.0f} MiB"
