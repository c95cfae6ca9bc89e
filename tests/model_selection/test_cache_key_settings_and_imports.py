"""A stale cache entry never silently changes a result: settings kept outside an
estimator's parameters, the refit entries of a run that keeps its predictions, helpers imported
inside a method, and data the key must not touch."""

import importlib
import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest
import sklearn
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import FunctionTransformer, StandardScaler

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import CacheWarning
from sklearn_fair.model_selection import verify_cache
from sklearn_fair.model_selection._nested._cache import _checksum
from sklearn_fair.utils import UnhashableError, describe

X, y = make_classification(n_samples=90, n_features=6, random_state=0)


def nested(estimator, cache, grid=None, **kwargs):
    params = dict(outer_cv=3, n_refits=1, random_state=0, refit=False)
    params.update(kwargs)
    return NestedCV(estimator, grid, cache_dir=cache, **params)


def neg_log_loss(estimator, X_, y_):  # a plain callable: it consumes no metadata
    return -log_loss(y_, estimator.predict_proba(X_), labels=[0, 1])


def entries(directory, phase=None):
    found = []
    for path in sorted(Path(directory).glob("*/*.json")):
        entry = json.loads(path.read_text())
        if phase is None or entry["key"]["phase"] == phase:
            found.append((path, entry))
    return found


# -- 1. metadata-routing requests and set_output ---------------------------------------------


def weighted(weight_scaler, weight_model):
    return Pipeline(
        [
            ("s", StandardScaler().set_fit_request(sample_weight=weight_scaler)),
            ("m", LogisticRegression().set_fit_request(sample_weight=weight_model)),
        ]
    )


def test_routing_requests_are_part_of_the_key(tmp_path):
    X_scaled = X.copy()
    X_scaled[:, 0] *= 50
    weights = np.where(np.arange(len(y)) < 30, 20.0, 0.05)

    def fit(estimator, cache):
        return nested(estimator, cache, {"m__C": [0.1, 1]}, scoring=neg_log_loss).fit(
            X_scaled, y, sample_weight=weights
        )

    with sklearn.config_context(enable_metadata_routing=True):
        fit(weighted(True, False), tmp_path / "cache")
        swapped = fit(weighted(False, True), tmp_path / "cache")
        fresh = fit(weighted(False, True), None)
        assert describe(weighted(True, False)) != describe(weighted(False, True))
        assert describe(weighted(True, False)) == describe(weighted(True, False))
    assert swapped.cache_info_["hits"] == 0
    np.testing.assert_allclose(swapped.outer_scores_, fresh.outer_scores_)


@pytest.mark.filterwarnings("ignore:When `set_output` is configured:UserWarning")
def test_set_output_is_part_of_the_key(tmp_path):
    def first_two(frame_or_array):  # what a step after set_output(transform="pandas") sees
        if hasattr(frame_or_array, "iloc"):
            return frame_or_array.iloc[:, :2].to_numpy()
        return frame_or_array[:, 3:]

    def pipeline(pandas):
        scaler = StandardScaler()
        if pandas:
            scaler.set_output(transform="pandas")
        return make_pipeline(scaler, FunctionTransformer(first_two), LogisticRegression())

    assert describe(pipeline(True)) != describe(pipeline(False))
    nested(pipeline(False), tmp_path / "cache").fit(X, y)
    pandas = nested(pipeline(True), tmp_path / "cache").fit(X, y)
    fresh = nested(pipeline(True), None).fit(X, y)
    assert pandas.cache_info_["hits"] == 0
    np.testing.assert_allclose(pandas.outer_scores_, fresh.outer_scores_)
    # the global setting too
    with sklearn.config_context(transform_output="pandas"):
        globally = nested(pipeline(False), tmp_path / "cache").fit(X, y)
    assert globally.cache_info_["hits"] == 0
    np.testing.assert_allclose(globally.outer_scores_, fresh.outer_scores_)


# -- 2. verify_cache audits the refit entries of a run that kept its predictions -------------


def kept(cache):
    return nested(LogisticRegression(), cache, {"C": [0.01, 1]}, keep_predictions=True)


