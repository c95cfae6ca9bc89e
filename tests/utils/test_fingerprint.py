"""``fingerprint`` and ``source_fingerprint``, on which every cache key and result hash rests.

The references are independent of the code under test: hashlib over the bytes NumPy gives, and
values computed in other processes.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

import sklearn_fair
from sklearn_fair.utils import fingerprint, source_fingerprint

PACKAGE_ROOT = Path(sklearn_fair.__file__).resolve().parent.parent

# Values built the same way in this process and in a fresh one (see _in_fresh_process).
VALUES = """
import numpy as np, pandas as pd, scipy.sparse as sp
rng = np.random.default_rng(0)
values = {
    "int array": np.arange(12).reshape(3, 4),
    "float array": rng.normal(size=(5, 3)),
    "fortran array": np.asfortranarray(rng.normal(size=(4, 3))),
    "strings": np.array(["a", "bb", "ccc"]),
    "objects": np.array(["a", 1, None], dtype=object),
    "frame": pd.DataFrame({"x": [1.0, 2.0], "y": ["u", "v"]}),
    "series": pd.Series([1, 2, 3], name="s"),
    "csr": sp.random(6, 5, density=0.4, format="csr", random_state=0),
    "nested": {"b": [1, 2.5, "x", None, True], "a": (np.int64(3), np.float32(0.5))},
    "nan": float("nan"),
}
"""


def _values():
    namespace = {}
    exec(VALUES, namespace)
    return namespace["values"]


def _in_fresh_process(code):
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": str(PACKAGE_ROOT), "PYTHONHASHSEED": "123"},
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return json.loads(done.stdout)


def test_fingerprints_are_equal_in_another_process():
    code = (
        VALUES
        + "import json\nfrom sklearn_fair.utils import fingerprint\n"
        + "print(json.dumps({k: fingerprint(v) for k, v in values.items()}))"
    )
    here = {name: fingerprint(value) for name, value in _values().items()}
    assert _in_fresh_process(code) == here
    assert len(set(here.values())) == len(here)  # and all different


def test_an_array_is_hashed_by_its_dtype_shape_and_bytes():
    array = np.arange(6, dtype=np.int64).reshape(2, 3)
    # the bytes enter as NumPy lays them out in C order, whatever the memory layout
    assert fingerprint(array) == fingerprint(np.asfortranarray(array))
    assert fingerprint(array) == fingerprint(array.T.copy().T)
    assert fingerprint(array[:, ::2]) == fingerprint(np.ascontiguousarray(array[:, ::2]))


@pytest.mark.parametrize(
    "first, second",
    [
        (np.arange(6), np.arange(6).reshape(2, 3)),  # shape
        (np.arange(6).reshape(2, 3), np.arange(6).reshape(3, 2)),  # shape, same bytes
        (np.arange(6, dtype=np.int64), np.arange(6, dtype=np.int32)),  # dtype
        (np.arange(6, dtype=np.int64), np.arange(6, dtype=np.float64)),  # dtype, same values
        (np.zeros(2, dtype=np.float32), np.zeros(1, dtype=np.float64)),  # same byte count
        (np.array([1.0, 2.0]), np.array([1.0, 2.0000001])),  # content
        (np.array([0.0]), np.array([-0.0])),  # content: the sign bit
        (np.array(["a", "b"]), np.array(["ab", ""])),  # strings, same concatenation
        (np.eye(3), sp.csr_matrix(np.eye(3))),  # sparse vs dense
        (sp.csr_matrix(np.eye(3)), sp.csr_matrix(np.eye(3), dtype=np.float32)),  # sparse dtype
        (sp.csr_matrix(np.eye(3)), sp.csr_matrix(np.eye(3)[::-1])),  # sparse content
        (pd.DataFrame({"a": [1], "b": [2]}), pd.DataFrame({"a": [1], "c": [2]})),  # column name
        (pd.DataFrame({"a": [1], "b": [2]}), pd.DataFrame({"b": [2], "a": [1]})),  # column order
        (pd.DataFrame({"a": [1]}), pd.DataFrame({"a": [1.0]})),  # column dtype
        (pd.DataFrame({"a": [1, 2]}), np.array([[1], [2]])),  # frame vs array
        (pd.Series([1, 2], name="a"), pd.Series([1, 2], name="b")),  # Series name
        ([1, 2], [2, 1]),  # list order
        ([1, 2], (1, 2)),  # list vs tuple
        (1, 1.0),  # int vs float
        (1, True),  # int vs bool
        ("1", 1),  # str vs int
        (b"a", "a"),  # bytes vs str
        (None, "None"),
        ({"a": 1}, {"a": 2}),
        ({"a": 1}, {"b": 1}),
        ([{"a": 1, "b": 2}], [{"b": 2, "a": 1}]),  # a record's key order: see below
        ([np.arange(2)], [np.arange(2), np.arange(0)]),  # container length
    ],
    ids=lambda v: type(v).__name__,
)
def test_different_content_gives_a_different_fingerprint(first, second):
    assert fingerprint(first) != fingerprint(second)


def test_equal_content_gives_the_same_fingerprint():
    dense = np.array([[0.0, 1.0], [2.0, 0.0]])
    unsorted = sp.csr_matrix((np.array([1.0, 2.0]), np.array([1, 0]), np.array([0, 1, 2])))
    assert fingerprint(sp.csr_matrix(dense)) == fingerprint(unsorted)
    assert fingerprint(sp.csr_matrix(dense)) == fingerprint(sp.csc_matrix(dense))  # by content
    assert fingerprint(np.float64(0.5)) == fingerprint(np.float64(0.5))
    frame = pd.DataFrame({"a": [1, 2]})
    assert fingerprint(frame) == fingerprint(frame.copy())


def test_records_in_another_key_order_are_other_data():
    # what a model sees of a list of records depends on its key order (pandas' columns,
    # DictVectorizer(sort=False)'s features), so a cache entry for one is not the other's
    from sklearn.feature_extraction import DictVectorizer

    records = [{"a": 1.0, "b": 2.0}, {"a": 3.0, "b": 0.0}]
    reordered = [dict(reversed(record.items())) for record in records]
    assert list(pd.DataFrame(records).columns) != list(pd.DataFrame(reordered).columns)
    seen = [DictVectorizer(sort=False, sparse=False).fit_transform(r) for r in (records, reordered)]
    assert not np.array_equal(*seen)
    assert fingerprint(records) != fingerprint(reordered)
    assert fingerprint(records) == fingerprint([dict(record) for record in records])


def test_a_fingerprint_is_sha256_over_the_documented_parts():
    import hashlib

    array = np.arange(3, dtype="<i8")
    hasher = hashlib.sha256()
    hasher.update(b"array")
    for part in (array.dtype.str, str(array.shape)):
        hasher.update(len(part).to_bytes(8, "little") + part.encode())
    hasher.update(array.tobytes())
    assert fingerprint(array) == "sha256:" + hasher.hexdigest()


def test_tensors_are_hashed_through_numpy():
    torch = pytest.importorskip("torch")
    values = np.arange(4, dtype=np.float32)
    assert fingerprint(torch.tensor(values)) == fingerprint(values)
    assert fingerprint(torch.tensor(values)) != fingerprint(torch.tensor(values + 1))


# -- source_fingerprint ------------------------------------------------------------------------

SOURCE = (
    "import json, sklearn_fair; from sklearn_fair.utils import source_fingerprint; "
    "print(json.dumps([sklearn_fair.__file__, source_fingerprint()]))"
)


def _source_of(package_parent):
    """source_fingerprint() of the sklearn_fair under ``package_parent``, in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-c", SOURCE],
        env={**os.environ, "PYTHONPATH": str(package_parent)},
        cwd=package_parent,  # not the checkout's folder: "-c" puts the working folder first
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    imported, value = json.loads(done.stdout)
    assert Path(imported).resolve().parent.parent == Path(package_parent).resolve()
    return value


