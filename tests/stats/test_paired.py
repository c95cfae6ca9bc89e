import warnings

import baycomp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from sklearn_fair.stats import (
    bayesian_correlated_ttest,
    corrected_resampled_ttest,
    holm,
    paired_ttest,
    probability_of_improvement,
)


def _pair(seed, n=10, shift=0.01):
    rng = np.random.default_rng(seed)
    b = rng.uniform(0.7, 0.9, n)
    return b + rng.normal(shift, 0.02, n), b


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("confidence", [0.9, 0.95])
def test_paired_ttest_matches_scipy(seed, confidence):
    a, b = _pair(seed)
    reference = stats.ttest_rel(a, b)
    result = paired_ttest(a, b, confidence=confidence)
    assert result.statistic == pytest.approx(reference.statistic)
    assert result.pvalue == pytest.approx(reference.pvalue)
    assert result.df == reference.df
    assert result.ci == pytest.approx(tuple(reference.confidence_interval(confidence)))
    assert result.mean_difference == pytest.approx(np.mean(a - b))


def test_corrected_ttest_hand_checked():
    # d = [0.03, 0.04, 0, 0.05, 0.03]: mean 0.03, s^2 = 0.0014 / 4 = 0.00035;
    # corrected variance (1/5 + 20/80) * 0.00035 = 0.0001575
    a = [0.81, 0.84, 0.79, 0.88, 0.83]
    b = [0.78, 0.80, 0.79, 0.83, 0.80]
    result = corrected_resampled_ttest(a, b, n_train=80, n_test=20)
    t = 0.03 / np.sqrt(0.0001575)
    assert result.statistic == pytest.approx(t)
    assert result.pvalue == pytest.approx(2 * stats.t.sf(t, 4))
    half = stats.t.ppf(0.975, 4) * np.sqrt(0.0001575)
    assert result.ci == pytest.approx((0.03 - half, 0.03 + half))


@pytest.mark.parametrize("seed", range(4))
def test_correction_widens_the_interval(seed):
    a, b = _pair(seed)
    plain = paired_ttest(a, b)
    corrected = corrected_resampled_ttest(a, b, n_train=90, n_test=10)
    assert corrected.pvalue > plain.pvalue
    assert corrected.ci_low < plain.ci_low and corrected.ci_high > plain.ci_high
    # A vanishing test set removes the correction.
    tiny = corrected_resampled_ttest(a, b, n_train=1e12, n_test=1e-6)
    assert tiny.pvalue == pytest.approx(plain.pvalue)


@pytest.mark.parametrize("seed", range(5))
def test_bayesian_rope_zero_is_the_one_sided_corrected_test(seed):
    # With rope = 0 and rho = n_test / (n_train + n_test), rho / (1 - rho) = n_test / n_train,
    # so P(b better) is the one-sided p-value of the corrected t-test (Benavoli et al., 2017).
    a, b = _pair(seed)
    bayes = bayesian_correlated_ttest(a, b, rope=0.0, n_train=90, n_test=10)
    corrected = corrected_resampled_ttest(a, b, n_train=90, n_test=10)
    one_sided = stats.t.sf(corrected.statistic, corrected.df)
    assert bayes.p_b_better == pytest.approx(one_sided)
    assert bayes.p_a_better == pytest.approx(1 - one_sided)
    assert bayes.rho == pytest.approx(0.1)


def test_bayesian_by_monte_carlo_posterior():
    a, b = _pair(0)
    d = a - b
    rng = np.random.default_rng(5)
    scale = np.sqrt((1 / len(d) + 0.2 / 0.8) * d.var(ddof=1))
    draws = d.mean() + scale * rng.standard_t(len(d) - 1, size=400_000)
    result = bayesian_correlated_ttest(a, b, rope=0.01, rho=0.2)
    assert result.p_a_better == pytest.approx(np.mean(draws > 0.01), abs=0.005)
    assert result.p_b_better == pytest.approx(np.mean(draws < -0.01), abs=0.005)
    assert result.p_equivalent == pytest.approx(np.mean(np.abs(draws) <= 0.01), abs=0.005)


