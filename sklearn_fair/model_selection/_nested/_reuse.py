"""A pipeline step fitted on the same rows with the same parameters is fitted once per worker
and reused by every candidate and refit that needs it (``reuse_prefix``).

A grid over the last step of a Pipeline (scikit-learn's or imbalanced-learn's) would otherwise
refit every earlier step for every candidate. Each fit of such a pipeline gets a ``memory`` of
its own (the hook of ``Pipeline(memory=...)``, so the pipeline's own code decides what each
step receives: routed parameters, ``passthrough``, samplers that change ``y``), which serves a
fitted step and its output from a least-recently-used store in the worker (:data:`MAX_BYTES`)
when all of these are the same:

- the run (a token per run: never across runs, hence never across data sets);
- the step's input: the rows the task trains on, or the output of an earlier step served by
  this store, and the same for ``y``;
- the step: its class, all its parameters and any fitted state it holds (a FrozenEstimator's
  model; a bound method by its object) (:func:`step_description`). Entries never leave
  their process, so a class or function is identified by the object itself (``id``, kept alive
  by the stored step): a class redefined in a notebook is another key, and no file is hashed;
- the pipeline function that fits it (``fit_transform`` or a sampler's ``fit_resample``).

A step is fitted afresh when its fit is not repeatable (a ``random_state`` left at None or given
as a RandomState or Generator; NestedCV seeds those left at None, so they are repeatable), when
fit parameters are routed to it or a weight applies, when its input came from elsewhere, and when
its parameters cannot be described. A step that draws random numbers without a ``random_state``
cannot be detected: pass ``reuse_prefix=False``. A step hands on a copy of the stored output, so
a later step that works in place cannot alter what other fits are served (a deep copy of records
such as a list of dicts; an output that cannot be copied so, such as a frame whose object column
holds dicts, is not stored); fitted steps are shared (only read once fitted), but a task that
returns its fitted estimator gets its own copy.
A step that a use changes (a ``transform`` that updates its state, which scikit-learn's contract
forbids) is found when it is served again, its state (:func:`_state`) no longer the one stored:
it is then fitted afresh wherever it is needed, with a ReproducibilityWarning; one whose state
has no checksum is never stored.
"""

import copy
import functools
import hashlib
import inspect
import json
import logging
import pickle
import random
import sys
import threading
import types
import uuid
import warnings
import zlib
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence, Set
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from ...exceptions import ReproducibilityWarning
from ...utils import fingerprint
from ...utils._provenance import estimator_settings, fitted_state
from ._cache_key import UnhashableError
from ._seeds import random_state_params

__all__ = [
    "MAX_BYTES",
    "PrefixReuse",
    "discard_run",
    "fitted_prefixes",
    "prefix_group",
    "step_description",
    "store_statistics",
]

#: The most bytes (estimated) of fitted steps and their outputs one worker process keeps.
MAX_BYTES = 256 * 2**20

_FUNCTIONS = {
    ("sklearn.pipeline", "_fit_transform_one_with_callbacks"),
    ("sklearn.pipeline", "_fit_transform_one"),
    ("imblearn.pipeline", "_fit_transform_one"),
    ("imblearn.pipeline", "_fit_resample_one"),
}


@dataclass(frozen=True)
class PrefixReuse:
    """What every task of a run carries to reuse fitted steps: the run's token and the limit."""

    token: str = field(default_factory=lambda: uuid.uuid4().hex)
    max_bytes: int = field(default_factory=lambda: MAX_BYTES)


