"""Reading a CSV file of an experiment: what it holds in memory, and the cells of its
columns as written."""

import tracemalloc

import numpy as np
import pytest

from sklearn_fair.exceptions import ExperimentConfigError
from sklearn_fair.experiment._reading._data import load_csv


class _Source:
    def error(self, key, message):
        return ExperimentConfigError(f"key {'.'.join(key)!r}: {message}")


def _numeric_csv(path, n_rows, n_columns, seed=0):
    rng = np.random.default_rng(seed)
    values = rng.normal(size=(n_rows, n_columns - 1)).round(6)
    labels = rng.integers(0, 3, n_rows)
    header = ",".join([f"x{i}" for i in range(n_columns - 1)] + ["y"])
    lines = (",".join(f"{v:.6f}" for v in row) + f",{t}" for row, t in zip(values, labels))
    path.write_text(header + "\n" + "\n".join(lines) + "\n")
    return values, labels


def test_a_csv_file_is_held_once_not_as_a_string_per_cell(tmp_path):
    """Every cell was held as a Python string until the end (60 B a cell): 350 MB at the
    peak for a numeric file of 200000 rows and 20 columns (37 MB); 4000 rows here. Its
    numbers are now held as they are read (8 B a cell), beside each row's text: the peak
    is 3 times the file's size, the result's arrays included (10 times before)."""
    pytest.importorskip("pandas")
    path = tmp_path / "data.csv"
    values, labels = _numeric_csv(path, 4_000, 20)
    load_csv(path, "y", None, _Source())  # what a first read imports, not measured
    tracemalloc.start()
    try:
        X, y, groups = load_csv(path, "y", None, _Source())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    size = path.stat().st_size
    assert peak < 5 * size, (peak, size)
    # the same numbers as numpy's own reading of the text
    assert np.array_equal(X.to_numpy(), values) and X.dtypes.eq(np.float64).all()
    assert y.dtype == np.int64 and np.array_equal(y, labels) and groups is None


def test_the_cells_of_a_text_column_are_as_written(tmp_path):
    """A column is numbers until a cell is not one; its cells are then those written, line
    breaks in quotes as they are in the file (CR LF, CR), spaces kept."""
    pytest.importorskip("pandas")
    path = tmp_path / "data.csv"
    path.write_bytes(
        b'a,c,g,y\r\n1, 2 ,u,0\r\n2,"x\r\ny",v,1\r\n3,"p\rq",u,1\r\n4,,"w,z",9007199254740993\r\n'
    )
    X, y, groups = load_csv(path, "y", "g", _Source())
    assert list(X.columns) == ["a", "c"]
    assert X["a"].tolist() == [1.0, 2.0, 3.0, 4.0] and X["a"].dtype == np.float64
    assert X["c"].tolist() == [" 2 ", "x\r\ny", "p\rq", ""]  # (pandas's str or object)
    assert groups.tolist() == ["u", "v", "u", "w,z"] and groups.dtype == object
    # past 2**53 a label is read from its text, not from its float (9007199254740992)
    assert y.tolist() == [0, 1, 1, 2**53 + 1] and y.dtype == np.int64


def test_a_row_of_another_length_is_named_after_the_header_is_checked(tmp_path):
    path = tmp_path / "data.csv"
    path.write_text("a,b,y\n1,2,0\n3,4\n5,6,7,8\n")
    with pytest.raises(ExperimentConfigError, match="line 3 of .* has 2 cells; the header has 3"):
        load_csv(path, "y", None, _Source())
    with pytest.raises(ExperimentConfigError, match="has no column 'z'"):
        load_csv(path, "z", None, _Source())


