"""Scores of extreme magnitude: the package's one scaling rule (``utils._scaling``).

Scaling every score by ``2**e`` is exact in floating point: the scale-free outputs (t, F,
p-values, verdicts, the chosen test) are those at ``e = 0``, the outputs in the scores' units
``2**e`` times them. The ``e = 0`` outputs are checked against scipy, statsmodels or a hand
computation.
"""

import statistics
from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.anova import AnovaRM

from sklearn_fair.stats import (
    _choice,
    multiple_comparison,
    normalize_scores,
    pilot_effect,
    repeated_measures_comparison,
)

# past 2**100 squares overflow near 2**512; under 2**-100 they underflow (subnormal near
# 2**-511, 0 under 2**-537)
EXPONENTS = [-540, -529, 520, 997]

RMC_TABLE = np.array(
    [
        [0.84, 0.89, 0.74],
        [0.83, 0.83, 0.77],
        [0.76, 0.94, 0.81],
        [0.82, 0.91, 0.77],
        [0.83, 0.97, 0.80],
        [0.83, 0.89, 0.85],
    ]
)
MC_TABLE = np.array(
    [
        [0.81, 0.86, 0.78],
        [0.84, 0.88, 0.80],
        [0.79, 0.85, 0.77],
        [0.86, 0.91, 0.83],
        [0.83, 0.87, 0.80],
        [0.80, 0.86, 0.79],
    ]
)


def _two_way_reference(table):
    """By hand: each model's mean, REML's residual variance where the fold variance is 0 (the
    one-way within-model mean square: here the folds vary less than the noise), and the
    within-fold t of each pair on the two-way ANOVA's residual mean square, ``(n - 1)(k - 1)``
    df."""
    n, k = table.shape
    residuals = table - table.mean(axis=0) - table.mean(axis=1, keepdims=True) + table.mean()
    df = (n - 1) * (k - 1)
    mean_square = float(np.sum(residuals**2) / df)
    error = np.sqrt(2 * mean_square / n)
    means = table.mean(axis=0)
    fold_mean_square = k * np.sum((table.mean(axis=1) - table.mean()) ** 2) / (n - 1)
    assert fold_mean_square <= mean_square  # REML's tau^2 is 0
    pooled = float(np.sum((table - means) ** 2) / (n * k - k))
    pairs = []
    for a, b in combinations(range(k), 2):
        t = (means[a] - means[b]) / error
        pairs.append((means[a] - means[b], t, 2 * stats.t.sf(abs(t), df)))
    return means, pooled, pairs


def test_repeated_measures_reference_at_scale_one():
    means, residual_variance, pairs = _two_way_reference(RMC_TABLE)
    result = repeated_measures_comparison(RMC_TABLE)
    np.testing.assert_allclose(result.effects, means, rtol=1e-6)
    np.testing.assert_allclose(result.table["estimate"], [p[0] for p in pairs], rtol=1e-6)
    np.testing.assert_allclose(result.table["statistic"], [p[1] for p in pairs], rtol=1e-6)
    np.testing.assert_allclose(result.table["pvalue"], [p[2] for p in pairs], rtol=1e-6)
    assert result.fold_variance == 0.0
    assert result.residual_variance == pytest.approx(residual_variance, rel=1e-9)


@pytest.mark.parametrize("exponent", EXPONENTS)
def test_repeated_measures_at_any_scale(exponent):
    reference = repeated_measures_comparison(RMC_TABLE)
    _, residual_variance, pairs = _two_way_reference(RMC_TABLE)
    result = repeated_measures_comparison(np.ldexp(RMC_TABLE, exponent))
    # scale-free: t, p, Holm p and the verdicts are those at scale 1 (and by hand)
    np.testing.assert_allclose(result.table["statistic"], [p[1] for p in pairs], rtol=1e-9)
    for column in ("statistic", "pvalue", "pvalue_holm"):
        np.testing.assert_allclose(result.table[column], reference.table[column], rtol=1e-9)
    assert result.table["verdict"].tolist() == reference.table["verdict"].tolist()
    assert reference.table["verdict"].tolist() == [
        "model 1 better",
        "difference not demonstrated",
        "model 1 better",
    ]
    # in the scores' units: 2**e times those at scale 1
    for column in ("estimate", "ci_low", "ci_high"):
        np.testing.assert_allclose(
            result.table[column], np.ldexp(reference.table[column], exponent), rtol=1e-9
        )
    np.testing.assert_allclose(result.effects, np.ldexp(reference.effects, exponent), rtol=1e-9)
    # the variances, in squared units, lie beyond the range of floats here: inf, or under
    # the smallest normal float, and a note gives their square roots
    assert result.fold_variance == 0.0 == reference.fold_variance
    if exponent > 0:
        assert result.residual_variance == np.inf
    else:
        assert result.residual_variance < np.finfo(float).tiny
    root = float(np.ldexp(np.sqrt(residual_variance), exponent))
    assert any(f"{root:.3g}" in note for note in result.notes), result.notes


