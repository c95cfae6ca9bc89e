"""The nested cross-validation interval of Bates, Hastie & Tibshirani for the prediction error.

Bates, Hastie & Tibshirani, "Cross-validation: what does it estimate and how well does it do
it?", JASA 2023 (arXiv:2104.00673), Section 4; :func:`nested_cv_interval` states the algorithm.
The fits run as a NestedCV plan (``_nested._planning.plan_of_splits``) on NestedCV's one
scheduler and executors (``_nested._running.run_plan``): outer fold ``k`` of repetition ``r`` is
an outer fold of the plan, its ``K - 1`` inner fits are the selection fits of its one
candidate, and its outer fit is the refit. Each fit is scored by two scorers that return the
mean and the variance of the pointwise loss on its test rows: with the number of rows they
give every mean and variance the formulas need, so pointwise losses never leave the workers.
The arithmetic (pooling, combining) is :mod:`sklearn_fair.stats._ncv`'s.
"""

import math
import numbers
import warnings
from dataclasses import asdict, dataclass, field

import numpy as np
from scipy.special import ndtri
from sklearn.base import is_classifier, is_regressor
from sklearn.model_selection import KFold
from sklearn.utils._param_validation import StrOptions, validate_params
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import _num_samples, check_consistent_length

from ..exceptions import SklearnFairWarning
from ..utils import (
    N_JOBS_CONSTRAINTS,
    RANDOM_STATE_CONSTRAINTS,
    EstimatorInstance,
    IntervalNotBool,
)
from ..utils._printing import decimals_for, number
from ..utils._stacklevel import external_stacklevel
from ._nested._inputs import check_target_kind
from ._nested._planning import plan_of_splits, warn_unseeded_estimator
from ._nested._running import run_plan
from ._nested._seeds import interval_seeds
from ._nested._tasks import REFIT, SELECTION, TaskKey

__all__ = ["NestedCVInterval", "nested_cv_interval"]

METHOD = "nested CV (Bates, Hastie & Tibshirani 2023), bias-corrected normal interval"
TARGET = (
    "Err_XY: the expected loss on new data of the model fitted on all n rows "
    "(the model at hand, not the average over training sets)"
)

#: Bytes of row indices materialised at once: the repetitions are run in batches so that a
#: large data set with many repetitions does not hold every training set in memory.
_ROW_BYTES = 64 * 2**20


def _zero_one(y_true, y_pred):
    y_pred = np.asarray(y_pred)
    # a classifier that predicts scores, not labels, would miss on every row: an error rate of 1
    if type_of_target(y_pred).startswith("continuous"):
        raise ValueError(
            "The 'loss' parameter of nested_cv_interval is 'zero_one', the misclassification "
            "loss, which compares labels; the estimator's predict returned continuous values "
            f"such as {y_pred.ravel()[:3].tolist()}, which would count as a miss on every row. "
            "Use an estimator whose predict returns class labels, or a callable loss."
        )
    return (np.asarray(y_true) != y_pred).astype(float)


def _squared_error(y_true, y_pred):
    diff = np.asarray(y_true, dtype=float) - np.asarray(y_pred, dtype=float)
    return diff * diff


def _absolute_error(y_true, y_pred):
    return np.abs(np.asarray(y_true, dtype=float) - np.asarray(y_pred, dtype=float))


_LOSSES = {
    "zero_one": _zero_one,
    "squared_error": _squared_error,
    "absolute_error": _absolute_error,
}


class _LossStatistic:
    """A scorer: the mean (or the variance, ddof=0) of the pointwise loss on its rows."""

    def __init__(self, loss, statistic):
        self.loss, self.statistic = loss, statistic

    def __call__(self, model, X, y):
        y, predicted = np.asarray(y), np.asarray(model.predict(X))
        if y.ndim == 2 and y.shape[1] == 1:  # one column (a DataFrame of the target): a row each
            y = y.ravel()
            predicted = predicted.reshape(y.shape) if predicted.size == y.size else predicted
        losses = np.asarray(self.loss(y, predicted), dtype=float)
        if losses.shape != (y.shape[0],):
            raise ValueError(
                "The 'loss' parameter of nested_cv_interval must return one loss per row, an "
                f"array of shape ({y.shape[0]},). Got shape {losses.shape} instead (y of shape "
                f"{y.shape}, predictions of shape {predicted.shape})."
            )
        return float(np.mean(losses) if self.statistic == "mean" else np.var(losses))


