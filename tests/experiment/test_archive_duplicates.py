"""A TU archive with two entries of one raw file name is refused, naming both and the archive
(hunt HOSTILE2, HOSTILE2-2): the last one read was taken, silently, by the dry run's count and
the run's working copy alike."""

import io
import tarfile
from pathlib import Path

import numpy as np
import pytest

import sklearn_fair
from sklearn_fair.exceptions import ExperimentConfigError
from sklearn_fair.experiment import dry_run, run_experiment
from sklearn_fair.experiment._reading._data import _tu_labels, work_copy
from sklearn_fair.experiment._reading._limits import Limits
from sklearn_fair.utils._tu_format import TUFormatError

MUTAG_RAW = Path(sklearn_fair.__file__).parent / "graph" / "data" / "MUTAG" / "raw"
LABELS = "MUTAG_graph_labels.txt"

EXPERIMENT = """\
[experiment]
progress = false
n_jobs = 1
cache_dir = "cache"
[data]
dataset = "tu:MUTAG"
root = "TU"
features = "node-labels"
[protocol]
outer_cv = 3
inner_cv = 2
n_refits = 1
[models.dummy]
estimator = "sklearn.dummy.DummyClassifier"
grid = { strategy = ["most_frequent"] }
"""


def _archive(tmp_path, extra=()):
    """TU/MUTAG/MUTAG.tar.xz of MUTAG's raw files as raw/NAME, then the entries ``extra``
    (``(name, bytes)``); returns the root."""
    folder = tmp_path / "TU" / "MUTAG"
    folder.mkdir(parents=True)
    with tarfile.open(folder / "MUTAG.tar.xz", "w:xz") as archive:
        for path in sorted(MUTAG_RAW.glob("MUTAG_*.txt")):
            archive.add(path, arcname=f"raw/{path.name}")
        for name, content in extra:
            info = tarfile.TarInfo(name)
            info.size = len(content)
            archive.addfile(info, io.BytesIO(content))
    return tmp_path / "TU"


def _flipped():
    labels = np.loadtxt(MUTAG_RAW / LABELS, dtype=np.int64)
    return "".join(f"{-v}\n" for v in labels).encode()


def test_an_archive_of_one_entry_per_raw_file_reads_mutags_labels(tmp_path):
    # the control: what tar -x puts in raw/ (MUTAG: 63 graphs of class -1, 125 of class 1)
    root = _archive(tmp_path)
    expected = np.loadtxt(MUTAG_RAW / LABELS, dtype=np.int64)
    assert sorted(zip(*np.unique(expected, return_counts=True))) == [(-1, 63), (1, 125)]
    y, _ = _tu_labels(root, "MUTAG", Limits())
    np.testing.assert_array_equal(y, expected)
    with work_copy(root, "MUTAG", tmp_path / "work") as folder:
        copied = np.loadtxt(folder / "MUTAG" / "raw" / LABELS, dtype=np.int64)
    np.testing.assert_array_equal(copied, expected)


@pytest.mark.parametrize("decoy", [f"decoy/raw/{LABELS}", f"raw/{LABELS}", f"MUTAG/raw/{LABELS}"])
def test_a_second_entry_of_a_raw_file_is_refused_naming_both(tmp_path, decoy):
    root = _archive(tmp_path, [(decoy, _flipped())])
    archive = root / "MUTAG" / "MUTAG.tar.xz"
    said = (
        f"{archive} holds the raw file {LABELS} twice, as its entries 'raw/{LABELS}' and {decoy!r}"
    )
    with pytest.raises(TUFormatError, match="twice") as info:
        _tu_labels(root, "MUTAG", Limits())
    assert said in str(info.value)
    with pytest.raises(TUFormatError, match="twice") as info:
        with work_copy(root, "MUTAG", tmp_path / "work"):
            pass  # pragma: no cover - nothing is copied
    assert said in str(info.value)
    assert not (tmp_path / "work" / "MUTAG").exists()


def test_an_experiment_on_such_an_archive_is_refused_by_the_dry_run_and_the_run(tmp_path):
    _archive(tmp_path, [(f"decoy/raw/{LABELS}", _flipped())])
    path = tmp_path / "e.toml"
    path.write_text(EXPERIMENT)
    report = dry_run(path, timing=False)
    assert report.total_fits is None
    assert "twice" in report.data_problem and f"decoy/raw/{LABELS}" in report.data_problem
    with pytest.raises(ExperimentConfigError, match="key 'data.root': .*twice"):
        run_experiment(path)
