"""Exact duplicate rows or identical graphs, and the splits they straddle.

Duplicates are found by one digest per sample: numeric rows are their raw bytes; graphs, sparse
rows and rows of Python objects their :func:`sklearn_fair.utils.fingerprint`.
"""

import datetime
import numbers
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

import numpy as np
from scipy import sparse
from sklearn.utils import check_consistent_length
from sklearn.utils._param_validation import validate_params
from sklearn.utils.validation import _num_samples

from ..model_selection._split_validation import validate_splits
from ..utils import fingerprint, graph_fields, is_graph_data, to_numpy
from ..utils._graphs import graphs_in_order


@dataclass(frozen=True)
class DuplicateReport:
    """Groups of identical samples, and which of them a split puts on both sides.

    Attributes
    ----------
    groups : list of ndarray
        Positions (0 to n_samples - 1, not the labels of a pandas index) of each group of two
        or more identical samples.
    straddling : list of ndarray
        The groups that at least one split puts partly in training and partly in test.
    n_splits_straddled : list of int
        For each group of ``straddling``, in how many splits it does so.
    same_label : list of bool
        For each group of ``straddling``, whether all its members share one label
        (``None`` entries when no labels were given).
    in_train_and_test : dict of int to ndarray
        The splits (by their number) that put samples in both their training and their test
        set, with the positions of those samples: each is tested on itself.
    straddling_index : list or None
        For a pandas ``X``, the index labels of each group of ``straddling``; None otherwise.
    """

    groups: list = field(default_factory=list)
    straddling: list = field(default_factory=list)
    n_splits_straddled: list = field(default_factory=list)
    same_label: list = field(default_factory=list)
    in_train_and_test: dict = field(default_factory=dict)
    straddling_index: object = None

    @property
    def n_duplicates(self):
        """Number of samples that have an identical twin (beyond the first of each group)."""
        return int(sum(len(g) - 1 for g in self.groups))

    @property
    def leaks(self):
        """Whether a split puts copies of one sample, or a sample itself, in both training and
        test."""
        return bool(self.straddling or self.in_train_and_test)


def _graph_digests(X):
    """One digest per graph from every stored field but ``y`` (by name, in any order), each read
    as an array (a list, an array and a tensor of the same values are the same field), floats
    as in rows (``-0.0`` is ``0.0``, every NaN the same); a stored ``num_nodes`` that is the
    number of rows of ``x`` (the count the graph implies) is left out."""
    digests = []
    for graph in graphs_in_order(X):  # a pandas Series by position
        fields = {
            name: _same_bytes_when_equal(to_numpy(value))
            for name, value in graph_fields(graph).items()
            if name != "y"
        }
        if _states_its_rows(fields):
            del fields["num_nodes"]
        digests.append(fingerprint(fields))
    return np.asarray(digests)


def _states_its_rows(fields):
    """Whether a graph's stored ``num_nodes`` is the number of rows of its ``x``."""
    count, x = fields.get("num_nodes"), fields.get("x")
    if count is None or x is None or x.ndim == 0 or count.size != 1:
        return False
    return count.dtype.kind in "iuf" and count.item() == len(x)


def _same_bytes_when_equal(values):
    """Floats (and each part of a complex) with -0.0 as 0.0 and every NaN as ``np.nan``
    (``0.0 / 0.0`` has its sign bit set), so that rows that compare equal, NaN in the same
    places, have the same bytes."""
    if values.dtype.kind == "c":
        same = np.empty_like(values)
        same.real, same.imag = (
            _same_bytes_when_equal(values.real),
            _same_bytes_when_equal(values.imag),
        )
        return same
    if values.dtype.kind != "f":
        return values
    return np.where(np.isnan(values), np.nan, values + 0.0)


class _Canonical:
    """The value of a cell whose type would fingerprint it apart from cells equal to it."""

    def __init__(self, *key):
        self.key = key

    def __fingerprint__(self):
        return self.key


def _exact_number(cell):
    """A Decimal or a Fraction as the int or float equal to it, else as the Fraction of its
    value (``Decimal("0.1")`` is ``Fraction(1, 10)``, not the float ``0.1``); a Decimal NaN,
    which Python's ``==`` and pandas find equal to no other object, as itself only."""
    if isinstance(cell, Decimal) and cell.is_nan():
        return _Canonical("unequal", id(cell))
    if isinstance(cell, Decimal) and cell.is_infinite():
        return float(cell)
    value = Fraction(cell)
    if value.denominator == 1:
        return int(value)
    as_float = float(value)
    return as_float if Fraction(as_float) == value else value