def _anova_reference(table):
    """statsmodels' repeated-measures ANOVA of ``table``, data sets by models: (F, p), p on
    the degrees of freedom scaled by Greenhouse and Geisser's epsilon (by hand)."""
    n, k = table.shape
    long = pd.DataFrame(
        {
            "score": table.ravel(),
            "model": np.tile([f"m{j}" for j in range(k)], n),
            "dataset": np.repeat(np.arange(n), k),
        }
    )
    anova = AnovaRM(long, "score", "dataset", within=["model"]).fit().anova_table
    f = float(anova["F Value"].iloc[0])
    centring = np.eye(k) - 1.0 / k
    v = centring @ np.cov(table, rowvar=False) @ centring
    epsilon = np.trace(v) ** 2 / ((k - 1) * np.sum(v * v))
    return f, float(stats.f.sf(f, epsilon * (k - 1), epsilon * (k - 1) * (n - 1)))


@pytest.mark.parametrize("exponent", EXPONENTS)
def test_multiple_comparison_at_any_scale(exponent):
    bartlett = stats.bartlett(*MC_TABLE.T).pvalue
    f_value, f_pvalue = _anova_reference(MC_TABLE)
    scaled = np.ldexp(MC_TABLE, exponent)
    for test in ("auto", "parametric"):
        result = multiple_comparison(scaled, test=test)
        assert result.family == "parametric"
        assert result.omnibus == "anova"
        assert result.homogeneity_test == "bartlett"
        assert result.homogeneity_pvalue == pytest.approx(bartlett, rel=1e-9)
        assert result.equal_variances
        assert result.statistic == pytest.approx(f_value, rel=1e-9)
        assert result.pvalue == pytest.approx(f_pvalue, rel=1e-9)
        np.testing.assert_allclose(
            list(result.centers.values()), np.ldexp(MC_TABLE.mean(axis=0), exponent), rtol=1e-12
        )
    assert "did not reject equal variances (p = 0.848)" in result.paragraph


def test_multiple_comparison_untested_variances_are_not_rejected(monkeypatch):
    # a homogeneity test that gives no p-value did not reject equal variances: the paragraph
    # must not say it did (it said "rejected equal variances (p = n/a)")
    monkeypatch.setattr(_choice, "_homogeneity_pvalue", lambda values, all_normal: np.nan)
    result = multiple_comparison(MC_TABLE)
    assert not result.equal_variances
    assert result.family == "nonparametric"
    text = result.paragraph
    assert "rejected equal variances" not in text
    assert "unequal variances" not in text
    assert "Bartlett's test of equal variances could not be computed (p = n/a)" in text
    assert "Because of the untested variances, the rank-based family was used." in text


A = np.array([0.81, 0.84, 0.79, 0.88, 0.83])
B = np.array([0.78, 0.80, 0.79, 0.83, 0.80])


@pytest.mark.parametrize("exponent", [-545, *EXPONENTS])
def test_pilot_effect_at_any_scale(exponent):
    differences = [float(x) for x in A - B]
    delta, sd = statistics.fmean(differences), statistics.stdev(differences)
    pilot = pilot_effect(np.ldexp(A, exponent), np.ldexp(B, exponent), n_folds=5)
    assert pilot["delta"] == pytest.approx(float(np.ldexp(delta, exponent)), rel=1e-12, abs=0)
    assert pilot["sd"] == pytest.approx(float(np.ldexp(sd, exponent)), rel=1e-12, abs=0)
    assert pilot["n_repeats"] == 1


@pytest.mark.parametrize(
    "scores, low, high, expected",
    [
        ([0.0, 1e308, -1e308], -1e308, 1e308, [0.5, 1.0, 0.0]),
        ([1.5e308, 0.0], -1.5e308, 1.5e308, [1.0, 0.5]),
        ([-1e308, 1e308], -1.5e308, 1.5e308, [1 / 6, 5 / 6]),
    ],
)
def test_normalize_scores_near_the_largest_float(scores, low, high, expected):
    # (score - low) / (high - low) by hand in exact rationals: high - low overflowed to inf
    np.testing.assert_allclose(normalize_scores(scores, low=low, high=high), expected, rtol=1e-15)
