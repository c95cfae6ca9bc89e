"""What a model's result depends on, as one hash: a re-run reuses results with the same one.

The hash covers contents, never names or paths: the data (its fingerprint), the splits
(the fingerprint of the indices, not the file's path), the estimator with every parameter
(defaults included, so a changed default shows), the grid, every NestedCV parameter, the
seed, and the versions of the packages that compute the result (scikit-learn, NumPy,
SciPy, sklearn-fair and the package of every class the model uses). Where a version does
not change with an edit, the code enters too: the content of sklearn-fair's source files
(:func:`~sklearn_fair.utils.source_fingerprint`; a reinstall from another commit keeps its
version number), and for a class from a package other than the well-known released ones
(your own, allowed with ``--allow-package``), the source file of its module.
"""

import functools
import hashlib
import importlib.metadata
import inspect
import json
import sys
from pathlib import Path

import numpy as np

from ..model_selection import SavedSplits
from ..utils import fingerprint, source_fingerprint

__all__ = ["describe", "result_hash"]

_ALWAYS = ("sklearn", "numpy", "scipy", "sklearn_fair")
# Packages whose version number changes with their code (released packages).
_RELEASED = ("imblearn", "numpy", "scipy", "skorch", "sklearn", "torch", "torch_geometric")


def _qualified(cls):
    return f"{cls.__module__}.{cls.__qualname__}"


def describe(value, modules):
    """A JSON-able description of ``value`` by content; adds the modules of its classes."""
    if value is None or isinstance(value, (bool, int, float, str)):
        if isinstance(value, float) and not np.isfinite(value):
            return repr(value)
        return value
    if isinstance(value, type):
        modules.add(value.__module__)
        return {"class": _qualified(value)}
    if isinstance(value, (set, frozenset)):
        return sorted((describe(item, modules) for item in value), key=repr)
    if isinstance(value, (list, tuple)):
        return [describe(item, modules) for item in value]
    if isinstance(value, dict):
        return {str(k): describe(v, modules) for k, v in sorted(value.items(), key=repr)}
    if isinstance(value, SavedSplits):
        return {"saved_splits": fingerprint(_splits_content(value))}
    if isinstance(value, (np.ndarray, np.generic)) or hasattr(value, "detach"):
        return {"array": fingerprint(value)}  # numpy arrays and torch tensors
    cls = type(value)
    modules.add(cls.__module__)
    if hasattr(value, "get_params"):
        params = value.get_params(deep=False)
        return {"class": _qualified(cls), "params": describe(params, modules)}
    if hasattr(value, "__dict__"):  # e.g. a splitter: its attributes are its parameters
        return {"class": _qualified(cls), "attributes": describe(vars(value), modules)}
    return {"class": _qualified(cls), "content": fingerprint(value)}


def _splits_content(saved):
    inner = saved.inner_splits
    return [
        [[train.tolist(), test.tolist()] for train, test in saved.folds],
        None
        if inner is None
        else [
            None if splits is None else [[tr.tolist(), te.tolist()] for tr, te in splits]
            for splits in inner
        ],
        saved.n_samples,
    ]


@functools.cache
def _distributions():
    return importlib.metadata.packages_distributions()


def _version(package):
    try:
        names = _distributions().get(package, [package])
        return importlib.metadata.version(names[0])
    except importlib.metadata.PackageNotFoundError:
        module = __import__(package)
        return getattr(module, "__version__", "unknown")


def _module_source(name):
    try:
        path = inspect.getsourcefile(sys.modules[name])
        return "sha256:" + hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except (KeyError, TypeError, OSError):
        return "unknown"


def versions(modules):
    """The versions (or code) of the packages of ``modules`` and of those always involved."""
    packages = {name.split(".")[0] for name in modules} - {"builtins"}
    found = {name: _version(name) for name in sorted(packages | set(_ALWAYS))}
    found["sklearn_fair source"] = source_fingerprint()
    for name in sorted(modules):
        if name.split(".")[0] not in (*_RELEASED, "sklearn_fair", "builtins"):
            found[f"source of {name}"] = _module_source(name)
    return found


def result_hash(*, nested_params, estimator, grid, data_fingerprint, format_version):
    """The hash of everything a model's result depends on.

    Parameters
    ----------
    nested_params : dict
        NestedCV's parameters except the estimator, the grid and what cannot change a
        result (``n_jobs``, ``verbose``, ``cache_dir``).
    estimator : estimator object
        The model (its class and every parameter).
    grid : dict, list or None
        The candidates.
    data_fingerprint : dict
        Fingerprints of the features, the target and the groups.
    format_version : int
        The version of the runner's result files.

    Returns
    -------
    digest : str
        ``"sha256:"`` and 64 hexadecimal digits.
    payload : dict
        What was hashed (written beside the result, to tell why a re-run recomputed).
    """
    modules = set()
    payload = {
        "format_version": format_version,
        "data": data_fingerprint,
        "estimator": describe(estimator, modules),
        "grid": describe(grid, modules),
        "protocol": describe(nested_params, modules),
    }
    payload["versions"] = versions(modules)
    text = json.dumps(payload, sort_keys=True)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest(), payload
