"""Content fingerprints that are the same in every process and on every machine.

``joblib.hash`` pickles its argument, and the pickle of a torch tensor (and of some other objects)
differs from one process to the next, so a key built with it changes after a restart.
:func:`fingerprint` hashes the *values*: numpy arrays by dtype, shape and bytes, tensors through
numpy, pandas objects column by column (each with its dtype), sparse matrices through their CSR
arrays, graphs through their attributes (by name), containers element by element (a dict's
items in its order, as ``DictVectorizer(sort=False)`` reads a record), an object whose class
defines ``__fingerprint__()`` through what it returns. Only what it does not know goes to
``joblib.hash``.
"""

import hashlib
import numbers
import sys

import joblib
import numpy as np

from ._graphs import graphs_in_order, is_graph_data, is_tensor, read_as_graphs, to_numpy
from ._validation import labels_1d


def fingerprint(value):
    """Return ``"sha256:"`` and the SHA-256 of the content of ``value``.

    Parameters
    ----------
    value : object
        Arrays, tensors, DataFrames, sparse matrices, sequences of graphs, scalars,
        strings, and dicts, lists and tuples of these.

    Returns
    -------
    fingerprint : str

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_fair.utils import fingerprint
    >>> fingerprint(np.arange(3)) == fingerprint(np.arange(3)[::-1][::-1].copy())
    True
    >>> fingerprint([1, 2]) == fingerprint([2, 1])
    False
    """
    hasher = hashlib.sha256()
    update_hasher(hasher, value)
    return f"sha256:{hasher.hexdigest()}"


def fingerprint_of_numbers(value):
    """:func:`fingerprint` of the numbers ``value`` holds, where it holds numbers: a pandas
    Series (of any name or index), a list and an int, float32 or float64 array of the same
    numbers (weights that weigh alike) give one fingerprint.
    Anything else (text labels, objects) is fingerprinted as it is.

    The same numbers are those equal at float32 precision: floats are rounded to float32
    (0.7 as float64 and as float32 are one number; -0.0 and 0.0 are one; floats beyond
    float32's range, or that it would make 0 or subnormal, are kept as they are), integers
    and booleans are kept exact (up to 2**53, so an integer past 2**24 and the same number
    as a float, rounded, are two), and all are hashed as a float64 array (one column as
    1-D), so the numbers that float32 holds exactly (1.0, 3.0, 0.5) keep the fingerprint
    they had as float64.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> weights = [1, 2, 2]
    >>> fingerprint_of_numbers(pd.Series(weights, name="w")) == fingerprint_of_numbers(
    ...     np.array(weights, dtype=np.float32))
    True
    >>> fingerprint_of_numbers(np.array([0.7, 0.3])) == fingerprint_of_numbers(
    ...     np.array([0.7, 0.3], dtype=np.float32))
    True
    """
    try:
        values = np.asarray(value)
        if values.dtype.kind in "biuf":
            if values.dtype.kind == "f":
                with np.errstate(over="ignore", under="ignore"):
                    rounded = values.astype(np.float32)
                # past float32's range a number is kept: 1e39 and 1e40 are two weightings,
                # and so are 1e-50 and 2e-50 (float32 makes both 0, or one subnormal)
                outside = np.isinf(rounded) & np.isfinite(values)
                outside |= (np.abs(rounded) < np.finfo(np.float32).tiny) & (values != 0)
                values = np.where(outside, values, rounded)
            # + 0.0: -0.0 and 0.0 are one weight; one column is its column; other shapes are
            # kept (2 x 3 is not 3 x 2)
            return fingerprint(labels_1d(values.astype(np.float64) + 0.0))
    except (TypeError, ValueError):
        pass
    return fingerprint(value)


def fingerprint_with_index(value):
    """:func:`fingerprint`, and for a pandas DataFrame or Series its index too (values, dtype
    and names).

    Estimators ignore the index, but code of the user's may not (``X.join(table)`` in a
    FunctionTransformer): what keys a result uses this. :func:`fingerprint` leaves the index
    out, as the fingerprints saved in files were made without it.
    """
    index = getattr(value, "index", None)
    if not (hasattr(value, "to_numpy") and hasattr(index, "to_numpy")):
        return fingerprint(value)
    hasher = hashlib.sha256()
    update_hasher(hasher, value)
    _tag(hasher, "index")
    update_hasher(hasher, list(index.names))
    if getattr(index, "asi8", None) is not None:  # datetimes: their int64 ticks and their type
        _tag(hasher, "dtype", index.dtype)
        _update_array(hasher, index.asi8)
    else:
        _update_series(hasher, index)
    return f"sha256:{hasher.hexdigest()}"


