"""Bootstrap resampling as a scikit-learn splitter: with replacement, out-of-bag assessment."""

import numbers

import numpy as np
from sklearn.model_selection import BaseCrossValidator
from sklearn.utils import resample
from sklearn.utils.validation import _num_samples

from ..exceptions import InvalidSplitError
from ..utils import (
    RANDOM_STATE_CONSTRAINTS,
    IntervalNotBool,
    check_parameter_constraints,
    check_random_state,
)
from ..utils._validation import labels_1d
from ._split_validation import warn_groups_ignored

__all__ = ["Bootstrap"]


class Bootstrap(BaseCrossValidator):
    """Bootstrap resamples: analysis set drawn with replacement, out-of-bag assessment.

    Each resample draws ``n_samples`` row indices with replacement for the analysis (training)
    set, so about 36.8% (``(1 - 1/n) ** n``) of the rows are not drawn; those out-of-bag rows
    form the assessment (test) set. This is rsample's ``bootstraps()`` and the resampling
    scheme behind the .632 estimators (Efron & Tibshirani, 1997).

    Parameters
    ----------
    n_resamples : int, default=25
        Number of bootstrap resamples (splits), at least 1.
    stratify : bool, default=False
        Draw the analysis set class by class, keeping each class's count of ``y`` (to within
        rounding); needs ``y`` in :meth:`split`, with at least 2 samples of every class (the
        one sample of a class is always drawn, never out of bag). Uses
        :func:`sklearn.utils.resample`.
    random_state : int, RandomState instance, Generator or None, default=None
        Seeds the draws. Pass an int for the same resamples on every call; a RandomState or
        Generator is drawn from (so each call differs).

    Notes
    -----
    The training indices **repeat**: estimators are fitted on copies of rows, and an *inner*
    resampling of the analysis set can put copies of one row on both sides (see the user
    guide's section on the bootstrap). Fitted attributes such as ``n_samples_seen_`` count the
    copies. The assessment sets of different resamples overlap and have random sizes, so their
    scores are not independent k-fold scores, and their mean, the plain out-of-bag estimate, is
    pessimistic (each analysis set holds about 63.2% distinct rows); sklearn-fair reports that
    estimate and has no .632 or .632+ correction (Efron & Tibshirani, 1997). An out-of-bag set
    that comes out empty is an error, not a skipped resample.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_fair.model_selection import Bootstrap
    >>> X = np.zeros((8, 1))
    >>> cv = Bootstrap(n_resamples=3, random_state=0)
    >>> cv.get_n_splits()
    3
    >>> train, test = next(cv.split(X))
    >>> len(train), len(np.unique(train)) < len(train), np.intersect1d(train, test).size
    (8, True, 0)
    """

    _parameter_constraints = {
        "n_resamples": [IntervalNotBool(numbers.Integral, 1, None, closed="left")],
        "stratify": ["boolean"],
        "random_state": RANDOM_STATE_CONSTRAINTS,
    }

    def __init__(self, n_resamples=25, *, stratify=False, random_state=None):
        self.n_resamples = n_resamples
        self.stratify = stratify
        self.random_state = random_state

    def get_n_splits(self, X=None, y=None, groups=None):
        """Return the number of resamples, ``n_resamples``."""
        check_parameter_constraints(self)
        return self.n_resamples

    def split(self, X, y=None, groups=None):
        """Yield ``(analysis, out_of_bag)`` index arrays, one pair per resample.

        Parameters
        ----------
        X : array-like or sequence of length n_samples
            The data; only its length is used.
        y : array-like of shape (n_samples,) or (n_samples, 1), default=None
            Class labels, needed when ``stratify=True``; one column (a one-column
            DataFrame) is read as its labels, as scikit-learn's splitters read it.
        groups : None
            Ignored, with a UserWarning when given.

        Yields
        ------
        train, test : ndarray
            The ``n_samples`` indices drawn with replacement, and the sorted indices not drawn.

        Raises
        ------
        ValueError
            If ``stratify=True`` and ``y`` is missing, has several columns, not one label
            per sample, or has a class with a single sample.
        InvalidSplitError
            If a resample leaves no row out of bag.
        """
        check_parameter_constraints(self)
        warn_groups_ignored(self, groups)
        n_samples = _num_samples(X)
        if n_samples < 1:
            raise ValueError("Bootstrap.split needs at least 1 sample; X has none.")
        if self.stratify:
            if y is None:
                raise ValueError("Bootstrap(stratify=True) needs y in split(X, y).")
            labels = np.asarray(labels_1d(y))
            if labels.ndim != 1:
                raise ValueError(
                    f"Bootstrap(stratify=True) stratifies on one column of labels: y has shape "
                    f"{labels.shape}; pass one label per sample, of shape ({n_samples},) or "
                    f"({n_samples}, 1)."
                )
            if labels.shape[0] != n_samples:
                raise ValueError(
                    f"Bootstrap(stratify=True) needs one label per sample: y has shape "
                    f"{np.shape(y)}, X has {n_samples} samples."
                )
            y = labels
            _check_class_counts(y)
        rng = check_random_state(self.random_state)
        indices = np.arange(n_samples)
        for resample_index in range(self.n_resamples):
            train = resample(
                indices,
                replace=True,
                n_samples=n_samples,
                stratify=y if self.stratify else None,
                random_state=rng,
            )
            test = np.setdiff1d(indices, train)
            if test.size == 0:
                raise InvalidSplitError(
                    f"Bootstrap resample {resample_index} of {self.n_resamples} drew every one "
                    f"of the {n_samples} samples, leaving an empty out-of-bag assessment set; "
                    "use more samples or another random_state."
                )
            yield train, test


def _check_class_counts(y):
    """Refuse classes of one sample: drawn class by class, such a sample is drawn every time,
    so it is never assessed (and a continuous y, all such, leaves nothing out of bag)."""
    classes, counts = np.unique(y, return_counts=True)
    single = counts < 2
    if single.any():
        shown = ", ".join(repr(label) for label in classes[single][:5].tolist())
        raise ValueError(
            "Bootstrap(stratify=True) draws each class of y from its own samples, so every "
            f"class needs at least 2 of them: {int(single.sum())} of the {classes.size} "
            f"classes have only 1 ({shown}{', ...' if single.sum() > 5 else ''}), which would "
            "be drawn every time and never be out of bag. Merge rare classes, or pass "
            "stratify=False (for a continuous y, whose every value is a class)."
        )
