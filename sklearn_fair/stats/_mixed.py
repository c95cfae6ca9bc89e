"""More than two models on the same folds: a linear mixed model with the fold as a random effect.

Kuhn and Johnson (Feature Engineering and Selection, 2019, section 3.7) compare several
models resampled on the same folds with a repeated-measures model: each score is the model's
effect plus the fold's (some folds are harder for every model) plus noise,

    score[fold, model] = mu + beta[model] + u[fold] + e,   u ~ N(0, tau^2), e ~ N(0, s^2),

and the pairwise differences of the ``beta`` are tested with a multiplicity adjustment
(Holm's here). The model is fitted by statsmodels' :class:`~statsmodels.regression.\
mixed_linear_model.MixedLM` (REML); each contrast is its Wald test
(:meth:`~statsmodels.regression.mixed_linear_model.MixedLMResults.t_test`, normal reference
distribution, as statsmodels computes it: with few folds its p-values are smaller than a t
reference would give). Like every test that treats folds as independent
replicates, it ignores that cross-validation folds share training rows: the random fold
effect absorbs how hard a fold is for all models alike, not that correlation; prefer the
corrected resampled t-test (:func:`compare`) for two models.
"""

import warnings
from dataclasses import dataclass
from itertools import combinations

import numpy as np
from sklearn.utils._param_validation import validate_params

from ._checks import CONFIDENCE
from ._paired import holm

NOT_DEMONSTRATED = "difference not demonstrated"


@dataclass(frozen=True)
class RepeatedMeasuresResult:
    """Result of :func:`repeated_measures_comparison`.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per contrast: ``model_a``, ``model_b``, ``estimate`` (the difference of
        their effects, a - b), ``ci_low``, ``ci_high`` (Wald interval, not adjusted),
        ``statistic`` (z), ``pvalue``, ``pvalue_holm`` and ``verdict``.
    effects : pandas.Series
        Each model's estimated mean score (the fixed effects, with the fold effects
        averaging zero).
    fold_variance, residual_variance : float
        ``tau^2`` and ``s^2``, REML estimates.
    fit : statsmodels MixedLMResults
        The fitted model, for anything else.
    confidence : float
    notes : tuple of str
        Warnings from the fit (a fold variance on the boundary at 0, non-convergence).
    """

    table: object
    effects: object
    fold_variance: float
    residual_variance: float
    fit: object
    confidence: float
    notes: tuple = ()

    def __repr__(self):
        level = f"{100 * self.confidence:g}%"
        lines = [
            f"repeated_measures_comparison(): {len(self.effects)} models on "
            f"{int(self.fit.model.n_groups)} shared folds; linear mixed model (fold as a random "
            f"effect, REML), Wald tests, Holm-adjusted at level {1 - self.confidence:.3g}",
            "  effects: "
            + ", ".join(f"{name} {value:.4f}" for name, value in self.effects.items()),
            f"  fold variance {self.fold_variance:.3g}, residual variance "
            f"{self.residual_variance:.3g}",
        ]
        for row in self.table.itertuples(index=False):
            lines.append(
                f"  {row.model_a} - {row.model_b}: {row.estimate:+.4f}, {level} interval "
                f"[{row.ci_low:+.4f}, {row.ci_high:+.4f}], p = {row.pvalue:.3g}, Holm p = "
                f"{row.pvalue_holm:.3g} -> {row.verdict}"
            )
        lines += [f"  note: {note}" for note in self.notes]
        return "\n".join(lines)


def _as_frame(scores):
    import pandas as pd

    if isinstance(scores, pd.DataFrame):
        frame = scores.copy()
    else:
        array = np.asarray(scores, dtype=float)
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
        raise ValueError("The 'scores' parameter must hold numbers.") from exc
    if not np.isfinite(values).all():
        raise ValueError(
            "The 'scores' parameter contains NaN or an infinite value; every model needs a "
            "score on every fold (drop the fold, or the model)."
        )
    return frame


