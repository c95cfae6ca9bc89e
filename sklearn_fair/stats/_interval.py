"""Intervals of the mean of a few scores, each carrying the words that say how it was made.

A kind computed from the scores alone is registered in ``_MEAN_INTERVALS`` under the name
that ``interval=`` takes. A kind that needs more (the nested cross-validation interval needs
the per-sample errors of every fold) is computed where that information lives and handed to
:func:`summarize` as a :class:`MeanInterval`, which it prints as it is.
"""

from dataclasses import dataclass, replace

import numpy as np
from scipy import stats as _scipy_stats
from sklearn.utils._param_validation import StrOptions, validate_params

from ..utils._scaling import scale_exponent
from ..utils._splits import NOT_DATED_AFTER, time_ordered_splits
from ._checks import (
    CONFIDENCE,
    POSITIVE,
    LowHigh,
    check_scores,
    float_array,
    scaled_back,
)


@dataclass(frozen=True)
class MeanInterval(LowHigh):
    """An interval of a mean score; unpacks and indexes as the tuple ``(low, high)``.

    Attributes
    ----------
    low, high : float
        The bounds.
    confidence : float
        The nominal level.
    method : str
        The short name of the kind ("t", "normal", ...), as ``interval=`` takes it.
    description : str
        The method in words, printed next to the numbers, e.g. "Student t, 9 df, of the
        mean of 10 scores".
    """

    low: float
    high: float
    confidence: float
    method: str
    description: str

    def negated(self):
        """The interval of ``-mean``: bounds negated and swapped, same description."""
        return MeanInterval(-self.high, -self.low, self.confidence, self.method, self.description)


def _around_mean(distribution, scores, scale, confidence, method, description, *args):
    """``distribution.interval`` (shape parameters ``args``) around the mean of ``scores``; a
    point when ``scale`` is 0 (scipy's interval is NaN there)."""
    loc = np.mean(scores)
    if scale == 0:
        low, high = loc, loc
    else:
        low, high = distribution.interval(confidence, *args, loc=loc, scale=scale)
    return MeanInterval(float(low), float(high), confidence, method, description)


def _student_t(scores, confidence):
    n = scores.shape[0]
    description = f"Student t, {n - 1} df, of the mean of {n} scores"
    sem = _scipy_stats.sem(scores)
    return _around_mean(_scipy_stats.t, scores, sem, confidence, "t", description, n - 1)


def _normal(scores, confidence):
    description = f"normal (z), of the mean of {scores.shape[0]} scores"
    sem = _scipy_stats.sem(scores)
    return _around_mean(_scipy_stats.norm, scores, sem, confidence, "normal", description)


def _corrected_t(scores, confidence, *, n_train, n_test):
    # Nadeau & Bengio (2003), eq. (17) and the interval that follows it; Bouckaert & Frank
    # (2004) for r times k-fold with J = r k; as mlr3inferr's ci.cor_t.
    n = scores.shape[0]
    df = n - 1
    scale = np.sqrt(1.0 / n + n_test / n_train) * np.std(scores, ddof=1)
    description = (
        f"corrected resampled t (Nadeau & Bengio), {df} df, of the mean of {n} scores, "
        f"test/train size {n_test:g}/{n_train:g}"
    )
    return _around_mean(_scipy_stats.t, scores, scale, confidence, "corrected_t", description, df)


def _conservative_z(scores, confidence, *, half_scores):
    # Nadeau & Bengio (2003), section 4.2; as mlr3inferr's ci.con_z.
    pairs = half_scores.shape[0]
    variance = float(np.sum((half_scores[:, 0] - half_scores[:, 1]) ** 2) / (2.0 * pairs))
    description = (
        f"conservative Z (Nadeau & Bengio), variance from {pairs} pairs of half-sample "
        f"estimates, of the mean of {scores.shape[0]} scores"
    )
    return _around_mean(
        _scipy_stats.norm, scores, np.sqrt(variance), confidence, "conservative_z", description
    )


