"""Issue 27.1: a pipeline step fitted with the same parameters on the same rows is fitted once
and reused; results are identical to fitting everything, and reuse never crosses rows,
parameters, code or data.

Every counting step logs each of its fits (its class, parameters and a hash of the rows it was
fitted on) to a file, so fits in worker processes are counted too. With reuse, each distinct
(step, parameters, rows) is fitted once where fitting everything fits it once per candidate:
the *set* of fits is the same, only the repeats go.
"""

import hashlib
import inspect
import os
import re
import sys
from collections import Counter

import cloudpickle
import joblib
import numpy as np
import pandas as pd
import pytest
from sklearn import config_context
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.compose import ColumnTransformer
from sklearn.datasets import make_classification
from sklearn.decomposition import TruncatedSVD
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import FeatureUnion, Pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_fair import NestedCV
from sklearn_fair.model_selection._nested import _reuse

X, y = make_classification(n_samples=90, n_features=6, n_informative=4, random_state=0)


class CountingScaler(TransformerMixin, BaseEstimator):
    """Centres and scales; logs every fit (class, parameters, rows) to ``log``."""

    def __init__(self, log=None, scale=1.0, random_state=0):
        self.log = log
        self.scale = scale
        self.random_state = random_state

    def fit(self, X, y=None, sample_weight=None):
        rows = hashlib.sha1(np.ascontiguousarray(np.asarray(X, dtype=float)).tobytes())
        with open(self.log, "a") as file:
            seed = self.random_state if isinstance(self.random_state, int) else "instance"
            file.write(f"{type(self).__name__} {self.scale} {seed} {rows.hexdigest()[:16]}\n")
        X = np.asarray(X, dtype=float)
        weights = np.ones(len(X)) if sample_weight is None else np.asarray(sample_weight)
        self.mean_ = np.average(X, axis=0, weights=weights)
        return self

    def transform(self, X):
        return (np.asarray(X, dtype=float) - self.mean_) * self.scale


class OtherCountingScaler(CountingScaler):
    """The same parameters, other code."""

    def transform(self, X):
        return super().transform(X) * 2.0


# loky's and Dask's workers cannot import this test module: its classes travel by value
cloudpickle.register_pickle_by_value(sys.modules[__name__])


def fits(log):
    return Counter(log.read_text().splitlines()) if log.exists() else Counter()


def comparable(model):
    """Everything a run reports except timings (and the counting steps' log files)."""
    results = {k: v for k, v in model.cv_results_.items() if "time" not in k}
    return _without_logs(
        {
            # repr: parameters hold estimators (equal by repr, not by ==); floats by repr are exact
            "cv_results": {k: repr(np.asarray(v).tolist()) for k, v in results.items()},
            "outer_scores": model.outer_scores_.tolist(),
            "validation_scores": model.validation_scores_.tolist(),
            "best_params": [str(p) for p in model.best_params_per_fold_],
        }
    )


def _without_logs(value):
    return re.sub(r"log='[^']*'", "log=...", re.sub(r"\s+", " ", repr(value)))


def run_both(tmp_path, estimator, grid, data=(X, y), fit_params=None, **kwargs):
    """Fit with and without reuse; returns (model on, model off, fits on, fits off)."""
    params = dict(outer_cv=3, inner_cv=2, n_refits=1, refit=True, random_state=0)
    params.update(kwargs)
    models, counts = {}, {}
    for reuse in (True, False):
        log = tmp_path / f"fits-{reuse}.log"
        model = _with_log(estimator, log)
        nested = NestedCV(model, _with_log(grid, log), reuse_prefix=reuse, **params)
        models[reuse] = nested.fit(*data, **(fit_params or {}))
        counts[reuse] = fits(log)
    return models[True], models[False], counts[True], counts[False]


def _with_log(value, log):
    """``value`` with every counting step's ``log`` set to ``log``."""
    if isinstance(value, dict):
        return {k: [_with_log(v, log) for v in vs] for k, vs in value.items()}
    if isinstance(value, BaseEstimator):
        value = value.__class__(**value.get_params(deep=False))
        for name in value.get_params(deep=True):
            if name == "log" or name.endswith("__log"):
                value.set_params(**{name: str(log)})
        return value
    return value


def assert_reused(on, off, counts_on, counts_off):
    assert comparable(on) == comparable(off)
    assert np.array_equal(on.predict(X), off.predict(X))
    # the same fits, each once: none missing (served across rows, parameters or code would
    # leave a needed fit out), none repeated
    assert set(counts_on) == set(counts_off)
    assert max(counts_on.values()) == 1
    assert sum(counts_off.values()) > sum(counts_on.values())


