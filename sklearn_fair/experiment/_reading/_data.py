"""The data sets an experiment file can name: scikit-learn's, CSV files and TU graphs."""

import bz2
import csv
import gzip
import io
import lzma
import os
import re
import shutil
import tarfile
import zlib
from array import array
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

import numpy as np

from ...exceptions import ExperimentConfigError
from ...utils._tu_format import (
    NODE_LABEL_SCHEMES,
    REGULAR_RAW_FILES,
    TU_URL,
    TUFormatError,
    check_tu_files,
    no_node_features,
    open_regular,
    raw_file_size,
    raw_names,
    read_tu_files,
    read_tu_graph_labels,
    uses_node_attributes,
)
from ._limits import Limits
from ._paths import file_kind, locked
from ._text import shown

__all__ = ["SKLEARN_DATASETS", "cache_folder", "load_data", "load_datasets", "tu_read_paths"]

SKLEARN_DATASETS = ("breast_cancer", "diabetes", "digits", "iris", "wine")
_RAW_FILE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]*\.txt$")
_CSV_FILE = "give the path of a CSV file"
_ARCHIVE = "a TU data set's archive is a regular file (a link to one is followed)"


class _NotRegular(ValueError):
    """A file to read that is not a regular file (a folder, a FIFO, a device, a socket)."""


@dataclass
class Data:
    """An experiment's data: features, target, optional groups, and a one-line description."""

    X: object
    y: object
    groups: object
    description: str
    #: False when only the labels were read (graphs counted, not loaded: a dry run's count)
    complete: bool = True

    @property
    def n_samples(self):
        return len(self.y)


# pandas.read_csv's default na_values (pandas._libs.parsers.STR_NA_VALUES): a cell written
# exactly so is missing, NaN in a numeric column (R writes NA; a column with one was text)
_NA_VALUES = frozenset(
    ("", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
     "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null")
)  # fmt: skip


def _number(text):
    if text in _NA_VALUES or text.strip() == "":
        return np.nan
    if "_" in text or not text.isascii():
        # Python's float reads "1_0" as 10.0 and "１２" as 12.0; pandas' read_csv keeps text
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    # "NAN", "+NaN": pandas reads only its own spellings of a missing value (_NA_VALUES)
    return None if value != value else value


class _Bounded(io.RawIOBase):
    """The bytes of ``file``, read no further than one byte past the limit ``name`` (``count``
    bytes read before), then a :class:`DataLimitError`: a file that grew since its size was
    read, or an archive that unpacks to more than it says, is refused as it is read."""

    def __init__(self, file, where, limits, name, what, count=0):
        self.file, self.where, self.limits, self.name, self.what = file, where, limits, name, what
        self.count = count

    def readable(self):
        return True

    def _read(self, view):
        return self.file.readinto(view)

    def readinto(self, buffer):
        limit = getattr(self.limits, self.name)
        n = self._read(memoryview(buffer)[: limit + 1 - self.count])
        self.count += n
        if self.count > limit:
            refusal = self.limits.refusal(self.name, self.count, self.where, self.what, whole=False)
            raise DataLimitError(refusal)
        return n


class _Lines:
    """The lines of ``text`` for csv.reader, each row (its lines) read no further than one
    character past ``limits.csv_row``; the caller resets ``row``, ``start`` and ``parts``."""

    def __init__(self, text, where, limits):
        self.text, self.where, self.limits = text, where, limits
        self.row, self.start, self.parts = 0, 1, []

    def __iter__(self):
        return self

    def __next__(self):
        line = self.text.readline(self.limits.csv_row + 1 - self.row)
        if not line:
            raise StopIteration
        self.row += len(line)
        if self.row > self.limits.csv_row:
            where, what = f"line {self.start} of {self.where}", "its row's length in characters"
            raise DataLimitError(self.limits.refusal("csv_row", self.row, where, what, whole=False))
        self.parts.append(line)
        return line


