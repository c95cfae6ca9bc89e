"""The resamplings that the conservative Z interval needs: one on all the data, one on each half
(Nadeau and Bengio, 2003, section 4.2; mlr3inferr's ``paired_subsampling`` draws the same)."""

import numbers
from dataclasses import dataclass

import numpy as np
from sklearn.base import clone, is_classifier
from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit, cross_val_score
from sklearn.utils import check_consistent_length
from sklearn.utils._param_validation import StrOptions, validate_params

from ..metrics import get_scorer, get_scorer_names
from ..metrics._one_class import check_one_class_names
from ..utils import N_JOBS_CONSTRAINTS, RANDOM_STATE_CONSTRAINTS, check_random_state
from ._checks import CONFIDENCE, COUNT
from ._interval import interval_of_mean


@dataclass(frozen=True)
class PairedSubsamplingScores:
    """Scores of one resampling on all the data and on ``M`` pairs of disjoint halves.

    Attributes
    ----------
    scores : ndarray of shape (J,)
        The scores of ``J`` random train/test splits of all the data: the estimate.
    half_scores : ndarray of shape (M, 2, J)
        The scores of ``J`` splits with the same test size on each half of ``M`` splits of
        the data into halves: the variance of the estimate.
    n_train, n_test : int
        Training- and test-set sizes of the splits of all the data.
    n_train_half : int
        Training-set size of the splits of a half (its test size is ``n_test``).
    """

    scores: np.ndarray
    half_scores: np.ndarray
    n_train: int
    n_test: int
    n_train_half: int

    @validate_params({"confidence": [CONFIDENCE]}, prefer_skip_nested_validation=True)
    def interval(self, confidence=0.95):
        """The conservative Z interval (a :class:`MeanInterval`) of the mean score."""
        return interval_of_mean(
            self.scores, "conservative_z", confidence, half_scores=self.half_scores
        )


