"""multiple_comparison against autorank (Herbold, 2020) on autorank's own README example and
its variants: the same checks, the same choice, the same numbers."""

import re
import warnings

import numpy as np
import pandas as pd
import pytest
from autorank import autorank
from scipy import stats

from sklearn_fair.exceptions import SklearnFairWarning
from sklearn_fair.stats import multiple_comparison


def _readme_data(clip=True, stds=None, n_models=6):
    # autorank's README: six populations of 50 measurements, normal around these means with
    # sd 0.3, clipped to [0, 1]
    np.random.seed(42)
    means = [0.2, 0.3, 0.5, 0.8, 0.85, 0.9][:n_models]
    stds = stds or [0.3] * n_models
    data = pd.DataFrame()
    for i, (mean, std) in enumerate(zip(means, stds)):
        values = np.random.normal(mean, std, 50)
        data[f"pop_{i}"] = values.clip(0, 1) if clip else values
    return data


CASES = {
    "readme (clipped: not normal)": _readme_data(),
    "normal, equal variances": _readme_data(clip=False),
    "normal, unequal variances": _readme_data(clip=False, stds=[0.1, 0.1, 0.3, 0.3, 0.6, 0.6]),
    "two normal": _readme_data(clip=False, n_models=2),
    "two clipped": _readme_data(n_models=2),
}


@pytest.mark.parametrize("name", list(CASES))
def test_the_choice_and_numbers_are_autoranks(name):
    data = CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = autorank(data, alpha=0.05, verbose=False)
    ours = multiple_comparison(data)
    assert ours.all_normal == theirs.all_normal
    assert ours.normality_alpha == pytest.approx(theirs.alpha_normality)
    # autorank reorders its Shapiro p-values (not always into its ranking's order): compare
    # them as a set
    assert sorted(ours.normality_pvalues.values()) == pytest.approx(sorted(theirs.pvals_shapiro))
    assert (
        ours.homogeneity_test
        == {"bartlett": "bartlett", "levene": "levene"}[theirs.homogeneity_test]
    )
    assert ours.homogeneity_pvalue == pytest.approx(theirs.pval_homogeneity)
    assert ours.equal_variances == theirs.homoscedastic
    assert ours.omnibus == theirs.omnibus
    assert ours.posthoc == theirs.posthoc
    if ours.omnibus == "wilcoxon":
        # autorank's Wilcoxon is one-sided, towards the model of larger median
        assert ours.pvalue == pytest.approx(2 * theirs.pvalue)
    elif ours.omnibus == "friedman":
        # autorank's is the chi-square approximation; ours the permutation p-value, here of
        # 9,999 random orders of each data set's ranks, none as extreme as 50 data sets whose
        # chi-square p-value is below 1e-20: (0 + 1) / (9,999 + 1)
        assert theirs.pvalue < 1e-20
        assert ours.pvalue == pytest.approx(1 / 10_000)
    else:
        assert ours.pvalue == pytest.approx(theirs.pvalue)
    if ours.posthoc == "nemenyi":
        # autorank's studentized range comes from statsmodels' qsturng table, ours from scipy
        assert ours.critical_difference == pytest.approx(theirs.cd, rel=1e-3)
        for model, rank in theirs.rankdf["meanrank"].items():
            assert ours.average_ranks[model] == pytest.approx(rank)
    assert ours.family == ("parametric" if ours.omnibus in ("ttest", "anova") else "nonparametric")
    assert f"({ours.homogeneity_pvalue:.3g})" not in ours.paragraph  # p-values read "p = ..."
    if ours.omnibus == "friedman":  # at the Monte Carlo floor: a bound (review35b REV-5)
        assert "p <= 0.0001, Monte Carlo permutation p-value" in ours.paragraph
    else:
        assert f"p = {ours.pvalue:.3g}" in ours.paragraph


