"""repeated_measures_comparison against statsmodels' MixedLM called directly."""

import numpy as np
import pandas as pd
import pytest
import statsmodels.formula.api as smf
from scipy import stats
from scipy.optimize import brentq
from statsmodels.stats.multitest import multipletests

from sklearn_fair.stats import repeated_measures_comparison


def _scores(seed=0, n_folds=10, effects=(0.80, 0.82, 0.86, 0.81)):
    rng = np.random.default_rng(seed)
    fold = rng.normal(0.0, 0.03, size=(n_folds, 1))  # some folds are harder for every model
    noise = rng.normal(0.0, 0.01, size=(n_folds, len(effects)))
    names = ["lasso", "forest", "boosting", "knn"][: len(effects)]
    return pd.DataFrame(np.asarray(effects) + fold + noise, columns=names)


def _long(scores):
    return pd.DataFrame(
        {
            "score": scores.to_numpy().ravel(),
            "model": np.tile(scores.columns, len(scores)),
            "fold": np.repeat(np.arange(len(scores)), scores.shape[1]),
        }
    )


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_contrast_is_statsmodels_treatment_coefficient_on_a_t_reference(seed):
    scores = _scores(seed)
    result = repeated_measures_comparison(scores)
    long = _long(scores)
    df = (len(scores) - 1) * (scores.shape[1] - 1)
    # the exact t of the balanced design, which REML's equals to its optimizer's tolerance
    anova = smf.ols("score ~ 0 + C(model) + C(fold)", long).fit()
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
        assert row.statistic == pytest.approx(fit.tvalues[name], rel=1e-4)
        # statsmodels' Wald p-value is normal; ours is the t's on (n_folds - 1)(n_models - 1)
        assert row.df == df == anova.df_resid
        assert row.pvalue > fit.pvalues[name]
        contrast = anova.t_test(f"C(model)[{row.model_a}] - C(model)[{row.model_b}] = 0")
        expected_p = float(np.squeeze(contrast.pvalue))
        assert row.pvalue == pytest.approx(expected_p, rel=1e-9)
        expected = np.squeeze(contrast.conf_int(alpha=0.05))
        assert (row.ci_low, row.ci_high) == pytest.approx(tuple(expected), rel=1e-9)
        pvalues.append(expected_p)
    reject, adjusted, _, _ = multipletests(pvalues, alpha=0.05, method="holm")
    np.testing.assert_allclose(result.table["pvalue_holm"], adjusted, rtol=1e-4)
    demonstrated = result.table["verdict"] != "difference not demonstrated"
    assert demonstrated.tolist() == reject.tolist()


def test_contrasts_are_the_two_way_anova_t_tests_when_folds_differ():
    # With a clear fold effect (tau^2 > 0), the balanced design's REML contrast is exactly the
    # t test of the fixed-effects two-way ANOVA score ~ fold + model: an independent check of
    # the df and the standard error.
    scores = _scores(4, n_folds=6)
    result = repeated_measures_comparison(scores)
    assert result.fold_variance > 0
    ols = smf.ols("score ~ 0 + C(model) + C(fold)", _long(scores)).fit()
    assert ols.df_resid == result.table["df"].iloc[0]
    for row in result.table.itertuples(index=False):
        contrast = ols.t_test(f"C(model)[{row.model_a}] - C(model)[{row.model_b}] = 0")
        assert row.statistic == pytest.approx(float(np.squeeze(contrast.tvalue)), rel=1e-5)
        assert row.pvalue == pytest.approx(float(np.squeeze(contrast.pvalue)), rel=1e-5)