@pytest.mark.parametrize("rope", [0.0, 0.01, 0.1])
def test_bayesian_probabilities_sum_to_one(rope):
    a, b = _pair(1)
    result = bayesian_correlated_ttest(a, b, rope=rope, rho=0.1)
    total = result.p_a_better + result.p_equivalent + result.p_b_better
    assert total == pytest.approx(1.0)


def test_bayesian_wide_rope_says_equivalent():
    a, b = _pair(2, shift=0.001)
    assert bayesian_correlated_ttest(a, b, rope=0.5, rho=0.1).p_equivalent > 0.99


def test_degenerate_equal_differences():
    a = [0.8, 0.7, 0.9]
    assert paired_ttest(a, a).pvalue == 1.0
    assert paired_ttest(np.add(a, 0.1), a).pvalue == 0.0
    assert bayesian_correlated_ttest(a, a, rho=0.1).p_equivalent == 1.0
    assert bayesian_correlated_ttest(np.add(a, 0.1), a, rho=0.1).p_a_better == 1.0


def _baycomp_probs(a, b, rope):
    """baycomp's (P(a better), P(equivalent), P(b better)); it tests b - a, left = a better."""
    probs = baycomp.CorrelatedTTest.probs(np.asarray(a), np.asarray(b), rope=rope, runs=1)
    if rope == 0:
        return float(probs[0]), 0.0, float(probs[1])
    return tuple(float(p) for p in probs)


@pytest.mark.parametrize(
    "a, b",
    [
        ([0.8, 0.7, 0.9, 0.85, 0.75], [0.8, 0.7, 0.9, 0.85, 0.75]),  # identical
        ([0.8, 0.7, 0.9, 0.85, 0.75], [0.7, 0.6, 0.8, 0.75, 0.65]),  # constant shift
        ([0.81, 0.84, 0.79, 0.88, 0.83], [0.78, 0.80, 0.79, 0.83, 0.80]),
        _pair(3, n=10),
        _pair(4, n=10, shift=-0.01),
    ],
    ids=["identical", "shifted", "hand", "random", "random-negative"],
)
@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_bayesian_matches_baycomp(a, b, rope):
    # baycomp scales the variance by 1/n + 1/(n_folds - 1): rho = 1/n_folds for one run.
    result = bayesian_correlated_ttest(a, b, rope=rope, rho=1 / len(a))
    ours = (result.p_a_better, result.p_equivalent, result.p_b_better)
    assert ours == pytest.approx(_baycomp_probs(a, b, rope), abs=1e-12)


def test_bayesian_identical_scores_rope_zero_is_half_and_half():
    a = [0.8, 0.7, 0.9, 0.85, 0.75]
    result = bayesian_correlated_ttest(a, a, rope=0.0, rho=0.2)
    assert (result.p_a_better, result.p_equivalent, result.p_b_better) == (0.5, 0.0, 0.5)


def test_holm_hand_checked():
    assert holm([0.01, 0.04, 0.03]).tolist() == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.01, 0.02, 0.03, 0.04]).tolist() == pytest.approx([0.04, 0.06, 0.06, 0.06])
    assert holm([0.5, 0.9]).tolist() == pytest.approx([1.0, 1.0])
    assert holm([0.2]).tolist() == [0.2]


