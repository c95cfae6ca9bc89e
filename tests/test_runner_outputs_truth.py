"""The runner's files say what the run did: which metric a validation score is of, which
metric selected, what the pairwise table compares, what a failed inner fit of an only
candidate left; and models that a run would score with different metrics are refused as the
file's fault, before any fit."""

import csv
import json

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.metrics import accuracy_score
from sklearn.model_selection import GridSearchCV
from sklearn.neighbors import KNeighborsClassifier

from sklearn_fair import NestedCV
from sklearn_fair.cli import main
from sklearn_fair.experiment import run_experiment
from sklearn_fair.report import comparison_text

HEAD = """\
[experiment]
output_dir = "out"
progress = false

[data]
dataset = "sklearn:iris"

[protocol]
outer_cv = 3
n_refits = 1
"""

SEARCHED = """
[models.searched]
estimator = "sklearn.model_selection.GridSearchCV"
params = { estimator = { estimator = "sklearn.neighbors.KNeighborsClassifier" }, \
param_grid = { n_neighbors = [3, 15] }, scoring = "neg_log_loss", cv = 3 }

[models.plain]
estimator = "sklearn.neighbors.KNeighborsClassifier"
grid = { n_neighbors = [3, 15] }
"""


def _write(tmp_path, text):
    path = tmp_path / "exp.toml"
    path.write_text(text)
    return path


def _csv_rows(path):
    with open(path, newline="") as file:
        return list(csv.DictReader(file))


@pytest.fixture(scope="module")
def own_scoring(tmp_path_factory):
    """A run where a search selects with its own scoring (log loss) and every model is
    scored with the protocol's (accuracy)."""
    folder = tmp_path_factory.mktemp("own_scoring")
    run_experiment(_write(folder, HEAD + 'scoring = "accuracy"\n' + SEARCHED))
    return folder / "out"


def test_scores_csv_names_the_metric_of_each_validation_score(own_scoring):
    rows = _csv_rows(own_scoring / "scores.csv")
    assert {(r["model"], r["validation_metric"]) for r in rows} == {
        ("searched", "log loss"),
        ("plain", "accuracy"),
    }
    # the searched model's validation score is scikit-learn's search's own: its best mean
    # log loss on the outer training fold (as a positive loss)
    X, y = load_iris(return_X_y=True)
    folds = json.loads((own_scoring / "models" / "searched.json").read_text())
    searched = [r for r in rows if r["model"] == "searched"]
    for row, fold in zip(searched, folds["result"]["outer_results"]):
        train, test = np.array(fold["train_indices"]), np.array(fold["test_indices"])
        search = GridSearchCV(
            KNeighborsClassifier(), {"n_neighbors": [3, 15]}, scoring="neg_log_loss", cv=3
        ).fit(X[train], y[train])
        assert float(row["validation_score"]) == pytest.approx(-search.best_score_)
        predicted = search.predict(X[test])
        assert float(row["score"]) == pytest.approx(accuracy_score(y[test], predicted))


def test_scores_csv_names_no_metric_on_rows_without_a_validation_score(tmp_path):
    # with several metrics only the selecting one's rows hold a validation score; the others
    # named the selecting metric beside an empty score
    protocol = 'scoring = ["accuracy", "balanced_accuracy"]\nrefit = "balanced_accuracy"\n'
    plain = SEARCHED[SEARCHED.index("[models.plain]") :]
    run_experiment(_write(tmp_path, HEAD + protocol + plain))
    rows = _csv_rows(tmp_path / "out" / "scores.csv")
    shown = {(r["metric"], r["validation_score"] != "", r["validation_metric"]) for r in rows}
    assert shown == {("balanced accuracy", True, "balanced accuracy"), ("accuracy", False, "")}


def test_summary_csv_does_not_say_accuracy_selected_the_search(own_scoring):
    rows = {r["model"]: r for r in _csv_rows(own_scoring / "summary.csv")}
    assert rows["searched"]["metric"] == "accuracy"
    assert rows["searched"]["selects"] == "False"  # its own log loss selected
    assert rows["searched"]["validation_metric"] == "log loss"
    assert rows["plain"]["selects"] == "True"