def _object_cell(cell):
    """A cell of an object row as one value per number, as Python's ``==`` and pandas'
    ``duplicated`` compare them: a numpy scalar as its Python value (``np.int64(1)`` is ``1``,
    ``np.str_("a")`` is ``"a"``), a bool, a whole float and a real complex as an int (``True``,
    ``1.0`` and ``1+0j`` are ``1``), any other float as in float rows, a Decimal or Fraction
    by its value (``Decimal("1.50")`` is ``1.5``), a datetime by its instant where it has a
    time zone (UTC 00:00 is Paris 01:00) and a timedelta by its length, pandas', Python's or
    numpy's (a ``np.datetime64`` as the ``pd.Timestamp`` pandas makes of it, whatever its
    unit, and neither equal to an int)."""
    if isinstance(cell, (np.datetime64, np.timedelta64)):
        # as pandas holds them (a Timestamp, a Timedelta, NaT): .item() makes an int of
        # nanoseconds (equal to that int) and a date of days (unequal to the Timestamp)
        import pandas as pd

        if isinstance(cell, np.timedelta64) and np.datetime_data(cell.dtype)[0] in "YM":
            if np.isnat(cell):
                return pd.NaT
            # months and years have no fixed length, which pd.Timedelta refuses
            return _Canonical("months", int(cell.astype("timedelta64[M]").astype(np.int64)))
        cell = (pd.Timestamp if isinstance(cell, np.datetime64) else pd.Timedelta)(cell)
    if isinstance(cell, np.generic):
        cell = cell.item()
    if isinstance(cell, Decimal) or (
        isinstance(cell, numbers.Rational) and not isinstance(cell, int)
    ):
        cell = _exact_number(cell)
    if isinstance(cell, complex) and cell.imag == 0:
        cell = cell.real
    if isinstance(cell, float) and cell.is_integer():
        return int(cell)  # exact: 2.0**53 is 2**53, not 2**53 + 1
    if isinstance(cell, bool):
        return int(cell)
    if isinstance(cell, (float, complex)):
        return _same_bytes_when_equal(np.asarray(cell)).item()
    if isinstance(cell, dict):  # a record: by key in any order, its values as cells
        items = [(_object_cell(key), _object_cell(value)) for key, value in cell.items()]
        return dict(sorted(items, key=lambda item: fingerprint(item[0])))
    if isinstance(cell, datetime.datetime) and cell == cell:  # NaT is unequal to itself
        aware = cell.utcoffset() is not None
        if aware:
            cell = cell.astimezone(datetime.timezone.utc)
        # its fields, not timetuple(), which a Timestamp past year 9999 refuses
        when = (cell.year, cell.month, cell.day, cell.hour, cell.minute, cell.second,
                cell.microsecond, getattr(cell, "nanosecond", 0))  # fmt: skip
        return _Canonical("datetime", aware, *when)
    if isinstance(cell, datetime.timedelta) and cell == cell:
        length = (cell.days, cell.seconds, cell.microseconds, getattr(cell, "nanoseconds", 0))
        return _Canonical("timedelta", *length)
    return cell


def _object_digests(array):
    """One digest per row of the object array ``array``: equal cells give equal digests (``1``
    and ``1.0`` as well); ``1`` and ``"1"`` (or None and NaN) differ."""
    return np.asarray([fingerprint([_object_cell(cell) for cell in row]) for row in array])


def _row_digests(X):
    if hasattr(X, "iloc"):  # pandas: hash the values, not the index
        import pandas as pd

        frame = X if hasattr(X, "columns") else X.to_frame()
        if any(pd.api.types.is_object_dtype(dtype) for dtype in frame.dtypes):
            # pandas hashes 1 and "1" (True and "True", None and NaN) alike in such a column
            return _object_digests(frame.to_numpy(dtype=object))
        return pd.util.hash_pandas_object(frame, index=False).to_numpy()
    if sparse.issparse(X):
        X = sparse.csr_array(X, copy=True)
        X.sum_duplicates()
        # as for dense rows: a stored zero equals an absent one, and NaN equals NaN
        X.eliminate_zeros()
        X.data = _same_bytes_when_equal(X.data)
        X.sort_indices()
        rows = zip(X.indptr[:-1], X.indptr[1:])
        return np.asarray([fingerprint((X.indices[a:b], X.data[a:b])) for a, b in rows])
    array = np.asarray(X)
    if array.dtype.kind in "US" and not hasattr(X, "__array__"):
        # a list that mixes strings with other values: NumPy made strings of them all ("1"
        # of 1); as objects, each value keeps its type
        array = np.asarray(X, dtype=object)
    array = array.reshape(array.shape[0], -1)
    if array.dtype == object:
        return _object_digests(array)
    rows = np.ascontiguousarray(_same_bytes_when_equal(array))
    return rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).ravel()


