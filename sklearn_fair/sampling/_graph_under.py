"""Random under-sampling of graph data: whole graphs are kept or dropped, per class."""

import numpy as np
from imblearn.utils import check_sampling_strategy
from sklearn.base import BaseEstimator
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets

from ..utils import is_graph_data, read_graph_labels

__all__ = ["RandomGraphUnderSampler"]


class RandomGraphUnderSampler(BaseEstimator):
    """Under-sample the majority class(es) of graph data by dropping whole graphs at random.

    imbalanced-learn's samplers take 2-D arrays, so a list or dataset of graphs cannot
    pass through them. This sampler takes any indexable sequence of items (PyTorch
    Geometric ``Data`` objects, a dataset of them, or anything else) and keeps, for each
    class, a random subset of its items, as imbalanced-learn's
    :class:`~imblearn.under_sampling.RandomUnderSampler` does for rows. As a step of
    imbalanced-learn's :class:`~imblearn.pipeline.Pipeline` it acts only while fitting:
    predicting and scoring see every graph. torch is never imported here.

    Parameters
    ----------
    sampling_strategy : float, str, dict or callable, default="auto"
        As in imbalanced-learn's under-samplers (checked by
        :func:`imblearn.utils.check_sampling_strategy`): a float is the wanted ratio
        minority / majority (binary only); "auto" (= "not minority"), "majority",
        "not minority", "not majority" or "all" name the classes to under-sample down to
        the minority count; a dict maps class -> number of graphs to keep; a callable
        takes ``y`` and returns such a dict.
    random_state : int, RandomState instance or None, default=None
        Seeds which graphs are kept. Pass an int for the same subset on every call.
    replacement : bool, default=False
        Draw with replacement (a graph may then be kept more than once).

    Attributes
    ----------
    sampling_strategy_ : dict
        Class -> number of graphs kept, as resolved from ``sampling_strategy``.
    sample_indices_ : ndarray of shape (n_kept,)
        Positions in ``X`` of the graphs kept by the last :meth:`fit_resample`, in the
        order returned.

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

    # tells imbalanced-learn's Pipeline and sklearn's tags that this is a sampler
    _estimator_type = "sampler"

    def __init__(self, *, sampling_strategy="auto", random_state=None, replacement=False):
        self.sampling_strategy = sampling_strategy
        self.random_state = random_state
        self.replacement = replacement

    def fit(self, X, y=None):
        """Check the inputs and resolve the sampling strategy; use :meth:`fit_resample`.

        Parameters
        ----------
        X : sequence of graphs
            Indexable items, one per sample.
        y : array-like of shape (n_samples,), default=None
            Class labels; read from the items' ``.y`` when None.

        Returns
        -------
        self : RandomGraphUnderSampler
        """
        self.fit_resample(X, y)
        return self

    def fit_resample(self, X, y=None):
        """Keep a random, class-balanced subset of the graphs.

        Parameters
        ----------
        X : sequence of graphs
            A PyTorch Geometric dataset, a list or object array of ``Data`` objects, or any
            indexable sequence with one item per sample.
        y : array-like of shape (n_samples,), default=None
            Class labels; when None they are read from the items' ``.y``.

        Returns
        -------
        X_resampled : list or ndarray
            The kept items: an object array when ``X`` is a numpy array, otherwise a list.
        y_resampled : ndarray of shape (n_kept,)
            Their labels.
        """
        y = self._labels(X, y)
        if not isinstance(self.replacement, (bool, np.bool_)):
            raise ValueError(
                "The 'replacement' parameter of RandomGraphUnderSampler must be a bool. "
                f"Got {self.replacement!r} instead."
            )
        self.sampling_strategy_ = dict(
            check_sampling_strategy(self.sampling_strategy, y, "under-sampling")
        )
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

    def _labels(self, X, y):
        if y is None:
            if not is_graph_data(X):
                raise ValueError(
                    "RandomGraphUnderSampler needs y, or X given as graphs that carry their "
                    f"label as '.y'; got X of type {type(X).__name__} and y=None."
                )
            y = read_graph_labels(X)
        y = np.asarray(y)
        if y.ndim != 1 or len(y) != len(X):
            raise ValueError(
                "The labels y of RandomGraphUnderSampler.fit_resample must be 1-D with one "
                f"value per graph ({len(X)}). Got shape {y.shape} instead."
            )
        check_classification_targets(y)
        return y

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.estimator_type = "sampler"
        tags.target_tags.required = True
        tags.input_tags.two_d_array = False
        return tags


def _take(X, indices):
    if isinstance(X, np.ndarray):
        return X[indices]
    # a list for anything else: a PyG dataset indexed by a list stays lazy but is still a
    # sequence of Data objects, and a list is what every graph estimator accepts
    return [X[int(i)] for i in indices]
