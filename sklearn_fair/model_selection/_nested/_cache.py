"""A resumable cache of finished tasks: one JSON file per task, named by its key.

Invariants:

- An entry's file name is the SHA-256 of the task's key description (``_cache_key.py``):
  anything the result depends on changes the name, so a stale entry is never read.
- An entry holds scores, timings and a fingerprint of predictions, in JSON, never a pickle, so
  reading the cache never runs code. It stores its key description and a checksum, both checked
  on load: an entry copied over another one, or truncated, is recomputed.
- Entries are written atomically by the worker as soon as its task finishes (a ``.part`` file
  named after the writing process, then ``os.replace``): a killed run loses only its unfinished
  tasks. A later run removes the old ``.part`` files of processes that are gone, never through
  a subfolder that is a link.
- A file that is not a regular file (a symlink, a directory), is larger than its cap
  (``MAX_ENTRY_BYTES``; ``MAX_PREDICTIONS_ENTRY_BYTES`` for one that keeps test predictions) or
  nested too deeply is recomputed, never followed or read without bound. A result larger than
  its cap is not written (a load would refuse it): the run warns once that it is recomputed
  on every run.
- Entries are files from elsewhere (caches are committed, shared and copied, and whoever writes
  one can recompute its checksum): before an entry is served, every field the reader uses is
  checked (:class:`EntryCheck`: the run's metrics, each score a finite number within its
  scorer's range, the timings, the predictions' fingerprint); one that fails is recomputed,
  with one warning per run. A *plausible* forgery passes: only recomputing tells it
  (:func:`~sklearn_fair.model_selection.verify_cache`).
- A cache folder that cannot be written is refused before the first fit; a write that fails
  later (disk full) warns once and the run goes on reading entries without writing.
"""

import json
import math
import os
import re
import stat
import tempfile
import threading
import time
import warnings
from pathlib import Path

import numpy as np

from ...exceptions import CacheWarning
from ...utils import digest
from ...utils._stacklevel import external_stacklevel
from ._cache_key import FORMAT
from ._task_warnings import MAX_MESSAGE, warnings_problem
from ._tasks import kept_score_arrays

__all__ = ["EntryCheck", "TaskCache", "write_entry"]

MAX_ENTRY_BYTES = 1 << 20
# an entry that keeps a refit's test predictions holds one row per test row
MAX_PREDICTIONS_ENTRY_BYTES = 64 << 20
#: Seconds since its last write after which a ``.part`` file of a process that is not running
#: here is removed (a write takes milliseconds; the process may run on another host).
ORPHANED_PART_AGE = 600
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def _checksum(payload, description):
    return digest([payload, description]).removeprefix("sha256:")


def entry_path(directory, name):
    return Path(directory) / name[:2] / f"{name}.json"


UNREAD = object()  # what TaskCache.read returns for an entry it cannot read


