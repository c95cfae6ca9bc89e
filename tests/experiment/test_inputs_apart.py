"""A run never writes over what it reads: with ``output_dir = "."`` and a data file named
``scores.csv`` beside the experiment file, the run overwrote the data with its own scores
(exit 0; the next run found no column 'price')."""

import csv

import pytest
from sklearn.datasets import make_regression
from sklearn.linear_model import Ridge

from sklearn_fair.cli import main
from sklearn_fair.exceptions import ExperimentConfigError
from sklearn_fair.experiment import run_experiment
from sklearn_fair.model_selection import save_splits

EXPERIMENT = """\
[experiment]
output_dir = "."
progress = false
[data]
dataset = "csv"
path = "{path}"
target = "price"
[protocol]
outer_cv = 3
inner_cv = 2
n_refits = 1
[models.ridge]
estimator = "sklearn.linear_model.Ridge"
[models.ridge2]
estimator = "sklearn.linear_model.Ridge"
params = {{ alpha = 2.0 }}
[benchmark]
baseline = "ridge"
"""


def _write_data(path):
    X, y = make_regression(n_samples=30, n_features=2, random_state=0)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["a", "b", "price"])
        writer.writerows([[*row, target] for row, target in zip(X, y)])
    return path.read_bytes()


def _no_fit(monkeypatch):
    def fit(self, *args, **kwargs):
        raise AssertionError("fitted before the file was refused")

    monkeypatch.setattr(Ridge, "fit", fit)


# every file a run with one data set, two models and a baseline writes (the guide's list)
OUTPUTS = [
    "scores.csv", "summary.csv", "report.md", "report.html", "reproducibility.json",
    "table.md", "budget.csv", "comparison.csv", "outputs.json", "models/ridge.json",
    "plots/intervals.png", "plots/comparison.svg",
]  # fmt: skip


@pytest.mark.parametrize("name", OUTPUTS)
def test_a_data_file_named_as_an_output_is_refused_before_any_fit(tmp_path, monkeypatch, name):
    before = _write_data(tmp_path / name)
    path = tmp_path / "exp.toml"
    path.write_text(EXPERIMENT.format(path=name))
    _no_fit(monkeypatch)
    with pytest.raises(ExperimentConfigError) as refused:
        run_experiment(path)
    message = str(refused.value)
    assert "line 6, key 'data.path'" in message, message
    assert f"the run would write {name} there" in message, message
    assert (tmp_path / name).read_bytes() == before


def test_the_cli_exits_2_and_the_data_stay(tmp_path, capsys):
    before = _write_data(tmp_path / "scores.csv")
    path = tmp_path / "exp.toml"
    path.write_text(EXPERIMENT.format(path="scores.csv"))
    assert main(["run", str(path)]) == 2
    assert "key 'data.path'" in capsys.readouterr().err
    assert (tmp_path / "scores.csv").read_bytes() == before
    assert not (tmp_path / "summary.csv").exists()


def test_a_data_file_beside_the_outputs_is_read_and_kept(tmp_path):
    before = _write_data(tmp_path / "prices.csv")
    path = tmp_path / "exp.toml"
    path.write_text(EXPERIMENT.format(path="prices.csv"))
    result = run_experiment(path)
    assert (tmp_path / "prices.csv").read_bytes() == before
    assert (tmp_path / "scores.csv").exists() and result.status["ridge"] == "computed"


def test_a_splits_file_named_as_an_output_is_refused(tmp_path, monkeypatch):
    _write_data(tmp_path / "prices.csv")
    save_splits([(list(range(10, 30)), list(range(10)))], tmp_path / "outputs.json")
    before = (tmp_path / "outputs.json").read_bytes()
    path = tmp_path / "exp.toml"
    path.write_text(
        EXPERIMENT.format(path="prices.csv").replace("outer_cv = 3", 'splits_file = "outputs.json"')
    )
    _no_fit(monkeypatch)
    with pytest.raises(ExperimentConfigError, match="key 'protocol.splits_file': the splits file"):
        run_experiment(path)
    assert (tmp_path / "outputs.json").read_bytes() == before


def test_an_experiment_file_named_as_an_output_is_refused(tmp_path, monkeypatch):
    _write_data(tmp_path / "prices.csv")
    path = tmp_path / "report.md"
    path.write_text(EXPERIMENT.format(path="prices.csv"))
    before = path.read_bytes()
    _no_fit(monkeypatch)
    with pytest.raises(
        ExperimentConfigError, match=r"line 2, key 'experiment.output_dir': the experiment file"
    ):
        run_experiment(path)
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "name, setting, key, problem",
    [
        ("prices.csv", 'output_dir = "prices.csv"', "data.path", "write the results folder there"),
        ("prices.csv", 'output_dir = "prices.csv/out"', "data.path", "write the results folder ("),
        ("prices.csv", 'cache_dir = "prices.csv"', "data.path", "write the task cache there"),
        # the task cache is the run's: the experiment file, the first input, may not lie in it
        ("prices.csv", 'cache_dir = "."', "experiment.cache_dir", "lies inside the task cache"),
        ("data/prices.csv", 'cache_dir = "data"', "data.path", "lies inside the task cache"),
    ],
)
def test_output_folders_on_an_input_are_refused(tmp_path, monkeypatch, name, setting, key, problem):
    before = _write_data(tmp_path / name)
    path = tmp_path / "exp.toml"
    if setting.startswith("cache_dir"):
        setting = f'output_dir = "out"\n{setting}'
    path.write_text(EXPERIMENT.format(path=name).replace('output_dir = "."', setting))
    _no_fit(monkeypatch)
    with pytest.raises(ExperimentConfigError) as refused:
        run_experiment(path)
    message = str(refused.value)
    assert f"key '{key}'" in message and problem in message, message
    assert (tmp_path / name).read_bytes() == before
