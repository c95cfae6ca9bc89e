"""repeated_measures_comparison against statsmodels' MixedLM called directly."""

import numpy as np
import pandas as pd
import pytest
import statsmodels.formula.api as smf
from statsmodels.stats.multitest import multipletests

from sklearn_fair.stats import repeated_measures_comparison


def _scores(seed=0, n_folds=10, effects=(0.80, 0.82, 0.86, 0.81)):
    rng = np.random.default_rng(seed)
    fold = rng.normal(0.0, 0.03, size=(n_folds, 1))  # some folds are harder for every model
    noise = rng.normal(0.0, 0.01, size=(n_folds, len(effects)))
    names = ["lasso", "forest", "boosting", "knn"][: len(effects)]
    return pd.DataFrame(np.asarray(effects) + fold + noise, columns=names)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_contrast_is_statsmodels_treatment_coefficient(seed):
    scores = _scores(seed)
    result = repeated_measures_comparison(scores)
    long = pd.DataFrame(
        {
            "score": scores.to_numpy().ravel(),
            "model": np.tile(scores.columns, len(scores)),
            "fold": np.repeat(np.arange(len(scores)), scores.shape[1]),
        }
    )
    pvalues = []
    for row in result.table.itertuples(index=False):
        # The same model in statsmodels' default treatment coding with model_b as the
        # reference level: the coefficient of model_a is the difference a - b.
        fit = smf.mixedlm(
            f"score ~ C(model, Treatment(reference='{row.model_b}'))",
            long,
            groups=long["fold"],
        ).fit(reml=True)
        name = f"C(model, Treatment(reference='{row.model_b}'))[T.{row.model_a}]"
        assert row.estimate == pytest.approx(fit.params[name], rel=1e-6, abs=1e-8)
        assert row.pvalue == pytest.approx(fit.pvalues[name], rel=1e-4, abs=1e-12)
        low, high = fit.conf_int(alpha=0.05).loc[name]
        assert (row.ci_low, row.ci_high) == pytest.approx((low, high), rel=1e-4, abs=1e-6)
        assert row.statistic == pytest.approx(fit.tvalues[name], rel=1e-4)
        pvalues.append(fit.pvalues[name])
    reject, adjusted, _, _ = multipletests(pvalues, alpha=0.05, method="holm")
    np.testing.assert_allclose(result.table["pvalue_holm"], adjusted, rtol=1e-4)
    demonstrated = result.table["verdict"] != "difference not demonstrated"
    assert demonstrated.tolist() == reject.tolist()


def test_effects_and_variances_are_recovered():
    # 200 folds: the estimates lie close to the truth they were drawn from.
    result = repeated_measures_comparison(_scores(3, n_folds=200))
    np.testing.assert_allclose(result.effects, [0.80, 0.82, 0.86, 0.81], atol=0.006)
    assert result.fold_variance == pytest.approx(0.03**2, rel=0.3)
    assert result.residual_variance == pytest.approx(0.01**2, rel=0.15)
    # Differences of 0.01 and more, with a noise of 0.01 and 200 folds: all demonstrated.
    assert (result.table["verdict"] != "difference not demonstrated").all()
    boosting_lasso = result.table.query("model_a == 'boosting' and model_b == 'knn'")
    assert boosting_lasso["verdict"].item() == "boosting better"


def test_prints_and_accepts_arrays():
    result = repeated_measures_comparison(_scores().to_numpy())
    assert list(result.effects.index) == ["model 0", "model 1", "model 2", "model 3"]
    text = repr(result)
    assert text.startswith("repeated_measures_comparison(): 4 models on 10 shared folds")
    assert "model 0 - model 1: " in text and "Holm p = " in text


@pytest.mark.parametrize(
    "scores, match",
    [
        ([0.8, 0.9], "2-D table"),
        ([[0.8, 0.9]], "at least 2 folds"),
        ([[0.8], [0.9]], "2 model"),
        ([[0.8, np.nan], [0.9, 0.8]], "NaN"),
    ],
)
def test_bad_tables(scores, match):
    with pytest.raises(ValueError, match=match):
        repeated_measures_comparison(scores)
