"""The digits a table and a report print a model's numbers with are its own: a diverged model's
mean of 1e26 in the same data set does not round every other model's to "0.01 ± 0.00", and
means of 1e15 or more get the digits that print the best apart from a model not tied with it,
as small means do. References: scikit-learn's cross_val_score on the same splits, numpy."""

import math
import re
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_regression
from sklearn.linear_model import LinearRegression, Ridge, SGDRegressor
from sklearn.model_selection import KFold, cross_val_score

from sklearn_fair import benchmark
from sklearn_fair.report._format import best_apart
from sklearn_fair.utils._printing import decimals_for, number

CV = KFold(5)
SCORING = "neg_mean_squared_error"


def _reference(model, X, y):
    """The mean and std (ddof 0, as the table prints) of the fold MSEs, by scikit-learn."""
    mse = -cross_val_score(model, X, y, cv=CV, scoring=SCORING)
    return float(np.mean(mse)), float(np.std(mse))


def _half_unit(text):
    """Half a unit in the last printed place of ``text`` (0.01080: 5e-6; 1.07711e+26: 5e20)."""
    mantissa, _, exponent = text.partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 0.5 * 10.0 ** (int(exponent or 0) - decimals)


def _assert_prints(text, value):
    """``text`` is ``value`` to within its own printed precision."""
    assert abs(float(text) - value) <= _half_unit(text) + 1e-12 * abs(value), (text, value)


def _mean_std(cell):
    """A table cell's printed mean and std, its marks dropped: "*0.01080 ± 0.00358*"."""
    mean, std = cell.strip("*").split(" ± ")
    return mean, std


def _report_mean_std(result, model):
    """The report's "mean ± std" of ``model`` (its Markdown test performance row)."""
    for line in result.report().to_markdown().splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0] == model and len(cells) > 2 and " ± " in cells[2]:
            return _mean_std(cells[2])
    raise AssertionError(f"no test performance row of {model}")


@pytest.fixture(scope="module")
def diverged():
    X, y = make_regression(80, 4, noise=10, random_state=0)
    X = X * [1, 10, 100, 1000]  # unscaled features: plain SGD diverges to a finite, huge MSE
    y = y / 100
    models = {
        "ridge": Ridge(solver="cholesky"),
        "ols": LinearRegression(),
        "sgd": SGDRegressor(eta0=1e-4, random_state=0, max_iter=50),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SGD's overflow and convergence warnings
        reference = {name: _reference(model, X, y) for name, model in models.items()}
        kwargs = dict(outer_cv=CV, scoring=SCORING, random_state=0)
        with_sgd = benchmark(models, {"d": (X, y)}, **kwargs)
        without = benchmark({k: models[k] for k in ("ridge", "ols")}, {"d": (X, y)}, **kwargs)
    return reference, with_sgd, without


def test_a_diverged_model_leaves_the_other_models_digits(diverged):
    reference, with_sgd, without = diverged
    assert reference["sgd"][0] > 1e20  # the fault's premise: it diverged, finitely
    table, alone = with_sgd.table()["d"], without.table()["d"]
    for model in ("ridge", "ols", "sgd"):
        mean, std = _mean_std(table[model])
        _assert_prints(mean, reference[model][0])
        _assert_prints(std, reference[model][1])
        # two significant digits of the spread, at least (0.00358 printed as 0.00 before)
        assert abs(float(std) - reference[model][1]) <= 0.05 * reference[model][1]
    assert _mean_std(table["ridge"])[0] != _mean_std(table["ols"])[0]
    for model in ("ridge", "ols"):
        assert _mean_std(table[model]) == _mean_std(alone[model])


def test_a_diverged_model_leaves_the_reports_digits(diverged):
    reference, with_sgd, without = diverged
    printed = {m: _report_mean_std(with_sgd, m) for m in ("ridge", "ols")}
    assert printed["ridge"][0] != printed["ols"][0]
    for model, (mean, std) in printed.items():
        _assert_prints(mean, reference[model][0])
        _assert_prints(std, reference[model][1])
        assert (mean, std) == _report_mean_std(without, model)


@pytest.mark.parametrize("scale", [1e-12, 1.0, 1e12])
def test_the_best_prints_apart_at_every_magnitude(scale):
    X, y = make_regression(80, 4, noise=10, random_state=0)
    y = y * scale  # MSEs of about 1e-22, 1e2 and 1e26
    models = {"ridge": Ridge(alpha=0.01, solver="cholesky"), "ols": LinearRegression()}
    reference = {name: _reference(model, X, y) for name, model in models.items()}
    # the premise: close, and not tied at the 12 significant digits the ranks read
    ridge, ols = reference["ridge"][0], reference["ols"][0]
    assert ols < ridge and f"{ridge:.11e}" != f"{ols:.11e}"
    assert abs(ridge - ols) < 1e-4 * ridge
    result = benchmark(models, {"d": (X, y)}, outer_cv=CV, scoring=SCORING, random_state=0)
    table = result.table()["d"]
    means = {m: _mean_std(table[m])[0] for m in models}
    assert means["ridge"] != means["ols"]
    assert float(means["ols"]) < float(means["ridge"])  # the order numpy gives
    assert table["ols"].startswith("**")  # and the bold one is the lower MSE
    for model, mean in means.items():
        _assert_prints(mean, reference[model][0])
    report = {m: _report_mean_std(result, m)[0] for m in models}
    assert report["ridge"] != report["ols"]
    for model, mean in report.items():
        _assert_prints(mean, reference[model][0])


def test_number_grows_a_large_mantissa_only_where_decimals_ask():
    value = 1.0771106352384825e26
    # up to MAX_DECIMALS, five significant digits, as before
    assert {number(value, d) for d in range(7)} == {"1.0771e+26"}
    assert number(value, 7) == "1.07711e+26"
    assert number(value, 9) == "1.0771106e+26"
    assert number(-7.5e307, 8) == "-7.500000e+307"


def test_a_spread_is_weighed_against_its_own_value():
    # 1 - floor(log10(0.00358)) = 4 decimals, with the diverged model or without it
    means, stds = [0.0108, 0.01077, 2.6e26], [0.00358, 0.00359, 1.77e26]
    assert decimals_for(means, stds) == decimals_for(means[:2], stds[:2]) == 4
    # equal scores' rounding still counts as no spread: 0.8 +/- 1e-16 with 1 +/- 0.053
    assert decimals_for([0.8, 1.0], [1.1e-16, 0.053]) == 3
    # each pair compared to its own digits: 0.0108 vs 0.01077 at 5 decimals
    assert best_apart(means, 4, greater_is_better=False) == 5
    # 1.0771106e26 vs 1.0771041e26 first print apart with 6 significant digits
    large = [1.0771106352384825e26, 1.0771041400326812e26]
    d = best_apart(large, 0, greater_is_better=False)
    assert number(large[0], d) != number(large[1], d)
    assert len(re.sub(r"\D", "", number(large[0], d).partition("e")[0])) == 6
    assert math.isclose(float(number(large[1], d)), 1.07710e26)
