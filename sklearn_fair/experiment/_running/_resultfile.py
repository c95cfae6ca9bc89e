"""The runner's result files: written atomically with a checksum, read back only when sound.

A results folder may be shared, copied, edited or written by two runners at once. So every
file is written to a temporary file of its own (a unique name in the same folder) and
renamed over its target, which is atomic: a reader sees the old file or the new one, never
half of one. A JSON result carries the SHA-256 of its content (``checksum``), and what is
read back must be a regular file (not a FIFO, a device, a folder or a symbolic link; it is
checked before it is opened, and opened without following links and without blocking), no
larger than a cap, with a checksum that matches and scores of the right type and range for
their metric (an accuracy is in [0, 1]).

The checksum catches edits and damage, not a forger: whoever edits a file can recompute
it. The range checks catch impossible values; a plausible forged result under a valid
checksum is read back, as from any file one chooses to trust.
"""

import json
import math
import os
import stat
import uuid

from ...utils import digest

__all__ = [
    "checksum",
    "check_result",
    "read_result_file",
    "refuse_non_regular",
    "score_range",
    "with_checksum",
    "write_atomic",
    "write_json",
]

#: Largest result file read back (a result lists every fold's indices).
MAX_RESULT_BYTES = 256 * 2**20
_UNIT = (0.0, 1.0)
# printed scorer names -> the range of their scores (sklearn's sign: errors are negated)
_RANGES = {
    **dict.fromkeys(
        (
            "accuracy",
            "balanced_accuracy",
            "top_k_accuracy",
            "average_precision",
            "roc_auc",
            "roc_auc_ovr",
            "roc_auc_ovo",
            "roc_auc_ovr_weighted",
            "roc_auc_ovo_weighted",
            "f1",
            "f1_micro",
            "f1_macro",
            "f1_weighted",
            "f1_samples",
            "precision",
            "precision_micro",
            "precision_macro",
            "precision_weighted",
            "precision_samples",
            "recall",
            "recall_micro",
            "recall_macro",
            "recall_weighted",
            "recall_samples",
            "jaccard",
            "jaccard_micro",
            "jaccard_macro",
            "jaccard_weighted",
            "jaccard_samples",
            "ppv",
            "npv",
            "sensitivity",
            "specificity",
            "d2_absolute_error_score",
        ),
        _UNIT,
    ),
    **dict.fromkeys(("matthews_corrcoef", "kappa", "cohen_kappa", "ccc"), (-1.0, 1.0)),
    **dict.fromkeys(("r2", "explained_variance"), (-math.inf, 1.0)),
}


def score_range(scoring):
    """``(low, high)`` of the scores of scorer name ``scoring``; ``(-inf, inf)`` if unknown.

    ``neg_*`` scorers (negated errors and losses) are at most 0.
    """
    if not isinstance(scoring, str):
        return (-math.inf, math.inf)
    if scoring.startswith("neg_"):
        return (-math.inf, 0.0)
    return _RANGES.get(scoring, (-math.inf, math.inf))


def checksum(document):
    """``"sha256:<hex>"`` of ``document`` without its ``checksum`` field: the
    :func:`~sklearn_fair.utils.digest` of the rest (canonical JSON: sorted keys, no spaces,
    ASCII), as the cache's entries have it."""
    return digest({key: value for key, value in document.items() if key != "checksum"})


def with_checksum(document):
    """A copy of ``document`` (a dict) with its ``checksum``."""
    document = {key: value for key, value in document.items() if key != "checksum"}
    document["checksum"] = checksum(document)
    return document


def refuse_non_regular(path):
    """A reason if something that is not a regular file (or nothing) is at ``path``, else None.

    ``os.lstat``: a symbolic link is not followed, and a FIFO is never opened.
    """
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as error:
        return f"cannot be examined ({error})"
    if stat.S_ISREG(mode):
        return None
    kind = (
        "a symbolic link"
        if stat.S_ISLNK(mode)
        else "a folder"
        if stat.S_ISDIR(mode)
        else "a FIFO"
        if stat.S_ISFIFO(mode)
        else "a device or socket"
    )
    return f"is {kind}, not a regular file"


def write_atomic(path, write):
    """Call ``write(temporary_path)``, then rename the temporary file over ``path``.

    The temporary file has a unique name in ``path``'s folder (the same suffix, so writers
    that choose a format by suffix keep working), so concurrent writers never share one.
    Something other than a regular file at ``path`` is refused (ValueError), not replaced.
    """
    path = os.fspath(path)
    problem = refuse_non_regular(path)
    if problem is not None:
        raise ValueError(f"{path} {problem}; a result file was to be written there.")
    folder, name = os.path.split(path)
    stem, suffix = os.path.splitext(name)
    temporary = os.path.join(folder, f".{stem}.{uuid.uuid4().hex}.tmp{suffix}")
    try:
        write(temporary)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
    return path


