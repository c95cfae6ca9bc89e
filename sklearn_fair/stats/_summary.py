"""A one-call summary of per-fold scores: centre, spread and intervals, each named."""

import difflib
import warnings
from dataclasses import dataclass, replace

import numpy as np
from sklearn.utils._param_validation import validate_params

from ..exceptions import SklearnFairWarning
from ..metrics import MetricName, get_scorer_names, metric_display_name
from ..utils import RANDOM_STATE_CONSTRAINTS
from ..utils._printing import decimals_for, number
from ..utils._scaling import scale_exponent
from ..utils._stacklevel import external_stacklevel
from ._bootstrap import bootstrap_ci
from ._bounds import clip_to_range, metric_range, outside_range, range_text
from ._checks import (
    CONFIDENCE,
    COUNT,
    POSITIVE,
    AsDict,
    check_scores,
    scaled_back,
)
from ._interval import INTERVAL_METHODS, MeanInterval, coverage_note, interval_of_mean
from ._iqm import iqm


@dataclass(frozen=True)
class Summary(AsDict):
    """Summary statistics of a set of scores, from :func:`summarize`.

    Every value is in the units of the metric as printed: for a scorer that negates an error
    ("neg_root_mean_squared_error") they are the positive error (``sign`` is -1).

    Attributes
    ----------
    n : int
        Number of scores.
    mean, std, sem : float
        Mean, standard deviation (numpy's, ``ddof=0``: the one std of every table and report,
        NestedCV's ``score_std_`` and scikit-learn's ``cv_results_``) and standard error of the
        mean (from the sample standard deviation, ``ddof=1``).
    ci_low, ci_high : float
        Interval of the mean (also ``ci``).
    median, iqm : float
        Median and interquartile mean.
    iqm_ci_low, iqm_ci_high : float
        Percentile bootstrap interval of the IQM (also ``iqm_ci``).
    confidence : float
        Level of both intervals.
    interval : str
        The kind of interval of the mean ("t", "normal", ..., or that of a
        :class:`MeanInterval` given to :func:`summarize`).
    ci_method, iqm_ci_method : str
        How each interval was made, in words.
    metric : str or None
        The metric's printed name ("accuracy", "RMSE").
    sign : int
        1, or -1 when the scores were a negated error.
    metric_note : str
        One sentence on the metric when there is something to say (the sign of a negated
        error, the default score of ``scoring=None``); else "".
    notes : tuple of str
        What else the reader must know (e.g. fits that failed), printed last.
    ci_coverage : str
        How often this kind of interval covered the model's error in the coverage benchmark
        at this level (and, if it under-covered, which kind did not); "" when not measured.
    metric_range : str
        The range the interval of the mean was kept in ("[0, 1]", "[0, inf)"), "unknown"
        when the metric's range is not known (the interval is left as computed), or ""
        without a metric.
    """

    n: int
    mean: float
    std: float
    sem: float
    ci_low: float
    ci_high: float
    median: float
    iqm: float
    iqm_ci_low: float
    iqm_ci_high: float
    confidence: float
    interval: str
    ci_method: str
    iqm_ci_method: str
    metric: object = None
    sign: int = 1
    metric_note: str = ""
    notes: tuple = ()
    ci_coverage: str = ""
    metric_range: str = ""

    @property
    def ci(self):
        """The interval of the mean, ``(ci_low, ci_high)``."""
        return (self.ci_low, self.ci_high)

    @property
    def iqm_ci(self):
        """The bootstrap interval of the IQM, ``(iqm_ci_low, iqm_ci_high)``."""
        return (self.iqm_ci_low, self.iqm_ci_high)

    def __str__(self):
        level = f"{100 * self.confidence:g}%"
        head = f"{self.n} scores" if self.metric is None else f"{self.metric}, {self.n} scores"
        lines = [head]
        if self.metric_note:
            lines.append(f"  ({self.metric_note})")
        names = ("mean", "std", "sem", "ci_low", "ci_high", "median", "iqm", "iqm_ci_low",
                 "iqm_ci_high")  # fmt: skip
        values = {name: getattr(self, name) for name in names}
        shown = [v for n, v in values.items() if n not in ("std", "sem")]
        # to the sem's precision: 0.99995 +/- 1.6e-05 is not a perfect 1.0000 (std 0.0000)
        decimals = decimals_for(shown, [self.sem] * len(shown), minimum=4)
        t = {name: number(value, decimals) for name, value in values.items()}
        lines += [
            f"  mean   {t['mean']}  (std {t['std']}, sem {t['sem']})",
            f"         {level} interval [{t['ci_low']}, {t['ci_high']}] ({self.ci_method})",
            *([f"         ({self.ci_coverage})"] if self.ci_coverage else []),
            f"  median {t['median']}",
            f"  IQM    {t['iqm']}",
            f"         {level} interval [{t['iqm_ci_low']}, {t['iqm_ci_high']}] "
            f"({self.iqm_ci_method})",
        ]
        lines += [f"  note: {note}" for note in self.notes]
        return "\n".join(lines)

    def __repr__(self):
        # every float in full, as the other results' dataclass repr: a mean of 0.99996 at four
        # digits would read as a perfect 1
        fields = ", ".join(
            f"{name}={float(value)!r}" if isinstance(value, float) else f"{name}={value!r}"
            for name, value in self.to_dict().items()
        )
        return f"Summary({fields})"


