"""Values whose content the cache key missed, so that a second run served the first run's
numbers (hunt CACHE): a user's function wrapped with ``functools.wraps(<a library
function>)``, a ``np.frompyfunc`` ufunc, a ``random.Random`` and an object's ``__slots__``.
Each is now told apart, or refused (the cache is then off, with a CacheWarning), and every
other value is described as before."""

import datetime
import fractions
import functools
import random
import sys
import types
import warnings

import numpy as np
import pytest
import scipy.special
import sklearn
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score, fbeta_score, make_scorer
from sklearn.model_selection import KFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import CacheWarning, UnhashableError
from sklearn_fair.utils import describe

X, y = make_classification(n_samples=100, n_features=5, random_state=0)


def run(estimator, grid, cache_dir, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nested = NestedCV(
            estimator, grid, outer_cv=3, inner_cv=2, n_refits=2, random_state=0, refit=False,
            cache_dir=cache_dir, **kwargs,
        ).fit(X, y)  # fmt: skip
    nested.cache_warnings = [w for w in caught if issubclass(w.category, CacheWarning)]
    return nested


def assert_not_served_stale(tmp_path, first, second, grid, first_scoring=None, scoring=None):
    """A run of ``second`` after one of ``first`` in the same folder gives the numbers of a run
    of ``second`` without a cache: recomputed, or the cache refused with a CacheWarning."""
    run(first, grid, tmp_path, scoring=first_scoring)
    cached = run(second, grid, tmp_path, scoring=scoring)
    fresh = run(second, grid, None, scoring=scoring)
    assert cached.cache_warnings or cached.cache_info_["computed"] > 0
    np.testing.assert_array_equal(cached.outer_scores_, fresh.outer_scores_)
    return cached


@functools.wraps(f1_score)
def f1_lenient(y_true, y_pred, **kwargs):
    return fbeta_score(y_true, y_pred, beta=0.2, **kwargs)


def test_function_wrapped_as_a_library_function_is_the_users_code(tmp_path):
    assert describe(f1_lenient) != describe(f1_score)
    grid = {"C": [0.01, 1.0]}
    cached = assert_not_served_stale(
        tmp_path,
        LogisticRegression(),
        LogisticRegression(),
        grid,
        first_scoring=make_scorer(f1_score),
        scoring=make_scorer(f1_lenient),
    )
    assert not cached.cache_warnings  # described (by its code), not refused
    # and a plain library function is described by its package, as before
    assert describe(f1_score) == {
        "function": "sklearn.metrics._classification.f1_score",
        "package": f"scikit-learn=={sklearn.__version__}",
    }


def test_two_bodies_wrapped_as_one_library_function_differ():
    @functools.wraps(np.log1p)
    def first(Z):
        return np.log1p(Z)

    @functools.wraps(np.log1p)
    def second(Z):
        return np.log1p(Z) * 2

    assert describe(FunctionTransformer(first)) != describe(FunctionTransformer(second))


def test_class_that_names_a_library_module_with_methods_of_yours_is_refused():
    class Fake:
        __module__ = "sklearn.linear_model"

        def predict(self, X):
            return X

    with pytest.raises(UnhashableError, match="sklearn.linear_model"):
        describe(Fake)


def test_frompyfunc_ufunc_is_refused(tmp_path):
    same = np.frompyfunc(lambda v: v, 1, 1)
    scaled = np.frompyfunc(lambda v: v * 0.001, 1, 1)
    with pytest.raises(UnhashableError, match="frompyfunc"):
        describe(scaled)
    grid = {"logisticregression__C": [0.01, 1.0]}
    cached = assert_not_served_stale(
        tmp_path,
        make_pipeline(FunctionTransformer(same), LogisticRegression()),
        make_pipeline(FunctionTransformer(scaled), LogisticRegression()),
        grid,
    )
    assert cached.cache_warnings


def test_ufuncs_without_their_own_attributes_are_told_apart():
    # most of scipy.special's ufuncs have an empty __dict__: they were all one description
    assert not vars(scipy.special.erfi) and not vars(scipy.special.dawsn)
    assert describe(scipy.special.erfi) != describe(scipy.special.dawsn)
    # numpy's own are described as before: by the name their __dict__ holds
    assert describe(np.log1p) == {
        "object": {"class": "numpy.ufunc", "package": f"numpy=={np.__version__}"},
        "state": {"dict": [["__module__", "numpy"], ["__qualname__", "log1p"]]},
    }


def test_vectorize_is_described_by_its_function_called_or_not():
    called = np.vectorize(lambda v: v * 2, otypes=[float])
    called(np.arange(3.0))  # keeps np.frompyfunc(its function) in a cache
    assert describe(called) == describe(np.vectorize(lambda v: v * 2, otypes=[float]))
    assert describe(called) != describe(np.vectorize(lambda v: v * 3, otypes=[float]))


def jitter(Z, rng):
    noise = [[rng.gauss(0, 1) for _ in range(Z.shape[1])] for _ in range(Z.shape[0])]
    return Z + np.array(noise)


def test_random_random_is_described_by_its_state(tmp_path):
    assert describe(random.Random(0)) != describe(random.Random(1))
    assert describe(random.Random(0)) == describe(random.Random(0))
    drawn = random.Random(0)
    drawn.random()
    assert describe(drawn) != describe(random.Random(0))
    with pytest.raises(UnhashableError, match="SystemRandom"):
        describe(random.SystemRandom())

    def model(seed):
        return make_pipeline(
            FunctionTransformer(jitter, kw_args={"rng": random.Random(seed)}),
            LogisticRegression(),
        )

    grid = {"logisticregression__C": [0.01, 1.0]}
    assert_not_served_stale(tmp_path, model(0), model(1), grid)


class Slotted:
    __slots__ = ("scale", "__offset")

    def __init__(self, scale):
        self.scale = scale
        self.__offset = scale + 1

    def __call__(self, Z):
        return Z * self.scale + self.__offset


class WithDict(Slotted):  # a subclass without __slots__: a __dict__ (empty)
    pass


def test_slots_are_described():
    assert describe(WithDict(1)) != describe(WithDict(2))
    assert describe(FunctionTransformer(WithDict(1))) != describe(FunctionTransformer(WithDict(2)))
    assert describe(WithDict(1)) == describe(WithDict(1))
    unset = WithDict.__new__(WithDict)  # a slot never set is left out, not an error
    assert describe(unset) != describe(WithDict(1))


class Day(datetime.date):  # a __dict__, and the date kept in C
    pass


class SeededRandom(random.Random):
    pass


@pytest.mark.parametrize("value", [Day(2020, 1, 1), ValueError("x")])
def test_state_kept_in_c_is_refused(value):
    with pytest.raises(UnhashableError, match="implemented in C"):
        describe(value)


def test_subclass_of_random_is_described_by_its_state():
    assert describe(SeededRandom(0)) != describe(SeededRandom(1))
    assert describe(SeededRandom(0)) != describe(random.Random(0))


@pytest.mark.parametrize(
    "value",
    [
        types.SimpleNamespace(a=1),
        KFold(3, shuffle=True, random_state=0),
        functools.lru_cache(np.sum),
        np.clip,
        make_scorer(f1_score),
    ],
)
def test_objects_with_their_state_in_their_dict_are_described(value):
    assert describe(value) == describe(value)


def test_long_doubles_and_fractions_are_described_exactly():
    third = np.longdouble(1) / 3
    if np.finfo(np.longdouble).eps >= np.finfo(np.float64).eps:
        pytest.skip("long double is float64 on this platform")
    nearby = third + np.finfo(np.longdouble).eps
    assert float(third) == float(nearby)  # one float64: one key before
    assert describe(third) != describe(nearby)
    assert describe(fractions.Fraction(1, 3)) != describe(1 / 3)
    # exactly representable values are described as the float, as before
    assert describe(np.longdouble(0.5)) == 0.5
    assert describe(np.float32(0.1)) == float(np.float32(0.1))
    assert describe(np.longdouble("nan")) == {"float": "nan"}
    assert describe(np.longdouble("inf")) == {"float": "inf"}


def test_a_pyg_layer_whose_library_generated_its_methods_is_the_librarys_code():
    # review44b REV-2: PyG writes a layer's propagate into a module named under its own
    # package but in a temporary file; that is PyG's code, not the user's: the layer is
    # described (not refused), and a model using it keeps its key once a layer was built
    torch = pytest.importorskip("torch")
    torch_geometric = pytest.importorskip("torch_geometric")
    from torch_geometric.nn import GCNConv

    class TwoLayers(torch.nn.Module):
        def __init__(self, dim_features, dim_target):
            super().__init__()
            self.conv = GCNConv(dim_features, 4)
            self.out = torch.nn.Linear(4, dim_target)

    before = describe(TwoLayers)
    layer = GCNConv(3, 4)  # builds (and attaches) the generated propagate
    generated = {
        getattr(f, "__globals__", {}).get("__name__") for f in vars(GCNConv).values() if callable(f)
    }
    assert any(
        name and name.startswith("torch_geometric.") and "propagate" in name for name in generated
    )
    del layer
    # not refused as a class that names PyG's module with methods of yours
    assert describe(GCNConv) == {
        "class": "torch_geometric.nn.conv.gcn_conv.GCNConv",
        "package": f"torch-geometric=={torch_geometric.__version__}",
    }
    assert describe(TwoLayers) == before


def test_a_ufunc_keeps_its_key_when_another_package_re_exports_it(monkeypatch):
    # review44b REV-3: scikit-learn's kernels do `from scipy.special import kv`; importing
    # them must not change kv's key (the run before the import would miss its cache)
    import os

    before = describe(scipy.special.kv)
    kernels = types.ModuleType("sklearn._reexports_kv")
    kernels.__file__ = os.path.join(os.path.dirname(sklearn.__file__), "_reexports_kv.py")
    kernels.kv = scipy.special.kv
    monkeypatch.setitem(sys.modules, kernels.__name__, kernels)
    assert describe(scipy.special.kv) == before


def test_a_librarys_decorator_on_a_wrapped_function_of_yours_is_keyed_by_yours():
    # review44b REV-4: torch.no_grad() on a function of the user's wrapped as f1_score was
    # keyed as torch's wrapper of f1_score, whatever the user's body
    torch = pytest.importorskip("torch")
    from sklearn.metrics import f1_score, fbeta_score

    def lenient(y_true, y_pred, **kwargs):
        return fbeta_score(y_true, y_pred, beta=0.2, **kwargs)

    def strict(y_true, y_pred, **kwargs):
        return fbeta_score(y_true, y_pred, beta=5.0, **kwargs)

    first = torch.no_grad()(functools.wraps(f1_score)(lenient))
    second = torch.no_grad()(functools.wraps(f1_score)(strict))
    assert describe(first) != describe(second)
    assert describe(first) != describe(torch.no_grad()(f1_score))


class _Inspector:
    """Like a PyG layer's ``Inspector``: a ``get_params`` of another kind (no ``deep``), no
    ``set_params``; not an estimator."""

    def __init__(self, names):
        self.names = names

    def get_params(self, func):
        return self.names


def test_an_object_with_another_kind_of_get_params_is_described_by_its_state():
    # it was taken for an estimator: describe() called get_params(deep=False) and raised a raw
    # TypeError ("got an unexpected keyword argument 'deep'"), e.g. for a PyG GCNConv
    assert describe(_Inspector(["x"])) == describe(_Inspector(["x"]))
    assert describe(_Inspector(["x"])) != describe(_Inspector(["x", "edge_index"]))
    # an estimator is still described by its parameters
    assert describe(LogisticRegression(C=2.0)) != describe(LogisticRegression(C=1.0))


class _GetParamsOnly:
    """An estimator as scikit-learn's ``clone`` and NestedCV take one: ``get_params(deep)``
    and no ``set_params``, holding a logger (review45a REV-1: it was described by its whole
    state, refused for the logger and keyed anew once fitted)."""

    def __init__(self, C=1.0):
        self.C = C
        self._log = __import__("logging").getLogger("get-params-only")

    def get_params(self, deep=True):
        return {"C": self.C}


def test_an_estimator_with_get_params_alone_is_described_by_its_parameters():
    assert describe(_GetParamsOnly(1.0)) == describe(_GetParamsOnly(1.0))
    assert describe(_GetParamsOnly(1.0)) != describe(_GetParamsOnly(2.0))
    fitted = _GetParamsOnly(1.0)
    fitted.coef_ = np.ones(3)  # fitted state: not part of an estimator's description
    assert describe(fitted) == describe(_GetParamsOnly(1.0))


def test_a_librarys_generated_code_is_the_librarys():
    # review45a REV-2: a namedtuple's __new__ runs in globals of no imported module; the
    # class was refused as "a class that names a library's module" with "code of yours"
    import functools

    assert describe(functools._CacheInfo) == {
        "class": "functools.CacheInfo",
        "package": describe(functools.partial)["package"],
    }
