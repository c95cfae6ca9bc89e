"""More than two models on the same folds: a linear mixed model with the fold as a random effect.

Kuhn and Johnson (Feature Engineering and Selection, 2019, section 3.7): ``score[fold, model]
= mu + beta[model] + u[fold] + e``, fitted by statsmodels' ``MixedLM`` (REML). statsmodels'
Wald tests use the normal distribution, which with few folds rejects too often (5 folds x 3
equal models: a "better" verdict at nominal 5% in 9-11% of tables); here a Student t on the
residual df ``(n_folds - 1)(n_models - 1)``: in this balanced, complete design a contrast is
within folds, and its standard error is that of the two-way ANOVA's residual mean square on
those df (REML's ``s^2`` where ``tau^2 > 0``; Satterthwaite's and Kenward-Roger's agree), so
the t is exact under the model. Where REML estimates ``tau^2`` at 0 (the folds vary less
than the noise), it pools the fold variation into ``s^2``, which can be smaller than the
residual mean square: its t was larger than the exact one (2.97 against the paired t's 2.16
for two models), so the contrasts always take the residual mean square.
``tests/stats/test_mixed.py`` simulates the family-wise error under the null.
"""

import warnings
from dataclasses import dataclass
from itertools import combinations

import numpy as np
from scipy import stats as _scipy_stats
from sklearn.utils._param_validation import validate_params

from ..utils._printing import decimals_for, number, pvalue, signed
from ..utils._scaling import scale_exponent
from ._checks import (
    CONFIDENCE,
    float_array,
    require_stats_extra,
    rounding_tolerance,
    scaled_back,
    stacked_by_label,
)
from ._compare import NOT_DEMONSTRATED
from ._paired import holm
from ._ranks import not_numbers, table_values

# statsmodels warns this whenever the fitted fold variance is below 0.01 in the scores' units
# (true of almost any table of accuracies, and false at the boundary for scores in the
# hundreds); the note below says it from scale-free facts instead.
_STATSMODELS_BOUNDARY = "The MLE may be on the boundary of the parameter space."
FOLD_VARIANCE_AT_ZERO = (
    "the fold variance is at its boundary, 0: the folds vary no more than the noise (their "
    "mean square is at most the residual mean square), and REML pools their variation into "
    "the residual variance; the t tests take the residual mean square either way"
)


@dataclass(frozen=True)
class RepeatedMeasuresResult:
    """Result of :func:`repeated_measures_comparison`.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per pair: ``model_a``, ``model_b``, ``estimate`` (the difference of their
        effects, a - b), ``ci_low``, ``ci_high`` (t interval, not adjusted), ``statistic``
        (t), ``df``, ``pvalue``, ``pvalue_holm`` and ``verdict``.
    effects : pandas.Series
        Each model's estimated mean score (the fold effects averaging zero).
    fold_variance, residual_variance : float
        ``tau^2`` and ``s^2``, REML's estimates in their closed form for the balanced,
        complete table: ``tau^2 = (fold MS - residual MS) / k`` and ``s^2`` the residual mean
        square, or, where the folds vary no more than the noise, ``tau^2 = 0`` and ``s^2``
        the mean square of the folds' and residuals' sums pooled (the statsmodels ``fit``
        approximates them by iteration, and stops anywhere near 0 at that boundary). The
        contrasts' standard errors take the residual mean square. In the squared units of
        the scores: inf or 0 where that lies past the largest float or under the smallest
        (scores near ``1e155`` or ``1e-155`` and beyond), which a note says.
    fit : statsmodels MixedLMResults
        The fitted model, for anything else: of the scores times ``2**-e`` (exact) where they
        lie past ``2**100`` or under ``2**-100`` (``e`` the power of 2 of the largest, a note
        says it), as ``MixedLM`` fails or its squares overflow on them; else of the scores.
    confidence : float
    greater_is_better : bool
        The direction of the scores that the verdicts read.
    notes : tuple of str
        Warnings from the fit (non-convergence), and a note where the fold variance is on
        its boundary at 0: where the folds vary no more than the noise (their mean square is
        at most the residual mean square), REML's ``tau^2`` is 0 in this balanced design.
    """

    table: object
    effects: object
    fold_variance: float
    residual_variance: float
    fit: object
    confidence: float
    greater_is_better: bool = True
    notes: tuple = ()

    def __repr__(self):
        level = f"{100 * self.confidence:g}%"
        direction = "higher" if self.greater_is_better else "lower"
        decimals = decimals_for(self.effects, minimum=4)
        lines = [
            f"repeated_measures_comparison(): {len(self.effects)} models on "
            f"{int(self.fit.model.n_groups)} shared folds; linear mixed model (fold as a random "
            f"effect, REML), t tests on {int(self.table['df'].iloc[0])} df, Holm-adjusted at "
            f"level {1 - self.confidence:.3g}; {direction} scores are better",
            "  effects: "
            + ", ".join(
                f"{name} {number(value, decimals)}" for name, value in self.effects.items()
            ),
            f"  fold variance {self.fold_variance:.3g}, residual variance "
            f"{self.residual_variance:.3g}",
        ]
        for row in self.table.itertuples(index=False):
            lines.append(
                f"  {row.model_a} - {row.model_b}: {signed(row.estimate, decimals)}, {level} "
                f"interval [{signed(row.ci_low, decimals)}, {signed(row.ci_high, decimals)}], "
                f"p = {pvalue(row.pvalue, 1 - self.confidence, digits=3, floor=None)}, Holm p = "
                f"{pvalue(row.pvalue_holm, 1 - self.confidence, digits=3, floor=None)} -> "
                f"{row.verdict}"
            )
        lines += [f"  note: {note}" for note in self.notes]
        return "\n".join(lines)