def test_the_pairwise_heading_names_the_search_that_selected_with_its_own_scoring(own_scoring):
    text = (own_scoring / "report.md").read_text()
    assert "(the metric that selected the hyper-parameters) over" not in text
    assert (
        "Differences of the mean test accuracy (the metric that selected the hyper-parameters, "
        "but for searched (log loss), selected with the metric in parentheses)" in text
    )


def test_comparison_text_does_not_say_the_results_selected_with_their_test_metrics():
    X, y = load_iris(return_X_y=True)
    search = GridSearchCV(KNeighborsClassifier(), {"n_neighbors": [3, 15]},
                          scoring="neg_log_loss", cv=3)  # fmt: skip
    results = {
        "searched": NestedCV(search, outer_cv=3, scoring="accuracy", refit=False).fit(X, y),
        "plain": NestedCV(KNeighborsClassifier(), outer_cv=3, scoring="balanced_accuracy",
                          refit=False, random_state=0).fit(X, y),
    }  # fmt: skip
    with pytest.raises(ValueError, match="scored with different metrics") as error:
        comparison_text(results)
    # searched selected with log loss, not with the accuracy it is scored with
    assert "selected with different metrics" not in str(error.value)


@pytest.mark.parametrize("dry_run", [True, False])
def test_models_scored_with_different_metrics_are_the_files_fault(
    tmp_path, capsys, monkeypatch, dry_run
):
    fits = []
    real = KNeighborsClassifier.fit
    monkeypatch.setattr(
        KNeighborsClassifier, "fit", lambda self, *a, **k: fits.append(1) or real(self, *a, **k)
    )
    # no [protocol] scoring: the search scores with its own (log loss), the other model with
    # its score method (a classifier's: accuracy)
    path = _write(tmp_path, HEAD + SEARCHED)
    assert main(["run", str(path), *(["--dry-run", "--no-timing"] if dry_run else [])]) == 2
    err = capsys.readouterr().err
    assert "key 'protocol.scoring'" in err
    assert "('searched': log loss, 'plain': accuracy)" in err
    assert "give [protocol] scoring the metric to compare" in err
    assert not fits and not (tmp_path / "out" / "summary.csv").exists()


def test_failed_fits_words_fit_an_only_candidate_whose_inner_scoring_failed(tmp_path):
    # n_neighbors=95: more than the 90 rows of the inner training part (90% of the 100 rows
    # of each outer training fold), fewer than the 100 the refit has
    model = """
[models.knn]
estimator = "sklearn.neighbors.KNeighborsClassifier"
params = { n_neighbors = 95 }
"""
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="n_neighbors <= n_samples_fit"):
        KNeighborsClassifier(n_neighbors=95).fit(X[:90], y[:90]).predict(X[90:])
    with pytest.warns(UserWarning, match="Scoring failed"):  # scikit-learn's, inner folds
        run_experiment(_write(tmp_path, HEAD + model))
    out = tmp_path / "out"
    folds = json.loads((out / "models" / "knn.json").read_text())["result"]["outer_results"]
    for fold in folds:  # selected, refitted and tested all the same
        train, test = np.array(fold["train_indices"]), np.array(fold["test_indices"])
        refit = KNeighborsClassifier(n_neighbors=95).fit(X[train], y[train])
        assert fold["test_score"] == pytest.approx(accuracy_score(y[test], refit.predict(X[test])))
    text = (out / "report.md").read_text()
    assert "a fold whose every candidate failed has no selection" not in text
    assert "a model's only candidate is taken whatever its validation score" in text
    assert (
        "knn: outer folds 0, 1 and 2 have a selection and a test score but no finite "
        "validation score (n/a): its only candidate is taken whatever its validation score."
    ) in text
    assert "n/a where folds failed (see Failed fits)." not in text  # no fold failed
