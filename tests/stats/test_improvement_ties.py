"""Every probability of improvement ties scores equal but for floating-point rounding.

``stats.probability_of_improvement`` (and compare_to's column, and the report's "P(model beats
baseline)") tie ``0.1 + 0.2`` with ``0.3``; ``BenchmarkResult.probability_of_improvement`` and
``aggregate()`` counted such a pair as a win.
"""

import warnings

import numpy as np
import pytest
from scipy import stats

from sklearn_fair.report import BenchmarkResult
from sklearn_fair.stats import _aggregate, probability_of_improvement

# 0.30000000000000004, 0.7, 0.7000000000000001, 0.5 against 0.3, 0.7, 0.7, 0.5
NOISY = [0.1 + 0.2, 0.7, 0.1 + 0.2 + 0.4, 0.5]
CLEAN = [0.3, 0.7, 0.7, 0.5]
BASE = [0.3, 0.7, 0.7, 0.5]
# By hand, with NOISY's scores at 0.3, 0.7, 0.7, 0.5: of the 16 pairs, 5 wins (0.7 > 0.3 and
# 0.7 > 0.5 twice each, 0.5 > 0.3) and 6 ties (0.3 = 0.3, 0.5 = 0.5, 0.7 = 0.7 four times):
# (5 + 6 / 2) / 16. Counting the noise as wins gave 0.59375.
BY_HAND = (5 + 6 / 2) / 16


def _benchmark(model_scores, base_scores=BASE):
    tests = [list(range(10 * i, 10 * i + 10)) for i in range(len(base_scores))]
    everything = range(10 * len(base_scores))

    def result(scores):
        folds = [
            {
                "test_score": s,
                "test_indices": t,
                "train_indices": [j for j in everything if j not in t],
            }
            for s, t in zip(scores, tests)
        ]
        return {"outer_results": folds}

    cells = {("d0", "m"): result(model_scores), ("d0", "base"): result(base_scores)}
    return BenchmarkResult.from_results(cells, metric="accuracy", baseline="base")


def test_rounding_ties_give_the_same_probability_everywhere():
    assert BY_HAND == 0.5
    assert probability_of_improvement(NOISY, BASE) == BY_HAND
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = _benchmark(NOISY)
        aggregated = result.aggregate()
        compared = result.compare_to()
    assert result.probability_of_improvement("m", "base")["estimate"] == BY_HAND
    assert aggregated.loc["m", "probability_of_improvement"] == BY_HAND
    assert compared.set_index("model").loc["m", "probability_of_improvement"] == BY_HAND
    assert _aggregate.average_probability_of_improvement([NOISY], [BASE]) == BY_HAND


def test_the_interval_does_not_see_rounding_noise():
    # the bootstrap resamples the same values: rounding noise must change neither the
    # estimate nor its interval
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        noisy, clean = _benchmark(NOISY).aggregate(), _benchmark(CLEAN).aggregate()
    columns = ["probability_of_improvement", "poi_ci_low", "poi_ci_high"]
    assert noisy.loc["m", columns].tolist() == clean.loc["m", columns].tolist()
    noisy = _aggregate.probability_of_improvement([NOISY], [BASE], names=("m", "base"))
    clean = _aggregate.probability_of_improvement([CLEAN], [BASE], names=("m", "base"))
    assert noisy == clean


def _rliable_by_hand(x, y):
    """P(X > Y) + P(X = Y) / 2 over every pair, by counting."""
    wins = sum(a > b for a in x for b in y)
    ties = sum(a == b for a in x for b in y)
    return (wins + ties / 2) / (len(x) * len(y))


def test_true_differences_still_count_as_rliable_defines_it():
    # differences far above rounding (1e-9 on 0.8) are wins, exact equalities ties
    x = [[0.81, 0.83, 0.80, 0.800000001, 0.85], [0.60, 0.70]]
    y = [[0.80, 0.83, 0.79, 0.84, 0.80], [0.70, 0.65, 0.70]]
    first = _rliable_by_hand(x[0], y[0])
    # wins: 0.81 > 0.80, 0.79, 0.80 (3); 0.83 > 0.80, 0.79, 0.80 (3); 0.80 > 0.79 (1);
    # 0.800000001 > 0.80, 0.79, 0.80 (3); 0.85 > all 5 (5); ties: 0.83 = 0.83, 0.80 = 0.80 twice
    assert first == (15 + 3 / 2) / 25
    assert _rliable_by_hand(x[1], y[1]) == (1 + 2 / 2) / 6  # 0.70 > 0.65; 0.70 = 0.70 twice
    expected = (first + _rliable_by_hand(x[1], y[1])) / 2
    assert _aggregate.average_probability_of_improvement(x, y) == pytest.approx(expected)
    estimate = _aggregate.probability_of_improvement(x, y)["estimate"]
    assert estimate == pytest.approx(expected)
    # and the Mann-Whitney U over n * m, rliable's own formula for one task
    u = stats.mannwhitneyu(x[0], y[0]).statistic
    assert u / 25 == pytest.approx(first)
    assert probability_of_improvement(x[0], y[0]) == pytest.approx(first)
    by_array = _aggregate.average_probability_of_improvement([np.array(x[0])], [y[0]])
    assert by_array == pytest.approx(first)
