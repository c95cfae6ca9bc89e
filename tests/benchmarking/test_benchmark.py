"""benchmark(): each cell is NestedCV on that cell, all cells in one pool, resumable."""

import contextlib
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from copy import deepcopy
from pathlib import Path
from types import SimpleNamespace

import cloudpickle
import joblib
import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.exceptions import FitFailedWarning
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    GridSearchCV,
    GroupKFold,
    KFold,
    LeaveOneGroupOut,
    StratifiedKFold,
    TimeSeriesSplit,
    check_cv,
)
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import BenchmarkResult, NestedCV, benchmark
from sklearn_fair.exceptions import CacheWarning, SplitsMismatchError
from sklearn_fair.model_selection._nested import _running


def _data(seed, n=60):
    return make_classification(n_samples=n, n_features=5, n_informative=3, random_state=seed)


DATASETS = {"a": _data(0), "b": _data(1, 72)}


def _models():
    return {
        "tree": (DecisionTreeClassifier(), {"max_depth": [1, 3]}),
        "search": GridSearchCV(LogisticRegression(), {"C": [0.1, 1.0]}, cv=3),
        "nested": NestedCV(DecisionTreeClassifier(), {"min_samples_leaf": [1, 5]}, n_refits=1),
    }


def _alone(model, X, y, **kwargs):
    """The NestedCV that the benchmark's cell of ``model`` must reproduce."""
    params = dict(outer_cv=3, n_refits=2, random_state=7, refit=False, **kwargs)
    if isinstance(model, tuple):
        return NestedCV(model[0], model[1], **params).fit(X, y)
    if isinstance(model, NestedCV):
        params.pop("n_refits")
        return NestedCV(**{**model.get_params(deep=False), **params}).fit(X, y)
    return NestedCV(model, **params).fit(X, y)


def _assert_same(cell, alone):
    np.testing.assert_array_equal(cell.outer_scores_, alone.outer_scores_)
    np.testing.assert_array_equal(cell.validation_scores_, alone.validation_scores_)
    assert cell.best_params_per_fold_ == alone.best_params_per_fold_
    assert cell.refit_seeds_ == alone.refit_seeds_
    for a, b in zip(cell.outer_results_, alone.outer_results_):
        np.testing.assert_array_equal(a["test_scores"], b["test_scores"])
        np.testing.assert_array_equal(a["test_indices"], b["test_indices"])
    for key in ("params", "mean_test_score", "outer_fold"):
        assert list(cell.cv_results_[key]) == list(alone.cv_results_[key])


@pytest.mark.parametrize("backend, n_jobs", [(None, None), (None, 2), ("threading", 2)])
def test_every_cell_is_nested_cv_run_on_that_cell_alone(backend, n_jobs):
    context = joblib.parallel_config(backend) if backend else contextlib.nullcontext()
    with context:
        result = benchmark(
            _models(), DATASETS, outer_cv=3, n_refits=2, random_state=7, n_jobs=n_jobs
        )
    assert result.models == ["tree", "search", "nested"] and result.datasets == ["a", "b"]
    for (dataset, model), cell in result.estimators.items():
        X, y = DATASETS[dataset]
        _assert_same(cell, _alone(_models()[model], X, y))


def test_all_cells_run_in_one_pool_with_one_progress_bar(monkeypatch, capsys):
    made = []
    original = _running.make_executor

    def counting(data, context, n_jobs, contexts=()):
        made.append((len(data), len(data.sources)))
        return original(data, context, n_jobs, contexts)

    monkeypatch.setattr(_running, "make_executor", counting)
    benchmark(_models(), DATASETS, outer_cv=3, n_refits=1, random_state=0, verbose=1)
    # one executor for the 2 x 3 cells, each data set (X and y) shipped once
    assert made == [(6, 4)]
    lines = [line for line in capsys.readouterr().err.splitlines() if "fits:" in line]
    assert lines and all(line.startswith("benchmark fits:") for line in lines)
    assert lines[-1].split(":")[1].split()[0].split("/")[0] == lines[-1].split("/")[1].split()[0]


