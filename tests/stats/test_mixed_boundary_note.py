"""repeated_measures_comparison's note on a fold variance at 0 reads scale-free facts.

statsmodels warns "The MLE may be on the boundary of the parameter space." whenever the fitted
fold variance is below 0.01 in the scores' units: true of almost every table of accuracies,
and false at the boundary for large scores. The note must say the same at every scale.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
import statsmodels.formula.api as smf

from sklearn_fair.stats import repeated_measures_comparison


def _mean_squares(values):
    """The two-way ANOVA's fold and residual mean squares, folds (rows) by models."""
    n, k = values.shape
    residuals = values - values.mean(0) - values.mean(1, keepdims=True) + values.mean()
    residual = (residuals**2).sum() / ((n - 1) * (k - 1))
    fold = k * ((values.mean(1) - values.mean()) ** 2).sum() / (n - 1)
    return fold, residual


def _statsmodels_formula_fit(values):
    long = pd.DataFrame(
        {
            "score": values.ravel(),
            "model": np.tile([f"m{j}" for j in range(values.shape[1])], values.shape[0]),
            "fold": np.repeat(np.arange(values.shape[0]), values.shape[1]),
        }
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return smf.mixedlm("score ~ 0 + C(model)", long, groups=long["fold"]).fit(reml=True)


def _folds_vary():
    # the hunt's case: 6 folds x 3 models, fold sd 0.02 above the noise sd 0.01
    rng = np.random.default_rng(12)
    fold = rng.normal(0, 0.02, (6, 1))
    values = 0.8 + fold + rng.normal(0, 0.01, (6, 3))
    values[:, 0] += 0.02
    return values


def _folds_do_not_vary(seed=1):
    # model effects plus independent noise, no fold effect
    rng = np.random.default_rng(seed)
    return np.array([0.80, 0.82, 0.81]) + rng.normal(0, 0.01, (6, 3))


@pytest.mark.parametrize("scale", [1, 1000])
def test_a_clear_fold_variance_gets_no_boundary_note(scale):
    values = _folds_vary()
    fold, residual = _mean_squares(values)
    k = values.shape[1]
    # the method of moments: tau^2 = 5.70e-4, 14 times s^2 = 4.12e-5
    assert (fold - residual) / k == pytest.approx(5.70e-4, rel=1e-3)
    assert residual == pytest.approx(4.12e-5, rel=1e-3)
    result = repeated_measures_comparison(values * scale)
    assert not any("boundary" in note for note in result.notes), result.notes
    reference = _statsmodels_formula_fit(values * scale)
    assert result.fold_variance == pytest.approx(float(reference.cov_re.iloc[0, 0]), rel=1e-4)
    assert result.residual_variance == pytest.approx(float(reference.scale), rel=1e-4)
    # and REML's in the balanced design: the method of moments where it is above 0
    assert result.fold_variance == pytest.approx(scale**2 * (fold - residual) / k, rel=1e-3)
    assert result.residual_variance == pytest.approx(scale**2 * residual, rel=1e-3)
    assert "note" not in repr(result)


@pytest.mark.parametrize("scale", [1, 1000, 1e6])
def test_folds_varying_a_little_more_than_the_noise_get_no_boundary_note(scale):
    values = _folds_do_not_vary(seed=5)
    fold, residual = _mean_squares(values)
    assert fold == pytest.approx(1.11 * residual, rel=1e-2)  # tau^2 > 0, if small
    result = repeated_measures_comparison(values * scale)
    assert not any("boundary" in note for note in result.notes), result.notes
    k = values.shape[1]
    assert result.fold_variance == pytest.approx(scale**2 * (fold - residual) / k, rel=1e-2)


@pytest.mark.parametrize("scale", [1, 1000, 1e7])
def test_a_fold_variance_at_zero_gets_a_note_at_every_scale(scale):
    # at 1e7 the fitted fold variance (1.3e-10 s^2 = 0.4) passed statsmodels' 0.01: no note
    values = _folds_do_not_vary()
    fold, residual = _mean_squares(values)
    assert fold == pytest.approx(0.97 * residual, rel=1e-2)  # tau^2 < 0: REML's is 0
    result = repeated_measures_comparison(values * scale)
    assert len(result.notes) == 1 and "boundary" in result.notes[0], result.notes
    # REML's tau^2 is 0 here, and s^2 the pooled mean square: before, the optimizer's stop
    # (3.26e-08 at scale 1, 3.26e+06 at 1e7) was printed above the note that it is 0
    assert result.fold_variance == 0.0
    n, k = values.shape
    pooled = (fold * (n - 1) + residual * (n - 1) * (k - 1)) / ((n - 1) + (n - 1) * (k - 1))
    assert result.residual_variance == pytest.approx(scale**2 * pooled, rel=1e-9)
    reference = _statsmodels_formula_fit(values * scale)
    assert float(reference.cov_re.iloc[0, 0]) < 1e-3 * float(reference.scale)
    assert result.residual_variance == pytest.approx(float(reference.scale), rel=1e-3)
    assert "note: the fold variance is at its boundary, 0" in repr(result)
