"""K-fold stratified on quantile bins of a numeric outcome (artificial strata)."""

import numbers

import numpy as np
from sklearn.model_selection import BaseCrossValidator, StratifiedKFold
from sklearn.utils._param_validation import validate_params

from ..utils import (
    RANDOM_STATE_CONSTRAINTS,
    IntervalNotBool,
    check_parameter_constraints,
    check_random_state,
)
from ._split_validation import check_kfold_n_splits, warn_groups_ignored
from ._stratified import stratified_folds

__all__ = ["QuantileStratifiedKFold", "RepeatedQuantileStratifiedKFold", "quantile_strata"]

_AT_LEAST_2 = [IntervalNotBool(numbers.Integral, 2, None, closed="left")]


@validate_params({"y": ["array-like"], "n_bins": _AT_LEAST_2}, prefer_skip_nested_validation=True)
def quantile_strata(y, n_bins):
    """Return the quantile bin (0 to ``n_bins - 1``) of every value of ``y``.

    The bin edges are the ``0, 1/n_bins, ..., 1`` quantiles of ``y``; bins are closed on the
    right and the lowest bin includes the minimum, as R's ``cut(y, quantile(y, ...),
    include.lowest = TRUE)`` in rsample's ``make_strata``. Tied quantiles merge bins, so heavily
    tied outcomes can give fewer than ``n_bins`` strata.

    Parameters
    ----------
    y : array-like of shape (n_samples,) or (n_samples, 1)
        A numeric outcome without missing values.
    n_bins : int
        Number of quantile bins, at least 2.

    Returns
    -------
    strata : ndarray of shape (n_samples,)

    Examples
    --------
    >>> from sklearn_fair.model_selection import quantile_strata
    >>> quantile_strata([5.0, 1.0, 3.0, 8.0, 2.0, 9.0, 4.0, 7.0], n_bins=4)
    array([2, 0, 1, 3, 0, 3, 1, 2])
    """
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:  # a column vector, as StratifiedKFold takes it
        y = y.ravel()
    if y.ndim != 1 or y.dtype.kind not in "iuf" or y.size == 0:
        raise ValueError(
            "Quantile strata need y as a non-empty 1-D numeric array; got dtype "
            f"{y.dtype} and shape {y.shape}."
        )
    if not np.all(np.isfinite(y)):
        bad = np.flatnonzero(~np.isfinite(y))[:10].tolist()
        raise ValueError(f"Quantile strata need finite values of y; y is NaN or infinite at {bad}.")
    edges = np.unique(np.quantile(y, np.arange(n_bins + 1) / n_bins))
    # Interior edges only; right=True gives (a, b] bins, the lowest one closed.
    return np.digitize(y, edges[1:-1], right=True)


class QuantileStratifiedKFold(StratifiedKFold):
    """K-fold stratified on the quantile bins of a numeric outcome.

    A regression outcome has no classes to stratify on, so its values are cut into ``n_bins``
    quantile bins and :class:`~sklearn.model_selection.StratifiedKFold` keeps the bins'
    proportions in every fold: the "artificial strata" of Kuhn & Johnson (Applied Predictive
    Modeling, sec. 4.3), rsample's ``vfold_cv(strata = y, breaks = n_bins)``. Each fold then
    spans the whole range of ``y``, its tails included, so the fold estimates vary less with
    skewed outcomes.

    Unlike rsample, which uses fewer bins when a bin would hold under 20 rows, and
    StratifiedKFold, which only warns, ``split`` raises a ValueError naming the values of
    ``n_bins`` that work when a bin holds fewer than ``n_splits`` rows (it misses a fold).

    Parameters
    ----------
    n_splits : int, default=5
        Number of folds, at least 2.
    n_bins : int, default=4
        Number of quantile bins of ``y`` (4: quartiles), at least 2.
    shuffle : bool, default=True
        Shuffle within each bin before cutting it into folds.
    random_state : int, RandomState instance, Generator or None, default=None
        Seeds the shuffle (must be None when ``shuffle=False``). A numpy Generator is drawn
        from once per call of ``split``.

    See Also
    --------
    RepeatedQuantileStratifiedKFold : The same, repeated with fresh shuffles.
    quantile_strata : The bins that are stratified on.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_fair.model_selection import QuantileStratifiedKFold
    >>> y = np.arange(20.0) ** 2
    >>> cv = QuantileStratifiedKFold(n_splits=5, n_bins=4, random_state=0)
    >>> [int((y[test] > np.median(y)).sum()) for _, test in cv.split(y.reshape(-1, 1), y)]
    [2, 2, 2, 2, 2]
    """

    _parameter_constraints = {
        "n_splits": _AT_LEAST_2,
        "n_bins": _AT_LEAST_2,
        "shuffle": ["boolean"],
        "random_state": RANDOM_STATE_CONSTRAINTS,
    }

    def __init__(self, n_splits=5, *, n_bins=4, shuffle=True, random_state=None):
        check_kfold_n_splits(type(self), n_splits)
        super().__init__(n_splits=n_splits, shuffle=shuffle, random_state=random_state)
        self.n_bins = n_bins

    def split(self, X, y, groups=None):
        """Generate ``(train, test)`` index arrays stratified on quantile bins of ``y``.

        Parameters
        ----------
        X : array-like of shape (n_samples, ...)
            The data; only its length is used.
        y : array-like of shape (n_samples,)
            The numeric outcome.
        groups : None
            Ignored, with a UserWarning when given.

        Yields
        ------
        train, test : ndarray
            The indices of the fold's training and test rows.

        Raises
        ------
        ValueError
            If a quantile bin of ``y`` holds fewer than ``n_splits`` rows; the message names
            ``n_bins`` and the smaller values that work.
        """
        return stratified_folds(self, X, _checked_strata(self, y), groups)


