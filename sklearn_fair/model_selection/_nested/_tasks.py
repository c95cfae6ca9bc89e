"""The unit of work of a nested run: one fit and its scores.

Every task is independent and can run in any worker process. It receives the data through a
:class:`~._data.RunData` (shipped to each worker once, never per task), and returns plain scores
and timings, plus a fingerprint of its predictions for the refits (so NestedCV can tell whether
a seed changes anything) and a fitted model only when asked.
"""

import copy
import ctypes
import functools
import time
import traceback
import types
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp
from joblib import hash as joblib_hash
from sklearn.base import clone
from sklearn.model_selection import FixedThresholdClassifier, TunedThresholdClassifierCV

from ...exceptions import ReproducibilityWarning
from ...utils import fingerprint
from ._candidates import configure
from ._data import handed_out, is_pairwise
from ._inputs import takes_validation_weights, validation_weights_key
from ._reuse import fitted_prefixes
from ._scoring import score_model
from ._seeds import unseeded_randomness
from ._task_warnings import recorded_warnings
from ._timeout import FitTimeoutError, interrupt_not_caught, time_limit

__all__ = [
    "FINAL",
    "REFIT",
    "SEARCH",
    "SELECTION",
    "FitTask",
    "Phase",
    "SearchTask",
    "TaskBatch",
    "TaskKey",
    "in_task_order",
    "run_fit_task",
    "run_search_task",
]


class Phase(StrEnum):
    """What a task is, in the order of the dependencies between phases; every task has one.

    A ``StrEnum``: each phase equals, hashes and prints as its value (``"refit"``), so cache
    entries, ``failed_tasks_`` and messages read as before, and a key built with the string
    is the same key.
    """

    #: one candidate on one inner split of an outer training fold (or of all the data)
    SELECTION = "selection"
    #: a whole scikit-learn search, run inside one outer training fold (or all the data)
    SEARCH = "search"
    #: a fold's winner trained with one seed on the outer training fold, scored on its test fold
    REFIT = "refit"
    #: the winner trained on all the data
    FINAL = "final"


SELECTION, SEARCH, REFIT, FINAL = Phase


class TaskKey(NamedTuple):
    """The stable identity of a task.

    ``phase`` says what the task is (a :class:`Phase`). ``outer_fold`` is the int index of an
    outer fold, or None for the selection on all the data that precedes the final fit;
    ``candidate``, ``inner_split`` and ``refit`` are None where they do not apply.
    """

    phase: Phase
    outer_fold: object = None
    candidate: object = None
    inner_split: object = None
    refit: object = None

    def describe(self):
        """A short human-readable name, e.g. ``"outer fold 3, candidate 1, inner split 0"``."""
        parts = ["all the data" if self.outer_fold is None else f"outer fold {self.outer_fold}"]
        names = ("candidate", "inner split", "refit")
        parts += [f"{name} {value}" for name, value in zip(names, self[2:]) if value is not None]
        return f"{self.phase} fit ({', '.join(parts)})"

    def order(self):
        """Where the task comes in the run's own order, whatever the order in which the tasks
        finished: by outer fold (the selection on all the data and the final fit last), then
        phase, candidate, inner split and refit."""
        fold = self.outer_fold
        return (
            fold is None,
            -1 if fold is None else fold,
            list(Phase).index(self.phase),
            *(-1 if value is None else value for value in self[2:]),
        )


def in_task_order(results):
    """``results`` (each with its ``"key"``) in the order of their tasks (:meth:`TaskKey.order`):
    what a run reports (its failed fits, "the first error", its warnings) must not depend on
    the order in which the workers finished them."""
    return sorted(results, key=lambda result: TaskKey(*result["key"]).order())


@dataclass(frozen=True)
class FitTask:
    """One fit-and-score task, fully specified before it runs.

    ``params`` are all the parameters set on the clone, seeds included. ``train``, ``test`` and
    ``val`` name sets of rows of the run's data (``RunData.rows``), so a task stays small
    whatever the size of the data; ``test=None`` fits without scoring (the final model), and
    ``val`` names the rows given to ``fit`` as ``X_val``/``y_val`` for early stopping, or is
    None.
    """

    key: TaskKey
    params: dict
    train: tuple
    test: object = None
    val: object = None
    error_score: object = np.nan
    return_estimator: bool = False
    fingerprint_predictions: bool = False
    score_train: object = None  # rows the fitted model is also scored on (train scores)
    metrics: object = None  # keys of the run's scorers this task scores (None: every one)
    keep_predictions: bool = False  # return the model's predictions on the test rows
    # scores no one is given (nested_cross_val_predict's, for the seed probe alone): a scorer
    # that fails records an error, whatever error_score, and its warnings are not shown
    quiet_scores: bool = False