def test_a_search_run_whole_in_each_fold_and_its_budget():
    from sklearn.experimental import enable_halving_search_cv  # noqa: F401
    from sklearn.model_selection import HalvingGridSearchCV

    X, y = DATASETS["b"]
    halving = HalvingGridSearchCV(
        DecisionTreeClassifier(), {"max_depth": [1, 2, 3, 4]}, cv=3, min_resources=20
    )
    result = benchmark(
        {"halving": halving, "tree": (DecisionTreeClassifier(), {"max_depth": [1, 2, 3, 4]})},
        {"b": (X, y)},
        outer_cv=3,
        n_refits=1,
        random_state=5,
    )
    alone = NestedCV(halving, outer_cv=3, n_refits=1, random_state=5, refit=False).fit(X, y)
    _assert_same(result.estimators["b", "halving"], alone)
    budget = result.budget.set_index("model")
    # the search's own fits in each outer fold: its cv_results_ rows by its splits, as
    # scikit-learn's search fitted by hand on the fold's training rows counts them
    from sklearn.base import clone
    from sklearn.model_selection import StratifiedKFold

    fits = 0
    for train, _ in StratifiedKFold(3).split(X, y):
        search = clone(halving).fit(X[train], y[train])
        fits += len(search.cv_results_["params"]) * search.n_splits_
    assert budget.loc["halving", "n_searches"] == 3
    assert budget.loc["halving", "n_inner_fits"] == fits == 36
    assert budget.loc["halving", "n_candidates"] == 4
    assert budget.loc["tree", "n_inner_fits"] == 4 * 3 and budget.loc["tree", "n_searches"] == 0


def test_models_on_one_dataset_share_outer_and_inner_splits_and_seeds():
    X, y = DATASETS["a"]
    # the same model under two names: identical scores only if every split and seed is shared
    twin = (DecisionTreeClassifier(), {"max_depth": [2, 4]})
    result = benchmark({"one": twin, "two": twin}, {"a": (X, y)}, outer_cv=4, random_state=3)
    one, two = result.estimators["a", "one"], result.estimators["a", "two"]
    np.testing.assert_array_equal(one.outer_scores_, two.outer_scores_)
    np.testing.assert_array_equal(one.validation_scores_, two.validation_scores_)
    assert one.refit_seeds_ == two.refit_seeds_


@pytest.mark.filterwarnings("ignore::sklearn_fair.exceptions.ReproducibilityWarning")
def test_unseeded_shuffling_outer_cv_is_refused():
    with pytest.raises(SplitsMismatchError, match="differ: outer fold 0.*unseeded shuffling"):
        benchmark(
            {"p": DummyClassifier(), "q": DummyClassifier(strategy="stratified")},
            {"a": DATASETS["a"]},
            outer_cv=KFold(3, shuffle=True),
            random_state=0,
        )


def test_groups_reach_the_outer_and_the_default_inner_splits():
    X, y = DATASETS["a"]
    groups = np.arange(len(y)) % 6
    result = benchmark(
        {"prior": DummyClassifier(), "tree": DecisionTreeClassifier(max_depth=2)},
        {"grouped": (X, y, groups)},
        outer_cv=GroupKFold(3),
        n_refits=1,
        random_state=0,
    )
    for fold in result.estimators["grouped", "tree"].outer_results_:
        train, test = fold["train_indices"], fold["test_indices"]
        assert not set(groups[train]) & set(groups[test])
    alone = NestedCV(
        DecisionTreeClassifier(max_depth=2), outer_cv=GroupKFold(3), n_refits=1,
        random_state=0, refit=False,
    ).fit(X, y, groups=groups)  # fmt: skip
    _assert_same(result.estimators["grouped", "tree"], alone)