class _Store:
    """The least-recently-used store of one process: key -> (outputs, fitted step, bytes, the
    step's state when stored (:func:`_state`)), or :data:`_REFUSED` (:meth:`refuse`)."""

    def __init__(self):
        self.entries = OrderedDict()
        self.tokens = {}  # key -> the run that stored it
        self.nbytes = 0
        self.lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key):
        with self.lock:
            entry = self.entries.get(key)
            if entry is not None:
                self.entries.move_to_end(key)
            if entry is not None and entry is not _REFUSED:
                self.hits += 1
            else:
                self.misses += 1
            return entry

    def put(self, key, entry, reuse):
        size = entry[2]
        with self.lock:
            if size > reuse.max_bytes or key in self.entries:
                return
            self.entries[key] = entry
            self.tokens[key] = reuse.token
            self.nbytes += size
            while self.nbytes > reuse.max_bytes:
                self._drop(next(iter(self.entries)))

    def refuse(self, key):
        """Keep the step of ``key`` no more (its state changed since it was stored): it is
        fitted afresh where it is needed."""
        with self.lock:
            if key in self.entries:
                self.nbytes -= self.entries[key][2]
                self.entries[key] = _REFUSED

    def _drop(self, key):
        size = self.entries.pop(key)[2]
        del self.tokens[key]
        self.nbytes -= size

    def discard(self, token):
        """Forget the entries of the run ``token`` (at the end of a run in the caller's process)."""
        with self.lock:
            for key in [k for k, t in self.tokens.items() if t == token]:
                self._drop(key)


_STORE = _Store()
# the entry of a step whose state changed since it was stored (:meth:`_Store.refuse`): it is
# fitted afresh wherever it is needed
_REFUSED = ((), None, 0, None)


def _reusable_pipeline(model):
    """Whether fits of ``model`` can be given the reusing memory: a scikit-learn or
    imbalanced-learn Pipeline exactly (a subclass may fit differently) without its own."""
    from sklearn.pipeline import Pipeline

    imblearn = sys.modules.get("imblearn.pipeline")
    pipelines = (Pipeline,) if imblearn is None else (Pipeline, imblearn.Pipeline)
    return type(model) in pipelines and model.memory is None


class fitted_prefixes:
    """Context manager: while ``model`` is fitted on ``X``, ``y`` (the rows ``rows`` of the run's
    data), its steps are served from, and stored in, the worker's store; a no-op unless ``reuse``
    is given and ``model`` a plain Pipeline without a memory. ``served`` counts the steps served."""

    def __init__(self, reuse, model, X, y, rows):
        self.model, self.served = model, 0
        self.active = reuse is not None and _reusable_pipeline(model)
        if self.active:
            # rows by content: the same rows of the run's data, whichever split named them
            rows = hashlib.sha256(np.ascontiguousarray(rows, dtype=np.int64)).hexdigest()
            self.memory = _TaskMemory(self, reuse, {id(X): (X, ("rows", "X", rows))})
            if y is not None:
                self.memory.provenance[id(y)] = (y, ("rows", "y", rows))

    def __enter__(self):
        if self.active:
            self.model.memory = self.memory
        return self

    def __exit__(self, *exc):
        if self.active:
            self.model.memory = None
            self.memory.provenance.clear()
        return False


