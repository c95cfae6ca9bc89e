"""The data sets an experiment file can name: scikit-learn's, CSV files and TU graphs."""

import csv
import os
import re
import shutil
import tarfile
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

import numpy as np

from ...exceptions import ExperimentConfigError
from ...utils._tu_format import TU_URL, TUFormatError, check_tu_files, read_tu_graph_labels
from ._text import shown

__all__ = ["SKLEARN_DATASETS", "cache_folder", "load_data", "load_datasets"]

SKLEARN_DATASETS = ("breast_cancer", "diabetes", "digits", "iris", "wine")
_RAW_FILE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]*\.txt$")


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


def _number(text):
    if text.strip() == "":
        return np.nan
    try:
        return float(text)
    except ValueError:
        return None


def _read_rows(path, source, key):
    """The rows of a CSV file; what the csv module or the decoder would raise, refused."""
    try:
        with open(path, newline="", encoding="utf-8") as file:
            return list(csv.reader(file))
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


def load_csv(path, target, groups, source, key=("data",)):
    """Features, target and groups of a CSV file with a header row: numeric columns as floats,
    the others as strings; the features a DataFrame (so that preprocessing can name columns),
    or without pandas a float array of numeric columns only."""
    rows = _read_rows(path, source, key)
    header = rows[0] if rows else []
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
    rows = rows[1:]
    for line, row in enumerate(rows, start=2):
        if len(row) != len(header):
            raise source.error(
                key + ("path",),
                f"line {line} of {str(path)!r} has {len(row)} cells; the header has {len(header)}.",
            )
    columns = {name: [row[i] for row in rows] for i, name in enumerate(header)}
    try:
        y = _column(columns.pop(target), numeric_labels=True)
    except ValueError as error:
        raise source.error(key + ("target",), f"the CSV file {str(path)!r}: {error}") from None
    group_values = None if groups is None else _column(columns.pop(groups))
    features = {name: _column(values) for name, values in columns.items()}
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
        X = np.column_stack(list(features.values())) if features else np.empty((len(y), 0))
    else:
        X = pd.DataFrame(features)
    return X, y, group_values


def _column(values, numeric_labels=False):
    numbers = [_number(value) for value in values]
    if all(number is not None for number in numbers):
        array = np.array(numbers, dtype=float)
        if numeric_labels and np.all(np.isfinite(array)) and np.all(np.mod(array, 1) == 0):
            return _integer_labels(values, array)
        return array
    return np.array(values, dtype=object)


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
    archive), or None; a required file missing is named by ``_raw_files``."""
    folder = root / name
    raw = folder / "raw"
    if raw.is_dir() or _archive(folder, name) is not None:
        return None
    return (
        f"the TU data set folder {os.fspath(raw)!r} is missing. The runner never downloads: get "
        f"{TU_URL}/{name}.zip, unzip it into {os.fspath(root)!r} so that "
        f"{os.fspath(raw / (name + '_A.txt'))!r} exists, or point [data] root (or "
        "SKLEARN_FAIR_DATA / --data-dir) at a folder that holds NAME/raw/"
    )


def _archive(folder, name):
    for suffix in (".tar.xz", ".tar.gz", ".tar.bz2", ".tar"):
        if (folder / f"{name}{suffix}").is_file():
            return folder / f"{name}{suffix}"
    return None


@contextmanager
def _locked(path):
    """An exclusive lock on ``path`` where the system has one, so parallel runs copy once; a
    link there is refused, not followed."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise ExperimentConfigError(
            f"{path} cannot be opened as the lock of a working copy ({exc.strerror}); if it is "
            "a symbolic link, remove it."
        ) from exc
    with os.fdopen(descriptor, "a") as handle:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - Windows
            yield
            return
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _tar_member(member, name):
    # only regular files named raw/<NAME>_*.txt: never a link, a device or a path elsewhere
    parts = member.name.replace("\\", "/").split("/")
    return (
        member.isfile()
        and len(parts) >= 2
        and parts[-2] == "raw"
        and ".." not in parts
        and _RAW_FILE.match(parts[-1]) is not None
        and parts[-1].startswith(f"{name}_")
    )


@contextmanager
def _raw_files(root, name):
    """``{file name: (size, open)}`` of the raw files, in ``root/name/raw`` or, without that
    folder, the archive; a required file missing raises TUMissingFileError naming it there
    (the user's folder, before any copy)."""
    raw = root / name / "raw"
    if raw.is_dir():
        paths = [p for p in raw.iterdir() if _RAW_FILE.match(p.name) and p.is_file()]
        files = {p.name: (p.stat().st_size, lambda p=p: open(p, "rb")) for p in paths}
        check_tu_files(name, raw, files)
        yield files
        return
    path = _archive(root / name, name)
    with tarfile.open(path) as archive:
        members = [m for m in archive.getmembers() if _tar_member(m, name)]
        files = {
            os.path.basename(m.name): (m.size, lambda m=m: archive.extractfile(m)) for m in members
        }
        check_tu_files(name, raw, files, source=path)
        yield files