_MEAN_INTERVALS = {
    "t": _student_t,
    "normal": _normal,
    "corrected_t": _corrected_t,
    "conservative_z": _conservative_z,
}
#: What each kind needs besides the scores, and what to say when it is missing.
_NEEDS = {
    "corrected_t": {
        "n_train": "the training-set size of each resample (the mean when they differ)",
        "n_test": "the test-set size of each resample",
    },
    "conservative_z": {
        "half_scores": "the (M, 2) mean scores of the same resampling run on M pairs of "
        "disjoint halves of the data (sklearn_fair.stats.paired_subsampling_scores)",
    },
}


#: Coverage of Err_XY (the error of the model fitted on all the rows) measured by
#: ``benchmarks/bench_coverage.py`` (``benchmarks/results/coverage.json``, "default_rule"):
#: for each kind, the lowest and highest coverage over its settings at nominal 90% and 95%,
#: in percent, and whether it came within Monte-Carlo error of nominal in every setting.
#: tests/stats/test_coverage_claims.py checks these numbers against the results file.
MEASURED_COVERAGE = {
    kind: {"ranges": {"0.90": at_90, "0.95": at_95}, "reaches_nominal": reaches}
    for kind, at_90, at_95, reaches in (
        ("t", (74.0, 89.2), (85.6, 94.8), False),
        ("normal", (65.6, 82.8), (71.2, 88.0), False),
        ("corrected_t", (90.4, 98.0), (95.6, 99.2), True),
        # the t and the corrected t of 5 times repeated 5-fold CV (25 scores)
        ("t_repeated", (39.6, 52.8), (46.4, 60.8), False),
        ("corrected_t_repeated", (82.8, 93.6), (87.2, 96.8), False),
        ("conservative_z", (92.0, 99.6), (94.0, 100.0), True),
    )
}
#: The narrowest kind computed from fold scores (and the folds' sizes) that reached its
#: nominal level within Monte-Carlo error in every setting of the benchmark, or None.
COVERING_KIND = "corrected_t"


_SERIAL_ROWS_CAVEAT = (
    "the corrected resampled t's correction by n_test/n_train (Nadeau & Bengio) is derived for "
    "random train/test splits of independent rows: for time-ordered folds of serially "
    "dependent rows its interval, and the coverage measured for it, may not hold"
)
#: The caveat of the corrected resampled t over time-ordered folds (each testing rows after all
#: those it trains on): NestedCV.summary notes it, and so should every output printing that
#: interval for such folds.
TIME_ORDERED_NOTE = (
    "the outer folds are time-ordered (each tests rows after all those it trains on), but "
    + _SERIAL_ROWS_CAVEAT
)
#: The caveat of the corrected resampled t over such folds (:data:`NOT_DATED_AFTER`), in place
#: of :data:`TIME_ORDERED_NOTE`, which their dates contradict.
NOT_DATED_AFTER_NOTE = (
    "the outer folds test rows after all those they train on by position, but not by date "
    "(how the outer folds were made says where), so a test row may be predicted from rows of "
    "its own date or later; and " + _SERIAL_ROWS_CAVEAT
)
#: The caveat of the corrected resampled t over outer training sets that repeat rows (the
#: bootstrap's): every output printing that interval for such splits notes it.
REPEATED_ROWS_NOTE = (
    "the outer training sets repeat rows (bootstrap resamples): the corrected resampled t "
    "takes n_train as their mean number of distinct rows, but its correction by n_test/n_train "
    "(Nadeau & Bengio) is derived for random train/test splits without repeated rows, and the "
    "coverage benchmark measured it on k-fold splits only: for these resamples its interval, "
    "and the coverage measured for it, may not hold"
)


def fold_sizes(train_indices, test_indices):
    """The corrected resampled t's ``n_train`` and ``n_test`` of outer splits: the mean
    numbers of distinct rows of their training and test sets.

    A bootstrap training set holds copies of rows; the copies add no new rows to learn from,
    so they are not counted.

    Parameters
    ----------
    train_indices, test_indices : sequence of array-like of int
        The training and the test row indices of each split.

    Returns
    -------
    dict
        ``{"n_train": float, "n_test": float}``, the keywords of :func:`mean_interval`.
    """
    return {
        name: float(np.mean([np.unique(fold).shape[0] for fold in folds]))
        for name, folds in (("n_train", train_indices), ("n_test", test_indices))
    }