def write_json(path, document):
    """Write ``document`` with its checksum, atomically (see :func:`write_atomic`)."""
    document = with_checksum(document)

    def write(temporary):
        with open(temporary, "w", encoding="utf-8") as file:
            json.dump(document, file, indent=1)
            file.flush()
            os.fsync(file.fileno())

    return write_atomic(path, write)


def read_result_file(path, max_bytes=MAX_RESULT_BYTES):
    """``(document, None)`` of a sound JSON result file, or ``(None, reason)``.

    ``(None, None)`` when there is no file. Sound: a regular file (checked with lstat before
    it is opened; opened with O_NOFOLLOW and O_NONBLOCK), at most ``max_bytes``, a JSON object
    whose ``checksum`` matches its content.
    """
    problem = refuse_non_regular(path)
    if problem is not None:
        return None, problem
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        descriptor = os.open(path, flags)
    except FileNotFoundError:
        return None, None
    except OSError as error:
        return None, f"cannot be opened ({error})"
    with os.fdopen(descriptor, "rb") as file:
        status = os.fstat(file.fileno())
        if not stat.S_ISREG(status.st_mode):
            return None, "is not a regular file"
        if status.st_size > max_bytes:
            return None, f"is larger than {max_bytes} bytes"
        data = file.read(max_bytes + 1)
    if len(data) > max_bytes:
        return None, f"is larger than {max_bytes} bytes"
    try:
        document = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError) as error:
        return None, f"is not valid JSON ({type(error).__name__})"
    if not isinstance(document, dict):
        return None, "is not a JSON object"
    stored = document.get("checksum")
    if not isinstance(stored, str):
        return None, "has no checksum"
    if stored != checksum(document):
        return None, "does not match its checksum (edited or damaged)"
    return document, None


def _finite(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _check_scores(scores, low, high, what):
    if not isinstance(scores, list) or not scores:
        return f"{what} is not a non-empty list of scores"
    for score in scores:
        if score is None or (isinstance(score, float) and score != score):
            continue  # a failed fit (error_score=nan)
        if not _finite(score):
            return f"{what} holds {score!r}, not a finite number"
        if not low <= score <= high:
            return f"{what} holds {score!r}, outside [{low}, {high}] for its metric"
    return None


def check_result(result, scorings):
    """A reason why ``result`` (a result dict) is not a sound result for ``scorings``, or None.

    ``scorings`` maps each metric key the run has to its scorer name (None: the estimator's
    default score, whose range is not known). Every field a report reads must be there, of its
    type; every score finite and within its metric's range.
    """
    if not isinstance(result, dict):
        return "the result is not a JSON object"
    for key in ("score_mean", "score_std", "optimism"):
        if key not in result:
            return f"the result has no {key!r}"
        if result[key] is not None and not isinstance(result[key], (int, float)):
            return f"{key!r} is {result[key]!r}, not a number"
        if isinstance(result[key], bool):
            return f"{key!r} is a boolean, not a number"
    metrics = result.get("metrics")
    if not isinstance(metrics, dict) or set(metrics) != set(scorings):
        return f"its metrics are not those of the run ({sorted(scorings)})"
    refit_metric = result.get("refit_metric")
    if refit_metric not in scorings:
        return f"its refit_metric {refit_metric!r} is not a metric of the run"
    folds = result.get("outer_results")
    if not isinstance(folds, list) or not folds:
        return "it has no outer_results"
    low, high = score_range(scorings[refit_metric])
    mean = result["score_mean"]
    if mean is not None and _finite(mean) and not low <= mean <= high:
        return f"score_mean is {mean!r}, outside [{low}, {high}] for its metric"
    if mean is not None and not _finite(mean) and not (isinstance(mean, float) and mean != mean):
        return f"score_mean is {mean!r}, not a finite number"
    for number, fold in enumerate(folds):
        if not isinstance(fold, dict):
            return f"outer fold {number} is not a JSON object"
        per_metric = fold.get("test_scores_per_metric")
        if not isinstance(per_metric, dict) or set(per_metric) != set(scorings):
            return f"outer fold {number} has not the test scores of every metric"
        for key, scores in per_metric.items():
            problem = _check_scores(
                scores, *score_range(scorings[key]), f"fold {number}'s {key} test scores"
            )
            if problem:
                return problem
        for key in ("train_indices", "test_indices"):
            indices = fold.get(key)
            if indices is not None and not (
                isinstance(indices, list)
                and all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in indices)
            ):
                return f"outer fold {number}'s {key} are not non-negative integers"
    return None
