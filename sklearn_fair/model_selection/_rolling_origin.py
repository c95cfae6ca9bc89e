"""Rolling-origin (forecast evaluation) resampling of ordered data, as rsample's rolling_origin."""

import numbers

import numpy as np
from sklearn.model_selection import BaseCrossValidator
from sklearn.utils.validation import _num_samples

from ..utils import IntervalNotBool, check_parameter_constraints
from ._split_validation import warn_groups_ignored

__all__ = ["RollingOrigin"]


class RollingOrigin(BaseCrossValidator):
    """Rolling-origin resamples of ordered data (time series evaluation).

    The rows of ``X`` are taken to be in time order. The first resample trains on the first
    ``initial`` rows and assesses the next ``assess``; every later resample moves the forecast
    origin forward by ``skip + 1`` rows: rsample's ``rolling_origin()`` (Hyndman &
    Athanasopoulos, "Forecasting: principles and practice", sec. 5.10). On 9 rows, with ``A``
    for analysis (training) rows, ``T`` for assessment (test) rows and ``B`` for both, each
    parameter changed from ``initial=3`` alone::

                                        0 1 2 3 4 5 6 7 8
        initial=3             split 0:  A A A T . . . . .
                              split 1:  A A A A T . . . .
        assess=2              split 1:  A A A A T T . . .
        cumulative=False      split 1:  . A A A T . . . .
        skip=2                split 1:  A A A A A A T . .
        lag=1                 split 0:  A A B T . . . . .

    Parameters
    ----------
    initial : int
        Number of rows in the first analysis set, at least 1.
    assess : int, default=1
        Number of rows in each assessment set, the ones right after the analysis set.
    cumulative : bool, default=True
        ``True``: the analysis set always starts at row 0 and grows (an expanding window).
        ``False``: it keeps ``initial`` rows and slides (a fixed window).
    skip : int, default=0
        Number of origins skipped between two resamples, to thin out highly correlated
        resamples (``skip=6`` with daily data: one per week).
    lag : int, default=0
        Number of rows, at the end of the analysis set, that the assessment set also includes
        (at most ``initial``), for models with lagged predictors that need the preceding rows
        to predict the first assessment row. Those rows are trained on *and* assessed: drop
        them (e.g. in the scorer) if they must not count.

    Notes
    -----
    There are ``(n_samples - initial - assess) // (skip + 1) + 1`` resamples, so
    :meth:`get_n_splits` needs ``X``. With ``lag=0`` this is close to
    :class:`~sklearn.model_selection.TimeSeriesSplit`, which counts its folds back from the end
    of the series instead of forward from ``initial``.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_fair.model_selection import RollingOrigin
    >>> X = np.arange(7).reshape(-1, 1)
    >>> cv = RollingOrigin(initial=3, assess=2, cumulative=False)
    >>> cv.get_n_splits(X)
    3
    >>> for train, test in cv.split(X):
    ...     print(train, test)
    [0 1 2] [3 4]
    [1 2 3] [4 5]
    [2 3 4] [5 6]
    """

    _parameter_constraints = {
        "initial": [IntervalNotBool(numbers.Integral, 1, None, closed="left")],
        "assess": [IntervalNotBool(numbers.Integral, 1, None, closed="left")],
        "cumulative": ["boolean"],
        "skip": [IntervalNotBool(numbers.Integral, 0, None, closed="left")],
        "lag": [IntervalNotBool(numbers.Integral, 0, None, closed="left")],
    }

    def __init__(self, initial, assess=1, *, cumulative=True, skip=0, lag=0):
        self.initial = initial
        self.assess = assess
        self.cumulative = cumulative
        self.skip = skip
        self.lag = lag

    def get_n_splits(self, X=None, y=None, groups=None):
        """Return the number of resamples for the rows of ``X`` (needed: it sets the count)."""
        if X is None:
            raise ValueError(
                "RollingOrigin.get_n_splits needs X: the number of resamples depends on "
                "the number of samples."
            )
        return len(self._origins(_num_samples(X)))

    def split(self, X, y=None, groups=None):
        """Yield ``(analysis, assessment)`` index arrays in time order.

        Parameters
        ----------
        X : array-like or sequence of length n_samples
            The data, ordered in time; only its length is used.
        y : None
            Ignored.
        groups : None
            Ignored, with a UserWarning when given.

        Yields
        ------
        train, test : ndarray
            The analysis rows and the assessment rows, each consecutive; the first ``lag``
            rows of ``test`` are also the last of ``train``.
        """
        warn_groups_ignored(self, groups)
        for origin in self._origins(_num_samples(X)):
            start = 0 if self.cumulative else origin - self.initial
            yield np.arange(start, origin), np.arange(origin - self.lag, origin + self.assess)

    def _origins(self, n_samples):
        """The exclusive ends of the analysis windows."""
        check_parameter_constraints(self)
        if self.lag > self.initial:
            raise ValueError(
                f"The 'lag' parameter of RollingOrigin must be at most initial={self.initial}. "
                f"Got {self.lag!r} instead."
            )
        if n_samples < self.initial + self.assess:
            raise ValueError(
                f"RollingOrigin(initial={self.initial}, assess={self.assess}) needs at least "
                f"{self.initial + self.assess} samples; got {n_samples}."
            )
        return range(self.initial, n_samples - self.assess + 1, self.skip + 1)