@dataclass(frozen=True)
class SearchTask:
    """A whole scikit-learn search fitted on ``train``: the inner selection of one fold.
    ``error_score``: the run's; with ``"raise"`` the search's own error propagates, as
    ``cross_validate(search, error_score="raise")`` raises it."""

    key: TaskKey
    search: object
    train: tuple
    error_score: object = np.nan
    # the metric of cv_results_ whose means are reported: "score" (one metric), else a key of
    # the search's scoring; None: none (a callable refit among metrics not the outer one)
    metric: object = "score"


@dataclass(frozen=True)
class TaskBatch:
    """Several short tasks sent to a worker in one round trip (``_batching.py``); ``entries``
    are their cache entries. Its ``key`` is its first task's, for messages."""

    tasks: tuple
    entries: tuple

    @property
    def key(self):
        return self.tasks[0].key


@dataclass(frozen=True)
class TaskContext:
    """What every task of a run shares: the estimator, scorers and limits; ``reuse``, a
    :class:`~._reuse.PrefixReuse` when fitted pipeline steps may be reused (or None)."""

    estimator: object
    scorers: dict
    fit_timeout: object = None
    reuse: object = None


def empty_result(key, error=None):
    """A task's result before it runs; with ``error``, that of a task that failed to run."""
    return {
        "key": key,
        "scores": {},
        "fit_time": 0.0,
        "score_time": 0.0,
        "error": error,
        "predictions": None,
    }


@contextmanager
def _recording(task, context):
    """How every task runs: yields its empty result and the clock's start, runs the body under
    ``fit_timeout``, and records an exception in the result (``error``, ``timed_out``, the time
    until it) instead of raising it, unless ``error_score="raise"``. A Ctrl-C that the fit
    caught raises KeyboardInterrupt (:func:`~._timeout.interrupt_not_caught`)."""
    result = empty_result(task.key)
    start = time.perf_counter()
    what = task.key.describe()
    try:
        with (
            interrupt_not_caught(what),
            recorded_warnings(result),
            time_limit(context.fit_timeout, what),
        ):
            yield result, start
    except Exception as exc:  # recorded, and turned into error_score by the caller
        if isinstance(task.error_score, str) and task.error_score == "raise":
            raise
        # a fit that succeeded keeps its time when scoring fails
        result["fit_time"] = result["fit_time"] or time.perf_counter() - start
        result["error"] = traceback.format_exc()
        result["timed_out"] = isinstance(exc, FitTimeoutError)


def _predictions_fingerprint(model, X):
    """A fingerprint of the output of ``model`` on ``X``: ``predict`` with the richest score
    it has (probabilities, else decision values), since a threshold that a seed moves
    (TunedThresholdClassifierCV's) changes the labels, not the probabilities; ``transform``
    where it has none of these. None where ``predict`` raises or nothing applies: the output
    is not known. Each method reads the rows of ``X`` as given (:func:`~._data.handed_out`)."""
    richer = [m for m in ("predict_proba", "decision_function") if hasattr(model, m)]
    has_predict = hasattr(model, "predict")
    n_calls = has_predict + len(richer) + (not has_predict and hasattr(model, "transform"))
    rows = handed_out(X, n_calls)
    outputs = {}
    if has_predict:
        try:
            outputs["predict"] = _comparable(model.predict(next(rows)))
        except Exception:
            return None
    for method in richer:
        try:
            outputs[method] = _comparable(getattr(model, method)(next(rows)))
            break
        except Exception:  # a method that exists but does not apply (e.g. SVC's proba)
            continue
    if not outputs and hasattr(model, "transform"):
        try:
            outputs["transform"] = _comparable(model.transform(next(rows)))
        except Exception:
            return None
    return fingerprint(outputs) if outputs else None


