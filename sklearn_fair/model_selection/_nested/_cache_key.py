"""The key of a cached task: the SHA-256 of the canonical JSON of what its result depends on,
described by :func:`sklearn_fair.utils.describe` (the one place that decides it):

- the entries' format and the versions (:func:`sklearn_fair.utils.package_versions`, with
  :data:`LIBRARIES`; a library that code of the user's imports, by its version);
- the data (``X``, ``y``, fit and score parameters) by content, a DataFrame's or Series'
  index included, and the types of ``X`` and ``y`` (an np.matrix is not an ndarray);
- scikit-learn's global settings that change results (``transform_output``, metadata
  routing...), where they are not the defaults;
- the scorers and the estimator with the task's parameters and seeds, with the code of every
  class and function they use (the user's own modules by their source, so editing a
  ``helpers.py`` that a scorer or a ``fit`` calls recomputes);
- the task's phase and the rows it trains on, is scored on and early-stops on.

What cannot be described raises :class:`UnhashableError`; the run then warns and does not cache.

Keys are built in the process that runs NestedCV; a worker process that writes an entry first
checks that it has the estimator its key describes (:func:`check_in_worker`).
"""

import numpy as np
from sklearn import get_config

from ...utils import fingerprint
from ...utils._hashing import fingerprint_with_index
from ...utils._provenance import (
    Describer,
    UnhashableError,
    canonical_json,
    digest,
    package_versions,
    qualified_name,
)

__all__ = [
    "KeyBuilder",
    "UnhashableError",
    "check_in_worker",
    "entry_name",
    "sklearn_config",
    "task_names",
]

FORMAT = "sklearn-fair-task/3"
# Libraries sklearn-fair's own code computes with besides the core ones (its graph models are
# PyG's and skorch's code, its pipelines imbalanced-learn's): read from their metadata, so a
# process that never imports them keys as one that does.
LIBRARIES = ("pandas", "imbalanced-learn", "torch", "torch-geometric", "skorch")


class KeyBuilder:
    """Builds the key of every task of one run, describing the run's shared part once; raises
    UnhashableError when the data, the scorers or the fit parameters cannot be described."""

    def __init__(self, data, scorers, *, data_name=None):
        # data_name: what stands for X and y where they were not read (a dry run's count)
        self._describer = _RunDescriber()
        describe = self._describer.describe
        self.context = entry_name(
            {
                "format": FORMAT,
                "versions": package_versions(LIBRARIES),
                "X": fingerprint_with_index(data.X) if data_name is None else data_name,
                "y": fingerprint_with_index(data.y) if data_name is None else data_name,
                # an np.matrix fingerprints as its ndarray, a csr_array as its csr_matrix
                "types": (
                    [qualified_name(type(data.X)), qualified_name(type(data.y))]
                    if data_name is None
                    else data_name
                ),
                "fit_params": describe(data.fit_params),
                "score_params": describe(data.score_params),
                **(
                    {}
                    if data.selection_score_params is None
                    else {"selection_score_params": describe(data.selection_score_params)}
                ),
                "scorers": describe(scorers),
                **_sklearn_settings(),
            }
        )
        self._rows = {}
        self._data = data
        # (id of the estimator, canonical JSON of the task's parameters) -> (estimator, its
        # description configured with them): a candidate's tasks in every fold describe it once
        self._estimators = {}
        self._params_describer = Describer()  # its own, so as not to change the order in
        # which the run's Describer first meets code (a recursive class is described there)

    def _rows_digest(self, name):
        if name is None:
            return None
        if name not in self._rows:
            self._rows[name] = fingerprint(np.asarray(self._data.rows[name], dtype=np.int64))
        return self._rows[name]

    def _estimator(self, estimator, params):
        """The description of ``estimator`` configured with ``params``, remembered where it
        read nothing that a fit may change since (see :class:`_RunDescriber`)."""
        from ._candidates import configure

        try:
            memo = (id(estimator), canonical_json(self._params_describer.describe(params)))
        except UnhashableError:
            memo = None  # described below, where it raises as ever
        remembered = self._estimators.get(memo)
        if remembered is not None and remembered[0] is estimator:
            return remembered[1]
        self._describer.read_state = False
        description = self._describer.describe(configure(estimator, params))
        if memo is not None and not self._describer.read_state:
            self._estimators[memo] = (estimator, description)
        return description

    def key(self, task, estimator):
        """``(name, description)`` of a FitTask; raises UnhashableError for opaque parameters."""
        description = {
            "context": self.context,
            "phase": task.key.phase,
            "estimator": self._estimator(estimator, task.params),
            "train": self._rows_digest(task.train),
            "test": self._rows_digest(task.test),
            "val": self._rows_digest(task.val),
            "predictions": task.fingerprint_predictions,
        }
        if task.score_train is not None:  # train scores (return_train_score) are stored too
            description["score_train"] = self._rows_digest(task.score_train)
        if task.metrics is not None:  # a task scored with some of the run's scorers
            description["metrics"] = list(task.metrics)
        if task.keep_predictions:  # its entry holds its test predictions too
            description["test_predictions"] = True
        return entry_name(description), description


class _RunDescriber(Describer):
    """The Describer of a run's keys, noting in ``read_state`` whether a description read
    something as it is now (an object's state, a global or a closure a function reads: what a
    fit in this process may change between two tasks) or met code it had not described yet.
    One that did neither depends only on what ``configure`` remakes from the run's estimator
    and the task's parameters, and on code identities fixed for the run: the same for every
    task of those parameters."""

    def __init__(self):
        super().__init__()
        self.read_state = False

    def _describe_as_is(self, value, _seen, depth):
        self.read_state = True
        return super()._describe_as_is(value, _seen, depth)

    def code_identity(self, obj, _seen=frozenset(), _depth=0):
        remembered = self._code.get(id(obj))
        if remembered is None or remembered[0] is not obj:
            self.read_state = True
        return super().code_identity(obj, _seen, _depth)


