"""What a saved benchmark reads back as, and saved figures as the same bytes on every run.

Names a file cannot record are refused up front; the seeds the card gives (the root a run drew,
the refit seeds that trained a model) and the selected hyper-parameters print the same after
save and load; an SVG has no date and no points in the order of a set.
"""

import json
import os
import re
import subprocess
import sys
import textwrap

import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import MinMaxScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import BenchmarkResult, NestedCV
from sklearn_fair.experiment import run_experiment
from sklearn_fair.report import nested_cv_report, plot_fold_scores, result_to_dict


@pytest.fixture(scope="module")
def data():
    return make_classification(n_samples=60, n_features=4, random_state=0)


def _fit(estimator, grid, data, **params):
    X, y = data
    params = {"n_refits": 1, "random_state": 0, **params}
    return NestedCV(estimator, grid, outer_cv=3, inner_cv=2, refit=False, **params).fit(X, y)


@pytest.fixture(scope="module")
def logistic(data):
    return _fit(LogisticRegression(), {"C": [0.1, 1.0]}, data)


def _seeds(result):
    """The card's seeds, drawn roots and its printed Seeds line."""
    card = result.report().card
    lines = [line for line in str(card).splitlines() if line.startswith("Seeds")]
    return card.to_dict()["seeds"], card.to_dict()["drawn_roots"], lines


@pytest.mark.parametrize("key", [(0, "lr"), ("iris", 1), "ab", ("iris", "lr", "x")])
def test_from_results_refuses_names_a_saved_file_cannot_record(logistic, key):
    # (0, "lr") was saved as "dataset": 0, which load() refused ("cell 0 has no 'dataset' and
    # 'model' names"); "ab" was read as data set "a", model "b"
    message = (
        "The 'results' parameter of BenchmarkResult.from_results must have (dataset, model) "
        f"keys of str names. Got {key!r} instead."
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        BenchmarkResult.from_results({key: logistic})


def test_save_keeps_the_root_a_run_drew(tmp_path, data):
    fitted = {
        ("d", "lr"): _fit(LogisticRegression(), {"C": [0.1, 1.0]}, data, random_state=None),
        ("d", "tree"): _fit(DecisionTreeClassifier(), {"max_depth": [1, 3]}, data,
                            random_state=None, n_refits=2),
    }  # fmt: skip
    result = BenchmarkResult.from_results(fitted)
    loaded = BenchmarkResult.load(result.save(tmp_path / "b.json"))
    again = BenchmarkResult.load(loaded.save(tmp_path / "c.json"))
    for key, nested in fitted.items():
        for read in (loaded, again):
            assert read.cells[key].random_state is None
            assert read.cells[key].random_state_root == nested.random_state_root_
    seeds = _seeds(result)
    assert f"lr random_state: None (drew {fitted['d', 'lr'].random_state_root_}" in seeds[2][0]
    assert _seeds(loaded) == _seeds(again) == seeds
    # as result_to_dict carries it
    saved = {key: result_to_dict(nested) for key, nested in fitted.items()}
    assert _seeds(BenchmarkResult.from_results(saved)) == seeds


def test_save_keeps_the_refit_seeds_that_trained_a_model(tmp_path, data):
    lr = _fit(LogisticRegression(), {"C": [0.1, 1.0]}, data, n_refits=3)
    tree = _fit(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 3]}, data, n_refits=3)
    # the fitted folds' own record of the seeds their refits ran with
    used = [s for s in lr.refit_seeds_ if any(s in f["refit_seeds"] for f in lr.outer_results_)]
    assert len(used) < len(lr.refit_seeds_)  # the seed probe left some unused
    result = BenchmarkResult.from_results({("a", "lr"): lr, ("a", "tree"): tree})
    loaded = BenchmarkResult.load(result.save(tmp_path / "b.json"))
    again = BenchmarkResult.load(loaded.save(tmp_path / "c.json"))
    for read in (result, loaded, again):
        assert read.cells["a", "lr"].used_refit_seeds == used
        assert read.cells["a", "tree"].used_refit_seeds == [None]
        assert read.cells["a", "lr"].refit_seeds == lr.refit_seeds_
    assert _seeds(result)[0]["lr refit seeds"] == used
    assert _seeds(loaded) == _seeds(again) == _seeds(result)


def _selection(report):
    """The Selected hyper-parameters section of a printed report."""
    text = str(report)
    start = text.index("Selected hyper-parameters")
    return text[start : text.index("\n\n", start)]


