"""The arguments of dry_run, run_experiment, load_config and Limits, checked where they are
given: each error names the function (or the limit), the parameter and the value."""

import numpy as np
import pytest
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_fair.exceptions import ExperimentConfigError
from sklearn_fair.experiment import Limits, dry_run, dry_run_benchmark, load_config, run_experiment
from sklearn_fair.experiment._reading._limits import parse_limits

IRIS = """\
[experiment]
progress = false
output_dir = "out"

[data]
dataset = "sklearn:iris"

[protocol]
outer_cv = 3
n_refits = 1

[models.knn]
estimator = "sklearn.neighbors.KNeighborsClassifier"
grid = { n_neighbors = [3, 5] }
"""


@pytest.fixture
def path(tmp_path):
    path = tmp_path / "iris.toml"
    path.write_text(IRIS)
    return path


def _refused(function, param, value, call):
    with pytest.raises(InvalidParameterError) as caught:
        call()
    message = str(caught.value)
    assert f"The '{param}' parameter of {function} must be" in message
    assert f"Got {value!r} instead" in message
    return message


# n_jobs=1.5 and True were printed as "wall time at n_jobs=1.5", "2" was joblib's TypeError;
# n_timed=0 an IndexError; sample_size 0 and 2.5 "the timing fit of candidate 0 ... failed";
# timing="no" was taken as true
@pytest.mark.parametrize(
    "param, value",
    [
        ("n_jobs", 1.5),
        ("n_jobs", True),
        ("n_jobs", "2"),
        ("n_jobs", 0),
        ("n_timed", 0),
        ("n_timed", 2.5),
        ("sample_size", 0),
        ("sample_size", 2.5),
        ("timing", "no"),
        ("limits", "strict"),
    ],
)
def test_dry_run_refuses_its_own_bad_arguments(path, param, value):
    _refused("dry_run", param, value, lambda: dry_run(path, **{param: value}))


@pytest.mark.filterwarnings("ignore:dry_run_benchmark is deprecated:FutureWarning")
@pytest.mark.parametrize("param, value", [("n_jobs", 1.5), ("n_timed", 0), ("timing", "no")])
def test_dry_run_benchmark_names_itself(path, param, value):
    _refused("dry_run_benchmark", param, value, lambda: dry_run_benchmark(path, **{param: value}))


def test_n_jobs_as_joblib_counts_them_is_accepted(path):
    assert dry_run(path, timing=False, n_jobs=np.int64(-2)).config.n_jobs == -2


# n_jobs=1.5 was refused under the name of benchmark, 0 with joblib's own message
@pytest.mark.parametrize(
    "param, value",
    [("n_jobs", 1.5), ("n_jobs", 0), ("n_jobs", True), ("progress", "no"), ("limits", "strict")],
)
def test_run_experiment_refuses_bad_arguments_under_its_own_name(path, param, value):
    _refused("run_experiment", param, value, lambda: run_experiment(path, **{param: value}))
    assert not (path.parent / "out").exists()  # before anything is written


def test_load_config_refuses_limits_given_as_a_string(path):
    # it walked "strict" letter by letter: "--limit takes NAME=VALUE ...; got 's'"
    message = _refused(
        "load_config", "limits", "strict", lambda: load_config(path, limits="strict")
    )
    assert "'dict'" in message and "Limits" in message and "--limit" not in message


@pytest.mark.parametrize(
    "field, value",
    [("refits", -5), ("refits", 0), ("refits", 2.5), ("refits", True), ("file_size", "1MB")],
)
def test_limits_refuses_a_value_that_is_not_a_positive_int(field, value):
    # Limits(refits=-5) gave "the number of refits is 3, more than the limit of -5",
    # Limits(file_size="1MB") a TypeError from comparing an int with a str
    expected = f"The limit {field} must be a positive integer; got {value!r}."
    with pytest.raises(ExperimentConfigError) as caught:
        Limits(**{field: value})
    assert str(caught.value) == expected
    # the same rule for a dict and for the command line's --limit NAME=VALUE
    with pytest.raises(ExperimentConfigError, match="must be a positive integer"):
        parse_limits({field: value})
    if isinstance(value, int) and not isinstance(value, bool):
        with pytest.raises(ExperimentConfigError) as caught:
            parse_limits([f"{field}={value}"])
        assert str(caught.value) == expected


def test_limits_takes_numpy_ints_and_keeps_the_depth_the_reader_follows():
    limits = Limits(refits=np.int64(5), jobs=None)
    assert limits.refits == 5 and type(limits.refits) is int and limits.jobs >= 1
    with pytest.raises(ExperimentConfigError, match="depth can be raised to at most 200; got 500"):
        Limits(depth=500)