def _read_rows(path, source, key, limits):
    """``(row, its text, its first line)`` of each row of a CSV file, within ``limits``
    (``csv_row`` bounds a long field too, whatever ``csv.field_size_limit()`` the process
    has; an empty line counts as one cell: it is held as a row), each refused as it is read;
    what the csv module or the decoder would raise, refused."""
    where = f"the CSV file {str(path)!r}"
    try:
        with open_regular(path, where, _CSV_FILE, _NotRegular) as raw:
            status = os.fstat(raw.fileno())
            if status.st_size > limits.csv_size:
                what = "its size in bytes"
                raise DataLimitError(limits.refusal("csv_size", status.st_size, where, what))
            counted = io.BufferedReader(
                _Bounded(raw, where, limits, "csv_size", "its size in bytes")
            )
            # utf-8-sig: a byte-order mark (Excel's "CSV UTF-8") is not in the first name
            text = io.TextIOWrapper(counted, encoding="utf-8-sig", newline="")
            lines = _Lines(text, where, limits)
            reader, cells = csv.reader(lines), 0
            for row in reader:
                cells += max(len(row), 1)
                if cells > limits.csv_cells:
                    what = (
                        "its number of cells (rows times columns), counted up to its line "
                        f"{reader.line_num},"
                    )
                    refusal = limits.refusal("csv_cells", cells, where, what, whole=False)
                    raise DataLimitError(refusal)
                yield row, "".join(lines.parts), lines.start
                lines.row, lines.start, lines.parts = 0, reader.line_num + 1, []
    except (DataLimitError, _NotRegular) as error:
        raise source.error(key + ("path",), str(error)) from None
    except OSError as error:
        raise source.error(key + ("path",), f"{where} cannot be read: {error}.") from None
    except UnicodeDecodeError as error:
        raise source.error(
            key + ("path",),
            f"the CSV file {str(path)!r} is not UTF-8 text (byte {error.object[error.start]:#04x} "
            f"at offset {error.start}); save it as UTF-8.",
        ) from None
    except csv.Error as error:  # a field over csv.field_size_limit(), a NUL byte
        raise source.error(
            key + ("path",), f"the CSV file {str(path)!r} cannot be read as CSV: {error}."
        ) from None


