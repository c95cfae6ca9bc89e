"""The corrected t-test's power depends on ``delta / sd`` alone: scores of 1e-170 or 1e160 (an
error in squared units) get the power of the same effect at unit scale, not 1.0 from an ``sd**2``
that underflows to 0, nor an OverflowError. Reference: scipy's noncentral t at unit scale."""

import math

import pytest
from scipy import stats

from sklearn_fair.stats import corrected_ttest_power, corrected_ttest_repeats


def _reference_power(effect, n_folds, rho):
    """Two-sided corrected t power, by Nadeau and Bengio's model, with scipy at unit sd."""
    df = n_folds - 1
    variance = rho / (1 - rho) + 1 / n_folds
    scale = math.sqrt(variance / (1 / n_folds + 1 / (n_folds - 1)))
    critical = stats.t.ppf(0.975, df) / scale
    ncp = effect / math.sqrt(variance)
    return stats.nct(df, ncp).sf(critical) + stats.nct(df, ncp).cdf(-critical)


@pytest.mark.parametrize("scale", [1e-170, 1e-150, 1.0, 1e150, 1e160])
def test_power_is_that_of_the_effect_at_unit_scale(scale):
    reference = _reference_power(1.5, 10, rho=0.1)
    assert corrected_ttest_power(1.5 * scale, scale, n_folds=10, rho=0.1) == pytest.approx(
        reference, rel=1e-9
    )


@pytest.mark.parametrize("scale", [1e-170, 1e160])
def test_repeats_are_those_at_unit_scale(scale):
    expected = corrected_ttest_repeats(1.0, 1.0, n_folds=10)
    assert expected is not None and expected > 1
    assert corrected_ttest_repeats(scale, scale, n_folds=10) == expected
