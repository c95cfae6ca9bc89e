"""rank_comparison's documented answers to degenerate tables (its parity tests against autorank,
scikit-posthocs and scipy are tests/benchmarking/test_ranks.py)."""

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy.stats import wilcoxon as stats_wilcoxon

from sklearn_fair.exceptions import SklearnFairWarning
from sklearn_fair.stats import multiple_comparison, rank_comparison


def test_all_ties_give_p_one_and_a_warning_instead_of_nan():
    with pytest.warns(SklearnFairWarning, match="no ranks to compare"):
        result = rank_comparison(np.full((4, 3), 0.8), control="model_0")
    assert (result.statistic, result.pvalue) == (0.0, 1.0)
    assert (result.iman_davenport_statistic, result.iman_davenport_pvalue) == (0.0, 1.0)
    assert (result.pairwise_pvalues == 1.0).all()
    assert set(result.average_ranks.values()) == {2.0}
    assert [row["pvalue_holm"] for row in result.control_comparisons] == [1.0, 1.0]


def test_scores_equal_but_for_rounding_tie():
    # 0.1 + 0.2 is 0.30000000000000004: ranked first on every data set, Friedman found the
    # order of rounding significant (chi2 8.0, p 0.018) where the scores as written tie
    sums = [(a / 10 + b / 10, (a + b) / 10) for a, b in [(1, 2), (1, 7), (2, 4), (3, 6)]]
    values = np.array([[summed, written, written] for summed, written in sums])
    assert all(row[0] != row[1] for row in values)  # the sums differ from the scores by rounding
    written = np.round(values, 12)  # the reference: the scores as written tie everywhere
    assert (written == written[:, :1]).all()
    with pytest.warns(SklearnFairWarning, match="no ranks to compare"):
        result = rank_comparison(values)
    assert (result.statistic, result.pvalue) == (0.0, 1.0)
    assert set(result.average_ranks.values()) == {2.0}


def test_ties_within_some_data_sets_only_are_scipys_tie_correction():
    # One data set where every model ties, the others ranked: scipy's statistic, no warning.
    values = np.array([[0.8, 0.8, 0.8], [0.9, 0.8, 0.7], [0.91, 0.85, 0.7], [0.7, 0.8, 0.6]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = rank_comparison(values)
    assert np.isfinite(result.statistic) and 0 < result.pvalue < 1


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"alpha": float("nan")}, "'alpha' parameter"),
        ({"alpha": True}, "'alpha' parameter"),
        ({"greater_is_better": "yes"}, "'greater_is_better' parameter"),
        ({"control": 3}, "'control' parameter"),
    ],
)
def test_parameters_are_checked_by_name(kwargs, match):
    with pytest.raises(ValueError, match=match):
        rank_comparison(np.arange(9.0).reshape(3, 3), **kwargs)


def test_printing_a_comparison_with_a_control_shows_the_control_tests():
    rng = np.random.default_rng(0)
    scores = {m: rng.normal(mu, 0.02, 8) for m, mu in (("a", 0.8), ("b", 0.82), ("c", 0.7))}
    result = rank_comparison(scores, control="a")
    text = str(result)
    for row in result.control_comparisons:
        line = next(x for x in text.splitlines() if x.strip().startswith(f"{row['model']} against"))
        assert f"Holm-adjusted p = {row['pvalue_holm']:.3g}" in line
        assert ("(significant)" in line) == row["significant"]
    assert "against the control" not in str(rank_comparison(scores))


def test_a_dict_of_series_is_paired_by_data_set_not_by_position():
    # the Series list the data sets in other orders; pandas aligns them by index, and the
    # ranks are scipy's of the aligned table (by position, b's 0.6 on z was ranked on x)
    import pandas as pd
    from scipy import stats

    a = pd.Series([0.9, 0.8, 0.7], index=["x", "y", "z"])
    b = pd.Series([0.6, 0.85, 0.75], index=["z", "x", "y"])
    c = pd.Series([0.5, 0.6, 0.5], index=["x", "z", "y"])
    aligned = pd.DataFrame({"a": a, "b": b, "c": c}).to_numpy()
    result = rank_comparison({"a": a, "b": b, "c": c})
    np.testing.assert_allclose(
        list(result.average_ranks.values()), stats.rankdata(-aligned, axis=1).mean(axis=0)
    )
    assert result.statistic == pytest.approx(stats.friedmanchisquare(*aligned.T).statistic)


@pytest.mark.parametrize(
    "b",
    [
        [0.6, 0.85, 0.75],  # no index beside Series of different indexes
        "other labels",
        "a label twice",
    ],
)
def test_a_dict_of_series_that_cannot_be_paired_is_refused(b):
    import pandas as pd

    a = pd.Series([0.9, 0.8, 0.7], index=["x", "y", "z"])
    c = pd.Series([0.5, 0.6, 0.5], index=["x", "z", "y"])
    if b == "other labels":
        b = pd.Series([0.6, 0.85, 0.75], index=["z", "x", "w"])
    elif b == "a label twice":
        b = pd.Series([0.6, 0.85, 0.75], index=["z", "x", "x"])
    with pytest.raises(ValueError, match="cannot be paired by data set"):
        rank_comparison({"a": a, "b": b, "c": c})