@pytest.mark.parametrize("forged", ["scores", "test_predictions"])
def test_verify_cache_audits_the_entries_of_a_run_that_kept_predictions(tmp_path, forged):
    cache = tmp_path / "cache"
    kept(cache).fit(X, y)
    refits = entries(cache, "refit")
    assert len(refits) == 3 and all("test_predictions" in e["payload"] for _, e in refits)
    clean = verify_cache(kept(cache), X, y, sample=1.0, random_state=0)
    assert clean.ok and clean.n_recomputed == len(entries(cache)) == 9
    path, entry = refits[0]
    if forged == "scores":
        entry["payload"]["scores"] = {"score": 0.999}
    else:  # the scores left true: only the kept predictions are forged
        predict = entry["payload"]["test_predictions"]["predict"]
        entry["payload"]["test_predictions"]["predict"] = [1 - v for v in predict]
    entry["checksum"] = _checksum(entry["payload"], entry["key"])  # as a forger can
    path.write_text(json.dumps(entry))
    audit = verify_cache(kept(cache), X, y, sample=1.0, random_state=0)
    assert not audit.ok
    assert [d["path"] for d in audit.differences] == [str(path)]
    assert audit.differences[0]["fields"] == [forged]
    assert forged in str(audit)


def test_kept_probabilities_no_float_holds_are_refused_and_recomputed(tmp_path):
    from sklearn_fair.model_selection._nested._verify import check_entries

    cache = tmp_path / "cache"
    cold = kept(cache).fit(X, y)
    path, entry = entries(cache, "refit")[0]
    entry["payload"]["test_predictions"]["proba"][0] = [10**400, 0]  # JSON keeps the int
    entry["checksum"] = _checksum(entry["payload"], entry["key"])  # as a forger can
    path.write_text(json.dumps(entry))
    audit = check_entries(cache)  # was an OverflowError
    assert [str(p) for p, _ in audit.rejected] == [str(path)]
    with pytest.warns(CacheWarning, match="1 entry .* test predictions: proba is not numbers"):
        rerun = kept(cache).fit(X, y)  # was an OverflowError
    assert rerun.cache_info_["computed"] == 1
    np.testing.assert_array_equal(rerun.outer_scores_, cold.outer_scores_)


def test_verify_compares_train_scores_and_kept_predictions():
    from sklearn_fair.model_selection._nested._verify import _differing

    proba = [[0.2, 0.8], [0.6, 0.4]]
    stored = {
        "scores": {"score": 0.5},
        "predictions": None,
        "train_scores": {"score": 0.75},
        "test_predictions": {
            "predict": [1, 0],
            "proba": proba,
            "decision": None,
            "classes": [0, 1],
        },
    }
    same = json.loads(json.dumps(stored))
    assert _differing(stored, same, 1e-7, 1e-12) == []
    other = json.loads(json.dumps(stored))
    other["train_scores"]["score"] = 0.7
    other["test_predictions"]["proba"][0] = [0.3, 0.7]
    assert _differing(stored, other, 1e-7, 1e-12) == ["train_scores", "test_predictions"]


# -- 3. helpers imported inside a method, not imported yet when the keys are built -----------

LAZY = """
import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LogisticRegression


class LazyLR(ClassifierMixin, BaseEstimator):
    def __init__(self, C=0.01):
        self.C = C

    def _prep(self, X):
        {statement}
        return prep(np.asarray(X, dtype=float))

    def fit(self, X, y):
        self.model_ = LogisticRegression(C=self.C).fit(self._prep(X), y)
        self.classes_ = self.model_.classes_
        return self

    def predict_proba(self, X):
        return self.model_.predict_proba(self._prep(X))

    def predict(self, X):
        return self.model_.predict(self._prep(X))
"""
HELPER = "def prep(X):\n    X = X.copy()\n    X[:, 0] *= {}\n    return X\n"