def _comparable(output):
    """``output`` as arrays that :func:`~sklearn_fair.utils.fingerprint` reads by content: a
    multi-output model's probabilities stay one array a label (their widths may differ)."""
    if isinstance(output, list):
        return [np.asarray(o) for o in output]
    return output if sp.issparse(output) else np.asarray(output)


def scores_deciding_the_class(model):
    """The methods whose output ``model``'s predict takes the class of (the highest
    probability, or decision value): none for a tuned or fixed threshold, which decides
    otherwise, and not one-vs-one decision values, whose columns are pairs of classes."""
    final = model
    while hasattr(final, "steps"):  # a pipeline predicts with its last step
        final = final.steps[-1][1]
    if isinstance(final, (FixedThresholdClassifier, TunedThresholdClassifierCV)):
        return ()
    if getattr(final, "decision_function_shape", None) == "ovo":
        return ("predict_proba",)
    return ("predict_proba", "decision_function")


def test_predictions(model, X):
    """What a refit predicted for its outer test rows, JSON-safe: ``predict``, and the richest
    score a display needs: ``proba`` (with ``classes``) or else ``decision``. A multi-output
    model's ``classes`` and probabilities are kept label by label (a list, one list a label),
    as scikit-learn gives them: their labels may have different numbers of classes."""
    richer = [
        (method, field)
        for method, field in (("predict_proba", "proba"), ("decision_function", "decision"))
        if hasattr(model, method)
    ]
    rows = handed_out(X, 1 + len(richer))  # each method on the rows as given
    predicted = listed_labels(model.predict(next(rows)))
    kept = {"predict": predicted, "proba": None, "decision": None}
    for method, field in richer:
        try:
            output = getattr(model, method)(next(rows))
        except Exception:  # a method that exists but does not apply (e.g. SVC's proba)
            continue
        kept[field] = _label_by_label(output, float)
        break
    classes = getattr(model, "classes_", None)
    kept["classes"] = None if classes is None else _label_by_label(classes)
    return kept


def _label_by_label(values, dtype=None):
    """``values`` as lists (:func:`listed_labels`): one list a label where they are a list of
    arrays (a multi-output model's), whose widths may differ."""
    if isinstance(values, (list, tuple)) and values and np.ndim(values[0]) >= 1:
        return [listed_labels(v, dtype) for v in values]
    return listed_labels(values, dtype)


def listed_labels(values, dtype=None):
    """``values`` as (nested) lists, as numpy's ``tolist`` gives them, a date kept a date.

    numpy lists a ``datetime64`` or ``timedelta64`` of a unit finer than microseconds (the
    ``ns`` of pandas' dates) as an int, which equals no label: each is listed instead as the
    ``datetime.datetime`` (``datetime.timedelta``) that numpy lists a microsecond one as, or
    where it is finer than that, as pandas' ``Timestamp`` (``Timedelta``) of it.
    """
    array = np.asarray(values, dtype=dtype)
    return array.tolist() if array.dtype.kind not in "mM" else _listed_times(array)


def _listed_times(array):
    """A ``datetime64`` or ``timedelta64`` ``array`` as lists of :func:`_time_value`."""
    return [_listed_times(a) for a in array] if array.ndim else _time_value(array[()])


def _time_value(value):
    """A numpy ``datetime64`` or ``timedelta64`` ``value`` as numpy lists it, or where numpy
    lists it as an int of its unit, as the value a microsecond one is listed as where it is a
    whole number of microseconds, else as pandas' ``Timestamp`` or ``Timedelta`` of it."""
    listed = value.item()
    if not isinstance(listed, int):
        return listed  # a date or time span (None for NaT)
    in_microseconds = value.astype(f"{value.dtype.kind}8[us]")
    if in_microseconds == value and not isinstance(in_microseconds.item(), int):
        return in_microseconds.item()
    import pandas as pd  # a dependency, imported only for a date finer than a microsecond

    return (pd.Timestamp if value.dtype.kind == "M" else pd.Timedelta)(value)


def per_label(classes):
    """Whether kept ``classes`` (:func:`test_predictions`) are a multi-output model's: one list
    a label."""
    return isinstance(classes, list) and bool(classes) and isinstance(classes[0], list)