def test_a_prefix_is_fitted_once_per_rows_and_the_results_are_identical(tmp_path):
    pipe = Pipeline([("scale", CountingScaler()), ("clf", LogisticRegression())])
    on, off, counts_on, counts_off = run_both(tmp_path, pipe, {"clf__C": [0.01, 0.1, 1, 10]})
    assert_reused(on, off, counts_on, counts_off)
    # fitting everything fits it once per candidate in every selection fit (3 outer folds x 2
    # inner splits, the final selection's 2), once per refit and once for the final model
    assert sum(counts_off.values()) == 4 * 6 + 3 + 4 * 2 + 1


def test_steps_with_other_parameters_or_other_code_are_fitted_apart(tmp_path):
    pipe = Pipeline(
        [("scale", CountingScaler()), ("second", CountingScaler()), ("clf", LogisticRegression())]
    )
    grid = {
        "scale__scale": [1.0, 2.0],
        "second": [CountingScaler(scale=3.0), OtherCountingScaler(scale=3.0)],
        "clf__C": [0.1, 1.0],
    }
    on, off, counts_on, counts_off = run_both(tmp_path, pipe, grid)
    assert_reused(on, off, counts_on, counts_off)
    assert {line.split()[0] for line in counts_on} == {"CountingScaler", "OtherCountingScaler"}


def test_a_passthrough_step_swapped_in_the_grid(tmp_path):
    pipe = Pipeline(
        [("scale", CountingScaler()), ("mid", StandardScaler()), ("clf", LogisticRegression())]
    )
    grid = {"mid": ["passthrough", StandardScaler()], "clf__C": [0.1, 1.0]}
    assert_reused(*run_both(tmp_path, pipe, grid))


def test_a_later_step_that_works_in_place_cannot_alter_what_others_are_served(tmp_path):
    pipe = Pipeline(
        [
            ("scale", CountingScaler(scale=3.0)),
            ("inplace", StandardScaler(copy=False)),
            ("clf", LogisticRegression()),
        ]
    )
    assert_reused(*run_both(tmp_path, pipe, {"clf__C": [0.01, 1.0, 100.0]}))


def test_a_column_transformer_and_a_feature_union_on_a_data_frame(tmp_path):
    frame = pd.DataFrame(X, columns=[f"c{i}" for i in range(X.shape[1])])
    columns = ColumnTransformer(
        [("a", CountingScaler(), ["c0", "c1", "c2"]), ("b", StandardScaler(), ["c3", "c4"])]
    )
    union = FeatureUnion([("scaled", StandardScaler()), ("svd", TruncatedSVD(2))])
    pipe = Pipeline([("columns", columns), ("union", union), ("clf", LogisticRegression())])
    on, off, counts_on, counts_off = run_both(
        tmp_path, pipe, {"clf__C": [0.1, 1.0, 10.0]}, data=(frame, y)
    )
    assert comparable(on) == comparable(off)
    assert np.array_equal(on.predict(frame), off.predict(frame))
    assert set(counts_on) == set(counts_off) and max(counts_on.values()) == 1
    assert sum(counts_off.values()) > sum(counts_on.values())


def test_text_tfidf_and_svd_with_the_rank_in_the_grid(tmp_path):
    rng = np.random.default_rng(0)
    words = np.array([f"w{i}" for i in range(30)])
    docs = [" ".join(rng.choice(words, 12 + int(label) * 3)) + f" w{label}" for label in y]
    pipe = Pipeline(
        [
            ("tfidf", TfidfVectorizer()),
            ("svd", TruncatedSVD()),
            ("count", CountingScaler()),
            ("clf", LogisticRegression()),
        ]
    )
    grid = {"svd__n_components": [2, 4], "clf__C": [0.1, 1.0, 10.0]}
    on, off, counts_on, counts_off = run_both(tmp_path, pipe, grid, data=(docs, y))
    assert comparable(on) == comparable(off)
    assert np.array_equal(on.predict(docs), off.predict(docs))
    assert set(counts_on) == set(counts_off) and max(counts_on.values()) == 1
    assert sum(counts_off.values()) > 2 * sum(counts_on.values())


