"""A cached result is never served for a fit that would now give another: code that runs
other than its file holds, a class attribute forwarded to another object, a pandas index, a
package reinstalled from a folder without a new version."""

import base64
import hashlib
import importlib
import os
import shutil
import sys
import textwrap

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer

from sklearn_fair import NestedCV
from sklearn_fair.utils import _provenance

pd = pytest.importorskip("pandas")

X, y = make_classification(n_samples=150, n_features=6, n_informative=4, random_state=0)

CLASSIFIER = """
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LogisticRegression

class Clf(ClassifierMixin, BaseEstimator):
    def __init__(self, C=1.0):
        self.C = C

    def fit(self, X, y):
        self.m_ = LogisticRegression(C=self.C).fit(X[:, COLUMNS], y)
        self.classes_ = self.m_.classes_
        return self

    def predict(self, X):
        return self.m_.predict(X[:, COLUMNS])
"""


def run(estimator, grid, cache, X=X, y=y):
    return NestedCV(
        estimator, grid, outer_cv=3, inner_cv=2, n_refits=1, random_state=0, cache_dir=cache
    ).fit(X, y)


def assert_cached_is_fresh(make, grid, cache, **data):
    cached = run(make(), grid, cache, **data)
    fresh = run(make(), grid, None, **data)
    np.testing.assert_array_equal(cached.outer_scores_, fresh.outer_scores_)


@pytest.fixture
def module_dir(tmp_path, monkeypatch):
    folder = tmp_path / "code"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    yield folder
    for name in [n for n in sys.modules if n.startswith("stale_")]:
        del sys.modules[name]


def write(path, source, columns):
    path.write_text(textwrap.dedent(source).replace("COLUMNS", columns))


def test_a_class_imported_before_a_reload_is_keyed_by_the_code_it_runs(module_dir, tmp_path):
    path = module_dir / "stale_reload.py"
    write(path, CLASSIFIER, "[0, 1]")
    module = importlib.import_module("stale_reload")
    Clf = module.Clf  # ``from stale_reload import Clf``
    write(path, CLASSIFIER, "[0, 1, 2, 3, 4]")
    importlib.reload(module)
    cache = tmp_path / "cache"
    # the old class runs under the edited file: its results are the old code's
    run(Clf(), {"C": [0.1, 1.0]}, cache)
    assert_cached_is_fresh(lambda: module.Clf(), {"C": [0.1, 1.0]}, cache)


def test_a_stale_pyc_is_keyed_by_the_code_it_runs(module_dir, tmp_path, monkeypatch):
    # an edit of the same size within the same second: Python loads the old .pyc
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    path = module_dir / "stale_pyc.py"
    second = 1_700_000_000 * 10**9
    write(path, CLASSIFIER, "[0, 1]")
    os.utime(path, ns=(second, second))
    importlib.import_module("stale_pyc")
    write(path, CLASSIFIER, "[3, 4]")
    os.utime(path, ns=(second + 5 * 10**8, second + 5 * 10**8))
    del sys.modules["stale_pyc"]
    importlib.invalidate_caches()
    stale = importlib.import_module("stale_pyc")
    assert stale.Clf.fit.__code__.co_consts.count(4) == 0  # the old code, from the .pyc
    cache = tmp_path / "cache"
    run(stale.Clf(), {"C": [0.1, 1.0]}, cache)

    shutil.rmtree(module_dir / "__pycache__")
    del sys.modules["stale_pyc"]
    importlib.invalidate_caches()
    module = importlib.import_module("stale_pyc")
    assert_cached_is_fresh(lambda: module.Clf(), {"C": [0.1, 1.0]}, cache)


WRAPPER = """
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.tree import DecisionTreeClassifier

class Wrapper(ClassifierMixin, BaseEstimator):
    max_depth = 1

    def __init__(self, min_samples_leaf=1):
        self.min_samples_leaf = min_samples_leaf

    def fit(self, X, y):
        model = DecisionTreeClassifier(min_samples_leaf=self.min_samples_leaf, random_state=0)
        model.max_depth = self.max_depth  # assigned on another object: still a setting
        self.model_ = model.fit(X, y)
        self.classes_ = model.classes_
        return self

    def predict(self, X):
        return self.model_.predict(X)
"""


