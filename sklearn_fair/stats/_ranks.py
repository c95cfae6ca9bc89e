"""Many models on many data sets: average ranks, Friedman's test and its post-hoc comparisons.

Demšar (2006, JMLR 7:1-30). Friedman's statistic is scipy's (``friedmanchisquare``, with its
tie correction), its p-value scipy's permutation test (the chi-square and F approximations
reject too often with few data sets); the Nemenyi p-values and critical difference use scipy's
studentized range, as scikit-posthocs' ``posthoc_nemenyi_friedman`` does.
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
from ..utils._stacklevel import external_stacklevel
from ._checks import CONFIDENCE, rounding_ties_merged, stacked_by_label, tie_levels
from ._paired import holm

__all__ = ["RankComparison", "rank_comparison"]


@dataclass(frozen=True)
class RankComparison:
    """The result of :func:`rank_comparison`.

    Attributes
    ----------
    models : tuple of str
        The models, in the order of the input's columns.
    average_ranks : dict
        Model -> its rank averaged over the data sets (1 is the best; ties share the mean of
        their ranks).
    statistic, pvalue : float
        Friedman's chi-square statistic (scipy's, corrected for ties) and its permutation
        p-value (see ``pvalue_method``).
    iman_davenport_statistic, iman_davenport_pvalue : float
        Iman and Davenport's F, ``(N - 1) chi2 / (N (k - 1) - chi2)`` (infinite when every
        data set ranks the models the same way), and its p-value: F grows with chi2, so the
        permutation p-value is Friedman's. The chi-square and F distributions (on ``k - 1``
        and ``(k - 1)(N - 1)`` degrees of freedom) are large-sample approximations: with
        three models on three data sets the F test rejected 19% of tables at 5%.
    pvalue_method : {"exact", "Monte Carlo"}
        How the p-value was computed, under the null hypothesis that every order of each
        data set's scores is equally likely (ties keep their average ranks): "exact" counts
        every table of orders (the first data set's fixed, as the statistic does not change
        when every data set's models are reordered alike) where there are at most 100,000,
        "Monte Carlo" draws 9,999 from a fixed seed, ``(b + 1) / 10,000`` with ``b`` the
        draws as extreme as the data (never below 0.0001).
    critical_difference : float
        Nemenyi's critical difference at ``alpha``, ``q_alpha sqrt(k (k + 1) / (6 N))`` with
        ``q_alpha`` the studentized range quantile over ``sqrt(2)``.
    pairwise_pvalues : ndarray of shape (k, k)
        Nemenyi's p-value of every pair (1 on the diagonal), scipy's studentized range as
        scipy gives it: precise to about 1e-13 (scipy integrates its cdf to an absolute 1e-11),
        so that a value below 1e-10 says only that the p-value is that small: scipy's 0 is a
        positive p-value under about 1e-16. :func:`multiple_comparison` prints such a value as
        "p < 1e-10".
    control : str or None
    control_comparisons : list of dict
        With a control: per other model, ``model``, ``rank_difference`` (its average rank
        minus the control's), ``statistic`` (z, or Wilcoxon's), ``pvalue``, ``pvalue_holm``
        and ``significant`` (``pvalue_holm <= alpha``).
    alpha : float
    n_datasets, n_models : int
        ``N`` and ``k``.
    """

    models: tuple
    average_ranks: dict
    statistic: float
    pvalue: float
    iman_davenport_statistic: float
    iman_davenport_pvalue: float
    pvalue_method: str
    critical_difference: float
    pairwise_pvalues: np.ndarray = field(repr=False)
    control: object
    control_comparisons: list
    alpha: float
    n_datasets: int
    n_models: int

    def pairwise_table(self):
        """Nemenyi's p-values as a pandas DataFrame, models by models (needs pandas): the
        numbers of ``pairwise_pvalues``, those below 1e-10 not precise."""
        import pandas as pd

        return pd.DataFrame(
            self.pairwise_pvalues, index=list(self.models), columns=list(self.models)
        )

    def __str__(self):
        shown = partial(pvalue, alpha=self.alpha, digits=3, floor=None)  # on its side of alpha

        ranks = ", ".join(
            f"{m} {r:.2f}" for m, r in sorted(self.average_ranks.items(), key=lambda x: x[1])
        )
        return (
            f"Average ranks over {self.n_datasets} data sets: {ranks}. Friedman chi2 = "
            f"{self.statistic:.3f} ({permutation_p_is(self.pvalue, self.pvalue_method, shown)});"
            f" Iman-Davenport F = {self.iman_davenport_statistic:.3f} "
            f"({permutation_p_is(self.iman_davenport_pvalue, self.pvalue_method, shown)}); "
            f"both p-values {_METHODS[self.pvalue_method]}; "
            f"Nemenyi critical difference {self.critical_difference:.3f} at alpha = {self.alpha:g}."
            + "".join(
                f"\n  {c['model']} against the control {self.control}: rank difference "
                f"{c['rank_difference']:+.2f}, p = {shown(c['pvalue'])}, Holm-adjusted p = "
                f"{shown(c['pvalue_holm'])}"
                + (" (significant)" if c["significant"] else " (not significant)")
                for c in self.control_comparisons or []
            )
        )


_METHODS = {
    "exact": "exact (every order of each data set's ranks)",
    "Monte Carlo": "Monte Carlo (9,999 random orders of each data set's ranks)",
}
# permutation p-values: exact up to this many tables of orders, else Monte Carlo
_EXACT_LIMIT = 100_000
_N_RESAMPLES = 9_999
# the smallest Monte Carlo p-value, (0 + 1) / (9,999 + 1): no draw reached the statistic
_MONTE_CARLO_FLOOR = 1 / (_N_RESAMPLES + 1)


# scipy's studentized range gives its survival function as 1 - cdf, the cdf integrated to an
# absolute 1e-11: its p-values of 1e-13 were 21% off (78 df), those under 1e-16 are 0
STUDENTIZED_RANGE_FLOOR = 1e-10


def studentized_p_is(value, shown):
    """A p-value of scipy's studentized range (Nemenyi's, Tukey's HSD) as a sentence says it:
    "p = " and ``shown(value)``, or "p < 1e-10" below :data:`STUDENTIZED_RANGE_FLOOR`, where
    scipy's number is not known to three digits (its 0 is a p-value under about 1e-16)."""
    if value < STUDENTIZED_RANGE_FLOOR:
        return f"p < {STUDENTIZED_RANGE_FLOOR:g}"
    return f"p = {shown(value)}"


def permutation_p_is(value, method, shown):
    """A permutation p-value as a sentence says it: "p = " and ``shown(value)``, or
    "p <= 0.0001" where a Monte Carlo p-value is at its floor (the true one may be far lower:
    2e-28 for the chi-square of 50 data sets where every draw stays below)."""
    if method == "Monte Carlo" and value <= _MONTE_CARLO_FLOOR * (1 + 1e-9):
        return f"p <= {_MONTE_CARLO_FLOOR:g}"
    return f"p = {shown(value)}"


def _as_table(scores, min_models=3):
    """``(values (N, k), model names)`` from a DataFrame, a dict of columns or a 2-D array."""
    if hasattr(scores, "columns") and hasattr(scores, "to_numpy"):
        values, names = table_values(scores)
    elif isinstance(scores, dict):
        names = [str(name) for name in scores]
        # pandas.DataFrame(scores)'s rule, as repeated_measures_comparison's
        values = stacked_by_label(
            scores, subject="The 'scores' parameter, when a dict,", unit="data set"
        )
    else:
        try:
            values = np.asarray(scores, dtype=float)
        except (TypeError, ValueError) as exc:
            raise not_numbers(scores, exc) from exc
        names = [f"model_{j}" for j in range(values.shape[1])] if values.ndim == 2 else []
    if values.ndim != 2:
        raise ValueError(
            "The 'scores' parameter must be a table of data sets (rows) by "
            f"models (columns). Got an array of shape {values.shape} instead."
        )
    n, k = values.shape
    if k < min_models or n < 2:
        raise ValueError(
            f"The 'scores' parameter needs at least {min_models} models (columns) and 2 data "
            f"sets (rows). Got {n} data set(s) and {k} model(s)"
            + (
                "; for two models on several data sets use a Wilcoxon signed-rank test."
                if k == 2
                else "."
            )
        )
    if not np.isfinite(values).all():
        rows, cols = np.nonzero(~np.isfinite(values))
        raise ValueError(
            f"The 'scores' parameter holds NaN or infinite scores (model "
            f"{names[cols[0]]!r}, row {rows[0]}); a rank test needs every model scored on every "
            "data set."
        )
    if len(set(names)) != k:
        raise ValueError(f"The model names (columns) of 'scores' repeat: {names}.")
    return values, names


def table_values(scores, rows="data sets"):
    """``(values, names)`` of a DataFrame (pandas' or polars'): its scores as floats and its
    column names as str; the ValueError of :func:`not_numbers` where they are not numbers."""
    names = [str(c) for c in scores.columns]
    try:
        values = np.asarray(scores.to_numpy(), dtype=float)  # polars' to_numpy takes no dtype
    except (TypeError, ValueError) as exc:
        raise not_numbers(scores, exc, rows) from exc
    return values, names


def not_numbers(scores, exc, rows="data sets"):
    """The ValueError for a table of ``scores`` that is not all numbers: it names the first
    column that is not (a column naming the ``rows`` belongs in the index), or says that the
    rows of a ragged list are not one score per model."""
    if hasattr(scores, "columns"):
        for j, name in enumerate(scores.columns):
            # by position where a name can select two columns (pandas'), else by name
            column = scores.iloc[:, j] if hasattr(scores, "iloc") else scores[name]
            bad = [v for v in column if not _is_number(v)]
            if bad:
                remedy = (  # a polars frame has no index: the names go
                    f"make it the index: scores.set_index({name!r})"
                    if hasattr(scores, "set_index")
                    else f"leave it out: scores.drop({name!r})"
                )
                hint = (
                    f" If that column names the {rows}, {remedy}."
                    if isinstance(bad[0], str)
                    else ""
                )
                return ValueError(
                    f"The 'scores' parameter must hold only scores, one column per model: its "
                    f"column {name!r} holds {_shown(bad[0])}, which is not a number.{hint}"
                )
    else:
        rows = [row if _is_sequence(row) else [row] for row in scores]
        lengths = [len(row) for row in rows]
        other = next((i for i, n in enumerate(lengths) if n != lengths[0]), None)
        if other is not None:
            return ValueError(
                "The 'scores' parameter must be a table of data sets (rows) by models "
                "(columns), each row one score per model. Got rows of different lengths: "
                f"row 0 has {lengths[0]} score(s), row {other} has {lengths[other]}."
            )
        for i, row in enumerate(rows):
            for j, value in enumerate(row):
                if not _is_number(value):
                    hint = (
                        " Give the data sets' names as the index of a DataFrame "
                        "(df.set_index(...)), not as a column."
                        if isinstance(value, str)
                        else ""
                    )
                    return ValueError(
                        f"The 'scores' parameter must hold only scores: row {i}, column {j} "
                        f"holds {_shown(value)}, which is not a number.{hint}"
                    )
    return ValueError(
        "The 'scores' parameter must be a table of numbers, data sets (rows) by models "
        f"(columns); it cannot be read as one: {exc}"
    )


def _shown(value):
    return repr(str(value)) if isinstance(value, str) else repr(value)


def _is_sequence(value):
    return hasattr(value, "__len__") and not isinstance(value, (str, bytes))


def _is_number(value):
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    return True


def wilcoxon(a, b, name_a, name_b):
    """``(W, p)`` of scipy's two-sided Wilcoxon signed-rank test of ``a`` against ``b``: that
    of the scores as written. A difference within rounding of 0 (each data set's to its own
    scores) is counted as 0 and dropped (scipy's ``zero_method="wilcox"``), and differences
    whose sizes are equal up to rounding are ranked as ties (``0.81 - 0.77`` and ``0.80 -
    0.84``: :func:`~._checks.rounding_ties_merged`); W = 0 and p = 1 with a SklearnFairWarning
    where every difference is 0 (scipy warns of 0/0)."""
    differences = rounding_ties_merged(a, b)
    if not differences.any():
        warnings.warn(
            f"{name_a!r} and {name_b!r} score the same on every data set of 'scores' (up to "
            "rounding): Wilcoxon's test has no differences to rank. Its W is 0 and its "
            "p-value 1.",
            SklearnFairWarning,
            stacklevel=external_stacklevel(),
        )
        return 0.0, 1.0
    test = _scipy_stats.wilcoxon(differences)
    return float(test.statistic), float(test.pvalue)


@validate_params(
    {
        "scores": ["array-like", dict],
        "alpha": [CONFIDENCE],
        "control": [str, None],
        "greater_is_better": ["boolean"],
        "control_test": [StrOptions({"z", "wilcoxon"})],
    },
    prefer_skip_nested_validation=True,
)
def rank_comparison(scores, *, alpha=0.05, control=None, greater_is_better=True, control_test="z"):
    """Compare several models over several data sets by their ranks (Demšar, 2006).

    Ranks the models on each data set, tests whether the average ranks differ (Friedman's
    test, and Iman and Davenport's F form of it, with the p-value of every order of each data
    set's ranks: exact, or Monte Carlo where there are more than 100,000 tables of orders),
    then compares every pair (Nemenyi's test, whose critical difference a CD diagram draws)
    or every model with a control.

    Parameters
    ----------
    scores : DataFrame, dict or array-like of shape (n_datasets, n_models)
        One score per data set (row) and model (column): a DataFrame whose columns are the
        models, a dict model -> scores (pandas Series are paired by their index, as
        ``pandas.DataFrame(scores)`` pairs them), or a 2-D array.
        At least 3 models and 2 data sets.
    alpha : float, default=0.05
        Level of the critical difference and of the control comparisons.
    control : str, default=None
        A model to compare every other with, Holm-adjusted; None compares only all pairs.
    greater_is_better : bool, default=True
        Whether a higher score is better.
    control_test : {"z", "wilcoxon"}, default="z"
        The test against ``control``: Demšar's z of the average ranks, ``(R_i - R_c) /
        sqrt(k (k + 1) / (6 N))``, or ``scipy.stats.wilcoxon`` on the paired scores (W = 0 and
        p = 1, with a ``SklearnFairWarning``, for a model that scores as the control on every
        data set), their differences as written: equal up to floating-point rounding is
        equal (``0.81 - 0.77`` and ``0.84 - 0.80`` tie, ``0.1 + 0.2 - 0.3`` is 0).

    Returns
    -------
    RankComparison
        When every model ties with every other on every data set, Friedman's and Iman and
        Davenport's statistics are 0 with p-value 1, every Nemenyi p-value is 1, and a
        :class:`~sklearn_fair.exceptions.SklearnFairWarning` says so.

    Examples
    --------
    >>> from sklearn_fair.stats import rank_comparison
    >>> scores = {"a": [0.90, 0.80, 0.70, 0.85], "b": [0.85, 0.78, 0.69, 0.80],
    ...           "c": [0.60, 0.70, 0.65, 0.70]}
    >>> result = rank_comparison(scores)
    >>> result.average_ranks
    {'a': 1.0, 'b': 2.0, 'c': 3.0}
    >>> round(result.statistic, 3), round(result.pvalue, 4), result.pvalue_method
    (8.0, 0.0046, 'exact')
    >>> round(result.critical_difference, 3)
    1.657
    """
    values, names = _as_table(scores)
    if control is not None and control not in names:
        raise ValueError(
            f"The 'control' parameter of rank_comparison must be one of the models {names} or "
            f"None. Got {control!r} instead."
        )
    n, k = values.shape
    # scores equal but for rounding (0.1 + 0.2 and 0.3) tie: their order is rounding's, and
    # Friedman's test would find it significant
    tied = tie_levels(values)
    oriented = -tied if greater_is_better else tied
    ranks = _scipy_stats.rankdata(oriented, axis=1)  # 1 = best, ties averaged
    average = ranks.mean(axis=0)

    if np.all(tied == tied[:, :1]):
        # Every model ties with every other on every data set: scipy's statistic is 0/0.
        warnings.warn(
            "Every model ties with every other on every data set of 'scores': the table holds "
            "no ranks to compare. Friedman's statistic is 0 and its p-value 1.",
            SklearnFairWarning,
            stacklevel=external_stacklevel(),
        )
        chi2, permutation_pvalue, method = 0.0, 1.0, "exact"
    else:
        chi2 = float(_scipy_stats.friedmanchisquare(*tied.T).statistic)
        permutation_pvalue, method = _permutation_pvalue(ranks)
    denominator = n * (k - 1) - chi2
    if chi2 == 0:
        f_statistic = 0.0
    elif denominator <= 0 or np.all(ranks == ranks[0]):
        # every data set ranks the models the same way (scipy's tie-corrected chi2 may fall a
        # rounding step short of N (k - 1), and F be 1e15 instead of infinite)
        f_statistic = np.inf
    else:
        f_statistic = (n - 1) * chi2 / denominator

    scale = np.sqrt(k * (k + 1) / (6.0 * n))
    q_alpha = _scipy_stats.studentized_range.ppf(1 - alpha, k, np.inf) / np.sqrt(2)
    differences = np.abs(average[:, None] - average[None, :])
    pairwise = _scipy_stats.studentized_range.sf(differences / scale * np.sqrt(2), k, np.inf)
    np.fill_diagonal(pairwise, 1.0)

    comparisons = []
    if control is not None:
        c = names.index(control)
        for j in [j for j in range(k) if j != c]:
            if control_test == "z":
                statistic = (average[j] - average[c]) / scale
                pvalue = float(2 * _scipy_stats.norm.sf(abs(statistic)))
            else:
                statistic, pvalue = wilcoxon(values[:, j], values[:, c], names[j], names[c])
            comparisons.append(
                {
                    "model": names[j],
                    "rank_difference": float(average[j] - average[c]),
                    "statistic": float(statistic),
                    "pvalue": pvalue,
                }
            )
        adjusted = holm([row["pvalue"] for row in comparisons])
        for row, p in zip(comparisons, adjusted):
            row["pvalue_holm"] = float(p)
            row["significant"] = bool(p <= alpha)

    return RankComparison(
        models=tuple(names),
        average_ranks={name: float(r) for name, r in zip(names, average)},
        statistic=chi2,
        pvalue=permutation_pvalue,
        iman_davenport_statistic=float(f_statistic),
        iman_davenport_pvalue=permutation_pvalue,
        pvalue_method=method,
        critical_difference=float(q_alpha * scale),
        pairwise_pvalues=pairwise,
        control=control,
        control_comparisons=comparisons,
        alpha=float(alpha),
        n_datasets=n,
        n_models=k,
    )


def _permutation_pvalue(ranks):
    """``(p, method)``: the probability, when every data set orders its models' ranks at
    random, of a Friedman statistic at least that of ``ranks`` (scipy's permutation test of
    the rank sums' squares, which grow with the tie-corrected chi2: each data set's ties, and
    so the correction, are the same in every order)."""
    n, k = ranks.shape
    # Reordering every data set's models alike leaves the statistic as it is: the first data
    # set's order is kept (scipy needs two data sets to permute, hence none kept for N = 2).
    kept = 1 if n > 2 else 0
    offset = ranks[:kept].sum(axis=0)

    def statistic(*columns, axis):
        sums = np.stack(columns).sum(axis=-1)
        return ((sums + offset.reshape((k,) + (1,) * (sums.ndim - 1))) ** 2).sum(axis=0)

    exact = math.factorial(k) ** (n - kept) <= _EXACT_LIMIT
    result = _scipy_stats.permutation_test(
        tuple(ranks[kept:].T),
        statistic,
        permutation_type="samples",
        vectorized=True,
        n_resamples=np.inf if exact else _N_RESAMPLES,
        # at most about 32 MB of permuted ranks at once (all 9,999 draws of 500 data sets
        # of 20 models held 4 GB)
        batch=max(1, 2**22 // ranks.size),
        alternative="greater",
        rng=0,
    )
    return min(float(result.pvalue), 1.0), "exact" if exact else "Monte Carlo"