def test_a_sampler_in_the_prefix_changes_y_and_is_reused_when_seeded(tmp_path):
    imblearn = pytest.importorskip("imblearn")
    from imblearn.under_sampling import RandomUnderSampler

    Xi, yi = make_classification(n_samples=120, weights=[0.8], n_features=5, random_state=1)
    pipe = imblearn.pipeline.Pipeline(
        [
            ("scale", StandardScaler()),
            ("sample", RandomUnderSampler()),  # random_state left unset: NestedCV seeds it
            ("count", CountingScaler()),
            ("clf", LogisticRegression()),
        ]
    )
    on, off, counts_on, counts_off = run_both(
        tmp_path, pipe, {"clf__C": [0.1, 1.0, 10.0]}, data=(Xi, yi)
    )
    assert comparable(on) == comparable(off)
    assert np.array_equal(on.predict(Xi), off.predict(Xi))
    assert set(counts_on) == set(counts_off) and max(counts_on.values()) == 1
    assert sum(counts_off.values()) > sum(counts_on.values())


def test_unfixed_randomness_in_the_prefix_is_never_reused(tmp_path):
    # NestedCV seeds every random_state left at None, so only a RandomState instance stays
    pipe = Pipeline(
        [
            ("count", CountingScaler(random_state=np.random.RandomState(0))),
            ("clf", LogisticRegression()),
        ]
    )
    _, _, counts_on, counts_off = run_both(tmp_path, pipe, {"clf__C": [0.1, 1.0]})
    assert counts_on == counts_off
    assert not _reuse._repeatable(CountingScaler(random_state=None))
    assert not _reuse._repeatable(Pipeline([("s", CountingScaler(random_state=None))]))
    assert _reuse._repeatable(CountingScaler(random_state=3))


def test_fit_params_routed_to_a_step_exclude_it_from_reuse(tmp_path):
    pipe = Pipeline([("scale", CountingScaler()), ("clf", LogisticRegression())])
    weights = np.linspace(0.5, 2.0, len(y))
    on, off, counts_on, counts_off = run_both(
        tmp_path, pipe, {"clf__C": [0.1, 1.0]}, fit_params={"scale__sample_weight": weights}
    )
    assert comparable(on) == comparable(off)
    assert counts_on == counts_off  # every weighted fit ran


def test_early_stopping_data_go_through_the_served_prefix(tmp_path):
    pipe = Pipeline(
        [
            ("scale", CountingScaler(scale=2.0)),
            ("clf", HistGradientBoostingClassifier(max_iter=30, early_stopping=True)),
        ],
        transform_input=["X_val"],
    )
    with config_context(enable_metadata_routing=True):
        pipe.set_params(clf=pipe.named_steps["clf"].set_fit_request(X_val=True, y_val=True))
        on, off, counts_on, counts_off = run_both(
            tmp_path, pipe, {"clf__learning_rate": [0.05, 0.1, 0.3]}
        )
        assert np.array_equal(on.predict(X), off.predict(X))
    assert comparable(on) == comparable(off)
    assert set(counts_on) == set(counts_off) and max(counts_on.values()) == 1
    assert sum(counts_off.values()) > sum(counts_on.values())


def test_never_across_runs_and_data(tmp_path):
    pipe = Pipeline([("scale", CountingScaler()), ("clf", LogisticRegression())])
    log = tmp_path / "fits.log"
    pipe = _with_log(pipe, log)
    counts = []
    for data in ((X, y), (X, y), (X + 1.0, y)):
        NestedCV(pipe, {"clf__C": [0.1, 1.0]}, outer_cv=3, inner_cv=2, random_state=0).fit(*data)
        counts.append(fits(log))
        log.unlink()
    # the same data again: every fit again in the second run; other data: other fits
    assert counts[0] == counts[1] and max(counts[0].values()) == 1
    assert not set(counts[2]) & set(counts[0]) and sum(counts[2].values()) == sum(
        counts[0].values()
    )
    assert _reuse.store_statistics()[2] == 0  # the caller's process keeps nothing after a run


def test_the_store_keeps_at_most_its_limit_least_recently_used_out(tmp_path, monkeypatch):
    store = _reuse._Store()
    reuse = _reuse.PrefixReuse(max_bytes=250)
    for key in "abc":
        store.put(key, ((), None, 100), reuse)
    assert list(store.entries) == ["b", "c"] and store.nbytes == 200
    store.get("b")
    store.put("d", ((), None, 100), reuse)
    assert list(store.entries) == ["b", "d"]
    store.put("e", ((), None, 300), reuse)  # larger than the limit: not kept
    assert "e" not in store.entries
    # a run whose limit keeps nothing fits everything
    monkeypatch.setattr(_reuse, "MAX_BYTES", 0)
    pipe = Pipeline([("scale", CountingScaler()), ("clf", LogisticRegression())])
    _, _, counts_on, counts_off = run_both(tmp_path, pipe, {"clf__C": [0.1, 1.0]})
    assert counts_on == counts_off


