"""A resumable cache of finished tasks: one JSON file per task, keyed by content.

An entry's name is a SHA-256 of everything its result depends on: the data, the estimator
with the task's parameters (refit seeds included), the training and test indices, the scorers
and the fit and score parameters. Changing any of them changes the name, so a stale entry is
never read; everything else is reused. Entries hold scores and timings only, in JSON, written
atomically (a temporary file, then ``os.replace``) by the worker as soon as its task finishes,
and carry a checksum: a truncated or corrupt entry is detected and recomputed. Fitted models
are never stored, so reading the cache never unpickles anything.
"""

import hashlib
import json
import os
import tempfile
from pathlib import Path

import joblib
import numpy as np

from ..utils import is_graph_data
from ._seeding import configured

__all__ = ["TaskCache"]

_FORMAT = "sklearn-fair-task/1"


def _digest(*parts):
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def _hash_indices(indices):
    return "none" if indices is None else joblib.hash(np.asarray(indices, dtype=np.int64))


def _as_numpy(value):
    if hasattr(value, "detach"):  # a torch tensor, whose pickle differs between processes
        value = value.detach().cpu().numpy()
    if isinstance(value, np.ndarray):
        return np.ascontiguousarray(value)  # the same values hash the same in any layout
    return value


def _hash_data(data):
    """A hash of the data that is the same in every process.

    Graphs are hashed through their attributes as numpy arrays: ``joblib.hash`` of a torch
    tensor changes from one process to the next, which would make every cache entry of a
    graph data set unreadable after a restart.
    """
    if data is not None and is_graph_data(data):
        return joblib.hash(
            [
                {key: _as_numpy(value) for key, value in sorted(_graph_items(graph))}
                for graph in data
            ]
        )
    return joblib.hash(_as_numpy(data))


def _graph_items(graph):
    if hasattr(graph, "to_dict"):  # PyTorch Geometric Data
        return graph.to_dict().items()
    return vars(graph).items()


def _checksum(payload):
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


class TaskCache:
    """Content-addressed cache of task results in ``directory``.

    Parameters
    ----------
    directory : str or path-like
        Created if missing.
    X, y : the data
        Hashed once, here; every entry's name depends on it.
    scorers : dict
        Metric name -> scorer; part of every entry's name.
    fit_params, score_params : dict
        Part of every entry's name.
    """

    def __init__(self, directory, X, y, scorers, fit_params, score_params):
        self.directory = Path(directory)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ValueError(
                f"The 'cache_dir' parameter must be a writable directory. Got {directory!r}: {exc}"
            ) from exc
        self._context = joblib.hash(
            (
                _hash_data(X),
                _hash_data(y),
                sorted(scorers),
                list(scorers.values()),
                fit_params,
                score_params,
            )
        )
        self.hits = 0
        self.misses = 0

    def path_for(self, estimator, params, train, test, kind):
        """The entry file of one task (it may not exist yet)."""
        model = joblib.hash(configured(estimator, params))
        name = _digest(
            _FORMAT, self._context, kind, model, _hash_indices(train), _hash_indices(test)
        )
        return self.directory / name[:2] / f"{name}.json"

    def load(self, path, key):
        """Return the cached result for ``key`` at ``path``, or None if absent or invalid."""
        try:
            entry = json.loads(Path(path).read_text())
            payload = entry["payload"]
            valid = (
                entry.get("format") == _FORMAT
                and entry.get("checksum") == _checksum(payload)
                and isinstance(payload.get("scores"), dict)
            )
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            valid = False
        if not valid:
            self.misses += 1
            return None
        self.hits += 1
        return {
            "key": key,
            "scores": {name: float(v) for name, v in payload["scores"].items()},
            "fit_time": float(payload["fit_time"]),
            "score_time": float(payload["score_time"]),
            "error": None,
            "cached": True,
        }


def write_entry(path, result):
    """Atomically store a successful task result at ``path`` (called in the worker)."""
    payload = {
        "scores": result["scores"],
        "fit_time": result["fit_time"],
        "score_time": result["score_time"],
        "key": list(result["key"]),
    }
    entry = {"format": _FORMAT, "checksum": _checksum(payload), "payload": payload}
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".part")
    try:
        with os.fdopen(handle, "w") as file:
            json.dump(entry, file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
