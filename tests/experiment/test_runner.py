import csv
import json
import warnings

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.model_selection import StratifiedKFold

from sklearn_fair import NestedCV
from sklearn_fair.cli import main
from sklearn_fair.exceptions import ExperimentConfigError
from sklearn_fair.experiment import load_config, run_experiment
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


def _no_fit(monkeypatch, *classes):
    def no_fit(self, *args, **kwargs):
        raise AssertionError("a fit served by the cache was fitted again")

    for cls in classes:
        monkeypatch.setattr(cls, "fit", no_fit)


def test_run_writes_results_folder_and_a_rerun_is_served_by_the_cache(experiment, monkeypatch):
    from sklearn.linear_model import LogisticRegression
    from sklearn.neighbors import KNeighborsClassifier

    first = run_experiment(experiment)
    out = experiment.parent / "out"
    assert first.output_dir == out and first.cache_dir == out / "cache"
    assert first.status == {"logreg": "computed", "knn": "computed"}
    for name in (
        "models/logreg.json",
        "models/knn.json",
        "summary.csv",
        "report.md",
        "report.html",
        "reproducibility.json",
        "table.md",
        "scores.csv",
        "budget.csv",
    ):
        assert (out / name).is_file(), name
    document = json.loads((out / "models/logreg.json").read_text())
    assert document["name"] == "logreg" and document["failed_fits"] == []
    assert len(document["result"]["outer_results"]) == 3
    with open(out / "summary.csv") as file:
        rows = list(csv.DictReader(file))
    assert [row["model"] for row in rows] == ["logreg", "knn"]
    assert float(rows[0]["test_mean"]) == pytest.approx(first.report.rows[0]["test_mean"])
    report = (out / "report.md").read_text()
    assert report.startswith("# Experiment tiny")
    assert "Reproducibility card" in report and "median" in report
    # matplotlib is in the test environment (the `plot` extra): the plots must be there
    for name in ("fold_scores", "optimism", "comparison", "intervals"):
        assert (out / "plots" / f"{name}.png").stat().st_size > 0
        assert "<svg" in (out / "plots" / f"{name}.svg").read_text()

    # The re-run fits nothing (every task is served by the cache) and reports the same.
    (out / "models/knn.json").write_text("{not json")  # an output: never read, rewritten
    with monkeypatch.context() as patch:
        _no_fit(patch, LogisticRegression, KNeighborsClassifier)
        second = run_experiment(experiment)
    assert second.status == {"logreg": "cached", "knn": "cached"}
    assert second.report.rows == first.report.rows
    assert json.loads((out / "models/knn.json").read_text())["result"] == first.results["knn"]

    # Changing one model's grid fits that model's new candidate only.
    experiment.write_text(TINY.replace("C = [0.1, 1.0]", "C = [0.1, 10.0]"))
    third = run_experiment(experiment)
    assert third.status == {"logreg": "computed", "knn": "cached"}
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


def test_replacing_the_splits_file_recomputes(tmp_path, monkeypatch):
    """Issue 13 A2: the hash covers the splits' content, not the file's path."""
    X, y = load_iris(return_X_y=True)
    first = list(StratifiedKFold(3, shuffle=True, random_state=1).split(X, y))
    save_splits(first, tmp_path / "splits.json", y=y)
    (tmp_path / "e.toml").write_text(TINY.replace("outer_cv = 3", 'splits_file = "splits.json"'))
    result = run_experiment(tmp_path / "e.toml")
    assert result.status == {"logreg": "computed", "knn": "computed"}
    assert run_experiment(tmp_path / "e.toml").status["logreg"] == "cached"

    second = list(StratifiedKFold(3, shuffle=True, random_state=2).split(X, y))
    save_splits(second, tmp_path / "splits.json", y=y)
    rerun = run_experiment(tmp_path / "e.toml")
    assert rerun.status == {"logreg": "computed", "knn": "computed"}
    tests = [fold["test_indices"] for fold in rerun.results["logreg"]["outer_results"]]
    assert tests == [sorted(test.tolist()) for _, test in second]


