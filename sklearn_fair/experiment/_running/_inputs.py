"""The files a run reads, kept apart from those it writes.

A results folder may be the experiment file's own folder (``output_dir = "."``), where the
data lie too: a data file named ``scores.csv`` there was overwritten by the run's
``scores.csv`` (the next run found no target column). Before the first fit, every output
of the run (each file of the results folder and the folders on the way, the record, the
task cache) is refused where it is an input (the experiment file, a CSV file, a TU data
set's raw folder or its files, a splits file) or lies inside one, and an input is refused
inside the task cache, which the run writes (and tidies) as it likes.
"""

import os
from pathlib import Path

from ...exceptions import ExperimentConfigError
from .._reading._data import cache_folder, tu_read_paths
from .._reading._text import neutral, shown

__all__ = ["check_backend", "check_outputs", "inputs_of", "refuse_overwriting_inputs"]


def check_backend(config, backend, dask_scheduler):
    """The joblib backend of the run (``backend``, else the file's); refuse a
    ``dask_scheduler`` that another backend would leave unused (the run's and the dry run's
    check)."""
    whose = "the file's" if backend is None else "the one asked for"
    backend = config.backend if backend is None else backend
    if dask_scheduler is not None and backend != "dask":
        raise ExperimentConfigError(
            f"dask_scheduler={shown(dask_scheduler)} (--dask-scheduler) is for the dask "
            f"backend, and the backend is {backend!r} ({whose}): ask for dask with "
            "backend='dask' (--backend dask), or leave the scheduler out."
        )
    return backend


def inputs_of(config):
    """``(path, key, what)`` of every file or folder the run reads, paths resolved: the
    experiment file (key None), each data set's CSV file or TU raw folder and files, each
    splits file."""
    inputs = [(Path(config.path).resolve(), None, "the experiment file")]
    for dataset in config.datasets.values():
        data, key = dataset.data, dataset.key
        if data["dataset"] == "csv":
            inputs.append((Path(data["path"]).resolve(), key + ("path",), "the CSV file"))
        elif data["dataset"].startswith("tu:"):
            for path in tu_read_paths(data["root"], data["dataset"][len("tu:") :]):
                what = "the TU data set's " + ("folder" if path.is_dir() else "file")
                inputs.append((Path(path).resolve(), key + ("root",), what))
        if dataset.splits:
            splits = dataset.splits
            inputs.append((Path(splits["path"]).resolve(), splits["key"], "the splits file"))
    return inputs


def _outputs(config, files):
    """``(path, name, key)`` of every path the run writes (``files``: the parts of the files
    of the results folder, its record included): the folder, the files and the folders on
    the way, and the task cache; ``key`` is the experiment file's key that places it."""
    root, places = Path(config.output_dir).resolve(), ("experiment", "output_dir")
    outputs = [(root, "the results folder", places)]
    for parts in files:
        for end in range(1, len(parts) + 1):
            outputs.append((root.joinpath(*parts[:end]), "/".join(parts[:end]), places))
    cache = Path(cache_folder(config)).resolve()
    key = places if config.cache_dir is None else ("experiment", "cache_dir")
    outputs.append((cache, "the task cache", key))
    return list({path: (path, name, key) for path, name, key in outputs}.values())


def _same(a, b):
    if os.path.normcase(os.fspath(a)) == os.path.normcase(os.fspath(b)):
        return True
    try:  # a case-blind disk, a hard link
        return os.path.samefile(a, b)
    except OSError:
        return False


def _inside(path, folder):
    return path != folder and path.is_relative_to(folder)


def check_outputs(config):
    """Refuse, before any fit (the run's and the dry run's), what is in the way of the files
    the run writes: an input among them, a link, a folder, a FIFO where a file goes, a folder
    its permissions (or a read-only file system) keep from being written. Nothing is written:
    a folder the file system refuses anyway (``/proc/x``) is found when the run makes its
    folders, still before the first fit, not by the dry run."""
    from ._manifest import MANIFEST
    from ._outputs import output_files
    from ._resultfile import RECORD, ResultsFolder

    # the default cache lies in the results folder: a link there would lead elsewhere
    files = (
        output_files(config)
        + [(RECORD,)]
        + ([("cache", MANIFEST)] if config.cache_dir is None else [])
    )
    refuse_overwriting_inputs(config, files)  # output_dir = "." beside a scores.csv of data
    folder = ResultsFolder(config.output_dir)
    folder.check(files)
    if config.cache_dir is not None:
        _check_cache_folder(config)
    return folder


def _check_cache_folder(config):
    """Refuse a ``cache_dir`` that the run cannot make or write: the nearest path of it that
    exists (links followed) must be a writable folder."""
    from ._resultfile import nearest_existing

    cache = Path(config.cache_dir)
    try:
        path, kind = nearest_existing(cache)
    except OSError as error:  # a folder on the way that cannot be searched
        unread = cache if error.filename is None else error.filename
        raise config.source.error(
            ("experiment", "cache_dir"),
            f"The cache folder {os.fspath(cache)} cannot be written: "
            f"{os.fspath(unread)} cannot be read ({error.strerror}).",
        ) from None
    where = "it" if path == cache else f"{os.fspath(path)}, on the way to it,"
    if kind != "a folder":
        problem = f"{where} is {kind}, not a folder"
    elif not os.access(path, os.W_OK | os.X_OK):
        problem = f"{where} is not writable (permissions, or a read-only file system)"
    else:
        return
    raise config.source.error(
        ("experiment", "cache_dir"),
        neutral(
            f"The cache folder {os.fspath(cache)} cannot be written: {problem}. Give cache_dir "
            "a folder the run can write, or move what is in the way."
        ),
    )


def refuse_overwriting_inputs(config, files):
    """Refuse, before any fit, an output of the run (``files``: the parts of the files of the
    results folder) that is an input, lies inside one, or holds one (the task cache)."""
    cache = Path(cache_folder(config)).resolve()
    for path, key, what in inputs_of(config):
        for output, name, places in _outputs(config, files):
            if _same(output, path):
                problem = f"the run would write {name} there"
            elif _inside(output, path):
                problem = f"the run would write {name} ({os.fspath(output)!r}) inside it"
            elif output == cache and _inside(path, cache):
                problem = (
                    f"it lies inside the task cache {os.fspath(cache)!r}, which the run writes"
                )
            else:
                continue
            message = (
                f"{what} {os.fspath(path)!r} is read by the run, and {problem}: it would be "
                "overwritten or mixed with the run's outputs. Give output_dir (or "
                "--output-dir) and cache_dir folders that hold no input, or rename the file."
            )
            if key is None:  # the experiment file itself: named at the output's key
                key = places
            raise config.source.error(key, neutral(message))
