"""A difference and its interval print with the digits that show them: an interval that
straddles 0 visibly does, and a value that rounds to 0 keeps its true sign."""

import re
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression

from sklearn_fair import NestedCV
from sklearn_fair.report import comparison_text, nested_cv_report
from sklearn_fair.stats import compare
from sklearn_fair.utils._printing import signed

PAIR = re.compile(r"([+-]?[0-9.]+(?:e[+-]\d+)?) log loss, 95% interval \[(\S+), (\S+)\]")


@pytest.fixture(scope="module")
def close_pair():
    """Two logistic regressions whose log losses differ by about 1e-4, with an interval
    from about -5e-4 to +7e-4."""
    X, y = make_classification(n_samples=400, n_features=8, n_informative=4, random_state=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {
            name: NestedCV(
                LogisticRegression(max_iter=2000),
                {"C": [C]},
                outer_cv=5,
                inner_cv=3,
                n_refits=1,
                refit=False,
                random_state=0,
                scoring="neg_log_loss",
            ).fit(X, y)  # fmt: skip
            for name, C in (("a", 1.0), ("b", 0.9))
        }


def _truth(close_pair):
    """a - b in log loss (lower is better: the negated scores' difference) and its interval."""
    table = compare(close_pair).table
    difference = -float(table["mean_difference"][0])
    low, high = sorted([-float(table["ci_low"][0]), -float(table["ci_high"][0])])
    return difference, low, high


def _check(printed, truth):
    for text, value in zip(printed, truth):
        # the sign printed is the true one, and the number rounds the true one
        assert np.sign(float(text)) == np.sign(value), (text, value)
        digits = len(text.split(".")[1]) if "." in text else 0
        assert abs(float(text) - value) <= 0.5 * 10.0**-digits + 1e-12, (text, value)


def test_a_narrow_interval_straddling_zero_prints_its_signs(close_pair):
    difference, low, high = truth = _truth(close_pair)
    assert low < 0 < high and abs(difference) < 5e-4  # the case: all round to 0.000
    report = nested_cv_report(close_pair, n_resamples=20)
    sentence = PAIR.search(report.verdict())
    assert sentence is not None, report.verdict()
    _check(sentence.groups(), truth)
    text = PAIR.search(comparison_text(close_pair))
    _check(text.groups(), truth)
    assert text.groups() == sentence.groups()  # one pair, one printing
    section = next(s for s in report.sections() if s.title == "Pairwise comparison")
    row = [getattr(cell, "text", cell) for cell in section.rows[0]]
    bounds = re.fullmatch(r"\[(\S+), (\S+)\]", row[3]).groups()
    _check((row[2], *bounds), truth)


@pytest.mark.parametrize(
    "value, decimals", [(-0.00049, 3), (9.1e-05, 3), (-1e-12, 3), (-0.0004, 2), (0.4, 0)]
)
def test_signed_keeps_the_sign_of_a_value_that_rounds_to_zero(value, decimals):
    text = signed(value, decimals)
    assert text[0] == ("-" if value < 0 else "+")
    assert float(text) != 0 and np.isclose(float(text), value, rtol=0.5)


def test_signed_prints_zero_without_a_sign():
    assert signed(0.0, 3) == "0.000" and signed(-0.0, 3) == "0.000"


@pytest.mark.parametrize("alpha", [0.05, 0.01, 0.1])
def test_a_p_value_is_printed_on_its_side_of_the_level(alpha):
    # 0.05004 printed "0.05" beside "difference not demonstrated" at level 0.05: the rule
    # p <= alpha read on the printed number said demonstrated
    from sklearn_fair.utils._printing import pvalue

    steps = [1e-9, 1e-7, 1e-5, 4e-5, 1e-4, 4.9e-4, 2e-3]
    for value in [alpha + d for d in steps] + [alpha - d for d in steps] + [alpha]:
        text = pvalue(value, alpha)
        assert (float(text) <= alpha) == (value <= alpha), (value, text)
        assert float(text) != alpha or value == alpha, (value, text)
    assert pvalue(0.0123, alpha=0.05) == "0.012"  # two digits where they are enough
    # at a level printed as 0.05 (1 - 0.95 is 0.050000000000000044), a p of 0.05 is on it
    assert pvalue(0.05, alpha=1 - 0.95) == "0.05"
