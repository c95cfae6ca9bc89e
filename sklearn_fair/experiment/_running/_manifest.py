"""Which experiment files wrote a cache folder: the record ``sklearn-fair cache verify`` reads.

A cache holds neither the code nor the data of its entries, and nothing in it may name code
to run: the record (``experiments.json``) holds each file's path, relative to the folder, and
the SHA-256 of its text; ``cache verify`` reads it as bounded JSON and accepts a file only if
its text still has that hash.
"""

import hashlib
import json
import os
from pathlib import Path

from ...exceptions import ExperimentConfigError
from ...model_selection._engine import read_json
from .._reading._paths import locked
from ._resultfile import _SHA256, ResultsFolder

__all__ = ["MANIFEST", "read_manifest", "record_experiment", "text_sha256"]

MANIFEST = "experiments.json"
LOCK = ".experiments.lock"
FORMAT = "sklearn-fair-cache-experiments/1"
_MAX_MANIFEST_BYTES = 1 << 20
_MAX_RECORDS = 1000


def text_sha256(text):
    """The SHA-256 of an experiment file's text, as the bounded reader read it (UTF-8)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def read_manifest(path):
    """The records of a manifest (bounded JSON), else ExperimentConfigError."""
    if Path(path).is_symlink():
        raise ExperimentConfigError(f"{os.fspath(path)} is a symbolic link; it is not read.")
    document = read_json(
        path, max_bytes=_MAX_MANIFEST_BYTES, max_depth=4, error=ExperimentConfigError
    )
    records = document.get("experiments") if isinstance(document, dict) else None
    if (
        records is None
        or document.get("format") != FORMAT
        or not isinstance(records, list)
        or len(records) > _MAX_RECORDS
        or not all(
            isinstance(r, dict)
            and isinstance(r.get("path"), str)
            and 0 < len(r["path"]) < 4096
            and "\0" not in r["path"]
            and isinstance(r.get("sha256"), str)
            and _SHA256.fullmatch(r["sha256"])
            for r in records
        )
    ):
        raise ExperimentConfigError(
            f"{os.fspath(path)} is not a record of experiments ({FORMAT!r}: a list of at most "
            f"{_MAX_RECORDS} paths with their SHA-256)."
        )
    return records


def record_experiment(cache_dir, experiment_path, text):
    """Record in ``cache_dir`` that ``experiment_path``, whose run read ``text``, writes to it,
    atomically (a record that cannot be read is replaced)."""
    cache_dir = Path(cache_dir)
    cache_dir.mkdir(parents=True, exist_ok=True)
    experiment_path = Path(experiment_path).resolve()
    relative = Path(os.path.relpath(experiment_path, cache_dir.resolve())).as_posix()
    manifest = cache_dir / MANIFEST
    # two runs sharing the cache read, add to and write the record in turn: neither's is lost
    with locked(cache_dir / LOCK, "the cache's record of experiments"):
        try:
            records = read_manifest(manifest) if manifest.exists() else []
        except (ValueError, OSError):
            records = []
        records = [r for r in records if r["path"] != relative]
        records.append({"path": relative, "sha256": text_sha256(text)})
        document = {"format": FORMAT, "experiments": records[-_MAX_RECORDS:]}
        ResultsFolder(cache_dir).write_text((MANIFEST,), json.dumps(document, indent=1))
