"""The test chosen from the data, as autorank (Herbold, JOSS 2020) chooses it, said in a paragraph.

Every statistic comes from scipy or statsmodels, as autorank computes it, but for three
p-values: the ANOVA's is Greenhouse-Geisser-corrected (autorank's assumes sphericity),
Friedman's is a permutation p-value (autorank's is the chi-square approximation), and Tukey's
HSD pairs the scores by data set, as the ANOVA does (autorank's, statsmodels'
``pairwise_tukeyhsd``, takes each model's scores as an independent group, so that the data
sets' differences go into its error term); the two-model tests
are two-sided here (autorank's Wilcoxon is one-sided, towards the model of larger median, so
its p-value is half ours when that model leads). Like autorank, it checks the normality of
each model's scores, not of the paired differences that the t-test and the ANOVA assume; unlike
autorank, a model whose scores are all equal is not normal (autorank takes scipy's Shapiro-Wilk
p = 1 for it, and Bartlett's p from rounding noise).
"""

import math
import warnings
from dataclasses import dataclass, field
from functools import partial

import numpy as np
from scipy import stats as _scipy_stats
from sklearn.utils._param_validation import StrOptions, validate_params

from ..exceptions import SklearnFairWarning
from ..utils._printing import pvalue
from ..utils._scaling import scale_exponent
from ..utils._stacklevel import external_stacklevel
from ._checks import (
    CONFIDENCE,
    require_stats_extra,
    rounding_tolerance,
    scaled_back,
    tie_levels,
)
from ._paired import paired_ttest
from ._ranks import (
    _as_table,
    permutation_p_is,
    rank_comparison,
    studentized_p_is,
    wilcoxon,
)

__all__ = ["MultipleComparison", "multiple_comparison"]

_NAMES = {
    "ttest": "the paired t-test",
    "wilcoxon": "Wilcoxon's signed-rank test",
    "anova": "a repeated-measures ANOVA",
    "friedman": "Friedman's test",
    "tukeyhsd": "Tukey's HSD",
    "nemenyi": "Nemenyi's test",
}
# the error term of the post-hoc test, where the paragraph first names it
_ERRORS = {"tukeyhsd": " on the data sets x models residual"}