@validate_params(
    {
        "estimator": [object],
        "X": ["array-like", "sparse matrix"],
        "y": ["array-like", None],
        "scoring": [StrOptions(set(get_scorer_names())), callable, None],
        "n_splits": [COUNT],
        "n_pairs": [COUNT],
        "test_size": [CONFIDENCE, COUNT],
        "random_state": RANDOM_STATE_CONSTRAINTS,
        "n_jobs": N_JOBS_CONSTRAINTS,
    },
    prefer_skip_nested_validation=False,
)
def paired_subsampling_scores(
    estimator,
    X,
    y=None,
    *,
    scoring=None,
    n_splits=15,
    n_pairs=10,
    test_size=0.1,
    random_state=None,
    n_jobs=None,
):
    """Scores of a resampling on all the data and on pairs of halves, for the conservative Z.

    Runs ``n_splits`` random train/test splits of all ``n`` rows (test size ``n_test``), then
    ``n_pairs`` times splits the rows into two disjoint halves of ``n // 2`` and runs
    ``n_splits`` splits with the same test size on each half: ``n_splits * (2 * n_pairs +
    1)`` fits in all, each by :func:`~sklearn.model_selection.cross_val_score` on explicit
    index splits. Classifiers' splits are stratified.

    Parameters
    ----------
    estimator : estimator
        Cloned for every fit.
    X : array-like or sparse matrix of shape (n_samples, n_features)
    y : array-like of shape (n_samples,), default=None
    scoring : str, callable or None, default=None
        As :func:`sklearn.model_selection.cross_val_score`; a name is any of
        :func:`sklearn_fair.metrics.get_scorer`'s ("kappa", "ppv", ... or scikit-learn's).
    n_splits : int, default=15
        ``J``: random splits of all the data and of each half (mlr3inferr's
        ``repeats_in``).
    n_pairs : int, default=10
        ``M``: splits of the data into two halves (mlr3inferr's ``repeats_out``).
    test_size : float in (0, 1) or int, default=0.1
        The test size of every split: a fraction of ``n``, or a number of rows; it must
        leave at least one training row in a half.
    random_state : int, RandomState, Generator or None, default=None
        Seeds every split, not the estimator: as in ``cross_val_score``, an estimator whose
        own ``random_state`` is None (a ``RandomForestClassifier()``) draws anew in every fit,
        so its scores change from call to call and with ``n_jobs``, whatever this seed. Set
        the estimator's ``random_state`` for scores that repeat.
    n_jobs : int, default=None
        Parallel fits, as in scikit-learn.

    Returns
    -------
    PairedSubsamplingScores
        Its ``interval(confidence)`` is the conservative Z, as :func:`summarize` gives it from
        ``scores`` and ``half_scores`` with ``interval="conservative_z"``.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sklearn_fair.stats import paired_subsampling_scores
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> result = paired_subsampling_scores(
    ...     DecisionTreeClassifier(max_depth=2, random_state=0), X, y,
    ...     n_splits=3, n_pairs=4, random_state=0)
    >>> result.scores.shape, result.half_scores.shape, result.n_test, result.n_train_half
    ((3,), (4, 2, 3), 57, 227)
    >>> low, high = result.interval()
    >>> bool(low < result.scores.mean() < high)
    True
    """
    check_consistent_length(X, y)
    n = X.shape[0] if hasattr(X, "shape") else len(X)
    n_test = int(test_size) if isinstance(test_size, numbers.Integral) else round(test_size * n)
    n_half = n // 2
    n_train_half = n_half - n_test
    if n_test < 1 or n_train_half < 1:
        raise ValueError(
            f"The 'test_size' parameter gives {n_test} test rows of {n}; the conservative Z "
            f"needs at least one test row and at least one training row in a half of "
            f"{n_half} rows. Got test_size={test_size!r} instead."
        )
    # NestedCV's check: "sensitivity" (or its scorer) of a y of 3 classes would be class 1's
    # rate alone
    check_one_class_names(
        {"paired_subsampling_scores": scoring}, None if y is None else np.asarray(y)
    )
    if isinstance(scoring, str):
        scoring = get_scorer(scoring)
    rng = check_random_state(random_state)
    stratify = y is not None and is_classifier(estimator)
    target = None if y is None else np.asarray(y)
    n_classes = len(np.unique(target)) if stratify else 1
    if min(n_test, n_train_half) < n_classes:  # as StratifiedShuffleSplit would refuse it
        raise ValueError(
            f"The 'test_size' parameter gives {n_test} test rows and {n_train_half} training "
            f"rows in a half of {n_half} rows; a classifier's splits keep the proportions of "
            f"its {n_classes} classes, which needs at least {n_classes} of each. Got "
            f"test_size={test_size!r} instead."
        )

    def splitter(n_splits, test_size):
        kind = StratifiedShuffleSplit if stratify else ShuffleSplit
        return kind(n_splits=n_splits, test_size=test_size, random_state=rng)

    def scores_on(rows):
        """Scores of ``n_splits`` splits of ``rows`` (indices into X), fitted on X itself."""
        part = None if target is None else target[rows]
        splits = [
            (rows[train], rows[test])
            for train, test in splitter(n_splits, n_test).split(rows, part)
        ]
        return cross_val_score(clone(estimator), X, y, cv=splits, scoring=scoring, n_jobs=n_jobs)

    rows = np.arange(n)
    scores = scores_on(rows)
    half_scores = np.empty((n_pairs, 2, n_splits))
    for pair in range(n_pairs):
        first, second = next(splitter(1, n_half).split(rows, target))
        for side, half in enumerate((first[:n_half], second[:n_half])):
            if stratify:
                _check_half_classes(target[half], n_half)
            half_scores[pair, side] = scores_on(np.sort(half))
    return PairedSubsamplingScores(
        scores=np.asarray(scores, dtype=float),
        half_scores=half_scores,
        n_train=n - n_test,
        n_test=n_test,
        n_train_half=n_train_half,
    )


def _check_half_classes(target, n_half):
    """Refuse a half in which a class has one row: its stratified splits cannot keep it."""
    labels, counts = np.unique(target, return_counts=True)
    if counts.min() < 2:
        raise ValueError(
            f"The conservative Z splits the data into halves of {n_half} rows that keep the "
            f"class proportions; class {labels[counts.argmin()].tolist()!r} has "
            f"one row in a half, and a half's stratified splits need at least 2 rows of each "
            f"class (a half of an odd number of rows leaves one out at random)."
        )
