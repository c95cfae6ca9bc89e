"""Predicted power against simulation: data drawn with a known difference, tested, counted."""

import math

import numpy as np
import pytest
from scipy import stats

from sklearn_fair.stats import (
    corrected_resampled_ttest,
    corrected_ttest_power,
    corrected_ttest_repeats,
    pilot_effect,
    rank_test_datasets,
    rank_test_power,
)

N_SIMULATIONS = 4000


def _simulated_corrected_power(delta, sd, n_folds, n_repeats, rho, seed):
    """How often the corrected t-test rejects on equicorrelated normal differences."""
    rng = np.random.default_rng(seed)
    n = n_folds * n_repeats
    # Within a run the differences spread by sd; a common part shared by every resample
    # gives them correlation rho: its variance is sd^2 rho / (1 - rho).
    common = rng.standard_normal((N_SIMULATIONS, 1)) * sd * math.sqrt(rho / (1 - rho))
    differences = delta + common + sd * rng.standard_normal((N_SIMULATIONS, n))
    # The corrected resampled t-test by hand, vectorised (Nadeau & Bengio, eq. 17).
    statistic = differences.mean(axis=1) / np.sqrt(
        (1 / n + 1 / (n_folds - 1)) * differences.var(axis=1, ddof=1)
    )
    rejected = 2 * stats.t.sf(np.abs(statistic), n - 1) <= 0.05
    first = [
        corrected_resampled_ttest(d, np.zeros(n), n_train=n_folds - 1, n_test=1).pvalue <= 0.05
        for d in differences[:50]
    ]
    assert first == rejected[:50].tolist()  # the formula is the library's test
    return float(np.mean(rejected))


def _within_monte_carlo_error(simulated, predicted):
    standard_error = math.sqrt(max(predicted * (1 - predicted), 1e-4) / N_SIMULATIONS)
    assert abs(simulated - predicted) <= 3.5 * standard_error, (simulated, predicted)


@pytest.mark.parametrize(
    "delta, sd, n_folds, n_repeats, rho",
    [
        (0.02, 0.03, 10, 1, None),  # the correlation the correction assumes, 1/k
        (0.02, 0.03, 10, 5, None),
        (0.03, 0.05, 5, 3, None),
        (0.02, 0.02, 5, 2, 0.05),  # less correlated than assumed: the test is conservative
        (0.04, 0.02, 5, 4, 0.4),  # more: it rejects more often than it should
        (0.0, 0.03, 10, 3, None),  # no difference: the power is the level
    ],
)
def test_power_of_the_corrected_t_matches_simulation(delta, sd, n_folds, n_repeats, rho):
    rho = 1 / n_folds if rho is None else rho
    predicted = corrected_ttest_power(delta, sd, n_folds=n_folds, n_repeats=n_repeats, rho=rho)
    simulated = _simulated_corrected_power(delta, sd, n_folds, n_repeats, rho, seed=n_repeats)
    _within_monte_carlo_error(simulated, predicted)
    if delta == 0 and rho == 1 / n_folds:
        assert predicted == pytest.approx(0.05, abs=1e-12)


@pytest.mark.parametrize("delta", [0.0, 0.02, -0.02])
@pytest.mark.parametrize("rho", [None, 0.0, 0.1])
def test_without_spread_the_power_is_whether_the_test_rejects(delta, rho):
    # sd = 0: every difference is delta, so the test's decision is certain; before, delta = 0
    # gave alpha although the test never rejects there (t = 0, p = 1)
    differences = np.full(10, delta)
    pvalue = corrected_resampled_ttest(differences, np.zeros(10), n_train=9, n_test=1).pvalue
    expected = float(pvalue <= 0.05)
    assert corrected_ttest_power(delta, 0.0, n_folds=10, rho=rho) == expected
    assert expected == (delta != 0)


@pytest.mark.parametrize("delta, n_folds, n_repeats", [(0.01, 10, 1), (0.04, 10, 1), (0.02, 5, 4)])
def test_the_default_is_the_least_power_over_the_correlations_one_run_cannot_tell(
    delta, n_folds, n_repeats
):
    bound = corrected_ttest_power(delta, 0.03, n_folds=n_folds, n_repeats=n_repeats)
    n = n_folds * n_repeats
    correlations = np.linspace(-0.5 / (n - 1), 1 / n_folds, 9)
    powers = [
        corrected_ttest_power(delta, 0.03, n_folds=n_folds, n_repeats=n_repeats, rho=r)
        if r >= 0
        else None
        for r in correlations
    ]
    assert bound <= min(p for p in powers if p is not None) + 1e-12
    # and below what equicorrelated normal differences show at each end of the range
    for rho in (0.0, 1 / n_folds):
        simulated = _simulated_corrected_power(delta, 0.03, n_folds, n_repeats, rho, seed=3)
        assert bound <= simulated + 3.5 * math.sqrt(max(bound * (1 - bound), 1e-4) / N_SIMULATIONS)


