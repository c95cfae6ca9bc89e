"""Stratified k-fold over graphs whose class labels live on the graphs themselves."""

import numbers

from sklearn.model_selection import StratifiedKFold

from ..utils import (
    RANDOM_STATE_CONSTRAINTS,
    IntervalNotBool,
    check_parameter_constraints,
    is_graph_data,
    read_graph_labels,
)
from ._split_validation import check_kfold_n_splits
from ._stratified import stratified_folds

__all__ = ["StratifiedGraphKFold"]


class StratifiedGraphKFold(StratifiedKFold):
    """Stratified k-fold for graph classification, reading labels from the graphs.

    scikit-learn's :class:`~sklearn.model_selection.StratifiedKFold` with the defaults of the
    model-assessment protocol of Errica et al. (2020), 10 shuffled folds, and one convenience:
    when ``y`` is not given to :meth:`split`, the class of each graph is read from its ``.y``.
    ``X`` can then be a PyTorch Geometric dataset, a list of ``Data`` objects, or anything
    indexable whose items carry one label each (a tensor, an array or a scalar). torch is never
    imported here.

    Parameters
    ----------
    n_splits : int, default=10
        Number of folds, at least 2.
    shuffle : bool, default=True
        Shuffle each class's graphs before cutting them into folds. Without it the folds
        follow the order of ``X``.
    random_state : int, RandomState instance, Generator or None, default=None
        Seeds the shuffle when ``shuffle=True`` (must be None otherwise). Pass an int for the
        same folds on every call. A numpy Generator is drawn from once per call of
        :meth:`split`.

    See Also
    --------
    sklearn.model_selection.StratifiedKFold : The same splitter for tabular data.
    sklearn_fair.model_selection.HoldoutSplit : The inner hold-out of Errica et al.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> from sklearn_fair.model_selection import StratifiedGraphKFold
    >>> graphs = [SimpleNamespace(y=[label]) for label in [0] * 6 + [1] * 3]
    >>> cv = StratifiedGraphKFold(n_splits=3, random_state=0)
    >>> [sorted(int(graphs[i].y[0]) for i in test) for _, test in cv.split(graphs)]
    [[0, 0, 1], [0, 0, 1], [0, 0, 1]]
    """

    _parameter_constraints = {
        "n_splits": [IntervalNotBool(numbers.Integral, 2, None, closed="left")],
        "shuffle": ["boolean"],
        "random_state": RANDOM_STATE_CONSTRAINTS,
    }

    def __init__(self, n_splits=10, *, shuffle=True, random_state=None):
        check_kfold_n_splits(type(self), n_splits)
        super().__init__(n_splits=n_splits, shuffle=shuffle, random_state=random_state)

    def split(self, X, y=None, groups=None):
        """Generate ``(train, test)`` index arrays, stratified on the graph labels.

        Parameters
        ----------
        X : sequence of graphs or array-like of shape (n_samples, ...)
            The graphs, or any data with one row per sample.
        y : array-like of shape (n_samples,), default=None
            Class labels; when None, read from the graphs' ``.y`` (one per graph).
        groups : None
            Ignored, with a UserWarning when given, as by
            :class:`~sklearn.model_selection.StratifiedKFold`.

        Yields
        ------
        train, test : ndarray
            The indices of the fold's training and test graphs.

        Raises
        ------
        ValueError
            If ``y`` is None and ``X`` is not graph data, or a graph has no label or several.
        """
        check_parameter_constraints(self)
        if y is None:
            if not is_graph_data(X):
                raise ValueError(
                    "StratifiedGraphKFold.split needs y, or X given as graphs that carry "
                    f"their label as '.y'; got X of type {type(X).__name__} and y=None."
                )
            y = read_graph_labels(X)
        return stratified_folds(self, X, y, groups)