def load_csv(path, target, groups, source, key=("data",), limits=None):
    """Features, target and groups of a CSV file with a header row: numeric columns as floats,
    the others as strings; the features a DataFrame (so that preprocessing can name columns),
    or without pandas a float array of numeric columns only.

    The cells are read as numbers as the rows come, 8 bytes each, and each row's text is
    kept (about its size in the file): the cells of a column that is not numeric are read
    again from it at the end, as the reader read them. Holding every cell as a string took
    some 60 bytes a cell (350 MB for a file of 37 MB)."""
    limits = Limits() if limits is None else limits
    header, numbers, texts, bad = None, [], [], None
    for row, text, line in _read_rows(path, source, key, limits):
        if not text.strip():  # a blank line, skipped as pandas skips it (skip_blank_lines)
            continue
        if header is None:
            header, numbers = row, [array("d") for _ in row]  # None: a column of text
            continue
        if bad is not None or len(row) != len(header):
            bad = bad or (line, len(row))  # refused once the header is checked
            continue
        texts.append(text)
        for i, cell in enumerate(row):
            if numbers[i] is not None:
                number = _number(cell)
                if number is None:
                    numbers[i] = None
                else:
                    numbers[i].append(number)
    header = [] if header is None else header  # no line but blank ones: no column
    blank = [i + 1 for i, name in enumerate(header) if not name.strip()]
    if blank:  # pandas' to_csv writes its index so: row numbers, read as a feature
        raise source.error(
            key + ("path",),
            f"the CSV file {str(path)!r} has a column without a name (column"
            f"{'s' if len(blank) > 1 else ''} {', '.join(map(str, blank))} of the header); "
            "it is likely a pandas index that DataFrame.to_csv wrote (row numbers, which "
            "would be read as a feature): write the file with to_csv(..., index=False), or "
            "remove that column.",
        )
    twice = sorted({shown(name) for name in header if header.count(name) > 1})
    if twice:
        raise source.error(
            key + ("path",),
            f"the CSV file {str(path)!r} names the columns {', '.join(twice)} more than once; "
            "give each column its own name.",
        )
    for name, column in (("target", target), ("groups", groups)):
        if column is not None and column not in header:
            raise source.error(
                key + (name,),
                f"the CSV file {str(path)!r} has no column {shown(column)}; its columns are "
                f"{shown(header, 200)}.",
            )
    if groups is not None and groups == target:
        raise source.error(
            key + ("groups",),
            f"the groups column {shown(groups)} is the target: groups name another column (a "
            "patient or site identifier), whose samples stay on one side of each split.",
        )
    if bad is not None:
        line, n_cells = bad
        raise source.error(
            key + ("path",),
            f"line {line} of {str(path)!r} has {n_cells} cells; the header has {len(header)}.",
        )
    columns = {name: i for i, name in enumerate(header)}
    numbers = [None if n is None else np.array(n, dtype=float) for n in numbers]
    again = {i for i, n in enumerate(numbers) if n is None}
    if _needs_text(numbers[columns[target]]):  # integer labels past 2**53, read exactly
        again.add(columns[target])
    # integer group ids past 2**53 too: as floats, neighbouring ids would become one group
    exact_groups = groups is not None and _needs_text(numbers[columns[groups]])
    if exact_groups:
        again.add(columns[groups])
    strings = _cells_again(texts, again)
    del texts
    try:
        y = _column(numbers, strings, columns.pop(target), numeric_labels=True)
    except ValueError as error:
        raise source.error(key + ("target",), f"the CSV file {str(path)!r}: {error}") from None
    if y.dtype == object:  # text labels: a cell pandas reads as missing is no class
        missing = _missing_text(y)
        if missing:
            raise source.error(
                key + ("target",),
                _missing_labels(path, target, missing, f"{shown(y[missing[0]])}; "),
            )
    try:
        group_values = None
        if groups is not None:
            group_values = _column(
                numbers, strings, columns.pop(groups), numeric_labels=exact_groups
            )
    except ValueError as error:
        raise source.error(key + ("groups",), f"the CSV file {str(path)!r}: {error}") from None
    if group_values is not None:  # a row without a group cannot be kept apart from any
        if group_values.dtype == object:
            missing = _missing_text(group_values)
            cell = f"{shown(group_values[missing[0]])}; " if missing else ""
        else:
            missing, cell = np.flatnonzero(np.isnan(group_values)).tolist(), "read as NaN; "
        if missing:
            raise source.error(
                key + ("groups",), _missing_labels(path, groups, missing, cell, "groups")
            )
    if not columns:
        raise source.error(
            key + ("path",),
            f"the CSV file {str(path)!r} has no feature column besides its target column "
            f"{shown(target)}{'' if groups is None else f' and groups column {shown(groups)}'}; "
            "give the features as the file's other columns.",
        )
    features = {name: _column(numbers, strings, i) for name, i in columns.items()}
    text = [name for name, values in features.items() if values.dtype == object]
    try:
        import pandas as pd
    except ImportError:
        if text:
            raise source.error(
                key + ("path",),
                f"the columns {text} of {str(path)!r} are not numeric; reading them needs "
                "pandas (pip install pandas), and a preprocessing step that encodes them.",
            ) from None
        X = np.column_stack(list(features.values()))
    else:
        X = pd.DataFrame(features)
    return X, y, group_values


def _missing_text(values):
    """The rows of text cells that pandas.read_csv reads as missing, or blank."""
    return [i for i, value in enumerate(values) if value in _NA_VALUES or not value.strip()]