def kept_score_arrays(values, classes):
    """A refit's kept ``proba`` or ``decision`` (:func:`test_predictions`, read back from a
    file) as ``(values, width)`` pairs to check, one row per test row each: a multi-output
    model's, kept label by label, one pair a label as wide as that label's ``classes``; else
    ``values`` itself, of any width (a ClassifierChain's are one column a label). Raises
    ValueError where a multi-output model's are not one array a label."""
    if (
        per_label(classes)
        and isinstance(values, list)
        and all(isinstance(v, list) and v and isinstance(v[0], list) for v in values)
    ):
        if len(values) != len(classes):
            raise ValueError("not one array a label")
        return list(zip(values, [len(c) for c in classes]))
    return [(values, None)]


def _keep_predictions(task, model, X_test, result):
    """Keep ``model``'s :func:`test_predictions` in ``result``: where they cannot be kept, warn
    and keep none, rather than fail a fit whose scores stand."""
    try:
        result["test_predictions"] = test_predictions(model, X_test)
    except Exception as exc:
        warnings.warn(
            f"The test predictions of the {task.key.describe()} could not be kept "
            f"({type(exc).__name__}: {exc}); its scores stand, but its outer fold has no kept "
            "predictions to report (keep_predictions).",
            UserWarning,
            stacklevel=2,
        )


def _scored_quietly(scorers, model, X, y, score_params, error_score):
    """:func:`~._scoring.score_model`'s ``(scores, errors)`` of scores that are not returned:
    neither a scorer that raises (whatever ``error_score``) nor one that returns no number
    raises, and their warnings are recorded apart and dropped."""
    try:
        with recorded_warnings({}):
            return score_model(scorers, model, X, y, score_params, np.nan)
    except Exception:
        return {}, dict.fromkeys(scorers, traceback.format_exc())


# the C state of an MT19937 (numpy/random/src/mt19937/mt19937.h): its key, 624 uint32, and its
# position, an int
_MT19937_STATE_BYTES = 624 * 4 + 4


def _global_random_state():
    """numpy's global random state, the one ``np.random.normal`` and a ``random_state=None``
    draw from, as bytes to compare: read through its bit generator's ctypes interface, since
    ``np.random.get_state`` copies it into Python objects (30 µs, a few percent of a short
    task, twice a task)."""
    get = getattr(np.random, "get_bit_generator", None)  # numpy >= 1.25
    generator = None if get is None else get()
    if type(generator) is np.random.MT19937:
        return ctypes.string_at(generator.ctypes.state_address, _MT19937_STATE_BYTES)
    # another bit generator (np.random.set_bit_generator), or an older numpy
    return joblib_hash(np.random.get_state(legacy=False))


# (model structure (_structure), its parameters' values) -> (whether the results of its fits
# depend on what they draw from numpy's global random state, as found in this process; the
# functions the key holds by identity, kept alive so that no other takes their id): a
# parameter can decide it (noise=0 draws without effect, noise=1 does not)
_GLOBAL_DRAWS_MATTER = {}


class _Unkeyable(Exception):
    pass


def _verdict_key(model, functions=None):
    """What a verdict of :func:`_warn_global_draws` holds for: the model's structure and its
    parameters' values but the seeds (the refits of one configuration share it); None where
    a value cannot be told apart from another (each fit is then checked). Functions
    (FunctionTransformer's ``func``) count by identity, and are appended to ``functions``."""
    functions = [] if functions is None else functions
    try:
        values = {
            name: _setting(value, functions)
            for name, value in model.get_params(deep=True).items()
            if name != "random_state" and not name.endswith("__random_state") and not _part(value)
        }
        return _structure(model), joblib_hash(values)
    except Exception:
        return None


def _part(value):
    """A step or a pipeline's list of steps: its own settings are among the others, and
    fitting changes it."""
    if isinstance(value, tuple) and len(value) in (2, 3) and isinstance(value[0], str):
        return _part(value[1])  # (name, step) or (name, step, columns)
    if isinstance(value, (list, tuple)) and value:
        return all(_part(item) for item in value)
    return hasattr(value, "get_params") or (isinstance(value, str) and value == "passthrough")


