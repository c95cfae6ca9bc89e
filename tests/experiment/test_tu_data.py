"""TU graph data sets in experiment files: a working copy, never a download, never a pickle
that the runner did not write."""

import io
import lzma
import os
import pickle
import shutil
import tarfile
import time
import tracemalloc
from pathlib import Path

import numpy as np
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
    assert not processed.exists()  # the copy is made afresh: what was planted is gone
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
        with work_copy(tmp_path / "TU", "TOY", work):
            pass
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
    # an unknown scheme is refused under its own key when the file is read, by the run and
    # by the counting dry run (which passed it)
    unknown = "line 8, key 'data.features': must be a node-feature scheme"
    with pytest.raises(ExperimentConfigError, match=unknown):
        run_experiment(path)
    with pytest.raises(ExperimentConfigError, match=unknown):
        dry_run(path, timing=False)
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


# --- bounded archives: a compression bomb, many entries, a header of megabytes -----------

MUTAG_RAW = Path(sklearn_fair.graph.__file__).parent / "data" / "MUTAG" / "raw"


def _entries(tar):
    """The entries of the tar bytes ``tar``, without its end-of-archive blocks."""
    entries = tar.rstrip(b"\0")
    return entries + b"\0" * (-len(entries) % tarfile.BLOCKSIZE)


def _mutag_archive(tmp_path, extra, first=True):
    """TU/MUTAG/MUTAG.tar.xz of MUTAG's raw files and the uncompressed tar bytes ``extra``
    (whole entries, as xz streams of their own: xz reads concatenated streams as one)."""
    body = io.BytesIO()
    with tarfile.open(fileobj=body, mode="w|", format=tarfile.GNU_FORMAT) as archive:
        for name in sorted(os.listdir(MUTAG_RAW)):
            if name.startswith("MUTAG_") and name.endswith(".txt"):
                archive.add(MUTAG_RAW / name, arcname=f"raw/{name}")
    real = _entries(body.getvalue())
    folder = tmp_path / "TU" / "MUTAG"
    folder.mkdir(parents=True)
    path = folder / "MUTAG.tar.xz"
    with open(path, "wb") as file:
        if not first:
            file.write(lzma.compress(real))
        for part in extra:
            file.write(part)
        if first:
            file.write(lzma.compress(real))
        file.write(lzma.compress(b"\0" * 2 * tarfile.BLOCKSIZE))
    (tmp_path / "e.toml").write_text(TU)
    return path


