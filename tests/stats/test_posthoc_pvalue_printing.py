"""What the many-models paragraph prints of tiny post-hoc p-values and of p equal to alpha."""

import re

import numpy as np
import pytest
from scipy import stats

from sklearn_fair.stats import multiple_comparison


def _far_apart_table():
    rng = np.random.default_rng(0)
    n = 40
    base = rng.normal(0.8, 0.05, n)
    return {
        "a": base,
        "b": base - 0.02 + rng.normal(0, 0.001, n),
        "c": base - 0.04 + rng.normal(0, 0.001, n),
    }


def _ranks(table):
    values = np.column_stack(list(table.values()))
    return stats.rankdata(-values, axis=1).mean(axis=0)


@pytest.mark.parametrize("test", ["nonparametric", "parametric"])
def test_tiny_posthoc_pvalues_do_not_print_as_zero(test):
    if test == "parametric":
        pytest.importorskip("statsmodels")
    table = _far_apart_table()
    n, k = len(table["a"]), len(table)
    # independent lower bound of a vs c: the range of k is at least |X_a - X_c|
    if test == "nonparametric":  # Nemenyi: q of the average ranks, on infinite df
        ranks = _ranks(table)
        q = abs(ranks[0] - ranks[2]) / np.sqrt(k * (k + 1) / (6 * n)) * np.sqrt(2)
        bound = 2 * stats.norm.sf(q / np.sqrt(2))
    else:  # Tukey: the repeated-measures residual on (n - 1)(k - 1) df
        values = np.column_stack(list(table.values()))
        effects = values.mean(axis=0) - values.mean()
        residuals = values - values.mean(axis=1, keepdims=True) - effects
        df = (n - 1) * (k - 1)
        error = np.sqrt(np.sum(residuals**2) / df / n)
        q = abs(effects[0] - effects[2]) / error
        bound = 2 * stats.t.sf(q / np.sqrt(2), df)
    assert 0 < bound < 1e-15  # a p-value that is positive, below scipy's precision
    text = multiple_comparison(table, test=test).paragraph
    pairs = re.findall(r"(\w) and (\w) \((p [^)]*)\)", text.split("separates", 1)[1])
    said = {(a, b): p for a, b, p in pairs}
    assert said[("a", "c")] == "p < 1e-10"
    for p in said.values():  # no pair's p-value printed as a number below the bound
        number = re.fullmatch(r"p = (\S+)", p)
        assert number is None or float(number.group(1)) >= bound
    assert "(p = 0)" not in text


def test_posthoc_pvalues_above_the_floor_print_as_before():
    table = _far_apart_table()
    result = multiple_comparison(table, test="nonparametric")
    ranks = _ranks(table)
    k, n = len(table), len(table["a"])
    q = abs(ranks[0] - ranks[1]) / np.sqrt(k * (k + 1) / (6 * n)) * np.sqrt(2)
    expected = stats.studentized_range.sf(q, k, np.inf)  # about 2.3e-05, precise there
    assert result.pairwise_pvalues[0, 1] == pytest.approx(expected, rel=1e-9)
    assert f"a and b (p = {expected:.3g})" in result.paragraph


def test_p_equal_to_alpha_rejects_in_the_paragraph():
    a = [0.81, 0.72, 0.93, 0.64, 0.85]
    b = [0.80, 0.70, 0.90, 0.60, 0.80]
    exact = stats.wilcoxon(np.subtract(a, b)).pvalue  # 2 / 2**5, every difference positive
    assert exact == 0.0625
    text = str(multiple_comparison({"a": a, "b": b}, test="nonparametric", alpha=exact))
    assert "the models differ (W = 0, p = 0.0625" in text
    assert "not shown to differ" not in text


def test_pair_at_alpha_is_separated():
    pytest.importorskip("statsmodels")
    rng = np.random.default_rng(1)
    base = rng.normal(0.8, 0.05, 12)
    table = {
        "a": base,
        "b": base - 0.002 + rng.normal(0, 0.002, 12),
        "c": base - 0.04 + rng.normal(0, 0.002, 12),
    }
    level = float(multiple_comparison(table, test="parametric").pairwise_pvalues[0, 1])
    assert 1e-4 < level < 0.5
    at_level = multiple_comparison(table, test="parametric", alpha=level)
    assert at_level.pvalue < level  # the ANOVA rejects: the post-hoc pairs are listed
    assert "a and b (p = " in at_level.paragraph.split("separates", 1)[1]
