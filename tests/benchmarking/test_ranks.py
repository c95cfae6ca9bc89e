"""rank_comparison against autorank, scikit-posthocs, scipy and Demšar's formulas by hand."""

import itertools

import numpy as np
import pandas as pd
import pytest
import scikit_posthocs as sp
from autorank import autorank
from scipy import stats
from statsmodels.stats.multitest import multipletests

from sklearn_fair.stats import rank_comparison


@pytest.fixture(params=[0, 1, 2])
def table(request):
    rng = np.random.default_rng(request.param)
    values = rng.normal(size=(10, 5)) + np.linspace(0, 1, 5)  # 2**10 sign flips: scipy permutes
    values[3, 1] = values[3, 2]  # a tie
    values = np.round(values, 1)  # and more ties
    return pd.DataFrame(values, columns=[f"m{j}" for j in range(5)])


def _random_orders_pvalue(table, draws=200_000, seed=1):
    """P(sum of squared rank sums >= observed) over ``draws`` tables whose every row's ranks
    are shuffled at random (numpy's, not scipy's permutation test): the permutation p-value
    of Friedman's statistic, give or take sqrt(p (1 - p) / draws)."""
    ranks = stats.rankdata(-np.asarray(table), axis=1)
    shuffled = np.random.default_rng(seed).permuted(
        np.broadcast_to(ranks, (draws, *ranks.shape)), axis=2
    )
    observed = (ranks.sum(axis=0) ** 2).sum()
    return np.mean((shuffled.sum(axis=1) ** 2).sum(axis=1) >= observed - 1e-9)


def _close_to_random_orders(ours, table):
    reference = _random_orders_pvalue(table)
    # ours draws 9,999 (seeded): 4 standard errors of the two estimates
    assert abs(ours - reference) <= 4 * np.sqrt(
        reference * (1 - reference) * (1 / 9_999 + 1 / 200_000)
    )


def test_average_ranks_friedman_and_cd_match_autorank(table):
    ours = rank_comparison(table)
    theirs = autorank(table, alpha=0.05, verbose=False, force_mode="nonparametric")
    assert theirs.omnibus == "friedman" and theirs.posthoc == "nemenyi"
    for model, rank in theirs.rankdf["meanrank"].items():
        assert ours.average_ranks[model] == pytest.approx(rank)
    # autorank's p-value is the chi-square approximation's; ours the permutation p-value
    assert ours.pvalue_method == "Monte Carlo"
    _close_to_random_orders(ours.pvalue, table)
    # autorank takes the quantile from statsmodels' qsturng table interpolation, ours from
    # scipy's exact studentized range: they agree to about 1e-5
    assert ours.critical_difference == pytest.approx(theirs.cd, rel=1e-4)


def test_friedman_is_scipys_and_iman_davenport_the_formula_with_one_permutation_pvalue(table):
    ours = rank_comparison(table)
    scipy_result = stats.friedmanchisquare(*table.to_numpy().T)
    assert ours.statistic == pytest.approx(scipy_result.statistic)
    n, k = table.shape
    chi2 = scipy_result.statistic
    f = (n - 1) * chi2 / (n * (k - 1) - chi2)
    assert ours.iman_davenport_statistic == pytest.approx(f)
    # F grows with chi2: one permutation p-value for both
    _close_to_random_orders(ours.pvalue, table)
    assert ours.iman_davenport_pvalue == ours.pvalue


def test_ranks_by_hand_with_ties_averaged():
    scores = {"a": [1.0, 0.5], "b": [1.0, 0.7], "c": [0.2, 0.9]}
    # data set 0: a and b tie for first (1.5 each), c third; data set 1: c, b, a
    result = rank_comparison(scores)
    assert result.average_ranks == {"a": (1.5 + 3) / 2, "b": (1.5 + 2) / 2, "c": (3 + 1) / 2}
    lower = rank_comparison(scores, greater_is_better=False)
    assert lower.average_ranks == {"a": (2.5 + 1) / 2, "b": (2.5 + 2) / 2, "c": (1 + 3) / 2}


def test_critical_difference_is_demsars_table():
    # Demšar (2006), Table 5(a): q_0.05 for k = 2..10
    q05 = [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]
    for k, q in zip(range(3, 11), q05[1:]):
        values = np.tile(np.arange(k, dtype=float), (8, 1))
        result = rank_comparison(values)
        assert result.critical_difference == pytest.approx(q * np.sqrt(k * (k + 1) / 48), abs=2e-3)