@dataclass(frozen=True)
class NestedCVInterval:
    """The nested-CV interval of Bates, Hastie & Tibshirani, from :func:`nested_cv_interval`.

    Unpacks as ``low, high``.

    Attributes
    ----------
    estimate : float
        The bias-corrected point estimate of the prediction error, ``ncv_estimate - bias``;
        NaN where the correction moves the whole interval out of the loss's range (see
        ``clipped_at_zero``).
    low, high : float
        The interval, ``estimate -/+ z * standard_error`` (``low_before``, ``high_before``),
        kept in the loss's range; NaN with ``estimate``.
    confidence : float
        Its nominal level.
    standard_error : float
        ``sqrt((K - 1) / K * max(mse, 0))``, clamped to ``[naive_standard_error,
        sqrt(K) * naive_standard_error]``.
    method : str
        How the interval is computed (printed with it).
    target : str
        What it targets: the error of the model fitted on all the rows (``Err_XY``).
    loss : str
        The pointwise loss (``"zero_one"``, ``"squared_error"``, ``"absolute_error"`` or the
        name of a callable).
    ncv_estimate : float
        ``Err_NCV``, the mean of every inner loss (models trained on ``n (K - 2) / K`` rows).
    cv_estimate : float
        ``Err_CV``, the mean of every outer loss (the ``n_repetitions``-times repeated
        K-fold estimate).
    bias : float
        ``(1 + (K - 2) / K) * (ncv_estimate - cv_estimate)``.
    mse : float
        The NCV estimate of the mean squared error of the CV estimate, before rescaling and
        clamping (it can be negative).
    naive_standard_error : float
        ``sd(inner losses) / sqrt(n)``: the standard error that treats the losses as
        independent, the lower clamp.
    cv_standard_error : float
        ``sd(outer losses) / sqrt(n)``: the standard error of the paper's naive CV interval,
        ``cv_estimate -/+ z * cv_standard_error`` (shown there to undercover).
    clamped : str
        ``"none"``, ``"lower"`` (raised to the naive standard error) or ``"upper"`` (lowered to
        ``sqrt(K)`` times it).
    clipped_at_zero : bool
        Whether ``estimate`` or ``low`` (not ``high``) fell below 0, the least a built-in loss
        can be (the bias correction can overshoot on a small error), and those of them below 0
        were raised to 0, as the other intervals of sklearn-fair are kept in their metric's
        range; ``ncv_estimate - bias``, ``low_before`` and ``high_before`` give the values
        before. Where ``high`` falls below 0 too, nothing is raised: the correction has moved
        the whole interval out of the range, so ``estimate``, ``low`` and ``high`` are NaN, a
        :class:`~sklearn_fair.exceptions.SklearnFairWarning` says so, and this is False.
    clipped_at_one : bool
        Whether ``estimate`` or ``high`` (not ``low``) of ``loss="zero_one"`` rose above 1,
        the most an error rate can be, and those of them above 1 were lowered to 1, as
        ``clipped_at_zero`` says for 0; where ``low`` rises above 1 too, they are NaN.
    n_samples, n_folds, n_repetitions : int
        The number of rows, folds and repetitions.
    fold_losses : ndarray of shape (n_repetitions, n_folds)
        The mean loss of each outer fold; each row is an ordinary K-fold CV of the data.
    folds : ndarray of shape (n_repetitions, n_samples)
        The fold of every row in every repetition, so that any number can be recomputed.
    """

    estimate: float
    low: float
    high: float
    confidence: float
    standard_error: float
    method: str
    target: str
    loss: str
    ncv_estimate: float
    cv_estimate: float
    bias: float
    mse: float
    naive_standard_error: float
    cv_standard_error: float
    clamped: str
    n_samples: int
    n_folds: int
    n_repetitions: int
    fold_losses: np.ndarray = field(repr=False)
    folds: np.ndarray = field(repr=False)
    clipped_at_zero: bool = False
    clipped_at_one: bool = False

    def __iter__(self):
        return iter((self.low, self.high))

    @property
    def interval(self):
        """``(low, high)``."""
        return (self.low, self.high)

    @property
    def low_before(self):
        """The low end before any clipping, ``ncv_estimate - bias - z * standard_error``."""
        return self.ncv_estimate - self.bias - self._half_width()

    @property
    def high_before(self):
        """The high end before any clipping, ``ncv_estimate - bias + z * standard_error``."""
        return self.ncv_estimate - self.bias + self._half_width()

    def _half_width(self):
        return float(ndtri(0.5 + self.confidence / 2)) * self.standard_error

    def _overshoot(self):
        """Why the interval is NaN, or None: the correction moved it out of the loss's range."""
        low, high = self.low_before, self.high_before
        above = self.loss == "zero_one" and low > 1
        if not math.isnan(self.estimate) or not (high < 0 or above):
            return None
        side = "below 0, the least" if high < 0 else "above 1, the most"
        values = (self.ncv_estimate, self.bias, low, high, self.cv_estimate)
        decimals = decimals_for(values, minimum=4)
        ncv, bias, low, high, cv = (number(v, decimals) for v in values)
        return (
            f"the bias correction (Err_NCV {ncv} less a bias of {bias}) moves the whole "
            f"interval {side} the loss can be: [{low}, {high}] before clipping; the "
            f"cross-validation estimate is {cv}"
        )

    def sqrt(self):
        """The estimate and interval on the square-root scale, ``(estimate, low, high)``.

        For ``loss="squared_error"``, the interval of the RMSE of the model at hand, with the
        MSE interval's coverage as the square root is increasing (the RMSE is not a mean of
        pointwise losses, so NCV cannot be applied to it directly). A negative bound becomes 0.

        Raises
        ------
        ValueError
            If ``loss`` is not ``"squared_error"``: the square root of another mean loss
            (an error rate, a mean absolute error) is not a quantity of interest.
        """
        if self.loss != "squared_error":
            raise ValueError(
                "NestedCVInterval.sqrt gives the RMSE from the interval of "
                f"loss='squared_error'; this interval is of loss={self.loss!r}, whose square "
                "root is no RMSE. Use estimate, low and high as they are."
            )
        return tuple(math.sqrt(max(v, 0.0)) for v in (self.estimate, self.low, self.high))

    def to_dict(self):
        """The fields as a plain dict (the arrays as nested lists)."""
        values = asdict(self)
        values["fold_losses"] = self.fold_losses.tolist()
        values["folds"] = self.folds.tolist()
        return values

    def __str__(self):
        level = f"{100 * self.confidence:g}%"
        described = (
            f" ({self.method}; {self.n_folds} folds x {self.n_repetitions} repetitions; "
            f"for {self.target.split(':')[0]}"
        )
        overshoot = self._overshoot()
        if overshoot is not None:
            return f"{self.loss} {level} interval not estimated: {overshoot}{described})"
        decimals = decimals_for([self.estimate, self.low, self.high], minimum=4)
        estimate, low, high = (number(v, decimals) for v in (self.estimate, self.low, self.high))
        notes = ""
        raw = self.ncv_estimate - self.bias
        if self.clipped_at_zero:
            before = ", ".join(number(v, decimals) for v in (raw, self.low_before))
            notes += f"; clipped at 0, the least the loss can be (estimate, low before: {before})"
        if self.clipped_at_one:
            before = ", ".join(number(v, decimals) for v in (raw, self.high_before))
            notes += f"; clipped at 1, the most the loss can be (estimate, high before: {before})"
        if self.standard_error == 0:
            notes += "; every loss was the same, so the interval has no width: no spread to judge"
        return f"{self.loss} {estimate}, {level} interval [{low}, {high}]{described}{notes})"