@pytest.mark.parametrize("backend", ["loky", "threading"])
def test_reuse_in_worker_processes_and_threads(tmp_path, backend):
    pipe = Pipeline([("scale", CountingScaler()), ("clf", LogisticRegression())])
    with joblib.parallel_backend(backend, n_jobs=2):
        on, off, counts_on, counts_off = run_both(
            tmp_path, pipe, {"clf__C": [0.01, 0.1, 1, 10, 100, 1000]}, n_jobs=2
        )
    assert comparable(on) == comparable(off)
    assert set(counts_on) == set(counts_off)
    # each worker fits a prefix at most once
    assert max(counts_on.values()) <= 2
    assert sum(counts_on.values()) < sum(counts_off.values())


def test_reuse_on_dask(tmp_path, monkeypatch):
    distributed = pytest.importorskip("dask.distributed")
    # Dask's workers import the step's class by name: give them a module on their path
    (tmp_path / "counting_step.py").write_text(
        "import hashlib\n\nimport numpy as np\nfrom sklearn.base import BaseEstimator, "
        "TransformerMixin\n\n\n" + inspect.getsource(CountingScaler)
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), *sys.path]))
    from counting_step import CountingScaler as Importable

    pipe = Pipeline([("scale", Importable()), ("clf", LogisticRegression())])
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        with distributed.Client(cluster), joblib.parallel_backend("dask"):
            on, off, counts_on, counts_off = run_both(
                tmp_path, pipe, {"clf__C": [0.01, 0.1, 1, 10, 100, 1000]}
            )
    assert comparable(on) == comparable(off)
    assert set(counts_on) == set(counts_off)
    assert max(counts_on.values()) <= 2
    assert sum(counts_on.values()) < sum(counts_off.values())


def test_what_makes_two_steps_the_same():
    from sklearn.preprocessing import FunctionTransformer

    same = _reuse.step_description
    assert same(CountingScaler(scale=2.0)) == same(CountingScaler(scale=2.0))
    assert same(CountingScaler(scale=2.0)) != same(CountingScaler(scale=2))  # 2.0 is not 2
    assert same(CountingScaler()) != same(OtherCountingScaler())
    # functions by object: two lambdas with the same code are two functions
    first, second = (lambda X: X + 1), (lambda X: X + 1)
    assert same(FunctionTransformer(first)) == same(FunctionTransformer(first))
    assert same(FunctionTransformer(first)) != same(FunctionTransformer(second))
    # data among the parameters by content
    assert same(FunctionTransformer(kw_args={"w": np.arange(3)})) == same(
        FunctionTransformer(kw_args={"w": np.arange(3)})
    )
    assert same(FunctionTransformer(kw_args={"w": np.arange(3)})) != same(
        FunctionTransformer(kw_args={"w": np.arange(1, 4)})
    )
    with pytest.raises(_reuse.UnhashableError):
        same(object())


def test_steps_holding_other_fitted_models_are_fitted_apart():
    # a FrozenEstimator and a fitted model's bound method keep their fitted state through clone:
    # two of one class and parameters, fitted on other data, are two steps
    from sklearn.decomposition import PCA
    from sklearn.feature_selection import SelectFromModel
    from sklearn.frozen import FrozenEstimator
    from sklearn.preprocessing import FunctionTransformer

    X_other, y_other = make_classification(n_samples=120, n_features=6, random_state=1)
    models = [
        LogisticRegression(penalty="l1", solver="liblinear", C=0.1).fit(data, target)
        for data, target in [(X_other, y_other), (X[:, ::-1], y)]
    ]
    selecting = [FrozenEstimator(model) for model in models]
    same = _reuse.step_description
    assert same(SelectFromModel(selecting[0])) != same(SelectFromModel(selecting[1]))
    projections = [PCA(n_components=2).fit(data) for data in (X, X_other)]
    described = [same(FunctionTransformer(p.transform)) for p in projections]
    assert described[0] != described[1]
    assert same(FunctionTransformer(projections[0].transform)) == described[0]
    pipe = Pipeline([("select", SelectFromModel(selecting[0], max_features=2)),
                     ("clf", LogisticRegression())])  # fmt: skip
    grid = {"select__estimator": selecting, "clf__C": [0.1, 1.0]}
    on, off = (
        NestedCV(
            pipe,
            grid,
            outer_cv=3,
            inner_cv=2,
            n_refits=1,
            random_state=0,
            refit=False,
            reuse_prefix=reuse,
        ).fit(X, y)  # fmt: skip
        for reuse in (True, False)
    )
    assert comparable(on) == comparable(off)


