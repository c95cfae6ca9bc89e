"""BenchmarkResult.compare_to_reference checks its arguments: n_folds=0 gave reference_se=inf
and in_reference_se=0.0 (perfect agreement, it seemed), a negative std flipped the sign of the
result, a reference in percent with scale=1 gave -50 standard errors, and a bare mean raised
"'float' object is not iterable". plot_predictions with names that name no cell raised a bare
KeyError; it names the cells and spots swapped names, as compare_to_reference does."""

import math
import warnings

import numpy as np
import pytest
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_fair import BenchmarkResult

from ._saved_folds import saved_folds

SCORES = [0.90, 0.94, 0.92, 0.96]
CELL = ("iris", "tree")


@pytest.fixture(scope="module")
def result():
    cells = {(d, m): saved_folds(SCORES) for d in ("iris", "wine") for m in ("tree", "knn")}
    return BenchmarkResult.from_results(cells, metric="accuracy")


@pytest.mark.parametrize(
    "name, value",
    [("n_folds", 0), ("n_folds", -4), ("n_folds", 1), ("n_folds", 2.5), ("n_folds", True),
     ("scale", 0), ("scale", -1.0), ("scale", "100")],
)  # fmt: skip
def test_n_folds_and_scale_out_of_range_are_refused(result, name, value):
    with pytest.raises(InvalidParameterError) as error:
        result.compare_to_reference({CELL: (0.95, 0.04)}, **{name: value})
    message = str(error.value)
    assert f"'{name}' parameter of BenchmarkResult.compare_to_reference" in message
    assert f"Got {value!r} instead" in message


@pytest.mark.parametrize(
    "value",
    [0.8, np.nan, (0.8, 0.05, 10), (0.8,), (0.8, -0.05), ("0.8", "0.05"), (0.8, math.inf),
     (True, 0.05), "0.8"],
)  # fmt: skip
def test_a_value_that_is_no_mean_and_std_pair_is_refused_naming_its_key(result, value):
    with pytest.raises(ValueError) as error:
        result.compare_to_reference({CELL: value})
    message = str(error.value)
    assert "'reference' parameter of compare_to_reference" in message
    assert "(mean, std) pair of real numbers, the std at least 0" in message
    assert f"Got {value!r} for {CELL!r} instead." in message


@pytest.mark.parametrize(
    "value, scale, shown",
    [((80.0, 5.0), 1.0, "[0, 1] (a reference in percent needs scale=100)"),
     ((-0.1, 0.05), 1.0, "[0, 1] (a reference in percent"),
     ((120.0, 5.0), 100.0, "[0, 100]. Got")],
)  # fmt: skip
def test_a_mean_outside_the_metric_range_times_scale_is_refused(result, value, scale, shown):
    with pytest.raises(ValueError) as error:
        result.compare_to_reference({CELL: value}, scale=scale)
    message = str(error.value)
    assert "'reference' parameter of compare_to_reference" in message
    assert "range of the accuracy scores, [0, 1]" in message and shown in message
    assert f"Got a mean of {value[0]!r} for {CELL!r} instead." in message


@pytest.mark.parametrize("pair", [(95.0, 4.0), [95, 4], np.array([95.0, 4.0])])
def test_the_reference_standard_error_is_that_of_its_mean(result, pair):
    table = result.compare_to_reference({CELL: pair}, scale=100, n_folds=np.int64(5))
    row = table.iloc[0]
    mean = 100 * np.mean(SCORES)  # 93.0
    se = 4.0 / math.sqrt(5)
    assert row["mean"] == pytest.approx(mean)
    assert row["reference_se"] == pytest.approx(se)
    assert row["in_reference_se"] == pytest.approx((mean - 95.0) / se)  # -1.118, negative
    assert row["in_reference_se"] == pytest.approx(-1.1180339887)


def test_a_reference_not_verified_is_nan(result):
    # the docstring's "NaN where not verified", as benchmarks/reproduce_fair_comparison gives it
    row = result.compare_to_reference({CELL: (np.nan, np.nan)}, scale=100).iloc[0]
    assert np.isnan(row[["reference_mean", "reference_se", "in_reference_se"]].astype(float)).all()
    assert row["mean"] == pytest.approx(93.0)


@pytest.mark.parametrize(
    "dataset, model, got",
    [("tree", "iris", "('tree', 'iris') (it looks swapped: ('iris', 'tree') is a cell)"),
     ("iris", "tre", "('iris', 'tre')")],
)  # fmt: skip
def test_plot_predictions_of_names_that_name_no_cell_lists_the_names(result, dataset, model, got):
    with pytest.raises(ValueError) as error:
        result.plot_predictions(dataset, model)
    message = str(error.value)
    assert "'dataset' and 'model' parameters of BenchmarkResult.plot_predictions" in message
    assert f"Got {got} instead." in message
    assert "(dataset, model) pair, with dataset one of 'iris', 'wine'" in message
    assert "model one of 'tree', 'knn'" in message


@pytest.mark.parametrize("reference_mean", [95.0, 93.0])
def test_a_published_std_of_zero_gives_no_distance_in_standard_errors(result, reference_mean):
    # a std of 0 gave in_reference_se=-inf for 95.0, and NaN with a RuntimeWarning for the
    # mean of our scores, 93.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        table = result.compare_to_reference({CELL: (reference_mean, 0.0)}, scale=100)
    row = table.iloc[0]
    assert row["reference_se"] == 0.0
    assert row["difference"] == pytest.approx(93.0 - reference_mean)
    assert math.isnan(row["in_reference_se"])


def test_a_published_std_gives_the_distance_in_its_standard_errors(result):
    # by hand: mean 93, published 95 +- 4 over 10 folds: -2 / (4 / sqrt(10)) = -sqrt(10) / 2
    table = result.compare_to_reference({CELL: (95.0, 4.0)}, scale=100)
    assert table.iloc[0]["in_reference_se"] == pytest.approx(-math.sqrt(10) / 2)