def _resolve_loss(loss, estimator, y):
    """The loss function and its name, refusing before any fit what cannot give an interval."""
    from sklearn.metrics._scorer import _BaseScorer, _PassthroughScorer

    if isinstance(loss, (_BaseScorer, _PassthroughScorer)):
        raise ValueError(
            "The 'loss' parameter of nested_cv_interval takes a pointwise loss(y_true, y_pred) "
            "returning one value per row, not a scorer; the interval applies only to means of "
            f"pointwise losses. Got the scorer {loss!r}."
        )
    if callable(loss):
        return loss, getattr(loss, "__name__", type(loss).__name__)
    if y.ndim > 1 and (y.ndim > 2 or y.shape[1] != 1):
        raise ValueError(
            f"y of shape {y.shape} has more than one column; loss={loss!r} gives one loss per "
            "value, so nested_cv_interval needs y of shape (n_samples,). For several outputs, "
            "pass a callable loss(y_true, y_pred) that returns one loss per row."
        )
    given = repr(loss)
    if loss == "auto":
        loss = "zero_one" if is_classifier(estimator) else "squared_error"
        given = f"'auto', the squared error for {type(estimator).__name__} (no classifier)"
    elif loss == "zero_one" and is_regressor(estimator):
        # an estimator of no declared kind may predict labels: the loss checks its predictions
        raise ValueError(
            "The 'loss' parameter of nested_cv_interval is 'zero_one', the misclassification "
            f"loss, but the estimator {type(estimator).__name__} is a regressor: its "
            "continuous predictions would count as a miss on every row. Use "
            "loss='squared_error' or 'absolute_error', or a classifier."
        )
    if loss != "zero_one" and y.dtype.kind not in "biuf":  # booleans count as 0 and 1
        try:
            y.astype(float)
        except (TypeError, ValueError) as error:
            raise ValueError(
                f"The 'loss' parameter of nested_cv_interval is {given}, which subtracts "
                f"predictions from y, but y holds values that are not numbers ({error}). Use "
                "loss='zero_one' for class labels, or a callable loss(y_true, y_pred) that "
                "returns one loss per row."
            ) from None
    return _LOSSES[loss], loss


