"""Auditing a cache by recomputing a sample of its entries: what checks of shape cannot tell."""

import hashlib
import numbers
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ...utils._random import check_random_state_param, seed_root
from ...utils._validation import SEED_CONSTRAINTS
from ._cache import MAX_PREDICTIONS_ENTRY_BYTES, UNREAD, EntryCheck, TaskCache
from ._cache_key import entry_name
from ._planning import make_plan
from ._running import run_plan

__all__ = ["CacheAudit", "check_entries", "verify_cache"]

_MAX_LISTED = 100


@dataclass
class CacheAudit:
    """What :func:`verify_cache` found.

    Attributes
    ----------
    directory : pathlib.Path
        The cache folder.
    n_entries : int
        Entries of the run that were found and passed their checks.
    n_recomputed : int
        Of those, the sampled ones that were recomputed and compared.
    differences : list of dict
        Recomputed entries whose scores or predictions differ from the stored ones: ``path``,
        ``task`` (a description), ``fields`` (those that differ: ``"scores"``,
        ``"predictions"``, ``"train_scores"``, ``"test_predictions"``), ``stored`` and
        ``recomputed`` (scores, predictions).
    failures : list of dict
        Sampled entries whose recomputation failed (``path``, ``task``, ``error``): a stored
        score of a fit that fails now is not confirmed.
    rejected : list of tuple
        ``(path, reason)`` of the entries that failed their checks (they were recomputed, and
        are not counted in ``n_entries``).
    entry_names : frozenset of str
        The names of the entries found (their files' stems): several audits of one folder
        (the cells of a runner's configuration) can share an entry, counted in each.
    checks_only : bool
        Whether the entries were only checked (:func:`check_entries`), none recomputed.
    """

    directory: Path
    n_entries: int = 0
    n_recomputed: int = 0
    differences: list = field(default_factory=list)
    failures: list = field(default_factory=list)
    rejected: list = field(default_factory=list)
    entry_names: frozenset = field(default=frozenset(), repr=False, compare=False)
    checks_only: bool = field(default=False, repr=False, compare=False)

    @property
    def ok(self):
        """Whether entries were found, every recomputed one agreed and all passed their checks
        (a run that finds no entry of its own, written by other code or data, verifies nothing)."""
        return self.n_entries > 0 and not (self.differences or self.failures or self.rejected)

    def __str__(self):
        lines = [
            f"Cache {os.fspath(self.directory)!r}: {self.n_entries} entries found, "
            f"{self.n_recomputed} recomputed, {len(self.differences)} differ, "
            f"{len(self.failures)} could not be recomputed, {len(self.rejected)} failed their "
            "checks."
        ]
        if self.checks_only:
            lines = [
                f"Cache {os.fspath(self.directory)!r}: {self.n_entries} entries passed their "
                f"checks, {len(self.rejected)} failed them (checked, none recomputed)."
            ]
        elif not self.n_entries:
            lines.append(
                "  NOTHING VERIFIED: no entry of this run is in the folder (its keys cover the "
                "data, the parameters, the code and the versions: other code or data wrote it)."
            )
        for item in self.differences[:_MAX_LISTED]:
            lines.append(
                f"  DIFFERS {item['path']} ({item['task']}; {', '.join(item['fields'])}): "
                f"stored {item['stored']}, recomputed {item['recomputed']}"
            )
        for item in self.failures[:_MAX_LISTED]:
            lines.append(f"  FAILED {item['path']} ({item['task']}): {item['error']}")
        lines += [f"  REJECTED {path}: {reason}" for path, reason in self.rejected[:_MAX_LISTED]]
        return "\n".join(lines)


class _AuditCache(TaskCache):
    """A read-only view of a cache folder that withholds a sample of its valid entries."""

    def __init__(self, directory, sample, seed):
        self.directory = Path(os.fsdecode(directory))
        self._start_counts()
        self.writable = False
        self.sample, self.seed = sample, seed
        self.n_entries = 0
        # each entry once: tasks of equal parameters (a grid listing a value twice) share one
        self.seen = set()
        self.sampled = {}  # entry name -> (path, stored result, key of its first task)
        self.rejections = []
        self._rejected_paths = set()

    def _chosen(self, name):
        draw = hashlib.sha256(f"{self.seed}:{name}".encode()).digest()[:8]
        return int.from_bytes(draw, "big") / 2**64 < self.sample

    def load(self, name, description, key, check=None, predictions=False):
        result = super().load(name, description, key, check, predictions)
        if result is None:
            return None
        if name not in self.seen:
            self.seen.add(name)
            self.n_entries += 1
        if not self._chosen(name):
            return result
        self.hits -= 1
        self.sampled.setdefault(name, (self.path_for(name), result, key))
        return None  # recomputed by the run, and compared afterwards

    def _reject(self, path, reason):
        listed = os.fspath(path) in self._rejected_paths  # met again by a task that shares it
        if not listed and len(self.rejections) < 10 * _MAX_LISTED:
            self._rejected_paths.add(os.fspath(path))
            self.rejections.append((os.fspath(path), reason))
        return super()._reject(path, reason)


