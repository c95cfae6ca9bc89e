"""A name Windows keeps for a device (CON, NUL, COM1...) is not used as a file or folder
name (NAMES-3): the runner wrote ``models/CON/NUL.json``, which Windows cannot create (a
folder CON) or throws away (NUL is a sink). Its first character is percent-encoded."""

import json
from pathlib import PureWindowsPath
from urllib.parse import unquote

import pytest

from sklearn_fair.experiment import run_experiment
from sklearn_fair.experiment._reading._text import file_name

# Microsoft's list ("Naming Files, Paths, and Namespaces"), in several cases
DEVICES = ["CON", "con", "Prn", "AUX", "nul", "NUL", "COM1", "com9", "LPT1", "lpt9", "COM0", "LPT0"]


def _reserved(part):
    """Windows' rule: the stem before the first dot, any case (pathlib's, plus COM0, LPT0)."""
    stem = part.partition(".")[0].upper()
    return PureWindowsPath(part).is_reserved() or stem in {"COM0", "LPT0"}


@pytest.mark.parametrize("name", DEVICES)
def test_a_device_name_is_encoded_and_reversible(name):
    encoded = file_name(name)
    assert not _reserved(encoded) and not _reserved(f"{encoded}.json")
    assert unquote(encoded) == name  # percent-decodes to the name, as every encoded name
    assert encoded.startswith("%")


def test_names_near_a_device_name_are_their_own_file_names():
    for name in ["CONSOLE", "con_1", "COM10", "nul-model", "LPT", "auxiliary", "x"]:
        assert file_name(name) == name
    # one file per name: the encoded device name is not another name's file name
    names = ["CON", "con", "%43ON", "%CON", "_CON"]
    assert len({file_name(n) for n in names}) == len(names)


EXPERIMENT = """\
[experiment]
progress = false
random_state = 0
output_dir = "out"
cache_dir = "cache"

[data.CON]
dataset = "sklearn:iris"

[protocol]
outer_cv = 2
n_refits = 1

[models.NUL]
estimator = "sklearn.dummy.DummyClassifier"

[models.aux]
estimator = "sklearn.dummy.DummyClassifier"
params = { strategy = "most_frequent" }
"""


def test_the_runner_writes_no_device_name_and_reads_its_files_back(tmp_path):
    path = tmp_path / "EXPERIMENT.toml"
    path.write_text(EXPERIMENT)
    first = run_experiment(path)
    out = tmp_path / "out"
    written = sorted(p.relative_to(out) for p in out.rglob("*") if "cache" not in p.parts)
    bad = [p for p in written if any(_reserved(part) for part in p.parts)]
    assert not bad, bad
    for model, encoded in (("NUL", "%4EUL"), ("aux", "%61ux")):
        saved = json.loads((out / "models" / "%43ON" / f"{encoded}.json").read_text())
        assert (saved["dataset"], saved["name"]) == ("CON", model)
        assert saved["result"] == first.results["CON", model]
    # a second run (its cells from the cache) finds the files by the same names: the record
    # lists them, and nothing else is left in models/
    again = run_experiment(path)
    assert set(again.status.values()) == {"cached"}
    record = json.loads((out / "outputs.json").read_text())
    models = sorted(n for n in record["files"] if n.startswith("models/"))
    assert models == ["models/%43ON/%4EUL.json", "models/%43ON/%61ux.json"]
    on_disk = sorted(p.relative_to(out).as_posix() for p in (out / "models").rglob("*.json"))
    assert on_disk == models