#: The caveat of the median and the IQM of outer folds that each test one row (LeaveOneOut's):
#: each fold's score is that row's, so they show the usual outcome, not the model's score.
ONE_ROW_TESTS_NOTE = (
    "each outer test fold holds one row, so each fold's score is that row's (for accuracy, 0 "
    "or 1): the median and the IQM of the fold scores, and the IQM's interval, show the usual "
    "outcome of a row, not the model's score; read the mean"
)


def corrected_t_notes(train_indices, test_indices, outer=""):
    """The caveats of the corrected resampled t over outer splits, as sentences:
    :data:`TIME_ORDERED_NOTE` where every split tests rows after all those it trains on
    (:data:`NOT_DATED_AFTER_NOTE` where ``outer``, the words of the outer resampling, say that
    the rows' dates are not in that order), :data:`REPEATED_ROWS_NOTE` where a training set
    repeats rows; ``()`` for neither."""
    notes = []
    if time_ordered_splits(zip(train_indices, test_indices)):
        notes.append(NOT_DATED_AFTER_NOTE if NOT_DATED_AFTER in outer else TIME_ORDERED_NOTE)
    if any(np.unique(fold).shape[0] < len(fold) for fold in train_indices):
        notes.append(REPEATED_ROWS_NOTE)
    return tuple(notes)


class RunsOfKFold(int):
    """How many runs of k-fold CV outer splits are (an int, as :func:`times_tested` counts
    them), with each run's number of folds, ``n_splits``, so that :func:`coverage_note` can
    name the run's scheme where the benchmark measured another."""

    def __new__(cls, runs, n_splits):
        self = super().__new__(cls, runs)
        self.n_splits = int(n_splits)
        return self

    def __reduce__(self):
        return type(self), (int(self), self.n_splits)


def times_tested(train_indices, test_indices):
    """How often outer splits test each row: R where they are R runs of k-fold CV (one run:
    R = 1), each run's consecutive test folds testing every row they use (train or test on)
    once; None otherwise: rows tested unequally often (ShuffleSplit, bootstrap resamples,
    time-ordered splits that never test the first rows) or equally often but not in runs of
    k-fold CV (LeavePOut), which the coverage benchmark did not measure. R is a
    :class:`RunsOfKFold`, which also holds k: :func:`coverage_note` picks the benchmark's row of
    that resampling by R, and says where the benchmark measured another scheme."""
    test_indices = list(test_indices)
    tested = np.concatenate([np.asarray(fold, dtype=np.intp).ravel() for fold in test_indices])
    used = np.concatenate(
        [tested, *(np.asarray(fold, dtype=np.intp).ravel() for fold in train_indices)]
    )
    if not tested.size:
        return None
    rows = np.unique(used)
    counts = np.bincount(tested, minlength=used.max() + 1)[rows]
    if not (counts == counts[0]).all():
        return None
    repeats = int(counts[0])
    # R runs of k-fold CV: each run of consecutive test folds tests every row once (not so
    # LeavePOut's splits, which also test each row equally often)
    n_folds = len(test_indices)
    if n_folds % repeats:
        return None
    k = n_folds // repeats
    for run in range(repeats):
        folds = test_indices[run * k : (run + 1) * k]
        tested_in_run = np.concatenate([np.asarray(f, dtype=np.intp).ravel() for f in folds])
        if not np.array_equal(np.sort(tested_in_run), rows):
            return None
    return RunsOfKFold(repeats, k)


def _scheme_text(runs, n_splits):
    """R runs of k-fold CV in words: "5-fold CV", "5 times repeated 5-fold CV"."""
    return f"{n_splits}-fold CV" if runs == 1 else f"{runs} times repeated {n_splits}-fold CV"