def _interval_of_mean(scores, interval, confidence, **info):
    if not isinstance(interval, MeanInterval):
        return interval_of_mean(scores, interval, confidence, **info)
    if interval.confidence != confidence:
        raise ValueError(
            f"The 'interval' parameter is a MeanInterval at level {interval.confidence!r}, "
            f"but 'confidence' is {confidence!r}; give both at the same level."
        )
    given = [name for name, value in info.items() if value is not None]
    if given:
        raise ValueError(
            f"The 'interval' parameter is an interval computed elsewhere, so {given} "
            "would not be used; drop them."
        )
    return interval


def _check_in_range(values, metric, bounds):
    """Refuse scores that the metric cannot take: a wrong metric, or a metric's values given
    where its scorer's were expected (a positive RMSE for ``neg_root_mean_squared_error``)."""
    outside = outside_range(values, bounds)
    if outside.size:
        given = (metric.sign * outside).tolist()[:5]
        range_of = f"{range_text(bounds)} of {metric.name}"
        if metric.sign < 0:
            negated = range_text((-bounds[1], 0.0 - bounds[0]))
            range_of += f" (the scorer negates it: its values are {negated})"
        raise ValueError(
            f"The 'scores' parameter holds values outside the range {range_of}: {given}. Check "
            "that the scores are of this metric, as its scorer returns them."
        )


def _warn_near_scorer_name(metric):
    """Warn when ``metric``, taken as the user's own name, is a near miss of a scorer name
    ("Accuracy", "roc-auc", "acuracy"): the scorer's range and sign would not apply."""
    names = get_scorer_names()
    if metric in names or metric_display_name(metric).name != metric:
        return  # a scorer, or a name known otherwise ("root_mean_squared_error" is RMSE)
    written = metric.lower().replace("-", "_")
    close = [written] if written in names else difflib.get_close_matches(written, names, 1, 0.9)
    if close:
        warnings.warn(
            f"The 'metric' parameter of summarize is {metric!r}, which is no scorer name: it "
            f"is summarised as a metric of your own, of unknown range and not negated. Did "
            f"you mean the scorer {close[0]!r}?",
            SklearnFairWarning,
            stacklevel=external_stacklevel(),
        )


def _within_range(interval, metric, bounds):
    """``interval`` clipped to ``bounds``, the range of the metric's printed values, saying so."""
    low, high, clipped = clip_to_range(interval.low, interval.high, bounds)
    if not clipped:
        return interval
    description = f"{interval.description}, clipped to the range {range_text(bounds)} of "
    return replace(interval, low=low, high=high, description=description + str(metric.name))


