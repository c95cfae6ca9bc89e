"""bayesian_signed_rank against baycomp's SignedRankTest, and win_tie_loss against the
corrected t-test of each data set and statsmodels' Holm."""

import baycomp
import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

from sklearn_fair.stats import bayesian_signed_rank, corrected_resampled_ttest, win_tie_loss
from sklearn_fair.stats._signed_rank import _posterior, _probabilities

A = np.array([0.84, 0.79, 0.91, 0.75, 0.88, 0.82, 0.80, 0.86, 0.77, 0.90])
B = np.array([0.80, 0.80, 0.85, 0.76, 0.86, 0.79, 0.80, 0.83, 0.78, 0.89])


@pytest.mark.parametrize("rope", [0.0, 0.005, 0.01, 0.03])
@pytest.mark.parametrize("seed", [0, 1])
def test_the_posterior_is_baycomps_with_its_draws(rope, seed):
    # baycomp draws its weights from RandomState(seed).dirichlet((prior, 1, ..., 1)); with the
    # same draws every sample and every probability is its own
    alpha = np.r_[0.5, np.ones(A.size)]
    weights = np.random.RandomState(seed).dirichlet(alpha, 5000)
    ours = _posterior(A - B, rope, weights)
    theirs = baycomp.SignedRankTest.sample(A, B, rope, nsamples=5000, random_state=seed)
    # baycomp tests y - x, its left is "x better": our columns are (a better, rope, b better)
    np.testing.assert_allclose(ours, theirs, atol=1e-12)
    probs = baycomp.SignedRankTest.probs(A, B, rope, nsamples=5000, random_state=seed)
    if rope == 0:
        assert _probabilities(ours) == pytest.approx((probs[0], 0.0, probs[1]))
    else:
        assert _probabilities(ours) == pytest.approx(probs)


def test_the_public_test_agrees_with_baycomp_within_monte_carlo_error():
    # baycomp of the scores in hundredths (integers, exact in floats): those of A - B that
    # are the rope as written (0.90 - 0.89 is 0.010000000000000009) count half, as written;
    # baycomp of the floats counts them in full (0.88 for "a better" where this is 0.79)
    ours = bayesian_signed_rank(A, B, rope=0.01, n_samples=20_000, random_state=3)
    theirs = baycomp.SignedRankTest.probs(
        np.round(A * 100), np.round(B * 100), 1.0, nsamples=20_000, random_state=4
    )
    error = 4 * 0.5 / np.sqrt(20_000)
    assert (ours.p_a_better, ours.p_equivalent, ours.p_b_better) == pytest.approx(theirs, abs=error)
    assert ours.p_a_better + ours.p_equivalent + ours.p_b_better == pytest.approx(1.0)
    again = bayesian_signed_rank(A, B, rope=0.01, n_samples=20_000, random_state=3)
    assert again == ours


def test_lower_is_better_swaps_the_models():
    higher = bayesian_signed_rank(A, B, rope=0.01, n_samples=5000)
    lower = bayesian_signed_rank(-A, -B, rope=0.01, n_samples=5000, greater_is_better=False)
    assert (lower.p_a_better, lower.p_equivalent, lower.p_b_better) == (
        higher.p_a_better,
        higher.p_equivalent,
        higher.p_b_better,
    )
    swapped = bayesian_signed_rank(B, A, rope=0.01, n_samples=5000)
    assert swapped.p_b_better == higher.p_a_better


def test_a_wide_rope_makes_the_models_equivalent():
    result = bayesian_signed_rank(A, B, rope=0.5, n_samples=2000)
    assert result.p_equivalent == 1.0


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_no_difference_at_all_with_rope_zero_is_half_and_half(seed):
    # Every data set ties: in every one of baycomp's posterior samples "a better" and "b
    # better" hold the same mass (half of it each, sums of 0 counting half), up to rounding,
    # so neither is more often the larger: half each, as bayesian_correlated_ttest (and
    # baycomp's CorrelatedTTest) give. Before, rounding picked a side: 0.63 for "a better".
    samples = baycomp.SignedRankTest.sample(A, A, 0.0, nsamples=5000, random_state=seed)
    np.testing.assert_allclose(samples[:, [0, 2]], 0.5, atol=1e-12)
    result = bayesian_signed_rank(A, A, rope=0.0, n_samples=5000, random_state=seed)
    assert (result.p_a_better, result.p_equivalent, result.p_b_better) == (0.5, 0.0, 0.5)
    lower = bayesian_signed_rank(A, A, rope=0.0, greater_is_better=False, random_state=seed)
    assert (lower.p_a_better, lower.p_equivalent, lower.p_b_better) == (0.5, 0.0, 0.5)