def _checked_strata(cv, y):
    """The quantile strata of ``y`` for splitter ``cv``; raise if a bin is under n_splits rows."""
    check_parameter_constraints(cv)
    owner, n_splits, n_bins = type(cv).__name__, cv.n_splits, cv.n_bins
    if y is None:
        raise ValueError(f"{owner}.split needs the numeric outcome y.")
    strata = quantile_strata(y, n_bins)
    counts = np.unique(strata, return_counts=True)[1]
    # fewer rows than n_splits: StratifiedKFold says that n_splits exceeds the samples
    if len(strata) < n_splits or counts.min() >= n_splits:
        return strata
    # every smaller value is tried: with ties in y, a smaller n_bins can fail where a larger
    # one works (tied quantiles merge bins differently), so "W or fewer" may be untrue
    workable = [
        candidate
        for candidate in range(n_bins - 1, 1, -1)
        if np.unique(quantile_strata(y, candidate), return_counts=True)[1].min() >= n_splits
    ]
    if not workable:
        remedy = "Even n_bins=2 leaves a bin that small: use fewer splits (n_splits) or more rows."
    elif len(workable) == workable[0] - 1:  # all of 2..W work
        remedy = f"Use n_bins={workable[0]} or fewer, or fewer splits."
    else:
        shown = ", ".join(str(value) for value in workable[:10])
        more = f" and {len(workable) - 10} smaller ones" if len(workable) > 10 else ""
        remedy = (
            f"The values of n_bins below {n_bins} that work for this y are {shown}{more} (with "
            "ties in y, not every smaller value does); or use fewer splits."
        )
    raise ValueError(
        f"The 'n_bins' parameter of {owner} is too large for these {len(strata)} rows: with "
        f"n_bins={n_bins} the smallest quantile bin of y holds {counts.min()} rows, fewer than "
        f"n_splits={n_splits}, so it cannot reach every fold (bin sizes {counts.tolist()}). "
        + remedy
    )


class RepeatedQuantileStratifiedKFold(BaseCrossValidator):
    """:class:`QuantileStratifiedKFold` repeated ``n_repeats`` times with new shuffles.

    Repeating V-fold cross-validation averages away the luck of one partition: the estimate
    keeps the (small) bias of V-fold and its variance falls with the number of repeats (Kuhn &
    Johnson, sec. 4.4). Like :class:`~sklearn.model_selection.RepeatedStratifiedKFold`, one
    generator is made from ``random_state`` and drawn from by every repeat.

    Parameters
    ----------
    n_splits : int, default=5
        Number of folds per repeat, at least 2.
    n_bins : int, default=4
        Number of quantile bins of ``y``, at least 2.
    n_repeats : int, default=10
        Number of repeats, at least 1.
    random_state : int, RandomState instance, Generator or None, default=None
        Seeds the shuffles. Pass an int for the same splits on every call.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_fair.model_selection import RepeatedQuantileStratifiedKFold
    >>> y = np.arange(20.0)
    >>> cv = RepeatedQuantileStratifiedKFold(n_splits=4, n_repeats=3, random_state=0)
    >>> cv.get_n_splits()
    12
    >>> sum(len(test) for _, test in cv.split(y.reshape(-1, 1), y))
    60
    """

    _parameter_constraints = {
        "n_splits": _AT_LEAST_2,
        "n_bins": _AT_LEAST_2,
        "n_repeats": [IntervalNotBool(numbers.Integral, 1, None, closed="left")],
        "random_state": RANDOM_STATE_CONSTRAINTS,
    }

    def __init__(self, n_splits=5, *, n_bins=4, n_repeats=10, random_state=None):
        self.n_splits = n_splits
        self.n_bins = n_bins
        self.n_repeats = n_repeats
        self.random_state = random_state

    def get_n_splits(self, X=None, y=None, groups=None):
        """Return ``n_splits * n_repeats``."""
        check_parameter_constraints(self)
        return self.n_splits * self.n_repeats

    def split(self, X, y, groups=None):
        strata = _checked_strata(self, y)
        warn_groups_ignored(self, groups)
        rng = check_random_state(self.random_state)
        for _ in range(self.n_repeats):
            # each repeat draws its shuffle from the one generator, as QuantileStratifiedKFold
            # (random_state=rng) would, without binning y again
            cv = StratifiedKFold(self.n_splits, shuffle=True, random_state=rng)
            yield from cv.split(X, strata)

    split.__doc__ = QuantileStratifiedKFold.split.__doc__