def _assign_folds(n_samples, n_folds, seed):
    """The fold of every row: scikit-learn's shuffled KFold, sizes differing by at most one."""
    assignment = np.empty(n_samples, dtype=np.intp)
    splits = KFold(n_folds, shuffle=True, random_state=seed).split(np.empty((n_samples, 1)))
    for k, (_, test) in enumerate(splits):
        assignment[test] = k
    return assignment


def _repetition_splits(assignment, n_folds):
    """Per outer fold ``k``: its (train, test) and its inner splits (fold ``j != k`` held out)."""
    tests = [np.flatnonzero(assignment == k) for k in range(n_folds)]
    outer = [(np.flatnonzero(assignment != k), tests[k]) for k in range(n_folds)]
    inner = [
        [
            (np.flatnonzero((assignment != k) & (assignment != j)), tests[j])
            for j in range(n_folds)
            if j != k
        ]
        for k in range(n_folds)
    ]
    return outer, inner


def _fits(n_folds, fold, repetition, k):
    """``(key, description, held-out fold)`` of outer fold ``k``'s fits, the outer one first."""
    yield TaskKey(REFIT, fold, refit=0), f"outer fit (repetition {repetition}, fold {k})", k
    for split, j in enumerate(j for j in range(n_folds) if j != k):
        key = TaskKey(SELECTION, fold, candidate=0, inner_split=split)
        yield key, f"inner fit (repetition {repetition}, outer fold {k}, inner fold {j})", j


def _check_results(results, fits):
    """Raise unless every fit ran and succeeded with a finite loss: an interval from the others
    would be wrong. (A fold whose inner fits all fail gets no outer fit: its selection failed.)"""
    missing = [(key, what) for key, what, _ in fits if key not in results]
    failed = [
        (what, results[key])
        for key, what, _ in fits
        if key in results and (results[key]["error"] or results[key].get("score_errors"))
    ]
    if failed or missing:
        what, result = failed[0] if failed else (missing[0][1], {"error": "(not run)"})
        first = result["error"] or next(iter(result["score_errors"].values()))
        not_run = f", {len(missing)} of them not run as their inner fits failed" if missing else ""
        raise RuntimeError(
            f"{len(failed) + len(missing)} of the {len(fits)} fits of nested_cv_interval failed"
            f"{not_run}; an interval from the others would be wrong. The first, the {what}, "
            f"failed with:\n{first}"
        )
    for key, what, _ in fits:
        mean = results[key]["scores"]["mean"]
        if not (np.isfinite(mean) and np.isfinite(results[key]["scores"]["variance"])):
            raise ValueError(
                f"The loss of the {what} is not finite ({mean!r}); nested_cv_interval "
                "needs a finite loss on every row."
            )