def _same_scores(stored, recomputed, rtol, atol):
    return set(stored) == set(recomputed) and all(
        np.isclose(value, recomputed[metric], rtol=rtol, atol=atol)
        for metric, value in stored.items()
    )


def _same_values(stored, recomputed, rtol, atol):
    """Kept predictions: numbers within the tolerances, labels equal."""
    if stored is None or recomputed is None:
        return stored is recomputed
    try:
        a, b = np.asarray(stored, dtype=float), np.asarray(recomputed, dtype=float)
    except (TypeError, ValueError):
        return stored == recomputed
    return a.shape == b.shape and bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True))


def _differing(stored, recomputed, rtol, atol):
    """The fields of an entry whose stored value the recomputation does not confirm: the
    scores, the predictions' fingerprint and, where the entry holds them, the train scores
    (``return_train_score``) and the kept test predictions (``keep_predictions``)."""
    fields = []
    if not _same_scores(stored["scores"], recomputed["scores"], rtol, atol):
        fields.append("scores")
    if stored["predictions"] != recomputed["predictions"]:
        fields.append("predictions")
    if "train_scores" in stored or "train_scores" in recomputed:
        train = stored.get("train_scores"), recomputed.get("train_scores")
        if None in train or not _same_scores(*train, rtol, atol):
            fields.append("train_scores")
    if "test_predictions" in stored or "test_predictions" in recomputed:
        kept = stored.get("test_predictions"), recomputed.get("test_predictions")
        if None in kept or set(kept[0]) != set(kept[1]):
            fields.append("test_predictions")
        elif not all(_same_values(kept[0][f], kept[1][f], rtol, atol) for f in kept[0]):
            fields.append("test_predictions")
    return fields


def _check_fraction(sample):
    if (
        isinstance(sample, bool)
        or not isinstance(sample, numbers.Real)
        or not 0 < float(sample) <= 1
    ):
        raise ValueError(
            "The 'sample' parameter of verify_cache must be a float in (0, 1], the fraction "
            f"of entries to recompute. Got {sample!r} instead."
        )
    return float(sample)