def test_callables_are_loaded_once_and_graph_data_is_taken_as_it_is():
    X, y = DATASETS["a"]
    calls = []

    def load():
        calls.append(1)
        return X, y

    graphs = [SimpleNamespace(y=int(label), x=row) for row, label in zip(X, y)]
    result = benchmark(
        {"prior": DummyClassifier(), "majority": DummyClassifier(strategy="most_frequent")},
        {"loaded": load, "graphs": graphs},
        outer_cv=StratifiedKFold(3),
        n_refits=1,
        random_state=0,
    )
    assert calls == [1]
    # the labels of graph data are read from each graph's .y
    expected = [np.mean(y[test] == np.bincount(y[train]).argmax())
                for train, test in StratifiedKFold(3).split(X, y)]  # fmt: skip
    np.testing.assert_allclose(result.estimators["graphs", "majority"].outer_scores_, expected)


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="'models' parameter of benchmark maps 'x'"):
        benchmark({"x": 3}, DATASETS)
    with pytest.raises(ValueError, match="'datasets' parameter of benchmark maps 'd'"):
        benchmark({"p": DummyClassifier()}, {"d": "nope"})
    with pytest.raises(ValueError, match="'baseline' parameter of benchmark"):
        benchmark({"p": DummyClassifier()}, DATASETS, baseline="q")
    # one name: a baseline per data set (a dict) raised "unhashable type: 'dict'"
    per_dataset = dict.fromkeys(DATASETS, "p")
    with pytest.raises(ValueError, match="'baseline' parameter of benchmark"):
        benchmark({"p": DummyClassifier()}, DATASETS, baseline=per_dataset)
    with pytest.raises(ValueError, match="non-empty dict"):
        benchmark({}, DATASETS)


def test_the_users_objects_are_not_modified():
    search = GridSearchCV(LogisticRegression(), {"C": [0.1, 1.0]}, cv=3)
    nested = NestedCV(DecisionTreeClassifier(), {"max_depth": [1, 2]}, n_jobs=2, verbose=1)
    benchmark({"s": search, "n": nested}, {"a": DATASETS["a"]}, outer_cv=3, random_state=0)
    assert not hasattr(search, "best_params_") and not hasattr(nested, "outer_scores_")
    assert (nested.outer_cv, nested.n_jobs, nested.verbose, nested.refit) == (10, 2, 1, True)


@pytest.mark.parametrize(
    "own, groups",
    [(GroupKFold(3), True), (LeaveOneGroupOut(), True), (TimeSeriesSplit(3), False),
     (KFold(3, shuffle=True, random_state=1), False), (5, False)],
)  # fmt: skip
def test_a_nested_cvs_own_outer_cv_is_refused_where_benchmarks_would_replace_it(own, groups):
    X, y = DATASETS["a"]
    data = {"g": (X, y, np.arange(len(y)) % 4 if groups else None)}
    nested = NestedCV(DecisionTreeClassifier(), {"max_depth": [1, 2]}, outer_cv=own)
    # before, the cells silently ran on benchmark's 3-fold outer splits
    message = f"maps 'n' to a NestedCV with outer_cv={re.escape(repr(own))}, .* outer_cv=3"
    with pytest.raises(ValueError, match=message):
        benchmark({"n": nested, "p": DummyClassifier()}, data, outer_cv=3, random_state=0)
    with pytest.raises(ValueError, match="outer_cv={'g': 3}"):
        benchmark({"n": nested}, data, outer_cv={"g": 3}, random_state=0)
    # the same outer resampling given to benchmark is the NestedCV's own
    result = benchmark({"n": nested}, data, outer_cv=deepcopy(own), n_refits=1, random_state=0)
    expected = [test for _, test in check_cv(own, y, classifier=True).split(X, y, data["g"][2])]
    tested = [f["test_indices"] for f in result.estimators["g", "n"].outer_results_]
    assert len(tested) == len(expected)
    for a, b in zip(tested, expected):
        np.testing.assert_array_equal(np.sort(a), np.sort(b))