class _TaskMemory:
    """The ``memory`` of one fit: the joblib.Memory interface a Pipeline calls (``cache``)."""

    def __init__(self, owner, reuse, provenance):
        self.owner, self.reuse, self.provenance = owner, reuse, provenance

    def cache(self, func, ignore=None, **kwargs):
        if (getattr(func, "__module__", None), getattr(func, "__name__", None)) not in _FUNCTIONS:
            return func

        def cached(*args, **kwargs):
            return self._call(func, args, kwargs)

        return cached

    def _call(self, func, args, kwargs):
        bound = inspect.signature(func).bind(*args, **kwargs)
        arguments = bound.arguments
        step = arguments.get("transformer", arguments.get("sampler"))
        X, y = arguments.get("X"), arguments.get("y")
        key = self._key(func, step, X, y, arguments)
        if key is None:
            return func(*args, **kwargs)
        entry = _STORE.get(key)
        if entry is not None and entry is not _REFUSED and _state(entry[1]) != entry[3]:
            self._warn_changed(entry[1])
            _STORE.refuse(key)
            entry = _REFUSED
        if entry is None or entry is _REFUSED:
            result = func(*args, **kwargs)
            handed, fitted = tuple(result[:-1]), result[-1]
            # a step refused is not kept again; one whose state has no checksum, never: whether
            # its use changes it could not be told
            state = _state(fitted) if entry is None else None
            stored = tuple(map(_copy, handed)) if state is not None else (_NO_COPY,)
            if not any(o is _NO_COPY for o in stored):
                size = sum(_nbytes(o) for o in handed) + _nbytes(fitted)
                _STORE.put(key, (stored, fitted, size, state), self.reuse)
        else:
            self.owner.served += 1
            handed, fitted = tuple(_copy(o) for o in entry[0]), entry[1]
        for index, output in enumerate(handed):
            self.provenance[id(output)] = (output, ("step", key, index))
        return (*handed, fitted)

    def _warn_changed(self, step):
        which = type(step).__name__
        names = [name for name, s in self.owner.model.steps if type(s) is type(step)]
        if len(names) == 1:
            which = f"{names[0]!r} ({which})"
        warnings.warn(
            f"The pipeline step {which} changed its fitted state after its fit (in transform, "
            "most likely), which scikit-learn's contract forbids: shared by the fits that train "
            "it on the same rows (reuse_prefix=True), it would give them other results than "
            "fitting it for each. It is fitted for each fit from now on, as with "
            "reuse_prefix=False; pass reuse_prefix=False to fit it so from the start (on the "
            "threading backend, a fit running alongside may have been given it changed).",
            ReproducibilityWarning,
            stacklevel=2,
        )

    def _source(self, value):
        if value is None:
            return None
        known = self.provenance.get(id(value))
        if known is None or known[0] is not value:
            raise UnhashableError("an input of unknown origin")
        return known[1]

    def _key(self, func, step, X, y, arguments):
        if step is None or arguments.get("weight") is not None:
            return None
        if any(_given(v) for v in (arguments.get("params") or {}).values()):
            return None  # metadata routed to the step: served entries would have to match it
        try:
            if not _repeatable(step):
                return None
            described = {
                "run": self.reuse.token,
                "function": f"{func.__module__}.{func.__name__}",
                "X": self._source(X),
                "y": self._source(y),
                "step": step_description(step),
            }
        except (UnhashableError, RecursionError):
            return None
        text = json.dumps(described, sort_keys=True, separators=(",", ":"), default=repr)
        return hashlib.sha256(text.encode()).hexdigest()


def prefix_group(estimator, params):
    """What the fits of ``estimator`` with ``params`` share with other candidates' fits on the
    same rows: the parameters of every step but the last; None where no step is reused. The
    scheduler puts such fits in one batch, so that one worker fits the shared steps once."""
    if not _reusable_pipeline(estimator) or not estimator.steps:
        return None
    last = estimator.steps[-1][0]
    prefix = {k: params[k] for k in sorted(params) if k.split("__", 1)[0] != last}
    try:
        return json.dumps(step_description(prefix))
    except UnhashableError:
        return None


def step_description(value, depth=0):
    """What makes two steps the same within one process: classes and functions by object,
    parameters by value, data by content; raises UnhashableError for anything else."""
    if depth > 50:
        raise UnhashableError("parameters nested too deeply")
    inner = functools.partial(step_description, depth=depth + 1)
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, float, complex, np.generic)):
        return [type(value).__name__, repr(value)]
    if isinstance(value, (list, tuple)):
        return [type(value).__name__, [inner(v) for v in value]]
    if isinstance(value, dict):
        return ["dict", [[inner(k), inner(v)] for k, v in value.items()]]
    if isinstance(value, (set, frozenset)):
        return ["set", sorted(json.dumps(inner(v), sort_keys=True) for v in value)]
    owner = _method_owner(value)
    if owner is not None:
        # a bound method (``pca.transform``; clone copies it, so not by object): its object
        return ["method", getattr(value, "__name__", None), inner(getattr(value, "__func__", None)),
                inner(owner)]  # fmt: skip
    if isinstance(value, type) or inspect.isroutine(value):
        module, name = getattr(value, "__module__", None), getattr(value, "__qualname__", None)
        return ["code", module, name, id(value)]
    if hasattr(value, "get_params") and hasattr(value, "set_params"):
        fitted = fitted_state(value)  # a FrozenEstimator's model keeps its own
        settings = estimator_settings(value)  # set_output's container changes what it gives
        return (
            ["estimator", inner(type(value)), inner(value.get_params(deep=False))]
            + ([inner(fitted)] if fitted else [])
            + ([inner(settings)] if settings else [])
        )
    if isinstance(value, (np.ndarray,)) or hasattr(value, "tocsr") or hasattr(value, "to_numpy"):
        return ["data", fingerprint(value)]
    if isinstance(value, functools.partial):
        return ["partial", inner(value.func), inner(value.args), inner(value.keywords)]
    if callable(value) and hasattr(value, "__dict__"):  # a callable object: class and state
        return ["object", inner(type(value)), inner(vars(value))]
    raise UnhashableError(f"cannot describe a value of type {type(value).__qualname__}")


