"""The cache follows the code it ran (issue 28, item 1): code reached through the user's modules.

A scorer made with ``make_scorer(my_metric)`` whose ``my_metric`` calls ``helpers.score``, and an
estimator whose ``fit`` calls ``helpers.prep``: editing ``helpers.py`` must recompute.
"""

import json
import os
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import balanced_accuracy_score, make_scorer
from sklearn.model_selection import StratifiedKFold

import sklearn_fair
from sklearn_fair import NestedCV
from sklearn_fair.exceptions import CacheWarning
from sklearn_fair.utils import UnhashableError, _provenance, describe

HELPERS = """
import numpy as np

def score(y_true, y_pred):
    return float(np.mean(y_true == y_pred))

def prep(X):
    return X[:, :1]
"""
# the edit: accuracy to balanced accuracy minus 0.5, X[:, :1] to X
HELPERS_EDITED = """
from sklearn.metrics import balanced_accuracy_score

def score(y_true, y_pred):
    return balanced_accuracy_score(y_true, y_pred) - 0.5

def prep(X):
    return X
"""
METRIC = """
import helpers

def my_metric(y_true, y_pred):
    return helpers.score(y_true, y_pred)
"""
MODEL = """
import helpers
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LogisticRegression

class PrepModel(ClassifierMixin, BaseEstimator):
    def __init__(self, C=1.0):
        self.C = C

    def fit(self, X, y):
        self.model_ = LogisticRegression(C=self.C).fit(helpers.prep(X), y)
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        return self.model_.predict(helpers.prep(X))
"""
RUN = """
import json, sys
sys.path.insert(0, sys.argv[1])
from sklearn.datasets import make_classification
from sklearn.metrics import make_scorer
from sklearn_fair import NestedCV
from metric import my_metric
from model import PrepModel

X, y = make_classification(n_samples=200, n_features=6, n_informative=4, random_state=0)
nested = NestedCV(PrepModel(), {"C": [0.1, 1.0]}, outer_cv=4, inner_cv=3, n_refits=2,
                  random_state=0, refit=False, scoring=make_scorer(my_metric),
                  cache_dir=sys.argv[2] if len(sys.argv) > 2 else None).fit(X, y)
print(json.dumps({"info": nested.cache_info_, "scores": nested.outer_scores_.tolist()}))
"""


def _write(folder, name, source):
    (folder / name).write_text(textwrap.dedent(source))


