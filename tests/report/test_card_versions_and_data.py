"""The reproducibility card prints the versions a saved result recorded (else says they are
the printing environment's), and refuses data that cannot be the data of the results' splits."""

import json

import numpy as np
import pytest

from sklearn_fair import BenchmarkResult
from sklearn_fair.report import nested_cv_report, reproducibility_card
from sklearn_fair.report._integrity import with_checksum
from sklearn_fair.utils import package_versions

OTHER = {"scikit-learn": "1.5.0", "numpy": "1.26.4"}


def _versions_line(card):
    return next(p for p in card.section().paragraphs if p.startswith("Versions"))


def _as_older_writer(path, target, **versions):
    """The file at ``path`` as sklearn-fair wrote it before a cell that records no versions
    said so (its cells take the top-level ones), with top-level ``versions`` updated, sealed
    as its writer would seal it, at ``target``."""
    document = json.loads(path.read_text())
    document.pop("checksum")
    for cell in document["cells"]:
        cell.pop("versions", None)
    document["versions"] = {**document["versions"], **versions}
    target.write_text(json.dumps(with_checksum(document)))
    return target


def test_a_loaded_result_s_card_prints_the_versions_its_file_recorded(fitted, tmp_path):
    path = BenchmarkResult.from_results({("d", k): v for k, v in fitted.items()}).save(
        tmp_path / "here.json"
    )
    # a file written where other versions ran
    elsewhere = _as_older_writer(path, tmp_path / "elsewhere.json", **OTHER)
    card = BenchmarkResult.load(elsewhere).report(n_resamples=20).card
    line = _versions_line(card)
    assert "scikit-learn 1.5.0" in line and "numpy 1.26.4" in line
    assert line.startswith("Versions (recorded with the results)")
    assert card.versions_recorded and card.versions["scikit-learn"] == "1.5.0"
    here = package_versions()
    if here["scikit-learn"] != "1.5.0":  # this environment's are not printed as the run's
        assert f"scikit-learn {here['scikit-learn']}" not in line


def test_a_result_without_recorded_versions_says_whose_they_are(fitted):
    card = nested_cv_report(fitted, n_resamples=20).card
    line = _versions_line(card)
    assert line.startswith("Versions of the environment that printed this card")
    assert f"scikit-learn {package_versions()['scikit-learn']}" in line
    assert not card.versions_recorded


@pytest.mark.parametrize("which", ["both", "X", "y"])
def test_the_card_refuses_data_shorter_than_the_splits(fitted, data, which):
    X, y = data
    short = {"X": X[:40], "y": y[:40]}
    given = {"X": short["X"] if which != "y" else X, "y": short["y"] if which != "X" else y}
    folds = fitted["knn"].outer_results_
    largest = max(int(np.max(f[k])) for f in folds for k in ("train_indices", "test_indices"))
    assert largest >= 40  # the splits index rows past the 40 given
    with pytest.raises(ValueError, match=r"samples") as error:
        reproducibility_card(fitted["knn"], **given)
    message = str(error.value)
    if which == "both":
        assert "'X' parameter" in message and "40 samples" in message
        assert f"index sample {largest}" in message and f"at least {largest + 1}" in message
    else:
        assert "'X' and 'y' parameters" in message and "40" in message and str(len(y)) in message
    # the data the results were run on is taken
    assert reproducibility_card(fitted["knn"], X=X, y=y).data_fingerprint is not None


def test_a_saved_result_s_card_names_the_versions_the_printing_card_named(fitted, tmp_path):
    from importlib import metadata

    result = BenchmarkResult.from_results({("d", k): v for k, v in fitted.items()})
    here = result.report(n_resamples=20).card
    # (these results record no versions: a file whose cells take the saving environment's)
    path = _as_older_writer(result.save(tmp_path / "r.json"), tmp_path / "older.json")
    loaded = BenchmarkResult.load(path).report(n_resamples=20).card
    assert loaded.versions_recorded and not here.versions_recorded
    assert loaded.versions == here.versions  # torch and PyG were left out of the file
    for name, label in [("torch", "torch"), ("torch-geometric", "PyG")]:
        try:
            expected = metadata.version(name)
        except metadata.PackageNotFoundError:
            expected = "not installed"
        assert loaded.versions[label] == expected
        assert f"{label} {expected}" in _versions_line(loaded)