def _run_batch(estimator, params, scorers, folds, n_folds, repetitions, X, y, n_jobs, verbose):
    """Run the fits of ``repetitions``; their ``(outer, inner)`` moments (see ``stats._ncv``),
    of shape (len(repetitions), K, 3) and (len(repetitions), K, K, 3)."""
    outer_splits, inner_splits, fits = [], {}, []
    for r in repetitions:
        outer, inner = _repetition_splits(folds[r], n_folds)
        for k in range(n_folds):
            fold = len(outer_splits)
            outer_splits.append(outer[k])
            inner_splits[fold] = inner[k]
            fits.extend(_fits(n_folds, fold, r, k))
    plan = plan_of_splits(
        estimator, params, scorers, outer_splits, inner_splits, X, y,
        owner="nested_cv_interval", n_jobs=n_jobs, verbose=verbose,
    )  # fmt: skip
    # no prefix reuse, as before this ran on the scheduler: on a StandardScaler-PCA-
    # LogisticRegression pipeline (400 rows, K=5, R=4, n_jobs=2, busy 2-core machine) reuse took
    # 2.7-4.1 s against 1.6-2.6 s without it; without it, 2.2-3.2 s against 2.4-3.7 s before
    results = run_plan(plan, reuse_prefix=False).results
    _check_results(results, fits)
    outer_moments = np.empty((len(repetitions), n_folds, 3))
    inner_moments = np.full((len(repetitions), n_folds, n_folds, 3), np.nan)
    for key, _, held_out in fits:
        r, k = divmod(key.outer_fold, n_folds)  # r counts from the batch's first repetition
        m = len(outer_splits[r * n_folds + held_out][1])  # the rows of the fold scored
        scores = results[key]["scores"]
        moments = (m, scores["mean"], m * scores["variance"])
        if key.phase == REFIT:
            outer_moments[r, k] = moments
        else:
            inner_moments[r, k, held_out] = moments
    return outer_moments, inner_moments