def test_selected_values_json_cannot_hold_print_as_the_fitted_result_does(tmp_path, data):
    pipe = Pipeline([("sc", MinMaxScaler()), ("clf", DecisionTreeClassifier(random_state=0))])
    grid = {
        "sc__feature_range": [(0, 1)],
        "clf__class_weight": [{0: 1, 1: 2}],
        "clf__max_depth": [1, 3],
        "clf__criterion": ["gini"],
        "clf__min_impurity_decrease": [0.0],
    }
    nested = _fit(pipe, grid, data)
    fitted = BenchmarkResult.from_results({("x", "m"): nested})
    path = fitted.save(tmp_path / "b.json")
    loaded = BenchmarkResult.load(path)
    as_dict = json.loads(json.dumps(result_to_dict(nested)))

    selected = fitted.selection_summary()["selected"][0]
    assert selected["clf__class_weight"] == {"{0: 1, 1: 2}": 3}  # Python's repr, int keys
    assert selected["sc__feature_range"] == {"(0, 1)": 3}  # a tuple, not [0, 1]
    from_dict = BenchmarkResult.from_results({("x", "m"): as_dict})
    for read in (loaded, from_dict):
        assert read.selection_summary()["selected"][0] == selected
    assert _selection(loaded.report()) == _selection(fitted.report())
    assert _selection(nested_cv_report(as_dict)) == _selection(nested_cv_report(nested))

    # what JSON holds is saved as it was; the rest as the text a report prints
    for params in (
        json.loads(path.read_text())["cells"][0]["result"]["outer_results"][0]["best_params"],
        as_dict["outer_results"][0]["best_params"],
    ):
        assert params["clf__class_weight"] == "{0: 1, 1: 2}"
        assert params["sc__feature_range"] == "(0, 1)"
        assert params["clf__criterion"] == "gini"
        assert params["clf__min_impurity_decrease"] == 0.0
        assert type(params["clf__max_depth"]) is int


@pytest.mark.parametrize("suffix", [".svg", ".pdf"])
def test_a_figure_saved_twice_is_the_same_bytes(tmp_path, logistic, suffix):
    # the SVG's <dc:date> and the PDF's CreationDate differed on every save
    first, second = tmp_path / f"a{suffix}", tmp_path / f"b{suffix}"
    plot_fold_scores(logistic, path=first)
    plot_fold_scores(logistic, path=second)
    assert first.read_bytes() == second.read_bytes()
    assert b"dc:date" not in first.read_bytes() and b"CreationDate" not in first.read_bytes()


_DIAGRAM = """
import sys
from sklearn_fair import BenchmarkResult
from sklearn_fair.report._plots import save_figure

models = ["lasso", "ridge", "tree", "knn", "svm"]
results = {
    (f"d{d}", m): {"test_scores": [0.7 + 0.01 * ((j + d) % 5) + 0.001 * f for f in range(3)]}
    for d in range(6) for j, m in enumerate(models)
}
result = BenchmarkResult.from_results(results, metric="accuracy")
save_figure(result.plot_critical_difference(), sys.argv[1])
"""


def test_the_critical_difference_diagram_is_the_same_bytes_under_any_hash_seed(tmp_path):
    # scikit-posthocs drew a crossbar's points in the order of a set of the models' names:
    # another order under another PYTHONHASHSEED (0 and 1 gave two)
    script = tmp_path / "diagram.py"
    script.write_text(textwrap.dedent(_DIAGRAM))
    runs = {
        seed: subprocess.Popen(
            [sys.executable, str(script), str(tmp_path / f"cd{seed}.svg")],
            env={**os.environ, "PYTHONHASHSEED": seed, "MPLBACKEND": "Agg"},
        )
        for seed in ("0", "1")
    }
    assert all(run.wait(timeout=120) == 0 for run in runs.values())
    first, second = ((tmp_path / f"cd{seed}.svg").read_bytes() for seed in runs)
    undated = [re.sub(rb"<dc:date>[^<]*</dc:date>", b"", svg) for svg in (first, second)]
    assert undated[0] == undated[1]  # the crossbars' points in one order
    assert first == second


EXPERIMENT = """\
[experiment]
name = "same"
output_dir = "{out}"
cache_dir = "cache"
random_state = 0
progress = false

[data]
dataset = "sklearn:iris"

[protocol]
outer_cv = 3
inner_cv = 2
n_refits = 1

[models.prior]
estimator = "sklearn.dummy.DummyClassifier"

[models.tree]
estimator = "sklearn.tree.DecisionTreeClassifier"
params = {{ random_state = 0 }}
grid = {{ max_depth = [1, 3] }}
"""


def test_two_runs_sharing_a_cache_write_the_same_plots(tmp_path):
    plots = []
    for out in ("first", "second"):
        path = tmp_path / f"{out}.toml"
        path.write_text(EXPERIMENT.format(out=out))
        run_experiment(path)
        plots.append({p.name: p.read_bytes() for p in (tmp_path / out / "plots").iterdir()})
    assert sorted(plots[0]) == sorted(plots[1]) and any(n.endswith(".svg") for n in plots[0])
    assert plots[0] == plots[1]
