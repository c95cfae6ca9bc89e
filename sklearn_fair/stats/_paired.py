"""Paired comparisons of two models scored on the same resamples."""

from dataclasses import dataclass, replace

import numpy as np
from scipy import stats as _scipy_stats
from sklearn.utils._param_validation import validate_params

from ..utils._scaling import scaled_pair
from ._checks import (
    CONFIDENCE,
    CORRELATION,
    NON_NEGATIVE,
    POSITIVE,
    AsDict,
    check_paired,
    check_scores,
    equal_differences,
    rounding_tolerance,
    scaled_back,
    tie_level,
)


@dataclass(frozen=True)
class PairedTestResult(AsDict):
    """Result of a paired t-test on the differences ``a - b``.

    Attributes
    ----------
    mean_difference : float
        Mean of ``a - b``.
    ci_low, ci_high : float
        Student-t confidence interval of the mean difference (also ``ci``).
    statistic, pvalue : float
        The t statistic and its two-sided p-value.
    df : int
        Degrees of freedom, ``n - 1``.
    confidence : float
    """

    mean_difference: float
    ci_low: float
    ci_high: float
    statistic: float
    pvalue: float
    df: int
    confidence: float

    @property
    def ci(self):
        """The interval ``(ci_low, ci_high)``."""
        return (self.ci_low, self.ci_high)


@dataclass(frozen=True)
class BayesianTestResult(AsDict):
    """Posterior probabilities of the correlated Bayesian t-test.

    Attributes
    ----------
    p_a_better, p_equivalent, p_b_better : float
        Posterior probabilities that the mean difference ``a - b`` is above ``rope``, within
        ``[-rope, rope]``, below ``-rope`` (below, within, above with
        ``greater_is_better=False``); they sum to 1.
    mean_difference, scale : float
        Location and scale of the Student-t posterior of the mean difference.
    df : int
        Its degrees of freedom, ``n - 1``.
    rope, rho : float
        The region of practical equivalence and the correlation used.
    """

    p_a_better: float
    p_equivalent: float
    p_b_better: float
    mean_difference: float
    scale: float
    df: int
    rope: float
    rho: float


def _back(value, exponent, what):
    """``value`` of scaled scores (``utils._scaling.scaled_pair``) in the scores' units."""
    subject = "The 'a' and 'b' parameters hold scores"
    return scaled_back(value, exponent, what, subject) if exponent else value


def _t_test_back(result, exponent):
    return replace(
        result,
        mean_difference=_back(result.mean_difference, exponent, "their mean difference"),
        ci_low=_back(result.ci_low, exponent, "the interval of their mean difference"),
        ci_high=_back(result.ci_high, exponent, "the interval of their mean difference"),
    )


def _mean_and_scale(a, b, variance_factor):
    """The mean of ``a - b`` and its scale ``sqrt(variance_factor s^2)``; a scale of 0 where
    every difference is equal up to rounding: no spread to test against, rounding's would
    decide (with ``rope=0`` for the Bayesian test)."""
    equal = equal_differences(a, b)
    if equal is not None:
        return equal, 0.0
    differences = a - b
    return float(differences.mean()), float(np.sqrt(variance_factor * differences.var(ddof=1)))


def _t_test(a, b, variance_factor, confidence):
    df = a.shape[0] - 1
    mean, standard_error = _mean_and_scale(a, b, variance_factor)
    if standard_error == 0.0:
        statistic = 0.0 if mean == 0.0 else float(np.sign(mean) * np.inf)
        pvalue = 1.0 if mean == 0.0 else 0.0
    else:
        statistic = mean / standard_error
        pvalue = float(2.0 * _scipy_stats.t.sf(abs(statistic), df))
    half_width = float(_scipy_stats.t.ppf(0.5 + confidence / 2.0, df)) * standard_error
    return PairedTestResult(
        mean_difference=mean,
        ci_low=mean - half_width,
        ci_high=mean + half_width,
        statistic=float(statistic),
        pvalue=pvalue,
        df=df,
        confidence=confidence,
    )