def _back(value, exponent, what):
    """``value`` of the scaled scores in the scores' units (a PastLargestFloatError where
    that lies past the largest float)."""
    return scaled_back(value, exponent, what) if exponent else float(value)


def _scaled_note(exponent, fold_variance, residual_variance):
    """The note of a fit to scores scaled by ``2**-exponent``: the fit's units, and the
    variances' square roots where the variances lie beyond the range of floats."""
    note = (
        f"the scores lie beyond 2**100 or under 2**-100 in magnitude: the fit is of the scores "
        f"times 2**{-exponent} (exact), its estimates in those units; the table and the effects "
        "are in the scores' units"
    )
    with np.errstate(over="ignore", under="ignore"):
        squares = np.ldexp([fold_variance, residual_variance], 2 * exponent)
    tiny = np.finfo(float).tiny
    if any(
        v > 0 and not tiny <= s < np.inf
        for v, s in zip((fold_variance, residual_variance), squares)
    ):
        roots = np.ldexp(np.sqrt([fold_variance, residual_variance]), exponent)
        note += (
            "; the variances, in squared units, lie beyond the range of floats (shown as "
            f"inf, or as 0 or with lost digits): the fold and residual standard deviations are "
            f"{roots[0]:.3g} and {roots[1]:.3g}"
        )
    return note


def _residuals(values):
    """The residuals of the two-way ANOVA's additive fit of ``values``, folds by models."""
    return values - values.mean(axis=0) - values.mean(axis=1, keepdims=True) + values.mean()


def _as_frame(scores):
    import pandas as pd

    if hasattr(scores, "columns") and hasattr(scores, "to_numpy"):  # pandas', polars'
        values, names = table_values(scores, rows="folds")
        frame = pd.DataFrame(values, columns=names)
    elif isinstance(scores, dict):
        # rank_comparison's rule: pandas.DataFrame(scores), Series paired by their labels
        values = stacked_by_label(
            scores, subject="The 'scores' parameter, when a dict,", unit="fold"
        )
        frame = pd.DataFrame(values, columns=list(scores))
    else:
        array = float_array(
            scores,
            "The 'scores' parameter",
            "a pandas DataFrame or a 2-D array of numbers, folds (rows) by models (columns)",
        )
        if array.ndim != 2:
            raise ValueError(
                "The 'scores' parameter must be a 2-D table of folds (rows) by models "
                f"(columns). Got an array of shape {array.shape} instead."
            )
        frame = pd.DataFrame(array, columns=[f"model {j}" for j in range(array.shape[1])])
    if frame.shape[1] < 2 or frame.shape[0] < 2:
        raise ValueError(
            "The 'scores' parameter needs at least 2 folds (rows) and 2 models (columns). "
            f"Got {frame.shape[0]} fold(s) and {frame.shape[1]} model(s) instead."
        )
    frame.columns = [str(c) for c in frame.columns]
    if len(set(frame.columns)) != frame.shape[1]:
        raise ValueError(f"The model names (columns) of 'scores' repeat: {list(frame.columns)}.")
    try:
        values = frame.to_numpy(dtype=float)
    except (TypeError, ValueError) as exc:
        raise not_numbers(frame, exc, rows="folds") from exc
    if not np.isfinite(values).all():
        raise ValueError(
            "The 'scores' parameter contains NaN or an infinite value; every model needs a "
            "score on every fold (drop the fold, or the model)."
        )
    # No residual means every model differs from every other by the same amount on every
    # fold, and there is no noise to test against.
    values = np.ldexp(values, -scale_exponent(values))  # the package's rule, as in the fit
    if np.all(np.abs(_residuals(values)) <= rounding_tolerance(values)):
        raise ValueError(
            "The 'scores' parameter leaves no residual variation: each model differs from each "
            "other by the same amount on every fold (or every score is equal), so a mixed model "
            "has no noise to test the differences against. Read the differences from the "
            "table; they are the same on every fold."
        )
    return frame


