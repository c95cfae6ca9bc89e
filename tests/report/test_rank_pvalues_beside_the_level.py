"""The report's Ranks section prints Friedman's and Iman-Davenport's p-values with the digits
that keep them on their side of the level printed beside them, and says which p-values they
are. Reference: every table of orders of the ranks, enumerated by hand."""

import itertools
import re
import warnings

import numpy as np
from scipy import stats

from sklearn_fair.report import BenchmarkResult

# 5 data sets x 4 models: the rank of each model on each data set
RANKS = [[0, 1, 2, 3], [1, 0, 3, 2], [0, 2, 1, 3], [1, 0, 2, 3], [0, 3, 1, 2]]
LEVELS = np.array([0.80, 0.75, 0.70, 0.65])


def _result():
    cells = {
        (f"d{i}", model): {
            "test_scores": [LEVELS[row[j]] - 0.01, LEVELS[row[j]], LEVELS[row[j]] + 0.01]
        }  # fmt: skip
        for i, row in enumerate(RANKS)
        for j, model in enumerate("abcd")
    }
    return BenchmarkResult.from_results(cells, metric="accuracy")


def _printed(text, name):
    return float(re.search(rf"{name}[^;]*?, p (\d[\d.e-]*\d)", text)[1])


def _every_order_pvalue(means):
    """P(sum of squared rank sums >= observed) over every table of orders of the rows but the
    first (24 ** 4 here), by hand: Friedman's permutation p-value."""
    ranks = stats.rankdata(-means, axis=1)
    orders = np.array(list(itertools.permutations(ranks[0])))
    n = len(ranks)
    totals = ranks[0] + orders[np.indices((len(orders),) * (n - 1)).reshape(n - 1, -1)].sum(0)
    return np.mean((totals**2).sum(axis=1) >= (ranks.sum(axis=0) ** 2).sum() - 1e-9)


def test_friedman_p_printed_on_its_side_of_the_level():
    means = np.array([[LEVELS[r] for r in row] for row in RANKS])
    # scipy's chi-square p-value is 0.0503, two digits of which printed the level itself; the
    # permutation p-value (Monte Carlo, of 9,999 draws, for 24 ** 4 tables) is near 0.0443
    assert 0.05 < stats.friedmanchisquare(*means.T).pvalue < 0.0505
    reference = _every_order_pvalue(means)
    assert 0.044 < reference < 0.045
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        text = str(_result().report())
    assert "at level 0.05" in text
    assert "(both Monte Carlo permutation p-values)" in text
    for name in ("Friedman's test", "Davenport's F"):
        printed = _printed(text, name)
        assert (printed <= 0.05) == (reference <= 0.05), (name, printed, reference)
        assert printed != 0.05
        assert abs(printed - reference) <= 0.05 * reference, name  # within Monte Carlo's error
