"""rank_test_power's Friedman power is the rejection rate of rank_comparison itself."""

import warnings

import numpy as np
import pytest

from sklearn_fair.stats import rank_comparison, rank_test_power


@pytest.mark.parametrize(
    "effects, sd, n_datasets, n_simulations",
    [
        # exact p-values (6**3 tables of orders): the chi-square claimed a power of 0.39
        # where rank_comparison rejected 0.29, and a size of 7.2% for its 4.8%
        ([0.80, 0.82, 0.85], 0.03, 4, 150),
        ([0.0, 0.0, 0.0], 0.03, 4, 200),
        # Monte-Carlo p-values (6**11 tables of orders, more than 100,000); a tenth of the
        # tables have the statistic whose p-values, by their seeded draws, lie either side
        # of alpha (the chi-square's power was 0.42, that of rank_comparison 0.35)
        ([0.0, 0.01, 0.02], 0.02, 12, 80),
        # scores equal up to rounding tie in rank_comparison: the first two models everywhere
        ([0.80, 0.80, 0.90], 1e-13, 4, 50),
    ],
)
def test_friedman_power_is_the_rejection_rate_of_rank_comparison(
    effects, sd, n_datasets, n_simulations
):
    seed = 3
    power = rank_test_power(
        effects,
        sd,
        n_datasets=n_datasets,
        test="friedman",
        n_simulations=n_simulations,
        random_state=np.random.default_rng(seed),
    )
    # the same tables: one draw of shape (n_simulations, n_datasets, n_models)
    noise = np.random.default_rng(seed).standard_normal((n_simulations, n_datasets, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pvalues = [rank_comparison(table).pvalue for table in np.asarray(effects) + sd * noise]
    rejected = float(np.mean(np.asarray(pvalues) <= 0.05))
    # Only the seeded draws of Monte-Carlo p-values may differ, for the tables whose p-values
    # lie within their error of alpha: at most a table or two.
    assert abs(power - rejected) <= 2 / n_simulations + 1e-12, (power, rejected)