@pytest.fixture
def lazy_package(tmp_path, monkeypatch):
    """A package of the user's whose estimator imports its helper inside a method; forget()
    drops the package from ``sys.modules``, as a fresh process starts."""
    name = f"lazy_{tmp_path.name.replace('-', '_')}"
    root = tmp_path / "code"
    (root / name).mkdir(parents=True)
    (root / name / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(root))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)

    def make(statement, scale):
        statement = statement.format(package=name)
        (root / name / "model.py").write_text(LAZY.replace("{statement}", statement))
        (root / name / "helpers.py").write_text(HELPER.format(scale))
        forget()
        return importlib.import_module(f"{name}.model").LazyLR

    def forget():
        for module in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
            del sys.modules[module]
        importlib.invalidate_caches()

    yield make
    forget()


@pytest.mark.parametrize(
    "statement", ["from {package}.helpers import prep", "from .helpers import prep"]
)
def test_editing_a_helper_imported_inside_a_method_recomputes(tmp_path, lazy_package, statement):
    cache = tmp_path / "cache"
    first = lazy_package(statement, 1.0)
    before = describe(first())
    nested(first(), cache, scoring="neg_log_loss").fit(X, y)  # imports the helper
    warm = nested(first(), cache, scoring="neg_log_loss").fit(X, y)  # helper imported now
    assert warm.cache_info_["computed"] == 0
    cold = lazy_package(statement, 1.0)  # a fresh process: the same key before the import
    assert nested(cold(), cache, scoring="neg_log_loss").fit(X, y).cache_info_["computed"] == 0

    edited = lazy_package(statement, 100.0)
    assert describe(edited()) != before
    served = nested(edited(), cache, scoring="neg_log_loss").fit(X, y)
    assert served.cache_info_["hits"] == 0
    lazy_package(statement, 100.0)
    fresh = nested(edited(), None, scoring="neg_log_loss").fit(X, y)
    np.testing.assert_allclose(served.outer_scores_, fresh.outer_scores_)


def test_a_helper_that_cannot_be_located_turns_the_cache_off(tmp_path, lazy_package):
    # a submodule of the user's package that only its __init__ would make when it runs
    model = lazy_package("from {package}.made_at_runtime import prep", 1.0)
    with pytest.raises(UnhashableError, match="made_at_runtime"):
        describe(model())
    with pytest.warns(CacheWarning, match="made_at_runtime"):
        with pytest.raises(ValueError):  # every fit fails: the module is not there
            nested(model(), tmp_path / "cache").fit(X, y)
    assert not list((tmp_path / "cache").glob("*/*.json"))
    # an import that is no module of the user's (a library's, or an optional one) is no reason
    for statement in ("from sklearn.preprocessing import scale as prep", "import no_such_module"):
        model = lazy_package(statement, 1.0)
        describe(model())


# -- 4. the key never touches the data; odd files in a cache folder --------------------------


def test_the_fingerprint_never_sorts_the_users_sparse_matrix():
    import scipy.sparse as sp

    from sklearn_fair.utils import fingerprint

    matrix = sp.csr_matrix(np.array([[0, 1.0, 2.0], [3.0, 0, 4.0]]))
    unsorted = sp.csr_matrix(
        (matrix.data[[1, 0, 2, 3]], matrix.indices[[1, 0, 2, 3]], matrix.indptr), shape=(2, 3)
    )
    unsorted.has_sorted_indices = False
    indices, data = unsorted.indices.copy(), unsorted.data.copy()
    assert fingerprint(unsorted) == fingerprint(matrix)
    np.testing.assert_array_equal(unsorted.indices, indices)
    np.testing.assert_array_equal(unsorted.data, data)


def test_a_frame_with_duplicate_column_names_is_fingerprinted_by_position():
    import pandas as pd

    from sklearn_fair.utils import fingerprint

    frame = pd.DataFrame(X[:, :3], columns=["a", "a", "b"])
    other = frame.copy()
    other.iloc[0, 1] += 1.0  # the second of the two "a" columns
    assert fingerprint(frame) == fingerprint(frame.copy())
    assert fingerprint(frame) != fingerprint(other)
    assert fingerprint(pd.DataFrame(X[:, :2], columns=["a", "b"])) == fingerprint(
        pd.DataFrame({"a": X[:, 0], "b": X[:, 1]})
    )