@validate_params(
    {"a": ["array-like"], "b": ["array-like"], "confidence": [CONFIDENCE]},
    prefer_skip_nested_validation=True,
)
def paired_ttest(a, b, *, confidence=0.95):
    """Paired t-test of the scores of two models on the same resamples.

    Treats the differences as independent, which overlapping training sets violate: prefer
    :func:`corrected_resampled_ttest` for cross-validation. When all differences are equal, t
    is 0 and p is 1 if they are 0, else t is infinite and p is 0; equal up to rounding counts
    as equal (``0.1 + 0.2`` against ``0.3``: a difference of 0, not scipy's t of rounding
    noise), by the tolerance of :func:`multiple_comparison`'s ANOVA.

    Parameters
    ----------
    a, b : array-like of shape (n_resamples,)
        Scores of the two models, paired by resample; at least 2. Two pandas Series are
        paired by their index, as ``a - b`` pairs them (the same labels, in any order);
        Series whose labels differ, or repeat, are refused.
    confidence : float, default=0.95
        Level of the interval of the mean difference.

    Returns
    -------
    PairedTestResult

    Examples
    --------
    >>> from sklearn_fair.stats import paired_ttest
    >>> result = paired_ttest([0.81, 0.84, 0.79, 0.88], [0.78, 0.80, 0.79, 0.83])
    >>> round(result.mean_difference, 4), round(result.statistic, 3), round(result.pvalue, 3)
    (0.03, 2.777, 0.069)
    """
    a, b = check_paired(a, b, purpose="a paired t-test")
    a, b, exponent = scaled_pair(a, b)
    confidence = float(confidence)
    # equal differences: scipy's t is NaN (0/0), or rounding's; ours is documented
    if equal_differences(a, b) is not None:
        return _t_test_back(_t_test(a, b, 1.0 / a.shape[0], confidence), exponent)
    result = _scipy_stats.ttest_rel(a, b)
    interval = result.confidence_interval(confidence)
    tested = PairedTestResult(
        mean_difference=float((a - b).mean()),
        ci_low=float(interval.low),
        ci_high=float(interval.high),
        statistic=float(result.statistic),
        pvalue=float(result.pvalue),
        df=int(result.df),
        confidence=confidence,
    )
    return _t_test_back(tested, exponent)


@validate_params(
    {
        "a": ["array-like"],
        "b": ["array-like"],
        "n_train": [POSITIVE],
        "n_test": [POSITIVE],
        "confidence": [CONFIDENCE],
    },
    prefer_skip_nested_validation=True,
)
def corrected_resampled_ttest(a, b, *, n_train, n_test, confidence=0.95):
    """Nadeau and Bengio's corrected resampled t-test for cross-validation scores.

    The variance of the mean of ``J`` differences is inflated from ``s^2 / J`` to ``(1 / J +
    n_test / n_train) s^2`` for the correlation that overlapping training sets induce (Nadeau
    & Bengio, 2003, Machine Learning 52:239-281).

    Parameters
    ----------
    a, b : array-like of shape (n_resamples,)
        Scores of the two models, paired by resample (pandas Series by their index, as
        :func:`paired_ttest` pairs them); at least 2.
    n_train, n_test : float
        Training- and test-set sizes of each resample (the means when they differ).
    confidence : float, default=0.95
        Level of the interval of the mean difference.

    Returns
    -------
    PairedTestResult
        As :func:`paired_ttest`, with the corrected standard error (equal differences, up to
        rounding, as there).

    Examples
    --------
    >>> from sklearn_fair.stats import corrected_resampled_ttest
    >>> a = [0.81, 0.84, 0.79, 0.88, 0.83]
    >>> b = [0.78, 0.80, 0.79, 0.83, 0.80]
    >>> result = corrected_resampled_ttest(a, b, n_train=80, n_test=20)
    >>> round(result.statistic, 3), round(result.pvalue, 3)
    (2.39, 0.075)
    """
    a, b = check_paired(a, b, purpose="a corrected resampled t-test")
    a, b, exponent = scaled_pair(a, b)
    variance_factor = 1.0 / a.shape[0] + float(n_test) / float(n_train)
    return _t_test_back(_t_test(a, b, variance_factor, float(confidence)), exponent)


