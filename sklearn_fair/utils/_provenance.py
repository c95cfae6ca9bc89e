"""What a stored result depends on: one place describes its data, parameters, code and versions.

NestedCV's cache keys (``model_selection/_nested/_cache_key.py``), the fingerprints a benchmark
records to be extended later, the reproducibility card's versions table and the benchmarks'
result files are all built from this module, so the same inputs give the same
description everywhere. :func:`describe` turns a value into canonical JSON-able data that changes
whenever the value's content or code does:

- **data** (arrays, tensors, DataFrames, sparse matrices, graphs) by content, through
  :func:`~sklearn_fair.utils.fingerprint` (dtype, shape and bytes; equal in every process),
  a DataFrame's or Series' index included (code may join on it);
- **scalars and strings** by value; non-finite floats by their ``repr``, and a number that
  a float64 would round (a long double, a ``Fraction``) by its ``repr``;
- **lists and tuples** in their order (a Pipeline's steps are a list: order is content);
  **dicts sorted by key** (parameters, grids and configuration tables carry no meaning in their
  order, and a table read back from JSON or TOML need not keep it); sets sorted;
- **estimators** by their class and ``get_params(deep=False)``, recursively, with the settings
  they keep outside their parameters (metadata-routing requests, ``set_output``), as ``clone``
  remakes them; their fitted state (:func:`fitted_state`) counts where clone keeps it: a
  FrozenEstimator, and what is used as it is or deep-copied (a fitted model whose bound
  method a FunctionTransformer calls, a global or closure variable a function reads, the
  state of another object); other objects with attributes (a ``__dict__``) by their class,
  attributes and the values of any ``__slots__`` beside them (an object with ``__slots__``
  alone is :class:`UnhashableError`), a ``random.Random`` also by its ``getstate()``, a
  ufunc by its name (and, where its attributes do not name it, the package that holds it);
  an object whose base implemented in C keeps other state (a ``datetime`` subclass, an
  exception, a file) and a ``np.frompyfunc`` ufunc (its Python function cannot be read) are
  :class:`UnhashableError`; a bound method by its function and its object;
- **classes and functions** by their *code identity* (:func:`code_identity`), by one rule for
  every module, wherever it is installed (a function is a library's only where it runs in that
  library module's own globals, ``vars(sys.modules[name])``, not by its ``__module__``, which
  ``functools.wraps`` copies: a function of the user's wrapped as a library's is the user's
  code, as is one made outside ``import`` (by ``exec``, ``runpy.run_path``, or from a module not
  in ``sys.modules``); a library's decorator on it is described by its code too, whose closure
  holds the user's function and the decorator's settings (``np.errstate(all="raise")``, which
  cannot be described, is :class:`UnhashableError`); a class that names a library's module but
  has methods of the user's is :class:`UnhashableError`):

  * the standard library: the Python version;
  * an installed third-party package (under ``site-packages``): its distribution name and
    version (a release's code changes only with its version); one installed from a folder, an
    archive or a repository (``pip install .``) also by the digest of its installed files'
    ``RECORD``, as its code may change without its version;
  * sklearn-fair, installed or a checkout: its version and :func:`source_fingerprint`, since an
    edited checkout or an install rebuilt from another commit keeps its version number;
  * a module of the user's own (anything else: a script, a file next to a notebook, a package
    on ``PYTHONPATH`` or installed in editable mode): the SHA-256 of its file, **and of every
    module of the user's own that it reaches** (modules it imports, modules of the functions
    and classes among its globals, modules imported inside its functions), so editing a
    ``helpers.py`` that a custom scorer calls changes the description (a class of such a file
    also by its methods' code, which may be older than the file: a class imported before an
    ``importlib.reload``, a stale ``.pyc``). Imports inside functions are read from the
    bytecode, relative ones resolved against the module's package;
    one not imported yet (it will be when the function first runs) is found as the import
    system finds it, without running it or its packages, and its file, and the modules its
    source imports, enter the description; one of the user's packages that cannot be found
    that way is :class:`UnhashableError`. The walk stops at
    library and sklearn-fair modules and at :data:`MAX_MODULES` modules of the user's, past
    which the value is :class:`UnhashableError` (no result is reused rather than a wrong one);
  * code without a file (a notebook cell, ``exec``, a lambda in a closure): its bytecode,
    constants, default values, closure and the globals it reads, each described by these rules;
    a class without a file by its methods and the other values of its body.

  A module of the user's whose file changed after it was imported (edited in an open session
  without ``importlib.reload``) runs other code than its file holds: it is
  :class:`UnhashableError`, told by the ``.pyc`` header (which records the size and time of the
  source it was compiled from) or, without one, by the file's size and time when this process
  first described the module.

What cannot be described raises :class:`UnhashableError`; callers then do not reuse results.
:func:`digest` hashes a description as canonical JSON (sorted keys, no spaces) and
:func:`package_versions` is the one versions table.
"""

import dis
import functools
import hashlib
import importlib.machinery
import importlib.metadata
import importlib.util
import inspect
import json
import math
import numbers
import os
import platform
import random
import struct
import sys
import sysconfig
import types
import typing
from collections.abc import Iterable
from pathlib import Path

import joblib
import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils._param_validation import InvalidParameterError

from ..exceptions import UnhashableError
from ._graphs import is_graph_data
from ._hashing import fingerprint, fingerprint_with_index

# The user's own modules one description may reach before it gives up (see the docstring).
MAX_MODULES = 500
# Nesting depth of a described value (estimators in estimators, closures in closures).
MAX_DEPTH = 200


def _real_paths(*names):
    return tuple(sorted({os.path.realpath(sysconfig.get_paths()[name]) for name in names}))


_LIBRARY_ROOTS = _real_paths("stdlib", "platstdlib", "purelib", "platlib")
_SITE = _real_paths("purelib", "platlib")
_OWN = "sklearn_fair"
# Sub-packages and files that only format or write results: an edit there cannot change a number.
_FORMATTING = ("experiment", "report", "cli.py", "__main__.py", "_demo.py")