def _setting(value, functions):
    """``value``, a parameter's setting, as something hashed by its content: numbers,
    strings, arrays, lists and dicts of them, a ``functools.partial`` by its function and
    arguments; a function by its identity (two functions of one name, redefined in a
    notebook, are two), which clone keeps, and by what it reads (:func:`_function_state`);
    anything else (a bound method, whose object clone copies for each fit, any other object)
    cannot be told apart, and is not kept."""
    if value is None or isinstance(value, (bool, int, float, str, np.generic, np.ndarray)):
        return value
    if isinstance(value, (list, tuple)):
        return type(value).__name__, [_setting(item, functions) for item in value]
    if isinstance(value, dict):
        return "dict", sorted((repr(k), _setting(v, functions)) for k, v in value.items())
    if isinstance(value, functools.partial):  # clone copies it: keyed by what it holds
        parts = value.func, value.args, value.keywords
        return "partial", [_setting(part, functions) for part in parts]
    if isinstance(value, types.FunctionType):
        functions.append(value)  # clone keeps a function as it is: the same object each fit
        return "function", id(value), _setting(_function_state(value, functions), functions)
    if isinstance(value, types.BuiltinFunctionType):
        functions.append(value)
        return "function", id(value)
    if isinstance(value, types.ModuleType):
        return "module", value.__name__
    if isinstance(value, type):
        return "class", value.__module__, value.__qualname__, id(value)
    raise _Unkeyable(type(value).__name__)


#: Values a verdict's key reads by content (:func:`_function_state`); arrays and containers of
#: up to :data:`_BY_CONTENT` elements too, anything else by identity, so that a key costs
#: little whatever a function's globals hold (a 1 GiB array is not hashed at every fit).
_SCALARS = (bool, int, float, complex, str, bytes, type(None), np.generic)
_BY_CONTENT = 10_000


def _function_state(function, functions, seen=None):
    """What a function reads besides its arguments, which can change while it stays the same
    object (a global ``SCALE = 3`` set between two runs of a notebook): its defaults, the
    contents of its closure and the globals its code names, following the functions among
    them (a helper that reads ``NOISE``) and the plain attributes of the classes among them
    (``Config.noise``). Numbers, strings and small arrays and containers of them count by
    content; functions, classes and other objects by identity (appended to ``functions``,
    which keeps them alive): what a module's attribute (``config.NOISE``) or a large or
    other object holds is not read."""
    seen = set() if seen is None else seen
    seen.add(id(function))
    cells = []
    for cell in function.__closure__ or ():
        try:
            cells.append(cell.cell_contents)
        except ValueError:  # a cell not yet filled
            cells.append(None)
    named = function.__code__.co_names
    found = {name: function.__globals__[name] for name in named if name in function.__globals__}

    def reached(value, depth=0):
        if isinstance(value, _SCALARS):
            return value
        if isinstance(value, np.ndarray) and value.size <= _BY_CONTENT:
            return value
        if isinstance(value, list | tuple | dict) and len(value) <= _BY_CONTENT and depth < 3:
            items = value.items() if isinstance(value, dict) else enumerate(value)
            return type(value).__name__, [(repr(k), reached(v, depth + 1)) for k, v in items]
        if isinstance(value, types.ModuleType):
            return "module", value.__name__
        functions.append(value)  # by identity: kept alive, so that no other takes its id
        if id(value) in seen or len(seen) > 100:  # each followed once, and a few only
            return "object", id(value)
        if isinstance(value, types.FunctionType):
            return "function", id(value), _function_state(value, functions, seen)
        if isinstance(value, type):
            seen.add(id(value))
            plain = {k: v for k, v in vars(value).items() if isinstance(v, _SCALARS)}
            return "class", id(value), sorted(plain.items())
        return "object", id(value)

    return [
        reached(function.__defaults__),
        reached(function.__kwdefaults__),
        [reached(cell) for cell in cells],
        {name: reached(value) for name, value in found.items()},
    ]