def _tag(hasher, tag, *parts):
    hasher.update(tag.encode())
    for part in parts:
        data = part if isinstance(part, bytes) else str(part).encode()
        hasher.update(len(data).to_bytes(8, "little"))
        hasher.update(data)


def update_hasher(hasher, value):
    """Feed the content of ``value`` into a ``hashlib`` object (see :func:`fingerprint`)."""
    if value is None or isinstance(value, (bool, str, bytes)):
        _tag(hasher, "s", type(value).__name__, value)
    elif isinstance(value, (numbers.Number, np.generic)):
        item = value.item() if hasattr(value, "item") else value
        _tag(hasher, "n", type(value).__name__, repr(item))
    elif isinstance(value, dict):
        # in its order: records read by DictVectorizer(sort=False) give their columns in it
        _tag(hasher, "d", len(value))
        for key, item in value.items():
            update_hasher(hasher, key)
            update_hasher(hasher, item)
    elif isinstance(value, (list, tuple)) and not is_graph_data(value):
        _tag(hasher, "l", type(value).__name__, len(value))
        for item in value:
            update_hasher(hasher, item)
    elif is_tensor(value):
        _update_array(hasher, to_numpy(value))
    elif hasattr(type(value), "__fingerprint__"):
        # a container that knows its content, e.g. a graph collection of stacked arrays
        _tag(hasher, "custom", type(value).__name__)
        update_hasher(hasher, value.__fingerprint__())
    elif is_graph_data(value):
        # a list, object array, pandas Series (by position) or PyG dataset of graphs alike
        _tag(hasher, "graphs", len(value))
        for graph in graphs_in_order(value):
            update_hasher(hasher, graph_fields(graph))
    elif isinstance(value, np.ndarray):
        _update_array(hasher, value)
    elif hasattr(value, "tocsr") and hasattr(value, "nnz"):  # a scipy sparse matrix or array
        matrix = value.tocsr()  # the matrix itself when it is CSR already: never sorted in place
        if not matrix.has_sorted_indices:
            matrix = matrix.sorted_indices()
        _tag(hasher, "sparse", matrix.shape, matrix.dtype.str)
        for part in (matrix.data, matrix.indices.astype(np.int64), matrix.indptr.astype(np.int64)):
            _update_array(hasher, part)
    elif hasattr(value, "columns") and hasattr(value, "dtypes"):  # a pandas DataFrame
        _tag(hasher, "frame", len(value))
        for position, name in enumerate(value.columns):
            update_hasher(hasher, name)
            # by position: a name two columns share selects both
            column = value.iloc[:, position] if hasattr(value, "iloc") else value[name]
            _update_series(hasher, column)
    elif hasattr(value, "to_numpy") and hasattr(value, "name"):  # a pandas Series
        _tag(hasher, "series")
        update_hasher(hasher, value.name)
        _update_series(hasher, value)
    else:
        _tag(hasher, "joblib", joblib.hash(value))


def _update_series(hasher, series):
    """A pandas or polars column: its dtype (a "category" column of ints gives the ints of an
    int column, and estimators treat the two differently) with a pandas category's categories
    (a polars Enum's are in its dtype's text), then its values, then where it holds a null
    if it also holds a NaN that is not one."""
    dtype = series.dtype
    _tag(hasher, "dtype", dtype)
    pandas = sys.modules.get("pandas")  # imported wherever a pandas column is
    if pandas is not None and isinstance(dtype, pandas.CategoricalDtype):
        update_hasher(hasher, dtype.categories.to_numpy())
        update_hasher(hasher, dtype.ordered)
    nulls = _nulls(series, pandas)
    integers = _integers_with_nulls(series, nulls)
    if integers is not None:  # to_numpy would round them to floats past 2**53
        _update_array(hasher, integers)
        _tag(hasher, "nulls")
        _update_array(hasher, nulls)
        return
    values = np.asarray(series.to_numpy())
    _update_array(hasher, values)
    if values.dtype.kind in "fc" and values.ndim == 1:
        # to_numpy makes a null NaN, and fill_null (polars) or fillna (a masked pandas
        # dtype) fills the nulls alone; without a NaN that is not null the key stays as it was
        if nulls is not None and not np.array_equal(nulls, np.isnan(values)):
            _tag(hasher, "nulls")
            _update_array(hasher, nulls)


