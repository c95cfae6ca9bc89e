"""Every p-value a comparison prints beside its verdict gets the digits that keep it on its
side of the level, the unadjusted one as the Holm-adjusted one: a corrected t p of 0.049975
(scipy's t distribution) is not "p = 0.05" beside "Holm p = 0.04997" and "-> A better"."""

import re

import numpy as np
from scipy import stats

from sklearn_fair.stats import compare
from sklearn_fair.stats._ranks import RankComparison

TARGET = 0.049975


def _two_models_at(target, n=5):
    """Fold scores of A and B on 5 folds of 100 rows whose corrected t p-value is ``target``."""
    rows = np.arange(100)
    test = [rows[i * 20 : (i + 1) * 20] for i in range(n)]
    train = [np.setdiff1d(rows, t) for t in test]
    spread = 0.01 * np.array([-2, -1, 0, 1, 2])
    critical = stats.t.isf(target / 2, n - 1)
    mean = critical * np.std(spread, ddof=1) * np.sqrt(1 / n + 20 / 80)
    b = np.array([0.70, 0.72, 0.74, 0.71, 0.73])
    indices = {"train": train, "test": test}
    return {
        "A": {"test_score": b + mean + spread, "indices": indices},
        "B": {"test_score": b, "indices": indices},
    }


def test_compare_prints_both_p_values_on_their_side_of_the_level():
    result = compare(_two_models_at(TARGET))
    assert abs(result.table["pvalue"][0] - TARGET) < 1e-9
    text = str(result)
    unadjusted = float(re.search(r"\], p = ([\d.]+\d)", text)[1])
    holm = float(re.search(r"Holm p = ([\d.]+\d)", text)[1])
    assert unadjusted < 0.05 and holm < 0.05  # as the p-value itself, and the verdict
    assert unadjusted == holm  # one pair: the same number, printed the same way


def test_ranks_print_the_control_comparison_p_on_its_side_of_the_level():
    comparison = RankComparison(
        models=("a", "b"),
        average_ranks={"a": 1.2, "b": 1.8},
        statistic=4.0,
        pvalue=0.0455,
        iman_davenport_statistic=5.0,
        iman_davenport_pvalue=0.06,
        pvalue_method="exact",
        critical_difference=0.5,
        pairwise_pvalues=np.eye(2),
        control="a",
        control_comparisons=[
            {
                "model": "b",
                "rank_difference": 0.6,
                "statistic": 1.96,
                "pvalue": 0.05004,
                "pvalue_holm": 0.05004,
                "significant": False,
            }  # fmt: skip
        ],
        alpha=0.05,
        n_datasets=10,
        n_models=2,
    )
    line = str(comparison).splitlines()[-1]
    assert re.search(r"rank difference \+0.60, p = 0.05004, Holm-adjusted p = 0.05004", line)


def test_the_mixed_model_prints_the_unadjusted_p_on_its_side_of_the_level():
    import dataclasses

    import pandas as pd

    from sklearn_fair.stats import repeated_measures_comparison

    rng = np.random.default_rng(0)
    scores = pd.DataFrame(
        {name: 0.8 + shift + rng.normal(0, 0.01, 6) for name, shift in (("a", 0), ("b", -0.01))}
    )
    result = repeated_measures_comparison(scores)
    table = result.table.assign(pvalue=0.05004, pvalue_holm=0.05004)
    line = repr(dataclasses.replace(result, table=table))
    assert "p = 0.05004, Holm p = 0.05004" in line