# scikit-learn's global settings that change what estimators compute or return, with their
# defaults: a run under other values has them in its key (and keys under the defaults are the
# keys written before they were recorded)
_SKLEARN_DEFAULTS = {
    "array_api_dispatch": False,
    "enable_metadata_routing": False,
    "sparse_interface": "spmatrix",
    "transform_output": "default",
}


def _sklearn_settings():
    now = sklearn_config()
    changed = {name: value for name, value in now.items() if value != _SKLEARN_DEFAULTS[name]}
    return {"sklearn_config": changed} if changed else {}


def sklearn_config(*, defaults=False):
    """scikit-learn's global settings that change results (those of :data:`_SKLEARN_DEFAULTS`),
    name -> value now (the default where this scikit-learn has no such setting), or name ->
    default where ``defaults``."""
    config = {} if defaults else get_config()
    return {name: config.get(name, default) for name, default in _SKLEARN_DEFAULTS.items()}


def entry_name(description):
    """The file name of a description: its digest without the ``sha256:`` prefix."""
    return digest(description).removeprefix("sha256:")


def task_names(plan, refit_slots, *, data_name=None):
    """The cache entry names of ``plan``'s tasks, as its run names them (a dry run's count of
    the tasks several plans share): ``(selection, refits)``, the names of the selection tasks
    of every outer fold, and per ``(fold, seed index)`` of ``refit_slots`` the set of names of
    the refits of each candidate the fold may select. ``data_name`` stands for unread data.
    Raises UnhashableError where the run would not cache."""
    keys = KeyBuilder(plan.data, plan.scorers, data_name=data_name)
    selection = [
        keys.key(task, plan.estimator)[0]
        for fold in range(plan.n_outer)
        for task in plan.selection_tasks(fold)
    ]
    refits = [
        {
            keys.key(plan.refit_task(fold, {"best_params": dict(c)}, index), plan.estimator)[0]
            for c in plan.candidates
        }
        for fold, index in refit_slots
    ]
    return selection, refits


# the digests of the estimator descriptions this worker process has found its own (each is
# described here once, however many tasks share it)
_CHECKED = set()
_READS = {
    "globals": "the global",
    "attributes": "the class attribute",
    "read": "the attribute",
    "closure": "the variable",
}


def check_in_worker(task, estimator, description):
    """Raise ValueError if this worker process describes the estimator of ``task`` (a FitTask
    of ``estimator``) otherwise than its key's ``description`` says, built in the process
    that runs NestedCV: a worker imports the user's modules from their files, so a value a
    script set at run time (``helpers.SCALE = 0.3``) is in the key but not in the fit, whose
    entry would serve a later run another estimator's scores. Code that reached the worker
    by value, with the values it read, is not compared (``{"shipped": name}``), nor is data
    that the worker's own fits can change (``{"changed_by_use": type}``: a memo dict, a
    generator; :func:`~sklearn_fair.utils._provenance.changed_by_use`)."""
    expected = description["estimator"]
    checked = digest(expected)
    if checked in _CHECKED:
        return
    from ._candidates import configure

    try:
        found = Describer(skip_shipped=True).describe(configure(estimator, task.params))
    except UnhashableError as exc:
        difference = f"the worker cannot describe it ({exc})"
    else:
        first = _first_difference(expected, found)
        if first is None:
            if len(_CHECKED) >= 4096:
                _CHECKED.clear()
            _CHECKED.add(checked)
            return
        where, value, other = first
        difference = (
            f"{' > '.join(where) or 'the estimator'} is {_shown(value)} in the process that "
            f"runs NestedCV and {_shown(other)} in the worker"
        )
    raise ValueError(
        f"The {task.key.describe()} runs in a worker process whose estimator is not the one "
        f"its cache key describes: {difference}. A worker imports your modules from their "
        "files, so a value set at run time (a module global, a class attribute) does not "
        "reach it, and its result would be cached as that of the estimator you have. Set the "
        "value in the module's file, pass it as a parameter of the estimator, or run with "
        "n_jobs=1 (or cache_dir=None)."
    )


def _shown(part):
    text = canonical_json(part)
    return text if len(text) <= 80 else text[:77] + "..."


def _first_difference(expected, found, where=(), via=None):
    """``(where, expected part, found part)`` at the first difference of two descriptions,
    ``where`` naming the classes, functions and values read on the way to it; None where
    they agree, but for code the worker got by value."""
    if isinstance(found, dict) and set(found) == {"shipped"}:
        return None
    if isinstance(expected, dict) and isinstance(found, dict):
        names = (expected.get(k) for k in ("class", "function", "module"))
        name = next((n for n in names if isinstance(n, str)), None)
        if name is not None and name not in where:
            where = (*where, name)
        if set(expected) != set(found):
            return where, expected, found
        for key in sorted(expected):
            if isinstance(found[key], dict) and set(found[key]) == {"changed_by_use"}:
                continue  # data the worker's own fits may have changed: not compared
            here = (*where, f"{_READS[via]} {key!r}") if via in _READS else where
            first = _first_difference(expected[key], found[key], here, key)
            if first is not None:
                return first
        return None
    if isinstance(expected, list) and isinstance(found, list) and len(expected) == len(found):
        for part, other in zip(expected, found):
            first = _first_difference(part, other, where)
            if first is not None:
                return first
        return None
    return None if expected == found else (where, expected, found)