# the resampling of each kind of row of the coverage benchmark (``method + suffix``): its runs
# of k-fold CV, and in words
_MEASURED_SCHEMES = {"": (1, 5), "_repeated": (5, 5)}
_MEASURED_SETTINGS = {"": "one run of " + _scheme_text(1, 5), "_repeated": _scheme_text(5, 5)}


def _other_scheme_text(times_tested, suffix):
    """The end of the note, "; this run's <scheme> was not measured", where ``times_tested``
    (a :class:`RunsOfKFold`) is another scheme than the one of the benchmark's row ``suffix``;
    "" where it is that scheme or does not hold its number of folds (a count, an average)."""
    n_splits = getattr(times_tested, "n_splits", None)
    if n_splits is None or (int(times_tested), n_splits) == _MEASURED_SCHEMES[suffix]:
        return ""
    return f"; this run's {_scheme_text(int(times_tested), n_splits)} was not measured"


def coverage_note(method, confidence, times_tested="unknown"):
    """What the coverage benchmark measured for ``method`` at ``confidence``, or "".

    The benchmark's rows of "t", "normal" and "corrected_t" are one run of 5-fold CV;
    "t" and "corrected_t" have a second row, 5 times repeated 5-fold CV (where both
    under-covered, the t far more). ``times_tested`` is how often the resamples test each row
    (:func:`times_tested`, or the average that the corrected t's sizes give): about 1 picks
    the first row, 2 or more the second. A resampling the benchmark did not measure gets a
    note that says so and quotes every row of ``method``, each named by its resampling: None
    and any other average (not runs of k-fold CV), and 2 or more for "normal" (repeated
    k-fold CV, which it measured one run of), and "not recorded" (a saved result without its
    splits, which may be of any resampling). "unknown" (bare scores) picks the one-run row
    of "t" and "normal", named as such, and no row of "corrected_t", whose sizes give it.
    Where ``times_tested`` is a :class:`RunsOfKFold` of another scheme than the row quoted
    (2 times repeated 3-fold CV, quoted the row of 5 times repeated 5-fold CV), the note ends
    "; this run's 2 times repeated 3-fold CV was not measured".
    """
    setting, other = "", ""
    if method in ("t", "normal", "corrected_t"):
        if times_tested == "not recorded":  # a saved result's scores without their splits
            return _unmeasured_resampling_note(
                method, confidence, "resamples whose splits were not recorded"
            )
        if times_tested == "unknown":
            if method == "corrected_t":
                return ""
            times_tested = 1
        if times_tested is None:
            return _unmeasured_resampling_note(method, confidence)
        repeated = f"{method}_repeated"
        if abs(times_tested - 1) < 0.01:
            setting = f" ({_MEASURED_SETTINGS['']})"
            other = _other_scheme_text(times_tested, "")
        elif times_tested < 2:  # an average that no runs of k-fold CV give
            return _unmeasured_resampling_note(method, confidence)
        elif repeated in MEASURED_COVERAGE:
            method, setting = repeated, f" ({_MEASURED_SETTINGS['_repeated']})"
            other = _other_scheme_text(times_tested, "_repeated")
        else:
            return _unmeasured_resampling_note(method, confidence, "repeated k-fold CV")
    measured = MEASURED_COVERAGE.get(method)
    key = f"{confidence:.2f}"
    if measured is None or key not in measured["ranges"] or abs(confidence - float(key)) > 1e-12:
        return ""
    low, high = measured["ranges"][key]
    text = (
        f"in our simulations (benchmarks/bench_coverage.py) this interval covered the "
        f"model's error {low:.0f}-{high:.0f}% of the time at nominal {100 * confidence:g}%"
        + setting
    )
    return _measured_verdict(text, method, key) + other