def long_format(frame):
    """The folds-by-models table as the long table the mixed model is fitted to."""
    import pandas as pd

    n_folds, n_models = frame.shape
    return pd.DataFrame(
        {
            "score": frame.to_numpy(dtype=float).ravel(),
            "model": np.tile(np.asarray(frame.columns, dtype=object), n_folds),
            "fold": np.repeat(np.arange(n_folds), n_models),
        }
    )


@validate_params(
    {"scores": ["array-like"], "confidence": [CONFIDENCE]},
    prefer_skip_nested_validation=True,
)
def repeated_measures_comparison(scores, *, confidence=0.95):
    """Compare several models scored on the same folds with a linear mixed model.

    Fits ``score ~ model + (1 | fold)`` (statsmodels' MixedLM, REML) and tests every
    pairwise difference of the models' effects with a Wald test, the p-values adjusted
    with Holm's method, as Kuhn and Johnson (2019, section 3.7) describe.

    Parameters
    ----------
    scores : pandas.DataFrame or array-like of shape (n_folds, n_models)
        One row per shared fold, one column per model (a DataFrame's column names name
        the models). Every model needs a score on every fold.
    confidence : float, default=0.95
        Level of the intervals; ``1 - confidence`` is that of the Holm-adjusted verdicts.

    Returns
    -------
    RepeatedMeasuresResult
        ``table`` (one row per pair), ``effects``, the variance components, the
        statsmodels ``fit``; prints as a summary.

    Notes
    -----
    Needs pandas and statsmodels.

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
    """
    try:
        import pandas as pd
        import statsmodels.formula.api as smf
    except ImportError as exc:  # pragma: no cover - both are in the stats extra
        raise ImportError(
            "repeated_measures_comparison needs pandas and statsmodels: install the 'stats' "
            'extra (pip install -e ".[stats]" from a checkout), or pip install pandas '
            "statsmodels"
        ) from exc
    from statsmodels.tools.sm_exceptions import ConvergenceWarning

    frame = _as_frame(scores)
    confidence = float(confidence)
    names = list(frame.columns)
    data = long_format(frame)
    # Cell-means coding: one fixed effect per model, no intercept, so that a contrast is a
    # difference of two parameters.
    formula = "score ~ 0 + C(model, levels=names)"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        warnings.simplefilter("always", RuntimeWarning)
        fit = smf.mixedlm(formula, data, groups=data["fold"]).fit(reml=True)
    notes = tuple(
        sorted({str(w.message).splitlines()[0] for w in caught if w.category is not UserWarning})
    )
    fixed = fit.fe_params  # in the order of ``names``, by levels=names
    rows = []
    for a, b in combinations(range(len(names)), 2):
        contrast = np.zeros((1, len(fixed)))
        contrast[0, a], contrast[0, b] = 1.0, -1.0
        test = fit.t_test(contrast)
        low, high = np.asarray(test.conf_int(alpha=1.0 - confidence)).ravel()
        rows.append(
            {
                "model_a": names[a],
                "model_b": names[b],
                "estimate": float(np.asarray(test.effect).ravel()[0]),
                "ci_low": float(low),
                "ci_high": float(high),
                "statistic": float(np.asarray(test.statistic).ravel()[0]),
                "pvalue": float(np.asarray(test.pvalue).ravel()[0]),
            }
        )
    adjusted = holm([row["pvalue"] for row in rows])
    for row, pvalue_holm in zip(rows, adjusted):
        row["pvalue_holm"] = float(pvalue_holm)
        if pvalue_holm <= 1.0 - confidence:
            row["verdict"] = f"{row['model_a'] if row['estimate'] > 0 else row['model_b']} better"
        else:
            row["verdict"] = NOT_DEMONSTRATED
    return RepeatedMeasuresResult(
        table=pd.DataFrame(rows),
        effects=pd.Series(np.asarray(fixed, dtype=float), index=names, name="effect"),
        fold_variance=float(np.asarray(fit.cov_re).ravel()[0]),
        residual_variance=float(fit.scale),
        fit=fit,
        confidence=confidence,
        notes=notes,
    )