@pytest.mark.parametrize("change", ["data", "version", "default", "protocol"])
def test_what_the_result_depends_on_is_hashed(tmp_path, monkeypatch, change):
    X, y = load_iris(return_X_y=True)
    with open(tmp_path / "iris.csv", "w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["a", "b", "c", "d", "y"])
        writer.writerows([[*row, label] for row, label in zip(X, y)])
    text = TINY.replace(
        'dataset = "sklearn:iris"', 'dataset = "csv"\npath = "iris.csv"\ntarget = "y"'
    )
    (tmp_path / "e.toml").write_text(text)
    assert run_experiment(tmp_path / "e.toml").status["logreg"] == "computed"
    assert run_experiment(tmp_path / "e.toml").status["logreg"] == "cached"
    if change == "data":  # same file name, one value changed
        lines = (tmp_path / "iris.csv").read_text().splitlines()
        lines[5] = lines[5].replace(lines[5].split(",")[0], "9.9", 1)
        (tmp_path / "iris.csv").write_text("\n".join(lines) + "\n")
    elif change == "version":
        from importlib import metadata

        real = metadata.version
        monkeypatch.setattr(
            metadata, "version", lambda name: "99.0" if name == "scikit-learn" else real(name)
        )
    elif change == "default":  # a default of the estimator changes (as in a new release)
        from sklearn.linear_model import LogisticRegression

        defaults = dict(LogisticRegression.__init__.__kwdefaults__, tol=1e-3)
        monkeypatch.setattr(LogisticRegression.__init__, "__kwdefaults__", defaults)
    else:
        (tmp_path / "e.toml").write_text(text.replace("n_refits = 1", 'error_score = "raise"'))
    status = run_experiment(tmp_path / "e.toml").status
    assert status["logreg"] == "computed"
    if change == "data":
        assert status["knn"] == "computed"


def test_the_code_of_a_users_class_is_hashed(tmp_path, monkeypatch):
    package = tmp_path / "mymodels"
    package.mkdir()
    (package / "__init__.py").write_text("")
    code = (
        "from sklearn.linear_model import LogisticRegression\n\n\n"
        "class MyModel(LogisticRegression):\n    pass\n"
    )
    (package / "model.py").write_text(code)
    monkeypatch.syspath_prepend(str(tmp_path))
    text = TINY.replace('"sklearn.linear_model.LogisticRegression"', '"mymodels.model.MyModel"')
    (tmp_path / "e.toml").write_text(text)
    options = {"allowed_packages": ["mymodels"]}
    assert run_experiment(tmp_path / "e.toml", **options).status["logreg"] == "computed"
    assert run_experiment(tmp_path / "e.toml", **options).status["logreg"] == "cached"
    (package / "model.py").write_text(
        code.replace("pass", "def fit(self, X, y):\n        return super().fit(X, y)")
    )
    import importlib
    import sys

    for name in [n for n in sys.modules if n.startswith("mymodels")]:
        del sys.modules[name]
    importlib.invalidate_caches()
    assert run_experiment(tmp_path / "e.toml", **options).status == {
        "logreg": "computed",
        "knn": "cached",
    }


def test_sampler_model_runs_after_others(tmp_path):
    """Issue 12 part 5: a sampler in preprocessing makes an imbalanced-learn Pipeline."""
    from imblearn.over_sampling import RandomOverSampler
    from imblearn.pipeline import make_pipeline
    from sklearn.linear_model import LogisticRegression

    text = TINY + (
        "\n[models.oversampled]\n"
        'estimator = "sklearn.linear_model.LogisticRegression"\n'
        "params = { max_iter = 300 }\n"
        'preprocessing = [{ estimator = "imblearn.over_sampling.RandomOverSampler", '
        "params = { random_state = 0 } }]\n"
        "grid = { C = [0.1, 1.0] }\n"
    )
    (tmp_path / "e.toml").write_text(text)
    result = run_experiment(tmp_path / "e.toml")
    assert result.status["oversampled"] == "computed"
    X, y = load_iris(return_X_y=True)
    by_hand = NestedCV(
        make_pipeline(RandomOverSampler(random_state=0), LogisticRegression(max_iter=300)),
        {"logisticregression__C": [0.1, 1.0]},
        outer_cv=3,
        n_refits=1,
        refit=False,
        random_state=0,
    ).fit(X, y)
    scores = [fold["test_score"] for fold in result.results["oversampled"]["outer_results"]]
    np.testing.assert_allclose(scores, by_hand.outer_scores_)


def _text_csv(path, n=60):
    rng = np.random.default_rng(0)
    with open(path, "w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["x1", "colour", "x2", "label", "site"])
        for i in range(n):
            colour = ["red", "green", "blue"][i % 3]
            label = int(colour == "red" or rng.random() < 0.2)
            writer.writerow([rng.normal(), colour, rng.normal(), label, f"s{i % 10}"])


ONE_HOT = (
    'preprocessing = [{ estimator = "sklearn.compose.ColumnTransformer", params = { '
    'transformers = [["onehot", { estimator = "sklearn.preprocessing.OneHotEncoder", '
    'params = { handle_unknown = "ignore" } }, ["colour"]]], remainder = "passthrough" } }]'
)
CSV_TINY = """\
[experiment]
output_dir = "out"
progress = false

[data]
dataset = "csv"
path = "data.csv"
target = "label"
groups = "site"

[protocol]
outer_cv = { splitter = "sklearn.model_selection.GroupKFold", params = { n_splits = 3 } }
inner_cv = { splitter = "sklearn.model_selection.GroupKFold", params = { n_splits = 2 } }
n_refits = 1

[models.logreg]
estimator = "sklearn.linear_model.LogisticRegression"
ONE_HOT
grid = { C = [0.1, 1.0] }
"""


def test_categorical_columns_and_a_group_splitter(tmp_path):
    pytest.importorskip("pandas")
    import pandas as pd
    from sklearn.compose import ColumnTransformer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GroupKFold
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    _text_csv(tmp_path / "data.csv")
    (tmp_path / "e.toml").write_text(CSV_TINY.replace("ONE_HOT", ONE_HOT))
    result = run_experiment(tmp_path / "e.toml")
    frame = pd.read_csv(tmp_path / "data.csv")
    X, y, groups = frame.drop(columns=["label", "site"]), frame["label"], frame["site"]
    model = make_pipeline(
        ColumnTransformer(
            [("onehot", OneHotEncoder(handle_unknown="ignore"), ["colour"])],
            remainder="passthrough",
        ),
        LogisticRegression(),
    )
    by_hand = NestedCV(
        model,
        {"logisticregression__C": [0.1, 1.0]},
        outer_cv=GroupKFold(3),
        inner_cv=GroupKFold(2),
        n_refits=1,
        refit=False,
        random_state=0,
    ).fit(X, y, groups=groups)
    folds = result.results["logreg"]["outer_results"]
    np.testing.assert_allclose([f["test_score"] for f in folds], by_hand.outer_scores_)
    for fold in folds:  # the outer splitter kept every group on one side
        train_sites = set(groups.iloc[fold["train_indices"]])
        assert not train_sites & set(groups.iloc[fold["test_indices"]])


@pytest.mark.parametrize(
    "second_model, key, message",
    [
        # a text column that reaches the estimator unencoded
        (
            'estimator = "sklearn.linear_model.LogisticRegression"',
            "models.second.estimator",
            "columns ['colour'] hold text",
        ),
        (
            'estimator = "sklearn.linear_model.LogisticRegression"\n'
            + ONE_HOT.replace('["colour"]', '["color"]'),
            "models.second.preprocessing",
            "names columns the data do not have: ['color']",
        ),
        # a candidate that cannot be set
        (
            'estimator = "sklearn.linear_model.LogisticRegression"\n'
            + ONE_HOT
            + "\ngrid = { columntransformer__onehot__sparse = [true] }",
            "models.second.grid",
            "candidate 0",
        ),
    ],
)
def test_every_model_is_checked_before_the_first_fit(
    tmp_path, monkeypatch, second_model, key, message
):
    pytest.importorskip("pandas")
    _text_csv(tmp_path / "data.csv")
    text = CSV_TINY.replace("ONE_HOT", ONE_HOT) + f"\n[models.second]\n{second_model}\n"
    (tmp_path / "e.toml").write_text(text)

    def no_fit(self, *args, **kwargs):
        raise AssertionError("a model was fitted before the whole file was checked")

    monkeypatch.setattr(NestedCV, "fit", no_fit)
    with pytest.raises(ExperimentConfigError) as info:
        run_experiment(tmp_path / "e.toml")
    assert f"key '{key}'" in str(info.value) and message in str(info.value)


def test_splits_of_another_data_set_fail_before_the_first_fit(tmp_path, monkeypatch):
    X, y = load_iris(return_X_y=True)
    save_splits(list(StratifiedKFold(3).split(X[:120], y[:120])), tmp_path / "s.json")
    (tmp_path / "e.toml").write_text(TINY.replace("outer_cv = 3", 'splits_file = "s.json"'))
    monkeypatch.setattr(NestedCV, "fit", lambda *a, **k: pytest.fail("fitted"))
    with pytest.raises(ExperimentConfigError, match="the splits do not fit the data"):
        run_experiment(tmp_path / "e.toml")


def test_a_splitter_of_scikit_learn_or_ours(tmp_path):
    text = TINY.replace(
        "outer_cv = 3",
        'outer_cv = { splitter = "sklearn.model_selection.StratifiedKFold", params = '
        "{ n_splits = 4, shuffle = true, random_state = 2 } }\n"
        'inner_cv = { splitter = "sklearn_fair.model_selection.HoldoutSplit", params = '
        "{ test_size = 0.2, random_state = 0 } }",
    )
    (tmp_path / "e.toml").write_text(text)
    result = run_experiment(tmp_path / "e.toml")
    X, y = load_iris(return_X_y=True)
    expected = StratifiedKFold(4, shuffle=True, random_state=2).split(X, y)
    tests = [fold["test_indices"] for fold in result.results["knn"]["outer_results"]]
    assert tests == [sorted(test.tolist()) for _, test in expected]


def test_summary_intervals_stay_in_the_scorers_range_whatever_the_metric_is_called(tmp_path):
    """summary.csv: keys of a scoring table ("auc", "bal") are not metric names; the scorer
    they name decides the range, as in every report (sklearn_fair.stats._bounds)."""
    from scipy import stats

    path = tmp_path / "keys.toml"
    path.write_text(
        TINY.replace(
            "n_refits = 1\n",
            'n_refits = 1\nscoring = { auc = "roc_auc_ovr", bal = "balanced_accuracy" }\n'
            'refit = "auc"\n',
        )
    )
    result = run_experiment(path)
    with open(result.output_dir / "summary.csv") as file:
        rows = list(csv.DictReader(file))
    assert sorted({row["scoring"] for row in rows}) == ["auc", "bal"]
    past_one = 0
    for row in rows:
        folds = result.results[row["model"]]["outer_results"]
        scores = np.array([np.mean(f["test_scores_per_metric"][row["scoring"]]) for f in folds])
        # the reports' interval: Nadeau and Bengio's corrected t with the folds' sizes
        n_train = np.mean([len(f["train_indices"]) for f in folds])
        n_test = np.mean([len(f["test_indices"]) for f in folds])
        scale = np.sqrt(1 / 3 + n_test / n_train) * np.std(scores, ddof=1)
        low, high = stats.t.interval(0.95, 2, loc=scores.mean(), scale=scale)
        past_one += high > 1
        assert float(row["ci_low"]) == pytest.approx(max(low, 0.0))
        assert float(row["ci_high"]) == pytest.approx(min(high, 1.0))
        assert row["metric_range"] == "[0, 1]"
        if high > 1:
            assert row["ci_method"].endswith(f"clipped to the range [0, 1] of {row['metric']}")
    assert past_one  # the interval of 3 iris folds passes 1: the clip is under test


def test_ctrl_c_counts_the_fits_of_this_run_not_the_entries_of_earlier_runs(tmp_path, monkeypatch):
    from sklearn.dummy import DummyClassifier

    from sklearn_fair.experiment._running._runner import Interrupted

    earlier = tmp_path / "earlier.toml"
    earlier.write_text(TINY.replace('output_dir = "out"', 'output_dir = "out"\nn_jobs = 1'))
    run_experiment(earlier)  # its entries stay in the shared cache
    cache = tmp_path / "out" / "cache"
    n_earlier = len(list(cache.glob("*/*.json")))
    assert n_earlier > 0

    path = tmp_path / "now.toml"
    head = TINY.split("[models.logreg]")[0].replace(
        'output_dir = "out"', 'output_dir = "out"\nn_jobs = 1'
    )
    path.write_text(
        head + '[models.dummy]\nestimator = "sklearn.dummy.DummyClassifier"\n'
        'grid = { strategy = ["prior", "stratified"] }\n'
    )
    k, fits, real = 4, [], DummyClassifier.fit

    def fit(self, *args, **kwargs):
        if len(fits) == k:
            raise KeyboardInterrupt
        fits.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(DummyClassifier, "fit", fit)
    with pytest.raises(Interrupted) as info:
        run_experiment(path)
    # k fits finished, one entry each; the earlier run's entries are not this run's
    assert info.value.n_cached == k
    assert len(list(cache.glob("*/*.json"))) == n_earlier + k


def test_summary_rows_of_a_model_whose_folds_failed_are_the_reports_and_say_why(tmp_path):
    """A model that fails on one outer fold of three: summary.csv gives its row as report.md and
    report.html give it (its mean not computed, no model ranked on the data set), and says why
    a rank is missing; it said "every outer fold failed" and ranked the others among themselves,
    which report.html does not."""
    X, y = load_iris(return_X_y=True)  # rows sorted by class, 50 of each
    with open(tmp_path / "iris.csv", "w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["a", "b", "c", "d", "y"])
        writer.writerows([*row, label] for row, label in zip(X, y))
    rows = np.arange(150)
    # fold 0 tests on class 2: its training rows have 2 classes, so priors for 3 fail there only
    tests = [rows[100:], np.r_[rows[:25], rows[50:75]], np.r_[rows[25:50], rows[75:100]]]
    save_splits([(np.setdiff1d(rows, t), t) for t in tests], tmp_path / "splits.json", y=y)
    config = TINY.replace(
        'dataset = "sklearn:iris"', 'dataset = "csv"\npath = "iris.csv"\ntarget = "y"'
    )
    config = config.replace("outer_cv = 3", 'splits_file = "splits.json"')
    config += '\n[models.bayes]\nestimator = "sklearn.naive_bayes.GaussianNB"\n'
    config += "params = { priors = [0.3, 0.3, 0.4] }\n"
    (tmp_path / "e.toml").write_text(config)
    run_experiment(tmp_path / "e.toml")
    out = tmp_path / "out"
    with open(out / "summary.csv", newline="") as file:
        summary = {row["model"]: row for row in csv.DictReader(file)}
    assert list(summary) == ["logreg", "knn", "bayes"]
    bayes = summary["bayes"]
    assert bayes["test_mean"] == "" and bayes["failed_fits"] == "1"  # its one fit of fold 0
    assert bayes["ci_method"] == "not computed: 1 of 3 folds failed (see Failed fits)"
    assert "priors" in bayes["first_error"] and "error" not in bayes
    why = (
        "a rank needs every model's score on the data set. Left out: iris, where folds of bayes "
        "failed (see Failed fits)."
    )
    for row in summary.values():
        assert row["rank_test"] == "" and row["not_ranked"] == why
    assert float(summary["knn"]["test_mean"]) > 0  # the others are scored
    report = " ".join((out / "report.md").read_text().split())
    # as table() prints the cell: its failed folds counted, not "n/a ± n/a"
    assert bayes["n_failed_folds"] == "1"
    assert "| bayes | accuracy | failed (1 of 3 folds) | n/a | n/a |" in report
    assert "a rank every model's score. Folds of bayes failed." in report


LABELS_CSV = """\
[data]
dataset = "csv"
path = "data.csv"
target = "label"

[protocol]
outer_cv = 3
n_refits = 1

[models.prior]
estimator = "sklearn.dummy.DummyClassifier"
"""


def _labels_read(folder, labels):
    from sklearn_fair.experiment._reading._data import load_datasets

    rows = "".join(f"{i},{labels[i % 3]}\n" for i in range(12))
    (folder / "data.csv").write_text("x,label\n" + rows)
    (folder / "e.toml").write_text(LABELS_CSV)
    return load_datasets(load_config(folder / "e.toml"))["data"].y


@pytest.mark.parametrize(
    "labels, expected",
    [
        # past 2**53, within int64: read as the integers written (two became one float)
        (["0", "9007199254740993", "9007199254740992"], [0, 2**53 + 1, 2**53]),
        # past int64: every one became -2**63 (a float cast to int64); floats, which hold
        # them exactly
        (["0", "10000000000000000000", "20000000000000000000"], [0.0, 1e19, 2e19]),
        (["0", "1e19", "2e19"], [0.0, 1e19, 2e19]),
    ],
)
def test_csv_labels_past_what_a_float_holds_exactly_stay_apart(tmp_path, labels, expected):
    y = _labels_read(tmp_path, labels)
    assert y[:3].tolist() == expected
    assert type(y[0].item()) is type(expected[0])
    assert len(set(y.tolist())) == 3


def test_csv_labels_that_one_float_would_hold_are_refused(tmp_path):
    labels = ["0", "100000000000000000001", "100000000000000000000"]  # one float, 1e20
    with pytest.raises(ExperimentConfigError, match=r"'data\.target'.*label.*2\*\*53"):
        _labels_read(tmp_path, labels)


def test_a_models_warning_is_said_once_for_the_run(tmp_path):
    # the search's own cv, replaced by inner_cv, on two data sets: the pre-run check said it
    # once per data set, then benchmark again (three copies); benchmark now says it once,
    # naming both data sets, and the check leaves it to benchmark
    (tmp_path / "exp.toml").write_text(
        "[experiment]\nprogress = false\n"
        '[data.a]\ndataset = "sklearn:breast_cancer"\n'
        '[data.b]\ndataset = "sklearn:iris"\n'
        '[protocol]\nouter_cv = 3\ninner_cv = 2\nn_refits = 1\nscoring = "accuracy"\n'
        "[models.tree]\n"
        'estimator = "sklearn.model_selection.GridSearchCV"\n'
        'params = { estimator = { estimator = "sklearn.tree.DecisionTreeClassifier", params = '
        "{ random_state = 0 } }, param_grid = { max_depth = [1, 2] }, cv = 3 }\n"
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run_experiment(tmp_path / "exp.toml")
    said = [str(w.message) for w in caught if "its own cv" in str(w.message)]
    assert len(said) == 1
    assert said[0].startswith("benchmark (model 'tree' on data sets 'a' and 'b') got ")