def _method_owner(value):
    """The object a bound method (``pca.transform``, ``rng.normal``) is bound to; None for
    anything else, a module's function (``np.random.rand`` of no object) included."""
    owner = getattr(value, "__self__", None)
    if inspect.isroutine(value) and not isinstance(owner, types.ModuleType):
        return owner
    return None


def _given(value):
    if isinstance(value, dict):
        return any(_given(v) for v in value.values())
    return value is not None


def _repeatable(step):
    """No randomness left unfixed in ``step``'s parameters (nested ones included)."""
    try:
        params = step.get_params(deep=True)
    except Exception:
        return False
    unfixed = (type(None), np.random.RandomState, np.random.Generator)
    return not any(isinstance(params[name], unfixed) for name in random_state_params(step))


def _state(step):
    """A checksum of ``step``'s state (its attributes, parameters and fitted ones), to tell
    whether a use changed it: None where it cannot be made. As scikit-learn's
    check_dict_unchanged compares them, an attribute rebound counts, and so does data changed
    in place (arrays, frames, sparse matrices, plain containers and values, by content) and
    the state of an estimator held (a ColumnTransformer's transformers), the attributes of
    another object held (a namespace, an object with ``__slots__``), the state of random
    generators and seed sequences (a RandomState that transform draws from, a Generator that
    spawns) and whatever a callable held draws from (a bound method's object, a partial's
    arguments, a function's closure and defaults). An object without attributes of its own is
    read by its pickle (a tree's nodes); one whose state cannot be read (an iterator, a lock)
    makes the state unknown: None, and the step is not stored. CRC-32, not a cryptographic
    hash: it compares one object with itself, and is 6 times as fast."""
    checksum = 0

    def update(data):
        nonlocal checksum
        checksum = zlib.crc32(data, checksum)

    try:
        _feed_state(update, step, 0)
    except Exception:  # a value pickle cannot take, a state nested too deeply
        return None
    return checksum


_PLAIN = (type(None), bool, int, float, complex, str, bytes, np.generic)


def _feed_state(update, value, depth):
    if depth > 20:
        raise RecursionError("a state nested too deeply")
    if sp.issparse(value):  # its arrays: not the flags it caches when read (has_sorted_indices)
        csr = value.tocsr()
        _feed_pickled(update, (value.format, csr.shape, csr.data, csr.indices, csr.indptr))
        return
    if _by_content(value):
        _feed_pickled(update, value)
        return
    if isinstance(value, (Mapping, Sequence, Set)):  # a deque, a set of objects too
        update(f"{type(value).__name__}:{len(value)}".encode())
        items = value.items() if isinstance(value, Mapping) else enumerate(value)
        # the items pickle takes by content in one pickle (an estimator's parameters and
        # arrays), then the others one by one
        plain, others = [], []
        for item in items:
            (plain if _by_content(item[0]) and _by_content(item[1]) else others).append(item)
        _feed_pickled(update, plain)
        for key, item in others:
            _feed_state(update, key, depth + 1)
            _feed_state(update, item, depth + 1)
        return
    if hasattr(value, "get_params") and hasattr(value, "__dict__") and not isinstance(value, type):
        update(f"estimator:{id(type(value))}".encode())
        _feed_state(update, vars(value), depth + 1)
        return
    random_state = _random_state_of(value)
    if random_state is not None:  # a RandomState drawn from in transform moves on
        _feed_pickled(update, (type(value).__name__, random_state))
        return
    update(f"object:{id(type(value))}:{id(value)}".encode())
    if _is_global_random(value) or isinstance(value, _BY_IDENTITY):
        return  # by identity: other code moves the global generators; a logger (its manager
        # lists the process's)
    # what a callable draws from: a method's object, a partial's or a function's values (a
    # module's function without a closure, FunctionTransformer(np.log)'s, by identity)
    callable_state = _callable_state(value)
    if callable_state is not None:
        _feed_state(update, callable_state, depth + 1)
        return
    if depth >= _ATTRIBUTES_DEPTH:
        return  # by identity: a deep torch module
    attributes = getattr(value, "__dict__", None)
    if not isinstance(attributes, dict):  # an object with __slots__ (a slotted dataclass)
        attributes = {
            name: getattr(value, name)
            for kind in type(value).__mro__
            for name in _slot_names(kind)
            if hasattr(value, name)
        } or None
    if attributes is not None:
        _feed_state(update, attributes, depth + 1)  # a namespace changed in place
    elif isinstance(value, Iterator):  # a generator, itertools.count: no state to read
        raise UnhashableError(f"cannot read the state of a {type(value).__qualname__}")
    else:  # by its pickle (a tree's nodes, a dtype); one that pickle cannot take is unknown
        _feed_pickled(update, value)