class TaskCache:
    """The folder of a resumable cache, created if missing and checked writable before any fit;
    ``owner`` is named in errors."""

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
        self._start_counts()
        self.writable = True
        self._remove_orphaned_parts()

    def _start_counts(self):
        self.hits = self.rejected = self.unstored = 0
        self._first_rejected = None
        self._largest_unstored = (0, 0)  # (bytes, cap)
        self.write_failed = False

    def _remove_orphaned_parts(self):
        # a writer's process seen gone here may be alive in another container or on another
        # host sharing the folder (its own process ids): only a file of an old write is removed
        old = time.time() - ORPHANED_PART_AGE
        try:  # a subfolder that is a link (to a folder elsewhere) is never entered
            with os.scandir(self.directory) as found:
                folders = [Path(f.path) for f in found if f.is_dir(follow_symlinks=False)]
        except OSError:
            return  # left in place: a part file is never read
        for part in (part for folder in folders for part in folder.glob(".*.part")):
            pid = part.name.rsplit(".", 2)[-2].split("-")[0]
            if not (pid.isdigit() and not _process_exists(int(pid))):
                continue
            try:
                status = os.lstat(part)
                if stat.S_ISREG(status.st_mode) and status.st_mtime < old:  # not a folder, link
                    part.unlink(missing_ok=True)
            except OSError:
                pass  # left in place: a part file is never read

    def path_for(self, name):
        return entry_path(self.directory, name)

    def read(self, name, cap):
        """The parsed JSON of the entry named ``name``, read through no link and at most ``cap``
        bytes; :data:`UNREAD` if absent or unreadable (counted in :attr:`rejected`)."""
        path = self.path_for(name)
        try:
            folder = os.lstat(path.parent)
        except FileNotFoundError:
            return UNREAD
        except OSError as exc:
            return self._reject(path, f"its folder cannot be read ({exc})") or UNREAD
        if not stat.S_ISDIR(folder.st_mode):
            return self._reject(path, "its folder is a symbolic link or not a folder") or UNREAD
        try:
            # never follow a link nor wait on a FIFO; check what was opened, not the name
            handle = os.open(path, os.O_RDONLY | _NOFOLLOW | _NONBLOCK)
        except FileNotFoundError:
            return UNREAD
        except OSError as exc:
            reason = f"not a regular file, or cannot be read ({exc.strerror})"
            return self._reject(path, reason) or UNREAD
        try:
            info = os.fstat(handle)
            if not stat.S_ISREG(info.st_mode) or os.path.islink(path):
                return self._reject(path, "not a regular file (a symlink, a folder...)") or UNREAD
            if info.st_size > cap:
                return self._reject(path, f"larger than {cap} bytes") or UNREAD
            with os.fdopen(handle, "rb") as file:
                handle = None  # closed with the file
                text = file.read(cap + 1)
            entry = json.loads(text)
        except (OSError, ValueError, RecursionError) as exc:
            return self._reject(path, f"not JSON ({type(exc).__name__})") or UNREAD
        finally:
            if handle is not None:
                os.close(handle)
        return entry

    def load(self, name, description, key, check=None, predictions=False):
        """The stored result of the task named ``name``, or None if absent or invalid (counted in
        :attr:`rejected`); ``predictions``: whether the task records a fingerprint of them."""
        path = self.path_for(name)
        kept = description.get("test_predictions")
        entry = self.read(name, MAX_PREDICTIONS_ENTRY_BYTES if kept else MAX_ENTRY_BYTES)
        if entry is UNREAD:
            return None
        problem = _entry_problem(entry, description)
        metrics = description.get("metrics")  # a task scored with some of the run's scorers
        if problem is None and check is not None:
            problem = check.problem(entry["payload"], predictions, metrics)
        if problem is not None:
            return self._reject(path, problem)
        payload = entry["payload"]
        if "train_scores" in payload and check is not None:  # return_train_score
            train = {**payload, "scores": payload["train_scores"], "predictions": None}
            # of the same metrics as the test scores
            problem = check.problem(train, False, metrics or list(payload["scores"]))
            if problem is not None:
                return self._reject(path, f"train scores: {problem}")
        if kept:
            problem = _predictions_problem(payload.get("test_predictions"))
            if problem is not None:
                return self._reject(path, f"test predictions: {problem}")
        if "warnings" in payload:
            problem = warnings_problem(payload["warnings"])
            if problem is not None:
                return self._reject(path, problem)
        if "undefined_metrics" in payload:
            problem = _undefined_problem(payload["undefined_metrics"], payload["scores"])
            if problem is not None:
                return self._reject(path, problem)
        self.hits += 1
        result = {
            "key": key,
            "scores": {metric: float(v) for metric, v in payload["scores"].items()},
            "fit_time": float(payload["fit_time"]),
            "score_time": float(payload["score_time"]),
            "predictions": payload["predictions"],
            "error": None,
            "cached": True,
        }
        if "train_scores" in payload:
            result["train_scores"] = {m: float(v) for m, v in payload["train_scores"].items()}
        if kept:
            result["test_predictions"] = payload["test_predictions"]
        if "warnings" in payload:  # shown again, as when it was computed
            result["warnings"] = payload["warnings"]
        if "undefined_metrics" in payload:
            result["undefined_metrics"] = dict(payload["undefined_metrics"])
        return result

    def _reject(self, path, reason):
        self.rejected += 1
        # the first by name: entries are read in the scheduler's order, which follows timings
        if self._first_rejected is None or os.fspath(path) < os.fspath(self._first_rejected[0]):
            self._first_rejected = (path, reason)
        return None

    def warn_rejected(self):
        """Warn once for the entries that failed their checks (and were recomputed), and once
        for the results too large to be stored."""
        if self.unstored:
            size, cap = self._largest_unstored
            warnings.warn(
                f"{self.unstored} result{'s' if self.unstored > 1 else ''} of this run "
                f"{'were' if self.unstored > 1 else 'was'} not stored in the cache folder "
                f"{os.fspath(self.directory)!r}: larger than the {cap / (1 << 20):.3g} MiB an "
                f"entry may hold (the largest {size / (1 << 20):.3g} MiB), so computed again on "
                "every run. Test predictions kept for many rows are the usual cause "
                "(keep_predictions).",
                CacheWarning,
                stacklevel=external_stacklevel(),
            )
            self.unstored, self._largest_unstored = 0, (0, 0)
        if not self.rejected:
            return
        path, reason = self._first_rejected
        warnings.warn(
            f"{self.rejected} entr{'y' if self.rejected == 1 else 'ies'} of the cache folder "
            f"{os.fspath(self.directory)!r} failed their checks and "
            f"{'was' if self.rejected == 1 else 'were'} recomputed (the first by name: "
            f"{os.fspath(path)!r}, {reason}). A cache is a file from elsewhere: if you did not "
            "expect this, audit it with sklearn_fair.model_selection.verify_cache or "
            "'sklearn-fair cache verify'.",
            CacheWarning,
            stacklevel=external_stacklevel(),
        )
        self.rejected, self._first_rejected = 0, None

    def absorb_counts(self, other):
        """Take over the entries ``other`` (the cache of another plan of the same run, in the same
        folder) rejected or could not store, so that :meth:`warn_rejected` warns once for all."""
        self.rejected += other.rejected
        if other._first_rejected is not None:
            self._reject(*other._first_rejected)
            self.rejected -= 1  # counted above
        self.unstored += other.unstored
        self._largest_unstored = max(self._largest_unstored, other._largest_unstored)
        other.rejected, other._first_rejected = 0, None
        other.unstored, other._largest_unstored = 0, (0, 0)

    def note_unstored(self, size, cap):
        """Count a result of ``size`` bytes that was not written: larger than ``cap``."""
        self.unstored += 1
        self._largest_unstored = max(self._largest_unstored, (size, cap))

    def note_write_failure(self, error):
        """Warn once that an entry could not be written; the run writes no further entries."""
        if not self.write_failed:
            self.write_failed = True
            warnings.warn(
                f"Could not write to the cache folder {os.fspath(self.directory)!r} ({error}); "
                "the run goes on without writing the results of its remaining tasks (stored "
                "entries are still read).",
                CacheWarning,
                stacklevel=external_stacklevel(),
            )