@pytest.mark.parametrize("cell", ["NA", "", "n/a"])
def test_a_missing_text_label_is_refused_not_made_a_class(tmp_path, cell):
    # a text target's "NA" cells became a third class, and the run reported its accuracy
    path = tmp_path / "data.csv"
    path.write_text(f"a,y\n1,yes\n2,no\n3,{cell}\n4,no\n")
    with pytest.raises(ExperimentConfigError, match="1 missing label.*data row 3"):
        load_csv(path, "y", None, _Source())
    path.write_text("a,y\n1,yes\n2,no\n3,NAB\n4,no\n")  # not a missing-value string
    assert load_csv(path, "y", None, _Source())[1].tolist() == ["yes", "no", "NAB", "no"]


def test_groups_that_name_the_target_are_refused_at_their_key(tmp_path):
    # it ended in a bare KeyError: 'y' (the column was taken twice)
    path = tmp_path / "data.csv"
    path.write_text("a,y\n1,0\n3,1\n")
    with pytest.raises(ExperimentConfigError, match="groups column 'y' is the target"):
        load_csv(path, "y", "y", _Source())


def test_a_column_of_codes_with_underscores_is_text_as_pandas_reads_it(tmp_path):
    # Python's float reads "1_0" as 10.0: a column of codes became numbers, and skipped the
    # check that text columns need an encoder
    pd = pytest.importorskip("pandas")
    path = tmp_path / "data.csv"
    path.write_text("code,x,y\n1_0,1.5,0\n2_5,2.5,1\n3,1e3,0\n")
    X, y, _ = load_csv(path, "y", None, _Source())
    theirs = pd.read_csv(path)
    assert X["code"].tolist() == theirs["code"].tolist() == ["1_0", "2_5", "3"]
    assert X["x"].tolist() == theirs["x"].tolist() == [1.5, 2.5, 1000.0]


def _as_pandas_reads_it(path, target="y"):
    """Our features and target beside pandas.read_csv's of the same file: same columns, each
    numeric in both (features as float64 here, integers as int64 there), same NaN positions,
    same values; the target of the same dtype."""
    pd = pytest.importorskip("pandas")
    X, y, _ = load_csv(path, target, None, _Source())
    theirs = pd.read_csv(path)
    assert list(X.columns) == [c for c in theirs.columns if c != target]
    for column in X.columns:
        ours, reference = X[column].to_numpy(), theirs[column].to_numpy()
        assert ours.dtype == np.float64 and reference.dtype.kind in "fi", column
        reference = reference.astype(np.float64)
        assert np.array_equal(np.isnan(ours), np.isnan(reference)), column
        assert np.allclose(ours, reference, equal_nan=True), column
    assert np.array_equal(y, theirs[target].to_numpy(), equal_nan=y.dtype.kind == "f")
    assert y.dtype == theirs[target].dtype
    return X, y


# pandas' default na_values (an R data frame's write.csv writes NA)
NA_STRINGS = ["NA", "N/A", "n/a", "NULL", "null", "None", "#N/A", "#NA", "<NA>", "nan", "NaN",
              "-nan", "-NaN", "#N/A N/A", "1.#IND", "-1.#IND", "1.#QNAN", "-1.#QNAN"]  # fmt: skip


@pytest.mark.parametrize("na", NA_STRINGS)
def test_pandas_missing_value_strings_in_a_numeric_column_are_nan(tmp_path, na):
    path = tmp_path / "data.csv"
    path.write_text(f"a,b,y\n1.5,{na},0\n{na},2,1\n3,,0\n4,5,1\n")
    X, _ = _as_pandas_reads_it(path)
    assert np.isnan(X["a"].to_numpy()).tolist() == [False, True, False, False]


def test_missing_labels_are_nan_as_pandas_reads_them(tmp_path):
    path = tmp_path / "data.csv"
    path.write_text("a,y\n1,0\n2,NA\n3,1\n")
    _, y = _as_pandas_reads_it(path)
    assert np.isnan(y).tolist() == [False, True, False]