@validate_params(
    {
        "a": ["array-like"],
        "b": ["array-like"],
        "rope": [NON_NEGATIVE],
        "rho": [CORRELATION, None],
        "n_train": [POSITIVE, None],
        "n_test": [POSITIVE, None],
        "greater_is_better": ["boolean"],
    },
    prefer_skip_nested_validation=True,
)
def bayesian_correlated_ttest(
    a, b, *, rope=0.01, rho=None, n_train=None, n_test=None, greater_is_better=True
):
    """Correlated Bayesian t-test: how probable is each model better, or both equivalent.

    The posterior of the mean of ``a - b`` is a Student t on ``n - 1`` df, at the mean
    difference, of scale ``sqrt((1 / n + rho / (1 - rho)) s^2)`` (Corani &
    Benavoli, 2015; Benavoli et al., 2017, JMLR 18(77)): baycomp's ``CorrelatedTTest``, whose
    ``rho`` is ``1 / n_folds``, degenerate cases included (equal differences: a point
    posterior; with ``rope=0`` and no difference at all, 0.5 each), where differences equal up
    to rounding count as equal, as in :func:`paired_ttest`. The region of equivalence is the
    closed ``[-rope, rope]``, and a point posterior on its edge up to rounding is in it: 0.81
    against 0.80 on every fold, with ``rope=0.01``, is equivalent with probability 1.

    Parameters
    ----------
    a, b : array-like of shape (n_resamples,)
        Scores of the two models, paired by resample (pandas Series by their index, as
        :func:`paired_ttest` pairs them); at least 2.
    rope : float, default=0.01
        Half-width of the region of practical equivalence, in score units.
    rho : float in [0, 1), default=None
        Correlation between resamples; None uses ``n_test / (n_train + n_test)``, which
        needs ``n_train`` and ``n_test``.
    n_train, n_test : float, default=None
        Training- and test-set sizes of each resample, for the default rho; only with
        ``rho=None``.
    greater_is_better : bool, default=True
        Whether a higher score is better; with False (a loss), ``a`` is better where the
        mean difference ``a - b`` is below ``-rope``.

    Returns
    -------
    BayesianTestResult

    Examples
    --------
    >>> from sklearn_fair.stats import bayesian_correlated_ttest
    >>> a = [0.81, 0.84, 0.79, 0.88, 0.83]
    >>> b = [0.78, 0.80, 0.79, 0.83, 0.80]
    >>> result = bayesian_correlated_ttest(a, b, rope=0.01, n_train=80, n_test=20)
    >>> round(result.p_a_better + result.p_equivalent + result.p_b_better, 10)
    1.0
    >>> result.p_a_better > result.p_b_better
    True
    """
    a, b = check_paired(a, b, purpose="a Bayesian t-test")
    if rho is None:
        if n_train is None or n_test is None:
            raise ValueError(
                "The 'rho' parameter is None, so 'n_train' and 'n_test' are needed to set it "
                f"to n_test / (n_train + n_test). Got n_train={n_train!r}, n_test={n_test!r}."
            )
        rho = float(n_test) / (float(n_train) + float(n_test))
    elif n_train is not None or n_test is not None:
        sizes = {"n_train": n_train, "n_test": n_test}
        given = " and ".join(
            f"{name}={value!r}" for name, value in sizes.items() if value is not None
        )
        if n_train is not None and n_test is not None:
            given += f", which imply rho={float(n_test) / (float(n_train) + float(n_test)):.4g}"
        raise ValueError(
            f"The 'rho' parameter ({rho!r}) is given with {given}: 'n_train' and 'n_test' set rho "
            "only with rho=None, and would be ignored. Pass rho, or n_train and n_test, not "
            "both."
        )
    a, b, exponent = scaled_pair(a, b)
    with np.errstate(over="ignore"):  # a rope past the largest float, of tiny scores: all of it
        scaled_rope = float(np.ldexp(float(rope), -exponent))
    n = a.shape[0]
    mean, scale = _mean_and_scale(a, b, 1.0 / n + rho / (1.0 - rho))
    if scale == 0.0:
        # A point posterior at the mean difference. With rope 0 and no difference at all,
        # neither side has the mass: half each, as baycomp's CorrelatedTTest returns. The
        # region [-rope, rope] is closed, and a mean on its edge up to rounding is on it
        # (0.81 against 0.80 on every fold, 0.010000000000000009, with rope=0.01)
        tolerance = rounding_tolerance(a, b) + np.finfo(float).eps * scaled_rope
        inside = abs(mean) <= scaled_rope + tolerance
        if rope == 0 and inside:  # no difference, up to rounding
            p_a_better = p_b_better = 0.5
        else:
            p_b_better = float(not inside and mean < 0)
            p_a_better = float(not inside and mean > 0)
    else:  # a continuous posterior: its edges carry no mass, rounded or not
        posterior = _scipy_stats.t(n - 1, loc=mean, scale=scale)
        p_b_better = float(posterior.cdf(-scaled_rope))
        p_a_better = float(posterior.sf(scaled_rope))
    if not greater_is_better:  # a lower score is better: the sides swap
        p_a_better, p_b_better = p_b_better, p_a_better
    return BayesianTestResult(
        p_a_better=p_a_better,
        p_equivalent=max(0.0, 1.0 - p_a_better - p_b_better),
        p_b_better=p_b_better,
        mean_difference=_back(mean, exponent, "their mean difference"),
        scale=_back(scale, exponent, "the scale of its posterior"),
        df=n - 1,
        rope=float(rope),
        rho=float(rho),
    )