def sample_digests(X):
    """One digest per sample of ``X``, equal where :func:`find_duplicates` finds the samples
    identical."""
    return _graph_digests(X) if is_graph_data(X) else _row_digests(X)


@validate_params(
    {"X": ["array-like", "sparse matrix"], "y": ["array-like", None], "splits": [Iterable, None]},
    prefer_skip_nested_validation=True,
)
def find_duplicates(X, y=None, splits=None):
    """Find exact duplicate samples of ``X`` and the splits that put them on both sides.

    Parameters
    ----------
    X : array-like, sparse matrix, DataFrame or sequence of graphs
        The data. Rows are compared exactly (``-0.0`` equals ``0.0``; NaN equals NaN in the
        same position; in rows of objects, numbers equal in value are equal whatever their
        types, ``1``, ``1.0``, ``True``, ``Decimal("1.00")`` and ``Fraction(1)`` as in pandas'
        ``duplicated``, and differ from the string ``"1"``, in a list of lists as in an object
        array; datetimes with a time zone are equal at the same instant, and a numpy
        ``datetime64`` or ``timedelta64`` is the ``Timestamp`` or ``Timedelta`` of a pandas
        column of them, whatever its unit, and equal to no int; records (dicts) are equal
        as Python's ``==`` compares them: the same keys, in any order, with equal values).
        Graphs (items with a ``.y``) are compared on every stored field but the label, in
        their stored node order, values as in rows; a stored ``num_nodes`` equal to the rows of
        ``x`` is not a difference.
    y : array-like of shape (n_samples,), default=None
        Labels, used only to report whether the copies of a sample agree on it; one per
        sample of ``X``.
    splits : iterable of (train, test) index arrays, default=None
        The splits to check: integer positions or boolean masks of the samples of ``X``,
        checked as :func:`~sklearn_fair.model_selection.validate_splits` checks them (an index
        out of range or an empty set is refused). A sample in both sets of a split is not
        refused (lagged time-series splits mean it) but reported, in ``in_train_and_test``,
        and leaks as copies on both sides do. Without splits, every group of duplicates is
        reported and none as straddling.

    Returns
    -------
    report : DuplicateReport
        Samples by their positions in ``X`` (for a DataFrame or Series, its ``iloc``
        positions; ``straddling_index`` holds the index labels of the straddling groups).

    Raises
    ------
    ValueError
        For an ``X`` of no samples, as scikit-learn's ``check_array`` refuses it.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_fair.leakage import find_duplicates
    >>> X = np.array([[0, 1], [2, 3], [0, 1], [4, 5]])
    >>> report = find_duplicates(X, splits=[([0, 1], [2, 3]), ([2, 3], [0, 1])])
    >>> [g.tolist() for g in report.straddling], report.n_splits_straddled
    ([[0, 2]], [2])
    """
    if _num_samples(X) == 0:  # as scikit-learn's check_array refuses it
        shape = f" (shape {X.shape})" if hasattr(X, "shape") else ""
        raise ValueError(
            "The 'X' parameter of find_duplicates must hold at least 1 sample. Got an X of 0 "
            f"samples{shape} instead."
        )
    digests = sample_digests(X)
    if y is not None:
        check_consistent_length(digests, y)
    if splits is not None:
        splits = validate_splits(splits, len(digests), allow_overlap=True, name="splits")
    _, inverse, counts = np.unique(digests, return_inverse=True, return_counts=True)
    inverse = inverse.ravel()
    groups = [np.flatnonzero(inverse == code) for code in np.flatnonzero(counts > 1)]
    groups.sort(key=lambda g: g[0])
    y_array = None if y is None else np.asarray(y)
    straddling, n_straddled, same_label = [], [], []
    for group in groups:
        count = sum(
            bool(np.isin(group, train).any() and np.isin(group, test).any())
            for train, test in splits or []
        )
        if count:
            straddling.append(group)
            n_straddled.append(int(count))
            same_label.append(None if y_array is None else _one_label(y_array[group]))
    in_both = {}
    for fold, (train, test) in enumerate(splits or []):
        both = np.intersect1d(train, test)
        if both.size:
            in_both[fold] = both
    index = getattr(X, "index", None) if hasattr(X, "iloc") else None
    straddling_index = None if index is None else [index[g].tolist() for g in straddling]
    return DuplicateReport(groups, straddling, n_straddled, same_label, in_both, straddling_index)


def _one_label(labels):
    """Whether the labels of a group are all one: one value, or one row (label set) of 2-D
    labels."""
    if labels.ndim == 1:
        return bool(np.unique(labels).size == 1)
    rows = labels.reshape(len(labels), -1)
    if rows.dtype == object:  # np.unique takes no axis for objects
        return len({tuple(row) for row in rows.tolist()}) == 1
    return bool(np.unique(rows, axis=0).shape[0] == 1)