def _run_fresh(code_dir, script, cache=None):
    """A fresh Python process, as a user re-running a script the next day."""
    package_root = Path(sklearn_fair.__file__).resolve().parent.parent
    arguments = [sys.executable, str(script), str(code_dir)]
    if cache is not None:
        arguments.append(str(cache))
    done = subprocess.run(
        arguments,
        env={**os.environ, "PYTHONPATH": str(package_root), "OMP_NUM_THREADS": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_editing_a_helper_module_recomputes_with_the_new_numbers(tmp_path):
    code = tmp_path / "code"
    code.mkdir()
    _write(code, "helpers.py", HELPERS)
    _write(code, "metric.py", METRIC)
    _write(code, "model.py", MODEL)
    script = tmp_path / "run.py"
    script.write_text(RUN)
    cache = tmp_path / "cache"

    cold = _run_fresh(code, script, cache)
    assert cold["info"]["hits"] == 0 and cold["info"]["computed"] > 0
    warm = _run_fresh(code, script, cache)
    assert warm["info"] == {"hits": cold["info"]["computed"], "computed": 0}
    assert warm["scores"] == cold["scores"]

    _write(code, "helpers.py", HELPERS_EDITED)
    edited = _run_fresh(code, script, cache)
    assert edited["info"]["hits"] == 0
    clean = _run_fresh(code, script)  # no cache at all
    np.testing.assert_array_equal(edited["scores"], clean["scores"])
    assert not np.allclose(edited["scores"], cold["scores"])

    # the edited helpers score balanced accuracy - 0.5: within [-0.5, 0.5], the old ones in [0, 1]
    assert all(-0.5 <= s <= 0.5 for s in edited["scores"])
    assert all(0.0 <= s <= 1.0 for s in cold["scores"]), cold
    assert min(cold["scores"]) > max(edited["scores"]), (cold, edited)


def _load(path, name, source):
    import importlib.util

    path.write_text(textwrap.dedent(source))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def user_modules(tmp_path, monkeypatch):
    """Load the user's modules from tmp_path; forget them afterwards."""
    monkeypatch.syspath_prepend(str(tmp_path))
    loaded = []

    def load(name, source):
        loaded.append(name)
        return _load(tmp_path / f"{name}.py", name, source)

    yield load
    for name in loaded:
        sys.modules.pop(name, None)


def _append(path, text="\n# edited\n"):
    with open(path, "a") as file:
        file.write(text)


@pytest.mark.parametrize(
    "how",
    [
        "import helpers_a\ndef f(y, p):\n    return helpers_a.score(y, p)\n",
        "from helpers_a import score\ndef f(y, p):\n    return score(y, p)\n",
        "def f(y, p):\n    import helpers_a\n    return helpers_a.score(y, p)\n",
        "def f(y, p):\n    from helpers_a import score\n    return score(y, p)\n",
    ],
    ids=["module-global", "function-global", "local-import", "local-from-import"],
)
def test_a_scorer_follows_its_helper_module_however_it_is_imported(user_modules, how):
    def load(score):
        user_modules("helpers_a", f"def score(y, p):\n    return float({score})\n")
        return user_modules("metric_a", how)  # imported again, as in a new session

    before = describe(make_scorer(load("(y == p).mean()").f))
    assert describe(make_scorer(load("(y == p).mean()").f)) == before
    assert describe(make_scorer(load("(y != p).mean()").f)) != before


def test_an_estimator_follows_the_modules_its_methods_reach(user_modules, tmp_path):
    # a helper of a helper (transitive), and a class of another module used in fit
    sources = {
        "deep_b": "def scale(X):\n    return X * 2\n",
        "helpers_b": "import deep_b\ndef prep(X):\n    return deep_b.scale(X)\n",
        "other_b": "class Inner:\n    pass\n",
        "model_b": textwrap.dedent(
            """
            from sklearn.base import BaseEstimator
            import helpers_b
            from other_b import Inner

            class Model(BaseEstimator):
                def fit(self, X, y):
                    self.inner_ = Inner()
                    helpers_b.prep(X)
                    return self
            """
        ),
        "unrelated_b": "x = 1\n",
    }

    def load():
        for name, source in sources.items():  # in the order of their imports
            user_modules(name, source)
        return sys.modules["model_b"]

    before = describe(load().Model())
    sources["unrelated_b"] += "# edited\n"  # not reached: no change
    assert describe(load().Model()) == before
    for name in ("deep_b", "helpers_b", "other_b"):
        sources[name] += "\nEDITED = True\n"
        after = describe(load().Model())
        assert after != before, name
        before = after


def test_a_helper_edited_after_its_import_is_not_cached(user_modules, tmp_path):
    # an open session: helpers.py edited, not reloaded: the code that runs is not the file's
    import importlib

    user_modules("helpers_e", "def score(y, p):\n    return float((y == p).mean())\n")
    metric = user_modules(
        "metric_e", "import helpers_e\ndef f(y, p):\n    return helpers_e.score(y, p)\n"
    )
    scorer = make_scorer(metric.f)
    describe(scorer)
    _append(tmp_path / "helpers_e.py", "\ndef other():\n    return 2\n")
    with pytest.raises(UnhashableError, match="'helpers_e'.*changed after it was imported"):
        describe(scorer)
    X, y = make_classification(n_samples=40, n_features=4, random_state=0)
    with pytest.warns(CacheWarning, match="changed after it was imported"):
        NestedCV(
            LogisticRegression(),
            {"C": [1.0]},
            outer_cv=StratifiedKFold(2),
            inner_cv=2,
            n_refits=1,
            refit=False,
            random_state=0,
            scoring=scorer,
            cache_dir=tmp_path / "cache",
        ).fit(X, y)
    importlib.reload(sys.modules["helpers_e"])  # the file is the code again
    describe(scorer)


def test_installed_packages_are_described_by_version_and_not_walked():
    identity = describe(LogisticRegression())["estimator"]
    assert identity["package"].startswith("scikit-learn==")
    scorer = describe(make_scorer(balanced_accuracy_score))
    text = json.dumps(scorer)
    assert "scikit-learn==" in text and "reaches" not in text


def test_sklearn_fair_itself_is_described_by_its_source_installed_or_not():
    from sklearn_fair.metrics import kappa
    from sklearn_fair.utils import source_fingerprint

    identity = describe(kappa)
    assert source_fingerprint() in identity["package"]
    assert identity["package"].startswith(f"sklearn-fair=={sklearn_fair.__version__}")


def test_the_walk_is_bounded(user_modules, monkeypatch):
    for index in reversed(range(5)):
        nxt = f"import chain_{index + 1}\n" if index < 4 else ""
        user_modules(f"chain_{index}", nxt + "def f():\n    return 1\n")
    import chain_0

    assert len(describe(chain_0)["reaches"]) == 5
    monkeypatch.setattr(_provenance, "MAX_MODULES", 3)
    with pytest.raises(UnhashableError, match="more than 3 modules of your own"):
        describe(chain_0)


def test_code_beyond_the_bound_is_not_cached(user_modules, monkeypatch, tmp_path):
    for index in reversed(range(4)):
        nxt = f"import wide_{index + 1}\n" if index < 3 else ""
        user_modules(f"wide_{index}", nxt + "import numpy as np\n")
    metric = user_modules(
        "metric_w", "import wide_0\ndef acc(y, p):\n    return float(wide_0.np.mean(y == p))\n"
    )
    monkeypatch.setattr(_provenance, "MAX_MODULES", 2)
    X, y = make_classification(n_samples=40, n_features=4, random_state=0)
    with pytest.warns(CacheWarning, match="more than 2 modules"):
        NestedCV(
            LogisticRegression(),
            {"C": [1.0]},
            outer_cv=StratifiedKFold(2),
            inner_cv=2,
            n_refits=1,
            refit=False,
            random_state=0,
            scoring=make_scorer(metric.acc),
            cache_dir=tmp_path / "cache",
        ).fit(X, y)
    assert not list((tmp_path / "cache").glob("*/*.json"))


def test_a_user_estimator_class_without_helpers_is_stable(user_modules):
    model = user_modules(
        "model_c",
        "from sklearn.base import BaseEstimator\nclass M(BaseEstimator):\n    pass\n",
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert describe(model.M()) == describe(model.M())


def test_a_notebook_class_follows_the_helpers_its_methods_call(user_modules, monkeypatch):
    # a class made in a notebook cell has no file: its methods are described by their code,
    # and the modules they reach by their files
    import types

    def notebook(score):
        user_modules("helpers_n", f"def prep(X):\n    return X * {score}\n")
        cell = types.ModuleType("__notebook_cell__")  # no __file__
        monkeypatch.setitem(sys.modules, cell.__name__, cell)
        exec(
            "import helpers_n\n"
            "from sklearn.base import BaseEstimator\n"
            "class Model(BaseEstimator):\n"
            "    @staticmethod\n"
            "    def _prep(X):\n"
            "        return helpers_n.prep(X)\n"
            "    def fit(self, X, y):\n"
            "        self._prep(X)\n"
            "        return self\n",
            cell.__dict__,
        )
        return cell.Model()

    first = describe(notebook(1))
    assert describe(notebook(1)) == first
    assert describe(notebook(2)) != first


def test_without_bytecode_a_helper_edited_before_its_first_description_is_not_cached(
    user_modules, tmp_path, monkeypatch
):
    # PYTHONDONTWRITEBYTECODE (many containers): no .pyc records the source the module was
    # compiled from; edited after its import and before the first fit, the new file keyed
    # the old code's results, served to the next process that runs the new code
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    helpers = user_modules(
        "helpers_n",
        """\
        import functools

        def scale(X):
            return X * 1.0

        @functools.lru_cache
        def cached(n):
            return n

        square = lambda x: x * x  # noqa: E731
        """,
    )
    assert not (tmp_path / "__pycache__").exists()
    describe(helpers.scale)  # unedited: described, wrappers and lambdas included
    source = """\
        from sklearn.base import BaseEstimator

        class Model(BaseEstimator):
            def fit(self, X, y):
                self.scale_ = 1.0
                return self
        """
    model = user_modules("model_m", source).Model()  # a class is keyed by its file's hash
    describe(model)  # unedited
    path = tmp_path / "model_m.py"
    path.write_text(path.read_text().replace("1.0", "9.0"))  # same size, new constant
    with pytest.raises(UnhashableError, match="'model_m'.*changed after it was imported"):
        _provenance._SEEN_MODULES.clear()  # as in a process that had not described it yet
        describe(model)