def _callable_state(value):
    """What a bound method, a partial or a function holds that a call can draw from or change
    (a Generator kept as ``rng.normal``, in a partial or in a closure); None for anything else."""
    owner = _method_owner(value)
    if owner is not None:
        return ["method", getattr(value, "__name__", None), getattr(value, "__func__", None),
                owner]  # fmt: skip
    if isinstance(value, functools.partial):
        return ["partial", value.func, value.args, value.keywords, vars(value)]
    if isinstance(value, types.FunctionType):
        cells = [_cell_contents(cell) for cell in value.__closure__ or ()]
        return ["function", cells, value.__defaults__, value.__kwdefaults__, vars(value)]
    return None


def _cell_contents(cell):
    try:
        return [cell.cell_contents]
    except ValueError:  # a cell not yet filled
        return []


def _is_global_random(value):
    """Whether ``value`` is the global random generator of numpy, ``random`` or torch."""
    torch = sys.modules.get("torch")
    return (
        value is np.random.mtrand._rand
        or value is random._inst
        or (torch is not None and value is torch.default_generator)
    )


def _random_state_of(value):
    """The state of a random generator: numpy's (a RandomState, a Generator, a bit
    generator, with the SeedSequence it spawns from, and a SeedSequence), Python's
    ``random.Random`` or torch's ``Generator``; None for anything else, and for the global
    ones of numpy, ``random`` and torch (by identity: other code moves them on)."""
    torch = sys.modules.get("torch")
    if _is_global_random(value):
        return None
    if isinstance(value, np.random.RandomState):
        return value.get_state(legacy=False)
    if isinstance(value, np.random.Generator):
        value = value.bit_generator
    if isinstance(value, np.random.BitGenerator):
        # Generator.spawn moves the SeedSequence on, not the bit generator's state (numpy
        # 1.25 on, where Generator.spawn came)
        return value.state, _random_state_of(getattr(value, "seed_seq", None))
    if isinstance(value, np.random.SeedSequence):
        return value.entropy, value.spawn_key, value.pool_size, value.n_children_spawned
    if isinstance(value, random.Random):
        return value.getstate()
    if torch is not None and isinstance(value, torch.Generator):
        return (str(value.device), value.get_state().numpy().tobytes())
    return None


def _slot_names(kind):
    slots = vars(kind).get("__slots__", ())
    slots = (slots,) if isinstance(slots, str) else slots
    return [name for name in slots if name not in ("__dict__", "__weakref__")]


#: Objects whose attributes change with the process, not the step that holds them: a logger
#: (through its manager, every logger made since), a handler
_BY_IDENTITY = (type, types.ModuleType, logging.Logger, logging.LoggerAdapter, logging.Handler)

#: How deep in a step's state another object's attributes are read (a logger leads back to
#: itself through its manager, a network's modules go as deep as it is): below, it is taken
#: by identity, as a step stored whole is checked by what it holds near its surface
_ATTRIBUTES_DEPTH = 8


def _feed_pickled(update, value):
    buffers = []  # arrays by their memory, not copied into the pickle
    update(pickle.dumps(value, protocol=5, buffer_callback=buffers.append))
    for buffer in buffers:
        update(buffer.raw())


def _by_content(value):
    return isinstance(value, _PLAIN) or _is_data(value) or _plain_container(value)


