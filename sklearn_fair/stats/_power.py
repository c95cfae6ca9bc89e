"""Power and sample size for comparing two models on shared resamples.

Under Nadeau and Bengio's (2003) model the ``J = k r`` fold differences have mean ``delta``,
spread ``sd`` within a run and one correlation ``rho``: the mean difference has variance ``sd^2
(rho / (1 - rho) + 1 / J)`` and the corrected t is a scaled noncentral t, exact with ``rho``
given. ``rho=None`` gives a *lower bound*, the least power over ``-1 / (2 (J - 1)) <= rho <=
n_test / n``, because one run cannot tell ``rho`` (Bengio and Grandvalet, 2004) and real runs
are far less correlated than the ``1 / k`` the correction assumes (-0.03 to 0.16 measured, the
power at ``1 / k`` up to five times the actual rejection rate; the lower end, half the least
correlation of ``J`` exchangeable values, stands in for the skewness the normal model misses).
On 30 real settings the bound lay at or below the measured rate (``benchmarks/bench_power.py``,
``benchmarks/results/power.json``; the user guide, "How many repeats, or data sets, a claim
needs"). At ``rho = n_test / n`` no number of repeats guarantees 80% power below about ``2.8 sd
sqrt(rho / (1 - rho))`` (``0.93 sd`` for 10-fold).
"""

import math

import numpy as np
from scipy import stats as _scipy_stats
from sklearn.utils._param_validation import StrOptions, validate_params

from ..utils import RANDOM_STATE_CONSTRAINTS, as_generator
from ..utils._random import seed_root
from ..utils._scaling import scaled_pair
from ._checks import (
    AT_LEAST_TWO,
    CONFIDENCE,
    CORRELATION,
    COUNT,
    FINITE,
    NON_NEGATIVE,
    POSITIVE,
    check_paired,
    equal_differences,
    scaled_back,
    tie_levels,
)
from ._ranks import _permutation_pvalue


def resampled_power(delta, sd, n_resamples, ratio, rho, alpha):
    """Power of the corrected t-test on ``n_resamples`` differences, test/train ``ratio``, at
    correlation ``rho``; ``rho`` None is the lower bound over the range of the module."""
    if sd > 0:  # only delta / sd matters, and sd**2 under- or overflows beyond about 1e+-154
        delta, sd = delta / sd, 1.0
        if math.isinf(delta):  # infinitely many standard deviations from 0: a sure rejection
            return 1.0
    if rho is None:
        low, high = -0.5 / (n_resamples - 1), ratio / (1.0 + ratio)
        # the model's power is monotone in rho here, but a grid costs little and assumes less
        return min(
            resampled_power(delta, sd, n_resamples, ratio, r, alpha)
            for r in np.linspace(low, high, 9)
        )
    df = n_resamples - 1
    rho = float(rho)
    correction = 1.0 / n_resamples + ratio  # 1/J + n_test/n_train
    variance = sd**2 * (rho / (1.0 - rho) + 1.0 / n_resamples)  # of the mean difference
    if variance == 0:  # sd = 0: every difference is delta, and the test's t is +-inf or 0
        return 1.0 if delta != 0 else 0.0
    scale = math.sqrt(variance / (correction * sd**2))
    critical = float(_scipy_stats.t.ppf(1.0 - alpha / 2.0, df)) / scale
    ncp = abs(delta) / math.sqrt(variance)
    # P(T < -c) as P(T' > c) of the mirrored noncentral t: scipy's nct.cdf(-c) is NaN for a
    # large noncentrality, where its sf of the mirror is a correct 0.
    upper, lower = _scipy_stats.nct(df, ncp).sf(critical), _scipy_stats.nct(df, -ncp).sf(critical)
    if not math.isfinite(upper + lower) and ncp > 1e8:
        # scipy's nct is NaN from a noncentrality of about 1e9 (1e8 still gives 1.0): the
        # mean difference lies that many of its standard errors from 0, a sure rejection
        return 1.0
    return float(upper + lower)