def test_family_wise_error_of_the_verdicts_is_at_most_nominal():
    # No true difference: 5 folds x 3 models, a fold effect and independent noise (the model's
    # own ideal case). With statsmodels' normal reference this gives a "better" verdict in
    # about 10% of tables at nominal 5%; the t reference must stay at or below 5% within two
    # Monte-Carlo standard errors.
    rng = np.random.default_rng(20240601)
    n_tables, alpha = 240, 0.05
    wrong = 0
    for _ in range(n_tables):
        table = 0.8 + rng.normal(0, 0.02, (5, 1)) + rng.normal(0, 0.01, (5, 3))
        verdicts = repeated_measures_comparison(table).table["verdict"]
        wrong += bool((verdicts != "difference not demonstrated").any())
    bound = alpha + 2 * np.sqrt(alpha * (1 - alpha) / n_tables)
    assert wrong / n_tables <= bound


def test_lower_is_better_names_the_smaller_error():
    rmse = pd.DataFrame(
        {
            "big_error": [1.30, 1.32, 1.28, 1.35, 1.31, 1.29],
            "small_error": [1.00, 1.02, 0.99, 1.04, 1.01, 0.98],
        }
    )
    lower = repeated_measures_comparison(rmse, greater_is_better=False)
    assert lower.table["verdict"].tolist() == ["small_error better"]
    # the scorer's values (negated errors, higher is better) give the same verdict
    negated = repeated_measures_comparison(-rmse)
    assert negated.table["verdict"].tolist() == ["small_error better"]
    assert "lower scores are better" in repr(lower)


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
    assert "t tests on 27 df" in text and "higher scores are better" in text
    assert "model 0 - model 1: " in text and "Holm p = " in text


def test_a_dict_is_its_dataframe_and_pairs_series_by_fold():
    # rank_comparison's rule: a dict model -> scores is pandas.DataFrame(scores), whose
    # Series are aligned on their index (the folds), whatever order each lists them in
    frame = _scores(seed=3)
    expected = repeated_measures_comparison(frame)
    as_lists = repeated_measures_comparison({m: frame[m].tolist() for m in frame})
    rng = np.random.default_rng(0)
    shuffled = {m: frame[m].iloc[rng.permutation(len(frame))] for m in frame}
    assert not all(s.index.equals(frame.index) for s in shuffled.values())
    by_label = repeated_measures_comparison(shuffled)
    # the DataFrame pandas builds from the shuffled Series: the reference pairing
    reference = repeated_measures_comparison(pd.DataFrame(shuffled))
    for result in (as_lists, by_label, reference):
        pd.testing.assert_frame_equal(result.table, expected.table, check_exact=False, rtol=1e-9)
        pd.testing.assert_series_equal(result.effects, expected.effects, rtol=1e-9)
        assert result.residual_variance == pytest.approx(expected.residual_variance, rel=1e-9)
    # paired by position the shuffled folds would be other numbers
    by_position = repeated_measures_comparison(
        pd.DataFrame({m: s.to_numpy() for m, s in shuffled.items()})
    )
    assert not np.allclose(by_position.table["pvalue"], expected.table["pvalue"])


@pytest.mark.parametrize(
    "scores, match",
    [
        ([0.8, 0.9], "2-D table"),
        ([[0.8, 0.9]], "at least 2 folds"),
        ([[0.8], [0.9]], "2 model"),
        ([[0.8, np.nan], [0.9, 0.8]], "NaN"),
        ([[0.8, 0.8], [0.8, 0.8], [0.8, 0.8]], "no residual variation"),
        ([[0.8, 0.9], [0.7, 0.8], [0.75, 0.85]], "no residual variation"),
        # numpy's words of a ragged list named no parameter
        ([[0.8, 0.9], [0.7]], "'scores' parameter must be a pandas DataFrame or a 2-D array"),
        # a dict: ragged, non-numeric, Series that cannot be paired by fold
        ({"a": [0.8, 0.7, 0.6], "b": [0.9, 0.8]}, "'scores' .* dict.* 'b' .* 2 .* 3"),
        ({"a": [0.8, 0.7], "b": ["x", 0.8]}, "'scores' .* dict.* 'b' .* numbers"),
        ({"a": [0.8, 0.7], "b": [None, 0.8]}, "NaN"),
        ({"a": [[0.8, 0.7]], "b": [[0.9, 0.8]]}, "'scores' .* dict.* 'a' .* 1-D"),
        (
            {"a": pd.Series([0.8, 0.7], [0, 1]), "b": pd.Series([0.9, 0.8], [0, 2])},
            "'scores' .* dict.* paired by fold",
        ),
        ({"a": [0.8, 0.7]}, "2 model"),
        ({}, "2 model"),
        # a column of fold names: named, with the way to make it the index
        (
            pd.DataFrame({"fold": ["f1", "f2", "f3"], "a": [0.8, 0.7, 0.9], "b": [0.7, 0.6, 0.8]}),
            r"column 'fold' holds 'f1', which is not a number\. If that column names the "
            r"folds, make it the index: scores\.set_index\('fold'\)",
        ),
    ],
)
def test_bad_tables(scores, match):
    with pytest.raises(ValueError, match=match):
        repeated_measures_comparison(scores)