def _is_data(value):
    """An array or a frame, pickled by content (a sparse matrix is fed by its arrays)."""
    return isinstance(value, np.ndarray) or (
        hasattr(value, "to_numpy") and not hasattr(value, "get_params")
    )


def _plain_container(value):
    """A list, tuple, set or dict of plain values alone (TF-IDF's vocabulary): pickled whole."""
    if type(value) in (list, tuple, set, frozenset):
        values = value
    elif type(value) is dict:
        values = (*value.keys(), *value.values())
    else:
        return False
    return all(issubclass(kind, _PLAIN) for kind in set(map(type, values)))


#: What :func:`_copy` returns for an output it cannot copy whole: the output is then not stored.
_NO_COPY = object()

# what pandas' infer_dtype calls an object column of immutable values alone
_IMMUTABLE_OBJECTS = {
    "empty", "string", "bytes", "floating", "integer", "mixed-integer-float", "decimal",
    "complex", "boolean", "datetime64", "datetime", "date", "timedelta64", "timedelta", "time",
    "period", "interval",
}  # fmt: skip


def _copy(value):
    """A copy of a step's output that no later step can reach into (a list of dicts or graphs,
    an object array: deep), or :data:`_NO_COPY` where none can be made: a pandas object column
    of mutable values (``copy(deep=True)`` shares them), a polars Object column, an object that
    cannot be deep-copied."""
    if (isinstance(value, np.ndarray) or sp.issparse(value)) and not value.dtype.hasobject:
        return value.copy()
    if _is_pandas(value):
        from pandas.api.types import infer_dtype, is_object_dtype

        dtypes = [value.dtype] if value.ndim == 1 else value.dtypes
        for i in (i for i, dtype in enumerate(dtypes) if is_object_dtype(dtype)):
            column = value if value.ndim == 1 else value.iloc[:, i]
            if infer_dtype(column, skipna=True) not in _IMMUTABLE_OBJECTS:
                return _NO_COPY
        return value.copy(deep=True)
    polars = sys.modules.get("polars")
    if polars is not None and isinstance(value, (polars.DataFrame, polars.Series)):
        schema = [value.dtype] if isinstance(value, polars.Series) else value.schema.values()
        if any(dtype == polars.Object for dtype in schema):
            return _NO_COPY
        return value.clone()  # polars data is immutable but for Object columns
    try:
        return copy.deepcopy(value)
    except Exception:  # a lock, a file, a generator...: fitted afresh, as when not repeatable
        return _NO_COPY


def _is_pandas(value):
    pandas = sys.modules.get("pandas")
    return pandas is not None and isinstance(value, (pandas.DataFrame, pandas.Series))


def _nbytes(value, depth=0):
    """An estimate of the memory ``value`` holds (arrays, sparse matrices, frames, estimators)."""
    if depth > 4:
        return 64
    if isinstance(value, np.ndarray):
        return value.nbytes
    if hasattr(value, "tocsr") and hasattr(value, "data"):
        return sum(
            getattr(value, a).nbytes for a in ("data", "indices", "indptr") if hasattr(value, a)
        )
    if hasattr(value, "memory_usage") and hasattr(value, "columns"):
        try:
            return int(value.memory_usage(deep=True).sum())
        except Exception:
            return sys.getsizeof(value)
    if hasattr(value, "estimated_size"):  # a polars frame or series (its data in Arrow buffers)
        try:
            return int(value.estimated_size())
        except Exception:
            return sys.getsizeof(value)
    if isinstance(value, dict):
        return sys.getsizeof(value) + sum(
            _nbytes(k, depth + 1) + _nbytes(v, depth + 1) for k, v in value.items()
        )
    if isinstance(value, (list, tuple)):
        return sys.getsizeof(value) + sum(_nbytes(v, depth + 1) for v in value)
    if hasattr(value, "__dict__") and not isinstance(value, type):
        return sys.getsizeof(value) + _nbytes(vars(value), depth + 1)
    return sys.getsizeof(value)


def store_statistics():
    """``(hits, misses, entries, bytes)`` of this process's store (for tests and benchmarks)."""
    return _STORE.hits, _STORE.misses, len(_STORE.entries), _STORE.nbytes


def discard_run(reuse):
    """Forget what the run of ``reuse`` stored in this process."""
    if reuse is not None:
        _STORE.discard(reuse.token)