def fewest_reaching(power_of, target, most, *, least=1):
    """The smallest n in [least, most] with ``power_of(n) >= target``, or None; bisects, so
    ``power_of`` must increase with ``n`` (up to its Monte-Carlo error)."""

    def reaches(n):
        power = power_of(n)
        if not math.isfinite(power):  # NaN < target is False: it would pass for a power
            raise ValueError(f"The power at n={n} could not be computed (it is {power}).")
        return power >= target

    if not reaches(most):
        return None
    low, high = least, most
    while low < high:
        middle = (low + high) // 2
        if reaches(middle):
            high = middle
        else:
            low = middle + 1
    return low


def repeats_for_power(delta, sd, n_folds, ratio, rho, alpha, power, max_repeats):
    """The fewest repeats of ``n_folds`` folds whose power reaches ``power``, or None."""
    return fewest_reaching(
        lambda r: resampled_power(delta, sd, r * n_folds, ratio, rho, alpha), power, max_repeats
    )


_CORRECTED_CONSTRAINTS = {
    "delta": [FINITE],
    "sd": [NON_NEGATIVE],
    "n_folds": [AT_LEAST_TWO],
    "rho": [CORRELATION, None],
    "alpha": [CONFIDENCE],
}


@validate_params(
    {**_CORRECTED_CONSTRAINTS, "n_repeats": [COUNT]}, prefer_skip_nested_validation=True
)
def corrected_ttest_power(delta, sd, *, n_folds, n_repeats=1, rho=None, alpha=0.05):
    """Power of the corrected resampled t-test to show a mean difference ``delta``.

    For ``n_repeats`` times repeated ``n_folds``-fold CV shared by the two models, two-sided
    at level ``alpha``; exact under the module's model with ``rho`` given, else a lower bound.

    Parameters
    ----------
    delta : float
        The true mean difference of the two models' scores, in score units.
    sd : float
        The standard deviation of the per-fold differences within a run (what
        :func:`pilot_effect` estimates).
    n_folds : int
        ``k``, at least 2.
    n_repeats : int, default=1
        ``r``, the repeats of the k-fold cross-validation.
    rho : float in [0, 1), default=None
        The correlation of the differences of two resamples, if known; None gives the lower
        bound over ``-1 / (2 (J - 1)) <= rho <= 1 / n_folds``.
    alpha : float, default=0.05

    Returns
    -------
    float
        The probability that the test rejects equality (with ``rho=None``, at least this).
        With ``sd=0`` every difference equals ``delta``, and
        :func:`corrected_resampled_ttest` always rejects (t infinite, p 0) when ``delta != 0``
        and never (t 0, p 1) when ``delta == 0``: the power is 1 or 0.

    Examples
    --------
    >>> from sklearn_fair.stats import corrected_ttest_power
    >>> round(corrected_ttest_power(0.04, 0.03, n_folds=10), 3)
    0.734
    >>> round(corrected_ttest_power(0.04, 0.03, n_folds=10, n_repeats=10), 3)
    0.967
    >>> round(corrected_ttest_power(0.02, 0.03, n_folds=10), 3)  # small: a low bound
    0.144
    >>> round(corrected_ttest_power(0.02, 0.03, n_folds=10, rho=0.1), 3)  # the model at 1/k
    0.255
    """
    n_resamples, ratio = n_folds * n_repeats, 1.0 / (n_folds - 1)  # n_test / n_train
    return resampled_power(float(delta), float(sd), n_resamples, ratio, rho, float(alpha))