def _folds(rng, means):
    return [rng.normal(m, 0.01, 5) for m in means]


@pytest.mark.parametrize("adjust", ["holm", None])
def test_win_tie_loss_is_the_corrected_t_of_each_data_set(adjust):
    rng = np.random.default_rng(0)
    a = _folds(rng, [0.80, 0.70, 0.60, 0.90])
    b = _folds(rng, [0.70, 0.70, 0.65, 0.905])
    sizes = [80, 90, 100, 40]
    counts = win_tie_loss(a, b, n_train=sizes, n_test=20, adjust=adjust)
    tests = [corrected_resampled_ttest(x, y, n_train=n, n_test=20) for x, y, n in zip(a, b, sizes)]
    pvalues = [t.pvalue for t in tests]
    if adjust == "holm":
        pvalues = multipletests(pvalues, method="holm")[1]
    np.testing.assert_allclose(counts.pvalues, pvalues)
    expected = [
        "tie" if p > 0.05 else ("win" if t.mean_difference > 0 else "loss")
        for t, p in zip(tests, pvalues)
    ]
    assert list(counts.outcomes) == expected
    assert (counts.wins, counts.ties, counts.losses) == tuple(
        expected.count(o) for o in ("win", "tie", "loss")
    )
    assert counts.outcomes[0] == "win" and counts.outcomes[2] == "loss"
    lower = win_tie_loss(a, b, n_train=sizes, n_test=20, adjust=adjust, greater_is_better=False)
    assert (lower.wins, lower.losses) == (counts.losses, counts.wins)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: bayesian_signed_rank(A, B, rope=-0.1), "'rope' parameter"),
        (lambda: bayesian_signed_rank(A, B, prior=0), "'prior' parameter"),
        (lambda: bayesian_signed_rank(A, B, random_state=True), "'random_state' parameter"),
        (lambda: bayesian_signed_rank(A, B[:3]), "same length"),
        (lambda: win_tie_loss([A], [B, B], n_train=8, n_test=2), "as many for both"),
        (lambda: win_tie_loss([A], [B], n_train=8, n_test=2, adjust="bonferroni"), "'adjust'"),
        # sizes per data set were taken as given: a test size of -2 gave a p-value of 0.0007
        (lambda: win_tie_loss([A, A], [B, B], n_train=8, n_test=[2, -2]), "'n_test' .* positive"),
        (lambda: win_tie_loss([A, A], [B, B], n_train=[8, 0], n_test=2), "'n_train' .* positive"),
        (lambda: win_tie_loss([A], [B], n_train=[8, 8], n_test=2), "'n_train' .* one per data"),
    ],
)
def test_bad_input_is_refused_by_name(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_series_in_other_orders_are_paired_by_label():
    import pandas as pd

    folds = ["f0", "f1", "f2", "f3", "f4"]
    a = pd.Series([0.81, 0.84, 0.79, 0.88, 0.83], index=folds)
    b = pd.Series([0.78, 0.80, 0.79, 0.83, 0.80], index=folds).iloc[[3, 0, 4, 1, 2]]
    counts = win_tie_loss([a], [b], n_train=80, n_test=20, adjust=None)
    # by hand: d = [0.03, 0.04, 0, 0.05, 0.03], t = 0.03 / sqrt((1/5 + 20/80) * 0.00035)
    t = 0.03 / np.sqrt(0.0001575)
    assert counts.pvalues[0] == pytest.approx(2 * stats.t.sf(t, 4))
    signed = bayesian_signed_rank(pd.Series(A, index=range(10))[::-1], pd.Series(B))
    assert signed == bayesian_signed_rank(A[::-1], B[::-1])  # in a's order of data sets
    b.index = ["f3", "f0", "f9", "f1", "f2"]
    match = "'per_dataset_a\\[1\\]' and 'per_dataset_b\\[1\\]' .* cannot be paired by fold"
    with pytest.raises(ValueError, match=match):
        win_tie_loss([A, a], [B, b], n_train=80, n_test=20)


def test_scores_equal_but_for_rounding_split_evenly_with_rope_zero():
    # 0.1 + 0.2 against 0.3 ...: the same numbers, no difference on any data set; documented
    # (and baycomp's posterior of zero differences): 0.5, 0, 0.5. Rounding's 1e-16 made a
    # "better" with probability 1.
    parts = [(0.1, 0.2), (0.2, 0.4), (0.4, 0.8), (0.8, 0.9), (0.2, 0.1), (0.3, 0.3)]
    a = np.array([x + y for x, y in parts])
    b = np.array([0.3, 0.6, 1.2, 1.7, 0.3, 0.6])
    result = bayesian_signed_rank(a, b, rope=0.0)
    assert (result.p_a_better, result.p_equivalent, result.p_b_better) == (0.5, 0.0, 0.5)


@pytest.mark.parametrize("greater_is_better", [True, False])
def test_rounding_noise_next_to_real_differences_is_no_difference_with_rope_zero(
    greater_is_better,
):
    # three data sets whose scores are the same numbers but for rounding (0.1 + 0.2 against
    # 0.3), three with real differences: the noise (1e-16) counted as "a better" in every pair
    # sum with the prior's 0 and with each other, where an exact 0 counts half: 0.94 for "a
    # better" where the same scores written exactly give 0.82 (baycomp's 0.82 too). The
    # paired t-tests and Wilcoxon's test (rank_comparison) take such a difference as 0
    a = np.array([0.1 + 0.2, 0.2 + 0.4, 0.4 + 0.8, 0.80, 0.70, 0.91])
    b = np.array([0.3, 0.6, 1.2, 0.77, 0.715, 0.85])
    exact = np.array([0.3, 0.6, 1.2, 0.80, 0.70, 0.91])  # the same scores, equal ones exactly
    assert (a[:3] != exact[:3]).all() and (a[3:] == exact[3:]).all()
    if not greater_is_better:
        a, b, exact = -a, -b, -exact
    noisy = bayesian_signed_rank(a, b, rope=0.0, greater_is_better=greater_is_better)
    written = bayesian_signed_rank(exact, b, rope=0.0, greater_is_better=greater_is_better)
    assert noisy == written
    theirs = baycomp.SignedRankTest.probs(exact, b, 0.0, nsamples=50_000, random_state=0)
    if not greater_is_better:
        theirs = theirs[::-1]
    error = 4 * 0.5 / np.sqrt(50_000)
    assert (noisy.p_a_better, noisy.p_b_better) == pytest.approx(theirs, abs=error)


def test_a_data_set_scored_on_another_scale_leaves_the_others_differences():
    # one data set's scores near -1e12 (a negative squared error) beside nine accuracies: the
    # rounding tolerance was taken from the largest score of all (4.9e-3), so every accuracy
    # difference (1e-3 to 4e-3) was "rounding" and dropped. b is better on all nine: baycomp
    # gave b better with 0.96 where ours gave a better with 1.0, scipy's Wilcoxon p = 0.08
    # where ours was W = 0, p = 1
    a = np.array([-1.0e12, 0.800, 0.710, 0.620, 0.930, 0.840, 0.750, 0.660, 0.570, 0.880])
    b = np.array([-1.1e12, 0.803, 0.712, 0.624, 0.931, 0.843, 0.752, 0.664, 0.571, 0.883])
    ours = bayesian_signed_rank(a, b, rope=0.0, n_samples=20_000, random_state=0)
    theirs = baycomp.SignedRankTest.probs(a, b, 0.0, nsamples=20_000, random_state=1)
    error = 4 * 0.5 / np.sqrt(20_000)
    assert (ours.p_a_better, ours.p_b_better) == pytest.approx(theirs, abs=error)
    assert ours.p_b_better > 0.9
    from sklearn_fair.stats import multiple_comparison, rank_comparison

    table = np.column_stack([a, b, b - 1.0])
    row = rank_comparison(table, control="model_0", control_test="wilcoxon").control_comparisons[0]
    reference = stats.wilcoxon(b, a)
    assert (row["statistic"], row["pvalue"]) == pytest.approx(
        (reference.statistic, reference.pvalue)
    )
    # multiple_comparison's two-model signed-rank test, where b is better on the nine only
    a[1:] = b[1:] - 0.002
    result = multiple_comparison(np.column_stack([a, b]), test="nonparametric")
    reference = stats.wilcoxon(a, b)
    assert result.pvalue == pytest.approx(reference.pvalue)


# Scores with two decimals whose differences tie, or sum to 2 rope, as written but not in
# floats: 0.47 - 0.51 is -0.040000000000000036, 0.80 - 0.84 is -0.039999999999999925, and
# 0.03 + -0.01 is 0.019999999999999997. In hundredths (integers, exact in floats) baycomp's
# comparisons of the sums are those of the scores as written.
_WRITTEN_A = np.array([0.47, 0.58, 0.97, 0.81, 0.63, 0.80, 0.75])
_WRITTEN_B = np.array([0.51, 0.60, 0.94, 0.77, 0.61, 0.84, 0.76])


def _hundredths(x):
    return np.round(np.asarray(x) * 100)


@pytest.mark.parametrize("rope", [0.0, 0.01, 0.02])
def test_sums_at_the_threshold_up_to_rounding_are_baycomps_of_the_written_scores(rope):
    # with baycomp's draws, every sample's posterior is baycomp's of the scores in hundredths
    from sklearn_fair.stats._checks import pair_tolerances

    alpha = np.r_[0.5, np.ones(_WRITTEN_A.size)]
    weights = np.random.RandomState(0).dirichlet(alpha, 5000)
    ours = _posterior(
        _WRITTEN_A - _WRITTEN_B, rope, weights, pair_tolerances(_WRITTEN_A, _WRITTEN_B)
    )
    a, b = _hundredths(_WRITTEN_A), _hundredths(_WRITTEN_B)
    theirs = baycomp.SignedRankTest.sample(a, b, 100 * rope, nsamples=5000, random_state=0)
    np.testing.assert_allclose(ours, theirs, atol=1e-12)


@pytest.mark.parametrize("rope", [0.0, 0.01, 0.02])
def test_the_public_test_is_baycomps_of_the_written_scores(rope):
    # within Monte-Carlo error; the floats' sums put 0.05 to 0.10 of the probability on
    # another side (0.46 for "a better" with rope 0, where the written scores give 0.42;
    # 0.67 equivalent with rope 0.02, not 0.77)
    a, b = _hundredths(_WRITTEN_A), _hundredths(_WRITTEN_B)
    result = bayesian_signed_rank(_WRITTEN_A, _WRITTEN_B, rope=rope, random_state=1)
    probs = baycomp.SignedRankTest.probs(a, b, 100 * rope, nsamples=50_000, random_state=2)
    expected = (probs[0], 0.0, probs[1]) if rope == 0 else probs
    error = 4 * 0.5 / np.sqrt(50_000)
    assert (result.p_a_better, result.p_equivalent, result.p_b_better) == pytest.approx(
        expected, abs=error
    )


@pytest.mark.parametrize("greater_is_better", [True, False])
def test_every_difference_equal_to_the_rope_up_to_rounding_is_equivalent(greater_is_better):
    # 0.81 against 0.80 on every data set, rope 0.01: every pair sum of two differences is 2
    # rope as written (counting half), so equivalence has more than half of every sample's
    # mass: (0, 1, 0), as baycomp says of the scores in hundredths. The floats' 0.02 + 2e-17
    # counted in full: (0.93, 0.07, 0)
    a = np.array([0.81, 0.71, 0.91, 0.61, 0.51])
    b = np.array([0.80, 0.70, 0.90, 0.60, 0.50])
    probs = baycomp.SignedRankTest.probs(
        _hundredths(a), _hundredths(b), 1.0, nsamples=20_000, random_state=0
    )
    assert tuple(probs) == (0.0, 1.0, 0.0)
    if not greater_is_better:
        a, b = -a, -b
    result = bayesian_signed_rank(a, b, rope=0.01, greater_is_better=greater_is_better)
    assert (result.p_a_better, result.p_equivalent, result.p_b_better) == (0.0, 1.0, 0.0)