def _missing_labels(path, column, missing, cell, kind="target"):
    """What a run says of the missing cells of its target or groups column (``kind``), at the
    data rows ``missing`` (0-based), the first of which ``cell`` shows."""
    label, rows, fix = "label", "", "remove those rows"
    if kind == "groups":
        label, fix = "group", "give those rows their group or remove them"
        listed = ", ".join(str(i + 1) for i in missing[:10])
        rows = f"; data rows {listed}{', ...' if len(missing) > 10 else ''}"
    return (
        f"the CSV file {str(path)!r} has {len(missing)} missing {label}(s) in its {kind} "
        f"column {shown(column)} (first on data row {missing[0] + 1}: {cell}an empty or blank "
        f"cell, or one pandas.read_csv reads as missing, is missing{rows}); every row needs a "
        f"{label}: {fix}."
    )


# a line as TextIOWrapper(newline="") reads it: up to "\r\n", "\r" or "\n", or the end
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")


def _cells_again(texts, columns):
    """``{column: its cells}``, read again from the rows' texts by a reader fed the same lines."""
    if not columns:
        return {}
    cells = {i: [] for i in columns}
    for row in csv.reader(line for text in texts for line in _LINE.findall(text)):
        for i, values in cells.items():
            values.append(row[i])
    return cells


def _needs_text(numbers):
    """Whether integer labels read as the floats ``numbers`` need their text: past 2**53."""
    return (
        numbers is not None
        and np.all(np.isfinite(numbers))
        and np.all(np.mod(numbers, 1) == 0)
        and not np.all(np.abs(numbers) < 2**53)
    )


def _column(numbers, strings, i, numeric_labels=False):
    """Column ``i``: its numbers, else its strings as objects; integer labels as int64."""
    values = numbers[i]
    if values is not None:
        if numeric_labels and np.all(np.isfinite(values)) and np.all(np.mod(values, 1) == 0):
            return _integer_labels(strings.get(i), values)
        return values
    return np.array(strings[i], dtype=object)


def _integer_labels(values, array):
    """Labels written as integers (``array``: as floats) as int64, each the integer written:
    a float holds every integer below 2**53 exactly, past it an integer is read from its
    text; past int64 as floats, unless two labels would become one float (refused)."""
    if np.all(np.abs(array) < 2**53):
        return array.astype(np.int64)
    try:
        exact = [Decimal(value.strip().replace("_", "")) for value in values]
    except InvalidOperation:  # pragma: no cover - float() read it, so Decimal does
        exact = None
    if exact is not None and all(
        e == e.to_integral_value() and -(2**63) <= e < 2**63 for e in exact
    ):
        return np.array([int(e) for e in exact], dtype=np.int64)
    by_float = {}
    for value, number in zip(exact or [], array.tolist()):
        by_float.setdefault(number, set()).add(value)
    same = next((sorted(v) for v in by_float.values() if len(v) > 1), None)
    if same is not None:
        raise ValueError(
            f"its labels {same[0]} and {same[1]} are past int64 and would become one float "
            f"({same[0]:.17g}; past 2**53 a float does not hold every integer); write the "
            "labels as text (e.g. 'class_1'), or as integers within int64."
        )
    return array


def tu_folder_problem(root, name):
    """Why the TU data set ``name`` cannot be read from ``root`` (neither ``raw/`` nor an
    archive), or None; a required file missing is named by ``work_copy`` and ``_tu_labels``."""
    folder = root / name
    raw = folder / "raw"
    if raw.is_dir() or _archive(folder, name) is not None:
        return None
    if os.path.lexists(raw):
        try:
            kind = file_kind(os.stat(raw).st_mode)
        except OSError:
            kind = "a link that leads nowhere"
        return (
            f"the TU data set folder {os.fspath(raw)!r} is not a folder: it is {kind}; it "
            f"holds the raw files, e.g. {os.fspath(raw / (name + '_A.txt'))!r}"
        )
    misplaced = _archive(root, name)
    if misplaced is not None:
        return (
            f"the TU data set folder {os.fspath(raw)!r} is missing, and the archive "
            f"{os.fspath(misplaced)!r} is not read: an archive goes in the data set's folder, "
            f"as {os.fspath(folder / misplaced.name)!r}; move it there"
        )
    return (
        f"the TU data set folder {os.fspath(raw)!r} is missing. The runner never downloads: get "
        f"{TU_URL}/{name}.zip, unzip it into {os.fspath(root)!r} so that "
        f"{os.fspath(raw / (name + '_A.txt'))!r} exists, or point [data] root (or "
        "SKLEARN_FAIR_DATA / --data-dir) at a folder that holds NAME/raw/ (or "
        "NAME/NAME.tar.xz)"
    )