def _zeros_entry(name, size, chunk=64 * 2**20):
    """A tar entry of ``size`` zero bytes (a multiple of ``chunk``) as xz streams: one chunk
    compressed once (10 KB) and written size/chunk times: 4 GiB in under a megabyte."""
    header = tarfile.TarInfo(name)
    header.size = size
    zeros = lzma.compress(bytes(chunk), preset=0)
    return [lzma.compress(header.tobuf(format=tarfile.GNU_FORMAT))] + [zeros] * (size // chunk)


def _disk_use(folder):
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


@pytest.mark.parametrize("first", [True, False], ids=["bomb first", "bomb last"])
def test_a_compression_bomb_is_refused_at_its_header_without_unpacking_it(tmp_path, first):
    """An archive of 900 KB that unpacks to 4.25 GiB of zeros (more than the tu_size limit of
    4 GiB) was unpacked whole by every path: the dry run's count decompressed it (tarfile's
    getmembers) and the run wrote it into cache/tu_data. It is refused at the entry's header,
    naming the archive, the limit and the flag, before its data is unpacked."""
    size = 2**32 + 4 * 64 * 2**20
    assert size > 2**32  # the default tu_size
    archive = _mutag_archive(tmp_path, _zeros_entry("raw/MUTAG_zeros.txt", size), first)
    assert archive.stat().st_size < 2**20
    path = tmp_path / "e.toml"
    words = [
        f"{path}, line 7, key 'data.root': {archive}: its size unpacked in bytes, counted up "
        "to its entry 'raw/MUTAG_zeros.txt', is at least ",
        f"more than the limit of {2**32} (limit 'tu_size')",
        "--limit tu_size=N",
    ]
    start = time.perf_counter()
    with pytest.raises(ExperimentConfigError) as info:
        run_experiment(path)
    for word in words:
        assert word in str(info.value), str(info.value)
    for timing in (False, True):
        problem = dry_run(path, timing=timing, sample_size=16, n_timed=1).data_problem
        assert problem == f"MUTAG: {info.value}"
    assert time.perf_counter() - start < 20  # unpacking 4 GiB of zeros: 15 s each (2 cores)
    assert _disk_use(tmp_path / "cache") < 2**20
    # the caller can lift it (here: a limit that refuses the real data set too)
    with pytest.raises(ExperimentConfigError, match="limit 'tu_size'"):
        run_experiment(path, limits={"tu_size": 1000})


def test_the_tu_size_limit_bounds_a_raw_folder_and_the_caller_can_raise_it(tmp_path):
    raw = tmp_path / "TU" / "MUTAG" / "raw"
    shutil.copytree(MUTAG_RAW, raw)
    (tmp_path / "e.toml").write_text(TU)
    total = sum(p.stat().st_size for p in raw.iterdir())  # the text files, copied alike
    message = (
        f"key 'data.root': {raw}: the size of its raw files in bytes is {total}, more than "
        f"the limit of 1000 (limit 'tu_size'); a file cannot raise it, the caller can, for one "
        f"run: --limit tu_size={total}."
    )
    with pytest.raises(ExperimentConfigError) as info:
        run_experiment(tmp_path / "e.toml", limits={"tu_size": 1000})
    assert str(info.value).endswith(message)
    report = dry_run(tmp_path / "e.toml", timing=False, limits={"tu_size": 1000})
    assert report.data_problem == f"MUTAG: {info.value}"
    assert not (tmp_path / "cache" / "tu_data" / "MUTAG").exists()
    report = dry_run(tmp_path / "e.toml", timing=False, limits={"tu_size": total})
    assert report.data_problem is None and report.total_fits > 0


def test_an_archive_of_too_many_entries_is_refused_at_the_first_past_the_limit(tmp_path):
    # 20,000 empty entries that are not raw files: each was listed (getmembers) and ignored
    body = io.BytesIO()
    with tarfile.open(fileobj=body, mode="w|", format=tarfile.GNU_FORMAT) as archive:
        for i in range(20_000):
            archive.addfile(tarfile.TarInfo(f"junk/{i}"))
    archive = _mutag_archive(tmp_path, [lzma.compress(_entries(body.getvalue()))])
    with pytest.raises(ExperimentConfigError) as info:
        run_experiment(tmp_path / "e.toml")
    refused = "its number of entries is at least 10001, more than the limit of 10000"
    assert f"{archive}: {refused} (limit 'archive_entries')" in str(info.value)
    assert "--limit archive_entries=N" in str(info.value)
    report = dry_run(tmp_path / "e.toml", timing=False, limits={"archive_entries": 20_100})
    assert report.data_problem is None


def _pax_header(size):
    header = tarfile.TarInfo("././@PaxHeader")
    header.type, header.size = tarfile.XHDTYPE, size
    return header.tobuf(format=tarfile.GNU_FORMAT)


@pytest.mark.parametrize(
    "content, words",
    [
        (b"not an archive at all" * 100, "cannot be unpacked: "),
        # a PAX header of 64 MiB, which tarfile reads whole into memory before its entry
        (
            lambda: lzma.compress(_pax_header(2**26) + bytes(2**26), preset=0),
            "cannot be read: the header of its entry at byte 0 is more than 1048576 bytes",
        ),
    ],
    ids=["not xz", "a PAX header of 64 MiB"],
)
def test_an_archive_that_cannot_be_read_is_named(tmp_path, content, words):
    """A file named .tar.xz that is not one raised tarfile's ReadError from the run (a
    traceback); one header of 64 MiB was read whole into memory."""
    folder = tmp_path / "TU" / "MUTAG"
    folder.mkdir(parents=True)
    archive = folder / "MUTAG.tar.xz"
    archive.write_bytes(content() if callable(content) else content)
    (tmp_path / "e.toml").write_text(TU)
    tracemalloc.start()
    try:
        with pytest.raises(ExperimentConfigError) as info:
            run_experiment(tmp_path / "e.toml")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert f"key 'data.root': {archive} {words}" in str(info.value), str(info.value)
    assert peak < 16 * 2**20
    report = dry_run(tmp_path / "e.toml", timing=False)
    assert report.data_problem == f"MUTAG: {info.value}"


def test_a_raw_file_edited_in_place_and_another_root_of_the_same_name_are_read_as_they_are(
    tmp_path,
):
    # the working copy was kept while its files' sizes matched: a labels file edited in place
    # (same size), or the same data set from another root, was served the first copy's graphs
    original, edited = tmp_path / "TU2" / "MUTAG", tmp_path / "TU" / "MUTAG"
    shutil.copytree(Path(sklearn_fair.graph.__file__).parent / "data" / "MUTAG", original)
    shutil.copytree(original, edited)
    labels = edited / "raw" / "MUTAG_graph_labels.txt"
    # 40 graphs of class -1 moved to class 1, in 2 characters for 2: the same size
    flipped = labels.read_text().replace("-1", " 1", 40)
    assert len(flipped) == len(labels.read_text())
    config = (
        "[experiment]\nprogress = false\n"
        '[data.original]\ndataset = "tu:MUTAG"\nroot = "TU2"\nfeatures = "node-labels"\n'
        '[data.edited]\ndataset = "tu:MUTAG"\nroot = "TU"\nfeatures = "node-labels"\n'
        "[protocol]\nouter_cv = 3\nn_refits = 1\n"
        '[models.prior]\nestimator = "sklearn.dummy.DummyClassifier"\n'
    )
    (tmp_path / "e.toml").write_text(config)

    def scores():
        result = run_experiment(tmp_path / "e.toml", progress=False)
        return {
            key[0]: [f["test_score"] for f in r["outer_results"]]
            for key, r in result.results.items()
        }

    before = scores()
    assert before["original"] == before["edited"]
    labels.write_text(flipped)
    after = scores()
    assert after["original"] == before["original"] and after["edited"] != before["edited"]
    # the prior's accuracy is the majority class's share of each test fold: of the new labels
    result = run_experiment(tmp_path / "e.toml", progress=False)
    y = np.array([int(v) for v in flipped.split()])
    for fold, score in zip(result.results["edited", "prior"]["outer_results"], after["edited"]):
        train, test = (np.asarray(fold[k]) for k in ("train_indices", "test_indices"))
        majority = np.bincount(y[train] + 1).argmax() - 1
        assert score == pytest.approx(np.mean(y[test] == majority))