_FIELDS = ("scores", "fit_time", "score_time", "predictions")
_SHA256 = re.compile(r"sha256:[0-9a-f]{64}")


def _entry_problem(entry, description):
    """Why ``entry`` is not an entry of the task described by ``description`` (None if it is)."""
    if not isinstance(entry, dict):
        return f"a JSON {type(entry).__name__}, not an entry"
    if entry.get("format") != FORMAT:
        return f"format {str(entry.get('format'))[:40]!r}, not {FORMAT!r}"
    if entry.get("key") != description:
        return "the key of another task"
    payload = entry.get("payload")
    if not isinstance(payload, dict):
        return "no payload"
    missing = [field for field in _FIELDS if field not in payload]
    if missing:
        return f"missing field {missing[0]!r}"
    if entry.get("checksum") != _checksum(payload, description):
        return "its checksum does not match"
    return None


def _number_problem(field, value, low=-math.inf, high=math.inf):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f"{field} is a {type(value).__name__}, not a number"
    if isinstance(value, int):
        try:
            value = float(value)
        except OverflowError:  # 10**400 in JSON: an int no float holds
            return f"{field} is an integer too large for a float"
    if not math.isfinite(value):
        return f"{field} is {value!r}, not finite"
    # scores are computed in floating point: allow for its rounding at the edges
    slack = 1e-9 * max(1.0, abs(value))
    if not low - slack <= value <= high + slack:
        return f"{field} is {value!r}, outside its range [{low}, {high}]"
    return None