@validate_params(
    {"scores": ["array-like"], "confidence": [CONFIDENCE], "greater_is_better": ["boolean"]},
    prefer_skip_nested_validation=True,
)
def repeated_measures_comparison(scores, *, confidence=0.95, greater_is_better=True):
    """Compare several models scored on the same folds with a linear mixed model.

    Fits ``score ~ model + (1 | fold)`` (statsmodels' MixedLM, REML) and tests every pairwise
    difference of the models' effects with a t on ``(n_folds - 1)(n_models - 1)`` df,
    Holm-adjusted (Kuhn and Johnson, 2019, section 3.7; why a t: see the module). The fold
    effect absorbs how hard a fold is, not the overlap of training sets: for two models
    prefer :func:`compare`. Needs pandas and statsmodels.

    Parameters
    ----------
    scores : pandas.DataFrame, dict or array-like of shape (n_folds, n_models)
        One row per shared fold, one column per model (a DataFrame's columns name the
        models); every model scored on every fold. A dict maps each model to its scores,
        pandas Series paired by their index (the folds), as ``pandas.DataFrame(scores)``
        pairs them.
    confidence : float, default=0.95
        Level of the intervals; ``1 - confidence`` is that of the Holm-adjusted verdicts.
    greater_is_better : bool, default=True
        Whether a higher score is better: True for accuracies and for scikit-learn's scorer
        values (a negated error, as NestedCV and ``benchmark()`` store them); False for an
        error's own values (a positive RMSE). Only the verdicts read it.

    Returns
    -------
    RepeatedMeasuresResult
        Prints as a summary.

    Raises
    ------
    ValueError
        When every model differs from every other by the same amount on every fold: there
        is no noise to test against.

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_fair.stats import repeated_measures_comparison
    >>> scores = pd.DataFrame({
    ...     "forest": [0.86, 0.84, 0.88, 0.83, 0.87],
    ...     "boosting": [0.85, 0.85, 0.87, 0.82, 0.88],
    ...     "linear": [0.80, 0.79, 0.83, 0.78, 0.81],
    ... })
    >>> result = repeated_measures_comparison(scores)
    >>> for row in result.table.itertuples():
    ...     print(row.model_a, "-", row.model_b, f"{row.estimate:+.3f}", row.verdict)
    forest - boosting +0.002 difference not demonstrated
    forest - linear +0.054 forest better
    boosting - linear +0.052 boosting better
    >>> round(float(result.effects["linear"]), 3)
    0.802

    Per-fold RMSEs, where lower is better:

    >>> rmse = pd.DataFrame({"big_error": [1.30, 1.32, 1.28, 1.35, 1.31, 1.29],
    ...                      "small_error": [1.00, 1.02, 0.99, 1.04, 1.01, 0.98]})
    >>> repeated_measures_comparison(rmse, greater_is_better=False).table["verdict"].tolist()
    ['small_error better']
    """
    require_stats_extra("repeated_measures_comparison")
    import pandas as pd
    import statsmodels.api as sm
    from statsmodels.tools.sm_exceptions import ConvergenceWarning

    frame = _as_frame(scores)
    confidence = float(confidence)
    names = list(frame.columns)
    n_folds, n_models = frame.shape
    # Cell-means coding: one fixed effect per model, no intercept, so that a contrast is a
    # difference of two parameters. Arrays, not a formula: the same fit in half the time.
    design = np.tile(np.eye(n_models), (n_folds, 1))
    # scores past 2**100 or under 2**-100 scaled by one power of 2, exactly (the package's
    # rule): their mean squares overflowed (every t 0) or underflowed (a division by 0), and
    # MixedLM failed; t and p are scale-free, the estimates are scaled back
    values = frame.to_numpy(dtype=float)
    exponent = scale_exponent(values)
    values = np.ldexp(values, -exponent)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        warnings.simplefilter("always", RuntimeWarning)
        fit = sm.MixedLM(
            values.ravel(),
            design,
            groups=np.repeat(np.arange(n_folds), n_models),
        ).fit(reml=True)
    # statsmodels retries a failed optimizer with the next one and warns of each failure: 12 of
    # 60 random tables printed "failed to converge" for a fit that converged on the retry.
    # Its convergence warnings are notes only where the final fit did not converge.
    messages = {
        str(w.message).splitlines()[0]
        for w in caught
        if w.category is not UserWarning
        and not (fit.converged and issubclass(w.category, ConvergenceWarning))
    }
    fixed = np.asarray(fit.fe_params, dtype=float)
    df = (n_folds - 1) * (n_models - 1)
    # a difference of two models' means over the same folds: twice the residual mean square
    # over the folds (the exact within-fold t, whatever REML makes of tau^2)
    residual_mean_square = np.sum(_residuals(values) ** 2) / df
    # In a balanced, complete design REML's tau^2 is max(0, (fold MS - residual MS) / n_models):
    # at 0 exactly where the fold mean square is at most the residual one. The fitted value is
    # no guide: the optimizer stops anywhere from 1e-10 to 1e-4 of s^2 at the boundary.
    fold_mean_square = n_models * np.sum((values.mean(axis=1) - values.mean()) ** 2) / (n_folds - 1)
    messages.discard(_STATSMODELS_BOUNDARY)
    if fold_mean_square <= residual_mean_square:
        messages.add(FOLD_VARIANCE_AT_ZERO)
        # tau^2 at 0: s^2 is the pooled mean square of the folds' and the residuals' sums
        fold_variance = 0.0
        residual_variance = (fold_mean_square * (n_folds - 1) + residual_mean_square * df) / (
            n_folds - 1 + df
        )
    else:
        fold_variance = (fold_mean_square - residual_mean_square) / n_models
        residual_variance = residual_mean_square
    if exponent:
        messages.add(_scaled_note(exponent, fold_variance, residual_variance))
        with np.errstate(over="ignore", under="ignore"):
            fold_variance, residual_variance = np.ldexp(
                [fold_variance, residual_variance], 2 * exponent
            )
    notes = tuple(sorted(messages))
    error = float(np.sqrt(2.0 * residual_mean_square / n_folds))
    quantile = float(_scipy_stats.t.ppf(0.5 + confidence / 2.0, df))
    rows = []
    for a, b in combinations(range(n_models), 2):
        estimate = float(fixed[a] - fixed[b])
        statistic = estimate / error
        estimate, ci_low, ci_high = (
            _back(value, exponent, f"the difference of {names[a]!r} and {names[b]!r}")
            for value in (estimate, estimate - quantile * error, estimate + quantile * error)
        )
        rows.append(
            {
                "model_a": names[a],
                "model_b": names[b],
                "estimate": estimate,
                "ci_low": ci_low,
                "ci_high": ci_high,
                "statistic": statistic,
                "df": df,
                "pvalue": float(2.0 * _scipy_stats.t.sf(abs(statistic), df)),
            }
        )
    adjusted = holm([row["pvalue"] for row in rows])
    for row, pvalue_holm in zip(rows, adjusted):
        row["pvalue_holm"] = float(pvalue_holm)
        first = (row["estimate"] > 0) == greater_is_better
        better = f"{row['model_a'] if first else row['model_b']} better"
        row["verdict"] = better if pvalue_holm <= 1.0 - confidence else NOT_DEMONSTRATED
    return RepeatedMeasuresResult(
        table=pd.DataFrame(rows),
        effects=pd.Series(
            [
                _back(value, exponent, f"the effect of {name!r}")
                for value, name in zip(fixed, names)
            ],
            index=names,
            name="effect",
        ),
        fold_variance=float(fold_variance),
        residual_variance=float(residual_variance),
        fit=fit,
        confidence=confidence,
        greater_is_better=bool(greater_is_better),
        notes=notes,
    )
