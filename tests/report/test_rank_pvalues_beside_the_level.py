"""The report's Ranks section prints Friedman's and Iman-Davenport's p-values with the digits
that keep them on their side of the level printed beside them: scipy's Friedman p of 0.0503
is not "p 0.05" next to "critical difference at level 0.05". Reference: scipy.stats."""

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


def test_friedman_p_printed_on_its_side_of_the_level():
    means = np.array([[LEVELS[r] for r in row] for row in RANKS])
    friedman = stats.friedmanchisquare(*means.T).pvalue
    k, n = means.shape[1], means.shape[0]
    chi2 = stats.friedmanchisquare(*means.T).statistic
    f = (n - 1) * chi2 / (n * (k - 1) - chi2)
    iman_davenport = stats.f.sf(f, k - 1, (k - 1) * (n - 1))
    assert 0.05 < friedman < 0.0505  # the case: two digits would print the level itself
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        text = str(_result().report())
    assert "at level 0.05" in text
    for name, reference in (("Friedman's test", friedman), ("Davenport's F", iman_davenport)):
        printed = _printed(text, name)
        assert (printed <= 0.05) == (reference <= 0.05), (name, printed, reference)
        assert printed != 0.05
        assert abs(printed - reference) <= 0.05 * reference, name  # two significant digits