def test_the_repeats_needed_reach_the_power_and_one_fewer_do_not():
    repeats = corrected_ttest_repeats(0.03, 0.03, n_folds=10, power=0.8)
    assert repeats == corrected_ttest_repeats(0.03, 0.03, n_folds=10, power=0.8, rho=0.1)
    assert corrected_ttest_power(0.03, 0.03, n_folds=10, n_repeats=repeats) >= 0.8
    assert corrected_ttest_power(0.03, 0.03, n_folds=10, n_repeats=repeats - 1) < 0.8
    simulated = _simulated_corrected_power(0.03, 0.03, 10, repeats, 0.1, seed=11)
    assert simulated >= 0.8 - 3.5 * math.sqrt(0.8 * 0.2 / N_SIMULATIONS)


def test_power_levels_off_so_some_differences_need_more_than_any_repeats():
    # With rho = 1/10 the mean difference keeps the variance sd^2 / 9: 80% power needs
    # delta of about (1.96 + 0.84) sd / 3; 0.005 against sd 0.03 is far below.
    powers = [
        corrected_ttest_power(0.005, 0.03, n_folds=10, n_repeats=r, rho=0.1) for r in (1, 100, 1000)
    ]
    limit = stats.norm.sf(1.96 - 0.005 / (0.03 / 3)) + stats.norm.cdf(-1.96 - 0.005 / 0.01)
    assert powers[0] < powers[1] < powers[2] < limit + 1e-3
    assert corrected_ttest_repeats(0.005, 0.03, n_folds=10) is None
    assert corrected_ttest_power(0.005, 0.03, n_folds=10, n_repeats=1000) <= powers[2]


def test_pilot_effect_is_the_mean_and_sd_of_the_differences():
    a = np.array([0.81, 0.84, 0.79, 0.88, 0.83, 0.82])
    b = np.array([0.78, 0.80, 0.79, 0.83, 0.80, 0.81])
    pilot = pilot_effect(a, b, n_folds=3)
    assert pilot["delta"] == pytest.approx(np.mean(a - b))
    assert pilot["sd"] == pytest.approx(stats.tstd(a - b))
    assert pilot["n_repeats"] == 2
    with pytest.raises(ValueError, match="'n_folds' parameter must divide .* \\(6\\)"):
        pilot_effect(a, b, n_folds=4)


def _simulated_wilcoxon_power(effects, sd, n_datasets, seed, n=1000):
    rng = np.random.default_rng(seed)
    # Data set effects shift every model alike: rank tests must not care.
    level = rng.normal(0.7, 0.1, size=(n, n_datasets, 1))
    noise = sd * rng.standard_normal((n, n_datasets, len(effects)))
    scores = level + np.asarray(effects) + noise
    pvalues = stats.wilcoxon(scores[..., 0], scores[..., 1], axis=1).pvalue
    return float(np.mean(pvalues <= 0.05))


# Friedman's power is rank_comparison's permutation test, checked against rank_comparison
# itself in test_power_matches_rank_comparison.py (not a chi-square simulated here)
@pytest.mark.parametrize("effect, sd, n_datasets", [(0.02, 0.02, 10), (0.01, 0.02, 20)])
def test_rank_test_power_matches_an_independent_simulation(effect, sd, n_datasets):
    predicted = rank_test_power(effect, sd, n_datasets=n_datasets, test="wilcoxon", random_state=1)
    simulated = _simulated_wilcoxon_power([effect, 0.0], sd, n_datasets, seed=2)
    # Both are simulations: their difference has the variance of both.
    standard_error = math.sqrt(predicted * (1 - predicted) * (1 / 2000 + 1 / 1000))
    assert abs(simulated - predicted) <= 3.5 * max(standard_error, 0.005)


