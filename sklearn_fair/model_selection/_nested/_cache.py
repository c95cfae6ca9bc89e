"""A resumable cache of finished tasks: one JSON file per task, named by its key.

Invariants:

- An entry's file name is the SHA-256 of the task's key description (see ``_cache_key.py``, the
  one place that decides what a key covers). Anything the result depends on changes the name,
  so a stale entry is never read; everything else is reused.
- An entry holds scores, timings and a fingerprint of predictions, in JSON, never a pickle, so
  reading the cache never runs code. It stores its full key description and a checksum; on
  load, the description must equal the one asked for and the checksum must match, so an entry
  copied over another one, or truncated, is recomputed.
- Entries are written atomically by the worker as soon as its task finishes (a temporary
  ``.part`` file named after the writing process, then ``os.replace``): a killed run loses
  only its unfinished tasks. A later run removes the ``.part`` files of processes that are gone.
- A file that is not a regular file (a symlink, a directory), is larger than
  ``MAX_ENTRY_BYTES`` or nested too deeply is recomputed, never followed or read without bound.
- A cache folder that cannot be written is refused before the first fit; a write that fails
  later (disk full, folder removed) warns once and the run goes on without writing, still
  reading the entries that are there.
"""

import hashlib
import json
import os
import stat
import tempfile
import threading
import warnings
from pathlib import Path

from ...exceptions import CacheWarning
from ._cache_key import FORMAT

__all__ = ["TaskCache", "write_entry"]

MAX_ENTRY_BYTES = 1 << 20


def _checksum(payload, description):
    text = json.dumps([payload, description], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def entry_path(directory, name):
    return Path(directory) / name[:2] / f"{name}.json"


class TaskCache:
    """The folder of a resumable cache.

    Parameters
    ----------
    directory : str or path-like
        Created if missing; must be writable (checked here, before any fit).
    owner : str
        Who asked (named in errors).
    """

    def __init__(self, directory, owner):
        if isinstance(directory, (str, bytes)) and not directory:
            raise ValueError(
                f"The 'cache_dir' parameter of {owner} must be a folder path or None. Got '' "
                "instead."
            )
        self.directory = Path(os.fsdecode(directory))
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            handle, probe = tempfile.mkstemp(dir=self.directory, prefix=".write-check-")
            os.close(handle)
            os.unlink(probe)
        except OSError as exc:
            raise ValueError(
                f"The 'cache_dir' parameter of {owner} must be a writable folder. Got "
                f"{os.fspath(directory)!r}: {exc}"
            ) from exc
        self.hits = 0
        self.write_failed = False
        self._remove_orphaned_parts()

    def _remove_orphaned_parts(self):
        for part in self.directory.glob("*/.*.part"):
            pid = part.name.rsplit(".", 2)[-2].split("-")[0]
            if pid.isdigit() and not _process_exists(int(pid)):
                part.unlink(missing_ok=True)

    def path_for(self, name):
        return entry_path(self.directory, name)

    def load(self, name, description, key):
        """The stored result of the task named ``name``, or None if absent or invalid."""
        path = self.path_for(name)
        try:
            info = os.lstat(path)
            if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ENTRY_BYTES:
                return None
            with open(path, "rb") as file:
                entry = json.loads(file.read(MAX_ENTRY_BYTES + 1))
            payload = entry["payload"]
            valid = (
                entry.get("format") == FORMAT
                and entry.get("key") == description
                and entry.get("checksum") == _checksum(payload, description)
                and isinstance(payload.get("scores"), dict)
            )
            if not valid:
                return None
            result = {
                "key": key,
                "scores": {metric: float(v) for metric, v in payload["scores"].items()},
                "fit_time": float(payload["fit_time"]),
                "score_time": float(payload["score_time"]),
                "predictions": payload.get("predictions"),
                "error": None,
                "cached": True,
            }
            if "train_scores" in payload:  # return_train_score
                result["train_scores"] = {m: float(v) for m, v in payload["train_scores"].items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
            return None
        self.hits += 1
        return result

    def note_write_failure(self, error):
        """Warn once that an entry could not be written; the run writes no further entries."""
        if not self.write_failed:
            self.write_failed = True
            warnings.warn(
                f"Could not write to the cache folder {os.fspath(self.directory)!r} ({error}); "
                "the run goes on without writing the results of its remaining tasks (stored "
                "entries are still read).",
                CacheWarning,
                stacklevel=2,
            )


def _process_exists(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def write_entry(directory, name, description, result):
    """Atomically store a successful task result (in the worker); returns an error text or None."""
    if result.get("score_errors"):
        return None  # a scorer failed: retried next time, as a failed fit is
    payload = {
        "scores": result["scores"],
        "fit_time": result["fit_time"],
        "score_time": result["score_time"],
        "predictions": result.get("predictions"),
    }
    if "train_scores" in result:
        payload["train_scores"] = result["train_scores"]
    entry = {
        "format": FORMAT,
        "key": description,
        "checksum": _checksum(payload, description),
        "payload": payload,
    }
    path = entry_path(directory, name)
    temporary = path.parent / f".{name}.{os.getpid()}-{threading.get_ident()}.part"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(temporary, "w") as file:
            json.dump(entry, file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except OSError as exc:
        try:
            temporary.unlink(missing_ok=True)
        except OSError:
            pass
        return f"{type(exc).__name__}: {exc}"
    return None