def _remove(path):
    if path.is_symlink():
        path.unlink()
    elif path.exists():
        shutil.rmtree(path)


def _copied(folder):
    """``{file name: size}`` of a plain copy in ``folder/raw``, or None (links are not copies)."""
    raw = folder / "raw"
    if folder.is_symlink() or raw.is_symlink() or not raw.is_dir():
        return None
    files = list(raw.iterdir())
    if any(path.is_symlink() or not path.is_file() for path in files):
        return None
    return {path.name: path.stat().st_size for path in files}


def work_copy(root, name, work_dir):
    """Copy (or extract) ``root/name/raw`` into ``work_dir/name/raw`` once (again when a raw
    file's size differs): PyTorch Geometric writes ``processed/`` beside ``raw/``, never in
    the user's data folder, which may be read-only or shared. ``work_dir`` may lie in a
    folder someone else prepared (a results folder, a cache being verified): a link there is
    refused, never written or deleted through."""
    if work_dir.is_symlink():
        raise ExperimentConfigError(
            f"{work_dir}, where the working copies of TU data sets go, is a symbolic link; "
            "remove it."
        )
    work_dir.mkdir(parents=True, exist_ok=True)
    with _locked(work_dir / f".{name}.lock"), _raw_files(root, name) as files:
        if _copied(work_dir / name) != {file: size for file, (size, _) in files.items()}:
            _remove(work_dir / name)
            partial = work_dir / f".{name}.partial"
            _remove(partial)
            (partial / "raw").mkdir(parents=True)
            for file, (_, open_file) in files.items():
                with open_file() as data, open(partial / "raw" / file, "wb") as out:
                    shutil.copyfileobj(data, out)
            os.replace(partial, work_dir / name)
    return work_dir


def load_data(config, dataset, work_dir, *, labels_only=False):
    """The :class:`Data` of ``dataset`` (one of ``config.datasets``); with ``labels_only``, of
    a TU data set only its labels (no torch, no copy): enough to count the fits."""
    data, key = dataset.data, dataset.key
    name = data["dataset"]
    if name.startswith("sklearn:"):
        import sklearn.datasets

        loader = getattr(sklearn.datasets, f"load_{name[len('sklearn:') :]}")
        X, y = loader(return_X_y=True)
        return Data(X, y, None, f"{name} ({len(y)} samples)")
    if name == "csv":
        X, y, groups = load_csv(
            data["path"], data["target"], data.get("groups"), config.source, key
        )
        return Data(X, y, groups, f"CSV {data['path'].name} ({len(y)} rows)")
    tu_name = name[len("tu:") :]
    problem = tu_folder_problem(data["root"], tu_name)
    if problem is not None:
        raise config.source.error(key + ("root",), problem + ".")
    try:  # a raw file missing (from the user's folder) or malformed, under root in every mode
        if labels_only:
            y = _tu_labels(data["root"], tu_name)
            return Data(np.zeros((len(y), 0)), y, None, f"{name} ({len(y)} graph labels)", False)
        root = work_copy(data["root"], tu_name, work_dir)
    except TUFormatError as error:
        raise config.source.error(key + ("root",), str(error)) from None
    from ...graph import load_tu_dataset  # torch is imported only for graph experiments

    features = data.get("features", "auto")
    with _locked(work_dir / f".{tu_name}.lock"):
        try:
            # load_tu_dataset parses raw/ itself and never reads a processed (pickled) file
            graphs = load_tu_dataset(tu_name, root, features=features)
        except ValueError as error:  # a raw file's, under root as in the dry run, or the scheme's
            if not isinstance(error, TUFormatError):
                raise config.source.error(key + ("features",), str(error)) from None
            # named in the user's folder, as the dry run names it, not in the working copy
            copy, own = (os.fspath(r / tu_name / "raw") for r in (root, data["root"]))
            raise config.source.error(key + ("root",), str(error).replace(copy, own)) from None
    y = np.asarray(graphs.y)
    return Data(graphs, y, None, f"{name} ({len(y)} graphs, features {features!r})")


def _tu_labels(root, name):
    """The graph labels of a TU data set (in ``raw/`` or the archive), one per graph."""
    labels = f"{name}_graph_labels.txt"
    with _raw_files(root, name) as files:
        with files[labels][1]() as file:
            # the run's checked reader: a malformed file is refused with the run's message
            return read_tu_graph_labels(root / name / "raw" / labels, file.read())


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