_ANY = (-math.inf, math.inf)


def _may_return_a_dict(scorer):
    """Whether ``scorer`` is a callable of the user's (not a scikit-learn scorer, nor the
    estimator's own score), which may return a dict: a metric per key, known only from what
    it returned."""
    from sklearn.metrics._scorer import _BaseScorer, _PassthroughScorer

    return not isinstance(scorer, (_BaseScorer, _PassthroughScorer))


class EntryCheck:
    """What a valid payload of a run with ``scorers`` holds: its metrics, each in its range.
    Without ``scorers`` (an audit of a folder, without the run), any metrics, each a finite
    number."""

    def __init__(self, scorers=None):
        from ...metrics import score_range

        self.ranges, self.open = None, set()
        if scorers is None:
            return
        self.open = {name for name, scorer in scorers.items() if _may_return_a_dict(scorer)}
        if set(scorers) != {"score"} or not self.open:
            self.ranges = {name: score_range(scorer) for name, scorer in scorers.items()}

    def problem(self, payload, predictions, metrics=None):
        """Why ``payload`` cannot be served (None if it can); ``metrics``: the scorers its task
        scored with, when not all; ``predictions``: whether the task records a fingerprint of
        them (None: unknown)."""
        scores = payload["scores"]
        if not isinstance(scores, dict):
            return f"scores is a {type(scores).__name__}, not a table of metrics"
        if self.ranges is None:  # the metrics its key names, else its own, at least one
            if metrics is not None and not (
                isinstance(metrics, list) and all(isinstance(m, str) for m in metrics)
            ):
                return "its key's metrics are not a list of names"
            ranges = dict.fromkeys(scores if metrics is None else metrics, _ANY)
            if not ranges:
                return "scores is an empty table of metrics"
        else:
            named = list(self.ranges) if metrics is None else metrics
            ranges = {m: self.ranges[m] for m in named if m not in self.open}
            if len(ranges) < len(named):  # a search's callable: its dict's keys, whatever they are
                ranges.update(dict.fromkeys((k for k in scores if k not in ranges), _ANY))
        if set(scores) != set(ranges):
            return f"its metrics {sorted(map(str, scores))} are not {sorted(ranges)}"
        for metric, (low, high) in ranges.items():
            problem = _number_problem(f"the score {metric!r}", scores[metric], low, high)
            if problem:
                return problem
        for field in ("fit_time", "score_time"):
            problem = _number_problem(field, payload[field], 0.0)
            if problem:
                return problem
        stored = payload["predictions"]
        if stored is None:
            return None
        if predictions is False:
            return "predictions are recorded for a task that records none"
        if not isinstance(stored, str) or not _SHA256.fullmatch(stored):
            return "predictions are not a SHA-256 fingerprint"
        return None