def test_a_folder_named_like_a_part_file_is_left_alone(tmp_path, monkeypatch):
    from sklearn_fair.model_selection._nested import _cache

    cache = tmp_path / "cache"
    first = nested(LogisticRegression(), cache).fit(X, y)
    folder = cache / "ab" / ".x.999999.part"
    folder.mkdir(parents=True)
    (cache / "ab" / ".y.999999.part").write_text("{")  # a part file of a process gone
    os.utime(cache / "ab" / ".y.999999.part", (0, 0))  # long ago
    monkeypatch.setattr(_cache, "_process_exists", lambda pid: False)
    again = nested(LogisticRegression(), cache).fit(X, y)
    assert again.cache_info_["computed"] == 0
    np.testing.assert_array_equal(again.outer_scores_, first.outer_scores_)
    assert folder.is_dir() and not (cache / "ab" / ".y.999999.part").exists()


def test_the_offline_check_reports_an_entry_in_the_wrong_folder(tmp_path):
    from sklearn_fair.model_selection._nested._verify import check_entries

    cache = tmp_path / "cache"
    nested(LogisticRegression(), cache).fit(X, y)
    found = entries(cache)
    path = found[0][0]
    wrong = cache / ("zz" if path.parent.name != "zz" else "yy") / path.name
    wrong.parent.mkdir(exist_ok=True)
    path.rename(wrong)
    audit = check_entries(cache)
    assert audit.n_entries == len(found) - 1
    assert [p for p, _ in audit.rejected] == [str(wrong)]
    assert not audit.ok


# -- 5. values a script sets at run time ------------------------------------------------------

MUTABLE = """
import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

SCALE = 1.0


class Scaled(ClassifierMixin, BaseEstimator):
    BOOST = 1.0

    def fit(self, X, y):
        return self

    def scale(self, X):
        return np.asarray(X) * SCALE * self.BOOST
"""


@pytest.fixture
def own_module(tmp_path, monkeypatch):
    """Import a module of the user's from ``source`` (a file in tmp_path); forget it after."""
    names = []

    def load(prefix, source):
        monkeypatch.syspath_prepend(str(tmp_path))
        names.append(f"{prefix}_{tmp_path.name.replace('-', '_')}")
        (tmp_path / f"{names[-1]}.py").write_text(source)
        return importlib.import_module(names[-1])

    yield load
    for name in names:
        sys.modules.pop(name, None)


def test_globals_and_class_attributes_set_at_run_time_are_in_the_key(own_module, monkeypatch):
    module = own_module("mutable", MUTABLE)
    before = describe(module.Scaled())
    monkeypatch.setattr(module, "SCALE", 100.0)
    after_global = describe(module.Scaled())
    monkeypatch.setattr(module.Scaled, "BOOST", 100.0)
    after_attribute = describe(module.Scaled())
    assert len({json.dumps(d) for d in (before, after_global, after_attribute)}) == 3
    # a function that reads the module's global through the module
    reader = eval("lambda X: X * m.SCALE", {"m": module})
    first = describe(reader)
    monkeypatch.setattr(module, "SCALE", 7.0)
    assert describe(reader) != first


COUNTING = """\
from sklearn.dummy import DummyClassifier


class CountingPrior(DummyClassifier):
    fits = 0
    strategy_note = "prior"

    def fit(self, X, y, sample_weight=None):
        type(self).fits += 1
        return super().fit(X, y, sample_weight=sample_weight)
"""


def test_a_class_attribute_its_own_methods_assign_is_state_not_a_setting(own_module):
    # a class that counts its fits: the count is the class's state as it runs; keyed by value,
    # every fit changed the key (no cache hit; a benchmark refused to extend its own cells)
    module = own_module("counting", COUNTING)
    before = describe(module.CountingPrior())
    module.CountingPrior().fit([[0], [1]], [0, 1])
    assert module.CountingPrior.fits == 1 and describe(module.CountingPrior()) == before
    module.CountingPrior.strategy_note = "changed"  # read, never assigned by the class
    assert describe(module.CountingPrior()) != before


# -- 6. code a file's name or a factory's arguments would hide ---------------------------------

