"""compare() prints a negated error (``neg_root_mean_squared_error``) as the report does: the
positive RMSE, lower is better, the difference and its interval in RMSE (hunt STATS36)."""

import re
import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn.base import clone
from sklearn.datasets import make_regression
from sklearn.dummy import DummyRegressor
from sklearn.linear_model import Ridge
from sklearn.metrics import root_mean_squared_error
from sklearn.model_selection import KFold

from sklearn_fair import NestedCV
from sklearn_fair.report import comparison_text
from sklearn_fair.stats import compare

N_SAMPLES, N_FOLDS = 100, 5
MODELS = {"ridge": Ridge(), "dummy": DummyRegressor()}
# a - b, "(a vs b)" and the interval, as compare() and comparison_text print them
NUMBER = r"([+-]?\d+\.\d+)"
COMPARE_LINE = re.compile(
    rf"ridge - dummy: {NUMBER}( RMSE)? \({NUMBER} vs {NUMBER}\), 95% interval "
    rf"\[{NUMBER}, {NUMBER}\]"
)
REPORT_LINE = re.compile(rf"ridge - dummy: {NUMBER} RMSE, 95% interval \[{NUMBER}, {NUMBER}\]")


def _fit(scoring):
    X, y = make_regression(N_SAMPLES, 3, noise=20, random_state=1)
    outer_cv = KFold(N_FOLDS, shuffle=True, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fits = {
            name: NestedCV(
                model, outer_cv=outer_cv, n_refits=1, scoring=scoring, random_state=0, n_jobs=1
            ).fit(X, y)
            for name, model in MODELS.items()
        }
    return X, y, fits


@pytest.fixture(scope="module")
def rmse_fits():
    return _fit("neg_root_mean_squared_error")


def _rmse_per_fold(X, y, fitted, model):
    """Each outer fold's RMSE, from sklearn's root_mean_squared_error of a refit."""
    rmse = []
    for fold in fitted.outer_results_:
        train, test = fold["train_indices"], fold["test_indices"]
        estimator = clone(model).set_params(**fold["best_params"]).fit(X[train], y[train])
        rmse.append(root_mean_squared_error(y[test], estimator.predict(X[test])))
    return np.array(rmse)


def test_compare_prints_an_error_in_its_units_as_the_report_does(rmse_fits):
    X, y, fits = rmse_fits
    rmse = {name: _rmse_per_fold(X, y, fits[name], model) for name, model in MODELS.items()}
    for name in MODELS:  # the folds recomputed are those compared
        np.testing.assert_allclose(rmse[name], -fits[name].outer_scores_)
    # the corrected resampled t-interval of the RMSE differences, from its formula
    d = rmse["ridge"] - rmse["dummy"]
    se = np.sqrt((1 / N_FOLDS + 1 / (N_FOLDS - 1)) * d.var(ddof=1))
    half = stats.t.ppf(0.975, N_FOLDS - 1) * se
    expected = [d.mean(), rmse["ridge"].mean(), rmse["dummy"].mean(), d.mean() - half]
    expected.append(d.mean() + half)

    result = compare(fits)
    text = repr(result)
    match = COMPARE_LINE.search(text)
    assert match is not None, text
    difference, unit, mean_a, mean_b, low, high = match.groups()
    printed = [float(v) for v in (difference, mean_a, mean_b, low, high)]
    assert unit == " RMSE", text
    np.testing.assert_allclose(printed, expected, atol=0.5e-4 + 1e-9)
    assert "printed here as the positive RMSE, lower is better" in text
    assert "lower is better" in result._repr_html_()
    verdict = re.compile(r"-> (ridge better|dummy better|difference not demonstrated)")
    assert verdict.search(text).group(1) == "ridge better"

    # comparison_text says the same, in the same direction and units, with fewer digits
    report = comparison_text(fits)
    reported = REPORT_LINE.search(report)
    assert reported is not None, report
    values = [float(v) for v in reported.groups()]
    ours = [printed[0], printed[3], printed[4]]
    assert np.sign(values).tolist() == np.sign(ours).tolist()
    decimals = len(reported.group(1).split(".")[1])
    np.testing.assert_allclose(ours, values, atol=0.5 * 10.0**-decimals + 0.5e-4)
    assert "lower is better" in report
    assert verdict.search(report).group(1) == "ridge better"

    # the table keeps the scorer's values (the negated RMSE)
    np.testing.assert_allclose(result["mean_a"][0], fits["ridge"].outer_scores_.mean())
    np.testing.assert_allclose(result["mean_difference"][0], -d.mean())
    low_rmse, high_rmse = expected[3:]
    np.testing.assert_allclose([result["ci_low"][0], result["ci_high"][0]], [-high_rmse, -low_rmse])


def test_compare_prints_scores_as_they_are_where_higher_is_better_or_unknown(rmse_fits):
    _, _, fits = _fit("r2")
    text = repr(compare(fits))
    match = COMPARE_LINE.search(text)
    assert match is not None and match.group(2) is None, text
    table = compare(fits)
    expected = [table[c][0] for c in ("mean_difference", "mean_a", "mean_b", "ci_low", "ci_high")]
    printed = [float(match.group(i)) for i in (1, 3, 4, 5, 6)]
    np.testing.assert_allclose(printed, expected, atol=0.5e-4 + 1e-9)
    assert "lower is better" not in text

    # dicts record no metric: their scores print as the scorer gave them
    _, _, rmse = rmse_fits
    dicts = {
        name: {
            "test_score": fitted.outer_scores_,
            "indices": {
                "train": [f["train_indices"] for f in fitted.outer_results_],
                "test": [f["test_indices"] for f in fitted.outer_results_],
            },
        }
        for name, fitted in rmse.items()
    }
    text = repr(compare(dicts))
    match = COMPARE_LINE.search(text)
    assert match is not None and match.group(2) is None, text
    assert float(match.group(3)) == pytest.approx(rmse["ridge"].outer_scores_.mean(), abs=1e-4)
    assert float(match.group(1)) > 0