def test_the_paragraph_says_why_the_rank_family_was_used():
    result = multiple_comparison(CASES["readme (clipped: not normal)"])
    text = result.paragraph
    assert "rejected normality for" in text and "Because of the non-normal scores" in text
    assert "Friedman's test with Nemenyi's test" in text and "critical difference" in text
    forced = multiple_comparison(CASES["readme (clipped: not normal)"], test="parametric")
    assert forced.omnibus == "anova" and "chosen by the analyst" in forced.paragraph
    # the checks rejected normality, and did not choose the ANOVA: the text does not say so
    assert "choosing the test as autorank does" not in forced.paragraph
    assert "with the parametric family, chosen by the analyst" in forced.paragraph
    unequal = multiple_comparison(CASES["normal, unequal variances"])
    assert "Because of the unequal variances" in unequal.paragraph


def test_two_models_of_unequal_variances_are_not_said_to_use_the_t_test_therefore():
    # Bartlett rejects equal variances (scipy), yet two models get the paired t-test, which
    # does not assume them: the paragraph must not give the rejection as the reason
    rng = np.random.default_rng(5)
    a, b = rng.normal(0.8, 0.01, 10), rng.normal(0.78, 0.06, 10)
    assert stats.bartlett(a, b).pvalue < 0.05
    assert stats.shapiro(a).pvalue >= 0.025 and stats.shapiro(b).pvalue >= 0.025
    result = multiple_comparison({"a": a, "b": b})
    assert result.omnibus == "ttest"
    assert "rejected equal variances" in result.paragraph
    assert "therefore" not in result.paragraph
    assert "does not assume equal variances" in result.paragraph


def test_lower_is_better_reverses_the_ranks_only():
    data = CASES["readme (clipped: not normal)"]
    higher, lower = multiple_comparison(data), multiple_comparison(data, greater_is_better=False)
    k = data.shape[1]
    for model in data.columns:
        assert lower.average_ranks[model] == pytest.approx(k + 1 - higher.average_ranks[model])
    assert lower.pvalue == higher.pvalue


def test_two_models_with_equal_scores_are_not_a_nan():
    # Two models that score the same on every data set: scipy's ttest_rel (and autorank) is
    # 0/0, NaN, which the paragraph printed as "t = nan, p = nan"; the paired t-test of
    # sklearn_fair.stats documents t = 0 and p = 1 there. A difference that is not 0 on
    # every data set still gives scipy's numbers.
    scores = np.array([0.25, 0.5, 0.75, 0.625, 0.375, 0.125, 0.875])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = multiple_comparison({"a": scores, "b": scores.copy()}, test="parametric")
        shifted = multiple_comparison({"a": scores, "b": scores[::-1]}, test="parametric")
        reference = stats.ttest_rel(scores, scores[::-1])
    assert (result.omnibus, result.statistic, result.pvalue) == ("ttest", 0.0, 1.0)
    assert "t = 0, p = 1," in result.paragraph
    assert (shifted.statistic, shifted.pvalue) == pytest.approx(
        (reference.statistic, reference.pvalue)
    )


SCORES = np.array([0.25, 0.5, 0.75, 0.625, 0.375, 0.125, 0.875])


@pytest.mark.parametrize(
    "table",
    [np.full((7, 3), 0.7), np.column_stack([SCORES] * 3)],
    ids=["all the same value", "three identical columns"],
)
def test_anova_of_models_that_score_the_same_is_f_0_p_1_with_a_warning(table):
    # No variance between the models and none left after the data sets: F is 0/0, which
    # statsmodels' AnovaRM computes as rounding noise (F = 0.75 and -0.77 here) and its Tukey
    # HSD as NaN when every score is the same; the convention of rank_comparison's all-ties
    # table instead. The Friedman path of the same table is rank_comparison's.
    with pytest.warns(SklearnFairWarning, match="no differences to compare") as record:
        result = multiple_comparison(table, test="parametric")
    assert [w.filename for w in record if w.category is SklearnFairWarning] == [__file__]
    assert (result.omnibus, result.statistic, result.pvalue) == ("anova", 0.0, 1.0)
    assert (result.pairwise_pvalues == 1.0).all()
    assert "were not shown to differ (F = 0, p = 1," in result.paragraph
    with pytest.warns(SklearnFairWarning, match="no ranks to compare"):
        ranks = multiple_comparison(table, test="nonparametric")
    assert (ranks.statistic, ranks.pvalue) == (0.0, 1.0)
    assert (ranks.pairwise_pvalues == 1.0).all()