def _predictions_problem(kept):
    """Why a stored entry's test predictions cannot be served (None if they can): the fields
    :func:`~._tasks.test_predictions` writes, one row per test row, finite scores."""
    if not isinstance(kept, dict) or set(kept) != {"predict", "proba", "decision", "classes"}:
        return "not the fields predict, proba, decision and classes"
    predict, classes = kept["predict"], kept["classes"]
    if not isinstance(predict, list) or not predict:
        return "predict is not a list of predictions"
    for field in ("proba", "decision"):
        values = kept[field]
        if values is None:
            continue
        try:
            labels = kept_score_arrays(values, classes)
        except ValueError as error:
            return f"{field} is {error}"
        for label, width in labels:
            try:
                array = np.asarray(label, dtype=float)
            except (TypeError, ValueError, OverflowError):  # 10**400 in JSON: no float holds it
                return f"{field} is not numbers"
            if array.ndim < 1 or array.shape[0] != len(predict) or not np.all(np.isfinite(array)):
                return f"{field} is not one finite row per prediction"
            if width is not None and array.shape[1:] != (width,):
                return f"{field} of a label is not one column per class of that label"
            if field == "proba" and (np.any(array < 0) or np.any(array > 1)):
                return "proba is not in [0, 1]"
    return None


def _undefined_problem(undefined, scores):
    """Why a stored entry's ``undefined_metrics`` cannot be served (None if it can): metric ->
    the message of the ``UndefinedMetricWarning`` of its score
    (:func:`~._scoring.score_model`), for metrics among its ``scores``."""
    tables = isinstance(undefined, dict) and isinstance(scores, dict)
    if not tables or not set(undefined) <= set(scores):
        return "undefined_metrics is not a table of its metrics"
    if not all(isinstance(text, str) and len(text) <= MAX_MESSAGE for text in undefined.values()):
        return f"undefined_metrics is not a message of at most {MAX_MESSAGE} characters a metric"
    return None


def _process_exists(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _all_finite(*tables):
    return all(math.isfinite(value) for table in tables if table for value in table.values())


def write_entry(directory, name, description, result):
    """Atomically store a successful task result (in the worker); returns an error text or None.

    A result larger than a load reads is not written: ``result["cache_unstored"]`` holds its
    size and the cap; nor one that JSON cannot hold (kept predictions of date labels), which
    the next run computes again."""
    if result.get("score_errors") or not _all_finite(result["scores"], result.get("train_scores")):
        # a scorer failed, or returned NaN (a load refuses what is not finite): retried next
        # time, as a failed fit is
        return None
    if description.get("test_predictions") and "test_predictions" not in result:
        return None  # predictions asked for could not be kept (it warned): a load refuses it
    payload = {field: result.get(field) for field in _FIELDS}
    payload.update(
        {
            k: result[k]
            for k in ("train_scores", "test_predictions", "warnings", "undefined_metrics")
            if k in result
        }
    )
    try:
        entry = {
            "format": FORMAT,
            "key": description,
            "checksum": _checksum(payload, description),
            "payload": payload,
        }
        text = json.dumps(entry)  # ASCII: as many bytes as characters
    except TypeError:
        try:
            json.dumps(payload.get("test_predictions"))
        except TypeError:
            return None  # kept predictions of labels JSON cannot hold (dates): recomputed
        raise
    cap = MAX_PREDICTIONS_ENTRY_BYTES if description.get("test_predictions") else MAX_ENTRY_BYTES
    if len(text) > cap:
        result["cache_unstored"] = (len(text), cap)
        return None
    path = entry_path(directory, name)
    temporary = path.parent / f".{name}.{os.getpid()}-{threading.get_ident()}.part"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if not stat.S_ISDIR(os.lstat(path.parent).st_mode):  # a link to a folder elsewhere
            return f"the cache's folder {os.fspath(path.parent)!r} is a symbolic link"
        # not fsynced (most of what a cold cache cost): an entry that a crash leaves empty or
        # torn fails its checksum or its JSON on load and is recomputed; json.dumps is the C
        # encoder, json.dump the pure-Python one (the same text)
        with open(temporary, "w") as file:
            file.write(text)
        os.replace(temporary, path)
    except OSError as exc:
        try:
            temporary.unlink(missing_ok=True)
        except OSError:
            pass
        return f"{type(exc).__name__}: {exc}"
    return None
