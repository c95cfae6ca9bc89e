"""benchmark's own parameters are checked, and named, as benchmark's (hunt DOCPARAMS,
DOCPARAMS-2 and -5): ``baseline_floor="no"`` was taken as True (the baseline declared a
chance-level floor, its budget warning silenced), and ``n_refits=0`` was refused as "The
'n_refits' parameter of NestedCV", a class the user did not call."""

import pytest
from sklearn.datasets import load_iris
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_fair import benchmark

X, y = load_iris(return_X_y=True)
MODELS = {"lr": LogisticRegression(), "chance": DummyClassifier()}


@pytest.mark.parametrize("value", ["no", "yes", 1, None])
def test_baseline_floor_must_be_a_bool(value):
    with pytest.raises(ValueError, match=r"'baseline_floor' parameter of benchmark must be an "):
        benchmark(MODELS, {"iris": (X, y)}, baseline="chance", baseline_floor=value)


@pytest.mark.parametrize(
    "setting, shown",
    [
        ({"n_refits": 0}, "'n_refits' parameter of benchmark must be an int in the range"),
        ({"select": "first"}, "'select' parameter of benchmark must be a str among"),
        ({"fit_timeout": 0}, "'fit_timeout' parameter of benchmark must be a float"),
        ({"error_score": "skip"}, "'error_score' parameter of benchmark must be a str among"),
        ({"outer_cv": 1}, "'outer_cv' parameter of benchmark must be an int in the range"),
    ],
)
def test_a_bad_setting_is_named_as_benchmarks(setting, shown):
    with pytest.raises(InvalidParameterError, match=shown) as raised:
        benchmark(MODELS, {"iris": (X, y)}, **setting)
    assert "NestedCV" not in str(raised.value)
