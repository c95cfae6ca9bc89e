"""Power and sample size for comparing two models on shared resamples.

Two questions, before or after a pilot run: with ``k`` folds repeated ``r`` times, how
likely is the corrected resampled t-test to show a difference of ``delta``; and with ``n``
data sets, how likely is a rank test (Wilcoxon's signed-rank for two models, Friedman's for
several) to show it. Each has its inverse: the repeats, or the data sets, needed for a
target power.

The corrected resampled t-test (:func:`corrected_resampled_ttest`) divides the mean of the
``J = k r`` per-fold differences by ``sqrt((1 / J + n_test / n_train) s^2)``. Under Nadeau and
Bengio's (2003) model the differences have mean ``delta``, a spread ``sd`` within a run (what
``np.std(a - b, ddof=1)`` estimates) and a common correlation ``rho`` between any two
resamples. Then the mean difference has variance ``sd^2 (rho / (1 - rho) + 1 / J)``, ``s^2``
is ``sd^2`` times a chi-square on ``J - 1`` degrees of freedom over ``J - 1``, independent of
it, and the statistic is a scaled noncentral t: :func:`corrected_ttest_power` with ``rho``
given is exact for that model.

*What one run cannot tell.* The correction assumes ``rho = n_test / n`` (``1 / k``). On real
cross-validation the correlation is usually far below it, and no single run can estimate it
(Bengio and Grandvalet, 2004: no unbiased estimator of the variance of k-fold CV exists);
measured on real runs (``benchmarks/bench_power.py``, ``benchmarks/results/power.json``) it
was -0.03 to 0.02 for one run of 10-fold CV, 0.07 to 0.16 for 5-fold repeated 4 times, 0.04
to 0.09 for 10-fold repeated 5 times, and then the test is conservative: the power computed
with ``rho = 1 / k`` was up to five times the test's actual rejection rate for small
differences. Skewed fold differences (squared errors)
lower the power of small differences further. So, with ``rho=None``, the power returned is a
*lower bound*: the least of the model's power over ``-1 / (2 (J - 1)) <= rho <= n_test / n``
(the lower end, half the least correlation ``J`` exchangeable values can have, stands in for
the skewness the normal model misses). On the real runs of the benchmark (a regression and a
classification problem, 10-fold, 5x4 and 10x5; 30 settings of 400 to 600 runs) this bound lay
at or below the measured rejection rate in every setting, within two Monte-Carlo errors,
close to it where the power is high (it is then the value at ``rho = n_test / n``) and far
below it for small differences; the repeats :func:`corrected_ttest_repeats` asked for gave
96% and 85% power where 80% was asked.
The ``sd`` of a pilot is itself estimated from ``J`` differences (a relative standard error
of about ``1 / sqrt(2 (J - 1))``, 24% for 10 folds). At ``rho = n_test / n`` the mean
difference keeps the variance ``sd^2 rho / (1 - rho)`` however many repeats are made, so the
bound levels off: no number of repeats guarantees 80% power to a difference below about
``2.8 sd sqrt(rho / (1 - rho))`` (``0.93 sd`` for 10-fold).

The rank tests' power is simulated (seeded): per data set, each model's score is its
effect plus independent normal noise of ``sd``, the spread of a model's score between data
sets relative to the others'.
"""

import math
import numbers

import numpy as np
from scipy import stats as _scipy_stats
from sklearn.utils._param_validation import StrOptions, validate_params

from ..utils import RANDOM_STATE_CONSTRAINTS, IntervalNotBool, as_generator
from ._checks import check_paired

_PROBABILITY = IntervalNotBool(numbers.Real, 0, 1, closed="neither")
_CORRELATION = IntervalNotBool(numbers.Real, 0, 1, closed="left")
_FOLDS = IntervalNotBool(numbers.Integral, 2, None, closed="left")
_COUNT = IntervalNotBool(numbers.Integral, 1, None, closed="left")
_NON_NEGATIVE = IntervalNotBool(numbers.Real, 0, None, closed="left")
_POSITIVE = IntervalNotBool(numbers.Real, 0, None, closed="neither")
_FINITE = IntervalNotBool(numbers.Real, None, None, closed="neither")  # refuses NaN and inf