def _warn_global_draws(context, task, model, fit_inputs):
    """Warn where ``model``, just fitted on ``fit_inputs()`` (``X``, ``y`` and fit params, taken
    afresh at each call: the fit may have written into its own), drew from numpy's global random
    state (it moved during the fit) and its results depend on it: no seed of the run reaches it,
    and with several workers the order in which the fits reach it changes from run to run.
    Whether they depend is found once per process for each structure of model and candidate,
    by fitting it again from the state its fit left, then restored: some draw without using
    what they draw (SVR draws a seed that only probability estimates, which it has none of,
    would use). The state is otherwise left as the fit left it: seeding it would change the
    results of the fits that do not draw from it."""
    if unseeded_randomness(model):
        return  # said before any fit, with the seed that reaches it (a TargetEncoder's cv)
    functions = []
    key = _verdict_key(model, functions)
    matters = None if key is None else _GLOBAL_DRAWS_MATTER.get(key, (None,))[0]
    if matters is None:
        after = np.random.get_state(legacy=False)  # with the cached gaussian of np.random
        try:
            again = configure(context.estimator, task.params)
            X, y, fit_params = fit_inputs()
            again.fit(X, y, **fit_params)
            first = _predictions_fingerprint(model, fit_inputs()[0])
            second = _predictions_fingerprint(again, fit_inputs()[0])
            matters = first is None or first != second
        except Exception:  # it fails where the first fit did not: the draws matter
            matters = True
        finally:
            np.random.set_state(after)
        if len(_GLOBAL_DRAWS_MATTER) >= 1000:
            _GLOBAL_DRAWS_MATTER.clear()
        if key is not None:
            _GLOBAL_DRAWS_MATTER[key] = matters, functions
    if not matters:
        return
    name = _described(model)
    who = type(model).__name__ if name == type(model).__name__ else "the part that draws"
    warnings.warn(
        f"The fit of {name} draws random numbers from numpy's global random state "
        "(np.random), which sklearn-fair cannot seed: its results change from run to run, "
        "whatever the random_state; np.random.seed before the run repeats them only with "
        "n_jobs=1 and no fit_timeout (with more workers the fits reach that state in an order "
        "that depends on how long they take, and each worker process, as fit_timeout's, has "
        f"its own). Give {who} a random_state "
        "parameter that its fit draws from "
        "(sklearn.utils.check_random_state(self.random_state)), which the run seeds.",
        ReproducibilityWarning,
        stacklevel=2,
    )


def _structure(model):
    """The classes ``model`` is made of, by parameter (by object: a class redefined in a
    notebook is another), ``model``'s own first."""
    try:
        params = model.get_params(deep=True)
    except Exception:
        params = {}
    return type(model), tuple(
        (name, type(value)) for name, value in params.items() if hasattr(value, "get_params")
    )


def _described(model):
    """``model``'s class, with those of its steps or of the estimator it wraps:
    ``Pipeline(StandardScaler, SVC)``, ``GridSearchCV(SVC)``."""
    steps = getattr(model, "steps", None)
    if isinstance(steps, list):
        parts = [s if isinstance(s, str) or s is None else type(s).__name__ for _, s in steps]
        return f"{type(model).__name__}({', '.join(map(str, parts))})"
    inner = getattr(model, "estimator", None)
    if hasattr(inner, "fit"):
        return f"{type(model).__name__}({_described(inner)})"
    return type(model).__name__