def _measured_verdict(text, method, key):
    """``text``, what the benchmark measured for ``method`` at confidence ``key``, with whether
    it under-covered there and what the covering kind did."""
    if MEASURED_COVERAGE[method]["reaches_nominal"]:
        return text
    if method.endswith("_repeated"):
        if method == f"{COVERING_KIND}_repeated":
            return f"{text}: it under-covers"
        # in that setting the covering kind under-covered too: say by how much, not "nominal"
        low, high = MEASURED_COVERAGE[f"{COVERING_KIND}_repeated"]["ranges"][key]
        return (
            f"{text}: it under-covers; interval={COVERING_KIND!r} covered {low:.0f}-{high:.0f}% "
            "there"
        )
    if COVERING_KIND is not None and not method.startswith(COVERING_KIND):
        return (
            f"{text}: it under-covers; interval={COVERING_KIND!r} reached nominal in every setting"
        )
    return f"{text}: it under-covers"


def _unmeasured_resampling_note(
    method, confidence, resampling="these resamples, which are not runs of k-fold CV"
):
    """The note of ``method`` for a ``resampling`` (in words) that the benchmark has no row of
    for ``method``: every row it has of ``method`` is quoted, named by its resampling."""
    key = f"{confidence:.2f}"
    if abs(confidence - float(key)) > 1e-12:
        return ""
    rows = [
        (MEASURED_COVERAGE[method + suffix]["ranges"][key], setting)
        for suffix, setting in _MEASURED_SETTINGS.items()
        if method + suffix in MEASURED_COVERAGE
        and key in MEASURED_COVERAGE[method + suffix]["ranges"]
    ]
    if not rows:
        return ""
    covered = " and ".join(f"{low:.0f}-{high:.0f}% in {setting}" for (low, high), setting in rows)
    return (
        "our simulations (benchmarks/bench_coverage.py) did not measure this interval for "
        f"{resampling}; it covered the model's error {covered}, at nominal {100 * confidence:g}%"
    )


def _check_half_scores(half_scores):
    """``half_scores`` as an (M, 2) float array: (M, 2, J) per-split scores are averaged."""
    array = float_array(
        half_scores,
        "The 'half_scores' parameter",
        "an array of numbers of shape (M, 2) or (M, 2, J)",
    )
    if array.ndim == 3:
        array = array.mean(axis=2)
    if array.ndim != 2 or array.shape[1] != 2 or array.shape[0] < 1:
        raise ValueError(
            "The 'half_scores' parameter must have shape (M, 2) (or (M, 2, J)): one pair of "
            "half-sample estimates per split of the data into halves, M >= 1. Got shape "
            f"{np.shape(half_scores)} instead."
        )
    if not np.isfinite(array).all():
        raise ValueError("The 'half_scores' parameter contains NaN or an infinite value.")
    return array


def interval_of_mean(scores, method, confidence, *, parameter="interval", **info):
    """The interval ``method`` of ``scores``, given what it needs (``info``), checked; a value
    of ``info`` that the method does not use must be None, not ignored silently. ``parameter``
    is the caller's name for ``method``, which its errors name."""
    needs = _NEEDS.get(method, {})
    for name, value in info.items():
        if name in needs and value is None:
            raise ValueError(
                f"The {method!r} interval needs the '{name}' parameter: {needs[name]}. Got None."
            )
        if name not in needs and value is not None:
            uses = ", ".join(f"{kind!r}" for kind, names in _NEEDS.items() if name in names)
            raise ValueError(
                f"The '{name}' parameter is used only by the {uses} interval; the interval "
                f"is {method!r}. Pass {parameter}={uses.split(',')[0]} or drop '{name}'."
            )
    kwargs = {name: info[name] for name in needs}
    if "n_train" in kwargs:
        kwargs["n_train"] = float(kwargs["n_train"])
        kwargs["n_test"] = float(kwargs["n_test"])
    if "half_scores" in kwargs:
        kwargs["half_scores"] = _check_half_scores(kwargs["half_scores"])
    # values past 2**100 (or under 2**-100) by one power of 2, so that their squares neither
    # overflow nor underflow; every interval is that of the scores scaled, scaled back
    exponent = scale_exponent(scores, kwargs.get("half_scores", scores))
    if exponent:
        scores = np.ldexp(scores, -exponent)
        if "half_scores" in kwargs:
            kwargs["half_scores"] = np.ldexp(kwargs["half_scores"], -exponent)
    interval = _MEAN_INTERVALS[method](scores, float(confidence), **kwargs)
    if not exponent:
        return interval
    what = f"the {100 * float(confidence):g}% interval of their mean"
    low, high = (scaled_back(bound, exponent, what) for bound in interval)
    return replace(interval, low=low, high=high)