def _holm_by_rejections(pvalues, alpha):
    """Holm's procedure as a sequence of rejections, written from its definition."""
    order = np.argsort(pvalues)
    rejected = np.zeros(len(pvalues), dtype=bool)
    for rank, index in enumerate(order):
        if pvalues[index] > alpha / (len(pvalues) - rank):
            break
        rejected[index] = True
    return rejected


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.floats(0, 1), min_size=1, max_size=12),
    st.sampled_from([0.01, 0.05, 0.1]),
)
def test_holm_adjusted_values_reject_as_the_procedure(pvalues, alpha):
    pvalues = np.array(pvalues)
    adjusted = holm(pvalues)
    assert np.all(adjusted >= pvalues) and np.all(adjusted <= 1)
    boundary = np.isclose(pvalues[:, None] * (len(pvalues) - np.arange(len(pvalues))), alpha).any()
    if not boundary:
        np.testing.assert_array_equal(adjusted <= alpha, _holm_by_rejections(pvalues, alpha))


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.integers(0, 10), min_size=1, max_size=15),
    st.lists(st.integers(0, 10), min_size=1, max_size=15),
)
def test_probability_of_improvement_is_scaled_mann_whitney(a, b):
    expected = stats.mannwhitneyu(a, b).statistic / (len(a) * len(b))
    assert probability_of_improvement(a, b) == pytest.approx(expected)
    assert probability_of_improvement(a, b) + probability_of_improvement(b, a) == pytest.approx(1)


def test_probability_of_improvement_hand_checked():
    # pairs (3,1) win, (3,3) tie, (4,1) win, (4,3) win: (3 + 0.5) / 4
    assert probability_of_improvement([3, 4], [1, 3]) == 0.875


@pytest.mark.parametrize(
    "test", [paired_ttest, lambda a, b: corrected_resampled_ttest(a, b, n_train=9, n_test=1)]
)
def test_paired_bad_inputs(test):
    with pytest.raises(ValueError, match="same length.*3 and 2"):
        test([0.1, 0.2, 0.3], [0.1, 0.2])
    with pytest.raises(ValueError, match="at least 2"):
        test([0.1], [0.2])
    with pytest.raises(ValueError, match="'b'.*NaN"):
        test([0.1, 0.2], [0.1, np.nan])


def test_parameter_errors():
    a, b = _pair(0)
    with pytest.raises(ValueError, match="'n_train'"):
        corrected_resampled_ttest(a, b, n_train=0, n_test=10)
    with pytest.raises(ValueError, match="'n_test'"):
        corrected_resampled_ttest(a, b, n_train=10, n_test=-1)
    with pytest.raises(ValueError, match="'confidence'"):
        paired_ttest(a, b, confidence=1.5)
    with pytest.raises(ValueError, match="'n_train' and 'n_test' are needed"):
        bayesian_correlated_ttest(a, b)
    with pytest.raises(ValueError, match="'rho'"):
        bayesian_correlated_ttest(a, b, rho=1.0)
    with pytest.raises(ValueError, match="'rope'"):
        bayesian_correlated_ttest(a, b, rope=-0.1, rho=0.1)
    with pytest.raises(ValueError, match="'pvalues'.*\\[0, 1\\]"):
        holm([0.1, 1.2])
    with pytest.raises(ValueError, match="'pvalues'.*NaN"):
        holm([0.1, np.nan])
    with pytest.raises(ValueError, match="'a'.*at least 1"):
        probability_of_improvement([], [0.1])


@pytest.mark.parametrize(
    "call, match",
    [
        (
            lambda a, b: paired_ttest(a, b, confidence=True),
            "'confidence' parameter of paired_ttest",
        ),
        (
            lambda a, b: corrected_resampled_ttest(a, b, n_train=True, n_test=1),
            "'n_train' parameter of corrected_resampled_ttest",
        ),
        (
            lambda a, b: corrected_resampled_ttest(a, b, n_train=10, n_test=np.inf),
            "'n_test' parameter of corrected_resampled_ttest",
        ),
        (
            lambda a, b: bayesian_correlated_ttest(a, b, rope=True, rho=0.1),
            "'rope' parameter of bayesian_correlated_ttest",
        ),
        (
            lambda a, b: bayesian_correlated_ttest(a, b, rope=np.inf, rho=0.1),
            "'rope' parameter of bayesian_correlated_ttest",
        ),
        (
            lambda a, b: bayesian_correlated_ttest(a, b, rho=False),
            "'rho' parameter of bayesian_correlated_ttest",
        ),
        (
            lambda a, b: bayesian_correlated_ttest(a, b, n_train=10, n_test=True),
            "'n_test' parameter of bayesian_correlated_ttest",
        ),
        (lambda a, b: holm(0.5), "'pvalues' parameter of holm must be an array-like"),
        (lambda a, b: probability_of_improvement(a, None), "'b' parameter of probability_of_"),
    ],
)
def test_parameters_are_checked_naming_the_function(call, match):
    # A bool is a mistake, not 1 or 0; an infinite size or rope is no number to test with.
    a, b = _pair(0)
    with pytest.raises(ValueError, match=match):
        call(a, b)