def test_folds_that_vary_less_than_the_noise_keep_the_exact_t():
    # REML puts tau^2 at 0 when the folds vary less than the noise, and pooled the fold
    # variation into s^2: two models gave t = 2.97, p = 0.031 where the paired t-test (the
    # two-way ANOVA's t for two models) gives 2.16, p = 0.083
    a = np.array([0.80, 0.83, 0.81, 0.84, 0.79, 0.82])
    b = np.array([0.79, 0.77, 0.80, 0.76, 0.80, 0.79])
    row = repeated_measures_comparison(np.column_stack([a, b])).table.iloc[0]
    reference = stats.ttest_rel(a, b)
    assert (row["statistic"], row["pvalue"]) == pytest.approx(
        (reference.statistic, reference.pvalue), rel=1e-9
    )
    interval = reference.confidence_interval(0.95)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((interval.low, interval.high))
    # three models: each contrast is the two-way ANOVA's
    scores = pd.DataFrame({"a": a, "b": b, "c": (a + b) / 2 + [0.01, -0.01, 0, 0.02, -0.02, 0]})
    result = repeated_measures_comparison(scores)
    assert result.fold_variance < 1e-3 * result.residual_variance
    ols = smf.ols("score ~ 0 + C(model) + C(fold)", _long(scores)).fit()
    for row in result.table.itertuples(index=False):
        contrast = ols.t_test(f"C(model)[{row.model_a}] - C(model)[{row.model_b}] = 0")
        assert row.statistic == pytest.approx(float(np.squeeze(contrast.tvalue)), rel=1e-9)
        assert row.pvalue == pytest.approx(float(np.squeeze(contrast.pvalue)), rel=1e-9)


@pytest.mark.parametrize("scale", [1e-6, 1e-11, 1e6])
def test_the_contrasts_do_not_depend_on_the_scores_scale(scale):
    # scores below 1e-11 with real noise were refused as "no residual variation": the
    # threshold was absolute below 1
    scores = _scores(seed=1)
    reference = repeated_measures_comparison(scores).table
    scaled = repeated_measures_comparison(scores * scale).table
    np.testing.assert_allclose(scaled["statistic"], reference["statistic"], rtol=1e-6)
    np.testing.assert_allclose(scaled["pvalue"], reference["pvalue"], rtol=1e-6)


def test_a_holm_p_just_above_the_level_is_not_printed_as_the_level():
    # scipy's paired t of two models (Holm's p is p itself) just above 0.05
    noise = np.array([0.011, -0.004, 0.007, -0.012, 0.003, 0.001])
    base = np.array([0.80, 0.82, 0.79, 0.81, 0.83, 0.80])

    def excess(shift):
        return stats.ttest_rel(base + shift + noise, base).pvalue - 0.05004

    scores = pd.DataFrame({"a": base + brentq(excess, 1e-4, 0.05) + noise, "b": base})
    line = [
        line for line in repr(repeated_measures_comparison(scores)).splitlines() if "a - b" in line
    ]
    assert "not demonstrated" in line[0]
    assert "Holm p = 0.05004" in line[0]