@validate_params(
    {
        "scores": ["array-like"],
        "metric": [str, MetricName, None],
        "confidence": [CONFIDENCE],
        "interval": [INTERVAL_METHODS, MeanInterval],
        "n_train": [POSITIVE, None],
        "n_test": [POSITIVE, None],
        "half_scores": ["array-like", None],
        "n_resamples": [COUNT],
        "random_state": RANDOM_STATE_CONSTRAINTS,
        "notes": [list, tuple],
    },
    prefer_skip_nested_validation=True,
)
def summarize(
    scores,
    *,
    metric=None,
    confidence=0.95,
    interval="t",
    n_train=None,
    n_test=None,
    half_scores=None,
    n_resamples=10_000,
    random_state=0,
    notes=(),
):
    """Summarise per-fold scores: mean, std, sem, median, IQM, and named intervals.

    Each interval is printed with its method. The interval of the mean is Student's t by
    default (see :func:`mean_interval`); like any interval that treats fold scores as
    independent, it is optimistic for cross-validation folds, whose training sets overlap.
    When the metric's values have a range (accuracy in [0, 1], Cohen's kappa in [-1, 1],
    errors in [0, inf), R^2 at most 1), an interval of the mean that reaches past it is
    clipped to it, and its description says so; this changes no interval's coverage (the
    mean lies in the range). The bootstrap interval of the IQM stays in the range anyway.

    Parameters
    ----------
    scores : array-like of shape (n,)
        One score per outer fold (or per run); at least 2, finite.
    metric : str, MetricName or None, default=None
        The metric the scores are of: a scorer name ("accuracy",
        "neg_root_mean_squared_error") or any name, printed by
        :func:`sklearn_fair.metrics.metric_display_name`. A negated error is summarised as
        the positive error (``sign=-1``); scores outside the metric's known range are
        refused. A name of your own that is close to a scorer name ("Accuracy",
        "roc-auc", "acuracy") is taken as written, with a warning.
    confidence : float, default=0.95
        Level of the interval of the mean and of the bootstrap interval of the IQM.
    interval : {"t", "normal", "corrected_t", "conservative_z"} or MeanInterval, \
            default="t"
        The interval of the mean (see :func:`mean_interval`), or an interval computed
        elsewhere (in the units of ``scores``), printed with its own description.
    n_train, n_test : float, default=None
        Training- and test-set sizes of each resample, for ``interval="corrected_t"``.
    half_scores : array-like of shape (M, 2) or (M, 2, J), default=None
        The half-sample scores of :func:`paired_subsampling_scores`, for
        ``interval="conservative_z"``.
    n_resamples : int, default=10_000
        Bootstrap resamples for the IQM's interval.
    random_state : int, RandomState, Generator or None, default=0
        Seeds every random draw: the same seed gives the same result.
    notes : sequence of str, default=()
        Sentences printed under the table (NestedCV notes its failed fits there).

    Returns
    -------
    Summary
        Prints as a small table; ``to_dict()`` gives a plain dict.

    Examples
    --------
    >>> from sklearn_fair.stats import summarize
    >>> summary = summarize([0.80, 0.82, 0.85, 0.79, 0.84], metric="accuracy")
    >>> print(summary)
    accuracy, 5 scores
      mean   0.8200  (std 0.0228, sem 0.0114)
             95% interval [0.7883, 0.8517] (Student t, 4 df, of the mean of 5 scores)
             (in our simulations (benchmarks/bench_coverage.py) this interval covered the
             model's error 86-95% of the time at nominal 95% (one run of 5-fold CV): it
             under-covers; interval='corrected_t' reached nominal in every setting)
      median 0.8200
      IQM    0.8200
             95% interval [0.7933, 0.8467] (percentile bootstrap of the IQM, 10000 resamples)
    >>> rmse = summarize([-0.53, -0.61, -0.48], metric="neg_root_mean_squared_error")
    >>> rmse.metric, round(rmse.mean, 4), rmse.sign
    ('RMSE', 0.54, -1)

    Ten scores of 2 times repeated 5-fold cross-validation of 100 rows, with the
    corrected resampled t; an interval past 1 is clipped, and says so:

    >>> scores = [0.97, 1.0, 0.95, 1.0, 0.98, 0.99, 1.0, 0.96, 1.0, 0.97]
    >>> print(summarize(scores, metric="roc_auc", interval="corrected_t",
    ...                 n_train=80, n_test=20).ci_method)  # doctest: +NORMALIZE_WHITESPACE
    corrected resampled t (Nadeau & Bengio), 9 df, of the mean of 10 scores, test/train
    size 20/80, clipped to the range [0, 1] of ROC AUC
    """
    if isinstance(metric, str):
        _warn_near_scorer_name(metric)
    return summary_of_resamples(
        scores,
        metric=metric,
        confidence=confidence,
        interval=interval,
        n_train=n_train,
        n_test=n_test,
        half_scores=half_scores,
        n_resamples=n_resamples,
        random_state=random_state,
        notes=notes,
    )