def test_a_class_attribute_forwarded_to_another_object_is_in_the_key(module_dir, tmp_path):
    write(module_dir / "stale_wrapper.py", WRAPPER, "")
    module = importlib.import_module("stale_wrapper")
    cache = tmp_path / "cache"
    grid = {"min_samples_leaf": [1, 5]}
    run(module.Wrapper(), grid, cache)
    module.Wrapper.max_depth = 5
    assert_cached_is_fresh(lambda: module.Wrapper(), grid, cache)


IDS = np.arange(1000, 1000 + 150)
rng = np.random.RandomState(0)
LAB = rng.randn(150)
Y_LAB = (LAB + 0.3 * rng.randn(150) > 0).astype(int)
META = pd.DataFrame({"lab": LAB}, index=pd.Index(IDS, name="pid"))
X_AGE = pd.DataFrame({"age": rng.randn(150)}, index=pd.Index(IDS, name="pid"))


def add_meta(X):
    return X.join(META)  # a feature looked up by the row's id


def joining():
    return make_pipeline(FunctionTransformer(add_meta), LogisticRegression())


def test_the_index_of_the_data_is_in_the_key(tmp_path):
    grid = {"logisticregression__C": [0.1, 1.0]}
    cache = tmp_path / "cache"
    run(joining(), grid, cache, X=X_AGE, y=Y_LAB)
    fixed = X_AGE.set_axis(pd.Index(np.roll(IDS, 1), name="pid"))  # the same values
    assert_cached_is_fresh(joining, grid, cache, X=fixed, y=Y_LAB)


def test_the_index_of_a_global_dataframe_is_in_the_key(tmp_path, monkeypatch):
    grid = {"logisticregression__C": [0.1, 1.0]}
    cache = tmp_path / "cache"
    run(joining(), grid, cache, X=X_AGE, y=Y_LAB)
    monkeypatch.setitem(globals(), "META", META.set_axis(pd.Index(np.roll(IDS, 1), name="pid")))
    assert_cached_is_fresh(joining, grid, cache, X=X_AGE, y=Y_LAB)


def install(site, columns, name="stale_labmodels"):
    """A package as ``pip install .`` leaves it: its files and a RECORD of their hashes."""
    package = site / name
    package.mkdir(exist_ok=True)
    write(package / "__init__.py", CLASSIFIER, columns)
    info = site / f"{name}-0.1.0.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1.0\n")
    (info / "top_level.txt").write_text(f"{name}\n")
    (info / "direct_url.json").write_text('{"dir_info": {}, "url": "file:///src/labmodels"}')
    content = (package / "__init__.py").read_bytes()
    digest = base64.urlsafe_b64encode(hashlib.sha256(content).digest()).rstrip(b"=").decode()
    (info / "RECORD").write_text(f"{name}/__init__.py,sha256={digest},{len(content)}\n")
    for module in [n for n in sys.modules if n.startswith(name)]:
        del sys.modules[module]
    importlib.invalidate_caches()
    # a new process: the installed distributions are read again
    _provenance._distributions_of_packages.cache_clear()
    _provenance._package_of.cache_clear()
    return importlib.import_module(name)


def test_a_package_reinstalled_from_a_folder_is_keyed_by_its_files(tmp_path, monkeypatch):
    site = tmp_path / "site-packages"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setattr(_provenance, "_SITE", (*_provenance._SITE, os.path.realpath(site)))
    cache = tmp_path / "cache"
    try:
        module = install(site, "[0, 1]")
        assert _provenance._module_kind(module) == "library"
        run(module.Clf(), {"C": [0.1, 1.0]}, cache)
        module = install(site, "[0, 1, 2, 3, 4]")  # changed code, the same version
        assert_cached_is_fresh(lambda: module.Clf(), {"C": [0.1, 1.0]}, cache)
    finally:
        sys.modules.pop("stale_labmodels", None)
        _provenance._distributions_of_packages.cache_clear()
        _provenance._package_of.cache_clear()
