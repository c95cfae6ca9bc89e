"""A raw TU file that numpy refuses names the file, the line, the value and what is accepted
(hunt HOSTILE2, HOSTILE2-3): the line check re-read it with Python's int(), which takes any
size and "1_0", found no bad line and said only that the file "could not be read as
comma-separated numbers"."""

import io
import shutil
from pathlib import Path

import numpy as np
import pytest

import sklearn_fair
from sklearn_fair.utils._tu_format import TUFormatError, read_tu_files

MUTAG_RAW = Path(sklearn_fair.__file__).parent / "graph" / "data" / "MUTAG" / "raw"
PAST = "100000000000000000000000000000"
INT64 = "a decimal integer within int64 (-9223372036854775808 to 9223372036854775807)"


def _mutag(tmp_path, part, line):
    """A copy of MUTAG's raw files, line 4 of MUTAG_<part>.txt set to ``line``."""
    raw = tmp_path / "MUTAG" / "raw"
    shutil.copytree(MUTAG_RAW, raw)
    path = raw / f"MUTAG_{part}.txt"
    lines = path.read_text().splitlines()
    lines[3] = line
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize(
    "part, line, value, problem",
    [
        ("graph_labels", PAST, PAST, "is past int64"),
        ("graph_labels", "-" + PAST, "-" + PAST, "is past int64"),
        ("graph_labels", "9223372036854775808", "9223372036854775808", "is past int64"),
        ("graph_labels", "1" * 5000, "1" * 80, "is past int64"),  # int() refuses 4301 digits
        ("graph_labels", "1_0", "1_0", "is not an integer"),
        ("graph_labels", "\uff11", "\uff11", "is not an integer"),  # a full-width 1
        ("A", f"1, {PAST}", PAST, "is past int64"),
        ("A", "1, 1_0", "1_0", "is not an integer"),
        ("node_labels", "1.5", "1.5", "is not an integer"),
    ],
)
def test_a_value_numpy_refuses_is_named_with_its_line(tmp_path, part, line, value, problem):
    path = _mutag(tmp_path, part, line)
    with pytest.raises(ValueError):  # the reference: numpy refuses the line as int64
        np.loadtxt(io.StringIO(line), delimiter=",", dtype=np.int64, comments=None)
    with pytest.raises(TUFormatError) as info:
        read_tu_files("MUTAG", path.parent)
    message = str(info.value)
    assert message.startswith(f"{path}, line 4: {value!r}")
    assert f" {problem} (line " in message
    assert message.endswith(f"; each value of this file is {INT64}.")
    assert len(message) < 600  # a hostile line is not quoted whole


def test_a_value_of_an_attributes_file_numpy_refuses_says_a_number_is_accepted(tmp_path):
    raw = tmp_path / "MUTAG" / "raw"
    shutil.copytree(MUTAG_RAW, raw)
    n_nodes = len((raw / "MUTAG_graph_indicator.txt").read_text().splitlines())
    lines = ["0.5"] * n_nodes
    lines[3] = "1_0.5"  # Python's float reads 10.5; numpy refuses it
    (raw / "MUTAG_node_attributes.txt").write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError):
        np.loadtxt(io.StringIO("1_0.5"), dtype=np.float64, comments=None)
    with pytest.raises(TUFormatError, match="line 4: '1_0.5' is not a number .*a decimal number"):
        read_tu_files("MUTAG", raw)


def test_the_largest_int64_values_are_read(tmp_path):
    # the bounds themselves are accepted: only the values numpy refuses are flagged
    path = _mutag(tmp_path, "node_labels", "9223372036854775807")
    lines = path.read_text().splitlines()
    lines[4] = "-9223372036854775808"
    path.write_text("\n".join(lines) + "\n")
    labels = read_tu_files("MUTAG", path.parent).node_labels[:, 0]
    assert labels[3] == 2**63 - 1 and labels[4] == -(2**63)


def test_load_tu_dataset_names_the_line(tmp_path):
    pytest.importorskip("torch_geometric")
    from sklearn_fair.graph import load_tu_dataset

    path = _mutag(tmp_path, "graph_labels", PAST)
    with pytest.raises(ValueError, match=f"{path}, line 4: '{PAST}' is past"):
        load_tu_dataset("MUTAG", tmp_path)
