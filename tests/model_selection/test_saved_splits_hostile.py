"""load_splits on hostile or broken files: InvalidSplitError, reading no more than the file,
without allocating much.

Every case below ran for minutes, allocated gigabytes, or escaped as another exception
(OverflowError, RecursionError, a plain ValueError) before the reader bounded its work by
the file's size. The work is counted, not timed: the bytes read (at most the file, or
max_bytes and one more) and the memory peak, measured with tracemalloc, which numpy
reports its arrays to.
"""

import json
import os
import tracemalloc
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sklearn_fair.exceptions import InvalidSplitError, SplitsMismatchError
from sklearn_fair.model_selection import (
    PredefinedSplits,
    _bounded_json,
    _saved_splits,
    load_splits,
    save_splits,
)

PEAK_BYTES = 50 * 2**20


def gnn_file(tmp_path, test, train=(0,), validation=(1,), name="hostile.json"):
    document = [
        {
            "test": list(test),
            "model_selection": [{"train": list(train), "validation": list(validation)}],
        }
    ]
    path = tmp_path / name
    path.write_text(json.dumps(document, separators=(",", ":")))
    return path


def sklearn_fair_file(tmp_path, n_samples, folds, kfold=False, name="hostile.json"):
    document = {
        "format": "sklearn-fair-splits",
        "version": 1,
        "n_samples": n_samples,
        "kfold": kfold,
        "labels_fingerprint": None,
        "folds": [{"train": train, "test": test} for train, test in folds],
    }
    path = tmp_path / name
    path.write_text(json.dumps(document))
    return path


class CountingReads:
    """Counts the bytes the reader takes from the files it opens."""

    def __init__(self, monkeypatch):
        self.bytes = 0
        fdopen = os.fdopen

        def counting_fdopen(*args, **kwargs):
            file = fdopen(*args, **kwargs)
            readinto = file.readinto

            class Counted:
                def __getattr__(self, name):
                    return getattr(file, name)

                def __enter__(self):
                    file.__enter__()
                    return self

                def __exit__(self, *exc):
                    return file.__exit__(*exc)

                def readinto(inner, buffer):
                    count = readinto(buffer)
                    self.bytes += count or 0
                    return count

            return Counted()

        monkeypatch.setattr(_bounded_json.os, "fdopen", counting_fdopen)


@pytest.fixture
def reads(monkeypatch):
    return CountingReads(monkeypatch)