def _archive(folder, name):
    """The archive ``folder/name.tar*`` that exists (links followed), or None."""
    for suffix in (".tar.xz", ".tar.gz", ".tar.bz2", ".tar"):
        if (folder / f"{name}{suffix}").exists():
            return folder / f"{name}{suffix}"
    return None


def tu_read_paths(root, name):
    """The paths (links not followed) that reading the TU data set ``name`` opens: its
    ``raw/`` folder and the raw files there, or its archive."""
    raw = root / name / "raw"
    if raw.is_dir():
        return [raw] + [path for path in raw.iterdir() if _RAW_FILE.match(path.name)]
    archive = _archive(root / name, name)
    return [path for path in (raw, archive) if path is not None and os.path.lexists(path)]


def _tar_member(member, name, path):
    # only regular files named raw/<NAME>_*.txt: never a link, a device or a path elsewhere;
    # one named as a file the reader reads that is not a regular file is refused
    parts = member.name.replace("\\", "/").split("/")
    named = (
        len(parts) >= 2
        and parts[-2] == "raw"
        and ".." not in parts
        and _RAW_FILE.match(parts[-1]) is not None
        and parts[-1].startswith(f"{name}_")
    )
    if named and not member.isfile() and parts[-1] in raw_names(name):
        raise TUFormatError(
            f"{path}: its entry {shown(member.name)} is {_entry_kind(member)}, not a regular file; "
            "a TU archive's raw files are regular files (a link in an archive is never "
            "followed)."
        )
    return named and member.isfile()


def _entry_kind(member):
    if member.issym() or member.islnk():
        kind = "a symbolic link" if member.issym() else "a hard link"
        return f"{kind} to {shown(member.linkname)}"
    if member.isdir():
        return "a folder"
    if member.ischr() or member.isblk():
        return "a device"
    return "a FIFO" if member.isfifo() else "of another kind"


class DataLimitError(ValueError):
    """A data file that asks for more than a limit (:class:`Limits`); the message is the
    limit's refusal, naming the file, the value, the limit and the flag that lifts it."""


_OPEN = {
    ".tar.xz": lzma.open,
    ".tar.gz": gzip.open,
    ".tar.bz2": bz2.open,
    ".tar": lambda file, mode: file,
}
# room for an entry's own headers (a long name, PAX records) past the data of the entry
# before it: a few hundred bytes in a real archive; tarfile reads them whole into memory
_HEADER_ROOM = 2**20


class _Unpacked(_Bounded):
    """The bytes an archive unpacks to, at most ``limits.tu_size`` and ``_HEADER_ROOM`` past
    ``end`` (the end of the last entry's data); a decompressor's error is a TUFormatError."""

    def __init__(self, file, path, limits):
        super().__init__(file, path, limits, "tu_size", "its size unpacked in bytes")
        self.end = 0

    def _read(self, view):
        try:
            return super()._read(view)
        except (OSError, EOFError, lzma.LZMAError, zlib.error) as error:
            raise TUFormatError(f"{self.where} cannot be unpacked: {error}.") from None

    def readinto(self, buffer):
        n = super().readinto(buffer)
        if self.count > self.end + _HEADER_ROOM:
            raise TUFormatError(
                f"{self.where} cannot be read: the header of its entry at byte {self.end} "
                f"is more than {_HEADER_ROOM} bytes long, which no TU archive needs."
            )
        return n