def summary_of_resamples(
    scores,
    *,
    metric=None,
    confidence=0.95,
    interval="t",
    n_train=None,
    n_test=None,
    half_scores=None,
    n_resamples=10_000,
    random_state=0,
    notes=(),
    times_tested="unknown",
):
    """:func:`summarize` of the scores of resamples that test each row ``times_tested`` times
    (:func:`~._interval.times_tested`: None where rows are tested unequally often), which picks
    the row of the coverage benchmark that the coverage note quotes. Callers that know the
    splits (NestedCV, a report's cell) pass it for every interval; "unknown" takes the
    average that the sizes of "corrected_t" give, where they are given."""
    scores = check_scores("scores", scores, min_size=2, purpose="a standard deviation")
    confidence = float(confidence)
    if times_tested == "unknown" and n_test is not None:
        times_tested = len(scores) * n_test / (n_train + n_test)
    if isinstance(metric, str):
        metric = metric_display_name(metric)
    sign = 1 if metric is None else metric.sign
    of_mean = _interval_of_mean(
        scores, interval, confidence, n_train=n_train, n_test=n_test, half_scores=half_scores
    )
    values = sign * scores
    bounds = None if metric is None else metric_range(metric)
    if sign < 0:
        of_mean = of_mean.negated()
    if bounds is not None:
        _check_in_range(values, metric, bounds)
        of_mean = _within_range(of_mean, metric, bounds)
    # values past 2**100 (or under 2**-100) by one power of 2: their sums and squares would
    # overflow or underflow; every statistic is that of the values scaled, scaled back
    exponent = scale_exponent(values)
    scaled = np.ldexp(values, -exponent) if exponent else values
    spread = float(np.std(scaled, ddof=1))  # the sample standard deviation, for the sem
    iqm_interval = bootstrap_ci(
        scaled, iqm, n_resamples=n_resamples, confidence=confidence, random_state=random_state
    )
    level = f"the {100 * confidence:g}% interval of their IQM"
    return Summary(
        n=int(values.shape[0]),
        mean=scaled_back(np.mean(scaled), exponent, "their mean"),
        std=scaled_back(np.std(scaled), exponent, "their standard deviation"),
        sem=scaled_back(spread / np.sqrt(values.shape[0]), exponent, "their standard error"),
        ci_low=of_mean.low,
        ci_high=of_mean.high,
        median=scaled_back(np.median(scaled), exponent, "their median"),
        iqm=scaled_back(iqm(scaled), exponent, "their IQM"),
        iqm_ci_low=scaled_back(iqm_interval.low, exponent, level),
        iqm_ci_high=scaled_back(iqm_interval.high, exponent, level),
        confidence=confidence,
        interval=of_mean.method,
        ci_method=of_mean.description,
        iqm_ci_method=f"percentile bootstrap of the IQM, {iqm_interval.n_resamples} resamples",
        metric=None if metric is None else metric.name,
        sign=sign,
        metric_note="" if metric is None else metric.note,
        notes=tuple(notes),
        ci_coverage=coverage_note(
            of_mean.method,
            confidence,
            times_tested,
        ),
        metric_range="" if metric is None else "unknown" if bounds is None else range_text(bounds),
    )