def test_pairwise_pvalues_are_scikit_posthocs_nemenyi(table):
    ours = rank_comparison(table).pairwise_table()
    theirs = sp.posthoc_nemenyi_friedman(table)
    pd.testing.assert_frame_equal(ours, theirs.loc[ours.index, ours.columns], check_names=False)


def test_control_z_test_and_holm_by_hand(table):
    result = rank_comparison(table, control="m0")
    n, k = table.shape
    ranks = stats.rankdata(-table.to_numpy(), axis=1).mean(axis=0)
    z = (ranks[1:] - ranks[0]) / np.sqrt(k * (k + 1) / (6 * n))
    p = 2 * stats.norm.sf(np.abs(z))
    reject, adjusted, _, _ = multipletests(p, alpha=0.05, method="holm")
    rows = result.control_comparisons
    assert [r["model"] for r in rows] == ["m1", "m2", "m3", "m4"]
    np.testing.assert_allclose([r["statistic"] for r in rows], z)
    np.testing.assert_allclose([r["pvalue_holm"] for r in rows], adjusted)
    assert [r["significant"] for r in rows] == list(reject)


def test_control_wilcoxon_is_scipys(table):
    result = rank_comparison(table, control="m4", control_test="wilcoxon")
    # scipy of the scores as written (one decimal): in tenths, integers exact in floats, the
    # differences tied as written are tied (in floats 0.3 - 0.1 and 0.5 - 0.3 are not)
    tenths = np.round(10 * table.to_numpy())
    p = [stats.wilcoxon(tenths[:, j] - tenths[:, 4]).pvalue for j in range(4)]
    np.testing.assert_allclose([r["pvalue"] for r in result.control_comparisons], p)
    _, adjusted, _, _ = multipletests(p, method="holm")
    np.testing.assert_allclose([r["pvalue_holm"] for r in result.control_comparisons], adjusted)


def _exact_friedman_pvalue(scores):
    """P(statistic >= observed) when each data set's scores are ordered at random: every
    distinct order of every row but the first, scipy's Friedman statistic of each table."""
    observed = stats.friedmanchisquare(*scores.T).statistic
    orders = sorted(set(itertools.permutations(scores[0])))
    tables = itertools.product(orders, repeat=len(scores) - 1)
    statistics = [
        stats.friedmanchisquare(*np.array([scores[0], *rows]).T).statistic for rows in tables
    ]
    return np.mean(np.array(statistics) >= observed - 1e-9)


@pytest.mark.parametrize(
    "row, n_datasets",
    [
        ([3.0, 2.0, 1.0], 2),
        ([3.0, 2.0, 1.0], 3),
        ([0.9, 0.5, 0.5], 2),
        ([4.0, 3.0, 2.0, 1.0], 2),
        # scipy's tie-corrected chi2 falls a rounding step short: F was 3.4e15, p 8.6e-24
        ([1.0, 1.0, 2.0, 3.0], 2),
    ],
)
def test_perfect_agreement_gives_an_infinite_f_and_the_exact_pvalue(row, n_datasets):
    # the F distribution's p-value is 0 here however few the data sets (two data sets that
    # agree on three models happen once in six under the null)
    scores = np.tile(row, (n_datasets, 1))
    result = rank_comparison(scores)
    assert result.iman_davenport_statistic == np.inf
    assert result.iman_davenport_pvalue == pytest.approx(_exact_friedman_pvalue(scores))


@pytest.mark.parametrize(
    "scores, kwargs, match",
    [
        (np.ones((4, 2)), {}, "at least 3 models"),
        (np.ones((1, 3)), {}, "at least 3 models"),
        (np.array([[1, 2, np.nan], [1, 2, 3]]), {}, "NaN"),
        (np.ones((3, 3)), {"alpha": 1.5}, "'alpha' parameter"),
        (np.ones((3, 3)), {"control": "x"}, "'control' parameter"),
        (np.ones((3, 3)), {"control_test": "t"}, "'control_test' parameter"),
        ({"a": [1, 2], "b": [1], "c": [1, 2]}, {}, "same length"),
    ],
)
def test_bad_input_names_the_parameter(scores, kwargs, match):
    with pytest.raises(ValueError, match=match):
        rank_comparison(scores, **kwargs)
