"""What a cache key covers: the one place that decides when a stored result may be reused.

A task's key is the SHA-256 of a canonical JSON description of everything its result depends on:

- the format of the entries, and the versions of Python, sklearn-fair, scikit-learn, NumPy and
  SciPy, plus the version of every installed package whose class or function the task uses;
- the code of sklearn-fair itself (:func:`~sklearn_fair.utils.source_fingerprint`): its
  version number does not change when a development checkout is edited or an install is
  rebuilt from another commit, and the code that runs a task (how it slices rows, seeds,
  early-stops, scores) is not the class of any estimator in the task;
- the data (``X``, ``y``, fit and score parameters) by content
  (:func:`~sklearn_fair.utils.fingerprint`: arrays by bytes, tensors through NumPy, so a key
  is the same in every process);
- the scorers and the estimator with the task's parameters, seeds included, described
  recursively: parameters by value, nested estimators by their parameters, and every class or
  function by its *code identity*: for an installed package, its name and version; for code of
  one's own (a module outside site-packages, a script, a notebook, a lambda), a hash of its source
  file or of its bytecode, constants, default values, closure and the globals it reads. So editing
  a custom scorer or estimator class changes the key, and an old result is never served for new
  code;
- the phase of the task and the rows it trains on, is scored on and early-stops on.

What cannot be described this way raises :class:`UnhashableError`; the run then warns and does
not cache.
"""

import functools
import hashlib
import importlib.metadata
import inspect
import json
import math
import numbers
import os
import platform
import sys
import sysconfig
import types

import numpy as np

from ...utils import fingerprint, source_fingerprint

__all__ = ["KeyBuilder", "UnhashableError", "code_identity", "describe"]

FORMAT = "sklearn-fair-task/2"

_LIBRARY_ROOTS = tuple(
    os.path.realpath(p)
    for p in {
        sysconfig.get_paths()[name] for name in ("stdlib", "platstdlib", "purelib", "platlib")
    }
)
_FILE_HASHES = {}


class UnhashableError(TypeError):
    """A value whose content or code cannot be described stably for a cache key."""


def _package_version(module_name):
    return _top_level_version(module_name.split(".")[0])


# Once per process: the code a process has imported is the code it runs, even if the package is
# upgraded on disk meanwhile; and reading every installed distribution's metadata costs a tenth
# of a second, which a fully cached re-run would otherwise pay again and again.
@functools.cache
def _top_level_version(top):
    try:
        distributions = importlib.metadata.packages_distributions().get(top, [])
    except Exception:  # pragma: no cover - broken metadata
        distributions = []
    for distribution in distributions:
        try:
            return f"{distribution}=={importlib.metadata.version(distribution)}"
        except importlib.metadata.PackageNotFoundError:
            continue
    module = sys.modules.get(top)
    return f"{top}=={getattr(module, '__version__', 'unknown')}"


def _is_library(module):
    if module is None:
        return False
    if module.__name__ in sys.builtin_module_names or module.__name__ == "builtins":
        return True
    path = getattr(module, "__file__", None)
    if not path:
        return False
    return _is_library_path(path)


@functools.lru_cache(maxsize=1024)
def _is_library_path(path):
    path = os.path.realpath(path)
    return any(path.startswith(root + os.sep) for root in _LIBRARY_ROOTS)


def _file_hash(path):
    stat = os.stat(path)
    cached = _FILE_HASHES.get(path)
    if cached and cached[0] == (stat.st_mtime_ns, stat.st_size):
        return cached[1]
    with open(path, "rb") as file:
        digest = hashlib.sha256(file.read()).hexdigest()
    _FILE_HASHES[path] = ((stat.st_mtime_ns, stat.st_size), digest)
    return digest


def _code_digest(code, seen):
    """Bytecode, constants (nested code included), names and variable names of a code object."""
    parts = [code.co_code.hex(), repr(code.co_names), repr(code.co_varnames)]
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            parts.append(_code_digest(const, seen))
        else:
            parts.append(repr(const))
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def _function_identity(function, seen):
    module = sys.modules.get(getattr(function, "__module__", None) or "")
    name = f"{function.__module__}.{function.__qualname__}"
    if _is_library(module):
        return {"function": name, "package": _package_version(function.__module__)}
    if id(function) in seen:
        return {"function": name, "recursive": True}
    seen = seen | {id(function)}
    code = function.__code__
    globals_read = {}
    for global_name in code.co_names:
        if global_name in function.__globals__:
            value = function.__globals__[global_name]
            if isinstance(value, types.ModuleType):
                globals_read[global_name] = {"module": value.__name__}
            else:
                try:
                    globals_read[global_name] = describe(value, seen)
                except UnhashableError:
                    globals_read[global_name] = {"opaque": type(value).__qualname__}
    closure = [describe(cell.cell_contents, seen) for cell in function.__closure__ or ()]
    return {
        "function": name,
        "code": _code_digest(code, seen),
        "defaults": describe(function.__defaults__, seen),
        "kwdefaults": describe(function.__kwdefaults__, seen),
        "closure": closure,
        "globals": globals_read,
    }


