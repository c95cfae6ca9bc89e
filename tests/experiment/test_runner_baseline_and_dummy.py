"""The runner's ``[benchmark] baseline_floor`` and dummy models on data with text columns."""

import csv
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.dummy import DummyRegressor
from sklearn.model_selection import KFold, cross_val_score

from sklearn_fair.exceptions import ExperimentConfigError, UnequalBudgetWarning
from sklearn_fair.experiment import run_experiment

BUDGET = """\
[experiment]
output_dir = "out"
random_state = 0
progress = false

[data]
dataset = "sklearn:iris"

[protocol]
outer_cv = 3
inner_cv = 2
n_refits = 1

[models.logreg]
estimator = "sklearn.linear_model.LogisticRegression"
params = { max_iter = 300 }
grid = { C = [0.01, 0.1, 1.0, 10.0] }  # 4 candidates against 1

[models.dummy]
estimator = "sklearn.dummy.DummyClassifier"

[benchmark]
baseline = "dummy"
"""


def _scores(result):
    return {
        name: [fold["test_score"] for fold in value["outer_results"]]
        for name, value in result.results.items()
    }


@pytest.mark.parametrize("floor", [None, "false"])
def test_a_baseline_not_declared_a_floor_warns_of_its_small_budget(tmp_path, floor):
    path = tmp_path / "budget.toml"
    path.write_text(BUDGET + ("" if floor is None else f"baseline_floor = {floor}\n"))
    with pytest.warns(UnequalBudgetWarning, match="baseline_floor"):
        run_experiment(path)


def test_baseline_floor_true_is_taken_silences_the_warning_and_scores_the_same(tmp_path):
    (tmp_path / "plain").mkdir()
    (tmp_path / "floor").mkdir()
    plain = tmp_path / "plain" / "budget.toml"
    plain.write_text(BUDGET)
    floor = tmp_path / "floor" / "budget.toml"
    floor.write_text(BUDGET + "baseline_floor = true\n")
    with pytest.warns(UnequalBudgetWarning):
        without = run_experiment(plain)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnequalBudgetWarning)
        with_floor = run_experiment(floor)
    assert with_floor.benchmark.baseline_floor
    assert not without.benchmark.baseline_floor
    assert _scores(with_floor) == _scores(without)


def test_baseline_floor_without_a_baseline_is_refused(tmp_path):
    path = tmp_path / "budget.toml"
    path.write_text(BUDGET.replace('baseline = "dummy"', "baseline_floor = true"))
    with pytest.raises(ExperimentConfigError, match="baseline_floor"):
        run_experiment(path)


def test_baseline_floor_must_be_a_bool(tmp_path):
    path = tmp_path / "budget.toml"
    path.write_text(BUDGET + 'baseline_floor = "yes"\n')
    with pytest.raises(ExperimentConfigError, match="true or false"):
        run_experiment(path)


TEXT = """\
[experiment]
output_dir = "out"
random_state = 0
progress = false

[data]
dataset = "csv"
path = "houses.csv"
target = "price"

[protocol]
outer_cv = {{ splitter = "sklearn.model_selection.KFold", params = {{ n_splits = 5, \
shuffle = true, random_state = 0 }} }}

[models.model]
estimator = "{estimator}"
"""


def _houses(tmp_path):
    rng = np.random.RandomState(0)
    n = 60
    frame = pd.DataFrame(
        {
            "area": rng.uniform(50, 200, n).round(1),
            "site": rng.choice(["north", "south", "east"], n),
            "price": rng.uniform(100, 400, n).round(2),
        }
    )
    frame.to_csv(tmp_path / "houses.csv", index=False, quoting=csv.QUOTE_MINIMAL)
    return frame


def test_a_dummy_regressor_runs_on_data_with_text_columns(tmp_path):
    frame = _houses(tmp_path)
    path = tmp_path / "text.toml"
    path.write_text(TEXT.format(estimator="sklearn.dummy.DummyRegressor"))
    result = run_experiment(path)
    scores = [fold["test_score"] for fold in result.results["model"]["outer_results"]]
    X, y = frame[["area", "site"]], frame["price"]
    expected = cross_val_score(
        DummyRegressor(), X, y, cv=KFold(n_splits=5, shuffle=True, random_state=0)
    )
    np.testing.assert_allclose(scores, expected)


@pytest.mark.parametrize(
    "estimator, preprocessing",
    [
        ("sklearn.linear_model.LinearRegression", None),
        # a dummy after a step that gets the text is not exempt
        ("sklearn.dummy.DummyRegressor", "sklearn.preprocessing.StandardScaler"),
    ],
)
def test_other_models_on_text_columns_are_still_refused(tmp_path, estimator, preprocessing):
    _houses(tmp_path)
    path = tmp_path / "text.toml"
    text = TEXT.format(estimator=estimator)
    if preprocessing is not None:
        text += f'preprocessing = ["{preprocessing}"]\n'
    path.write_text(text)
    with pytest.raises(ExperimentConfigError, match=r"\['site'\] hold text"):
        run_experiment(path)