def test_a_text_that_is_not_a_missing_value_keeps_the_column_text(tmp_path):
    pd = pytest.importorskip("pandas")
    path = tmp_path / "data.csv"
    path.write_text("a,y\n1,0\n NA,1\nna,0\n")  # not pandas' strings: text, as pandas reads
    X, _, _ = load_csv(path, "y", None, _Source())
    assert X["a"].tolist() == ["1", " NA", "na"]
    assert pd.read_csv(path)["a"].tolist() == ["1", " NA", "na"]


def test_a_byte_order_mark_is_not_in_the_first_name(tmp_path):
    path = tmp_path / "data.csv"
    path.write_bytes("y,a,b\n0,1.5,2\n1,2.5,3\n0,3.5,4\n".encode("utf-8-sig"))
    X, y = _as_pandas_reads_it(path)
    assert list(X.columns) == ["a", "b"] and y.tolist() == [0, 1, 0]


@pytest.mark.parametrize(
    "text",
    [
        "a,b,y\n1,2,0\n3,4,1\n\n",
        "a,b,y\n1,2,0\n\n3,4,1\n",
        "\n\na,b,y\r\n1,2,0\r\n\r\n3,4,1\r\n\r\n",
        "a,b,y\n1,2,0\n   \n3,4,1\n",
    ],
    ids=["at the end", "in the middle", "before the header, CR LF", "spaces only"],
)
def test_blank_lines_are_skipped_as_pandas_skips_them(tmp_path, text):
    path = tmp_path / "data.csv"
    path.write_bytes(text.encode())
    X, y = _as_pandas_reads_it(path)
    assert X.to_numpy().tolist() == [[1, 2], [3, 4]] and y.tolist() == [0, 1]


def test_a_short_row_after_blank_lines_is_named_by_its_line(tmp_path):
    path = tmp_path / "data.csv"
    path.write_text("a,b,y\n\n1,2,0\n\n3,4\n")
    with pytest.raises(ExperimentConfigError, match="line 5 of .* has 2 cells; the header has 3"):
        load_csv(path, "y", None, _Source())


@pytest.mark.parametrize("cell", ["NAN", "+NaN", "nAn", "１２", "٣"])
def test_a_cell_python_reads_as_a_number_and_pandas_as_text_is_text(tmp_path, cell):
    # Python's float reads other spellings of NaN and non-ASCII digits ("１２" as 12.0): the
    # column became numeric (with a NaN) where pandas keeps it as text
    pd = pytest.importorskip("pandas")
    path = tmp_path / "d.csv"
    path.write_text(f'y,a\n1,1.5\n2,"{cell}"\n3,2.5\n', encoding="utf-8")
    X, _, _ = load_csv(path, "y", None, _Source())
    theirs = pd.read_csv(path)
    assert not pd.api.types.is_numeric_dtype(theirs["a"])
    assert X["a"].tolist() == theirs["a"].tolist() == ["1.5", cell, "2.5"]


def test_integer_group_ids_past_two_to_the_53_stay_apart(tmp_path):
    """Read as floats, ids 2**53 and 2**53 + 1 became one group: 6 patients read as 3, and
    GroupKFold split them otherwise than on the file's groups. pandas reads them exactly."""
    pd = pytest.importorskip("pandas")
    ids = [2**53 + k for k in (0, 1, 4, 5, 8, 9)]
    rows = [f"{i % 3},{i % 2},{patient}" for i, patient in enumerate(ids * 2)]
    path = tmp_path / "data.csv"
    path.write_text("a,y,patient\n" + "\n".join(rows) + "\n")
    _, _, groups = load_csv(path, "y", "patient", _Source())
    expected = pd.read_csv(path)["patient"]
    assert expected.nunique() == 6  # the reference: pandas keeps six patients
    assert groups.tolist() == expected.tolist() and groups.dtype == np.int64
    # small integer ids stay as they were read
    path.write_text("a,y,patient\n1,0,3\n2,1,4\n")
    assert load_csv(path, "y", "patient", _Source())[2].dtype == np.float64
