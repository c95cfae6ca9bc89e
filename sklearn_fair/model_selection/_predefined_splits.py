"""An outer splitter that replays given splits, inner model-selection splits included."""

import numbers

from sklearn.model_selection import BaseCrossValidator
from sklearn.utils._param_validation import validate_params
from sklearn.utils.validation import _num_samples

from ..exceptions import SplitsMismatchError
from ..utils import IntervalNotBool, check_parameter_constraints
from ..utils._splits import reusable_splits
from ._saved_splits import SPLITS, SavedSplits, as_saved_splits, labels_fingerprint
from ._split_validation import warn_groups_ignored

__all__ = ["PredefinedSplits"]


class PredefinedSplits(BaseCrossValidator):
    """Replay predefined splits, such as a loaded split file, as a splitter.

    Use it as ``cv`` of scikit-learn, or as ``outer_cv`` of :class:`~sklearn_fair.NestedCV`:
    when the splits carry each outer fold's inner model-selection splits (as the split files of
    Errica et al. do), NestedCV reads them with :meth:`get_inner_splits` instead of splitting
    again. Every split is validated before the first one is yielded, and when the splits carry
    a labels fingerprint, :meth:`split` refuses labels ``y`` of another data set.

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
        """
        warn_groups_ignored(self, groups)
        n_samples = None if X is None else _num_samples(X)
        saved = self._saved(n_samples)
        if n_samples is not None and n_samples != saved.n_samples:
            raise SplitsMismatchError(
                f"PredefinedSplits are for {saved.n_samples} samples but X has {n_samples}."
                + _degenerate_hint(saved, n_samples)
            )
        if y is not None and saved.labels_fingerprint is not None:
            if _num_samples(y) != saved.n_samples:
                raise SplitsMismatchError(
                    f"PredefinedSplits are for {saved.n_samples} samples but y has "
                    f"{_num_samples(y)} labels."
                )
            if labels_fingerprint(y) != saved.labels_fingerprint:
                raise SplitsMismatchError(
                    "The labels y are not those the splits were saved with (their fingerprints "
                    "differ): the splits belong to another data set, or the samples are in "
                    "another order, or y was permuted. scikit-learn's permutation_test_score "
                    "permutes y and splits again for each permutation: pass it the splits "
                    "checked once against the labels in their order, "
                    "cv=list(PredefinedSplits(saved).split(X, y))."
                )
        return ((train.copy(), test.copy()) for train, test in saved.folds)

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


def _degenerate_hint(saved, n_samples):
    """What to do when X has more samples than splits shaped as a gnn-comparison file (the
    format is not recorded; its shape is: k-fold test sets, no labels fingerprint, and inner
    splits that each partition their outer fold's training set)."""
    if n_samples < saved.n_samples or saved.labels_fingerprint is not None or not saved.kfold:
        return ""
    for fold, (train, _) in enumerate(saved.folds):
        inner = saved.get_inner_splits(fold)
        if not inner or any(tr.size + te.size != train.size for tr, te in inner):
            return ""
    return (
        " If the splits come from a gnn-comparison split file (Errica et al.): the reference "
        "code keeps only the graphs with more than one node and at least one edge (its "
        "REDDIT-MULTI-5K file indexes 4,999 of 5,000 graphs), so load the graphs with "
        "load_tu_dataset(..., drop_degenerate=True) (in an experiment file, "
        "drop_degenerate = true in [data])."
    )
