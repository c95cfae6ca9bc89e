"""Random under-sampling of graph data: whole graphs are kept or dropped, per class."""

import numbers
from collections.abc import Mapping

import numpy as np
from imblearn.under_sampling.base import BaseUnderSampler
from imblearn.utils import check_target_type
from scipy import sparse
from sklearn.utils import _safe_indexing
from sklearn.utils.validation import _num_samples, check_array, validate_data

from ..utils import RANDOM_STATE_CONSTRAINTS, check_random_state, is_graph_data, read_graph_labels


class RandomGraphUnderSampler(BaseUnderSampler):
    """Under-sample the majority class(es) of graph data by dropping whole graphs at random.

    imbalanced-learn's samplers take 2-D arrays, which a list or dataset of graphs is not. This
    imbalanced-learn under-sampler takes any indexable sequence of items (PyTorch Geometric
    ``Data`` objects, a dataset of them, or anything else; arrays, sparse matrices and
    DataFrames as rows) and keeps, for each class, a random subset of its items, as
    :class:`~imblearn.under_sampling.RandomUnderSampler` does for rows (the same subset for
    the same seed; class by class in their order in ``X``, where RandomUnderSampler keeps
    the order of its draw). As a step of
    imbalanced-learn's :class:`~imblearn.pipeline.Pipeline` it acts only while fitting:
    predicting and scoring see every graph. torch is never imported here.

    Parameters
    ----------
    sampling_strategy : float, str, dict or callable, default="auto"
        As in imbalanced-learn's under-samplers (:func:`imblearn.utils.check_sampling_strategy`):
        a float is the wanted ratio minority / majority (binary only); "auto", "majority", "not
        minority", "not majority" or "all" name the classes to under-sample down to the minority
        count; a dict maps class -> number of graphs to keep; a callable returns such a dict.
    random_state : int, RandomState instance, Generator or None, default=None
        Seeds which graphs are kept: an int gives the same subset on every call; a RandomState
        or Generator is drawn from (so each call differs).
    replacement : bool, default=False
        Draw with replacement (a graph may then be kept more than once).

    Attributes
    ----------
    sampling_strategy_ : dict
        Class -> number of graphs kept, as resolved from ``sampling_strategy``.
    sample_indices_ : ndarray of shape (n_kept,)
        Positions in ``X`` of the graphs kept by the last fit, in the order returned.

    See Also
    --------
    imblearn.under_sampling.RandomUnderSampler : The same for 2-D arrays.
    sklearn_fair.model_selection.StratifiedGraphKFold : Stratified folds over graphs.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> from sklearn_fair.sampling import RandomGraphUnderSampler
    >>> graphs = [SimpleNamespace(y=label) for label in [0] * 6 + [1] * 2]
    >>> kept, y = RandomGraphUnderSampler(random_state=0).fit_resample(graphs)
    >>> len(kept), sorted(y.tolist())
    (4, [0, 0, 1, 1])

    Inside imbalanced-learn's Pipeline it acts while fitting only, in front of any
    estimator that takes graphs:

    >>> from imblearn.pipeline import make_pipeline
    >>> from sklearn.dummy import DummyClassifier
    >>> pipe = make_pipeline(RandomGraphUnderSampler(random_state=0), DummyClassifier())
    >>> pipe.fit(graphs, [g.y for g in graphs]).predict(graphs).shape
    (8,)
    """

    _parameter_constraints: dict = {
        **BaseUnderSampler._parameter_constraints,
        "replacement": ["boolean"],
        "random_state": RANDOM_STATE_CONSTRAINTS,
    }

    def __init__(self, *, sampling_strategy="auto", random_state=None, replacement=False):
        super().__init__(sampling_strategy=sampling_strategy)
        self.random_state = random_state
        self.replacement = replacement

    def fit(self, X, y=None, **params):
        """Check the inputs and draw the kept graphs (:meth:`fit_resample` returns them).

        Parameters
        ----------
        X, y, **params
            As in :meth:`fit_resample`.

        Returns
        -------
        self : RandomGraphUnderSampler
        """
        self.fit_resample(X, y, **params)
        return self

    def fit_resample(self, X, y=None, **params):
        """Keep a random, class-balanced subset of the graphs.

        Parameters
        ----------
        X : sequence of graphs
            A PyTorch Geometric dataset, a list or object array of ``Data`` objects, or any
            indexable sequence with one item per sample.
        y : array-like of shape (n_samples,), default=None
            Class labels; when None they are read from the items' ``.y``.
        **params : dict
            Not used; for imbalanced-learn's API.

        Returns
        -------
        X_resampled : list, ndarray, sparse matrix, DataFrame or GraphCollection
            The kept items, in the type of ``X`` for an array, a sparse matrix, a DataFrame, a
            :class:`~sklearn_fair.graph.GraphCollection` or a PyTorch Geometric dataset (its
            subset, whose ``transform`` runs when the estimator reads a graph, under the
            estimator's seed); a list for anything else (a list, another sequence).
        y_resampled : ndarray or list of shape (n_kept,)
            Their labels, of the type of ``y`` (an array when read from the graphs).
        """
        if y is None:
            if not is_graph_data(X):
                # the words scikit-learn's check_requires_y_none looks for, then ours
                raise ValueError(
                    "RandomGraphUnderSampler requires y to be passed, but the target y is None: "
                    "it needs y, or X given as graphs that carry their label as '.y'; got X of "
                    f"type {type(X).__name__}."
                )
            y = read_graph_labels(X)
        n_items, n_labels = _num_samples(X), _num_samples(y)
        if n_labels != n_items or np.ndim(y) > 2:
            raise ValueError(
                "The labels y of RandomGraphUnderSampler.fit_resample must hold one value per "
                f"graph ({n_items}). Got shape {np.shape(y)} instead."
            )
        self._check_strategy_counts(y)
        X_kept, y_kept = super().fit_resample(X, y, **params)
        if hasattr(X_kept, "iloc") and hasattr(y_kept, "iloc"):
            # imbalanced-learn gives y the index of a DataFrame's rows, not of a Series' items
            y_kept.index = X_kept.index
        return X_kept, y_kept

    def _check_strategy_counts(self, y):
        """A dict ``sampling_strategy`` checked against the classes of ``y``, with errors that
        name the parameter, the class and its count (imbalanced-learn's name neither)."""
        strategy = self.sampling_strategy
        if not isinstance(strategy, Mapping) or np.ndim(y) != 1:
            return
        labels, counts = np.unique(np.asarray(y), return_counts=True)
        if labels.size < 2:
            return  # imbalanced-learn's own error: y needs more than one class
        present = dict(zip(labels.tolist(), counts.tolist()))
        unknown = [key for key in strategy if key not in present]
        if unknown:
            raise ValueError(
                f"The 'sampling_strategy' parameter of {type(self).__name__} names the class "
                f"{unknown[0]!r}, which is not in y; its keys must be among the classes of y "
                f"{sorted(present)}. Got {dict(strategy)!r} instead."
            )
        for key, wanted in strategy.items():
            if isinstance(wanted, numbers.Integral) and wanted > present[key]:
                raise ValueError(
                    f"The 'sampling_strategy' parameter of {type(self).__name__} asks for "
                    f"{wanted} graphs of class {key!r}, which has {present[key]} in y (an "
                    f"under-sampler keeps at most as many as there are; the counts of y are "
                    f"{present}). Got {dict(strategy)!r} instead."
                )

    def _check_X_y(self, X, y, accept_sparse=None):
        y, binarize_y = check_target_type(y, indicate_one_vs_all=True)
        if _is_table(X):
            # rows of a table, as imbalanced-learn's RandomUnderSampler takes them
            if not hasattr(X, "iloc"):
                X = check_array(
                    X, dtype=None, accept_sparse=["csr", "csc"], ensure_all_finite=False
                )
            X, y = validate_data(self, X=X, y=y, reset=True, skip_check_array=True)
        elif isinstance(X, list):
            # imbalanced-learn turns the result back into a list with .tolist(): an object
            # array of the same items gives exactly them
            X = np.fromiter(X, dtype=object, count=len(X))
        return X, y, binarize_y

    def _fit_resample(self, X, y):
        y = np.asarray(y)
        rng = check_random_state(self.random_state)
        kept = []
        for label in np.unique(y):
            members = np.flatnonzero(y == label)
            if label in self.sampling_strategy_:
                chosen = rng.choice(
                    members, size=self.sampling_strategy_[label], replace=bool(self.replacement)
                )
                members = np.sort(chosen)
            kept.append(members)
        indices = np.concatenate(kept)
        self.sample_indices_ = indices
        return _take(X, indices), y[indices]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.string = True
        tags.sampler_tags.sample_indices = True
        return tags