#: The ``interval=`` / ``method=`` constraint: a registered kind's name.
INTERVAL_METHODS = StrOptions(set(_MEAN_INTERVALS))


@validate_params(
    {
        "scores": ["array-like"],
        "confidence": [CONFIDENCE],
        "method": [INTERVAL_METHODS],
        "n_train": [POSITIVE, None],
        "n_test": [POSITIVE, None],
        "half_scores": ["array-like", None],
    },
    prefer_skip_nested_validation=True,
)
def mean_interval(
    scores, *, confidence=0.95, method="t", n_train=None, n_test=None, half_scores=None
):
    """Confidence interval of the mean of a few scores, with its method in words.

    "t" is ``mean -/+ t(n - 1) * sem`` (the interval of :func:`scipy.stats.ttest_1samp`);
    "normal" uses the normal quantile. Both treat the scores as independent, so both are
    optimistic for cross-validation folds, whose training sets overlap (Bates, Hastie and
    Tibshirani, 2023). Nadeau and Bengio's (2003, Machine Learning 52:239-281) allow for it
    (two of the three that Schulz-Kümpel et al., 2024, arXiv 2409.18836, recommend):
    "corrected_t", ``mean -/+ t(J - 1) * sqrt(1 / J + n_test / n_train) * sd`` of ``J``
    scores of random subsampling or ``r`` times repeated ``k``-fold CV (``J = r k``,
    Bouckaert and Frank, 2004), a heuristic known to be liberal for few scores; and
    "conservative_z", ``mean -/+ z * sigma`` with ``sigma^2 = sum_m (mu_1m - mu_2m)^2 / (2
    M)`` from the same resampling run on ``M`` pairs of disjoint halves of the data
    (:func:`paired_subsampling_scores`), conservative by design. What each assumes and how
    often it covered: the user guide, "Honest uncertainty".

    Parameters
    ----------
    scores : array-like of shape (n,)
        At least 2 finite scores.
    confidence : float, default=0.95
        Nominal level, in (0, 1).
    method : {"t", "normal", "corrected_t", "conservative_z"}, default="t"
        The kind of interval.
    n_train, n_test : float, default=None
        Training- and test-set sizes of each resample (the means when they differ); only
        for, and needed by, "corrected_t".
    half_scores : array-like of shape (M, 2) or (M, 2, J), default=None
        Only for, and needed by, "conservative_z": the mean score of the resampling run on
        each half of ``M`` splits of the data into halves (or its ``J`` scores, averaged).

    Returns
    -------
    MeanInterval
        Unpacks as ``low, high``; ``description`` says how it was made; ``str()`` prints both.

    Examples
    --------
    >>> from sklearn_fair.stats import mean_interval
    >>> interval = mean_interval([0.80, 0.82, 0.85, 0.79, 0.84])
    >>> print(interval)
    95% interval [0.7883, 0.8517] (Student t, 4 df, of the mean of 5 scores)
    >>> low, high = mean_interval([0.80, 0.82, 0.85, 0.79, 0.84], method="normal")
    >>> round(low, 4), round(high, 4)
    (0.7977, 0.8423)
    >>> scores = [0.80, 0.82, 0.85, 0.79, 0.84, 0.81, 0.83, 0.86, 0.80, 0.82]
    >>> print(mean_interval(scores, method="corrected_t", n_train=90, n_test=10))
    ... # doctest: +NORMALIZE_WHITESPACE
    95% interval [0.7981, 0.8459] (corrected resampled t (Nadeau & Bengio), 9 df, of the
    mean of 10 scores, test/train size 10/90)
    """
    scores = check_scores("scores", scores, min_size=2, purpose="an interval of the mean")
    return interval_of_mean(
        scores,
        method,
        confidence,
        parameter="method",
        n_train=n_train,
        n_test=n_test,
        half_scores=half_scores,
    )