def _rm_anova_f(values):
    # the textbook one-way repeated-measures F, from centred sums of squares
    n, k = values.shape
    effects = values.mean(axis=0) - values.mean()
    residuals = values - values.mean(axis=1, keepdims=True) - effects
    return (n * (effects**2).sum() / (k - 1)) / ((residuals**2).sum() / ((k - 1) * (n - 1)))


@pytest.mark.parametrize("shift", [0.125, 0.01])
def test_anova_of_models_that_differ_by_a_constant_is_f_inf_p_0(shift):
    # The models differ by the same amount on every data set: nothing is left after the
    # data sets and models, so F = (between) / 0 is infinite and p = 0, as paired_ttest's t
    # for two models; statsmodels gave F = 1e27-1e29 from a residual of rounding noise.
    table = np.column_stack([SCORES, SCORES + shift, SCORES + 2 * shift])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = multiple_comparison(table, test="parametric")
        two = multiple_comparison(table[:, :2], test="parametric")
        ranks = multiple_comparison(table, test="nonparametric")
    assert (result.statistic, result.pvalue) == (np.inf, 0.0)
    assert (abs(two.statistic), two.pvalue) == (np.inf, 0.0)
    # Friedman: every data set ranks the models 3, 2, 1: chi2 = N (k - 1) = 14, and the
    # exact p-value that of the other six data sets agreeing with the first, 6 ** -6 (the
    # chi-square distribution's exp(-14 / 2) was 42 times as large)
    assert ranks.statistic == pytest.approx(14.0)
    assert ranks.pvalue == pytest.approx(6.0**-6)
    # A residual far below any real score's precision but above rounding is statsmodels' F.
    table[0, 0] += 1e-9
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nearly = multiple_comparison(table, test="parametric")
    assert np.isfinite(nearly.statistic)
    assert nearly.statistic == pytest.approx(_rm_anova_f(table), rel=1e-6)