def test_wilcoxon_against_a_control_that_scores_the_same_warns_ours_not_scipys():
    # no difference to rank: the signed-rank test has no evidence, W = 0 and p = 1 (scipy's
    # own values, which it returned with a RuntimeWarning of 0/0 from its normal approximation)
    table = np.array([[0.8, 0.8, 0.7], [0.7, 0.7, 0.6], [0.9, 0.9, 0.5], [0.6, 0.6, 0.4]])
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.warns(SklearnFairWarning, match="'model_1' and 'model_0' score the same"):
            result = rank_comparison(table, control="model_0", control_test="wilcoxon")
    row = result.control_comparisons[0]
    assert (row["statistic"], row["pvalue"]) == (0.0, 1.0)
    # the other model's test is scipy's
    other = stats_wilcoxon(table[:, 2], table[:, 0])
    assert (
        result.control_comparisons[1]["statistic"],
        result.control_comparisons[1]["pvalue"],
    ) == (
        other.statistic,
        other.pvalue,
    )


def test_a_model_of_more_than_one_column_in_a_dict_is_refused():
    # np.column_stack laid a 2-D model out as two columns beside the others: 4 columns for 3
    # names, so 'b' was ranked by a's second column (average ranks a 1, b 3.5, c 2); pandas
    # sees three models, 'a' a column of lists, not numbers
    scores = {"a": [[0.9, 0.1], [0.8, 0.2], [0.7, 0.3]], "b": [0.5, 0.6, 0.4], "c": [0.3, 0.2, 0.1]}
    assert pd.DataFrame(scores).shape == (3, 3)
    with pytest.raises(ValueError, match=r"'a' must be 1-D, one score per data set"):
        rank_comparison(scores)


def test_wilcoxon_ranks_differences_tied_as_written_as_ties():
    # 0.47 - 0.51 is -0.040000000000000036, 0.80 - 0.84 is -0.039999999999999925: the same
    # difference as written, two ranks in floats. scipy of the differences in hundredths
    # (integers, exact in floats) ties them: W = 9.5, p = 0.906, where the floats gave W = 10,
    # p = 1; the same in multiple_comparison's two-model signed-rank test
    a = np.array([0.47, 0.58, 0.97, 0.81, 0.63, 0.80])
    b = np.array([0.51, 0.60, 0.94, 0.77, 0.61, 0.84])
    reference = stats_wilcoxon(np.round(a * 100) - np.round(b * 100))
    assert (reference.statistic, reference.pvalue) == pytest.approx((9.5, 0.90625))
    table = np.column_stack([a, b, b - 0.05])
    result = rank_comparison(table, control="model_1", control_test="wilcoxon")
    row = result.control_comparisons[0]
    assert (row["statistic"], row["pvalue"]) == pytest.approx(
        (reference.statistic, reference.pvalue), abs=1e-12
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the checks' warnings on 6 data sets
        two = multiple_comparison({"a": a, "b": b}, test="nonparametric")
    assert (two.statistic, two.pvalue) == pytest.approx(
        (reference.statistic, reference.pvalue), abs=1e-12
    )


def test_ties_up_to_rounding_do_not_chain_past_it():
    # three sizes each within rounding of the next, the first and last not: the first two
    # tie, the third stays apart (steps of rounding do not tie 0.01 with 0.02)
    from sklearn_fair.stats._checks import pair_tolerances, rounding_ties_merged

    b = np.zeros(3)
    step = 0.6 * 2 * pair_tolerances(np.full(3, 0.04), b)[0]
    a = np.array([0.04, 0.04 + step, 0.04 + 2 * step])
    tolerances = pair_tolerances(a, b)
    assert a[1] - a[0] <= tolerances[0] + tolerances[1] < a[2] - a[0]
    merged = rounding_ties_merged(-a, b)
    assert merged.tolist() == [-a[0], -a[0], -a[2]]
    # signs are kept, a difference within rounding of 0 is 0
    merged = rounding_ties_merged(np.array([0.81, 0.80, 0.1 + 0.2]), np.array([0.77, 0.84, 0.3]))
    assert merged[0] == -merged[1] != 0 and merged[2] == 0.0


@pytest.mark.parametrize(
    "scores",
    [
        pd.DataFrame(
            np.array([[0.70, 0.80, 0.90], [0.71, 0.79, 0.92], [0.69, 0.82, 0.91]]),
            columns=["svm", "rf", "svm"],
        ),
        {1: [0.70, 0.71, 0.69], "1": [0.80, 0.79, 0.82], 2: [0.90, 0.92, 0.91]},
    ],
    ids=["columns", "dict keys printed alike"],
)
def test_model_names_that_repeat_are_refused_not_merged(scores):
    # two models under one name (pd.concat of two runs) would leave one rank for both
    with pytest.raises(ValueError, match="names .* repeat"):
        rank_comparison(scores)
    with pytest.raises(ValueError, match="names .* repeat"):
        multiple_comparison(scores, test="nonparametric")
