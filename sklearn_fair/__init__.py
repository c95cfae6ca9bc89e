"""sklearn-fair: honest model evaluation for scikit-learn.

The headline API is :class:`NestedCV` and its functional forms
:func:`nested_cross_validate` and :func:`nested_cross_val_score`.
``import sklearn_fair`` never imports torch; graph code lives in
:mod:`sklearn_fair.graph`.

The names below are imported on first use (PEP 562): ``from sklearn_fair import NestedCV``
imports the model-selection layer only, and a parallel worker that unpickles a task imports
the modules that task needs, not the benchmarking and audit layers too.
"""

import importlib

__version__ = "0.1.0.dev0"

# public name -> the sub-package that defines it
_LAZY = {
    "BenchmarkResult": "benchmarking",
    "benchmark": "benchmarking",
    "audit": "leakage",
    "NestedCV": "model_selection",
    "nested_cross_val_predict": "model_selection",
    "nested_cross_val_score": "model_selection",
    "nested_cross_validate": "model_selection",
}

__all__ = [
    "BenchmarkResult",
    "NestedCV",
    "__version__",
    "audit",
    "benchmark",
    "nested_cross_val_predict",
    "nested_cross_val_score",
    "nested_cross_validate",
]


# the sub-packages that an eager ``import sklearn_fair`` used to load on the way: still
# reachable as attributes after a plain ``import sklearn_fair`` (``sklearn_fair.exceptions``)
_SUBMODULES = {
    "benchmarking",
    "exceptions",
    "leakage",
    "metrics",
    "model_selection",
    "stats",
    "utils",
}


def __getattr__(name):
    if name in _LAZY:
        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    elif name in _SUBMODULES:
        value = importlib.import_module(f"{__name__}.{name}")
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # looked up once
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY) | _SUBMODULES)
