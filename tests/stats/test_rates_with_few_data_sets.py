"""Statistics whose rates held only for many data sets or one kind of resampling: Friedman's
and Iman and Davenport's p-values with few data sets (against every order of every data set's
ranks, enumerated by hand); the coverage a summary quotes for the corrected resampled t of
repeated CV (against the coverage benchmark's results)."""

import itertools

import numpy as np
import pytest
from scipy import stats

from sklearn_fair.stats import multiple_comparison, rank_comparison


def _enumerated_pvalue(table):
    """P(chi2 >= observed) when each data set's scores are ordered at random: every distinct
    order of every row, each table's Friedman statistic by scipy (the first row's order kept:
    reordering all rows alike leaves the statistic unchanged)."""
    observed = stats.friedmanchisquare(*table.T).statistic
    orders = [sorted(set(itertools.permutations(row))) for row in table[1:]]
    statistics = [
        stats.friedmanchisquare(*np.array([table[0], *rows]).T).statistic
        for rows in itertools.product(*orders)
    ]
    return np.mean(np.array(statistics) >= observed - 1e-9)


# a > b > c on two data sets, a > c > b on the third: F = 7.0, which the F distribution on
# (2, 4) degrees of freedom put at p = 0.0494
ONE_SWAP = np.array([[0.90, 0.85, 0.80], [0.88, 0.83, 0.79], [0.91, 0.82, 0.86]])


def test_one_swap_in_three_data_sets_is_not_significant():
    result = rank_comparison(ONE_SWAP)
    assert result.iman_davenport_statistic == pytest.approx(7.0)
    # 42 of the 216 tables of orders have a statistic at least this large: 7 / 36
    assert _enumerated_pvalue(ONE_SWAP) == pytest.approx(7 / 36)
    assert result.iman_davenport_pvalue == pytest.approx(7 / 36)
    assert result.pvalue == pytest.approx(7 / 36)
    assert result.pvalue_method == "exact"
    assert "both p-values exact" in str(result)


def test_the_test_rejects_at_most_alpha_of_random_orders():
    # Every one of the 6**3 tables of orders of three models on three data sets is equally
    # likely when the models do not differ: the F test rejected 42 of them (19%) at 5%.
    orders = list(itertools.permutations([1.0, 2.0, 3.0]))
    pvalues = np.array(
        [
            rank_comparison(np.array(rows)).iman_davenport_pvalue
            for rows in itertools.product(orders, repeat=3)
        ]
    )
    for alpha in (0.01, 0.05, 0.1, 0.2):
        assert np.mean(pvalues <= alpha) <= alpha


def test_perfect_agreement_is_more_significant_than_one_swap():
    # five data sets, three models: all rank them a > b > c, or one ranks them a > c > b
    agree = np.tile([0.9, 0.8, 0.7], (5, 1))
    swap = agree.copy()
    swap[4] = [0.9, 0.7, 0.8]
    p_agree = rank_comparison(agree).iman_davenport_pvalue
    p_swap = rank_comparison(swap).iman_davenport_pvalue
    assert p_agree == pytest.approx(6.0**-4)  # the other four data sets agree with the first
    assert p_swap == pytest.approx(_enumerated_pvalue(swap))
    assert p_agree < p_swap


def test_ties_keep_their_average_ranks():
    table = np.array([[0.9, 0.9, 0.7, 0.6], [0.8, 0.6, 0.6, 0.5], [0.7, 0.8, 0.5, 0.5]])
    result = rank_comparison(table)
    assert result.statistic == pytest.approx(stats.friedmanchisquare(*table.T).statistic)
    assert result.pvalue == pytest.approx(_enumerated_pvalue(table))