def run_fit_task(task, context, data):
    """Clone the estimator, set ``task.params``, fit and score: the fields of
    :func:`empty_result`, and the fitted ``estimator`` when asked (see :func:`_recording`)."""
    data = data.resolve()
    with _recording(task, context) as (result, start):
        model = configure(context.estimator, task.params)
        columns = task.train if is_pairwise(model) else None

        def fit_inputs():
            fit_params = data.fit_params_for(task.train)
            if task.val is not None:
                fit_params["X_val"], fit_params["y_val"] = data.subset(task.val, columns)
                key = validation_weights_key(model, fit_params)
                if key is not None and takes_validation_weights(model):
                    # the validation rows weighed as the training rows are
                    # (early_stopping_policy warns where the model cannot take them)
                    fit_params["sample_weight_val"] = data.fit_params_for(task.val)[key]
            return (*data.subset(task.train, columns), fit_params)

        X_train, y_train, fit_params = fit_inputs()
        rows = data.rows[task.train]
        global_state = _global_random_state()
        with fitted_prefixes(context.reuse, model, X_train, y_train, rows) as reuse:
            model.fit(X_train, y_train, **fit_params)
        result["fit_time"] = time.perf_counter() - start
        if _global_random_state() != global_state:
            _warn_global_draws(context, task, model, fit_inputs)
        result["steps_reused"] = reuse.served
        if task.test is not None:
            scorers = context.scorers
            if task.metrics is not None:
                scorers = {name: scorers[name] for name in task.metrics}
            start = time.perf_counter()
            X_test, y_test = data.subset(task.test, columns)
            selection = task.key.phase == SELECTION
            test_params = data.score_params_for(task.test, selection)
            if task.quiet_scores:
                result["scores"], result["score_errors"] = _scored_quietly(
                    scorers, model, X_test, y_test, test_params, task.error_score
                )
            else:
                # a refit's test scores that are values set by convention, not measured
                undefined = {} if task.key.phase == REFIT else None
                result["scores"], result["score_errors"] = score_model(
                    scorers, model, X_test, y_test, test_params, task.error_score, undefined
                )
                if undefined:
                    result["undefined_metrics"] = undefined
            if task.score_train is not None:
                X_train, y_train = data.subset(task.score_train, columns)
                result["train_scores"], errors = score_model(
                    scorers, model, X_train, y_train,
                    data.score_params_for(task.score_train, selection), task.error_score,
                )  # fmt: skip
                result["score_errors"].update({f"train_{k}": v for k, v in errors.items()})
            result["score_time"] = time.perf_counter() - start

            def test_rows():  # taken again: the scorers may have written into X_test
                return data.subset(task.test, columns)[0]

            if task.fingerprint_predictions:
                result["predictions"] = _predictions_fingerprint(model, test_rows())
            if task.keep_predictions:
                _keep_predictions(task, model, test_rows(), result)
    if result["error"] is not None:
        return result
    if task.return_estimator:
        # fitted steps served by the store are shared within the worker: the caller's own copy
        result["estimator"] = copy.deepcopy(model) if reuse.active else model
    return result


def run_search_task(task, context, data):
    """Fit a whole scikit-learn search (one that cannot be flattened) on ``task.train``: its
    ``best_params``, ``best_index``, ``best_score``, candidates and their mean validation
    scores, or an ``error`` (see :func:`_recording`)."""
    data = data.resolve()
    with _recording(task, context) as (result, start):
        search = clone(task.search)
        columns = task.train if is_pairwise(search) else None
        search.fit(*data.subset(task.train, columns), **data.search_fit_params_for(task.train))
    if result["error"] is not None:
        return result
    result["fit_time"] = time.perf_counter() - start
    refit = search.refit if isinstance(search.refit, str) else task.metric
    results = search.cv_results_
    result["best_params"] = search.best_params_
    result["best_index"] = int(search.best_index_)
    result["candidates"] = list(results["params"])
    # what it spent (the tuning budget): a halving search's rows repeat the candidates it keeps
    result["n_candidates"] = distinct_count(result["candidates"])
    result["n_fits"] = len(result["candidates"]) * (getattr(search, "n_splits_", 0) or 0)
    if f"mean_test_{refit}" not in results:  # a callable refit's rule, on no metric reported
        means = np.full(len(result["candidates"]), np.nan)
    else:
        means = np.asarray(results[f"mean_test_{refit}"], dtype=float)
    result["mean_scores"] = means.tolist()
    # not best_score_, which a search with a callable refit does not set
    result["best_score"] = result["mean_scores"][result["best_index"]]
    # each candidate's scores on the search's own splits, and its mean times, as it reports them
    split_keys = [f"split{k}_test_{refit}" for k in range(getattr(search, "n_splits_", 0) or 0)]
    if split_keys and all(key in results for key in split_keys):
        result["split_scores"] = np.column_stack(
            [np.asarray(results[key], dtype=float) for key in split_keys]
        ).tolist()
    for what in ("fit", "score"):
        result[f"mean_{what}_times"] = np.asarray(results[f"mean_{what}_time"], float).tolist()
    return result


def distinct_count(candidates):
    """How many different parameter dicts ``candidates`` holds (by value: joblib's hash, else
    the ``repr`` of what cannot be hashed)."""

    def identity(params):
        try:
            return joblib_hash(params)
        except Exception:  # a parameter pickle cannot take (a lambda)
            return repr(sorted(params.items(), key=lambda item: str(item[0])))

    return len({identity(params) for params in candidates})