@pytest.mark.parametrize(
    "pvalues",
    [
        [0.2],
        [0.01, 0.04, 0.03, 0.04],  # a tie
        [0.0, 1.0, 0.5, 0.5, 0.049],
        np.random.default_rng(0).random(20).tolist(),
        (np.random.default_rng(1).random(12) ** 4).tolist(),  # many small
    ],
)
def test_holm_is_statsmodels_multipletests(pvalues):
    # a few cases, not hypothesis: statsmodels' multipletests runs gc.collect() on every call
    from statsmodels.stats.multitest import multipletests

    expected = multipletests(pvalues, alpha=0.05, method="holm")[1]
    np.testing.assert_allclose(holm(pvalues), expected, rtol=1e-12, atol=1e-15)


# Two pandas Series listing the same folds in other orders: a - b pairs them by label.
_SERIES_A = [0.81, 0.84, 0.79, 0.88, 0.83]
_SERIES_B = [0.78, 0.80, 0.79, 0.83, 0.80]
_FOLDS = ["f0", "f1", "f2", "f3", "f4"]
_REORDER = [3, 0, 4, 1, 2]


def _series_in_other_orders():
    import pandas as pd

    a = pd.Series(_SERIES_A, index=_FOLDS)
    b = pd.Series(_SERIES_B, index=_FOLDS).iloc[_REORDER]
    return a, b


def test_series_in_other_orders_are_paired_by_label_as_scipy_on_the_aligned_scores():
    a, b = _series_in_other_orders()
    aligned_b = np.asarray(_SERIES_B)  # b's scores in a's order of the folds
    reference = stats.ttest_rel(np.asarray(_SERIES_A), aligned_b)
    result = paired_ttest(a, b)
    assert result.statistic == pytest.approx(reference.statistic)
    assert result.pvalue == pytest.approx(reference.pvalue)
    # the corrected t by hand: d = [0.03, 0.04, 0, 0.05, 0.03], mean 0.03, s^2 = 0.00035,
    # (1/5 + 20/80) * 0.00035 = 0.0001575 (test_corrected_ttest_hand_checked)
    corrected = corrected_resampled_ttest(a, b, n_train=80, n_test=20)
    assert corrected.mean_difference == pytest.approx(0.03)
    assert corrected.statistic == pytest.approx(0.03 / np.sqrt(0.0001575))
    # baycomp's correlated t-test of the aligned scores (rho = 1 / n_folds for one run)
    bayes = bayesian_correlated_ttest(a, b, rope=0.01, rho=0.2)
    ours = (bayes.p_a_better, bayes.p_equivalent, bayes.p_b_better)
    assert ours == pytest.approx(_baycomp_probs(_SERIES_A, aligned_b, 0.01), abs=1e-12)


@pytest.mark.parametrize("problem", ["other labels", "a label twice"])
@pytest.mark.parametrize(
    "test",
    [
        paired_ttest,
        lambda a, b: corrected_resampled_ttest(a, b, n_train=80, n_test=20),
        lambda a, b: bayesian_correlated_ttest(a, b, rho=0.2),
    ],
)
def test_series_that_cannot_be_paired_by_label_are_refused(problem, test):
    a, b = _series_in_other_orders()
    b.index = ["f3", "f0", "f9", "f1", "f2"] if problem == "other labels" else _FOLDS[:4] + ["f0"]
    with pytest.raises(ValueError, match="'a' and 'b' parameters .* cannot be paired by resample"):
        test(a, b)