NAMED_LIKE_THE_STANDARD_LIBRARY = "tabnanny"  # a module of the standard library nobody imports


@pytest.mark.parametrize("imported", [True, False])
def test_a_module_of_the_users_named_like_the_standard_library_is_keyed_by_its_source(
    tmp_path, monkeypatch, imported
):
    # the user's tabnanny.py (imported, or imported inside a function when it first runs) was
    # keyed as the standard library's: by the Python version, never by its source
    name = NAMED_LIKE_THE_STANDARD_LIBRARY
    assert name in sys.stdlib_module_names
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    monkeypatch.delitem(sys.modules, name, raising=False)

    def uses(version):
        folder = tmp_path / f"v{version}"
        folder.mkdir()
        (folder / f"{name}.py").write_text(f"def prep(X):\n    return X * {version}\n")
        monkeypatch.syspath_prepend(str(folder))
        sys.modules.pop(name, None)
        importlib.invalidate_caches()
        if imported:
            return importlib.import_module(name).prep
        namespace = {}
        exec(f"def prep(X):\n    import {name}\n    return {name}.prep(X)\n", namespace)
        return namespace["prep"]

    try:
        first, second = describe(uses(1)), describe(uses(2))
    finally:
        sys.modules.pop(name, None)
    assert first != second


FACTORY = """\
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LogisticRegression


def first_features(n_features, scale=1.0):
    class FirstFeatures(ClassifierMixin, BaseEstimator):
        def __init__(self, C=1.0):
            self.C = C

        def fit(self, X, y, weight=scale):
            self.model_ = LogisticRegression(C=self.C).fit(X[:, :n_features] * weight, y)
            self.classes_ = self.model_.classes_
            return self

        def predict(self, X):
            return self.model_.predict(X[:, :n_features])

    return FirstFeatures
"""


def test_a_class_made_by_a_factory_is_keyed_by_the_factorys_arguments(own_module):
    # the methods read n_features from the factory's call (a closure) and scale as a default
    factory = own_module("factory", FACTORY).first_features
    described = [describe(factory(*args)()) for args in [(6,), (1,), (6, 2.0), (6,)]]
    assert described[0] != described[1]
    assert described[0] != described[2]
    assert described[0] == described[3]


LIBRARY_USER = """\
import joblib  # a library this file imports


def imports_inside(X):
    import threadpoolctl  # a library imported when it first runs

    return X


class Scaled:
    def transform(self, X):
        return X * 2.0
"""


@pytest.mark.parametrize("library", ["joblib", "threadpoolctl"])
def test_a_library_the_users_code_imports_is_keyed_by_its_version(own_module, monkeypatch, library):
    # a class is keyed with every library its file imports (at the top or in a function); a
    # function with those it imports in its body (it reads no global of the file's)
    from sklearn_fair.utils import _provenance

    module = own_module("library_user", LIBRARY_USER)
    values = [module.Scaled(), module.imports_inside]
    before = [describe(value) for value in values]
    real = _provenance._package_of
    monkeypatch.setattr(
        _provenance, "_package_of", lambda top: f"{top}==99.0" if top == library else real(top)
    )
    changed = [describe(value) != first for value, first in zip(values, before)]
    assert changed == [True, library == "threadpoolctl"]


SET_LITERAL = """\
from sklearn_fair.utils import digest, describe


def prep(X, mode="log"):
    return X if mode in {"none", "identity", "raw", "pass", "keep", "same", "copy", "as-is"} else X


print(digest(describe(prep)))
"""


def test_a_set_literal_in_code_is_keyed_alike_whatever_the_hash_seed(tmp_path):
    # it compiles to a frozenset constant whose repr's order changes with PYTHONHASHSEED: each
    # new process missed the cache
    import subprocess

    script = tmp_path / "set_literal.py"
    script.write_text(SET_LITERAL)
    keys = {
        subprocess.run(
            [sys.executable, str(script)],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
            cwd=tmp_path,
            timeout=300,
        ).stdout  # fmt: skip
        for seed in ("1", "2", "3", "4")
    }
    assert len(keys) == 1