def _integers_with_nulls(series, nulls):
    """The values of an integer column holding a null (``nulls``: its null mask, of
    :func:`_nulls`) as integers, its nulls as 0 (a pandas masked or arrow integer dtype, a
    polars integer column); None for any other column (one without a null converts to its
    integers exactly)."""
    if nulls is None or not nulls.any():
        return None
    if hasattr(series, "is_null"):  # polars
        return np.asarray(series.fill_null(0).to_numpy()) if series.dtype.is_integer() else None
    numpy_dtype = getattr(series.dtype, "numpy_dtype", None)
    if numpy_dtype is None or np.dtype(numpy_dtype).kind not in "iu":
        return None
    return np.asarray(series.to_numpy(dtype=numpy_dtype, na_value=0))


def _nulls(series, pandas):
    """The null mask of a column that can hold a null beside a NaN (polars, a pandas extension
    dtype); None for a numpy-backed column, whose NaN is its only missing value."""
    if hasattr(series, "is_null"):  # polars
        return np.asarray(series.is_null().to_numpy(), dtype=bool)
    if pandas is not None and isinstance(series.dtype, pandas.api.extensions.ExtensionDtype):
        return np.asarray(series.isna(), dtype=bool)
    return None


# the most bytes of an array not in C order that fingerprint copies at once
_SLAB_BYTES = 2**22


class _Recorder:
    """A stand-in for a ``hashlib`` object that keeps the bytes fed to it."""

    def __init__(self):
        self.parts = []

    def update(self, data):
        self.parts.append(bytes(data))


def _update_objects(hasher, items):
    """Feed each of ``items`` as :func:`update_hasher` would, one after another; a run of
    texts as the bytes of each distinct text made once, joined (a column of repeated labels,
    or a category column's values, is fed at the speed of a join: the same bytes, the same
    digest)."""
    if set(map(type, items)) == {str}:
        made = {text: _bytes_of(text) for text in dict.fromkeys(items)}
        hasher.update(b"".join(map(made.__getitem__, items)))
        return
    for item in items:
        update_hasher(hasher, item)


def _bytes_of(value):
    recorder = _Recorder()
    update_hasher(recorder, value)
    return b"".join(recorder.parts)


def _update_array(hasher, array):
    array = np.asarray(array)
    if array.dtype == object:
        _tag(hasher, "objects", array.shape)
        _update_objects(hasher, array.ravel().tolist())
        return
    _tag(hasher, "array", array.dtype.str, array.shape)
    # its bytes in C order as a view (tobytes would copy the whole array: twice its memory at
    # peak); an array in another order (a Fortran-ordered one, a frame's to_numpy()) a slab of
    # rows at a time, each slab's bytes in C order: the same bytes, one slab's copy at most
    if array.flags.c_contiguous or array.ndim == 0:
        hasher.update(np.ascontiguousarray(array).reshape(-1).view(np.uint8))
        return
    rows = max(1, _SLAB_BYTES // max(1, array[:1].nbytes))
    for start in range(0, len(array), rows):
        hasher.update(np.ascontiguousarray(array[start : start + rows]).reshape(-1).view(np.uint8))


def graph_fields(graph):
    """The attributes of one graph as a dict (PyTorch Geometric ``Data`` or a plain object), by
    name: a graph's fields have no order."""
    if hasattr(graph, "to_dict"):
        fields = graph.to_dict()
    elif hasattr(graph, "__dict__"):
        fields = vars(graph)
    else:
        raise TypeError(
            f"A graph of type {type(graph).__name__} has no attributes to read (no __dict__, "
            f"no to_dict): {graph!r:.80}. {read_as_graphs('The data')}"
        )
    return {name: fields[name] for name in sorted(fields)}
