"""A Monte Carlo permutation p-value at its floor, 1 / (9,999 + 1), is printed as a bound: no
draw reached the statistic, so the p-value is at most 0.0001, and may be far lower (review35b
REV-5: it printed "p = 0.0001" where scipy's chi-square p-value is 7e-08)."""

import numpy as np
from scipy import stats

from sklearn_fair.stats import multiple_comparison, rank_comparison


def _always_ordered(n_datasets=12, n_models=4):
    # model j better than model j - 1 on every data set: every random order ranks lower
    rng = np.random.default_rng(0)
    return np.sort(rng.uniform(0.6, 0.9, size=(n_datasets, n_models)), axis=1)


def test_a_monte_carlo_p_value_at_its_floor_is_printed_as_a_bound():
    scores = _always_ordered()
    ranks = rank_comparison(scores)
    assert ranks.pvalue_method == "Monte Carlo"
    assert stats.friedmanchisquare(*scores.T).pvalue < 1e-4  # the reference: far below
    assert ranks.pvalue == 1e-4  # (0 + 1) / (9,999 + 1)
    text = str(ranks)
    assert "Friedman chi2 = 36.000 (p <= 0.0001)" in text
    assert "p = 0.0001" not in text
    paragraph = multiple_comparison(scores, test="nonparametric").paragraph
    assert "p <= 0.0001, Monte Carlo permutation p-value" in paragraph
    assert "p = 0.0001" not in paragraph


def test_an_exact_p_value_or_one_above_the_floor_is_printed_as_it_is():
    exact = rank_comparison(_always_ordered(n_datasets=4, n_models=3))
    assert exact.pvalue_method == "exact"
    assert "p <=" not in str(exact)
    assert f"(p = {exact.pvalue:.3g})" in str(exact)