# -- the functional forms and benchmark() take reuse_prefix too (issue 27.1, h7) ---------------


def _functional(tmp_path, function, reuse, **kwargs):
    log = tmp_path / f"fits-{function.__name__}-{reuse}.log"
    pipe = _with_log(Pipeline([("scale", CountingScaler()), ("clf", LogisticRegression())]), log)
    output = function(
        pipe, X, y, param_grid={"clf__C": [0.01, 0.1, 1, 10]}, cv=3, inner_cv=2, n_refits=1,
        random_state=0, reuse_prefix=reuse, **kwargs,
    )  # fmt: skip
    return output, fits(log)


@pytest.mark.parametrize("name", ["validate", "score", "predict"])
def test_the_functional_forms_reuse_prefixes_with_identical_results(tmp_path, name):
    from sklearn_fair import (
        nested_cross_val_predict,
        nested_cross_val_score,
        nested_cross_validate,
    )

    function, kwargs = {
        "validate": (nested_cross_validate, {"return_nested_info": True}),
        "score": (nested_cross_val_score, {}),
        "predict": (nested_cross_val_predict, {}),
    }[name]
    on, counts_on = _functional(tmp_path, function, True, **kwargs)
    off, counts_off = _functional(tmp_path, function, False, **kwargs)
    if isinstance(on, dict):
        on = {k: v for k, v in on.items() if "time" not in k}
        off = {k: v for k, v in off.items() if "time" not in k}
    assert repr(on) == repr(off)
    assert set(counts_on) == set(counts_off)
    assert max(counts_on.values()) == 1
    # fitting everything fits the prefix once per candidate in every selection fit (3 outer
    # folds x 2 inner splits x 4 candidates) and once per refit; reusing, once per set of rows:
    # the 2 inner training halves of an outer training fold (unshuffled 3 x 2 folds) are two of
    # the 3 outer test folds, so 3 sets of rows, plus the 3 outer training folds of the refits
    assert sum(counts_off.values()) == 4 * 6 + 3
    assert sum(counts_on.values()) == 3 + 3


def test_the_functional_forms_check_reuse_prefix():
    from sklearn.utils._param_validation import InvalidParameterError

    from sklearn_fair import nested_cross_validate

    with pytest.raises(InvalidParameterError, match="'reuse_prefix' parameter"):
        nested_cross_validate(LogisticRegression(), X, y, reuse_prefix="yes")


def _benchmark(tmp_path, reuse, models=None):
    from sklearn_fair import benchmark

    log = tmp_path / f"fits-benchmark-{reuse}.log"

    def pipe(clf):
        return _with_log(Pipeline([("scale", CountingScaler()), ("clf", clf)]), log)

    models = models or {
        "logistic": (pipe(LogisticRegression()), {"clf__C": [0.01, 1, 10]}),
        "boosting": (pipe(HistGradientBoostingClassifier(max_iter=5)), {"clf__max_depth": [2, 3]}),
    }
    result = benchmark(
        models, {"data": (X, y)}, outer_cv=3, inner_cv=2, n_refits=1, random_state=0,
        reuse_prefix=reuse,
    )  # fmt: skip
    return result, fits(log)


def test_benchmark_cells_reuse_prefixes_but_never_across_cells(tmp_path):
    on, counts_on = _benchmark(tmp_path, True)
    off, counts_off = _benchmark(tmp_path, False)
    assert repr(on.scores.to_dict()) == repr(off.scores.to_dict())
    assert set(counts_on) == set(counts_off)
    # both cells fit the same prefix on the same rows: each cell fits it once, never served
    # from the other cell's fits
    assert set(counts_on.values()) == {2}
    # without reuse: (3 + 2 candidates) x 6 selection fits, and 3 refits per cell
    assert sum(counts_off.values()) == 5 * 6 + 2 * 3
    assert sum(counts_on.values()) == 2 * (3 + 3)  # 3 + 3 sets of rows (see above), per cell


