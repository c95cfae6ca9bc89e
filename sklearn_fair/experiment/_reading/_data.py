"""The data sets an experiment file can name: scikit-learn's, CSV files and TU graphs."""

import csv
import os
import re
import shutil
import tarfile
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

__all__ = ["SKLEARN_DATASETS", "Data", "load_data", "tu_folder_problem", "work_dir"]

SKLEARN_DATASETS = ("breast_cancer", "diabetes", "digits", "iris", "wine")
#: Where the TU data sets can be downloaded by hand (the runner never downloads).
TU_URL = "https://www.chrsmrrs.com/graphkerneldatasets"
_RAW_FILE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]*\.txt$")


@dataclass
class Data:
    """An experiment's data: features, target, optional groups, and a one-line description."""

    X: object
    y: object
    groups: object
    description: str

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


def load_csv(path, target, groups, source):
    """Features, target and groups of a CSV file with a header row.

    Numeric columns are read as floats, the others as strings. The features are a pandas
    DataFrame (so preprocessing can name columns) when pandas is installed; without it,
    a float array, and only numeric features can be read.
    """
    with open(path, newline="", encoding="utf-8") as file:
        rows = list(csv.reader(file))
    header = rows[0] if rows else []
    for key, column in (("target", target), ("groups", groups)):
        if column is not None and column not in header:
            raise source.error(
                ("data", key),
                f"the CSV file {str(path)!r} has no column {column!r}; its columns are {header}.",
            )
    rows = rows[1:]
    for line, row in enumerate(rows, start=2):
        if len(row) != len(header):
            raise source.error(
                ("data", "path"),
                f"line {line} of {str(path)!r} has {len(row)} cells; the header has {len(header)}.",
            )
    columns = {name: [row[i] for row in rows] for i, name in enumerate(header)}
    y = _column(columns.pop(target), numeric_labels=True)
    group_values = None if groups is None else _column(columns.pop(groups))
    features = {name: _column(values) for name, values in columns.items()}
    text = [name for name, values in features.items() if values.dtype == object]
    try:
        import pandas as pd
    except ImportError:
        if text:
            raise source.error(
                ("data", "path"),
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
            return array.astype(np.int64)
        return array
    return np.array(values, dtype=object)


def tu_folder_problem(root, name):
    """Why the TU data set ``name`` cannot be read from ``root``, or None if it can."""
    folder = root / name
    raw = folder / "raw"
    if (raw / f"{name}_graph_indicator.txt").is_file() or _archive(folder, name) is not None:
        return None
    return (
        f"the TU data set folder {os.fspath(raw)!r} is missing (no "
        f"{name}_graph_indicator.txt there). The runner never downloads: get "
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
    """An exclusive lock on ``path`` where the system has one, so parallel runs copy once."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
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


def _raw_sources(root, name):
    """``{file name: size}`` of the raw files, read from the folder or the archive."""
    raw = root / name / "raw"
    if (raw / f"{name}_graph_indicator.txt").is_file():
        return {p.name: p.stat().st_size for p in raw.iterdir() if _RAW_FILE.match(p.name)}
    with tarfile.open(_archive(root / name, name)) as archive:
        return {
            os.path.basename(m.name): m.size for m in archive.getmembers() if _tar_member(m, name)
        }


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


def _copy_raw(root, name, target):
    raw = root / name / "raw"
    target.mkdir(parents=True)
    if (raw / f"{name}_graph_indicator.txt").is_file():
        for path in raw.iterdir():
            if _RAW_FILE.match(path.name) and path.is_file():
                shutil.copyfile(path, target / path.name)
        return
    with tarfile.open(_archive(root / name, name)) as archive:
        for member in archive.getmembers():
            if _tar_member(member, name):
                with (
                    archive.extractfile(member) as data,
                    open(target / os.path.basename(member.name), "wb") as out,
                ):
                    shutil.copyfileobj(data, out)


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
    """Copy (or extract) ``root/name/raw`` into ``work_dir/name/raw`` once, and return it.

    PyTorch Geometric writes ``processed/`` beside ``raw/``, so it never works in the user's
    data folder (which may be read-only or shared). The copy is redone when a raw file's
    size differs.
    """
    with _locked(work_dir / f".{name}.lock"):
        if _copied(work_dir / name) != _raw_sources(root, name):
            _remove(work_dir / name)
            partial = work_dir / f".{name}.partial"
            _remove(partial)
            _copy_raw(root, name, partial / "raw")
            os.replace(partial, work_dir / name)
    return work_dir


def load_data(config, work_dir):
    """The config's data set, checked, as :class:`Data`.

    Parameters
    ----------
    config : ExperimentConfig
        The checked experiment file.
    work_dir : pathlib.Path
        Writable folder for the working copy of TU data sets.

    Returns
    -------
    data : Data
    """
    data = config.data
    dataset = data["dataset"]
    if dataset.startswith("sklearn:"):
        import sklearn.datasets

        loader = getattr(sklearn.datasets, f"load_{dataset[len('sklearn:') :]}")
        X, y = loader(return_X_y=True)
        return Data(X, y, None, f"{dataset} ({len(y)} samples)")
    if dataset == "csv":
        X, y, groups = load_csv(data["path"], data["target"], data.get("groups"), config.source)
        return Data(X, y, groups, f"CSV {data['path'].name} ({len(y)} rows)")
    name = dataset[len("tu:") :]
    problem = tu_folder_problem(data["root"], name)
    if problem is not None:
        raise config.source.error(("data", "root"), problem + ".")
    from ...graph import load_tu_dataset  # torch is imported only for graph experiments

    root = work_copy(data["root"], name, work_dir)
    features = data.get("features", "auto")
    with _locked(work_dir / f".{name}.lock"):
        try:
            # load_tu_dataset parses raw/ itself and never reads a processed (pickled) file
            graphs = load_tu_dataset(name, root, features=features)
        except ValueError as error:
            raise config.source.error(("data", "features"), str(error)) from None
    y = np.asarray(graphs.y)
    return Data(graphs, y, None, f"{dataset} ({len(y)} graphs, features {features!r})")


def work_dir(config):
    """Writable folder of the working copies of TU data sets."""
    if config.cache_dir is not None:
        return config.cache_dir / "tu_data"
    return config.output_dir / "data"