@validate_params({"pvalues": ["array-like"]}, prefer_skip_nested_validation=True)
def holm(pvalues):
    """Holm's step-down adjustment of p-values for multiple comparisons.

    Controls the family-wise error rate like Bonferroni, with more power: the i-th smallest of
    m p-values is multiplied by ``m - i + 1``, then made non-decreasing and capped at 1.

    Parameters
    ----------
    pvalues : array-like of shape (m,)
        Unadjusted p-values, in [0, 1].

    Returns
    -------
    ndarray of shape (m,)
        Adjusted p-values, in the input's order.

    Examples
    --------
    >>> from sklearn_fair.stats import holm
    >>> holm([0.01, 0.04, 0.03]).tolist()
    [0.03, 0.06, 0.06]
    """
    pvalues = check_scores("pvalues", pvalues, min_size=1, purpose="Holm's adjustment")
    if ((pvalues < 0) | (pvalues > 1)).any():
        raise ValueError(
            f"The 'pvalues' parameter must hold values in [0, 1]. Got {pvalues.tolist()} instead."
        )
    # statsmodels' multipletests(method="holm") gives the same numbers (the parity test in
    # tests/stats/test_paired.py) but runs gc.collect() on every call: 70 ms of CPU with
    # scikit-learn and pandas loaded, 140 ms with torch, against 30 us here, and Holm is
    # called once per data set of a benchmark's table.
    m = pvalues.shape[0]
    order = np.argsort(pvalues, kind="stable")
    stepped = np.maximum.accumulate((m - np.arange(m)) * pvalues[order])
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(stepped, 1.0)
    return adjusted


@validate_params(
    {"a": ["array-like"], "b": ["array-like"], "greater_is_better": ["boolean"]},
    prefer_skip_nested_validation=True,
)
def probability_of_improvement(a, b, *, greater_is_better=True):
    """Probability that a score of ``a`` beats a score of ``b``, ties counting half.

    ``P(X > Y) + P(X = Y) / 2`` over all pairs of X from ``a`` and Y from ``b`` (not paired):
    the Mann-Whitney U over ``len(a) * len(b)``, as rliable defines it for one task. Scores
    equal but for floating-point rounding (``0.1 + 0.2`` and ``0.3``) tie, as in
    :func:`rank_comparison`.

    Parameters
    ----------
    a, b : array-like of shape (n,) and (m,)
        Scores of the two models.
    greater_is_better : bool, default=True
        Whether a higher score is better; with False (a loss), a score of ``a`` beats one of
        ``b`` when it is lower.

    Returns
    -------
    float
        In [0, 1]; 0.5 means neither tends to score better.

    Examples
    --------
    >>> from sklearn_fair.stats import probability_of_improvement
    >>> probability_of_improvement([3, 4], [1, 3])
    0.875
    >>> probability_of_improvement([3, 4], [1, 3], greater_is_better=False)
    0.125
    """
    a = check_scores("a", a, min_size=1, purpose="a probability of improvement")
    b = check_scores("b", b, min_size=1, purpose="a probability of improvement")
    a, b = (np.array([tie_level(v) for v in scores]) for scores in (a, b))
    if not greater_is_better:
        a, b = -a, -b
    # "asymptotic" skips the exact null distribution, whose p-value is not used.
    u = _scipy_stats.mannwhitneyu(a, b, method="asymptotic").statistic
    return float(u / (a.shape[0] * b.shape[0]))
