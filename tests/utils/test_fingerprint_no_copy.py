"""fingerprint reads an array's bytes without copying it (hunt LARGE, LARGE-2): a copy
doubled the peak memory of every benchmark() and cached run on large data; the digests are
those the earlier versions wrote (saved fingerprints stay valid)."""

import tracemalloc

import numpy as np
import pytest

from sklearn_fair.utils import fingerprint

# written by the version before this change (73cbe55) for np.arange(12.0).reshape(3, 4), its
# Fortran-ordered copy, and int8 [1, 2, 3]
EARLIER = {
    "float": "sha256:aa99fba74df709689b370ed442d9fd76b46cb17429d2846d748c8d719f96018c",
    "int8": "sha256:2ffda67b94f5c3e4a8d96cd86e42d916b6ec4f57468b8fd1672f6f7c49e9a335",
}


def test_digests_are_those_of_earlier_versions():
    values = np.arange(12, dtype=np.float64).reshape(3, 4)
    assert fingerprint(values) == EARLIER["float"]
    assert fingerprint(np.asfortranarray(values)) == EARLIER["float"]
    assert fingerprint(np.int8([1, 2, 3])) == EARLIER["int8"]


@pytest.mark.parametrize("order", ["C", "F", "every other row"])
def test_a_large_array_is_not_copied(order):
    # a Fortran-ordered array is what a one-dtype DataFrame's to_numpy() gives (hunt DOC19,
    # DOC19-1: it was copied whole)
    values = np.random.default_rng(0).normal(size=(200_000, 50))  # 76 MiB
    values = {"C": values, "F": np.asfortranarray(values), "every other row": values[::2]}[order]
    tracemalloc.start()
    try:
        fingerprint(values)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < values.nbytes / 8, peak


def test_dates_and_strided_arrays_are_fingerprinted_by_their_values():
    dates = np.array(["2020-01-01", "2021-01-01"], dtype="datetime64[ns]")
    assert fingerprint(dates) == fingerprint(dates.copy())
    assert fingerprint(dates) != fingerprint(dates.astype("datetime64[us]"))
    values = np.arange(20.0).reshape(4, 5)
    assert fingerprint(values[:, ::2]) == fingerprint(np.ascontiguousarray(values[:, ::2]))