@validate_params(
    {**_CORRECTED_CONSTRAINTS, "power": [CONFIDENCE], "max_repeats": [COUNT]},
    prefer_skip_nested_validation=True,
)
def corrected_ttest_repeats(
    delta, sd, *, n_folds, power=0.8, rho=None, alpha=0.05, max_repeats=1000
):
    """The fewest repeats of k-fold CV for the corrected t-test to show ``delta`` with ``power``.

    With ``rho=None`` the power is a lower bound, so the repeats are enough (perhaps more).

    Parameters
    ----------
    delta, sd, n_folds, rho, alpha
        As :func:`corrected_ttest_power`.
    power : float, default=0.8
        The target power.
    max_repeats : int, default=1000
        The most repeats considered.

    Returns
    -------
    int or None
        The smallest ``n_repeats`` whose power reaches ``power``; None when no number up to
        ``max_repeats`` does (power levels off as repeats grow, see the module).

    Examples
    --------
    >>> from sklearn_fair.stats import corrected_ttest_repeats
    >>> corrected_ttest_repeats(0.03, 0.03, n_folds=10)
    8
    >>> corrected_ttest_repeats(0.03, 0.03, n_folds=10, rho=0.0)  # were it known to be 0
    3
    >>> corrected_ttest_repeats(0.005, 0.03, n_folds=10) is None  # below the plateau
    True
    """
    delta, sd, alpha, ratio = float(delta), float(sd), float(alpha), 1.0 / (n_folds - 1)
    return repeats_for_power(delta, sd, n_folds, ratio, rho, alpha, power, max_repeats)


