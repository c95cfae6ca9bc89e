"""Functions that ``functools.wraps`` disguises as a library's, which the cache key took for the
library's function, so that a second run served the first run's numbers (hunt DOC21): one made
outside ``import`` (``exec``, ``runpy.run_path``, a module not in ``sys.modules``), and a
library's decorator with settings of its own on a function of the user's."""

import contextlib
import functools
import importlib.util
import runpy

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.metrics import f1_score, fbeta_score, make_scorer
from sklearn.model_selection import StratifiedKFold
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import UnhashableError
from sklearn_fair.utils import describe

SOURCE = """\
import functools
from sklearn.metrics import f1_score, fbeta_score

@functools.wraps(f1_score)
def f1_lenient(y_true, y_pred, **kwargs):
    return fbeta_score(y_true, y_pred, beta={beta}, **kwargs)
"""


def by_exec(tmp_path, beta):
    namespace = {}
    exec(SOURCE.format(beta=beta), namespace)
    return namespace["f1_lenient"]


def by_run_path(tmp_path, beta):
    path = tmp_path / f"lenient_{str(beta).replace('.', '_')}.py"
    path.write_text(SOURCE.format(beta=beta))
    return runpy.run_path(str(path))["f1_lenient"]


def from_spec(name):
    def load(tmp_path, beta):
        path = tmp_path / f"spec_{str(beta).replace('.', '_')}.py"
        path.write_text(SOURCE.format(beta=beta))
        module = importlib.util.module_from_spec(importlib.util.spec_from_file_location(name, path))
        module.__spec__.loader.exec_module(module)  # not entered in sys.modules
        return module.f1_lenient

    return load


LOADERS = {
    "exec": by_exec,
    "runpy.run_path": by_run_path,
    "spec_from_file_location": from_spec("lenient_scorer"),
    # a module not in sys.modules that takes the name of sklearn's: its globals are not sklearn's
    "spec named as sklearn's module": from_spec("sklearn.metrics._classification"),
}


@pytest.mark.parametrize("load", LOADERS.values(), ids=LOADERS.keys())
def test_a_function_made_outside_import_and_wrapped_as_a_librarys_is_the_users(tmp_path, load):
    lenient, strict = load(tmp_path, 0.2), load(tmp_path, 5.0)
    assert lenient.__module__ == f1_score.__module__  # what functools.wraps copied
    assert describe(lenient) != describe(f1_score)
    assert describe(lenient) != describe(strict)


@pytest.mark.filterwarnings("ignore")
def test_an_exec_scorer_wrapped_as_f1_is_not_served_f1s_cached_numbers(tmp_path):
    # DOC21-1: the F-0.2 scorer got f1_score's key; the cache served the F1 numbers
    X, y = make_classification(n_samples=200, weights=[0.7], flip_y=0.2, random_state=0)
    tree = DecisionTreeClassifier(max_depth=3, random_state=0)
    outer = StratifiedKFold(3, shuffle=True, random_state=0)

    def run(score, cache_dir):
        return NestedCV(
            tree, outer_cv=outer, n_refits=1, scoring=make_scorer(score), random_state=0,
            cache_dir=cache_dir,
        ).fit(X, y)  # fmt: skip

    f1 = run(f1_score, tmp_path / "cache")
    cached = run(by_exec(tmp_path, 0.2), tmp_path / "cache")
    assert cached.cache_info_["hits"] == 0
    # the reference, by scikit-learn: F-0.2 of the tree (no grid: as it is) on each outer fold
    reference = [
        fbeta_score(y[test], clone(tree).fit(X[train], y[train]).predict(X[test]), beta=0.2)
        for train, test in outer.split(X, y)
    ]
    np.testing.assert_allclose(cached.outer_scores_, reference)
    assert not np.allclose(f1.outer_scores_, reference)


def _errstate_on_wrapped(**settings):
    @np.errstate(**settings)
    @functools.wraps(f1_score)
    def score(y_true, y_pred, **kwargs):
        return float(np.float64(1) / np.float64(0))

    return score


def test_errstate_on_a_function_wrapped_as_a_librarys_is_refused():
    # DOC21-2: np.errstate(all="ignore") and np.errstate(all="raise") on one body had one key,
    # though one returns inf and the other raises FloatingPointError
    ignore, strict = _errstate_on_wrapped(all="ignore"), _errstate_on_wrapped(all="raise")
    assert ignore([0], [0]) == np.inf
    with pytest.raises(FloatingPointError):
        strict([0], [0])
    for score in (ignore, strict):  # as without functools.wraps: errstate cannot be described
        with pytest.raises(UnhashableError, match="errstate"):
            describe(score)


class Shift(contextlib.ContextDecorator):
    """A context decorator of the user's with a setting; the wrapper that calls it is the
    standard library's (``contextlib``)."""

    def __init__(self, by):
        self.by = by

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_a_librarys_decorator_keeps_its_settings_in_the_key():
    def body(y_true, y_pred, **kwargs):
        return fbeta_score(y_true, y_pred, beta=0.2, **kwargs)

    one = Shift(1)(functools.wraps(f1_score)(body))
    two = Shift(2)(functools.wraps(f1_score)(body))
    assert describe(one) != describe(two)
    assert describe(one) == describe(Shift(1)(functools.wraps(f1_score)(body)))
    # torch.no_grad on the same body is another key than errstate's (refused) or Shift's
    torch = pytest.importorskip("torch")
    no_grad = torch.no_grad()(functools.wraps(f1_score)(body))
    assert describe(no_grad) != describe(one)
    assert describe(no_grad) != describe(torch.no_grad()(f1_score))
    lenient = torch.no_grad()(by_exec(None, 0.2))
    assert describe(lenient) != describe(torch.no_grad()(by_exec(None, 5.0)))
