"""What a cache key covers (issue 13 A): code, versions, the key stored in the entry."""

import json
import os
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.metrics import make_scorer
from sklearn.model_selection import KFold, StratifiedKFold
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import (
    CacheWarning,
    NonFiniteScoreWarning,
    ReproducibilityWarning,
)

X, y = make_classification(n_samples=60, n_features=5, random_state=0)


def entries(directory):
    return sorted(Path(directory).glob("*/*.json"))


def run(cache, estimator=None, **kwargs):
    params = dict(outer_cv=3, inner_cv=2, n_refits=1, random_state=0, refit=False)
    params.update(kwargs)
    return NestedCV(
        estimator or DecisionTreeClassifier(), {"max_depth": [1, 2]}, cache_dir=cache, **params
    ).fit(X, y)


def load_module(path, name, source):
    import importlib.util
    import sys

    path.write_text(textwrap.dedent(source))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_editing_a_custom_scorer_changes_the_key(tmp_path):
    module = load_module(
        tmp_path / "my_scoring.py",
        "my_scoring",
        """
        import numpy as np
        def hit_rate(y_true, y_pred):
            return float(np.mean(y_true == y_pred))
    """,
    )
    first = run(tmp_path / "cache", scoring=make_scorer(module.hit_rate))
    edited = load_module(
        tmp_path / "my_scoring.py",
        "my_scoring",
        """
        import numpy as np
        def hit_rate(y_true, y_pred):
            return float(np.mean(y_true == y_pred)) / 2
    """,
    )
    second = run(tmp_path / "cache", scoring=make_scorer(edited.hit_rate))
    assert second.cache_info_["hits"] == 0
    np.testing.assert_allclose(second.outer_scores_, first.outer_scores_ / 2)


def test_editing_a_global_that_cannot_be_described_changes_the_key(tmp_path):
    # A function is described by its code and the globals it reads. Before, a global that
    # describe() cannot read (a slice, a compiled pattern, a date) was described by its type
    # only: editing KEEP = slice(None) to slice(0, 3) served the scores of the whole fold.
    source = """
        import numpy as np
        KEEP = {keep}
        def hit_rate(y_true, y_pred):
            return float(np.mean(y_true[KEEP] == y_pred[KEEP]))
    """
    module = load_module(tmp_path / "my_rows.py", "my_rows", source.format(keep="slice(None)"))
    run(tmp_path / "cache", scoring=make_scorer(module.hit_rate))
    again = load_module(tmp_path / "my_rows.py", "my_rows", source.format(keep="slice(None)"))
    assert run(tmp_path / "cache", scoring=make_scorer(again.hit_rate)).cache_info_["hits"] > 0
    edited = load_module(tmp_path / "my_rows.py", "my_rows", source.format(keep="slice(0, 3)"))
    cached = run(tmp_path / "cache", scoring=make_scorer(edited.hit_rate))
    assert cached.cache_info_["hits"] == 0
    fresh = run(None, scoring=make_scorer(edited.hit_rate))
    np.testing.assert_array_equal(cached.outer_scores_, fresh.outer_scores_)


def test_editing_a_custom_estimator_class_changes_the_key(tmp_path):
    source = """
        from sklearn.tree import DecisionTreeClassifier
        class MyTree(DecisionTreeClassifier):
            def predict(self, X):
                return super().predict(X){suffix}
    """
    module = load_module(tmp_path / "my_tree.py", "my_tree", source.format(suffix=""))
    run(tmp_path / "cache", module.MyTree())
    assert run(tmp_path / "cache", module.MyTree()).cache_info_["computed"] == 0
    edited = load_module(tmp_path / "my_tree.py", "my_tree", source.format(suffix=" * 0"))
    assert run(tmp_path / "cache", edited.MyTree()).cache_info_["hits"] == 0


@pytest.fixture
def notebook_class():
    """``make(source, name)``: the class ``name`` of ``source`` run as a notebook cell runs it,
    in a module without ``__file__`` (as a notebook's ``__main__``)."""
    import sys
    import types

    def make(source, name):
        module = types.ModuleType("notebook_cell")
        sys.modules["notebook_cell"] = module
        exec(source, module.__dict__)
        return getattr(module, name)

    yield make
    sys.modules.pop("notebook_cell", None)