def test_series_of_equal_indexes_and_arrays_are_paired_by_position():
    import pandas as pd

    a, b = _pair(0)
    index = [f"f{i}" for i in range(a.size)][::-1]
    as_series = paired_ttest(pd.Series(a, index=index), pd.Series(b, index=index))
    assert as_series == paired_ttest(a, b)
    # one Series beside an array: by position, as pandas' a - np.asarray(b)
    assert paired_ttest(pd.Series(a, index=index), b) == paired_ttest(a, b)


# Scores equal but for rounding: 0.1 + 0.2 is 0.30000000000000004, 0.8 + 0.9 is
# 1.7000000000000002; the differences are 0 to 2e-16, all on one side.
_PARTS = [(0.1, 0.2), (0.2, 0.4), (0.4, 0.8), (0.8, 0.9), (0.2, 0.1), (0.3, 0.3)]
_SUMS = np.array([x + y for x, y in _PARTS])
_TOTALS = np.array([0.3, 0.6, 1.2, 1.7, 0.3, 0.6])


@pytest.mark.parametrize(
    "a, b",
    [(_SUMS, _TOTALS), (np.full(5, 0.1 + 0.2), np.full(5, 0.3))],
    ids=["rounding-noise", "one-rounding"],
)
@pytest.mark.parametrize(
    "test", [paired_ttest, lambda a, b: corrected_resampled_ttest(a, b, n_train=80, n_test=20)]
)
def test_scores_equal_but_for_rounding_have_no_difference(a, b, test):
    # by hand: the scores are the same numbers, so every difference is 0: t = 0, p = 1, as
    # for equal floats. scipy's t of the rounding noise was 2.93 (p = 0.033, "differ") on the
    # first; t was infinite (p = 0) on the second, every difference 5.6e-17.
    result = test(a, b)
    assert (result.mean_difference, result.statistic, result.pvalue) == (0.0, 0.0, 1.0)
    assert result.ci == (0.0, 0.0)


def test_a_shift_equal_but_for_rounding_has_no_spread():
    # b + 0.05 rounds each sum: differences 0.05 up to 1e-17, so no spread to test against; t
    # is infinite and p is 0, as for an exact shift (scipy's t was rounding's, 4.8e15)
    b = np.array([0.65, 0.39, 0.23, 0.21, 0.77])
    a = b + 0.05
    assert np.ptp(a - b) > 0
    result = paired_ttest(a, b)
    assert (result.statistic, result.pvalue) == (np.inf, 0.0)
    assert result.mean_difference == pytest.approx(0.05)


def test_bayesian_scores_equal_but_for_rounding_are_baycomps_equal_scores():
    # with rope 0, baycomp gives 0.5 each to two equal score vectors (the same numbers)
    result = bayesian_correlated_ttest(_SUMS, _TOTALS, rope=0.0, rho=1 / 6)
    ours = (result.p_a_better, result.p_equivalent, result.p_b_better)
    assert ours == pytest.approx(_baycomp_probs(_TOTALS, _TOTALS, 0.0), abs=1e-12)


