"""The data of a run, and how it reaches the workers: once per worker, never once per task.

For worker processes the :class:`RunData` is written once with ``joblib.dump``'s pickler and
each task carries a :class:`DataHandle` (a path), which each worker loads once, memory-mapped;
on Dask it is scattered once. So what is sent per task does not grow with the data set. Graph
data is sent compact (:func:`for_workers`): an iterated PyG ``InMemoryDataset`` would otherwise
pickle its whole storage once per graph. The caller's process keeps the user's own object (the
cache key and the serial path see exactly what was passed).
"""

import io
import os
import pickle
import shutil
import tempfile
import types
import uuid
from collections import OrderedDict
from dataclasses import dataclass, field, replace

import cloudpickle
import joblib
import numpy as np
import scipy.sparse as sp
from joblib.externals.loky.backend import resource_tracker
from joblib.numpy_pickle import NumpyPickler
from sklearn.utils import _safe_indexing, get_tags
from sklearn.utils.validation import _is_arraylike, _make_indexable, _num_samples

from ...utils import CollatedGraphs, compact_graphs, is_graph_data

__all__ = [
    "DataHandle",
    "RunData",
    "for_workers",
    "fresh",
    "handed_out",
    "is_pairwise",
    "rows_of",
    "take",
]


def take(values, indices):
    """Rows ``indices`` of ``values`` (arrays, DataFrames, sparse matrices, graph data, None)."""
    if values is None:
        return None
    if isinstance(values, np.ndarray) and getattr(indices, "dtype", None) is not None:
        if indices.dtype.kind in "iu":  # what _safe_indexing does, without its frame checks
            return values[indices]
    if is_graph_data(values) and not isinstance(values, (list, tuple, np.ndarray)):
        if hasattr(values, "iloc"):  # a pandas Series of graphs: by position, not by label
            return _safe_indexing(values, indices)
        try:
            # a graph container indexes itself (a sub-collection, a PyG subset) without copying
            # every graph into a Python list
            return values[np.asarray(indices)]
        except (TypeError, IndexError, KeyError, ValueError):
            pass
    return _safe_indexing(values, indices)


def fresh(values):
    """A copy of the rows of ``values`` (any container :func:`take` reads; None stays None).

    For a consumer that may write into what it is given (a pipeline whose
    ``StandardScaler(copy=False)`` scales its input in place) while ``values`` is still to be
    handed to another: each must see the rows as they were.
    """
    if values is None:
        return None
    if sp.issparse(values):  # in its own format: a COO matrix has no rows to take
        return values.copy()
    return take(values, np.arange(_num_samples(values)))


def handed_out(values, n_calls):
    """``values`` for at most ``n_calls`` calls in turn, each of which may write into what it is
    given: a :func:`fresh` copy for each but the last, which gets ``values`` itself. A
    generator: copies are made only for the calls that take one, so a single call costs
    none."""
    for call in range(n_calls):
        yield fresh(values) if call < n_calls - 1 else values


def rows_of(value):
    """The number of rows of an array-like or sparse ``value`` (as scikit-learn's
    ``_num_samples`` counts them); None where it has none (a scalar, a string)."""
    if not (_is_arraylike(value) or sp.issparse(value)) or isinstance(value, str):
        return None
    try:
        return _num_samples(value)
    except TypeError:
        return None


def _aligned(params, indices, n_samples):
    """``params`` with each value that has one entry per sample indexed by ``indices`` (as
    scikit-learn's ``_check_method_params``); each other one the task's own (:func:`_own`):
    the caller's process runs tasks on the user's objects."""
    subset = {}
    for name, value in params.items():
        if isinstance(value, CollatedGraphs):
            # graphs made compact for the workers: the user's list (object array, Series) again,
            # of the rows if aligned, whole if not (validation graphs)
            value = value[indices if len(value) == n_samples else slice(None)]
        elif (length := rows_of(value)) == n_samples:
            value = _safe_indexing(_make_indexable(value), indices)
        elif length is not None:
            value = _own(value)
        subset[name] = value
    return subset


def _own(value):
    """A task's own ``value`` (a fit or score parameter given whole), which it may write into
    without changing another task's: a copy of an array, a frame, a sparse matrix or graphs
    (not a read-only view: SGDClassifier's Cython writes into its ``coef_init`` through one);
    anything else (a tuple, a set, a lookup table) as it is."""
    array = isinstance(value, np.ndarray) or sp.issparse(value) or hasattr(value, "iloc")
    return fresh(value) if array or is_graph_data(value) else value


def is_pairwise(estimator):
    """Whether ``estimator`` takes a square kernel or distance matrix (``SVC(kernel=
    "precomputed")``): its columns are then indexed with the training rows, as in
    scikit-learn's ``_safe_split``."""
    try:
        return bool(get_tags(estimator).input_tags.pairwise)
    except (AttributeError, TypeError, ValueError):
        return False