def test_benchmark_checks_reuse_prefix_and_a_nested_cv_that_turns_it_off(tmp_path):
    from sklearn_fair import benchmark

    with pytest.raises(ValueError, match="'reuse_prefix' parameter of benchmark.*Got 'yes'"):
        benchmark({"m": LogisticRegression()}, {"d": (X, y)}, reuse_prefix="yes")
    log = tmp_path / "fits-benchmark-user.log"
    pipe = _with_log(Pipeline([("scale", CountingScaler()), ("clf", LogisticRegression())]), log)
    user = NestedCV(pipe, {"clf__C": [0.01, 1, 10]}, inner_cv=2, n_refits=1, reuse_prefix=False)
    benchmark({"m": user}, {"d": (X, y)}, outer_cv=3, random_state=0)
    assert sum(fits(log).values()) == 3 * 6 + 3  # every fit fits its prefix: reuse stays off


@pytest.mark.filterwarnings("ignore::sklearn_fair.exceptions.SelectionTieWarning")
def test_tasks_sharing_rows_and_a_prefix_go_to_one_worker_in_one_batch(tmp_path, monkeypatch):
    from sklearn_fair.model_selection._nested import _batching, _running
    from sklearn_fair.model_selection._nested._tasks import TaskBatch

    # strangers alone, neighbours together, whatever the load
    monkeypatch.setattr(_batching, "TARGET_SECONDS", 0.0)
    monkeypatch.setattr(_batching, "SHARED_SECONDS", 1000.0)
    batches, submit = [], _running.LokyExecutor.submit

    def recording(executor, task, entry, priority=0):
        tasks = task.tasks if isinstance(task, TaskBatch) else [task]
        batches.append([t.task for t in tasks])
        return submit(executor, task, entry, priority)

    monkeypatch.setattr(_running.LokyExecutor, "submit", recording)
    pipe = Pipeline([("scale", CountingScaler()), ("clf", LogisticRegression())])
    grid = {"scale__scale": [1.0, 2.0], "clf__C": [0.01, 0.1, 1, 10, 100, 1000]}
    on, off, counts_on, counts_off = run_both(tmp_path, pipe, grid, outer_cv=5, n_jobs=2)
    assert comparable(on) == comparable(off)
    assert set(counts_on) == set(counts_off)
    assert max(len(batch) for batch in batches[: len(batches) // 2]) > 1
    prefixes = 0
    for batch in batches:
        assert len({task.train for task in batch}) == 1  # neighbours only
        scales = [task.params.get("scale__scale") for task in batch]
        # the first task's prefix first: one run of each prefix in the batch
        runs = [s for i, s in enumerate(scales) if i == 0 or s != scales[i - 1]]
        assert len(runs) == len(set(runs))
        prefixes += len(runs)
    # a batch runs in one worker, which fits each prefix of the batch once at most
    assert sum(counts_on.values()) <= prefixes < sum(len(batch) for batch in batches)


def _first_column_or_last_two(Z):
    """A step whose output depends on the container it gets (set_output's)."""
    return Z[["x0"]] if hasattr(Z, "columns") else Z[:, -2:]


def test_steps_with_another_set_output_are_fitted_apart():
    # two scalers of the same parameters, one set to give a DataFrame: the next step reads
    # other columns of each, so a scaler served in place of the other changed the scores
    from sklearn.model_selection import GridSearchCV, KFold, cross_validate
    from sklearn.preprocessing import FunctionTransformer

    from sklearn_fair import nested_cross_validate

    X, y = make_classification(200, 6, n_informative=2, n_redundant=0, flip_y=0.1, random_state=3)
    pipe = Pipeline(
        [
            ("scale", StandardScaler()),
            ("pick", FunctionTransformer(_first_column_or_last_two)),
            ("clf", LogisticRegression()),
        ]
    )
    grid = {"scale": [StandardScaler(), StandardScaler().set_output(transform="pandas")]}
    assert _reuse.step_description(grid["scale"][0]) != _reuse.step_description(grid["scale"][1])
    expected = cross_validate(GridSearchCV(pipe, grid, cv=KFold(3)), X, y, cv=KFold(5))
    result = nested_cross_validate(
        pipe, X, y, param_grid=grid, inner_cv=KFold(3), cv=KFold(5), n_refits=1,
        reuse_prefix=True,
    )  # fmt: skip
    np.testing.assert_allclose(result["test_score"], expected["test_score"], rtol=0, atol=1e-12)