def test_a_nested_cvs_own_selecting_metric_is_refused_where_benchmarks_would_replace_it():
    scoring = ["accuracy", "roc_auc"]
    nested = NestedCV(DecisionTreeClassifier(), {"max_depth": [1, 2]}, scoring=scoring,
                      refit="roc_auc")  # fmt: skip
    data = {"a": DATASETS["a"]}
    # before, the NestedCV silently selected with accuracy
    with pytest.raises(ValueError, match="NestedCV with refit='roc_auc', .* refit='accuracy'"):
        benchmark({"n": nested}, data, outer_cv=3, scoring=scoring, refit="accuracy")
    for refit in (None, "roc_auc"):
        result = benchmark({"n": nested}, data, outer_cv=3, n_refits=1, refit=refit,
                           random_state=0)  # fmt: skip
        assert result.estimators["a", "n"].refit_metric_ == "roc_auc"


def test_models_scored_with_different_metrics_are_refused_before_any_fit(monkeypatch):
    def no_fits(*args, **kwargs):
        raise AssertionError("benchmark ran the fits before refusing")

    monkeypatch.setattr("sklearn_fair.benchmarking._benchmark.run_protocol", no_fits)
    search = GridSearchCV(
        LogisticRegression(), {"C": [0.1, 1.0]}, cv=3, scoring="balanced_accuracy"
    )
    own = NestedCV(DecisionTreeClassifier(), {"max_depth": [1, 2]}, scoring="roc_auc")
    # before, every fit ran and BenchmarkResult's tables, tests and report refused the result
    for model, metric in ((search, "balanced accuracy"), (own, "ROC AUC")):
        with pytest.raises(ValueError, match=f"'m': {metric}, 'tree': accuracy.*'scoring'"):
            benchmark({"m": model, "tree": DecisionTreeClassifier()}, DATASETS, outer_cv=3)
    monkeypatch.undo()
    # benchmark's scoring scores every model (a search still selects with its own)
    result = benchmark({"m": search, "tree": DecisionTreeClassifier()}, DATASETS, outer_cv=3,
                       n_refits=1, scoring="accuracy", random_state=0)  # fmt: skip
    cell = result.cells["a", "m"]
    assert (cell.metric.name, cell.validation_metric.name) == ("accuracy", "balanced accuracy")
    assert result.mean_scores().shape == (2, 2)


# -- resuming after a kill ---------------------------------------------------------------------

SLOW_MODULE = textwrap.dedent(
    """
    import os
    import time

    from sklearn.tree import DecisionTreeClassifier


    class SlowTree(DecisionTreeClassifier):
        def fit(self, X, y, sample_weight=None):
            time.sleep(float(os.environ.get("SLOW_TREE_SECONDS", "0")))
            return super().fit(X, y, sample_weight=sample_weight)
    """
)

RUN_SCRIPT = textwrap.dedent(
    """
    import sys
    from sklearn.datasets import make_classification
    from sklearn_fair import benchmark
    from slow_tree import SlowTree

    def datasets():
        return {name: make_classification(n_samples=n, n_features=5, random_state=seed)
                for name, n, seed in (("a", 60, 0), ("b", 72, 1))}

    def models():
        return {"shallow": (SlowTree(), {"max_depth": [1, 2]}),
                "deep": (SlowTree(), {"max_depth": [3, 4]})}

    if __name__ == "__main__":
        benchmark(models(), datasets(), outer_cv=3, n_refits=2, random_state=0,
                  cache_dir=sys.argv[1])
    """
)


def _entries(directory):
    return sorted(Path(directory).glob("*/*.json"))


@pytest.fixture
def slow_module(tmp_path, monkeypatch):
    module_dir = tmp_path / "modules"
    module_dir.mkdir()
    (module_dir / "slow_tree.py").write_text(SLOW_MODULE)
    (module_dir / "run_benchmark.py").write_text(RUN_SCRIPT)
    monkeypatch.syspath_prepend(str(module_dir))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(module_dir), *sys.path]))
    import run_benchmark
    import slow_tree

    cloudpickle.register_pickle_by_value(slow_tree)
    yield run_benchmark, module_dir
    cloudpickle.unregister_pickle_by_value(slow_tree)
    sys.modules.pop("slow_tree", None)
    sys.modules.pop("run_benchmark", None)