def test_monte_carlo_beyond_enumeration_is_seeded_and_close_to_every_order():
    # eight data sets, three models: 6**7 tables of orders, more than are enumerated
    table = np.array(
        [[3, 2, 1], [3, 1, 2], [2, 3, 1], [3, 2, 1], [1, 3, 2], [3, 2, 1], [2, 1, 3], [3, 1, 2]],
        dtype=float,
    )
    result = rank_comparison(table)
    assert result.pvalue_method == "Monte Carlo"
    assert "Monte Carlo" in str(result)
    assert rank_comparison(table).pvalue == result.pvalue
    # every table's rank sums by hand (the first row kept): 6**7 tables of 3 rank sums
    ranks = stats.rankdata(-table, axis=1)
    orders = np.array(list(itertools.permutations(ranks[0])))
    totals = ranks[0] + orders[np.indices((6,) * 7).reshape(7, -1)].sum(axis=0)
    observed = (ranks.sum(axis=0) ** 2).sum()
    exact = np.mean((totals**2).sum(axis=1) >= observed - 1e-9)
    assert 0.01 < exact < 0.5
    assert abs(result.pvalue - exact) < 4 * np.sqrt(exact * (1 - exact) / 9_999)


# Four models in two families that move together across eight data sets (models a and b
# with one, c and d with the other): sphericity fails (Mauchly's W 0.001).
FAMILIES = np.array(
    [
        [0.7129, 0.7203, 0.8474, 0.8551],
        [0.729, 0.7317, 0.867, 0.8774],
        [0.7338, 0.7332, 0.8462, 0.8341],
        [0.7742, 0.7842, 0.785, 0.7912],
        [0.6838, 0.6832, 0.8489, 0.8389],
        [0.7898, 0.7916, 0.8677, 0.8686],
        [0.7431, 0.7599, 0.7673, 0.7672],
        [0.8404, 0.8335, 0.8349, 0.8355],
    ]
)


def _greenhouse_geisser(table):
    """``(F, epsilon, p)`` of the repeated-measures ANOVA by hand: Greenhouse and Geisser's
    epsilon of the double-centred covariance of the models' scores."""
    n, k = table.shape
    residuals = table - table.mean(0) - table.mean(1, keepdims=True) + table.mean()
    between = n * ((table.mean(0) - table.mean()) ** 2).sum() / (k - 1)
    f = between / ((residuals**2).sum() / ((k - 1) * (n - 1)))
    centring = np.eye(k) - 1.0 / k
    v = centring @ np.cov(table, rowvar=False) @ centring
    epsilon = np.trace(v) ** 2 / ((k - 1) * np.sum(v * v))
    return f, epsilon, stats.f.sf(f, epsilon * (k - 1), epsilon * (k - 1) * (n - 1))


def test_anova_pvalue_is_greenhouse_geisser_corrected():
    pytest.importorskip("statsmodels")
    result = multiple_comparison(FAMILIES, test="parametric")
    f, epsilon, p = _greenhouse_geisser(FAMILIES)
    # pingouin 0.7.0, rm_anova(correction=True) on this table: F 11.997496795896, eps
    # 0.342308756579, p-GG-corr 0.009816753233 (uncorrected p 0.000086326278)
    assert (f, epsilon, p) == pytest.approx((11.997496795896, 0.342308756579, 0.009816753233))
    assert result.statistic == pytest.approx(f)
    assert result.pvalue == pytest.approx(0.009816753233)
    assert result.pvalue_method == "Greenhouse-Geisser"
    assert "Greenhouse-Geisser-corrected" in result.paragraph


def test_the_epsilon_of_models_a_constant_apart_is_at_its_lower_bound():
    # one model's scores a constant plus noise of 1e-9 from the others': the covariance of the
    # differences has rank one, whose epsilon is its lower bound 1 / (k - 1) = 0.5; computed
    # from the covariance of the raw scores it was rounding noise, 0.297 (p 1.1e-47 for 8.6e-75)
    pytest.importorskip("statsmodels")
    base = np.array([0.5, 0.625, 0.75, 0.875, 0.5625, 0.6875, 0.8125, 0.59375, 0.71875, 0.65625])
    noise = 1e-9 * np.random.default_rng(0).normal(size=10)
    values = np.column_stack([base, base + 0.0625 + noise, base + 0.125])
    result = multiple_comparison(values, test="parametric")
    expected = stats.f.sf(result.statistic, 0.5 * 2, 0.5 * 2 * 9)
    assert result.pvalue == pytest.approx(expected, rel=1e-6, abs=0)