def _is_table(X):
    """Whether ``X`` is rows of features (array, sparse matrix, DataFrame) rather than items."""
    if sparse.issparse(X) or hasattr(X, "columns"):
        return True
    if isinstance(X, np.ndarray):
        return X.ndim >= 2
    if not (isinstance(X, list) and X and isinstance(X[0], (list, tuple, np.ndarray))):
        return False
    # rows of one width of scalars; a list of adjacency matrices, of (x, edge_index) tuples
    # or of ragged rows is items, as scikit-learn's splitters index it
    return all(map(_is_row, X)) and len({len(row) for row in X}) == 1


def _is_row(row):
    if isinstance(row, np.ndarray):
        return row.ndim == 1
    return all(value is None or np.isscalar(value) for value in row)


def _take(X, indices):
    if isinstance(X, np.ndarray) or sparse.issparse(X) or hasattr(X, "iloc"):
        return _safe_indexing(X, indices)
    if hasattr(type(X), "__graph_arrays__") and callable(getattr(X, "take", None)):
        return X.take(indices)  # a GraphCollection (recognised without importing torch)
    if callable(getattr(X, "index_select", None)) and hasattr(X, "transform"):
        # a PyG dataset's subset, still lazy: its transform (maybe random) runs where the
        # estimator reads a graph, under the estimator's seed, not here under torch's global one
        return X.index_select(indices)
    # a list for anything else, what every graph estimator accepts
    return [X[int(i)] for i in indices]