def refused(path, match, **kwargs):
    """Assert that load_splits raises InvalidSplitError, reads at most the file (and at most
    max_bytes + 1 of it) and stays under PEAK_BYTES."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        reads = CountingReads(monkeypatch)
        tracemalloc.start()
        try:
            with pytest.raises(InvalidSplitError, match=match):
                load_splits(path, **kwargs)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    if os.path.isfile(path):
        assert reads.bytes <= min(os.path.getsize(path), kwargs.get("max_bytes", 2**62) + 1)
    assert peak < PEAK_BYTES


@pytest.mark.parametrize("index", [99999999, 10**9, 10**18])
def test_gnn_file_with_a_huge_index(tmp_path, index):
    path = gnn_file(tmp_path, [index])
    assert path.stat().st_size < 100  # the file had 78 bytes
    refused(
        path,
        r"not a k-fold split of \d+ samples; never tested: \[0, 1, .*in all\)",
        format="gnn-comparison",
    )


@pytest.mark.parametrize("where", ["test", "train", "validation"])
@pytest.mark.parametrize("index", [2**63, 2**70, -(2**63) - 1, -(10**30)])
def test_gnn_file_with_an_index_no_array_holds(tmp_path, where, index):
    indices = {"test": [0], "train": [1], "validation": [2]}
    indices[where] = [index]
    path = gnn_file(tmp_path, indices["test"], indices["train"], indices["validation"])
    refused(path, rf"'{where}' of .* has indices out of range: \[-?\d+\]", format="gnn-comparison")


def test_gnn_file_with_a_negative_test_index(tmp_path):
    refused(gnn_file(tmp_path, [0, -5]), r"negative test indices: \[-5\]", format="gnn-comparison")


def test_gnn_file_listing_an_inner_training_index_twice(tmp_path):
    # the paper's splits partition the graphs: graph 2 twice was read as given, weighing it
    # twice in model selection, without a word
    path = gnn_file(tmp_path, [0, 1, 2, 3, 4, 5], train=[2, 2, 3], validation=[4, 5])
    refused(path, r"model_selection\[0\] of outer fold 0 .* more than once: \[2\]",
            format="gnn-comparison")  # fmt: skip


def test_gnn_file_implying_too_many_training_indices(tmp_path):
    # leave-one-out over 6000 samples: a 250 kB file whose training sets hold 36 million
    n = 6000
    document = [{"test": [i], "model_selection": []} for i in range(n)]
    path = tmp_path / "loo.json"
    path.write_text(json.dumps(document, separators=(",", ":")))
    refused(path, "6000 outer folds of 6000 samples.*sklearn-fair format", format="gnn-comparison")


@pytest.mark.parametrize("n_samples", [10**9, 2**62])
def test_kfold_file_declaring_huge_n_samples(tmp_path, n_samples):
    path = sklearn_fair_file(tmp_path, n_samples, [([0], [1]), ([1], [0])], kfold=True)
    refused(path, rf"not a k-fold split of {n_samples} samples; never tested: \[2, 3, ")


@pytest.mark.parametrize("n_samples", [2**63, 2**70, 0, -1, 1.5, "4", True, None])
def test_invalid_n_samples(tmp_path, n_samples):
    path = sklearn_fair_file(tmp_path, n_samples, [([0], [1])])
    refused(path, "no valid 'n_samples'")


@pytest.mark.parametrize("version", [1.0, 2.0, 1.5, "1", True, 3, None])
def test_invalid_version(tmp_path, version):
    # a version is an int, as n_samples and the indices are: 1.0 is no version of the format
    path = sklearn_fair_file(tmp_path, 4, [([0], [1])])
    document = json.loads(path.read_text())
    path.write_text(json.dumps({**document, "version": version}))
    refused(path, f"has format version {version!r}; this version of sklearn-fair reads versions")


@pytest.mark.parametrize("index", [2**63, 2**70, -(2**63) - 1])
def test_sklearn_fair_file_with_an_index_no_array_holds(tmp_path, index):
    path = sklearn_fair_file(tmp_path, 4, [([0, index], [1])])
    refused(path, r"'train' of outer fold 0 .* out of range: \[-?\d+\]")


def test_huge_n_samples_without_kfold_loads_without_allocating_it(tmp_path):
    # a valid file (n_samples is the data's size, not the splits'); nothing of that size
    # may be allocated, neither on loading, re-saving, nor replaying on other data
    path = sklearn_fair_file(tmp_path, 10**12, [([0, 2], [1]), ([1], [0, 2])])
    tracemalloc.start()
    try:
        saved = load_splits(path)
        save_splits(saved, tmp_path / "again.json")
        with pytest.raises(SplitsMismatchError, match="for 1000000000000 samples but X has 3"):
            PredefinedSplits(saved).split(np.zeros((3, 1)))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert saved.n_samples == 10**12 and not saved.kfold
    assert peak < PEAK_BYTES


def test_predefined_splits_with_a_huge_index_do_not_allocate_it():
    tracemalloc.start()
    try:
        cv = PredefinedSplits([([0, 1], [10**12])])
        assert cv.get_n_splits() == 1
        with pytest.raises(
            InvalidSplitError, match=r"out of range for 3 samples: \[1000000000000\]"
        ):
            cv.split(np.zeros((3, 1)))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < PEAK_BYTES


@pytest.mark.parametrize("opener", ["[", '{"a":'])
def test_deep_nesting(tmp_path, opener):
    closer = "]" if opener == "[" else "}"
    path = tmp_path / "deep.json"
    path.write_text(opener * 200_000 + "0" + closer * 200_000)
    for format in ("sklearn-fair", "gnn-comparison"):
        refused(path, "more than 32 levels deep", format=format)


def test_brackets_inside_strings_do_not_count_as_nesting(tmp_path):
    path = sklearn_fair_file(tmp_path, 2, [([0], [1])])
    document = json.loads(path.read_text())
    # json.dumps writes the quotes as \" and the backslash as \\
    # (in a key the format does not have, refused by name once the JSON has been read: the
    # brackets in its string gave no nesting error)
    document["note"] = "[" * 100 + '"{' * 100 + "\\" + "{" * 100
    path.write_text(json.dumps(document))
    refused(path, "has the key\\(s\\) 'note', which an sklearn-fair splits file does not have")


def test_file_over_max_bytes(tmp_path):
    path = sklearn_fair_file(tmp_path, 3000, [(list(range(1, 3000)), [0])])
    assert load_splits(path).n_samples == 3000
    refused(path, "larger than max_bytes=1000", max_bytes=1000)


def test_an_endless_device_is_not_read_at_all():
    refused("/dev/zero", "is not a regular file", max_bytes=4096)


def test_a_large_file_is_read_only_up_to_max_bytes(tmp_path):
    path = tmp_path / "large.json"
    path.write_bytes(b"[" + b"0," * 10**6 + b"0]")
    refused(path, "larger than max_bytes=4096", max_bytes=4096)


@pytest.mark.parametrize("max_bytes", [0, -1, 1.5, True, "1"])
def test_bad_max_bytes(tmp_path, max_bytes):
    with pytest.raises(ValueError, match="'max_bytes' parameter of load_splits"):
        load_splits(tmp_path / "x.json", max_bytes=max_bytes)


@pytest.mark.parametrize(
    "text, match",
    [
        (
            '[{"test":[%s],"model_selection":[]}]' % ("9" * 5000),
            "not valid JSON: Exceeds the limit",
        ),
        (b'[{"test":[0],"model_selection":[]}]\xff', "not valid JSON"),
        ("", "not valid JSON"),
        ('[{"test":[0,1', "not valid JSON"),
    ],
)
def test_not_json(tmp_path, text, match):
    path = tmp_path / "broken.json"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    refused(path, match, format="gnn-comparison")


@pytest.mark.parametrize(
    "value, shown",
    [
        ("1", "'1'"),
        (None, "None"),
        (True, "True"),
        (1.0, "1.0"),
        ([1], r"\[1\]"),
        ({"i": 1}, r"\{'i': 1\}"),
    ],
)
def test_indices_that_are_not_ints(tmp_path, value, shown):
    path = gnn_file(tmp_path, [0, value])
    refused(
        path, rf"'test' of .* must list integer indices; found \[{shown}\]", format="gnn-comparison"
    )


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_non_finite_numbers_are_not_indices(tmp_path, literal):
    path = tmp_path / "nan.json"
    path.write_text('[{"test":[0,' + literal + '],"model_selection":[]}]')
    refused(path, "must list integer indices", format="gnn-comparison")


def test_paper_files_load_with_work_bounded_by_their_size(data_dir, reads, monkeypatch):
    converted = []
    indices = _saved_splits._indices

    def counting_indices(mapping, key, where):
        array = indices(mapping, key, where)
        converted.append(array.size)
        return array

    monkeypatch.setattr(_saved_splits, "_indices", counting_indices)
    paths = sorted((data_dir / "gnn_comparison_splits").glob("*/*.json"))
    assert paths
    for path in paths:
        converted.clear()
        before = reads.bytes
        saved = load_splits(path, format="gnn-comparison")
        assert saved.kfold and len(saved) == 10
        # each file is read once, and each index it holds converted once
        assert reads.bytes - before == os.path.getsize(path)
        document = json.loads(path.read_text())
        held = sum(
            len(fold["test"])
            + sum(len(s["train"]) + len(s["validation"]) for s in fold["model_selection"])
            for fold in document
        )
        assert sum(converted) == held


# --- the nesting check itself, against a plain reading of the JSON grammar ----------------------


def reference_depth(data):
    depth = deepest = 0
    in_string = escaped = False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        elif byte in b"]}":
            depth -= 1
    return deepest


def object_depth(value):
    if isinstance(value, list):
        return 1 + max((object_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((object_depth(v) for v in value.values()), default=0)
    return 0


tricky_text = st.text(alphabet='[]{}"\\,: ab\u00e9', max_size=12)
json_values = st.recursive(
    st.none() | st.integers(-5, 5) | tricky_text,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(tricky_text, children, max_size=4)
    ),
    max_leaves=30,
)


@settings(max_examples=150, deadline=None)
@given(value=json_values, ensure_ascii=st.booleans(), chunk=st.sampled_from([1, 2, 3, 7, 64]))
def test_nesting_check_matches_the_grammar(value, ensure_ascii, chunk):
    data = json.dumps(value, ensure_ascii=ensure_ascii).encode("utf-8")
    depth = object_depth(value)
    assert reference_depth(data) == depth
    with mock.patch.object(_bounded_json, "_CHUNK", chunk):
        for limit in range(max(depth - 2, 0), depth + 2):
            assert (_bounded_json.scan(data, max_depth=limit)[0] == "depth") == (depth > limit)


def test_limits_are_what_the_formats_need():
    # the sklearn-fair format nests 6 levels, gnn-comparison 5: the cap leaves room
    assert _saved_splits.MAX_DEPTH >= 6
    assert _saved_splits.MAX_IMPLIED_INDICES >= 10 * 100_000