def verify_cache(
    estimator,
    X,
    y=None,
    *,
    groups=None,
    sample=0.1,
    random_state=None,
    rtol=1e-7,
    atol=1e-12,
    **params,
):
    """Recompute a random sample of a NestedCV's cache entries and report any that differ.

    A cache's entries are checked for their type and range before they are served, but a
    plausible forged score (or one written by other code under the same key) passes those
    checks. This re-runs the protocol of ``estimator`` on ``X, y`` over its ``cache_dir``:
    entries that are not sampled are served as in a resumed run; the sampled ones are
    recomputed (with their own seeds and rows) and compared with what is stored. Nothing is
    written to the cache. Tasks that have no entry are computed as the run needs them, and a
    final fit (``refit=True``) runs; neither is compared.

    Parameters
    ----------
    estimator : NestedCV
        With ``cache_dir`` set: the protocol whose entries are audited, with the parameters
        that wrote them (for a cell of ``benchmark(..., keep_predictions=True)``, set
        ``keep_predictions=True`` here too: the refits' entries are named by it, and those
        not found are computed, not compared).
    X, y, groups, **params
        The data and fit parameters, as given to :meth:`NestedCV.fit`.
    sample : float, default=0.1
        The fraction of entries to recompute, in (0, 1]: each entry is drawn independently
        with this probability (1.0 recomputes them all).
    random_state : int or None, default=None
        Seed of the draw; the same seed draws the same entries (each entry is drawn by its
        name, whatever order the run meets them in).
    rtol, atol : float
        Tolerances of the comparison of scores and of kept predictions (``keep_predictions``;
        the other predictions are compared by fingerprint).

    Returns
    -------
    audit : CacheAudit
        ``audit.ok`` is False when an entry differs, could not be recomputed or failed its
        checks; ``str(audit)`` lists them.

    Examples
    --------
    >>> import tempfile
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sklearn_fair import NestedCV
    >>> from sklearn_fair.model_selection import verify_cache
    >>> X, y = load_iris(return_X_y=True)
    >>> nested = NestedCV(DecisionTreeClassifier(), {"max_depth": [1, 2]}, outer_cv=3,
    ...                   inner_cv=2, n_refits=1, refit=False, random_state=0,
    ...                   cache_dir=tempfile.mkdtemp()).fit(X, y)
    >>> audit = verify_cache(nested, X, y, sample=1.0, random_state=0)
    >>> audit.ok, audit.n_entries, audit.n_recomputed  # 3 x 2 x 2 selection fits, 3 refits
    (True, 15, 15)
    """
    from ._estimator import NestedCV

    if not isinstance(estimator, NestedCV) or estimator.cache_dir is None:
        raise ValueError(
            "The 'estimator' parameter of verify_cache must be a NestedCV with a cache_dir. "
            f"Got {estimator!r} instead."
        )
    sample = _check_fraction(sample)
    check_random_state_param(random_state, "verify_cache", SEED_CONSTRAINTS)
    seed = seed_root(random_state)  # each entry is drawn from it by its name (_chosen)
    directory = Path(os.fsdecode(estimator.cache_dir))
    if not directory.is_dir():
        raise ValueError(
            "The 'cache_dir' of the estimator given to verify_cache must be an existing "
            f"folder. Got {os.fspath(directory)!r} instead."
        )
    estimator._validate_params()
    plan = make_plan(
        estimator,
        X,
        y,
        groups,
        params,
        final=bool(estimator.refit),
        return_estimator=False,
        owner="verify_cache",
        keep_predictions=estimator.keep_predictions,  # as the run did: its refits' entries
    )
    cache = _AuditCache(directory, sample, seed)
    plan.cache = cache
    schedule = run_plan(plan)
    audit = CacheAudit(
        directory,
        n_entries=cache.n_entries,
        rejected=list(cache.rejections),
        entry_names=frozenset(cache.seen),
    )
    for path, stored, key in cache.sampled.values():
        recomputed = schedule.results.get(key)
        if recomputed is None:  # pragma: no cover - every served task is completed
            continue
        audit.n_recomputed += 1
        task = key.describe()
        if recomputed["error"]:
            error = recomputed["error"].strip().splitlines()[-1]
            audit.failures.append({"path": os.fspath(path), "task": task, "error": error})
        elif fields := _differing(stored, recomputed, rtol, atol):
            audit.differences.append(
                {
                    "path": os.fspath(path),
                    "task": task,
                    "fields": fields,
                    "stored": {k: stored[k] for k in ("scores", "predictions")},
                    "recomputed": {k: recomputed[k] for k in ("scores", "predictions")},
                }
            )
    return audit


def check_entries(directory):
    """Check every entry of a cache folder as a run checks it before serving it, without the
    run: a regular file of bounded size, JSON of the entries' format, its checksum, its file
    name the digest of the key it records (an entry moved over another, or edited without its
    checksum, fails), and its fields (at least one score, each score and time a finite
    number, a time not negative, train scores of the same metrics; which metrics, and each
    score's range, are the run's scorers', which only the run knows). Nothing is recomputed:
    a plausible forged score under a recomputed checksum passes (see :func:`verify_cache`). In
    the :class:`CacheAudit`, ``n_entries`` counts the entries that passed; ``rejected`` lists
    the others. Entries are the JSON files in its subfolders of two characters, where a run
    looks for them; other files (a run's outputs beside its cache) are not read."""
    cache = _AuditCache(directory, 0.0, 0)
    for path in sorted(Path(os.fsdecode(directory)).glob("*/*.json")):
        name = path.stem
        if len(path.parent.name) != 2:  # no run looks there: not an entry
            continue
        if path.parent.name != name[:2]:  # a run looks for it elsewhere: it never reads it
            cache._reject(path, f"not in the folder its name belongs in ({name[:2]!r})")
            continue
        # the largest an entry may be, only to learn its key: load() checks it with its own cap
        entry = cache.read(name, MAX_PREDICTIONS_ENTRY_BYTES)
        if entry is UNREAD:
            continue  # rejected by read, with its reason
        description = entry.get("key") if isinstance(entry, dict) else None
        if not isinstance(description, dict) or entry_name(description) != name:
            cache._reject(path, "its name is not the digest of the key it records")
            continue
        # a run also checks each score against its scorer's range, which only the run knows
        cache.load(name, description, key=None, check=EntryCheck(), predictions=None)
    return CacheAudit(
        cache.directory,
        n_entries=cache.n_entries,
        rejected=cache.rejections,
        entry_names=frozenset(cache.seen),
        checks_only=True,
    )