def test_source_fingerprint_is_equal_in_another_process():
    assert _source_of(PACKAGE_ROOT) == source_fingerprint()


def test_source_fingerprint_follows_the_code_that_computes_and_not_the_formatting(tmp_path):
    copy = tmp_path / "a" / "sklearn_fair"
    shutil.copytree(
        Path(sklearn_fair.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__")
    )
    first = _source_of(copy.parent)
    assert first == source_fingerprint()  # a copy elsewhere: the same source, the same hash
    with open(copy / "report" / "_tables.py", "a") as file:
        file.write("\n# formatting only\n")
    assert _source_of(copy.parent) == first
    # an install rebuilt from another commit keeps its version number; its source tells
    with open(copy / "stats" / "__init__.py", "a") as file:
        file.write("\n# another commit\n")
    second = _source_of(copy.parent)
    assert second != first
    (copy / "stats" / "_new_module.py").write_text("X = 1\n")  # a file added
    assert _source_of(copy.parent) not in (first, second)


@pytest.mark.parametrize("dtype", ["Int64", "UInt64"])
def test_integers_past_two_to_the_53_beside_a_null_stay_apart(dtype):
    """A masked integer column holding a null became floats (to_numpy), rounding integers
    past 2**53: two frames that differ there shared one cache key, and the cache served one's
    scores for the other."""
    # 2**53 + 1 rounds to 2**53 as a float: the two frames were one key
    one = pd.DataFrame({"id": pd.array([2**53 + 1, None], dtype=dtype)})
    other = pd.DataFrame({"id": pd.array([2**53, None], dtype=dtype)})
    assert not one.equals(other)  # the case: pandas tells them apart
    assert fingerprint(one) != fingerprint(other)
    assert fingerprint(one) == fingerprint(one.copy())
    # the null's place and the null itself count
    nulls = pd.Series(pd.array([0, None], dtype=dtype))
    assert fingerprint(nulls) != fingerprint(pd.Series(pd.array([None, 0], dtype=dtype)))
    assert fingerprint(nulls) != fingerprint(pd.Series(pd.array([0, 0], dtype=dtype)))


def test_polars_integers_past_two_to_the_53_beside_a_null_stay_apart():
    pl = pytest.importorskip("polars")
    one, other = pl.Series("id", [2**53 + 1, None]), pl.Series("id", [2**53, None])
    assert fingerprint(one) != fingerprint(other)
    assert fingerprint(one) == fingerprint(pl.Series("id", [2**53 + 1, None]))