@functools.cache
def source_fingerprint():
    """Return ``"sha256:"`` and the SHA-256 of the Python source of sklearn-fair.

    Every ``.py`` file of the package enters, by path and content, except those that only format
    or write results (``experiment/``, ``report/``, the command line). Computed once per process:
    the code a process has imported is the code it runs, even if the files change meanwhile.

    Returns
    -------
    fingerprint : str

    Examples
    --------
    >>> from sklearn_fair.utils import source_fingerprint
    >>> fingerprint = source_fingerprint()
    >>> fingerprint.startswith("sha256:"), len(fingerprint)
    (True, 71)
    """
    root = Path(__file__).resolve().parent.parent
    hasher = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root)
        if relative.parts[0] not in _FORMATTING:
            hasher.update(relative.as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return "sha256:" + hasher.hexdigest()


# Always recorded: what computes every result.
_CORE = ("scikit-learn", "numpy", "scipy", "joblib")
NOT_INSTALLED = "not installed"


def package_versions(extra=()):
    """The versions table: Python, sklearn-fair (version and source hash) and packages.

    Parameters
    ----------
    extra : sequence of str, default=()
        Further distribution names (as pip spells them: ``"torch"``, ``"torch-geometric"``),
        read from the installed metadata, never imported; an absent one is ``"not installed"``.
        One name is a list of one, ``["torch"]``: a str is refused (it would be read as one
        name per letter).

    Returns
    -------
    versions : dict
        ``"python"``, ``"sklearn-fair"``, ``"sklearn-fair source"``, then scikit-learn,
        NumPy, SciPy, joblib and ``extra``, in that order.

    Raises
    ------
    sklearn.utils._param_validation.InvalidParameterError
        When ``extra`` is a str, or not a sequence of str.

    Examples
    --------
    >>> from sklearn_fair.utils import package_versions
    >>> versions = package_versions(["no-such-distribution"])
    >>> list(versions)[:3]
    ['python', 'sklearn-fair', 'sklearn-fair source']
    >>> versions["no-such-distribution"]
    'not installed'
    """
    from .. import __version__

    extra = _distribution_names(extra)
    versions = {
        "python": platform.python_version(),
        "sklearn-fair": __version__,
        "sklearn-fair source": source_fingerprint(),
    }
    # (the reader too: one put in its place, a test's simulated upgrade, is asked)
    state = (_search_path_state(), importlib.metadata.version)
    for name in (*_CORE, *extra):
        if name not in versions:
            versions[name] = _installed_version(name, state)
    return versions


def _distribution_names(extra):
    """``extra`` of :func:`package_versions` as a tuple of names; refused unless it is a
    sequence of str (a str would be read as one name per letter)."""
    if isinstance(extra, Iterable) and not isinstance(extra, str):
        names = tuple(extra)
        if all(isinstance(name, str) for name in names):
            return names
    example = [extra] if isinstance(extra, str) else ["torch"]
    raise InvalidParameterError(
        "The 'extra' parameter of package_versions must be a sequence of distribution names "
        f"(str), such as extra={example!r}. Got {extra!r} instead."
    )


def _search_path_state():
    """Each folder of ``sys.path`` (absolute) with its modification time: installing, upgrading
    or removing a distribution there changes it (as :mod:`importlib.metadata` assumes: it keeps
    a folder's listing until its time changes)."""
    state = []
    for entry in sys.path:
        try:
            path = os.path.abspath(entry)
            state.append((path, os.stat(path).st_mtime_ns))
        except (OSError, TypeError, ValueError):  # no such folder, or not a path: a hook's name
            state.append((entry, None))
    return tuple(state)


@functools.lru_cache(maxsize=1024)
def _installed_version(name, state):
    """The installed version of distribution ``name``, read from its metadata once per
    ``state``: of the search path (:func:`_search_path_state`) and the reader. Parsing it costs
    about a millisecond a distribution, and every keyed run asks for nine."""
    try:
        return state[1](name)
    except importlib.metadata.PackageNotFoundError:
        return NOT_INSTALLED


# Once per process: the code a process has imported is the code it runs, and reading every
# installed distribution's metadata costs about a tenth of a second on a quiet machine (2.6 s
# measured on a busy one): read once, not once per top-level package.
@functools.cache
def _distributions_of_packages():
    try:
        return importlib.metadata.packages_distributions()
    except Exception:  # pragma: no cover - broken metadata
        return {}


@functools.cache
def _package_of(top):
    """``"distribution==version"`` of an installed top-level package; with the digest of its
    installed files (its ``RECORD``) where it was installed from a folder, an archive or a
    repository (``pip install .``), whose code may change without its version."""
    for distribution in _distributions_of_packages().get(top, []):
        try:
            found = importlib.metadata.distribution(distribution)
        except importlib.metadata.PackageNotFoundError:
            continue
        identity = f"{distribution}=={found.version}"
        if found.read_text("direct_url.json") is None:
            return identity
        record = found.read_text("RECORD")
        if record is None:
            raise UnhashableError(
                f"cannot identify the code of {distribution!r}, installed from "
                "a folder or a repository without a RECORD of its files"
            )
        return f"{identity} record {hashlib.sha256(record.encode()).hexdigest()}"
    module = sys.modules.get(top)
    return f"{top}=={getattr(module, '__version__', 'unknown')}"


def _module_kind(module):
    """``"stdlib"``, ``"library"`` (installed third-party), ``"own"`` (sklearn-fair), ``"user"``."""
    return _kind(module.__name__, getattr(module, "__file__", None))


def _kind(name, path):
    """:func:`_module_kind` of the module ``name`` whose file is ``path``."""
    top = name.split(".")[0]
    if top == _OWN:
        return "own"
    if name in sys.builtin_module_names:
        return "stdlib"
    if path and _under(path, _SITE):
        return "library"
    if path and _under(path, _LIBRARY_ROOTS):
        return "stdlib"
    if not path and top in sys.stdlib_module_names:
        return "stdlib"  # a frozen module; by name only without a file: a package of the
    return "user"  # user's named like one (``code``, ``test``) is the user's


@functools.lru_cache(maxsize=4096)
def _under(path, roots):
    path = os.path.realpath(path)
    return any(path.startswith(root + os.sep) for root in roots)


def _file_hash(path):
    info = os.stat(path)
    return _hash_of_file(path, info.st_mtime_ns, info.st_size)


@functools.lru_cache(maxsize=4096)
def _hash_of_file(path, mtime_ns, size):
    """SHA-256 of a file; its size and modification time are in the key, so an edit re-reads it."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _module_source(module):
    """SHA-256 of a module's file; UnhashableError if the file is not the code imported."""
    path = getattr(module, "__file__", None)
    if not (path and os.path.isfile(path)):
        return None
    if not _compiled_from(module, path) or not _unchanged_since_seen(module, path):
        raise UnhashableError(
            f"the file of module {module.__name__!r} ({path}) changed after it was imported, "
            "so the code this process runs is not the file's; restart Python or "
            "importlib.reload the module"
        )
    return _file_hash(path)


# id(module) -> (module, (mtime, size) of its file, ids of its functions and classes), at the
# first description of the module object in this process.
_SEEN_MODULES = {}


def _unchanged_since_seen(module, path):
    """False if the file changed since this module object was first described, unreloaded (a
    reload makes new function and class objects: then the file is the code again)."""
    info = os.stat(path)
    state = (info.st_mtime_ns, info.st_size)
    members = frozenset(
        id(v) for v in list(vars(module).values()) if isinstance(v, (types.FunctionType, type))
    )
    seen = _SEEN_MODULES.get(id(module))
    if seen is None or seen[0] is not module or seen[2] != members:
        _SEEN_MODULES[id(module)] = (module, state, members)
        return True
    return seen[1] == state


def _compiled_from(module, path):
    """Whether the file at ``path`` is still the source ``module`` was compiled from.

    Python validates a module's cached bytecode by the source's modification time and size,
    which the ``.pyc`` header records; an edit after the import leaves them behind (until the
    next import or reload recompiles). Without a timestamped ``.pyc`` (``PYTHONDONTWRITEBYTECODE``,
    a read-only folder), the module's functions are compared with the file's, compiled.
    """
    if not path.endswith(".py"):
        return True
    cached = getattr(module, "__cached__", None)
    try:
        with open(cached, "rb") as file:
            header = file.read(16)
        info = os.stat(path)
    except (OSError, TypeError):
        return _functions_compiled_from(module, path)
    if len(header) < 16 or int.from_bytes(header[4:8], "little") != 0:  # hash-based .pyc
        return _functions_compiled_from(module, path)
    mtime = int.from_bytes(header[8:12], "little")
    size = int.from_bytes(header[12:16], "little")
    return mtime == int(info.st_mtime) & 0xFFFFFFFF and size == info.st_size & 0xFFFFFFFF


def _functions_compiled_from(module, path):
    """Whether the code of every function and method that ``module`` defines is the code the
    file at ``path`` compiles to (code objects compare bytecode, constants and names, not the
    file name); False where one differs or is missing from the file. A module that another
    loader compiled (pytest's assertion rewriting, an import hook) is trusted, as before."""
    loader = getattr(getattr(module, "__spec__", None), "loader", None)
    if type(loader) is not importlib.machinery.SourceFileLoader:
        return True
    try:
        info = os.stat(path)
        compiled = _compiled_code(path, info.st_mtime_ns, info.st_size)
    except (OSError, SyntaxError, ValueError):
        return False
    for value in list(vars(module).values()):
        if not isinstance(value, (types.FunctionType, type)) or value.__module__ != module.__name__:
            continue
        functions = [value] if isinstance(value, types.FunctionType) else _methods(value)
        for function in functions:
            code = function.__code__
            if code.co_filename != path:
                continue  # made elsewhere (a decorator's wrapper, exec)
            if code not in compiled.get((_code_name(code), code.co_firstlineno), ()):
                return False
    return True


def _code_name(code):
    return getattr(code, "co_qualname", code.co_name)  # co_qualname: Python 3.11+


@functools.lru_cache(maxsize=256)
def _module_code(path, mtime_ns, size):
    """The code a module's file compiles to (for one state of the file: its modification time
    and size); OSError, SyntaxError or ValueError where it cannot be read or compiled."""
    return compile(Path(path).read_bytes(), path, "exec", dont_inherit=True)


def _file_code(path):
    info = os.stat(path)
    return _module_code(path, info.st_mtime_ns, info.st_size)


def _file_package(name, path):
    """The package the relative imports of module ``name`` (file ``path``) resolve in."""
    return name if os.path.basename(path) == "__init__.py" else name.rpartition(".")[0]


@functools.lru_cache(maxsize=256)
def _compiled_code(path, mtime_ns, size):
    """``(qualified name, first line) -> code objects`` of every function the file compiles
    to (for one state of the file: its modification time and size)."""
    found = {}
    for code in _nested(_module_code(path, mtime_ns, size)):
        found.setdefault((_code_name(code), code.co_firstlineno), []).append(code)
    return found


def _nested(code):
    """``code`` and every code object nested in it (its functions, classes, comprehensions)."""
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _nested(const)


def _package_identity(module):
    """The identity of a module that is not the user's: by version (and sklearn-fair's source)."""
    kind = _module_kind(module)
    if kind == "stdlib":
        return f"python=={platform.python_version()}"
    if kind == "own":
        from .. import __version__

        return f"sklearn-fair=={__version__} source {source_fingerprint()}"
    return _package_of(module.__name__.split(".")[0])


def _code_names(code):
    """Every name a code object (and the code nested in it) uses: globals, attributes, imports."""
    return {name for nested in _nested(code) for name in nested.co_names}


def _users_code(function):
    """Whether ``function`` is code of the user's, told by the globals it runs in, not by its
    ``__module__``, which ``functools.wraps`` copies (a function of the user's wrapped as
    ``f1_score`` names sklearn's module). A library's function runs in its module's own
    globals, ``vars(sys.modules[name])``; one that runs in globals of no imported module (made
    by ``exec``, ``runpy.run_path``, or a module not in ``sys.modules``) is the user's where
    it was made to look like another (``__wrapped__``), else its ``__module__`` tells (a
    library's generated code: a namedtuple's ``__new__``, scipy's solver wrappers)."""
    name = function.__globals__.get("__name__")
    module = sys.modules.get(name) if isinstance(name, str) else None
    if not isinstance(module, types.ModuleType) or vars(module) is not function.__globals__:
        return hasattr(function, "__wrapped__")
    if _module_kind(module) != "user":
        return False
    # code a library writes into a module under its own name, outside its folder (PyG's
    # generated ``propagate``, in a temporary file): the library's
    top = sys.modules.get(name.split(".")[0])
    return top is module or not (
        isinstance(top, types.ModuleType) and _module_kind(top) == "library"
    )


def _users_layer(function):
    """The first function of the user's code that ``function`` wraps (its ``__wrapped__``
    chain, as ``functools.wraps`` and ``inspect.unwrap`` follow it), or None."""
    seen, inner = set(), getattr(function, "__wrapped__", None)
    while inner is not None and id(inner) not in seen:
        seen.add(id(inner))
        if isinstance(inner, types.FunctionType) and _users_code(inner):
            return inner
        inner = getattr(inner, "__wrapped__", None)
    return None


def _user_module(name):
    module = sys.modules.get(name)
    if isinstance(module, types.ModuleType) and _module_kind(module) == "user":
        return module
    return None


class _Located(typing.NamedTuple):
    """A module of the user's that code imports and this process has not imported yet: found
    as the import system finds it, without running it (or its packages)."""

    name: str
    path: str


@functools.lru_cache(maxsize=4096)
def _imports_in(code):
    """``(name, level, fromlist)`` of every import statement of a code object and the code
    nested in it, read from its bytecode: ``from .helpers import prep`` is ``("helpers", 1,
    ("prep",))``. Nothing is imported."""
    found = []
    for nested in _nested(code):
        previous = [None, None]  # the level and the fromlist are loaded just before IMPORT_NAME
        for instruction in dis.get_instructions(nested):
            if instruction.opname == "IMPORT_NAME":
                level, fromlist = (
                    i.argval if i is not None and i.opname.startswith("LOAD_") else None
                    for i in previous
                )
                if not isinstance(level, int) or not isinstance(fromlist, (tuple, type(None))):
                    raise UnhashableError(
                        f"cannot read the import of {instruction.argval!r} in {nested.co_name}"
                    )
                found.append((instruction.argval, level, fromlist or ()))
            previous = [previous[1], instruction]
    return tuple(found)


def _imported_names(code, package):
    """``[(module name, whether it must exist), ...]`` of the imports in ``code``, relative
    ones resolved against ``package`` (the ``__package__`` of the code's module); a name of a
    ``from`` list may be a module or an attribute, so need not be found."""
    names = []
    for name, level, fromlist in _imports_in(code):
        if level:
            try:
                name = importlib.util.resolve_name("." * level + name, package or None)
            except (ImportError, ValueError):  # fails when it runs: no code is imported
                continue
        names.append((name, True))
        names += [(f"{name}.{item}", False) for item in fromlist if item != "*"]
    return names


def _find_spec(name):
    """The spec the import system would find for ``name``, asking the finders of
    ``sys.meta_path`` as an import does, but without running the module's packages: a package
    that is not imported is located the same way and its search path read from its spec.
    None when no finder finds it."""
    parent, _, _ = name.rpartition(".")
    path = None
    if parent:
        module = sys.modules.get(parent)
        if module is not None:
            path = getattr(module, "__path__", None)
        else:
            spec = _find_spec(parent)
            path = None if spec is None else spec.submodule_search_locations
        if path is None:  # not a package (an attribute of a module) or no such package
            return None
    for finder in sys.meta_path:
        try:  # (AttributeError: a finder without find_spec)
            spec = finder.find_spec(name, path)
        except (ImportError, ValueError, TypeError, AttributeError):
            continue
        if spec is not None:
            return spec
    return None


def _modules_imported_by(code, package):
    """The user's modules a function imports in its body (``import helpers``, ``from .helpers
    import prep`` in ``fit``): the modules, or :class:`_Located` for those not imported yet
    (imported the first time the function runs, after the keys are built)."""
    found = {n: m for n in sorted(_code_names(code)) if (m := _user_module(n)) is not None}
    for name, required in _imported_names(code, package):
        if name in found:
            continue
        module = sys.modules.get(name)
        if module is not None:
            if isinstance(module, types.ModuleType) and _module_kind(module) == "user":
                found[name] = module
            continue
        top = name.split(".")[0]
        imported = sys.modules.get(top)
        if isinstance(imported, types.ModuleType):
            if _module_kind(imported) != "user":
                continue  # the standard library's, sklearn-fair's or an imported library's
        elif top == _OWN or top in sys.builtin_module_names:
            continue  # (a standard library name is located: it may be the user's)
        located = _locate(name, required and "." in name)
        if located is not None:
            found[name] = located
    return list(found.values())


def _libraries_imported_by(code, package):
    """``"distribution==version"`` of the installed libraries that ``code`` imports (``import
    statsmodels.api`` in ``fit``), read from their metadata: nothing is imported."""
    found = set()
    for name, required in _imported_names(code, package):
        top = name.split(".")[0]
        if not required or top == _OWN or top in sys.builtin_module_names:
            continue
        if _kind_of(top) == "library":
            found.add(_package_of(top))
    return found


def _kind_of(name):
    """:func:`_module_kind` of the module ``name``, imported or not (None: no such module)."""
    module = sys.modules.get(name)
    if isinstance(module, types.ModuleType):
        return _module_kind(module)
    spec = _find_spec(name)
    return None if spec is None else _kind(name, _origin(spec))


def _locate(name, required):
    """A :class:`_Located` user's module not imported yet (None for a library's, or for no
    module: an import that fails, or an attribute in a ``from`` list); UnhashableError for
    a required submodule of the user's package that cannot be found without running the
    package (one that its ``__init__`` makes, say): no guess."""
    spec = _find_spec(name)
    if spec is None:
        parent_name = name.rpartition(".")[0]
        if required and parent_name:
            if _kind_of(parent_name) == "user":
                raise UnhashableError(
                    f"cannot locate the module {name!r}, imported inside a function, "
                    "without running its package"
                )
        return None
    origin = _origin(spec)
    if _kind(name, origin) != "user" or not (origin and os.path.isfile(origin)):
        return None  # a library's, or a namespace package (no code of its own)
    return _Located(name, origin)


def _origin(spec):
    return spec.origin if spec.has_location else None


def _located_neighbours(located):
    """The modules a not yet imported module's source imports, read from its compiled code."""
    path = located.path
    if not path.endswith(".py"):
        return []  # a compiled module: its file is in the key, its imports cannot be read
    try:
        code = _file_code(path)
    except (SyntaxError, ValueError) as exc:
        raise UnhashableError(f"cannot read the module {located.name!r} ({exc})") from exc
    return _modules_imported_by(code, _file_package(located.name, path))


def _libraries_of(module):
    """The libraries a module's file imports (a module of the user's, imported or located)."""
    path = module.path if isinstance(module, _Located) else module.__file__
    if not path.endswith(".py"):
        return frozenset()  # a compiled module: its imports cannot be read
    try:
        code = _file_code(path)
    except (OSError, SyntaxError, ValueError) as exc:
        raise UnhashableError(f"cannot read the module file {path!r} ({exc})") from exc
    return _libraries_imported_by(code, _file_package(_name_of(module), path))


def _neighbours(module):
    """The user's modules that ``module`` reaches through its globals and its functions' imports."""
    found = {}

    def add(other):
        if other is not None and other is not module:
            found[_name_of(other)] = other

    for value in list(vars(module).values()):
        if isinstance(value, types.ModuleType):
            if _module_kind(value) == "user":
                add(value)
            continue
        if not isinstance(value, (types.FunctionType, type)):
            continue
        add(_user_module(getattr(value, "__module__", None) or ""))
        if value.__module__ == module.__name__:
            functions = [value] if isinstance(value, types.FunctionType) else _methods(value)
            for function in functions:
                for other in _modules_imported_by(function.__code__, module.__package__):
                    add(other)
    return found.values()


def _is_code(member):
    """Whether a class member is one that :func:`_methods` reads the functions of."""
    return isinstance(member, (types.FunctionType, staticmethod, classmethod, property))


def _methods(cls):
    """The functions a class defines: methods, static and class methods, property accessors."""
    found = []
    for member in list(vars(cls).values()):
        if isinstance(member, (staticmethod, classmethod)):
            member = member.__func__
        if isinstance(member, property):
            found += [f for f in (member.fget, member.fset, member.fdel) if f is not None]
        elif isinstance(member, types.FunctionType):
            found.append(member)
    return [f for f in found if isinstance(f, types.FunctionType)]


class Describer:
    """Describes values by the rules of the module docstring; remembers code it has described.

    One Describer serves one run (e.g. all the cache keys of one NestedCV fit): the code a process
    has imported does not change during the run, so each class, function and module is walked once.
    """

    def __init__(self, *, skip_shipped=False):
        self._code = {}  # id -> (object, identity); the object keeps the id from being reused
        # in a worker process: code that came pickled by value (cloudpickle: a class of the
        # script, a lambda), with the caller's values of what it reads, is described as
        # ``{"shipped": name}`` (see :func:`shipped_by_value`)
        self._skip_shipped = skip_shipped
        # describing what code or a deep copy uses as it is (a bound method's object, a global,
        # a closure), not what clone remakes: estimators there count with their fitted state
        self._as_is = False
        self._kept = {}  # id -> (estimator, description) of those that clone keeps as they are

    def _describe_as_is(self, value, _seen, depth):
        outer, self._as_is = self._as_is, True
        try:
            return self.describe(value, _seen, depth)
        finally:
            self._as_is = outer

    def describe(self, value, _seen=frozenset(), _depth=0):
        """A JSON-able description of ``value`` (see the module docstring)."""
        if _depth > MAX_DEPTH:
            raise UnhashableError(f"a value nested more than {MAX_DEPTH} levels deep")
        depth = _depth + 1
        if value is None or isinstance(value, (bool, str)):
            return value
        if isinstance(value, numbers.Integral):
            return int(value)
        if isinstance(value, numbers.Real):
            number = float(value)
            if number != value and not math.isnan(number):  # a long double, a Fraction: exactly
                return {"real": repr(value)}
            return number if math.isfinite(number) else {"float": repr(number)}
        if isinstance(value, (list, tuple)) and not hasattr(value, "__fingerprint__"):
            if value and is_graph_data(value):
                return {"data": fingerprint(value)}
            return {type(value).__name__: [self.describe(v, _seen, depth) for v in value]}
        if isinstance(value, dict):
            items = [
                [self.describe(k, _seen, depth), self.describe(v, _seen, depth)]
                for k, v in value.items()
            ]
            return {"dict": sorted(items, key=lambda item: canonical_json(item[0]))}
        if isinstance(value, (set, frozenset)):
            return {
                "set": sorted((self.describe(v, _seen, depth) for v in value), key=canonical_json)
            }
        if isinstance(value, bytes):
            return {"bytes": hashlib.sha256(value).hexdigest()}
        if isinstance(
            value,
            (
                type,
                types.FunctionType,
                types.MethodType,
                functools.partial,
                types.BuiltinFunctionType,
                types.ModuleType,
            ),
        ):
            return self.code_identity(value, _seen, depth)
        if is_estimator_like(value):
            if not self._as_is and _clone_keeps_it(type(value)):  # a FrozenEstimator
                # every task's clone is this one object, fitted once: described once a run
                remembered = self._kept.get(id(value))
                if remembered is None or remembered[0] is not value:
                    remembered = (value, self._describe_as_is(value, _seen, depth))
                    self._kept[id(value)] = remembered
                return remembered[1]
            fitted = fitted_state(value) if self._as_is else {}
            return {
                "estimator": self.code_identity(type(value), _seen, depth),
                "params": self.describe(value.get_params(deep=False), _seen, depth),
                **self._settings(value, _seen, depth),
                **({"fitted": self._fitted(fitted, _seen, depth)} if fitted else {}),
            }
        if _is_data(value):
            return {"data": fingerprint_with_index(value)}
        if isinstance(value, np.generic):
            return self.describe(value.item(), _seen, depth)
        if isinstance(value, np.dtype):
            if value.subdtype is not None:  # its str ("|V16") is its size only
                base, shape = value.subdtype
                return {"dtype": {"subarray": [self.describe(base, _seen, depth), list(shape)]}}
            return {
                "dtype": self.describe(value.descr if value.fields else value.str, _seen, depth)
            }
        if isinstance(value, slice):
            return {"slice": self.describe((value.start, value.stop, value.step), _seen, depth)}
        if isinstance(value, np.random.RandomState):
            return {"RandomState": fingerprint(list(value.get_state()))}
        if isinstance(value, np.random.Generator):
            return {"Generator": self.describe(value.bit_generator.state, _seen, depth)}
        if hasattr(value, "__dict__") and id(value) not in _seen:
            # e.g. a scikit-learn scorer or a splitter: its class and its state (which clone
            # deep-copies: as it is); a scorer's metadata requests as an estimator's, whose
            # request object refers back to the scorer
            seen = _seen | {id(value)}
            state = {name: v for name, v in vars(value).items() if name not in _SETTINGS}
            if isinstance(value, np.vectorize) and state.get("_ufunc"):
                state["_ufunc"] = {}  # a cache of np.frompyfunc(its pyfunc), described already
            return {
                "object": self.code_identity(type(value), seen, depth),
                "state": self._describe_as_is(state, seen, depth),
                **self._outside_dict(value, seen, depth),
                **self._settings(value, seen, depth),
            }
        raise UnhashableError(f"cannot describe a value of type {type(value).__qualname__}")

    def _outside_dict(self, value, _seen, depth):
        """What an object with a ``__dict__`` keeps outside it: the values of its ``__slots__``;
        a :class:`random.Random`'s generator state (its ``getstate()``); a ufunc's owner where
        its ``__dict__`` does not name it (:func:`_ufunc_packages`). UnhashableError for any
        other state that a base implemented in C keeps (:func:`_hidden_state`), and for a
        ``np.frompyfunc`` ufunc, whose Python function cannot be read."""
        found = {}
        slots = _slot_values(value)
        if slots:
            found["slots"] = self._describe_as_is(slots, _seen, depth)
        if isinstance(value, random.Random):
            try:
                state = value.getstate()
            except NotImplementedError:  # random.SystemRandom: the system's entropy
                raise UnhashableError(
                    f"a {type(value).__qualname__} has no state to describe: its draws differ "
                    "in every run"
                ) from None
            found["Random"] = digest(self.describe(state, _seen, depth))
        elif isinstance(value, np.ufunc):
            if value.__name__.endswith(" (vectorized)"):
                raise UnhashableError(
                    f"cannot read the Python function of the ufunc {value.__name__!r} made by "
                    "np.frompyfunc or np.vectorize; pass the function itself, or np.vectorize(f)"
                )
            if not vars(value):  # no __module__ nor __doc__ of its own (most scipy.special)
                found["ufunc"] = [value.__name__, _ufunc_packages(value)]
        elif _hidden_state(type(value)) and not isinstance(value, _STATE_IN_DICT):
            raise UnhashableError(
                f"cannot describe a value of type {type(value).__qualname__}: a base class "
                "implemented in C keeps state outside its attributes"
            )
        return found

    def _settings(self, estimator, _seen, depth):
        """:func:`estimator_settings`, described."""
        return {
            name: self.describe(value, _seen, depth)
            for name, value in estimator_settings(estimator).items()
        }

    def _fitted(self, state, _seen, depth):
        """The digest of a fitted state by value (a forest's is large: a cache entry keeps its
        key); an attribute that cannot be described by its pickle (``joblib.hash``: a
        compiled tree, a torch module), else UnhashableError."""
        described = {}
        for name, value in state.items():
            try:
                described[name] = self.describe(value, _seen, depth)
            except UnhashableError:
                try:
                    described[name] = {"pickle": joblib.hash(value)}
                except Exception as exc:
                    raise UnhashableError(
                        f"cannot describe the fitted attribute {name!r} of an estimator ({exc})"
                    ) from exc
        return digest(described)

    def code_identity(self, obj, _seen=frozenset(), _depth=0):
        """The identity of a class, function or module (see the module docstring)."""
        if _depth > MAX_DEPTH:
            raise UnhashableError(f"code nested more than {MAX_DEPTH} levels deep")
        depth = _depth + 1
        if isinstance(obj, functools.partial):
            return {
                # a callable object (numpy's functions) as describe() describes it
                "partial": self.describe(obj.func, _seen, depth),
                "args": self._describe_as_is(obj.args, _seen, depth),
                "keywords": self._describe_as_is(obj.keywords, _seen, depth),
            }
        if isinstance(obj, types.MethodType):
            return {
                "method": self.code_identity(obj.__func__, _seen, depth),
                "self": self._describe_as_is(obj.__self__, _seen, depth),
            }
        remembered = self._code.get(id(obj))
        if remembered is not None and remembered[0] is obj:
            return remembered[1]
        if self._skip_shipped and shipped_by_value(obj):
            return {"shipped": qualified_name(obj)}
        if isinstance(obj, types.ModuleType):
            identity = self._module_identity(obj)
        elif isinstance(obj, type):
            if id(obj) in _seen:  # a method's own class (super()'s __class__): being described
                return {"class": qualified_name(obj), "recursive": True}
            identity = self._class_identity(obj, _seen | {id(obj)}, depth)
        elif isinstance(obj, types.FunctionType):
            if id(obj) in _seen:  # a recursive function: its code is being described already
                return {"function": qualified_name(obj), "recursive": True}
            identity = self._function_identity(obj, _seen | {id(obj)}, depth)
        elif isinstance(obj, types.BuiltinFunctionType):
            module_name = getattr(obj, "__module__", None) or "builtins"
            module = sys.modules.get(module_name)
            identity = {
                "builtin": f"{module_name}.{obj.__qualname__}",
                "package": _package_identity(module) if module else f"{module_name}==unknown",
            }
            owner = getattr(obj, "__self__", None)
            if owner is not None and not isinstance(owner, types.ModuleType):
                # a bound method of a built-in type (``mapping.get``): its object's content
                return {**identity, "self": self._describe_as_is(owner, _seen, depth)}
        else:
            raise UnhashableError(f"cannot identify the code of {obj!r}")
        if isinstance(obj, (type, types.ModuleType)) or not _seen:
            self._code[id(obj)] = (obj, identity)
        return identity

    def _module_identity(self, module):
        if _module_kind(module) != "user":
            return {"module": module.__name__, "package": _package_identity(module)}
        return {
            "module": module.__name__,
            "source": _module_source(module),
            "reaches": self._reaches([module]),
        }

    def _reaches(self, modules):
        """``[[name, source hash], ...]`` of the user's modules reachable from ``modules`` (and
        :class:`_Located` modules, not imported yet, reachable through their source)."""
        reached, libraries = {}, set()
        frontier = [m for m in modules if isinstance(m, _Located) or _module_kind(m) == "user"]
        while frontier:
            module = frontier.pop()
            name = _name_of(module)
            if name in reached:
                continue
            located = isinstance(module, _Located)
            # the same hash as the module's once imported: a warm process keys as a cold one
            reached[name] = _file_hash(module.path) if located else _module_source(module)
            if len(reached) > MAX_MODULES:
                raise UnhashableError(
                    f"the code reaches more than {MAX_MODULES} modules of your own (from "
                    f"{_name_of(modules[0])!r}); it cannot be described within the limit"
                )
            if reached[name] is None:
                continue  # no file (a notebook, exec): its functions are described by code
            libraries |= _libraries_of(module)
            neighbours = _located_neighbours(module) if located else _neighbours(module)
            frontier += [m for m in neighbours if _name_of(m) not in reached]
        # the libraries their files import: an upgrade changes what the code computes
        return sorted([name, source] for name, source in reached.items()) + [
            ["library", library] for library in sorted(libraries)
        ]

    def _class_identity(self, cls, _seen, depth):
        name = qualified_name(cls)
        module = sys.modules.get(cls.__module__)
        if module is None:
            raise UnhashableError(f"cannot find the module of class {name}")
        if _module_kind(module) != "user" and getattr(module, cls.__qualname__, None) is not cls:
            # a class of the user's that names a library's module as its own (not one that
            # module holds, whose methods a test or a notebook may have patched)
            users = [f.__qualname__ for f in _methods(cls) if _users_code(f)]
            if users:
                raise UnhashableError(
                    f"class {name} names the module {cls.__module__!r} as its own, but its "
                    f"method {users[0]} is code of a module of yours"
                )
        if _module_kind(module) != "user":
            return {"class": name, "package": _package_identity(module)}
        sources, packages, modules = [], set(), []
        for base in cls.__mro__:
            if base is object:
                continue
            base_module = sys.modules.get(base.__module__)
            if base_module is None:
                raise UnhashableError(f"cannot find the module of class {qualified_name(base)}")
            if _module_kind(base_module) != "user":
                packages.add(_package_identity(base_module))
                continue
            source = _module_source(base_module)
            if source is not None:
                # the file, and what its methods read that a script may set at run time (a
                # module global, a class attribute): by value, as a function's globals
                state = self._class_state(base, _seen, depth)
                # and the code its methods run, which need not be the file's: a class imported
                # before an importlib.reload of its module, or loaded from a stale .pyc
                code = [[f.__qualname__, _code_digest(f.__code__)] for f in _methods(base)]
                sources.append([qualified_name(base), source, state, code])
                modules.append(base_module)
                continue
            # no source file (a class made in a notebook or by exec): its methods' code and
            # the other attributes of its body (a method may read ``self.flip``)
            methods = [
                [f.__qualname__, self._function_identity(f, _seen | {id(f)}, depth)]
                for f in _methods(base)  # in the order of the class body
            ]
            if not methods:
                raise UnhashableError(f"cannot find the code of class {name}")
            attributes = [
                [key, self._describe_as_is(value, _seen, depth)]
                for key, value in vars(base).items()
                if not key.startswith("__") and key != "_abc_impl" and not _is_code(value)
            ]  # (``_abc_impl``: the registry of an ABC's subclasses, no code of the class)
            sources.append([qualified_name(base), methods, attributes])
        return {
            "class": name,
            "sources": sources,
            "packages": sorted(packages),
            "reaches": self._reaches(modules),
        }

    def _class_state(self, cls, _seen, depth):
        """The class attributes of ``cls`` and the globals its methods read, by value; not
        the attributes its own methods assign (``type(self).fits += 1``: the class's state as
        it runs, not a setting)."""
        assigned = {
            name
            for function in _methods(cls)
            for name in _assigned_in(function.__code__, cls.__name__)
        }
        attributes = {
            key: self._value_read(value, (), _seen, depth)
            for key, value in vars(cls).items()
            if not key.startswith("__")
            and key != "_abc_impl"
            and key not in assigned
            and not _is_code(value)
        }
        globals_read, made = {}, {}
        for function in _methods(cls):
            names = _code_names(function.__code__)
            for name in sorted(names & function.__globals__.keys()):
                if name not in globals_read:
                    value = function.__globals__[name]
                    globals_read[name] = self._value_read(value, names, _seen, depth)
            values = self._made_with(function, _seen, depth)
            if values:
                made[function.__qualname__] = values
        state = {"attributes": attributes, "globals": globals_read}
        return {**state, "made_with": made} if made else state

    def _made_with(self, function, _seen, depth):
        """What a function of a file got when its ``def`` ran, which its source does not fix:
        the variables of the call that made it (``n_features`` of a class factory) and its
        default values (``def fit(self, X, y, weight=scale)``)."""
        cells = zip(function.__code__.co_freevars, function.__closure__ or ())
        closure = {}
        for name, cell in cells:
            if name == "__class__":
                continue  # the class itself (super()): being described
            try:
                value = cell.cell_contents
            except ValueError:  # a variable not assigned yet
                continue
            closure[name] = self._value_read(value, (), _seen, depth)
        made = {"closure": closure} if closure else {}
        for name in ("__defaults__", "__kwdefaults__"):
            if getattr(function, name):
                made[name.strip("_")] = self._value_read(getattr(function, name), (), _seen, depth)
        return made

    def _value_read(self, value, names, _seen, depth):
        """A global or attribute that code reads: described, else :func:`_opaque`; a module
        of the user's with the values of its attributes that the code names
        (``helpers.SCALE``), which a script may set at run time. In a worker
        (``skip_shipped``), data that running the code can change (:func:`changed_by_use`) is
        ``{"changed_by_use": type}``: the worker's own fits may have changed it."""
        if self._skip_shipped and changed_by_use(value):
            return {"changed_by_use": type(value).__qualname__}
        try:
            if isinstance(value, types.ModuleType) and _module_kind(value) == "user":
                read = sorted(set(names) & set(vars(value)))
                return {
                    "module": self._describe_as_is(value, _seen, depth),
                    "read": {
                        n: self._value_read(vars(value)[n], (), _seen, depth)
                        for n in read
                        if not isinstance(vars(value)[n], types.ModuleType)
                    },
                }
            return self._describe_as_is(value, _seen, depth)
        except UnhashableError:
            return _opaque(value)

    def _function_identity(self, function, _seen, depth):
        name = qualified_name(function)
        module = sys.modules.get(getattr(function, "__module__", None) or "")
        if (
            module is not None
            and _module_kind(module) != "user"
            and not _users_code(function)
            and _users_layer(function) is None
        ):
            return {"function": name, "package": _package_identity(module)}
        # the user's code, or a library's decorator on it: by its code, whose closure holds
        # the function it wraps and the decorator's settings (np.errstate(all="raise"))
        code = function.__code__
        globals_read = {}
        names = _code_names(code)
        for global_name in sorted(names & function.__globals__.keys()):
            value = function.__globals__[global_name]
            globals_read[global_name] = self._value_read(value, names, _seen, depth)
        closure = [
            self._describe_as_is(cell.cell_contents, _seen, depth)
            for cell in function.__closure__ or ()
        ]
        package = function.__globals__.get("__package__")
        libraries = _libraries_imported_by(code, package)
        return {
            "function": name,
            "code": _code_digest(code),
            "defaults": self._describe_as_is(function.__defaults__, _seen, depth),
            "kwdefaults": self._describe_as_is(function.__kwdefaults__, _seen, depth),
            "closure": closure,
            "globals": globals_read,
            "imports": self._reaches(_modules_imported_by(code, package)),
            **({"libraries": sorted(libraries)} if libraries else {}),
        }


@functools.lru_cache(maxsize=4096)
def _assigned_in(code, class_name):
    """The attribute names that a code object (and the code nested in it) assigns on its class
    or on an instance of it: ``self.x``, ``cls.x``, ``type(self).x``, ``self.__class__.x`` or
    ``ClassName.x`` (by the name ``class_name``), augmented or not; not those assigned on
    another object (``model.max_iter = self.max_iter``), which leave the class's own unchanged."""
    owners = {"self", "cls", "__class__", class_name}
    found = set()
    for nested in _nested(code):
        instructions = [i for i in dis.get_instructions(nested) if i.opname not in _NO_STACK]
        for k, instruction in enumerate(instructions):
            if instruction.opname == "STORE_ATTR" and _stores_on(
                instructions[:k], instruction.argval, owners
            ):
                found.add(instruction.argval)
    return frozenset(found)


# instructions that leave the operands of an expression in place (Python 3.11's PRECALL before
# a CALL, the NULL pushed before a function called)
_NO_STACK = frozenset({"CACHE", "EXTENDED_ARG", "NOP", "PRECALL", "PUSH_NULL"})


def _stores_on(before, name, owners):
    """Whether the object that a STORE_ATTR of ``name`` assigns on, which the instructions
    ``before`` it load, is one of ``owners`` (or ``type(owner)``, ``owner.__class__``). An
    object loaded any other way counts as another object: its attribute stays in the key."""
    if before and before[-1].opname in ("SWAP", "ROT_TWO"):
        # ``obj.x += 1``: obj, COPY 1 (DUP_TOP), LOAD_ATTR x, the value, the operation, SWAP 2
        for j in range(len(before) - 2, 0, -1):
            load, copy = before[j], before[j - 1]
            copied = copy.opname == "DUP_TOP" or (copy.opname == "COPY" and copy.arg == 1)
            if copied and load.opname == "LOAD_ATTR" and load.argval == name:
                before = before[: j - 1]
                break
        else:
            return False
    if before and _loads_owner(before[-1], owners):
        return True
    if len(before) >= 2 and _loads_owner(before[-2], owners):
        last = before[-1]
        if last.opname == "LOAD_ATTR" and last.argval == "__class__":
            return True
        if last.opname in ("CALL", "CALL_FUNCTION") and last.arg == 1 and len(before) >= 3:
            return _loads_owner(before[-3], {"type"})
    return False


def _loads_owner(instruction, owners):
    opname = instruction.opname
    if not (opname.startswith("LOAD_FAST") or opname in _NAME_LOADS):
        return False
    name = instruction.argval
    if isinstance(name, tuple):  # LOAD_FAST_LOAD_FAST (Python 3.13+): the second is on top
        name = name[-1]
    return name in owners


_NAME_LOADS = frozenset({"LOAD_DEREF", "LOAD_CLASSDEREF", "LOAD_GLOBAL", "LOAD_NAME"})


# what an estimator keeps on itself that is neither a parameter nor fitted state: its settings,
# described apart (Describer._settings)
_SETTINGS = frozenset({"_metadata_request", "_sklearn_output_config"})


def _clone_keeps_it(cls):
    """Whether ``clone`` returns an estimator of ``cls`` as it is, fitted (FrozenEstimator)."""
    own = getattr(cls, "__sklearn_clone__", None)
    return own is not None and own is not getattr(BaseEstimator, "__sklearn_clone__", None)


def estimator_settings(estimator):
    """What an estimator keeps outside its parameters and changes its results: its
    metadata-routing requests (``set_fit_request``, ``set_score_request``...) as
    ``"requests"`` and its ``set_output`` configuration as ``"output"``. Those methods store
    them on the instance (and ``clone`` copies them); an estimator that never called them has
    none (an empty dict)."""
    state = getattr(estimator, "__dict__", {})
    settings = {}
    if state.get("_metadata_request") is not None:
        request = state["_metadata_request"]
        serialize = getattr(request, "_serialize", None)  # {method: {metadata: request}}
        settings["requests"] = serialize() if callable(serialize) else request
    if state.get("_sklearn_output_config") is not None:
        settings["output"] = state["_sklearn_output_config"]
    return settings


def is_estimator_like(value):
    """Whether ``value`` is described as an estimator: its ``get_params`` takes scikit-learn's
    ``deep`` (``clone`` and NestedCV ask no more of an estimator); a PyG layer's ``Inspector``
    has a ``get_params(func)`` of another kind."""
    get_params = getattr(value, "get_params", None)
    if not callable(get_params):
        return False
    try:
        parameters = inspect.signature(get_params).parameters.values()
    except (TypeError, ValueError):  # no signature to read (a builtin): as scikit-learn's
        return True
    return any(p.name == "deep" or p.kind is p.VAR_KEYWORD for p in parameters)


def fitted_state(estimator):
    """The attributes ``estimator`` holds besides its parameters and settings: its fitted state
    (``coef_``, ``_fit_X``...). ``clone`` drops it, but a FrozenEstimator, a fitted model's bound
    method (``pca.transform``) or a global that a function reads keep a fitted model in a run,
    and two of one class and parameters then differ only there. Empty for a fresh clone."""
    params = estimator.get_params(deep=False)
    return {
        name: value
        for name, value in getattr(estimator, "__dict__", {}).items()
        if name not in params and name not in _SETTINGS
    }


def changed_by_use(value):
    """Whether ``value``, read by code, is data that running the code can change: a dict, a
    list, a set (a memo, a counter), a random generator, an object's state. Numbers,
    strings, tuples, frozensets, arrays, estimators and code are not."""
    if isinstance(value, (dict, list, set, bytearray, np.random.Generator, np.random.RandomState)):
        return True
    plain = (type(None), bool, numbers.Number, str, bytes, tuple, frozenset, range, np.ndarray)
    if isinstance(value, plain) or is_estimator_like(value) or _is_data(value):
        return False
    code = (type, types.FunctionType, types.MethodType, types.ModuleType, functools.partial)
    return not isinstance(value, code) and hasattr(value, "__dict__")


def shipped_by_value(obj):
    """Whether cloudpickle rebuilt the class or function ``obj`` in this process from its code
    and the values it read where it was pickled (a class of a script, a lambda, a module
    registered to be pickled by value), rather than importing it: a class that its module does
    not hold by its name, a function whose globals are not its module's."""
    module = sys.modules.get(getattr(obj, "__module__", None) or "")
    if isinstance(obj, types.FunctionType):
        return module is None or obj.__globals__ is not vars(module)
    if not isinstance(obj, type):
        return False
    found = module
    for part in obj.__qualname__.split("."):
        found = getattr(found, part, None)
    return found is not obj


def _name_of(module):
    return module.name if isinstance(module, _Located) else module.__name__


def _opaque(value):
    """A global that :meth:`Describer.describe` cannot read (a slice, a compiled pattern, a date):
    by its pickle (``joblib.hash``) where it has one, so that editing ``KEEP = slice(0, 5)``
    changes the description; by its type alone where it has none (a lock, a file)."""
    try:
        return {"opaque": type(value).__qualname__, "pickle": joblib.hash(value)}
    except Exception:
        return {"opaque": type(value).__qualname__}


def qualified_name(obj):
    """``module.qualname`` of a class or function (empty parts where ``obj`` lacks them)."""
    return f"{getattr(obj, '__module__', '')}.{getattr(obj, '__qualname__', '')}"


def _code_digest(code):
    """Bytecode, constants (nested code included), names and variable names of a code object."""
    parts = [code.co_code.hex(), repr(code.co_names), repr(code.co_varnames)]
    for const in code.co_consts:
        parts.append(_code_digest(const) if isinstance(const, types.CodeType) else _repr(const))
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def _repr(const):
    """The ``repr`` of a constant, a frozenset's items sorted (``x in {"a", "b"}`` compiles to
    one, in an order that changes with ``PYTHONHASHSEED``)."""
    if isinstance(const, frozenset):
        return "frozenset({" + ", ".join(sorted(map(_repr, const))) + "})"
    if isinstance(const, tuple):
        return "(" + "".join(_repr(item) + ", " for item in const) + ")"
    return repr(const)


def _slot_names(cls):
    """The attribute names of the ``__slots__`` that ``cls`` itself declares (mangled as
    Python stores them), without ``__dict__`` and ``__weakref__``."""
    slots = vars(cls).get("__slots__", ())
    slots = (slots,) if isinstance(slots, str) else slots
    private = "_" + cls.__name__.lstrip("_")
    return [
        private + name if name.startswith("__") and not name.endswith("__") else name
        for name in slots
        if name not in ("__dict__", "__weakref__")
    ]


def _slot_values(value):
    """``{"Class.slot": value}`` of the ``__slots__`` of every class of ``value``'s MRO that
    are set (one not set is left out)."""
    found = {}
    for cls in type(value).__mro__:
        for name in _slot_names(cls):
            try:
                found[f"{cls.__qualname__}.{name}"] = vars(cls)[name].__get__(value, cls)
            except (AttributeError, KeyError):
                continue
    return found


_POINTER = struct.calcsize("P")
# types implemented in C whose own fields hold what their ``__dict__`` shows (the function as
# ``__wrapped__``), a cache of it, or code of their library: numpy's functions (``np.clip``), a
# function decorated with ``functools.lru_cache``, staticmethod and classmethod objects
_STATE_IN_DICT = (type(np.clip), functools._lru_cache_wrapper, staticmethod, classmethod)


def _hidden_state(cls):
    """Whether instances of ``cls`` keep state that neither their ``__dict__`` nor their
    ``__slots__`` show: a base implemented in C whose fields grow the instance beyond
    ``object``, the slots and the pointers to the ``__dict__`` and weak references
    (``random.Random``'s generator, a ``datetime``, an exception's arguments)."""
    size = object.__basicsize__ + _POINTER * sum(len(_slot_names(c)) for c in cls.__mro__)
    size += _POINTER * ((cls.__dictoffset__ > 0) + (cls.__weakrefoffset__ > 0))
    return cls.__basicsize__ > size or cls.__itemsize__ > 0


def _ufunc_packages(ufunc):
    """The package (``[name==version]``, :func:`_package_identity`) of the shallowest imported
    module, not the user's, that holds ``ufunc`` under its name (``scipy.special`` for
    ``scipy.special.kv``, whose ``__dict__`` is empty): a package imports before any of its
    modules, so what else was imported (scikit-learn's kernels re-export ``kv``) does not
    change it. UnhashableError where none does (a ufunc compiled from the user's code)."""
    holders = [
        name
        for name, module in list(sys.modules.items())
        if isinstance(module, types.ModuleType)
        and vars(module).get(ufunc.__name__) is ufunc
        and _module_kind(module) != "user"
    ]
    if not holders:
        raise UnhashableError(
            f"cannot identify the code of the ufunc {ufunc.__name__!r}: no installed package "
            "holds it"
        )
    shallowest = min(holders, key=lambda name: (name.count("."), name))
    return [_package_identity(sys.modules[shallowest])]


def _is_data(value):
    return (
        isinstance(value, np.ndarray)
        or (hasattr(value, "detach") and hasattr(value, "cpu"))
        or hasattr(value, "__fingerprint__")
        or hasattr(value, "tocsr")
        or hasattr(value, "to_numpy")
    )


def describe(value):
    """A JSON-able description of ``value`` that changes whenever its content or code does.

    Parameters
    ----------
    value : object
        Described by the rules of the module docstring.

    Returns
    -------
    description : JSON-able object

    Raises
    ------
    UnhashableError
        For a value whose content or code cannot be described stably.

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_fair.utils import describe
    >>> describe({"b": 1, "a": [2, 1]}) == describe({"a": [2, 1], "b": 1})
    True
    >>> describe([1, 2]) == describe([2, 1])
    False
    >>> describe(LogisticRegression(C=2.0)) == describe(LogisticRegression(C=1.0))
    False
    """
    return Describer().describe(value)


def code_identity(obj):
    """The identity of a class, function or module (see the module docstring).

    Examples
    --------
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sklearn_fair.utils._provenance import code_identity
    >>> code_identity(DecisionTreeClassifier)["package"].startswith("scikit-learn==")
    True
    """
    return Describer().code_identity(obj)


def canonical_json(description):
    """The canonical JSON text of a description: sorted keys, no spaces, ASCII only."""
    return json.dumps(description, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def digest(description):
    """``"sha256:"`` and the SHA-256 of the canonical JSON of ``description``.

    Also the checksum of a JSON document written to disk: recompute it over the document read
    back (without its checksum field) to tell a truncated or edited file.

    Examples
    --------
    >>> from sklearn_fair.utils import digest
    >>> digest({"a": 1, "b": [1, 2]}) == digest({"b": [1, 2], "a": 1})
    True
    >>> digest({"a": 1})[:7]
    'sha256:'
    """
    return "sha256:" + hashlib.sha256(canonical_json(description).encode()).hexdigest()


def checksum(document):
    """``"sha256:<hex>"``: the :func:`digest` of a JSON document without its ``checksum``
    field, the rule of every file sklearn-fair writes with a checksum (the runner's and the
    report's)."""
    return digest({key: value for key, value in document.items() if key != "checksum"})


def with_checksum(document):
    """A copy of ``document`` (a dict) with its ``checksum`` as the last field."""
    document = {key: value for key, value in document.items() if key != "checksum"}
    document["checksum"] = checksum(document)
    return document
