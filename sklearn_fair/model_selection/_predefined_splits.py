"""An outer splitter that replays given splits, inner model-selection splits included."""

import numbers

from sklearn.model_selection import BaseCrossValidator
from sklearn.utils._param_validation import validate_params
from sklearn.utils.validation import _num_samples

from ..utils import IntervalNotBool, check_parameter_constraints
from ..utils._splits import reusable_splits
from ._saved_splits import SPLITS, SavedSplits, as_saved_splits, replay
from ._split_validation import warn_groups_ignored

__all__ = ["PredefinedSplits"]


class PredefinedSplits(BaseCrossValidator):
    """Replay predefined splits, such as a loaded split file, as a splitter.

    Use it as ``cv`` of scikit-learn, or as ``outer_cv`` of :class:`~sklearn_fair.NestedCV`:
    when the splits carry each outer fold's inner model-selection splits (as the split files of
    Errica et al. do), NestedCV reads them with :meth:`get_inner_splits` instead of splitting
    again. Every split is validated before the first one is yielded, and when the splits carry
    a labels fingerprint, :meth:`split` refuses labels ``y`` of another data set; when they
    come from a gnn-comparison file (which carries none), it warns where ``y`` is not
    stratified in the test folds as the file's labels are.

    Parameters
    ----------
    splits : SavedSplits or iterable
        What :func:`load_splits` returns, or ``(train, test)`` pairs, or ``(train, test,
        inner)`` triples whose ``inner`` is None or a list of ``(train, test)`` pairs of
        absolute indices inside ``train``. A generator is read once, when the splitter is made.
        A fold whose training and test sets share indices is refused unless ``splits`` is a
        :class:`SavedSplits` that allows it (saved with ``allow_overlap=True``, or made
        with it), as the splits of :class:`RollingOrigin` with ``lag > 0`` need.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_fair.model_selection import PredefinedSplits
    >>> X = np.zeros((4, 1))
    >>> cv = PredefinedSplits([([1, 2, 3], [0], [([1, 2], [3])]), ([0, 2, 3], [1], None)])
    >>> cv.get_n_splits()
    2
    >>> [test.tolist() for _, test in cv.split(X)]
    [[0], [1]]
    >>> cv.get_inner_splits(0)
    [(array([1, 2]), array([3]))]
    >>> cv.get_inner_splits(1) is None
    True
    """

    _parameter_constraints = {"splits": SPLITS}

    def __init__(self, splits):
        # A generator could be read only once; keep what it yields.
        self.splits = reusable_splits(splits)

    def _saved(self, n_samples=None):
        check_parameter_constraints(self)
        if isinstance(self.splits, SavedSplits):
            # validated as a list of folds is, against its own n_samples (split compares X
            # with that); one built by hand may hold anything, and one loaded may have been
            # changed since
            n_samples = None
        return as_saved_splits(
            self.splits,
            n_samples=n_samples,
            name="PredefinedSplits",
            overlap_hint=(
                " If the overlap is intended (as in RollingOrigin with lag > 0), pass the "
                "splits as SavedSplits(folds, n_samples=..., allow_overlap=True)."
            ),
        )

    def get_n_splits(self, X=None, y=None, groups=None):
        """Return the number of outer folds."""
        return len(self._saved().folds)

    def split(self, X=None, y=None, groups=None):
        """Yield the stored ``(train, test)`` index pairs, in order.

        Parameters
        ----------
        X : array-like or sequence of length n_samples, default=None
            The data; if given, its length must be the splits' ``n_samples``.
        y : array-like of shape (n_samples,), default=None
            The labels; if given and the splits carry a labels fingerprint, they must match it.
        groups : None
            Ignored, with a UserWarning when given.

        Yields
        ------
        train, test : ndarray
            The indices of each fold's training and test samples.

        Raises
        ------
        SplitsMismatchError
            If ``X`` or ``y`` do not belong to the data set of the splits.
        InvalidSplitError
            If the splits themselves are invalid.

        Warns
        -----
        SklearnFairWarning
            If the splits come from a gnn-comparison file (:func:`load_splits`) and a class
            of ``y`` is off its share of a test fold by more than one sample: the files of
            Errica et al. are stratified, so the samples are probably not in the order the
            file was made for.
        """
        warn_groups_ignored(self, groups)
        n_samples = None if X is None else _num_samples(X)
        return replay(self._saved(n_samples), X, y, name="PredefinedSplits")

    @validate_params(
        {"fold": [IntervalNotBool(numbers.Integral, 0, None, closed="left")]},
        prefer_skip_nested_validation=True,
    )
    def get_inner_splits(self, fold):
        """Return the stored model-selection splits of outer fold ``fold``.

        Parameters
        ----------
        fold : int
            The outer fold, 0-based, in the order :meth:`split` yields them.

        Returns
        -------
        inner_splits : list of (ndarray, ndarray) or None
            ``(train, test)`` pairs of absolute indices into the whole data set (each a subset
            of the fold's training indices), or None when none are stored for this fold.

        Raises
        ------
        ValueError
            If ``fold`` is not the number of an outer fold.
        """
        saved = self._saved()
        if fold >= len(saved.folds):
            raise ValueError(
                f"The 'fold' parameter of get_inner_splits must be in [0, {len(saved.folds)}); "
                f"outer fold {fold!r} does not exist."
            )
        inner = saved.get_inner_splits(fold)
        return None if inner is None else [(train.copy(), test.copy()) for train, test in inner]