@validate_params(
    {"a": ["array-like"], "b": ["array-like"], "n_folds": [AT_LEAST_TWO]},
    prefer_skip_nested_validation=True,
)
def pilot_effect(a, b, *, n_folds):
    """The mean difference and the within-run spread of a pilot's paired fold scores.

    Parameters
    ----------
    a, b : array-like of shape (n_resamples,)
        Scores of the two models, paired by resample (pandas Series by their index, as
        :func:`paired_ttest` pairs them); at least 2.
    n_folds : int
        The ``k`` of the pilot's (repeated) k-fold cross-validation.

    Returns
    -------
    dict
        ``delta`` (the mean of ``a - b``), ``sd`` (its standard deviation, ddof=1; 0 where
        the differences are equal but for floating-point rounding, as the corrected t-test
        takes them) and ``n_repeats``, the pilot's repeats.

    Examples
    --------
    >>> from sklearn_fair.stats import pilot_effect
    >>> pilot = pilot_effect([0.81, 0.84, 0.79, 0.88, 0.83], [0.78, 0.80, 0.79, 0.83, 0.80],
    ...                      n_folds=5)
    >>> round(pilot["delta"], 3), round(pilot["sd"], 4), pilot["n_repeats"]
    (0.03, 0.0187, 1)
    """
    a, b = check_paired(a, b, purpose="a pilot's effect")
    if a.shape[0] % n_folds:
        raise ValueError(
            f"The 'n_folds' parameter must divide the number of paired scores ({a.shape[0]}) "
            f"of repeated k-fold cross-validation. Got {n_folds!r} instead."
        )
    # scores past 2**100 or under 2**-100 scaled, as the t-tests scale them: the squares of
    # their differences overflowed (sd = inf) or underflowed (sd = 0, a power of 1)
    a, b, exponent = scaled_pair(a, b)
    differences = a - b
    # differences equal but for rounding have no spread (as the corrected t-test sees them):
    # their rounding noise as the sd gave a power of NaN and 1000 repeats for a sure win
    equal = equal_differences(a, b)
    delta = float(differences.mean()) if equal is None else equal
    sd = float(np.std(differences, ddof=1)) if equal is None else 0.0
    if exponent:
        subject = "The 'a' and 'b' parameters hold scores"
        delta = scaled_back(delta, exponent, "their mean difference", subject)
        sd = scaled_back(sd, exponent, "the standard deviation of their differences", subject)
    return {"delta": delta, "sd": sd, "n_repeats": a.shape[0] // n_folds}


def _simulated_power(effects, sd, n_datasets, test, alpha, n_simulations, random_state):
    """``effects`` as :func:`_check_effects` returns them (checked once, not per size)."""
    noise = as_generator(random_state).standard_normal(
        (n_simulations, n_datasets, effects.shape[0])
    )
    scores = effects + float(sd) * noise
    if test == "wilcoxon":
        differences = scores[..., 0] - scores[..., 1]
        pvalues = _scipy_stats.wilcoxon(differences, axis=1).pvalue
        return float(np.mean(pvalues <= alpha))
    return float(np.mean(_friedman_rejections(scores, alpha)))


def _friedman_rejections(scores, alpha):
    """How often :func:`rank_comparison` rejects at ``alpha`` each table of ``scores`` (shape
    ``(n_tables, n_datasets, n_models)``), by its permutation p-value.

    Its null distribution depends on the ties within each data set only, the same for every
    table without ties (continuous scores): tables alike in their ties share it, and their
    p-value falls as their statistic grows. The p-values of a few tables per tie pattern, by
    search over its statistics, give the least statistic that rejects; past 100,000 tables
    of orders, the share of rejections at it and at the one below is that of up to 10 of
    their tables (the fraction returned).
    """
    n_datasets, k = scores.shape[1:]
    levels = scores.copy()
    # rank_comparison's ties (tie_levels) need two scores of a data set within 1e-11 of each
    # other, relative to the larger: only such tables are rounded, for speed
    gaps = np.diff(np.sort(scores, axis=2), axis=2)
    near = (gaps <= 1e-11 * np.abs(scores).max(axis=2, keepdims=True)).any(axis=(1, 2))
    levels[near] = tie_levels(scores[near])
    ranks = _scipy_stats.rankdata(-levels, axis=2)  # as rank_comparison ranks
    statistics = (ranks.sum(axis=1) ** 2).sum(axis=1)  # grows with Friedman's chi2
    # the statistic at the chi-square's critical value: a first guess, close for many data sets
    guess = (_scipy_stats.chi2.isf(alpha, k - 1) / 12 + n_datasets * (k + 1) / 4) * (
        n_datasets * k * (k + 1)
    )
    patterns = {}
    for table, rows in enumerate(np.sort(ranks, axis=2)):
        key = rows[np.lexsort(rows.T[::-1])].tobytes()  # each data set's ties, in any order
        patterns.setdefault(key, []).append(table)
    rejected = np.zeros(len(ranks))
    for tables in map(np.asarray, patterns.values()):
        values, first = np.unique(statistics[tables], return_index=True)
        # the least values[high] that rejects: doubling steps out from the guess, then halving
        low, high, step = 0, len(values), 1
        probe = min(int(np.searchsorted(values, guess)), high - 1)
        while low < high:
            pvalue, method = _permutation_pvalue(ranks[tables[first[probe]]])
            if pvalue <= alpha:
                high, probe = probe, probe - step
            else:
                low, probe = probe + 1, probe + step
            step *= 2
            if not low <= probe < high:
                probe = (low + high) // 2
        if high < len(values):
            rejected[tables] = statistics[tables] >= values[high]
        if method == "Monte Carlo":
            # the seeded draws give each table its own p-value, within their error of alpha
            # on either side of the critical statistic: its tables and those of the one
            # below reject as often as up to 10 of them do
            for value in values[max(high - 1, 0) : high + 1]:
                alike = tables[statistics[tables] == value]
                rejected[alike] = np.mean(
                    [_permutation_pvalue(ranks[table])[0] <= alpha for table in alike[:10]]
                )
    return rejected


def _check_effects(effects, test):
    array = np.atleast_1d(np.asarray(effects, dtype=float))
    if not np.isfinite(array).all():
        raise ValueError(
            f"The 'effects' parameter must hold finite numbers. Got {effects!r} instead."
        )
    if test == "wilcoxon":
        if array.shape != (1,):
            raise ValueError(
                "The 'effects' parameter of a Wilcoxon test is one number, the mean "
                f"difference of the two models. Got {effects!r} instead."
            )
        return np.array([array[0], 0.0])
    if array.ndim != 1 or array.shape[0] < 3:
        raise ValueError(
            "The 'effects' parameter of a Friedman test holds one mean score per model, at "
            f"least 3 models. Got {effects!r} instead."
        )
    return array


_RANK_CONSTRAINTS = {
    "effects": ["array-like", FINITE],
    "sd": [POSITIVE],
    "test": [StrOptions({"wilcoxon", "friedman"})],
    "alpha": [CONFIDENCE],
    "n_simulations": [COUNT],
    "random_state": RANDOM_STATE_CONSTRAINTS,
}


@validate_params(
    {**_RANK_CONSTRAINTS, "n_datasets": [AT_LEAST_TWO]}, prefer_skip_nested_validation=True
)
def rank_test_power(
    effects, sd, *, n_datasets, test="wilcoxon", alpha=0.05, n_simulations=2000, random_state=0
):
    """Power of a rank test across data sets, by simulation (seeded).

    Each simulated benchmark gives every model, on each of ``n_datasets`` data sets, its
    effect plus independent normal noise of standard deviation ``sd``, and applies
    :func:`scipy.stats.wilcoxon` to two models' differences, or to several the Friedman test
    of :func:`rank_comparison`: its permutation p-value, exact up to 100,000 tables of orders,
    else Monte Carlo, which is also Iman and Davenport's (not the chi-square approximation,
    which claimed a power of 0.39 where it rejected 0.29). Scores equal up to rounding tie,
    as :func:`rank_comparison` ties them.

    Parameters
    ----------
    effects : float or array-like of shape (n_models,)
        For "wilcoxon", the mean difference of the two models; for "friedman", each
        model's mean score (relative to any common level).
    sd : float
        The standard deviation of a model's score between data sets, around its effect
        (for "wilcoxon", of each model's: their difference has ``sqrt(2) * sd``).
    n_datasets : int
        The number of data sets, at least 2.
    test : {"wilcoxon", "friedman"}, default="wilcoxon"
    alpha : float, default=0.05
    n_simulations : int, default=2000
        Simulated benchmarks; the power has a Monte-Carlo standard error of at most ``0.5 /
        sqrt(n_simulations)`` (0.011 at 2000).
    random_state : int, RandomState, Generator or None, default=0
        Seeds every random draw: the same seed gives the same result.

    Returns
    -------
    float
        The fraction of simulated benchmarks in which the test rejects at ``alpha``.

    Examples
    --------
    >>> from sklearn_fair.stats import rank_test_power
    >>> rank_test_power(0.02, 0.02, n_datasets=10) > rank_test_power(0.02, 0.02, n_datasets=5)
    True
    >>> power = rank_test_power([0.80, 0.82, 0.85], 0.03, n_datasets=12, test="friedman")
    >>> 0 < power < 1
    True
    """
    effects = _check_effects(effects, test)
    return _simulated_power(effects, sd, n_datasets, test, alpha, n_simulations, random_state)


@validate_params(
    {**_RANK_CONSTRAINTS, "power": [CONFIDENCE], "max_datasets": [COUNT]},
    prefer_skip_nested_validation=True,
)
def rank_test_datasets(
    effects,
    sd,
    *,
    power=0.8,
    test="wilcoxon",
    alpha=0.05,
    n_simulations=2000,
    random_state=0,
    max_datasets=200,
):
    """The fewest data sets for a rank test to show ``effects`` with ``power``, by simulation.

    Parameters
    ----------
    effects, sd, test, alpha, n_simulations, random_state
        As :func:`rank_test_power`; every number of data sets with the same seed (a
        Generator or RandomState is drawn from once for it, its state advancing once).
    power : float, default=0.8
    max_datasets : int, default=200

    Returns
    -------
    int or None
        The smallest number of data sets whose simulated power reaches ``power``; None
        when ``max_datasets`` do not.

    Examples
    --------
    >>> from sklearn_fair.stats import rank_test_datasets
    >>> rank_test_datasets(0.02, 0.02)
    19
    """
    effects = _check_effects(effects, test)
    # one seed for every number of data sets: a Generator or RandomState drawn from once (its
    # state advances once), None fresh entropy once; an int is used as given
    seed = seed_root(random_state)
    return fewest_reaching(
        lambda n: _simulated_power(effects, sd, n, test, alpha, n_simulations, seed),
        power,
        max_datasets,
        least=2,
    )