def test_the_data_sets_needed_reach_the_power():
    needed = rank_test_datasets(0.02, 0.02, power=0.8, random_state=0)
    assert rank_test_power(0.02, 0.02, n_datasets=needed, random_state=0) >= 0.8
    assert rank_test_power(0.02, 0.02, n_datasets=needed - 1, random_state=0) < 0.8
    assert rank_test_datasets(0.001, 0.05, max_datasets=20) is None
    # Wilcoxon's exact test cannot reject at 5% with 5 data sets (its smallest p is 1/16).
    assert rank_test_power(1.0, 0.01, n_datasets=5) == 0.0


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: corrected_ttest_power(0.1, -1, n_folds=5), "'sd' parameter"),
        (lambda: corrected_ttest_power(0.1, 1, n_folds=1), "'n_folds' parameter"),
        (lambda: corrected_ttest_power(0.1, 1, n_folds=5, rho=1.0), "'rho' parameter"),
        (lambda: corrected_ttest_power(0.1, 1, n_folds=5, n_repeats=0), "'n_repeats'"),
        (lambda: corrected_ttest_repeats(0.1, 1, n_folds=5, power=1.0), "'power' parameter"),
        (lambda: rank_test_power([0.1, 0.2], 1, n_datasets=5), "one number"),
        (lambda: rank_test_power([0.1, 0.2], 1, n_datasets=5, test="friedman"), "3 models"),
        (lambda: rank_test_power(0.1, 1, n_datasets=5, test="t"), "'test' parameter"),
    ],
)
def test_bad_parameters(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: corrected_ttest_repeats(np.nan, 0.03, n_folds=10), "'delta' parameter"),
        (lambda: corrected_ttest_power(np.inf, 0.03, n_folds=10), "'delta' parameter"),
        (lambda: corrected_ttest_power(0.01, np.nan, n_folds=10), "'sd' parameter"),
        (lambda: rank_test_power(np.nan, 0.02, n_datasets=5), "'effects' parameter"),
        (
            lambda: rank_test_power([0.1, np.nan, 0.2], 0.02, n_datasets=5, test="friedman"),
            "'effects'",
        ),
        (lambda: rank_test_datasets(0.02, np.nan), "'sd' parameter"),
    ],
)
def test_nan_inputs_are_refused_not_answered(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize(
    "random_state",
    [lambda: np.random.default_rng(5), lambda: np.random.RandomState(5), lambda: None, lambda: 5],
    ids=["Generator", "RandomState", "None", "int"],
)
def test_every_number_of_data_sets_is_simulated_with_the_same_seed(monkeypatch, random_state):
    # the docstring's "every number of data sets with the same seed": a Generator or
    # RandomState was passed on as it is, so each number the search tried drew other noise
    # (and None fresh entropy each time), and the powers it compared were not of one seed
    import copy

    from sklearn_fair.stats import _power
    from sklearn_fair.utils import as_generator

    simulated = _power._simulated_power
    first_draws = {}

    def spy(effects, sd, n_datasets, test, alpha, n_simulations, seed):
        first_draws[n_datasets] = as_generator(copy.deepcopy(seed)).standard_normal()
        return simulated(effects, sd, n_datasets, test, alpha, n_simulations, seed)

    monkeypatch.setattr(_power, "_simulated_power", spy)
    needed = rank_test_datasets(0.02, 0.02, n_simulations=200, random_state=random_state())
    assert needed is not None and len(first_draws) > 3
    assert len(set(first_draws.values())) == 1


def test_a_pilot_winning_by_the_same_amount_on_every_fold_needs_one_repeat():
    # one more test row right of 100 on every fold: differences 0.01 but for rounding. Their
    # rounding noise (3.5e-17) was the pilot's sd, its power NaN, and its repeats 1000 (the
    # most asked for, where NaN < 0.8 passed as not reached)
    a = np.round(np.random.default_rng(0).uniform(0.7, 0.9, size=10), 2)
    b = np.round(a - 0.01, 2)
    pilot = pilot_effect(a, b, n_folds=10)
    assert pilot["sd"] == 0.0 and pilot["delta"] == pytest.approx(0.01)
    assert np.isinf(corrected_resampled_ttest(a, b, n_train=900, n_test=100).statistic)
    assert corrected_ttest_power(pilot["delta"], pilot["sd"], n_folds=10) == 1.0
    assert corrected_ttest_repeats(pilot["delta"], pilot["sd"], n_folds=10) == 1
    # a spread this small against the difference is a sure rejection, not NaN (scipy's nct
    # is NaN from a noncentrality of about 1e9)
    assert corrected_ttest_power(0.01, 1e-12, n_folds=10) == 1.0
    assert corrected_ttest_repeats(0.01, 1e-12, n_folds=10, power=0.99) == 1