def resampled_power(delta, sd, n_resamples, ratio, rho, alpha):
    """Power of the corrected t-test on ``n_resamples`` differences, test/train ``ratio``, at
    correlation ``rho``; ``rho`` None is the lower bound over the range of the module."""
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
    if variance == 0:
        return 1.0 if delta != 0 else alpha
    scale = math.sqrt(variance / (correction * sd**2))
    critical = float(_scipy_stats.t.ppf(1.0 - alpha / 2.0, df)) / scale
    ncp = abs(delta) / math.sqrt(variance)
    # P(T < -c) as P(T' > c) of the mirrored noncentral t: scipy's nct.cdf(-c) is NaN for a
    # large noncentrality, where its sf of the mirror is a correct 0.
    upper, lower = _scipy_stats.nct(df, ncp).sf(critical), _scipy_stats.nct(df, -ncp).sf(critical)
    return float(upper + lower)


def _corrected_power(delta, sd, n_folds, n_repeats, rho, alpha):
    return resampled_power(delta, sd, n_folds * n_repeats, 1.0 / (n_folds - 1), rho, alpha)


def fewest_reaching(power_of, target, most, *, least=1):
    """The smallest n in [least, most] with ``power_of(n) >= target``, or None.

    Bisects, so ``power_of`` must increase with ``n`` (a simulated power, up to its
    Monte-Carlo error): it is called at ``most`` first, then at the midpoints.
    """
    if power_of(most) < target:
        return None
    low, high = least, most
    while low < high:
        middle = (low + high) // 2
        if power_of(middle) >= target:
            high = middle
        else:
            low = middle + 1
    return low


_CORRECTED_CONSTRAINTS = {
    "delta": [_FINITE],
    "sd": [_NON_NEGATIVE],
    "n_folds": [_FOLDS],
    "rho": [_CORRELATION, None],
    "alpha": [_PROBABILITY],
}


@validate_params(
    {**_CORRECTED_CONSTRAINTS, "n_repeats": [_COUNT]}, prefer_skip_nested_validation=True
)
def corrected_ttest_power(delta, sd, *, n_folds, n_repeats=1, rho=None, alpha=0.05):
    """Power of the corrected resampled t-test to show a mean difference ``delta``.

    For ``n_repeats`` times repeated ``n_folds``-fold cross-validation, shared by the two
    models, and the two-sided test at level ``alpha``. With ``rho`` given, exact under the
    model of the module (equicorrelated normal differences); with ``rho=None``, a lower
    bound: the least power over the correlations that real cross-validation shows, which one
    run cannot tell (see the module).

    Parameters
    ----------
    delta : float
        The true mean difference of the two models' scores, in score units.
    sd : float
        The standard deviation of the per-fold differences within a run, what
        ``np.std(a - b, ddof=1)`` of a pilot's fold scores estimates.
    n_folds : int
        ``k``, at least 2.
    n_repeats : int, default=1
        ``r``, the repetitions of the k-fold cross-validation.
    rho : float in [0, 1), default=None
        The correlation of the differences of two resamples, if known; None gives the lower
        bound over ``-1 / (2 (J - 1)) <= rho <= 1 / n_folds``.
    alpha : float, default=0.05
        The test's significance level.

    Returns
    -------
    float
        The probability that the test rejects equality (with ``rho=None``, at least this).

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
    return _corrected_power(float(delta), float(sd), n_folds, n_repeats, rho, float(alpha))


@validate_params(
    {
        **_CORRECTED_CONSTRAINTS,
        "power": [_PROBABILITY],
        "max_repeats": [_COUNT],
    },
    prefer_skip_nested_validation=True,
)
def corrected_ttest_repeats(
    delta, sd, *, n_folds, power=0.8, rho=None, alpha=0.05, max_repeats=1000
):
    """The fewest repeats of k-fold CV for the corrected t-test to show ``delta`` with ``power``.

    With ``rho=None`` the power is :func:`corrected_ttest_power`'s lower bound, so the
    repeats returned are enough (perhaps more than needed) for the correlations real
    cross-validation shows.

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
        The smallest ``n_repeats`` whose power reaches ``power``; None when no number of
        repeats up to ``max_repeats`` does (power levels off as repeats grow: the
        difference is too small against the spread between data sets, see the module).

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
    delta, sd, alpha = float(delta), float(sd), float(alpha)
    return fewest_reaching(
        lambda r: _corrected_power(delta, sd, n_folds, r, rho, alpha), power, max_repeats
    )