def test_killed_benchmark_resumes_and_computes_only_what_is_missing(tmp_path, slow_module):
    script, module_dir = slow_module
    cache = tmp_path / "cache"
    env = {**os.environ, "SLOW_TREE_SECONDS": "0.1"}
    process = subprocess.Popen(
        [sys.executable, str(module_dir / "run_benchmark.py"), str(cache)], env=env
    )
    deadline = time.monotonic() + 120
    while len(_entries(cache)) < 10 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert process.returncode == -signal.SIGKILL, "the benchmark finished before it was killed"
    done_before = len(_entries(cache))

    resumed = benchmark(
        script.models(), script.datasets(), outer_cv=3, n_refits=2, random_state=0,
        cache_dir=cache,
    )  # fmt: skip
    fresh = benchmark(script.models(), script.datasets(), outer_cv=3, n_refits=2, random_state=0)
    infos = [cell.cache_info_ for cell in resumed.estimators.values()]
    hits = sum(info["hits"] for info in infos)
    computed = sum(info["computed"] for info in infos)
    total = len(_entries(cache))  # every task of the benchmark is now stored
    assert 10 <= done_before < total
    assert hits == done_before
    assert computed == total - done_before
    for key, cell in resumed.estimators.items():
        np.testing.assert_array_equal(cell.outer_scores_, fresh.estimators[key].outer_scores_)
    assert isinstance(resumed, BenchmarkResult)


def test_on_a_dask_cluster_every_cell_is_nested_cv_alone():
    distributed = pytest.importorskip("dask.distributed")  # the `dask` extra, on CI
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    client = distributed.Client(cluster)
    try:
        with distributed.get_task_stream(client) as stream:
            with joblib.parallel_config("dask"):
                result = benchmark(_models(), DATASETS, outer_cv=3, n_refits=2, random_state=7)
    finally:
        client.close()
        cluster.close()
    assert len(stream.data) > 0  # the fits ran on the cluster
    for (dataset, model), cell in result.estimators.items():
        X, y = DATASETS[dataset]
        _assert_same(cell, _alone(_models()[model], X, y))


def test_several_metrics_and_negated_errors():
    from sklearn.datasets import make_regression
    from sklearn.dummy import DummyRegressor
    from sklearn.linear_model import Ridge

    data = {"r": make_regression(n_samples=60, n_features=4, noise=5.0, random_state=0)}
    models = {"mean": DummyRegressor(), "ridge": (Ridge(), {"alpha": [0.1, 10.0]})}
    scoring = ["neg_root_mean_squared_error", "r2"]
    with pytest.raises(ValueError, match="'refit' parameter"):
        benchmark(models, data, outer_cv=3, scoring=scoring, random_state=0)
    result = benchmark(
        models, data, outer_cv=3, scoring=scoring, refit="r2", random_state=0, baseline="mean"
    )
    scores = result.scores
    assert set(scores.scoring) == set(scoring)
    # the printed names of the printed values: "RMSE" is positive, not "neg_..."
    assert set(zip(scores.scoring, scores.metric)) == {
        ("neg_root_mean_squared_error", "RMSE"),
        ("r2", "R^2"),
    }
    assert (scores[scores.metric == "RMSE"].score > 0).all()
    alone = NestedCV(
        Ridge(), {"alpha": [0.1, 10.0]}, outer_cv=3, scoring=scoring, refit="r2",
        random_state=0,
    ).fit(*data["r"])  # fmt: skip
    ridge = scores[scores.model == "ridge"]
    np.testing.assert_allclose(ridge[ridge.scoring == "r2"].score, alone.outer_scores_)
    rmse = [np.mean(f["test_scores_per_metric"]["neg_root_mean_squared_error"])
            for f in alone.outer_results_]  # fmt: skip
    # in the metric's printed units: the RMSE positive
    printed = ridge[ridge.scoring == "neg_root_mean_squared_error"].score
    np.testing.assert_allclose(printed, -np.asarray(rmse))
    # the tables compare the selecting metric; ridge beats the mean
    table = result.table(mark=False, decimals=1)
    assert table.loc["ridge", "r"].startswith(f"{alone.score_mean_:.1f}")
    assert result.compare_to()["difference"].iloc[0] > 0