@pytest.mark.parametrize("factor", [1e200, 1e-200])
def test_scores_near_1e200_or_1e_200_are_tested_as_the_same_scores_in_other_units(factor):
    # the squares of the differences overflowed (variance inf: t = 0, p = 1, interval
    # [-inf, inf] and, for the Bayesian test, 0.5 each) or underflowed (variance 0: t
    # infinite, p = 0 and a zero-width interval, without a warning); the tests are unchanged
    # by a change of units, as scipy's of the scores in ordinary units says
    a = np.array([5.0, 6.0, 7.0, 8.0, 9.0])
    b = np.array([1.0, 1.5, 2.0, 1.0, 2.0])
    d = a - b
    expected = stats.ttest_rel(a, b)
    interval = expected.confidence_interval(0.95)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plain = paired_ttest(a * factor, b * factor)
        corrected = corrected_resampled_ttest(a * factor, b * factor, n_train=80, n_test=20)
        bayes = bayesian_correlated_ttest(
            a * factor, b * factor, rope=0.5 * factor, n_train=80, n_test=20
        )
    assert (plain.statistic, plain.pvalue) == pytest.approx(
        (expected.statistic, expected.pvalue), rel=1e-12
    )
    assert [plain.mean_difference, *plain.ci] == pytest.approx(
        [factor * d.mean(), factor * interval.low, factor * interval.high], rel=1e-12
    )
    se = np.sqrt((1 / 5 + 20 / 80) * d.var(ddof=1))  # Nadeau and Bengio's, by hand
    half = stats.t.ppf(0.975, 4) * se
    assert corrected.statistic == pytest.approx(d.mean() / se, rel=1e-12)
    assert corrected.pvalue == pytest.approx(2 * stats.t.sf(d.mean() / se, 4), rel=1e-12)
    assert list(corrected.ci) == pytest.approx(
        [factor * (d.mean() - half), factor * (d.mean() + half)], rel=1e-12
    )
    scale = np.sqrt((1 / 5 + 0.2 / 0.8) * d.var(ddof=1))  # rho = 20 / 100
    posterior = stats.t(4, loc=d.mean(), scale=scale)
    assert (bayes.p_a_better, bayes.p_b_better) == pytest.approx(
        (posterior.sf(0.5), posterior.cdf(-0.5)), rel=1e-12
    )
    assert (bayes.mean_difference, bayes.scale) == pytest.approx(
        (factor * d.mean(), factor * scale), rel=1e-12
    )


# 0.81 against 0.80 on every fold: each difference is 0.010000000000000009 in floats, the
# rope 0.01. In hundredths (integers, exact in floats) the same scores are 81 against 80.
_AT_ROPE_A = np.array([0.81, 0.71, 0.91, 0.61, 0.51])
_AT_ROPE_B = np.array([0.80, 0.70, 0.90, 0.60, 0.50])


@pytest.mark.parametrize("b_ahead", [False, True], ids=["a-ahead", "b-ahead"])
def test_bayesian_a_difference_equal_to_the_rope_up_to_rounding_is_equivalent(b_ahead):
    # every difference is the rope: the point posterior lies on the edge of the closed region
    # [-rope, rope], equivalent with probability 1 as baycomp says of the same scores in
    # hundredths (differences 1, rope 1). Rounding's 9e-18 made "a better" certain (1, 0, 0)
    a, b = (_AT_ROPE_B, _AT_ROPE_A) if b_ahead else (_AT_ROPE_A, _AT_ROPE_B)
    assert (np.abs(a - b) > 0.01).all()  # the floats lie past the rope
    result = bayesian_correlated_ttest(a, b, rope=0.01, rho=0.2)
    ours = (result.p_a_better, result.p_equivalent, result.p_b_better)
    expected = _baycomp_probs(np.round(a * 100), np.round(b * 100), 1.0)
    assert expected == (0.0, 1.0, 0.0)
    assert ours == expected
    # a difference beyond the rope by more than rounding is still beyond it
    result = bayesian_correlated_ttest(a, b, rope=0.0099, rho=0.2)
    assert (result.p_b_better if b_ahead else result.p_a_better) == 1.0


def test_probability_of_improvement_ties_rounding_and_reads_a_loss():
    # 0.1 + 0.2 and 0.3 were a sure win (1.0); rank_comparison ties them
    assert probability_of_improvement([0.1 + 0.2], [0.3]) == 0.5
    a, b = [0.20, 0.35, 0.30], [0.25, 0.40, 0.10]
    # a loss: a beats b where it is lower; by hand, pairs a < b 4 of 9, a > b 5, no tie
    assert probability_of_improvement(a, b, greater_is_better=False) == pytest.approx(4 / 9)
    assert probability_of_improvement(a, b) == pytest.approx(5 / 9)