@dataclass(frozen=True)
class MultipleComparison:
    """What :func:`multiple_comparison` chose, why, and what the chosen tests found.

    Attributes
    ----------
    models : tuple of str
    n_datasets : int
    family : {"parametric", "nonparametric"}
    chosen_by : {"assumptions", "user", "units"}
        Whether the checks chose the family (``test="auto"``) or the caller did; "units"
        where the metric is not bounded, so the spread of its scores can differ from one data
        set to another (:meth:`BenchmarkResult.multiple_comparison
        <sklearn_fair.benchmarking.BenchmarkResult.multiple_comparison>`): the rank family, which
        reads only the order of the models on each data set, whatever the checks say.
    normality_pvalues : dict
        Model -> Shapiro-Wilk p-value of its scores, tested at ``normality_alpha``
        (``alpha / n_models``); ``all_normal`` when none is rejected. 0 for a model that scores
        the same on every data set: a normal distribution of positive variance gives equal
        values with probability 0 (Shapiro-Wilk's W is 0/0 there).
    normality_alpha : float
    all_normal : bool
    homogeneity_test : {"bartlett", "levene"}
    homogeneity_pvalue : float
        1 where Levene's W is 0/0: every score of every model lies at the same distance from
        its model's median (every model's scores constant, all variances 0; or each model's
        scores two values of the same spread, half on each side), up to rounding. NaN where
        the test gave none (the paragraph says it was not computed): the variances are then
        not taken as equal.
    equal_variances : bool
        ``homogeneity_pvalue >= alpha``.
    omnibus : {"ttest", "wilcoxon", "anova", "friedman"}
    statistic, pvalue : float
        The omnibus test's statistic (t, Wilcoxon's W, F, chi-square) and p-value; the t-test
        is :func:`paired_ttest` (scipy's, but t = 0 and p = 1 where two models score the
        same on every data set, for scipy's NaN).
    pvalue_method : str or None
        "Greenhouse-Geisser" for the ANOVA (its degrees of freedom scaled by Greenhouse and
        Geisser's epsilon, which autorank's and statsmodels' p-value leaves out), "exact" or
        "Monte Carlo" for Friedman's permutation p-value (see :func:`rank_comparison`), None
        for the tests of two models.
    posthoc : {"tukeyhsd", "nemenyi"} or None
        None for two models.
    pairwise_pvalues : ndarray of shape (n_models, n_models) or None
        The post-hoc p-values (1 on the diagonal), scipy's studentized range as scipy gives
        it: precise to about 1e-13, so that a value below 1e-10 says only that the p-value is
        that small (scipy's 0 is a positive p-value under about 1e-16); the paragraph prints
        it as "p < 1e-10".
    critical_difference : float or None
        Nemenyi's, in average ranks.
    centers : dict
        Model -> mean score (parametric) or median (rank family).
    average_ranks : dict
        Model -> average rank over the data sets (1 is the best).
    alpha : float
    """

    models: tuple
    n_datasets: int
    family: str
    chosen_by: str
    normality_pvalues: dict
    normality_alpha: float
    all_normal: bool
    homogeneity_test: str
    homogeneity_pvalue: float
    equal_variances: bool
    omnibus: str
    statistic: float
    pvalue: float
    pvalue_method: object
    posthoc: object
    pairwise_pvalues: object = field(repr=False)
    critical_difference: object
    centers: dict
    average_ranks: dict
    alpha: float

    @property
    def paragraph(self):
        """One paragraph that a methods section can quote: the checks, the choice, the result."""
        k, level = len(self.models), f"{self.alpha:g}"

        shown = partial(pvalue, alpha=self.alpha, digits=3, floor=None)  # on its side of alpha

        non_normal = [m for m, p in self.normality_pvalues.items() if p < self.normality_alpha]
        if non_normal:
            normality = (
                f"rejected normality for {_listed(non_normal)} (p = "
                + ", ".join(
                    shown(self.normality_pvalues[m], alpha=self.normality_alpha) for m in non_normal
                )
                + ")"
            )
        else:
            normality = "did not reject normality for any model"
        homogeneity = "Bartlett's" if self.homogeneity_test == "bartlett" else "Levene's"
        untested = math.isnan(self.homogeneity_pvalue)  # no p-value, which is no rejection
        if untested:
            variances = f"{homogeneity} test of equal variances could not be computed"
        else:
            verb = "rejected" if not self.equal_variances else "did not reject"
            variances = f"{homogeneity} test {verb} equal variances"
        compared = f"We compared {k} models on {self.n_datasets} data sets"
        if self.chosen_by != "assumptions":
            family = "rank-based" if self.family == "nonparametric" else self.family
            reason = (
                ", chosen by the analyst"
                if self.chosen_by == "user"
                else ": the metric is not bounded, so the spread of its scores can differ from "
                "one data set to another, which the parametric tests would compare as if "
                "alike; the rank-based tests read only the order of the models on each data "
                "set"
            )
            how = (
                f"{compared} with the {family} family{reason}. The checks of autorank "
                "(Herbold, 2020), which did not choose the test here: "
            )
            why = ""
        else:
            how = f"{compared}, choosing the test as autorank does (Herbold, 2020). "
            if self.family == "parametric" and not self.equal_variances:  # two models
                why = (
                    "The parametric family was used: the paired t-test of two models does not "
                    "assume equal variances. "
                )
            elif self.family == "parametric":
                why = "The parametric family was therefore used. "
            else:
                reason = "non-normal scores" if non_normal else "unequal variances"
                reason = "untested variances" if untested and not non_normal else reason
                why = f"Because of the {reason}, the rank-based family was used. "
        test = _NAMES[self.omnibus] + (
            f" with {_NAMES[self.posthoc]}{_ERRORS.get(self.posthoc, '')}" if self.posthoc else ""
        )
        symbol = {"ttest": "t", "wilcoxon": "W", "anova": "F", "friedman": "chi2"}[self.omnibus]
        verdict = "differ" if self.pvalue <= self.alpha else "were not shown to differ"
        method = {
            "Greenhouse-Geisser": ", Greenhouse-Geisser-corrected",
            "exact": ", exact permutation p-value",
            "Monte Carlo": ", Monte Carlo permutation p-value",
        }.get(self.pvalue_method, "")
        text = (
            f"{how}Shapiro-Wilk tests at alpha = {level}/{k} (Bonferroni) {normality}; "
            f"{variances} (p = {shown(self.homogeneity_pvalue)}). {why}With {test}, the models "
            f"{verdict} "
            f"({symbol} = {self.statistic:.3g}, "
            f"{permutation_p_is(self.pvalue, self.pvalue_method, shown)}{method}, two-sided, "
            f"alpha = {level})."
        )
        if self.posthoc is not None and self.pvalue <= self.alpha:
            pairs = [
                f"{self.models[i]} and {self.models[j]} "
                f"({studentized_p_is(self.pairwise_pvalues[i, j], shown)})"
                for i in range(k)
                for j in range(i + 1, k)
                if self.pairwise_pvalues[i, j] <= self.alpha
            ]
            if self.critical_difference is not None:
                text += f" Nemenyi's critical difference is {self.critical_difference:.3g} ranks."
            text += (
                f" {_NAMES[self.posthoc][0].upper() + _NAMES[self.posthoc][1:]} separates "
                + (_listed(pairs) if pairs else "no pair")
                + "."
            )
        return text

    def __str__(self):
        return self.paragraph