def test_editing_a_class_attribute_of_a_notebook_class_changes_the_key(tmp_path, notebook_class):
    # A class defined in a notebook cell has no file: it is described by its code. Before, by
    # its methods' code only, so a class attribute that a method reads, edited and the cell run
    # again, gave the same key and the scores of the old class were served.
    source = """
from sklearn.tree import DecisionTreeClassifier
class Flipping(DecisionTreeClassifier):
    flip = {flip}
    def predict(self, X):
        predicted = DecisionTreeClassifier.predict(self, X)
        return 1 - predicted if self.flip else predicted
"""
    run(tmp_path / "cache", notebook_class(source.format(flip=False), "Flipping")())
    same = notebook_class(source.format(flip=False), "Flipping")
    assert run(tmp_path / "cache", same()).cache_info_["computed"] == 0
    flipped = notebook_class(source.format(flip=True), "Flipping")
    cached = run(tmp_path / "cache", flipped())
    assert cached.cache_info_["hits"] == 0
    np.testing.assert_array_equal(cached.outer_scores_, run(None, flipped()).outer_scores_)


def test_a_notebook_class_that_calls_super_is_cached_by_its_code(tmp_path, notebook_class):
    # A method that calls super() holds its class in a closure cell; describing the class went
    # through its methods back to the class until "nested more than 200 levels deep", and the
    # run warned and used no cache: the common notebook subclass was never cached.
    source = """
from sklearn.tree import DecisionTreeClassifier
class Shifted(DecisionTreeClassifier):
    def predict(self, X):
        return super().predict(X){suffix}
"""
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheWarning)
        first = run(tmp_path / "cache", notebook_class(source.format(suffix=""), "Shifted")())
        again = run(tmp_path / "cache", notebook_class(source.format(suffix=""), "Shifted")())
    assert first.cache_info_["computed"] > 0 and again.cache_info_["computed"] == 0
    np.testing.assert_array_equal(again.outer_scores_, first.outer_scores_)
    edited = notebook_class(source.format(suffix=" * 0"), "Shifted")
    assert run(tmp_path / "cache", edited()).cache_info_["hits"] == 0


def test_a_lambda_scorer_is_cached_by_its_code(tmp_path):
    def scorer(offset):
        return lambda estimator, X, y: float(np.mean(estimator.predict(X) == y)) + offset

    first = run(tmp_path / "cache", scoring=scorer(0.0))
    again = run(tmp_path / "cache", scoring=scorer(0.0))
    other = run(tmp_path / "cache", scoring=scorer(1.0))  # the closure differs
    assert again.cache_info_["computed"] == 0
    assert other.cache_info_["hits"] == 0
    np.testing.assert_allclose(other.outer_scores_, first.outer_scores_ + 1.0)


@pytest.mark.parametrize("library", ["scikit-learn", "torch-geometric", "imbalanced-learn"])
def test_the_versions_are_part_of_the_key(tmp_path, monkeypatch, library):
    # also of the libraries sklearn-fair's own models compute with (GIN is PyG's code)
    from importlib import metadata

    run(tmp_path / "cache")
    real = metadata.version
    monkeypatch.setattr(
        metadata, "version", lambda name: "0.0.1" if name == library else real(name)
    )
    assert run(tmp_path / "cache").cache_info_["hits"] == 0


_CACHED_RUN = """
import sys
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier
import sklearn_fair
from sklearn_fair import NestedCV

X, y = make_classification(n_samples=60, n_features=5, random_state=0)
search = NestedCV(DecisionTreeClassifier(), {"max_depth": [1, 2]}, outer_cv=3, inner_cv=2,
                  n_refits=1, random_state=0, refit=False, cache_dir=sys.argv[1]).fit(X, y)
print(sklearn_fair.__file__, search.cache_info_["hits"], search.cache_info_["computed"])
"""