def test_each_data_set_may_have_its_own_outer_splits():
    X, y = DATASETS["b"]
    splits = [(np.arange(0, 48), np.arange(48, 72)), (np.arange(24, 72), np.arange(0, 24))]
    result = benchmark(
        {"prior": DummyClassifier(), "tree": DecisionTreeClassifier(max_depth=2)},
        DATASETS,
        outer_cv={"a": 4, "b": splits},
        n_refits=1,
        random_state=0,
    )
    assert result.estimators["a", "tree"].n_splits_ == 4
    folds = result.estimators["b", "prior"].outer_results_
    assert [list(f["test_indices"]) for f in folds] == [list(t) for _, t in splits]
    with pytest.raises(ValueError, match="'outer_cv' parameter of benchmark, when a dict"):
        benchmark({"p": DummyClassifier()}, DATASETS, outer_cv={"a": 3})


class _FailsOnMarkedRow(DecisionTreeClassifier):
    """A tree whose fit fails when its training rows include the marked row (feature 0 set
    to -100): every outer fold that trains on it has no candidate to select."""

    def fit(self, X, y, sample_weight=None):
        if np.min(np.asarray(X)[:, 0]) < -50:
            raise ValueError("the marked row is in the training set")
        return super().fit(X, y, sample_weight=sample_weight)


def test_a_fold_whose_selection_fails_gives_nested_cvs_results():
    X, y = _data(3)
    X = X.copy()
    X[0, 0] = -100.0
    model = (_FailsOnMarkedRow(), {"max_depth": [1, 2, 3]})  # 3 values: the edge check
    with pytest.warns(FitFailedWarning):
        result = benchmark({"tree": model}, {"a": (X, y)}, outer_cv=3, n_refits=2, random_state=7)
    with pytest.warns(FitFailedWarning):
        alone = _alone(model, X, y)
    cell = result.estimators["a", "tree"]
    # the run is the one this test is about: some folds failed, not all
    assert 0 < sum(p is None for p in alone.best_params_per_fold_) < 3
    assert cell.best_params_per_fold_ == alone.best_params_per_fold_
    np.testing.assert_array_equal(cell.outer_scores_, alone.outer_scores_)
    np.testing.assert_array_equal(result.scores["score"].isna(), np.isnan(alone.outer_scores_))


def test_a_pair_of_graph_data_and_labels_is_read_as_x_and_y():
    from sklearn_fair.benchmarking._benchmark import _load

    graphs = [SimpleNamespace(y=np.array([label])) for label in (0, 1, 0, 1)]
    y = np.array([0, 1, 0, 1])
    X, labels, groups = _load("g", (graphs, y))
    assert X is graphs and labels.tolist() == [0, 1, 0, 1] and groups is None
    # graphs alone are graph data, whose labels come from each graph's .y
    assert _load("g", graphs) == (graphs, None, None)


def test_an_unseeded_benchmark_with_a_cache_warns_once_and_its_cells_not_at_all(tmp_path):
    models = {"tree": _models()["tree"], "nested": _models()["nested"]}
    with pytest.warns(CacheWarning) as record:
        benchmark(models, DATASETS, outer_cv=2, n_refits=1, cache_dir=tmp_path / "cache")
    messages = [str(w.message) for w in record if w.category is CacheWarning]
    assert len(messages) == 1 and messages[0].startswith("benchmark has random_state=None")


def test_a_benchmark_of_one_cell_is_labelled_as_a_benchmark(capsys):
    X, y = DATASETS["a"]
    benchmark({"tree": _models()["tree"]}, {"a": (X, y)}, outer_cv=2, n_refits=1, verbose=1)
    lines = [line for line in capsys.readouterr().err.splitlines() if "fits:" in line]
    assert lines and all(line.startswith("benchmark fits:") for line in lines)