def _listed(items):
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


@validate_params(
    {
        "scores": ["array-like", dict],
        "test": [StrOptions({"auto", "parametric", "nonparametric"})],
        "alpha": [CONFIDENCE],
        "greater_is_better": ["boolean"],
    },
    prefer_skip_nested_validation=True,
)
def multiple_comparison(scores, *, test="auto", alpha=0.05, greater_is_better=True):
    """Compare models across data sets with the test their scores allow, chosen as autorank does.

    Checks each model's scores for normality (Shapiro-Wilk at ``alpha / n_models``,
    Bonferroni) and the variances for equality (Bartlett's test, or Levene's when a model is
    not normal, at ``alpha``); with normal scores and equal variances uses the parametric
    family (paired t-test for two models, repeated-measures ANOVA with Tukey's HSD for more,
    its p-value Greenhouse-Geisser-corrected for models whose scores move together across
    data sets), else the rank family (Wilcoxon's signed-rank test; Friedman's test, its
    permutation p-value as :func:`rank_comparison`'s, with Nemenyi's). A
    model that scores the same on every data set is not normal: the parametric tests assume
    normal scores of positive variance, which are all equal with probability 0, while the
    rank tests assume nothing of the variance (where every model is constant, t and F are
    infinite or 0/0, while the rank tests still give a p-value that reflects the number of
    data sets).

    Parameters
    ----------
    scores : DataFrame, dict or array-like of shape (n_datasets, n_models)
        One score per data set (row) and model (column): a DataFrame whose columns are the
        models, a dict model -> scores (pandas Series are paired by their index, as
        ``pandas.DataFrame(scores)`` pairs them), or a 2-D array.
        At least 2 models and 5 data sets (autorank's minimum).
    test : {"auto", "parametric", "nonparametric"}, default="auto"
        "auto" chooses from the checks; the others force a family (autorank's
        ``force_mode``), the checks still reported.
    alpha : float, default=0.05
        Level of the omnibus and post-hoc tests and of the homogeneity test.
    greater_is_better : bool, default=True
        Whether a higher score is better.

    Returns
    -------
    MultipleComparison
        Prints as its :attr:`~MultipleComparison.paragraph`: the checks, the choice, the
        result. When every model scores the same as every other on every data set (within
        rounding), the ANOVA's F is 0 with p-value 1, every Tukey p-value is 1, and a
        :class:`~sklearn_fair.exceptions.SklearnFairWarning` says so (Friedman's test does the
        same, as :func:`rank_comparison`, and Wilcoxon's test of two such models: W = 0, p =
        1). When the models differ but by the same amount on
        every data set, the ANOVA has no residual variance: F is infinite and p is 0, as
        :func:`paired_ttest`'s t for two models (statsmodels gives rounding noise in both
        cases). F is never below 0 (statsmodels' is -1e-15 for models whose means are equal
        up to rounding). Tukey's HSD is that of the repeated-measures design: its error is the
        ANOVA's residual mean square (data sets x models), on ``(n_datasets - 1) * (n_models -
        1)`` degrees of freedom, its p-values scipy's studentized range (printed as "p < 1e-10"
        below 1e-10, where scipy's number is not precise); p is 0 for models that differ by a
        constant and 1 for models whose means are equal, where the table has no residual. The
        models differ, and a pair is separated, where its p-value is at most ``alpha``.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_fair.stats import multiple_comparison
    >>> rng = np.random.default_rng(0)
    >>> scores = {name: rng.normal(mean, 0.02, 12)
    ...           for name, mean in (("forest", 0.85), ("boosting", 0.86), ("linear", 0.80))}
    >>> result = multiple_comparison(scores)
    >>> result.family, result.omnibus, result.posthoc
    ('parametric', 'anova', 'tukeyhsd')
    >>> print(result)  # doctest: +ELLIPSIS
    We compared 3 models on 12 data sets, choosing the test as autorank does (Herbold,
    2020). Shapiro-Wilk tests at alpha = 0.05/3 (Bonferroni) did not reject normality for
    any model; Bartlett's test did not reject equal variances (p = ...). The parametric
    family was therefore used. With a repeated-measures ANOVA with Tukey's HSD on the data
    sets x models residual, the models differ (F = ..., p = ..., Greenhouse-Geisser-corrected,
    two-sided, alpha = 0.05). Tukey's HSD separates forest and linear (p = ...) and boosting
    and linear (p = ...).
    """
    written, names = _as_table(scores, min_models=2)
    # scores past 2**100 or under 2**-100 scaled by one power of 2, exactly (the package's
    # rule): Bartlett's p, F and its p were NaN (squares overflowed or underflowed); every test
    # here is scale-free, the centers are scaled back. Ties and ranks read the scores as written.
    exponent = scale_exponent(written)
    values = np.ldexp(written, -exponent)
    n, k = values.shape
    if n < 5:
        raise ValueError(
            "The 'scores' parameter needs at least 5 data sets (rows) to check the assumptions "
            f"(autorank's minimum). Got {n} instead."
        )
    alpha = float(alpha)
    # a normal sample (of positive variance) has no ties: a model's constant scores are not
    # normal, p = 0 (Shapiro-Wilk's W is 0/0 there, for which scipy warns and returns 1)
    constant = np.ptp(values, axis=0) == 0
    normality = {
        m: 0.0 if constant[j] else float(_scipy_stats.shapiro(values[:, j]).pvalue)
        for j, m in enumerate(names)
    }
    all_normal = all(p >= alpha / k for p in normality.values())
    homogeneity_pvalue = _homogeneity_pvalue(values, all_normal)
    equal_variances = homogeneity_pvalue >= alpha
    family = test
    if test == "auto":
        family = "parametric" if all_normal and (equal_variances or k == 2) else "nonparametric"
    pairwise, cd, posthoc, method = None, None, None, None
    if k == 2:
        if family == "parametric":
            # ours, not scipy's: t = 0 and p = 1, not NaN, when the scores are equal
            omnibus, result = "ttest", paired_ttest(values[:, 0], values[:, 1])
            statistic, pvalue = float(result.statistic), float(result.pvalue)
        else:
            omnibus = "wilcoxon"
            statistic, pvalue = wilcoxon(values[:, 0], values[:, 1], *names)
    elif family == "parametric":
        omnibus, posthoc, method = "anova", "tukeyhsd", "Greenhouse-Geisser"
        statistic, pvalue, pairwise = _anova_and_tukey(values, names)
    else:
        omnibus, posthoc = "friedman", "nemenyi"
        ranks = rank_comparison(written, greater_is_better=greater_is_better, alpha=alpha)
        statistic, pvalue, method = ranks.statistic, ranks.pvalue, ranks.pvalue_method
        pairwise, cd = ranks.pairwise_pvalues, ranks.critical_difference
    center = np.mean if family == "parametric" else np.median
    tied = tie_levels(written)  # ranked as rank_comparison ranks
    rank_table = _scipy_stats.rankdata(-tied if greater_is_better else tied, axis=1)
    return MultipleComparison(
        models=tuple(names),
        n_datasets=n,
        family=family,
        chosen_by="assumptions" if test == "auto" else "user",
        normality_pvalues=normality,
        normality_alpha=alpha / k,
        all_normal=all_normal,
        homogeneity_test="bartlett" if all_normal else "levene",
        homogeneity_pvalue=homogeneity_pvalue,
        equal_variances=equal_variances,
        omnibus=omnibus,
        statistic=statistic,
        pvalue=pvalue,
        pvalue_method=method,
        posthoc=posthoc,
        pairwise_pvalues=pairwise,
        critical_difference=cd,
        centers={
            m: scaled_back(center(values[:, j]), exponent, f"the center of {m!r}")
            for j, m in enumerate(names)
        },
        average_ranks={m: float(r) for m, r in zip(names, rank_table.mean(axis=0))},
        alpha=alpha,
    )