def _read_archive(path, name, limits, take=None):
    """``{file name: size}`` of the raw files of the TU archive ``path``, in one pass that
    stops at the first entry past ``limits`` (its entries, its unpacked bytes; an entry's
    size is counted from its header, before its data is unpacked); ``take(file, data)`` is
    called with each raw file's content, a file object, in the archive's order. Two entries
    of one raw file name (``raw/NAME_A.txt`` and ``decoy/raw/NAME_A.txt``) are refused: which
    one is the data cannot be told (the last one read was taken)."""
    files, entries, claimed = {}, {}, 0
    unpack = _OPEN[next(s for s in _OPEN if path.name.endswith(s))]
    with open_regular(path, path, _ARCHIVE, TUFormatError) as file, unpack(file, "rb") as packed:
        stream = _Unpacked(packed, path, limits)
        try:
            with tarfile.open(fileobj=stream, mode="r|") as archive:
                for count, member in enumerate(archive, start=1):
                    if count > limits.archive_entries:
                        what = "its number of entries"
                        refusal = limits.refusal("archive_entries", count, path, what, whole=False)
                        raise DataLimitError(refusal)
                    claimed += member.size  # unpacked to be read or skipped alike
                    if claimed > limits.tu_size:
                        entry = shown(member.name)
                        what = f"its size unpacked in bytes, counted up to its entry {entry},"
                        refusal = limits.refusal("tu_size", claimed, path, what, whole=False)
                        raise DataLimitError(refusal)
                    blocks = -(-member.size // tarfile.BLOCKSIZE)
                    stream.end = member.offset_data + blocks * tarfile.BLOCKSIZE
                    if _tar_member(member, name, path):
                        file = os.path.basename(member.name)
                        if file in entries:
                            raise TUFormatError(
                                f"{path} holds the raw file {file} twice, as its entries "
                                f"{shown(entries[file])} and {shown(member.name)}: which one "
                                "is the data cannot be told. A TU archive holds each raw file "
                                "once; remove the other entry."
                            )
                        entries[file] = member.name
                        files[file] = member.size
                        if take is not None:
                            take(file, archive.extractfile(member))
        except tarfile.TarError as error:
            raise TUFormatError(f"{path} cannot be read as a tar archive: {error}.") from None
    return files


def _folder_files(raw, name, limits):
    """``{file name: size}`` of the raw files in ``raw``: the required ones, within ``tu_size``."""
    files, read = {}, raw_names(name)
    for path in raw.iterdir():
        if _RAW_FILE.match(path.name):  # (another file, copied when it is regular, is left)
            size = raw_file_size(path, read=path.name in read)
            if size is not None:
                files[path.name] = size
    check_tu_files(name, raw, files)
    total = sum(files.values())
    if total > limits.tu_size:
        what = "the size of its raw files in bytes"
        raise DataLimitError(limits.refusal("tu_size", total, raw, what))
    return files


def _copy(data, path, copied, where, limits):
    """Copy ``data`` to ``path`` within ``limits.tu_size`` (``copied`` bytes before it): the
    bytes copied after it."""
    what = "the size of its raw files in bytes"
    bounded = _Bounded(data, where, limits, "tu_size", what, count=copied)
    with open(path, "wb") as out:
        shutil.copyfileobj(bounded, out, 2**20)
    return bounded.count


def _remove(path):
    if path.is_symlink():
        path.unlink()
    elif path.exists():
        shutil.rmtree(path)


@contextmanager
def work_copy(root, name, work_dir, limits=None):
    """Copy (or extract) ``root/name/raw`` afresh into ``work_dir/name/raw`` and hold the
    copy's lock while the caller reads it (``with work_copy(...) as folder``): PyTorch
    Geometric writes ``processed/`` beside ``raw/``, never in the user's data folder, which may
    be read-only or shared. Afresh each time: a copy kept while its sizes matched served a raw
    file edited in place, or the same data set of another ``root``, as the data. ``work_dir``
    may lie in a folder someone else prepared (a results folder, a cache being verified): a
    link there is refused, never written or deleted through. At most ``limits.tu_size`` bytes
    are read and written (:class:`DataLimitError` past it), an archive's entries counted from
    their headers in a pass that writes nothing, before the pass that copies."""
    limits = Limits() if limits is None else limits
    if work_dir.is_symlink():
        raise ExperimentConfigError(
            f"{work_dir}, where the working copies of TU data sets go, is a symbolic link; "
            "remove it."
        )
    work_dir.mkdir(parents=True, exist_ok=True)
    raw, archive = root / name / "raw", None
    with locked(work_dir / f".{name}.lock"):
        if raw.is_dir():
            files = _folder_files(raw, name, limits)
        else:
            archive = _archive(root / name, name)
            files = _read_archive(archive, name, limits)
            check_tu_files(name, raw, files, source=archive)
        _remove(work_dir / name)
        partial = work_dir / f".{name}.partial"
        _remove(partial)
        (partial / "raw").mkdir(parents=True)
        copied = [0]

        def take(file, data, where=archive or raw):
            copied[0] = _copy(data, partial / "raw" / file, copied[0], where, limits)

        if archive is None:
            for file in files:
                with open_regular(raw / file, raw / file, REGULAR_RAW_FILES) as data:
                    take(file, data)
        else:
            _read_archive(archive, name, limits, take)
        os.replace(partial, work_dir / name)
        yield work_dir


def load_data(config, dataset, work_dir, *, labels_only=False):
    """The :class:`Data` of ``dataset`` (one of ``config.datasets``); with ``labels_only``, of
    a TU data set only its labels (no torch, no copy): enough to count the fits."""
    data, key = dataset.data, dataset.key
    name = data["dataset"]
    limits = Limits() if config.limits is None else config.limits
    if name.startswith("sklearn:"):
        import sklearn.datasets

        loader = getattr(sklearn.datasets, f"load_{name[len('sklearn:') :]}")
        X, y = loader(return_X_y=True)
        return Data(X, y, None, f"{name} ({len(y)} samples)")
    if name == "csv":
        X, y, groups = load_csv(
            data["path"], data["target"], data.get("groups"), config.source, key, limits
        )
        if y.dtype.kind == "f" and np.isnan(y).any():  # numeric labels: read as NaN
            missing = np.flatnonzero(np.isnan(y)).tolist()
            message = _missing_labels(data["path"], data["target"], missing, "read as NaN; ")
            raise config.source.error(key + ("target",), message)
        return Data(X, y, groups, f"CSV {data['path'].name} ({len(y)} rows)")
    tu_name = name[len("tu:") :]
    problem = tu_folder_problem(data["root"], tu_name)
    if problem is not None:
        raise config.source.error(key + ("root",), problem + ".")
    features, drop = data.get("features", "auto"), data.get("drop_degenerate", False)
    dropped = ", degenerate graphs dropped" if drop else ""
    if labels_only and not drop:
        try:  # a raw file missing (from the user's folder) or malformed, under root
            y, present = _tu_labels(data["root"], tu_name, limits)
        except (TUFormatError, DataLimitError) as error:
            raise config.source.error(key + ("root",), str(error)) from None
        _check_features(config, key, tu_name, features, present)
        return Data(np.zeros((len(y), 0)), y, None, f"{name} ({len(y)} graph labels)", False)
    root = None
    try:
        with work_copy(data["root"], tu_name, work_dir, limits) as root:
            if labels_only:  # the graphs' sizes decide which are dropped: every file is read
                files = read_tu_files(tu_name, root / tu_name / "raw", limits.tu_size)
                present = {
                    f"{tu_name}_{part}.txt"
                    for part in ("node_labels", "node_attributes")
                    if getattr(files, part) is not None
                }
                _check_features(config, key, tu_name, features, present)
                y = files.graph_labels[~files.degenerate()]
                description = f"{name} ({len(y)} graph labels{dropped})"
                return Data(np.zeros((len(y), 0)), y, None, description, False)
            try:  # torch is imported only for graph experiments
                from ...graph import load_tu_dataset
            except ImportError as error:  # its message says what to install
                raise config.source.error(
                    key + ("dataset",),
                    f"reading the graphs of {shown(name)} needs the 'graph' extra: "
                    f"{str(error).rstrip('.')}.",
                ) from None

            # load_tu_dataset parses raw/ itself and never reads a processed (pickled) file
            graphs = load_tu_dataset(
                tu_name,
                root,
                features=features,
                drop_degenerate=drop,
                max_size=limits.tu_size,
            )
    except ExperimentConfigError:
        raise  # the working copies' folder or lock (a link): said as it is
    except ValueError as error:  # a raw file's, under root as in the dry run, or the scheme's
        if root is None or isinstance(error, DataLimitError):  # in the copy
            raise config.source.error(key + ("root",), str(error)) from None
        if not isinstance(error, TUFormatError):
            raise config.source.error(key + ("features",), str(error)) from None
        # named in the user's folder, as the dry run names it, not in the working copy
        copy, own = (os.fspath(r / tu_name / "raw") for r in (root, data["root"]))
        raise config.source.error(key + ("root",), str(error).replace(copy, own)) from None
    y = np.asarray(graphs.y)
    return Data(graphs, y, None, f"{name} ({len(y)} graphs, features {features!r}{dropped})")


def _check_features(config, key, name, features, present):
    """Refuse, as load_tu_dataset does, a scheme built from node labels for a data set without
    them (``present``: its raw file names), when only its labels are read."""
    if features not in NODE_LABEL_SCHEMES or f"{name}_node_labels.txt" in present:
        return
    if uses_node_attributes(name, features) and f"{name}_node_attributes.txt" in present:
        return
    raise config.source.error(key + ("features",), no_node_features(name, features))


def _tu_labels(root, name, limits):
    """The graph labels of a TU data set (in ``raw/`` or the archive), one per graph, and the
    names of its raw files."""
    labels, raw = f"{name}_graph_labels.txt", root / name / "raw"
    if raw.is_dir():
        files = _folder_files(raw, name, limits)
        with open_regular(raw / labels, raw / labels, REGULAR_RAW_FILES) as file:
            text = file.read(limits.tu_size + 1)
    else:
        archive, read = _archive(root / name, name), {}

        def take(file, data):
            if file == labels:  # the others are skipped, never held
                read[file] = data.read()

        files = _read_archive(archive, name, limits, take)
        check_tu_files(name, raw, files, source=archive)
        text = read[labels]
    # the run's checked reader: a malformed file is refused with the run's message
    return read_tu_graph_labels(raw / labels, text), set(files)


def load_datasets(config, *, labels_only=False, problems=None):
    """Data set name -> :class:`Data`, one load per distinct table; with a dict ``problems``, a
    data set that cannot be read is left out and why is put there, else it raises."""
    loaded, by_table = {}, {}
    for name, dataset in config.datasets.items():
        same = repr(sorted((k, str(v)) for k, v in dataset.data.items()))
        if same not in by_table:
            try:
                by_table[same] = load_data(
                    config, dataset, work_dir(config), labels_only=labels_only
                )
            except ExperimentConfigError as error:
                if problems is None:
                    raise
                by_table[same] = error
        if isinstance(by_table[same], ExperimentConfigError):
            problems[name] = str(by_table[same])
        else:
            loaded[name] = by_table[same]
    return loaded


def cache_folder(config):
    """NestedCV's task cache of the run: ``cache_dir``, else ``<output_dir>/cache``."""
    return config.output_dir / "cache" if config.cache_dir is None else config.cache_dir


def work_dir(config):
    """Writable folder of the working copies of TU data sets."""
    return cache_folder(config) / "tu_data"