def _class_identity(cls, seen):
    name = f"{cls.__module__}.{cls.__qualname__}"
    module = sys.modules.get(cls.__module__)
    if _is_library(module):
        return {"class": name, "package": _package_version(cls.__module__)}
    sources = []
    for base in cls.__mro__:
        base_module = sys.modules.get(base.__module__)
        if base is object or _is_library(base_module):
            continue
        try:
            path = inspect.getsourcefile(base)
        except TypeError:
            path = None
        if path and os.path.exists(path):
            sources.append([f"{base.__module__}.{base.__qualname__}", _file_hash(path)])
            continue
        # no source file (a class made in a notebook or by exec): its methods' code
        methods = {
            attr: _function_identity(value, seen)
            for attr, value in sorted(vars(base).items())
            if isinstance(value, types.FunctionType)
        }
        if not methods:
            raise UnhashableError(f"cannot find the code of class {name}")
        sources.append([f"{base.__module__}.{base.__qualname__}", methods])
    return {"class": name, "sources": sources}


def code_identity(obj, seen=frozenset()):
    """The identity of a class or function for a cache key (see the module docstring)."""
    if isinstance(obj, type):
        return _class_identity(obj, seen)
    if isinstance(obj, functools.partial):
        return {
            "partial": code_identity(obj.func, seen),
            "args": describe(obj.args, seen),
            "keywords": describe(obj.keywords, seen),
        }
    if isinstance(obj, types.MethodType):
        return {"method": code_identity(obj.__func__, seen), "self": describe(obj.__self__, seen)}
    if isinstance(obj, types.FunctionType):
        return _function_identity(obj, seen)
    if isinstance(obj, types.BuiltinFunctionType):
        module = getattr(obj, "__module__", None) or "builtins"
        return {"builtin": f"{module}.{obj.__qualname__}", "package": _package_version(module)}
    raise UnhashableError(f"cannot identify the code of {obj!r}")


def describe(value, seen=frozenset()):
    """A JSON-able description of ``value`` that changes whenever its content or code does."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real) and not isinstance(value, np.ndarray):
        value = float(value)
        return value if math.isfinite(value) else {"float": repr(value)}
    if isinstance(value, (list, tuple)):
        return {type(value).__name__: [describe(v, seen) for v in value]}
    if isinstance(value, dict):
        return {"dict": [[describe(k, seen), describe(v, seen)] for k, v in value.items()]}
    if isinstance(value, (set, frozenset)):
        return {"set": sorted(json.dumps(describe(v, seen), sort_keys=True) for v in value)}
    if isinstance(value, (type, types.FunctionType, types.MethodType, functools.partial)):
        return code_identity(value, seen)
    if isinstance(value, types.BuiltinFunctionType):
        return code_identity(value, seen)
    if hasattr(value, "get_params") and not isinstance(value, type):
        return {
            "estimator": code_identity(type(value), seen),
            "params": describe(value.get_params(deep=False), seen),
        }
    if (
        isinstance(value, np.ndarray)
        or (hasattr(value, "detach") and hasattr(value, "cpu"))
        or hasattr(value, "__fingerprint__")
        or hasattr(value, "tocsr")
        or hasattr(value, "to_numpy")
    ):
        return {"data": fingerprint(value)}
    if isinstance(value, np.generic):
        return describe(value.item(), seen)
    if isinstance(value, np.random.RandomState):
        return {"RandomState": fingerprint(list(value.get_state()))}
    if isinstance(value, np.random.Generator):
        return {"Generator": describe(value.bit_generator.state, seen)}
    if callable(value) and hasattr(value, "__dict__") and id(value) not in seen:
        # a callable object, e.g. a scikit-learn scorer: its class and its state
        seen = seen | {id(value)}
        return {"object": code_identity(type(value), seen), "state": describe(vars(value), seen)}
    if hasattr(value, "__dict__") and id(value) not in seen:
        seen = seen | {id(value)}
        return {"object": code_identity(type(value), seen), "state": describe(vars(value), seen)}
    raise UnhashableError(f"cannot describe a value of type {type(value).__qualname__}")


def _versions():
    import scipy
    import sklearn

    from ... import __version__

    return {
        "python": platform.python_version(),
        "sklearn-fair": __version__,
        "sklearn-fair source": source_fingerprint(),
        "scikit-learn": sklearn.__version__,
        "numpy": np.__version__,
        "scipy": scipy.__version__,
    }


def _digest(description):
    text = json.dumps(description, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


class KeyBuilder:
    """Builds the key of every task of one run; the run's shared part is described once.

    Raises UnhashableError when the data, the scorers or the fit parameters cannot be described.
    """

    def __init__(self, data, scorers):
        self.context = _digest(
            {
                "format": FORMAT,
                "versions": _versions(),
                "X": fingerprint(data.X),
                "y": fingerprint(data.y),
                "fit_params": describe(data.fit_params),
                "score_params": describe(data.score_params),
                "scorers": describe(scorers),
            }
        )
        self._rows = {}
        self._data = data

    def _rows_digest(self, name):
        if name is None:
            return None
        if name not in self._rows:
            self._rows[name] = fingerprint(np.asarray(self._data.rows[name], dtype=np.int64))
        return self._rows[name]

    def key(self, task, estimator):
        """``(name, description)`` of a FitTask; raises UnhashableError for opaque parameters."""
        from ._candidates import configure

        description = {
            "context": self.context,
            "phase": task.key.phase,
            "estimator": describe(configure(estimator, task.params)),
            "train": self._rows_digest(task.train),
            "test": self._rows_digest(task.test),
            "val": self._rows_digest(task.val),
            "predictions": task.fingerprint_predictions,
        }
        if task.score_train is not None:  # train scores (return_train_score) are stored too
            description["score_train"] = self._rows_digest(task.score_train)
        return _digest(description), description