def _homogeneity_pvalue(values, all_normal):
    """Bartlett's p-value of the variances, or Levene's (scipy's, centred on the medians) when
    a model is not normal; 1 where Levene's W is 0/0 (``MultipleComparison.homogeneity_pvalue``),
    which scipy makes NaN, or rounding noise."""
    if all_normal:  # a normal model's scores are not constant: Bartlett's variances are > 0
        return float(_scipy_stats.bartlett(*values.T).pvalue)
    deviations = np.abs(values - np.median(values, axis=0))
    if np.ptp(deviations) <= rounding_tolerance(values):
        return 1.0
    return float(_scipy_stats.levene(*values.T).pvalue)


def _anova_and_tukey(values, names):
    """statsmodels' repeated-measures ANOVA (F, p), as autorank, and the repeated-measures
    Tukey's HSD p-values, but F = 0 and p = 1 (all p = 1) without model effect or residual,
    F = inf and p = 0 with a model effect and no residual, where statsmodels' F is rounding
    noise, and F never below 0."""
    require_stats_extra("The repeated-measures ANOVA of multiple_comparison")
    import pandas as pd
    from statsmodels.stats.anova import AnovaRM

    n, k = values.shape
    effects = values.mean(axis=0) - values.mean()
    residuals = values - values.mean(axis=1, keepdims=True) - effects
    tolerance = rounding_tolerance(values)  # the rounding error of the means
    no_residual = np.abs(residuals).max() <= tolerance
    if no_residual and np.abs(effects).max() <= tolerance:
        warnings.warn(
            "Every model scores the same as every other on every data set of 'scores': the "
            "table holds no differences to compare. The ANOVA's F is 0, its p-value 1, and "
            "every Tukey p-value 1.",
            SklearnFairWarning,
            stacklevel=external_stacklevel(),
        )
        return 0.0, 1.0, np.ones((k, k))
    # Tukey's HSD of the repeated-measures design: the ANOVA's residual mean square on
    # (n - 1)(k - 1) df is the error of a mean, as the ANOVA's. statsmodels' pairwise_tukeyhsd
    # (autorank's) is unpaired: the data sets' differences went into its error, and it
    # separated no pair of models 0.01 and 0.03 apart on every data set (p 0.86 to 0.99).
    differences = np.abs(effects[:, None] - effects[None, :])
    if no_residual:  # models a constant apart (statsmodels' F divides rounding noise)
        return np.inf, 0.0, np.where(differences <= tolerance, 1.0, 0.0)
    df_error = (n - 1) * (k - 1)
    error = np.sqrt(np.sum(residuals**2) / df_error / n)
    pairwise = _scipy_stats.studentized_range.sf(differences / error, k, df_error)
    np.fill_diagonal(pairwise, 1.0)
    long = pd.DataFrame(
        {
            "score": values.ravel(),
            "model": np.tile(np.asarray(names, dtype=object), n),
            "dataset": np.repeat(np.arange(n), k),
        }
    )
    table = AnovaRM(long, "score", "dataset", within=["model"]).fit().anova_table
    # F is a ratio of sums of squares: statsmodels' -1e-15 for models whose means are equal
    # up to rounding is 0 (its p-value is already 1)
    statistic = max(float(table["F Value"].iloc[0]), 0.0)
    # statsmodels' p-value assumes sphericity (every pair of models' differences equally
    # variable), which models that move together across data sets break: the uncorrected F
    # rejected 12% at 5% for two such pairs of models. Greenhouse and Geisser's epsilon, of
    # the double-centred covariance of the models' scores, scales both degrees of freedom.
    centring = np.eye(k) - 1.0 / k
    covariance = np.cov(values @ centring, rowvar=False)  # C cov C, each row centred first
    epsilon = np.trace(covariance) ** 2 / ((k - 1) * np.sum(covariance**2))
    # within its bounds [1 / (k - 1), 1]: a covariance of rounding noise (models a constant
    # apart) gave 0.297 for three models; NaN (every model constant) takes none of it
    epsilon = float(np.clip(np.nan_to_num(epsilon, nan=1.0), 1.0 / (k - 1), 1.0))
    corrected = _scipy_stats.f.sf(statistic, epsilon * (k - 1), epsilon * df_error)
    return statistic, float(corrected), pairwise
