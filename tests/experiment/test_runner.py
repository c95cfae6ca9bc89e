import csv
import json

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.model_selection import StratifiedKFold

from sklearn_fair import NestedCV
from sklearn_fair.cli import main
from sklearn_fair.experiment import run_experiment
from sklearn_fair.model_selection import save_splits

TINY = """\
[experiment]
name = "tiny"
output_dir = "out"
random_state = 0
progress = false

[data]
dataset = "sklearn:iris"

[protocol]
outer_cv = 3
n_refits = 1

[models.logreg]
estimator = "sklearn.linear_model.LogisticRegression"
params = { max_iter = 300 }
grid = { C = [0.1, 1.0] }

[models.knn]
estimator = "sklearn.neighbors.KNeighborsClassifier"
preprocessing = ["sklearn.preprocessing.StandardScaler"]
grid = { n_neighbors = [3, 9] }
"""


@pytest.fixture
def experiment(tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(TINY)
    return path


def test_run_writes_results_folder_and_resumes(experiment, monkeypatch):
    first = run_experiment(experiment)
    out = experiment.parent / "out"
    assert first.output_dir == out
    assert first.status == {"logreg": "computed", "knn": "computed"}
    for name in (
        "models/logreg.json",
        "models/knn.json",
        "summary.csv",
        "report.md",
        "report.html",
        "reproducibility.json",
    ):
        assert (out / name).is_file(), name
    document = json.loads((out / "models/logreg.json").read_text())
    assert document["config_hash"].startswith("sha256:")
    assert len(document["result"]["outer_results"]) == 3
    with open(out / "summary.csv") as file:
        rows = list(csv.DictReader(file))
    assert [row["model"] for row in rows] == ["logreg", "knn"]
    assert float(rows[0]["test_mean"]) == pytest.approx(first.report.rows[0]["test_mean"])
    report = (out / "report.md").read_text()
    assert report.startswith("# Experiment tiny")
    assert "Reproducibility card" in report and "median" in report
    if pytest.importorskip("matplotlib"):
        for name in ("fold_scores", "optimism", "comparison"):
            assert (out / "plots" / f"{name}.png").stat().st_size > 0
            assert "<svg" in (out / "plots" / f"{name}.svg").read_text()

    # The re-run fits nothing and reports the same numbers.
    def no_fit(self, *args, **kwargs):
        raise AssertionError("a cached model was fitted again")

    monkeypatch.setattr(NestedCV, "fit", no_fit)
    second = run_experiment(experiment)
    assert second.status == {"logreg": "cached", "knn": "cached"}
    assert second.report.rows == first.report.rows
    monkeypatch.undo()

    # Changing one model re-runs that model only; a corrupt file is recomputed.
    experiment.write_text(TINY.replace("C = [0.1, 1.0]", "C = [0.1, 10.0]"))
    (out / "models/knn.json").write_text("{not json")
    third = run_experiment(experiment)
    assert third.status == {"logreg": "computed", "knn": "computed"}
    for before, after in zip(*(r.results["knn"]["outer_results"] for r in (first, third))):
        assert before["test_score"] == after["test_score"]  # same seed, same result
        assert before["best_params"] == after["best_params"]


def test_matches_nested_cv_run_by_hand(experiment):
    result = run_experiment(experiment)
    from sklearn.linear_model import LogisticRegression

    X, y = load_iris(return_X_y=True)
    by_hand = NestedCV(
        LogisticRegression(max_iter=300),
        {"C": [0.1, 1.0]},
        outer_cv=3,
        n_refits=1,
        refit=False,
        random_state=0,
    ).fit(X, y)
    scores = [fold["test_score"] for fold in result.results["logreg"]["outer_results"]]
    np.testing.assert_allclose(scores, by_hand.outer_scores_)


def test_csv_data_and_splits_file(tmp_path):
    X, y = load_iris(return_X_y=True)
    with open(tmp_path / "iris.csv", "w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["a", "b", "species", "c", "d"])
        for row, label in zip(X, y):
            writer.writerow(
                [row[0], row[1], ["setosa", "versicolor", "virginica"][label], row[2], row[3]]
            )
    splits = list(StratifiedKFold(3, shuffle=True, random_state=1).split(X, y))
    save_splits(splits, tmp_path / "splits.json", y=y)
    config = TINY.replace(
        'dataset = "sklearn:iris"', 'dataset = "csv"\npath = "iris.csv"\ntarget = "species"'
    )
    config = config.replace("outer_cv = 3", 'splits_file = "splits.json"')
    (tmp_path / "csv.toml").write_text(config)
    result = run_experiment(tmp_path / "csv.toml")
    tests = [fold["test_indices"] for fold in result.results["knn"]["outer_results"]]
    assert tests == [sorted(test.tolist()) for _, test in splits]
    card = json.loads((tmp_path / "out" / "reproducibility.json").read_text())
    assert card["splits_file"].endswith("splits.json")
    assert dict((i, a) for i, a, _ in card["checklist"])["data splits saved"] == "yes"


def test_cli_run(experiment, capsys):
    assert main(["run", str(experiment), "--n-jobs", "1"]) == 0
    output = capsys.readouterr().out
    assert "Test performance" in output and "Results written to" in output


def test_cli_run_bad_config(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text(TINY.replace("n_refits = 1", "n_refits = 0"))
    assert main(["run", str(path)]) == 2
    assert "line 12, key 'protocol.n_refits': must be at least 1" in capsys.readouterr().err