@validate_params(
    {"a": ["array-like"], "b": ["array-like"], "n_folds": [_FOLDS]},
    prefer_skip_nested_validation=True,
)
def pilot_effect(a, b, *, n_folds):
    """The mean difference and the within-run spread of a pilot's paired fold scores.

    Parameters
    ----------
    a, b : array-like of shape (n_resamples,)
        The two models' scores on the pilot's shared folds.
    n_folds : int
        The ``k`` of the pilot's (repeated) k-fold cross-validation.

    Returns
    -------
    dict
        ``delta`` (the mean of ``a - b``), ``sd`` (its standard deviation, ddof=1), and
        ``n_repeats``, the pilot's repeats; ``delta`` and ``sd`` are what
        :func:`corrected_ttest_power` takes.

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
    differences = a - b
    return {
        "delta": float(differences.mean()),
        "sd": float(np.std(differences, ddof=1)),
        "n_repeats": a.shape[0] // n_folds,
    }


def _simulated_power(effects, sd, n_datasets, test, alpha, n_simulations, rng):
    effects = np.asarray(effects, dtype=float)
    noise = rng.standard_normal((n_simulations, n_datasets, effects.shape[0]))
    scores = effects + sd * noise
    if test == "wilcoxon":
        differences = scores[..., 0] - scores[..., 1]
        pvalues = _scipy_stats.wilcoxon(differences, axis=1).pvalue
    else:
        pvalues = _scipy_stats.friedmanchisquare(*np.moveaxis(scores, 2, 0), axis=1).pvalue
    return float(np.mean(pvalues <= alpha))


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
    "effects": ["array-like", _FINITE],
    "sd": [_POSITIVE],
    "test": [StrOptions({"wilcoxon", "friedman"})],
    "alpha": [_PROBABILITY],
    "n_simulations": [_COUNT],
    "random_state": RANDOM_STATE_CONSTRAINTS,
}


@validate_params(
    {**_RANK_CONSTRAINTS, "n_datasets": [_FOLDS]},
    prefer_skip_nested_validation=True,
)
def rank_test_power(
    effects,
    sd,
    *,
    n_datasets,
    test="wilcoxon",
    alpha=0.05,
    n_simulations=2000,
    random_state=0,
):
    """Power of a rank test across data sets, by simulation.

    Each simulated benchmark gives every model, on each of ``n_datasets`` data sets, its
    effect plus normal noise of standard deviation ``sd``, and applies scipy's test:
    :func:`scipy.stats.wilcoxon` to the two models' differences, or
    :func:`scipy.stats.friedmanchisquare` to several models.

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
        Simulated benchmarks; the power has a Monte-Carlo standard error of at most
        ``0.5 / sqrt(n_simulations)`` (0.011 at 2000).
    random_state : int, Generator, RandomState or None, default=0

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
    rng = as_generator(random_state)
    return _simulated_power(effects, float(sd), n_datasets, test, alpha, n_simulations, rng)


@validate_params(
    {**_RANK_CONSTRAINTS, "power": [_PROBABILITY], "max_datasets": [_COUNT]},
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
        As :func:`rank_test_power`; every number of data sets is simulated with the same
        seed.
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

    def simulated(n):
        return _simulated_power(
            effects, float(sd), n, test, alpha, n_simulations, as_generator(random_state)
        )

    return fewest_reaching(simulated, power, max_datasets, least=2)
