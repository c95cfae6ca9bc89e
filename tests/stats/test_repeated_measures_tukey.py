"""multiple_comparison's Tukey HSD pairs the scores by data set, as the repeated-measures ANOVA
it follows (against statsmodels' two-way ANOVA and scipy's studentized range), and
repeated_measures_comparison keeps statsmodels' convergence warnings only for a fit that did
not converge (hunt STATS36)."""

import warnings
from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from sklearn_fair.stats import multiple_comparison, repeated_measures_comparison

pytest.importorskip("statsmodels")

# three models on six data sets of levels 0.60 to 0.95: boosting 0.01 above forest and linear
# 0.03 below it on every data set, plus noise of +-0.002
LEVELS = np.array([0.60, 0.67, 0.74, 0.81, 0.88, 0.95])
NOISE = np.array(
    [
        [0.002, -0.001, 0.001],
        [-0.002, 0.001, 0.000],
        [0.001, 0.002, -0.002],
        [0.000, -0.002, 0.001],
        [-0.001, 0.000, 0.002],
        [0.002, 0.001, -0.001],
    ]
)
SHIFTED = {
    "forest": LEVELS + NOISE[:, 0],
    "boosting": LEVELS + 0.01 + NOISE[:, 1],
    "linear": LEVELS - 0.03 + NOISE[:, 2],
}


def _two_way_tukey(scores):
    # Tukey's HSD whose error is the residual mean square of statsmodels' two-way ANOVA
    # (data set + model, no interaction), on its residual degrees of freedom
    from statsmodels.formula.api import ols
    from statsmodels.stats.anova import anova_lm

    table = pd.DataFrame(scores)
    n, k = table.shape
    long = table.rename_axis("dataset").reset_index().melt("dataset", var_name="model")
    anova = anova_lm(ols("value ~ C(dataset) + C(model)", data=long).fit())
    mean_square, df = anova.loc["Residual", ["mean_sq", "df"]]
    means = table.mean().to_numpy()
    reference = np.ones((k, k))
    for i, j in combinations(range(k), 2):
        q = abs(means[i] - means[j]) / np.sqrt(mean_square / n)
        reference[i, j] = reference[j, i] = stats.studentized_range.sf(q, k, df)
    return reference


def _random_table():
    rng = np.random.default_rng(36)
    return pd.DataFrame(
        rng.normal([0.80, 0.81, 0.78, 0.80], 0.02, size=(9, 4)) + rng.normal(0, 0.1, (9, 1)),
        columns=["a", "b", "c", "d"],
    )


@pytest.mark.parametrize(
    "scores", [SHIFTED, _random_table()], ids=["models shifted on every data set", "random"]
)
@pytest.mark.parametrize("greater_is_better", [True, False])
def test_tukey_pvalues_are_the_two_way_anova_residuals(scores, greater_is_better):
    # the hunt's table: F = 817, p = 2.95e-11, but statsmodels' unpaired pairwise_tukeyhsd
    # gave p = 0.99, 0.92, 0.86 ("separates no pair"); the repeated-measures Tukey 6.7e-06,
    # 1.4e-10, 8.5e-12
    result = multiple_comparison(scores, test="parametric", greater_is_better=greater_is_better)
    assert result.posthoc == "tukeyhsd"
    np.testing.assert_allclose(result.pairwise_pvalues, _two_way_tukey(scores), rtol=1e-7)


def test_the_paragraph_separates_models_that_differ_on_every_data_set():
    text = multiple_comparison(SHIFTED).paragraph
    assert "ANOVA with Tukey's HSD on the data sets x models residual, the models differ" in text
    assert (
        "Tukey's HSD separates forest and boosting (p = 6.66e-06), forest and linear "
        "(p = 1.4e-10) and boosting and linear (p < 1e-10)." in text
    )


def test_models_a_constant_apart_are_separated_without_error():
    # no residual: F = inf and p = 0, and so Tukey's p (0 apart, 1 for equal means)
    column = LEVELS
    table = np.column_stack([column, column + 0.01, column + 0.01, column - 0.03])
    result = multiple_comparison(table, test="parametric")
    assert (result.statistic, result.pvalue) == (np.inf, 0.0)
    expected = np.zeros((4, 4))
    expected[1, 2] = expected[2, 1] = 1.0
    np.fill_diagonal(expected, 1.0)
    np.testing.assert_array_equal(result.pairwise_pvalues, expected)


def test_converged_fit_keeps_no_failed_optimisation_note():
    # statsmodels' first optimizer fails, lbfgs converges: the notes said "Maximum
    # Likelihood optimization failed to converge" and "Retrying MixedLM optimization with
    # lbfgs" beside numbers that are the closed form
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = repeated_measures_comparison([[0.8, 0.8, 0.8], [0.8, 0.8, 0.8], [0.8, 0.8, 0.9]])
    assert result.fit.converged
    assert not any("converge" in note or "Retrying" in note for note in result.notes), result.notes
    assert any("fold variance is at its boundary" in note for note in result.notes)


def test_fit_that_did_not_converge_keeps_its_notes():
    table = [
        [0.78, 0.77, 0.81, 0.81],
        [0.84, 0.80, 0.78, 0.78],
        [0.76, 0.89, 0.75, 0.81],
        [0.81, 0.78, 0.78, 0.80],
        [0.80, 0.76, 0.79, 0.82],
        [0.76, 0.76, 0.77, 0.79],
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = repeated_measures_comparison(table)
    assert not result.fit.converged
    assert any("failed to converge" in note for note in result.notes), result.notes