@dataclass
class RunData:
    """``X``, ``y`` and the metadata of one run, as the tasks read them."""

    X: object
    y: object
    fit_params: dict = field(default_factory=dict)
    score_params: dict = field(default_factory=dict)  # scorer name -> params
    rows: dict = field(default_factory=dict)  # name of a set of rows -> row indices
    # scorer name -> params of the inner selection's scores, where they differ (None: the same)
    selection_score_params: dict | None = None
    # what the fit of a search run whole receives besides fit_params (its groups), not its
    # estimator's fits
    search_params: dict = field(default_factory=dict)
    # with metadata routing, search_params is all that it receives, routed as cross_validate
    # routes them (its estimator's requests, aliases included, not fit_params as given)
    search_params_whole: bool = False

    @property
    def n_samples(self):
        return len(self.y) if self.y is not None else _num_samples(self.X)

    def resolve(self):
        return self

    def subset(self, rows, columns=None):
        """``X`` and ``y`` of the rows named ``rows`` (a key of :attr:`rows`); for a pairwise
        estimator, ``columns`` names the training rows whose columns ``X`` keeps."""
        indices = self.rows[rows]
        X = take(self.X, indices)
        if columns is not None:
            if not hasattr(X, "shape"):
                raise ValueError(
                    "Precomputed kernels or affinity matrices have to be passed as arrays or "
                    "sparse matrices."
                )
            X = X[:, self.rows[columns]]
        return X, take(self.y, indices)

    def fit_params_for(self, rows):
        return _aligned(self.fit_params, self.rows[rows], self.n_samples)

    def search_fit_params_for(self, rows):
        """What the fit of a search run whole receives on ``rows``: the fit params and its
        own (:attr:`search_params`)."""
        params = self.search_params
        if not self.search_params_whole:
            params = {**self.fit_params, **params}
        return _aligned(params, self.rows[rows], self.n_samples)

    def score_params_for(self, rows, selection=False):
        """Each scorer's params on ``rows``; those of the inner selection where
        ``selection``."""
        given = self.score_params
        if selection and self.selection_score_params is not None:
            given = self.selection_score_params
        return {
            name: _aligned(params, self.rows[rows], self.n_samples)
            for name, params in given.items()
        }


# The runs a worker process has loaded, most recent last; a worker serves one run at a time,
# so two are enough and older ones are released.
_LOADED = OrderedDict()
_KEEP = 2


@dataclass(frozen=True)
class DataHandle:
    """A reference to a RunData written to ``path``; what each task carries instead of data."""

    path: str

    def resolve(self):
        data = _LOADED.get(self.path)
        if data is None:
            data = _LOADED[self.path] = joblib.load(self.path, mmap_mode="r")
        _LOADED.move_to_end(self.path)
        while len(_LOADED) > _KEEP:
            _LOADED.popitem(last=False)
        return data


def for_workers(data):
    """``data`` as sent to worker processes: ``X`` and every fit or score parameter that holds
    graphs (``X_val``) through :func:`~sklearn_fair.utils.compact_graphs`; :func:`take` of a
    compact ``X`` gives the user's container type, holding graphs equal to the originals."""
    own = getattr(data, "for_workers", None)
    if own is not None:  # several runs' data shipped together (run_plans' PlansData)
        return own()
    X = compact_graphs(data.X)
    fit_params = _compact_params(data.fit_params)
    score_params = {name: _compact_params(params) for name, params in data.score_params.items()}
    unchanged = X is data.X and fit_params is data.fit_params
    if unchanged and all(score_params[name] is data.score_params[name] for name in score_params):
        return data
    return replace(data, X=X, fit_params=fit_params, score_params=score_params)


def _compact_params(params):
    """``params`` with each value that holds graphs compact; ``params`` itself if none does."""
    compact = {name: compact_graphs(value) for name, value in params.items()}
    if all(compact[name] is value for name, value in params.items()):
        return params
    return compact


def _by_value(obj):
    """The reduction of a class or function of the user's script or notebook (``__main__``):
    by value (cloudpickle), as loky sends a task's function; in a worker, ``__main__`` is not
    the user's, and a PyG transform defined there could not be found by name."""
    if isinstance(obj, (type, types.FunctionType)) and obj.__module__ == "__main__":
        return cloudpickle.loads, (cloudpickle.dumps(obj),)
    return NotImplemented


class _ObjectsPickler(pickle.Pickler):
    """The standard pickler, with :func:`_by_value`: for an object array's items, read back
    as they were written (arrays among them writable, not memory-mapped)."""

    reducer_override = staticmethod(_by_value)


class _MainByValuePickler(NumpyPickler):
    """joblib.dump's pickler (read back by joblib.load, its numeric arrays memory-mapped), with
    :func:`_by_value`."""

    reducer_override = staticmethod(_by_value)

    def save(self, obj):
        # joblib writes an object array's items with a pickler of its own, past _by_value
        if type(obj) is np.ndarray and obj.dtype.hasobject:
            buffer = io.BytesIO()
            _ObjectsPickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(obj)
            return self.save_reduce(pickle.loads, (buffer.getvalue(),), obj=obj)
        return super().save(obj)


class SharedRunData:
    """Writes a RunData once to a temporary folder, and removes the folder when closed; or,
    where this process ends without closing it (killed, a notebook's kernel restarted), loky's
    resource tracker removes it, as it removes joblib's own memory-mapping folders."""

    def __init__(self, data, temp_folder=None):
        base = temp_folder or os.environ.get("JOBLIB_TEMP_FOLDER") or _default_temp_folder()
        self.folder = tempfile.mkdtemp(prefix="sklearn_fair_run_", dir=base)
        resource_tracker.register(self.folder, "folder")
        self._closed = False
        try:
            path = os.path.join(self.folder, f"{uuid.uuid4().hex}.joblib")
            with open(path, "wb") as file:
                _MainByValuePickler(file).dump(for_workers(data))
        except BaseException:  # an interrupt while writing: nothing would close it
            self.close()
            raise
        self.handle = DataHandle(path)

    def close(self):
        if self._closed:
            return
        self._closed = True
        shutil.rmtree(self.folder, ignore_errors=True)
        resource_tracker.unregister(self.folder, "folder")


def _default_temp_folder():
    # as joblib does: shared memory where there is enough of it, the system default otherwise
    shm = "/dev/shm"
    if os.path.isdir(shm) and os.access(shm, os.W_OK):
        stats = os.statvfs(shm)
        if stats.f_bavail * stats.f_frsize > 2 * 1024**3:
            return shm
    return None
