"""aggregate() across data sets scored with a metric not in [0, 1] (an RMSE, in each data set's
own units): BenchmarkResult.aggregate warns that normalize=None mixes the units, and the
runner's aggregate.csv pools the scores min-max normalised, as its ``normalize`` column says."""

import csv
import warnings

import numpy as np
import pytest
from scipy.stats import trim_mean
from sklearn.datasets import make_regression
from sklearn.dummy import DummyClassifier, DummyRegressor
from sklearn.linear_model import LogisticRegression, Ridge

from sklearn_fair import benchmark
from sklearn_fair.cli import main
from sklearn_fair.exceptions import SklearnFairWarning

pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")


def _regression(scale, seed):
    X, y = make_regression(n_samples=40, n_features=3, noise=10, random_state=seed)
    return X, y * scale


@pytest.fixture(scope="module")
def errors():
    datasets = {"dollars": _regression(1000.0, 0), "units": _regression(1.0, 1)}
    models = {"mean": DummyRegressor(), "ridge": Ridge()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return benchmark(
            models, datasets, outer_cv=3, inner_cv=2, n_refits=1,
            scoring="neg_root_mean_squared_error", random_state=0,
        )  # fmt: skip


def test_raw_pool_of_errors_warns_that_it_mixes_units(errors):
    with pytest.warns(SklearnFairWarning, match="each data set's own scale") as record:
        frame = errors.aggregate(n_resamples=20)
    assert "normalize='minmax'" in str(record[0].message)
    # the numbers are unchanged: the errors pooled as they are
    rmse = np.concatenate([-errors.estimators[d, "ridge"].outer_scores_ for d in errors.datasets])
    assert frame.loc["ridge", "mean"] == pytest.approx(rmse.mean())


def test_no_warning_where_the_pool_is_on_one_scale(errors):
    with warnings.catch_warnings():
        warnings.simplefilter("error", SklearnFairWarning)
        errors.aggregate(normalize="minmax", n_resamples=20)
        errors.aggregate(normalize=("mean", "ridge"), n_resamples=20)
    rng = np.random.RandomState(0)
    datasets = {
        name: (rng.randn(40, 3), rng.randint(0, 2, 40)) for name in ("a", "b")
    }  # accuracy is in [0, 1] on every data set
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        accuracy = benchmark(
            {"prior": DummyClassifier(), "lr": LogisticRegression()}, datasets, outer_cv=3,
            inner_cv=2, n_refits=1, random_state=0,
        )  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("error", SklearnFairWarning)
        accuracy.aggregate(n_resamples=20)


EXPERIMENT = """
[experiment]
random_state = 0
output_dir = "out"
progress = false

[data.dollars]
dataset = "csv"
path = "dollars.csv"
target = "target"

[data.units]
dataset = "csv"
path = "units.csv"
target = "target"

[protocol]
outer_cv = 3
inner_cv = 2
n_refits = 1
scoring = "neg_root_mean_squared_error"

[models.mean]
estimator = "sklearn.dummy.DummyRegressor"

[models.ridge]
estimator = "sklearn.linear_model.Ridge"
grid = { alpha = [0.1, 10.0] }
"""


def _write_data(folder):
    for name, scale, seed in (("dollars", 1000.0, 0), ("units", 1.0, 1)):
        X, y = _regression(scale, seed)
        rows = ["x0,x1,x2,target"] + [
            ",".join(repr(float(v)) for v in [*x, t]) for x, t in zip(X, y)
        ]
        (folder / f"{name}.csv").write_text("\n".join(rows) + "\n")


def _read(path):
    with open(path, newline="") as file:
        return list(csv.DictReader(file))


def test_runner_writes_the_aggregate_of_errors_normalised(tmp_path):
    _write_data(tmp_path)
    (tmp_path / "reg.toml").write_text(EXPERIMENT)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(["run", str(tmp_path / "reg.toml")]) == 0
    out = tmp_path / "out"
    scores = _read(out / "scores.csv")  # each fold's RMSE, in its data set's units
    rmse = {}
    for row in scores:
        rmse.setdefault((row["dataset"], row["model"]), []).append(float(row["score"]))
    # rliable's min-max scale by hand: on each data set the worst model's mean RMSE is 0, the
    # best's 1
    normalised = {"mean": [], "ridge": []}
    for dataset in ("dollars", "units"):
        means = {m: np.mean(rmse[dataset, m]) for m in normalised}
        worst, best = max(means.values()), min(means.values())
        for model in normalised:
            normalised[model].append((worst - np.array(rmse[dataset, model])) / (worst - best))
    aggregate = {row["model"]: row for row in _read(out / "aggregate.csv")}
    for model, per_dataset in normalised.items():
        assert aggregate[model]["normalize"] == "minmax"
        # the file alone says which end is the best: the lowest RMSE became 1
        assert aggregate[model]["metric"].endswith(
            "normalised (1 the best model's mean, 0 the worst's)"
        )
        pooled = np.concatenate(per_dataset)
        assert float(aggregate[model]["mean"]) == pytest.approx(pooled.mean(), abs=1e-12)
        assert float(aggregate[model]["iqm"]) == pytest.approx(trim_mean(pooled, 0.25))
    assert float(aggregate["ridge"]["mean"]) == pytest.approx(1.0)


def test_runner_of_one_model_leaves_out_the_aggregate_and_says_why(tmp_path):
    _write_data(tmp_path)
    one_model = EXPERIMENT.split("[models.ridge]")[0]
    (tmp_path / "reg.toml").write_text(one_model)
    with pytest.warns(SklearnFairWarning, match="aggregate.csv is not written"):
        assert main(["run", str(tmp_path / "reg.toml")]) == 0
    assert not (tmp_path / "out" / "aggregate.csv").exists()
    assert (tmp_path / "out" / "scores.csv").exists()


def test_runner_of_one_data_set_pools_its_errors_as_scored(tmp_path):
    # one data set pools nothing across scales: its aggregate is of the RMSEs themselves (it
    # was min-max normalised, 0.0 and 1.0, and with one model not written)
    _write_data(tmp_path)
    start, end = EXPERIMENT.index("[data.units]"), EXPERIMENT.index("[protocol]")
    (tmp_path / "reg.toml").write_text(EXPERIMENT[:start] + EXPERIMENT[end:])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(["run", str(tmp_path / "reg.toml")]) == 0
    out = tmp_path / "out"
    rmse = {}
    for row in _read(out / "scores.csv"):
        rmse.setdefault(row["model"], []).append(float(row["score"]))
    aggregate = {row["model"]: row for row in _read(out / "aggregate.csv")}
    for model, scores in rmse.items():
        assert aggregate[model]["normalize"] == "none"
        assert float(aggregate[model]["mean"]) == pytest.approx(np.mean(scores))


def test_bounded_scores_of_several_data_sets_pool_without_a_warning():
    # kappa and MCC lie in [-1, 1] on every data set, without units: they were said to be "on
    # each data set's own scale" and min-max normalised in aggregate.csv
    from sklearn.datasets import load_breast_cancer, load_iris

    datasets = {"iris": load_iris(return_X_y=True), "bc": load_breast_cancer(return_X_y=True)}
    for scoring in ("matthews_corrcoef", "kappa"):
        result = benchmark(
            {"prior": DummyClassifier(), "lr": LogisticRegression(max_iter=1000)},
            datasets, outer_cv=3, inner_cv=2, n_refits=1, random_state=0, scoring=scoring,
        )  # fmt: skip
        with warnings.catch_warnings():
            warnings.simplefilter("error", SklearnFairWarning)
            result.aggregate(n_resamples=20)
        assert not result._in_own_units()