def test_editing_sklearn_fair_itself_changes_the_key(tmp_path):
    # A development checkout keeps its version number while its code changes, and the code
    # that runs a task (here: NestedCV's own task runner) is no estimator's class: a copy of
    # the package, run in a fresh process, edited between runs.
    import shutil
    import subprocess
    import sys

    import sklearn_fair

    package = tmp_path / "checkout" / "sklearn_fair"
    shutil.copytree(
        Path(sklearn_fair.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__")
    )
    script = tmp_path / "run.py"
    script.write_text(_CACHED_RUN)

    def hits_and_computed():
        done = subprocess.run(
            [sys.executable, str(script), str(tmp_path / "cache")],
            env={**os.environ, "PYTHONPATH": str(package.parent)},
            capture_output=True,
            text=True,
            check=True,
        )
        imported, hits, computed = done.stdout.split()
        assert Path(imported).parent == package  # the copy, not the installed package
        return int(hits), int(computed)

    cold = hits_and_computed()
    assert cold[0] == 0 and cold[1] > 0
    assert hits_and_computed() == (cold[1], 0)
    with open(package / "report" / "__init__.py", "a") as file:
        file.write("\n# formatting code only: results stay valid\n")
    assert hits_and_computed() == (cold[1], 0)
    runner = package / "model_selection" / "_nested" / "_tasks.py"
    assert runner.exists()
    with open(runner, "a") as file:
        file.write("\n# an edit to the code that runs tasks\n")
    assert hits_and_computed() == (0, cold[1])


def test_a_column_made_categorical_changes_the_key(tmp_path):
    # HistGradientBoosting splits a pandas "category" column by category and an int column by
    # threshold: the same values, another result. Before, the fingerprint of a DataFrame read
    # each column's values (the category's are its ints) and not its dtype: the cached numeric
    # scores were served for the categorical frame.
    pd = pytest.importorskip("pandas")
    from sklearn.ensemble import HistGradientBoostingClassifier

    rng = np.random.RandomState(0)
    code = rng.randint(0, 6, 120)
    target = ((code == 1) | (code == 4)).astype(int) ^ (rng.rand(120) < 0.1)
    numeric = pd.DataFrame({"code": code, "noise": rng.rand(120)})
    categorical = numeric.astype({"code": "category"})

    def fit(frame, cache):
        return NestedCV(
            HistGradientBoostingClassifier(max_iter=5, max_depth=2),
            {"learning_rate": [0.1, 0.3]},
            outer_cv=3,
            n_refits=1,
            random_state=0,
            refit=False,
            cache_dir=cache,
        ).fit(frame, target)

    fit(numeric, tmp_path / "cache")
    cached = fit(categorical, tmp_path / "cache")
    assert cached.cache_info_["hits"] == 0
    np.testing.assert_array_equal(cached.outer_scores_, fit(categorical, None).outer_scores_)


def test_an_entry_copied_over_another_or_forged_is_recomputed(tmp_path):
    cold = run(tmp_path / "cache")
    files = entries(tmp_path / "cache")
    files[1].write_text(files[0].read_text())  # a valid entry, under another task's name
    forged = json.loads(files[2].read_text())
    forged["payload"]["scores"]["score"] = 0.0
    from sklearn_fair.model_selection._nested._cache import _checksum

    forged["checksum"] = _checksum(forged["payload"], forged["key"])  # a consistent forgery
    forged["key"]["train"] = "sha256:" + "0" * 64  # ...but not the key asked for
    forged["checksum"] = _checksum(forged["payload"], forged["key"])
    files[2].write_text(json.dumps(forged))
    rerun = run(tmp_path / "cache")
    assert rerun.cache_info_["computed"] == 2
    np.testing.assert_array_equal(rerun.outer_scores_, cold.outer_scores_)


def test_tensor_parameters_give_the_same_key_in_every_process():
    # tests/graph/test_graph_cache.py checks it across processes; here, by content
    torch = pytest.importorskip("torch")
    from sklearn_fair.utils import describe

    assert describe(torch.tensor([1.0, 2.0])) == describe(torch.tensor([1.0, 2.0]))
    assert describe(torch.tensor([1.0, 2.0])) != describe(torch.tensor([1.0, 3.0]))


def test_an_unseeded_run_with_a_cache_is_warned_about(tmp_path):
    with pytest.warns(CacheWarning, match="random_state=None"):
        run(tmp_path / "cache", random_state=None)


@pytest.mark.parametrize(
    "where, splitter",
    [("outer_cv", StratifiedKFold(3, shuffle=True)), ("inner_cv", KFold(2, shuffle=True))],
)
def test_a_shuffling_splitter_without_seed_in_a_seeded_run_is_warned_about(where, splitter):
    params = dict(outer_cv=3, inner_cv=2, n_refits=1, random_state=0, refit=False)
    params[where] = splitter
    with pytest.warns(ReproducibilityWarning, match=f"'{where}'.*shuffles without a seed"):
        NestedCV(DecisionTreeClassifier(), {"max_depth": [1, 2]}, **params).fit(X, y)
    params[where] = type(splitter)(splitter.n_splits, shuffle=True, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ReproducibilityWarning)
        NestedCV(DecisionTreeClassifier(), {"max_depth": [1, 2]}, **params).fit(X, y)


def test_the_shuffling_cv_of_a_search_run_whole_without_seed_is_warned_about():
    # a search NestedCV does not take apart splits in each worker, from numpy's global state:
    # its scores changed on every run of a seeded NestedCV, without the warning its
    # GridSearchCV twin gets
    from sklearn.model_selection import GridSearchCV

    class OwnSearch(GridSearchCV):  # a subclass: run whole
        pass

    params = dict(outer_cv=3, n_refits=1, random_state=0, refit=False)
    search = OwnSearch(DecisionTreeClassifier(), {"max_depth": [1, 2]}, cv=KFold(2, shuffle=True))
    with pytest.warns(ReproducibilityWarning, match="'estimator.cv'.*shuffles without a seed"):
        NestedCV(search, **params).fit(X, y)
    search.set_params(cv=KFold(2, shuffle=True, random_state=0))
    with warnings.catch_warnings():
        warnings.simplefilter("error", ReproducibilityWarning)
        NestedCV(search, **params).fit(X, y)


def test_a_scorer_returning_nan_is_warned_about_and_recorded():
    def nan_for_deep_trees(estimator, X, y):
        return float("nan") if estimator.max_depth == 2 else 0.5

    with pytest.warns(NonFiniteScoreWarning, match="NaN or infinite score"):
        nested = NestedCV(
            DecisionTreeClassifier(),
            {"max_depth": [1, 2]},
            outer_cv=3,
            inner_cv=2,
            n_refits=1,
            refit=False,
            random_state=0,
            scoring=nan_for_deep_trees,
        ).fit(X, y)
    recorded = [t for t in nested.failed_tasks_ if "NonFiniteScore" in t["error"]]
    assert recorded and {t["key"]["candidate"] for t in recorded} == {1}
    assert all(p["max_depth"] == 1 for p in nested.best_params_per_fold_)


# -- fitted models among the parameters are keyed by their fitted state ----------------------


def _two_fitted_models():
    """Two fitted models of one class with the same parameters, learnt on other data."""
    from sklearn.linear_model import LogisticRegression

    other_X, other_y = make_classification(n_samples=80, n_features=5, random_state=1)
    params = dict(penalty="l1", solver="liblinear", C=0.1)
    first = LogisticRegression(**params).fit(other_X, other_y)
    second = LogisticRegression(**params).fit(X[:, ::-1], y)
    assert not np.allclose(first.coef_, second.coef_)
    return first, second


def _selecting_with(model):
    from sklearn.feature_selection import SelectFromModel
    from sklearn.frozen import FrozenEstimator
    from sklearn.pipeline import make_pipeline

    return make_pipeline(
        SelectFromModel(FrozenEstimator(model), max_features=2), DecisionTreeClassifier()
    )


def _projecting_with(model):
    from sklearn.decomposition import PCA
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import FunctionTransformer

    projection = PCA(n_components=2).fit(model.coef_.T @ model.coef_ + np.eye(5))
    return make_pipeline(FunctionTransformer(projection.transform), DecisionTreeClassifier())


_FITTED_MODEL = None  # a fitted model that a function reads as a global


def _scale_by_the_global_model(X):
    return X * _FITTED_MODEL.coef_


def _scaling_through_a_global(model):
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import FunctionTransformer

    global _FITTED_MODEL
    _FITTED_MODEL = model
    return make_pipeline(FunctionTransformer(_scale_by_the_global_model), DecisionTreeClassifier())


@pytest.mark.parametrize("make", [_selecting_with, _projecting_with, _scaling_through_a_global])
def test_a_fitted_model_among_the_parameters_is_keyed_by_its_fitted_state(tmp_path, make):
    # a FrozenEstimator (which clone keeps fitted), a fitted model's bound method, a fitted model
    # that a function reads as a global: another fitted model of the same class and parameters
    # is another estimator, so the second run must not be served the first one's results
    first, second = _two_fitted_models()
    grid = {"decisiontreeclassifier__max_depth": [1, 2]}

    def nested(model, cache):
        return NestedCV(
            make(model), grid, outer_cv=3, inner_cv=2, n_refits=1, random_state=0,
            refit=False, cache_dir=cache,
        ).fit(X, y)  # fmt: skip

    nested(first, tmp_path)
    served = nested(second, tmp_path)
    uncached = nested(second, None)
    assert served.cache_info_["hits"] == 0
    np.testing.assert_array_equal(served.outer_scores_, uncached.outer_scores_)
    np.testing.assert_array_equal(
        served.cv_results_["mean_test_score"], uncached.cv_results_["mean_test_score"]
    )
    # the same fitted model again is served from the cache
    assert nested(first, tmp_path).cache_info_["computed"] == 0


def test_a_bound_method_of_a_built_in_object_is_keyed_by_its_object():
    # FunctionTransformer(np.vectorize(codes.get)): the mapping decides what the step computes
    from sklearn.preprocessing import FunctionTransformer

    from sklearn_fair.utils import describe

    def step(codes):
        return FunctionTransformer(np.vectorize(codes.get))

    assert describe(step({"a": 1})) != describe(step({"a": 2}))
    assert describe(step({"a": 1})) == describe(step({"a": 1}))


def test_an_estimator_that_clone_remakes_is_described_without_its_fitted_state(tmp_path):
    # what a run fits is clone(estimator): a model fitted earlier in a session is the same
    # setting as the unfitted one (a benchmark's model fingerprint, the cache key)
    from sklearn.base import clone
    from sklearn.frozen import FrozenEstimator

    from sklearn_fair.utils import describe

    fitted = DecisionTreeClassifier(max_depth=2).fit(X, y)
    assert (
        describe(fitted) == describe(clone(fitted)) == describe(DecisionTreeClassifier(max_depth=2))
    )
    # clone keeps a FrozenEstimator as it is
    assert describe(FrozenEstimator(fitted)) != describe(FrozenEstimator(clone(fitted)))
    run(tmp_path, DecisionTreeClassifier())
    assert run(tmp_path, DecisionTreeClassifier().fit(X, y)).cache_info_["computed"] == 0


def test_a_large_frozen_model_keeps_the_cache_entries_small(tmp_path):
    # an entry holds its key: a frozen forest described in full made each entry grow with the
    # forest (~700 bytes a tree), past the size a load accepts (MAX_ENTRY_BYTES) for a large one
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.feature_selection import SelectFromModel
    from sklearn.frozen import FrozenEstimator
    from sklearn.pipeline import make_pipeline

    forest = RandomForestClassifier(n_estimators=100, max_depth=3, random_state=0).fit(X, y)
    model = make_pipeline(SelectFromModel(FrozenEstimator(forest)), DecisionTreeClassifier())
    grid = {"decisiontreeclassifier__max_depth": [1, 2]}

    def nested():
        return NestedCV(model, grid, outer_cv=3, inner_cv=2, n_refits=1, random_state=0,
                        refit=False, cache_dir=tmp_path).fit(X, y)  # fmt: skip

    nested()
    assert max(path.stat().st_size for path in entries(tmp_path)) < 8 * 1024
    assert nested().cache_info_["computed"] == 0