@validate_params(
    {
        "estimator": [EstimatorInstance(["fit", "predict"])],
        "X": ["array-like", "sparse matrix"],
        "y": ["array-like"],
        "loss": [StrOptions({"auto", *_LOSSES}), callable],
        "n_folds": [IntervalNotBool(numbers.Integral, 3, None, closed="left")],
        "n_repetitions": [IntervalNotBool(numbers.Integral, 1, None, closed="left")],
        "confidence": [IntervalNotBool(numbers.Real, 0, 1, closed="neither")],
        "n_jobs": N_JOBS_CONSTRAINTS,
        "random_state": RANDOM_STATE_CONSTRAINTS,
        "verbose": ["verbose"],
    },
    prefer_skip_nested_validation=False,
)
def nested_cv_interval(
    estimator,
    X,
    y,
    *,
    loss="auto",
    n_folds=10,
    n_repetitions=50,
    confidence=0.95,
    n_jobs=None,
    random_state=None,
    verbose=0,
):
    """Confidence interval for the prediction error by nested CV (Bates, Hastie & Tibshirani).

    The interval of Bates, Hastie & Tibshirani (JASA 2023, arXiv:2104.00673, Algorithm 1 and
    Section 4) for ``Err_XY``, the expected loss on new data of ``estimator`` fitted on all of
    ``X, y``. The usual interval of a cross-validated error treats the errors as independent
    and is too narrow; nested CV estimates the mean squared error of the CV estimate instead.
    Over ``n_repetitions`` random ``K``-fold splits, for each outer fold ``k`` a ``(K - 1)``-fold
    CV on the other folds gives the inner losses ``e_in``, the model trained without fold ``k``
    the outer losses ``e_out`` on it. Then

    - ``MSE = mean((mean(e_in) - mean(e_out))**2) - mean(var(e_out) / |fold|)``;
    - ``Err_NCV`` is the mean of every inner loss, ``Err_CV`` of every outer loss, and the
      point estimate is ``Err_NCV - (1 + (K - 2) / K) * (Err_NCV - Err_CV)`` (the inner models
      see ``n (K - 2) / K`` rows, the outer ones ``n (K - 1) / K``; the correction
      extrapolates to ``n``);
    - the interval is ``estimate -/+ z * SE`` with ``SE = sqrt((K - 1) / K * max(MSE, 0))``
      (the MSE is that of a ``(K - 1)``-fold CV on ``n (K - 1) / K`` rows, rescaled to the
      K-fold CV on ``n``), kept between the naive ``sd(e_in) / sqrt(n)`` and ``sqrt(K)``
      times it, as the paper recommends.

    Every fit runs on NestedCV's task pool: ``n_repetitions * n_folds**2`` fits of
    ``estimator``. A scikit-learn search is assessed as a procedure: each fit tunes itself.

    Parameters
    ----------
    estimator : estimator object
        The procedure whose prediction error is estimated; cloned for every fit, never
        fitted itself. ``random_state`` parameters left at None get one seed drawn from
        ``random_state``, the same in every fit.
    X : array-like or sparse matrix of shape (n_samples, n_features)
        The data.
    y : array-like of shape (n_samples,) or (n_samples, n_outputs)
        The target; several outputs only with a callable ``loss`` that returns one loss per
        row.
    loss : {"auto", "zero_one", "squared_error", "absolute_error"} or callable, \
default="auto"
        The pointwise loss of ``estimator.predict``: ``"auto"`` is the misclassification
        (0-1) loss for a classifier and the squared error otherwise; ``"zero_one"`` needs a
        classifier, ``"squared_error"`` and ``"absolute_error"`` a ``y`` of numbers (booleans
        count as 0 and 1). A callable ``loss(y_true, y_pred)`` returns one loss per row (not a
        scorer). The interval is for the mean of this loss: for the squared error, the MSE;
        :meth:`NestedCVInterval.sqrt` gives the RMSE's.
    n_folds : int, default=10
        ``K``, at least 3 (the inner CV has ``K - 1`` folds). The paper uses 10.
    n_repetitions : int, default=50
        ``R``, the random splits averaged over (the default of the authors' R package); the
        MSE estimate is noisy with few.
    confidence : float, default=0.95
        The nominal level of the interval.
    n_jobs : int, default=None
        Workers for the fits, as in NestedCV (joblib's backend in force, loky by default).
    random_state : int, RandomState instance, Generator or None, default=None
        Seeds the folds of every repetition (and the estimator's unset seeds). An int gives
        the same interval on every call, whatever ``n_jobs``.
    verbose : int, default=0
        Progress output of the task pool.

    Returns
    -------
    NestedCVInterval
        The estimate, the interval and the intermediate estimates.

    Raises
    ------
    ValueError
        Before any fit, if ``loss="zero_one"`` and ``estimator`` is not a classifier, if
        ``loss`` is the squared or absolute error (``"auto"`` for an estimator that is not a
        classifier) and ``y`` holds values that are not numbers (class labels as strings), if
        ``loss`` is a scorer, or if ``y`` has several columns and ``loss`` is not a callable.
    RuntimeError
        If any fit fails: an interval from the fits that remain would be wrong.

    Warns
    -----
    SklearnFairWarning
        If the bias correction moves the whole interval of a built-in loss below 0 (or, for
        ``loss="zero_one"``, above 1): clipped, it would read ``[0, 0]`` (or ``[1, 1]``), an
        error known exactly. The result's ``estimate``, ``low`` and ``high`` are NaN then;
        the warning and the printed result give the interval before clipping and
        ``cv_estimate``.

    See Also
    --------
    sklearn_fair.stats.summarize : The interval of the mean of per-fold scores, which treats
        the folds as independent.

    Notes
    -----
    The authors' R package (``stephenbates19/nestedcv``) differs in details: it estimates
    ``Err_CV`` from separate K-fold runs, and scales the bias by ``1 + ((K - 2) / K)**1.5``
    where the paper's formula, used here as in mlr3inferr, is ``1 + (K - 2) / K`` (exact when
    the error decreases as ``1 / n``: it extrapolates from ``n (K - 2) / K`` and ``n (K - 1) /
    K`` rows to ``n``); it shares each inner fit between the two outer folds it leaves out
    (``K (K - 1) / 2`` inner fits per repetition instead of ``K (K - 1)``, the same models for
    a deterministic estimator); and it leaves the ``n mod K`` remaining rows out of every
    test fold. The cost is high: the paper uses 10 folds and 50 to 200 repetitions. Measured
    coverage is in the user guide (Honest uncertainty).

    References
    ----------
    .. [1] S. Bates, T. Hastie and R. Tibshirani, "Cross-validation: what does it estimate
       and how well does it do it?", Journal of the American Statistical Association
       119(546), 1434-1445, 2024 (online 2023); arXiv:2104.00673.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sklearn_fair.model_selection import nested_cv_interval
    >>> X, y = make_classification(n_samples=60, random_state=0)
    >>> result = nested_cv_interval(
    ...     DecisionTreeClassifier(max_depth=2), X, y, n_folds=3, n_repetitions=2, random_state=0
    ... )
    >>> result.loss, result.n_folds * result.n_folds * result.n_repetitions
    ('zero_one', 18)
    >>> bool(result.low <= result.estimate <= result.high)
    True
    >>> result.fold_losses.shape
    (2, 3)
    """
    check_consistent_length(X, y)
    check_target_kind(estimator, np.asarray(y))  # before any fit, as NestedCV
    n_samples = _num_samples(X)
    if n_samples < 2 * n_folds:
        raise ValueError(
            f"nested_cv_interval needs at least 2 rows per fold: n_folds={n_folds} needs "
            f"n_samples >= {2 * n_folds}. Got n_samples={n_samples} instead."
        )
    loss_function, loss_name = _resolve_loss(loss, estimator, np.asarray(y))
    if random_state is not None:  # as NestedCV's: before any fit
        warn_unseeded_estimator("nested_cv_interval", estimator)
    seeds = interval_seeds(estimator, random_state, n_repetitions)
    folds = np.array([_assign_folds(n_samples, n_folds, int(s)) for s in seeds.fold_seeds])
    scorers = {s: _LossStatistic(loss_function, s) for s in ("mean", "variance")}
    batch = max(1, _ROW_BYTES // (8 * n_folds * n_folds * n_samples))
    batches = [range(s, min(s + batch, n_repetitions)) for s in range(0, n_repetitions, batch)]
    moments = [
        _run_batch(estimator, seeds.params, scorers, folds, n_folds, reps, X, y, n_jobs, verbose)
        for reps in batches
    ]
    outer, inner = (np.concatenate(parts) for parts in zip(*moments))
    # imported here: a worker that imports model_selection to run a fit needs no statistics
    from ..stats._ncv import ncv_estimates

    values = ncv_estimates(outer, inner, n_samples, confidence)
    most = 1.0 if loss_name == "zero_one" else math.inf
    if loss_name in _LOSSES and (values["high"] < 0 or values["low"] > most):
        # wholly out of the loss's range: clipped, it would read [0, 0], an exact error
        values.update(estimate=math.nan, low=math.nan, high=math.nan)
    elif loss_name in _LOSSES and min(values["estimate"], values["low"]) < 0:
        # a negative error rate is no error rate: kept in the loss's range [0, inf)
        values.update(
            clipped_at_zero=True,
            **{key: max(values[key], 0.0) for key in ("estimate", "low", "high")},
        )
    if max(values["estimate"], values["high"]) > most:
        # nor is an error rate above 1: kept in [0, 1], as the other intervals of error rates
        values.update(
            clipped_at_one=True,
            **{key: min(values[key], 1.0) for key in ("estimate", "low", "high")},
        )
    result = NestedCVInterval(
        confidence=float(confidence),
        method=METHOD,
        target=TARGET,
        loss=loss_name,
        n_samples=int(n_samples),
        n_folds=int(n_folds),
        n_repetitions=int(n_repetitions),
        folds=folds,
        **values,
    )
    overshoot = result._overshoot()
    if overshoot is not None:
        warnings.warn(
            f"nested_cv_interval gives no interval of {loss_name}: {overshoot}. "
            "The inner models (trained on n (K - 2) / K rows) lose so differently from the "
            "outer ones (n (K - 1) / K rows) that the paper's extrapolation to n rows fails; "
            "estimate, low and high are NaN.",
            SklearnFairWarning,
            stacklevel=external_stacklevel(),
        )
    return result