def test_models_with_constant_scores_are_not_normal():
    # Each model scores the same on every data set. Before, scipy's Shapiro-Wilk gave p = 1
    # for these 0/0 W (with its "range zero" warning) and Bartlett p = 0.99999999999989 from
    # rounding noise, so "auto" used the ANOVA (F = inf, p = 0 from 7 data sets). A normal
    # sample of positive variance has no ties: the rank family, which assumes nothing of it.
    table = np.column_stack([np.full(7, 0.7), np.full(7, 0.8), np.full(7, 0.9)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = multiple_comparison(table)
    assert result.normality_pvalues == {"model_0": 0.0, "model_1": 0.0, "model_2": 0.0}
    assert (result.homogeneity_test, result.homogeneity_pvalue) == ("levene", 1.0)
    assert (result.family, result.omnibus) == ("nonparametric", "friedman")
    # every data set ranks the models 3, 2, 1: chi2 = N (k - 1) = 14, exact p = 6 ** -6
    assert result.statistic == pytest.approx(14.0)
    assert result.pvalue == pytest.approx(6.0**-6)
    assert "Because of the non-normal scores" in result.paragraph


def test_one_constant_model_is_tested_with_levene_not_bartlett():
    # Bartlett's test of a zero variance is the log of rounding noise (p = 6.6e-85 here)
    table = np.column_stack([np.full(7, 0.7), SCORES, 0.9 * SCORES[::-1]])
    result = multiple_comparison(table)
    assert (result.homogeneity_test, result.all_normal) == ("levene", False)
    assert result.homogeneity_pvalue == pytest.approx(stats.levene(*table.T).pvalue)
    assert result.normality_pvalues["model_1"] == pytest.approx(stats.shapiro(SCORES).pvalue)


def test_anova_f_of_models_with_equal_means_is_not_negative():
    # Each model's scores are the same values in another order: the means are equal, so the
    # model sum of squares is 0 (up to rounding) while the residual is not. statsmodels' F
    # came out -1.46e-14 here, printed as "F = -1.46e-14"; a ratio of sums of squares is >= 0.
    rng = np.random.default_rng(0)
    base = rng.normal(0.8, 0.02, 8)
    table = np.column_stack([rng.permutation(base) for _ in range(3)])
    result = multiple_comparison(table, test="parametric")
    assert result.statistic >= 0.0
    assert result.statistic == pytest.approx(_rm_anova_f(table), abs=1e-12)
    assert result.pvalue == pytest.approx(stats.f.sf(_rm_anova_f(table), 2, 14))
    assert "F = -" not in result.paragraph


@pytest.mark.parametrize(
    "scores, kwargs, match",
    [
        (np.ones((4, 3)), {}, "at least 5 data sets"),
        (np.ones((6, 1)), {}, "at least 2 models"),
        (np.arange(18.0).reshape(6, 3), {"test": "t"}, "'test' parameter"),
        (np.arange(18.0).reshape(6, 3), {"alpha": 0}, "'alpha' parameter"),
    ],
)
def test_bad_input_is_refused(scores, kwargs, match):
    with pytest.raises(ValueError, match=match):
        multiple_comparison(scores, **kwargs)


def test_a_dict_of_series_is_paired_by_data_set_not_by_position():
    # two Series of six data sets in other orders: the Wilcoxon test of the aligned scores
    index = ["d1", "d2", "d3", "d4", "d5", "d6"]
    a = pd.Series([0.90, 0.80, 0.70, 0.60, 0.85, 0.75], index=index)
    b = pd.Series([0.80, 0.71, 0.62, 0.50, 0.74, 0.66], index=index).iloc[::-1]
    result = multiple_comparison({"a": a, "b": b}, test="nonparametric")
    reference = stats.wilcoxon(a.to_numpy(), b.reindex(index).to_numpy())
    assert (result.statistic, result.pvalue) == (reference.statistic, reference.pvalue)


@pytest.mark.parametrize("scale", [1.0, 0.1])
def test_levene_of_equal_spreads_is_one_not_nan_or_rounding_noise(scale):
    # each model's scores lie at one distance from its median, the same for every model:
    # Levene's W is 0/0 (scipy's NaN on the integers), so the variances are not shown to
    # differ, p = 1, as for constant scores. Shifted by 0.1 (and scaled), scipy's W was
    # rounding noise, p from 4e-7 to 0.03, and the paragraph said "rejected equal variances"
    integers = np.array([[0, 3, 6], [0, 3, 6], [0, 3, 6], [2, 5, 8], [2, 5, 8], [2, 5, 8]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert np.isnan(stats.levene(*integers.T).statistic)
    np.testing.assert_array_equal(np.var(integers, axis=0), [1.0, 1.0, 1.0])
    result = multiple_comparison(scale * integers + 0.1)
    assert (result.homogeneity_test, result.homogeneity_pvalue) == ("levene", 1.0)
    assert result.equal_variances
    assert "did not reject equal variances (p = 1)" in result.paragraph


def test_two_models_that_score_the_same_get_our_wilcoxon_warning_not_scipys():
    # identical constant columns are not normal, so the rank family: Wilcoxon's test with no
    # difference to rank, W = 0 and p = 1 (scipy's values, with its RuntimeWarning of 0/0)
    table = {"a": np.full(6, 0.8), "b": np.full(6, 0.8)}
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.warns(SklearnFairWarning, match="'a' and 'b' score the same"):
            result = multiple_comparison(table)
    assert (result.omnibus, result.statistic, result.pvalue) == ("wilcoxon", 0.0, 1.0)


def test_two_models_equal_but_for_rounding_are_equal_as_for_the_anova():
    # 0.1 + 0.2 against 0.3 ...: the same numbers. Three such models: the ANOVA's F is 0, p 1
    # (its rounding tolerance); two: the paired t-test's t was rounding noise's, 2.93, and the
    # paragraph said "the models differ (p = 0.0327)"; by hand, every difference is 0
    parts = [(0.1, 0.2), (0.2, 0.4), (0.4, 0.8), (0.8, 0.9), (0.2, 0.1), (0.3, 0.3)]
    sums = np.array([x + y for x, y in parts])
    totals = np.array([0.3, 0.6, 1.2, 1.7, 0.3, 0.6])
    two = multiple_comparison({"a": sums, "b": totals}, test="parametric")
    with pytest.warns(SklearnFairWarning, match="no differences to compare"):
        three = multiple_comparison({"a": sums, "b": totals, "c": totals}, test="parametric")
    assert (three.statistic, three.pvalue) == (0.0, 1.0)
    assert (two.omnibus, two.statistic, two.pvalue) == ("ttest", 0.0, 1.0)
    assert "were not shown to differ (t = 0, p = 1," in two.paragraph


def test_two_models_equal_but_for_rounding_are_equal_for_the_rank_family_too():
    # the same scores as above through Wilcoxon's test: the rounding noise (5.6e-17 ...) was
    # ranked as differences (p = 0.03-0.06 by scipy); by hand every difference is 0, as the
    # paired t-test and the ANOVA count them
    parts = [(0.1, 0.2), (0.2, 0.4), (0.4, 0.8), (0.8, 0.9), (0.2, 0.1), (0.3, 0.3)]
    sums = np.array([x + y for x, y in parts])
    totals = np.array([0.3, 0.6, 1.2, 1.7, 0.3, 0.6])
    assert np.count_nonzero(sums - totals) > 0  # not equal to the bit
    with pytest.warns(SklearnFairWarning, match="score the same on every data set"):
        two = multiple_comparison({"a": sums, "b": totals}, test="nonparametric")
    assert (two.omnibus, two.statistic, two.pvalue) == ("wilcoxon", 0.0, 1.0)
    # real differences beside rounding noise: the noise is dropped as a zero difference, as
    # scipy drops the exact zeros of the same differences written by hand
    offsets = np.array([0.1, 0.05, 0.0, 0.2, 0.0, 0.03])
    ours = multiple_comparison({"a": totals + offsets, "b": sums}, test="nonparametric")
    reference = stats.wilcoxon(offsets)
    assert ours.statistic == reference.statistic
    assert ours.pvalue == pytest.approx(reference.pvalue, rel=1e-12)


@pytest.mark.parametrize("target", [0.050004, 0.04996])
def test_paragraph_puts_each_pvalue_on_its_side_of_alpha(target):
    # two p-values that both print "0.05" at 3 significant digits read the same beside opposite
    # verdicts; scipy's paired t-test is the reference for the p-value the paragraph quotes
    from scipy.optimize import brentq

    rng = np.random.default_rng(0)
    b, noise = rng.normal(0.8, 0.03, 12), rng.normal(0, 0.02, 12)
    noise -= noise.mean()
    shift = brentq(lambda s: stats.ttest_rel(b + s + noise, b).pvalue - target, 1e-6, 0.1)
    result = multiple_comparison({"x": b + shift + noise, "y": b}, test="parametric")
    assert result.pvalue == pytest.approx(target, abs=1e-9)
    quoted = float(re.search(r"t = [^,]+, p = ([0-9.e-]+),", result.paragraph).group(1))
    assert (quoted < 0.05) == (target < 0.05) and quoted != 0.05
