"""An estimator whose fit draws from numpy's global random state (no ``random_state``
parameter) cannot be seeded by the run: with several workers the order in which the fits reach
that state depends on how long they take, and each worker process has its own (one worker runs
them in the plan's order, so np.random.seed before the run repeats it). The run warns, once,
naming it; not for estimators that are seeded, nor for one that draws a number it does not use
(SVR)."""

import sys
import warnings

import cloudpickle
import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification, make_regression
from sklearn.decomposition import PCA
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, KFold, cross_validate
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVR

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import ReproducibilityWarning


class GlobalNoiseCentroid(ClassifierMixin, BaseEstimator):
    """Nearest centroid on features with noise from numpy's global random state."""

    def __init__(self, shrink=0.0):
        self.shrink = shrink

    def fit(self, X, y):
        X, y = np.asarray(X, float), np.asarray(y)
        self.classes_ = np.unique(y)
        X = X + np.random.normal(scale=1.0, size=X.shape)
        mean = X.mean(0)
        self.centroids_ = np.array(
            [(1 - self.shrink) * X[y == c].mean(0) + self.shrink * mean for c in self.classes_]
        )
        return self

    def predict(self, X):
        distances = ((np.asarray(X, float)[:, None, :] - self.centroids_[None]) ** 2).sum(-1)
        return self.classes_[distances.argmin(1)]


# loky's workers cannot import this module: its estimator goes to them by value
cloudpickle.register_pickle_by_value(sys.modules[__name__])

X, y = make_classification(n_samples=90, n_features=5, n_informative=3, random_state=0)


def _global_warnings(estimator, grid, X, y, n_jobs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        NestedCV(estimator, grid, outer_cv=KFold(3), inner_cv=KFold(3), n_refits=1,
                 random_state=0, n_jobs=n_jobs).fit(X, y)  # fmt: skip
    messages = [str(w.message) for w in caught if issubclass(w.category, ReproducibilityWarning)]
    return [message for message in messages if "global random state" in message]


def _moves_global_state(estimator, X, y):
    before = np.random.get_state()
    estimator.fit(X, y)
    after = np.random.get_state()
    return not (before[2] == after[2] and np.array_equal(before[1], after[1]))


def test_the_facts_behind_the_warning():
    # scikit-learn's sequential nested CV is reproducible after np.random.seed: it fits in one
    # fixed order, so each fit gets the same draws on every run
    grid = {"shrink": [0.0, 0.5]}
    runs = []
    for _ in range(2):
        np.random.seed(0)
        search = GridSearchCV(GlobalNoiseCentroid(), grid, cv=KFold(3))
        runs.append(cross_validate(search, X, y, cv=KFold(3))["test_score"])
    np.testing.assert_array_equal(runs[0], runs[1])
    # and the estimator's fit draws from the global state, as SVR's does (it draws a seed
    # that only probability estimates would use: its predictions do not depend on it)
    assert _moves_global_state(GlobalNoiseCentroid(), X, y)
    Xr, yr = make_regression(n_samples=60, n_features=4, random_state=0)
    assert _moves_global_state(SVR(), Xr, yr)
    np.random.seed(1)
    first = SVR().fit(Xr, yr).predict(Xr)
    np.random.seed(2)
    np.testing.assert_array_equal(first, SVR().fit(Xr, yr).predict(Xr))


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_a_fit_drawing_from_the_global_state_is_warned_about_once(n_jobs):
    found = _global_warnings(GlobalNoiseCentroid(), {"shrink": [0.0, 0.5]}, X, y, n_jobs)
    assert len(found) == 1, found
    assert "The fit of GlobalNoiseCentroid draws" in found[0]
    assert "Give GlobalNoiseCentroid a random_state parameter" in found[0]
    pipe = make_pipeline(StandardScaler(), GlobalNoiseCentroid())
    found = _global_warnings(pipe, {"globalnoisecentroid__shrink": [0.0, 0.5]}, X, y, n_jobs)
    assert len(found) == 1, found
    assert "Pipeline(StandardScaler, GlobalNoiseCentroid)" in found[0]


@pytest.mark.parametrize("n_jobs", [1, 2])
@pytest.mark.parametrize(
    "estimator, grid",
    [
        (LogisticRegression(), {"C": [0.1, 1.0]}),
        (RandomForestClassifier(n_estimators=5), {"max_depth": [2, None]}),
        (
            make_pipeline(StandardScaler(), PCA(3), RandomForestClassifier(n_estimators=5)),
            {"pca__n_components": [2, 3]},
        ),
    ],
)
def test_estimators_the_run_seeds_are_not_warned_about(estimator, grid, n_jobs):
    assert _global_warnings(estimator, grid, X, y, n_jobs) == []


def test_a_draw_the_results_do_not_depend_on_is_not_warned_about():
    Xr, yr = make_regression(n_samples=90, n_features=4, noise=1.0, random_state=0)
    grid = {"C": [0.1, 10.0]}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nested = NestedCV(SVR(), grid, outer_cv=KFold(3), inner_cv=KFold(3), n_refits=1,
                          random_state=0, n_jobs=1).fit(Xr, yr)  # fmt: skip
    assert not [w for w in caught if "global random state" in str(w.message)]
    # the check changes no number: scikit-learn's own nested CV on the same splits
    expected = cross_validate(GridSearchCV(SVR(), grid, cv=KFold(3)), Xr, yr, cv=KFold(3))
    np.testing.assert_allclose(nested.outer_scores_, expected["test_score"], rtol=1e-12)


class ScaledNoiseCentroid(GlobalNoiseCentroid):
    """Its draws matter only where ``noise`` is not 0 (they are multiplied by it)."""

    def __init__(self, shrink=0.0, noise=1.0):
        super().__init__(shrink=shrink)
        self.noise = noise

    def fit(self, X, y):
        X, y = np.asarray(X, float), np.asarray(y)
        self.classes_ = np.unique(y)
        X = X + self.noise * np.random.normal(size=X.shape)
        self.centroids_ = np.array([X[y == c].mean(0) for c in self.classes_])
        return self


@pytest.mark.parametrize("order", [(0.0, 1.0), (1.0, 0.0)])
def test_the_verdict_of_one_configuration_is_not_another_ones(order):
    # the facts: with noise=0 the draws do not change the model, with noise=1 they do
    fits = {}
    for noise in (0.0, 1.0):
        centroids = []
        for seed in (0, 1):
            np.random.seed(seed)
            centroids.append(ScaledNoiseCentroid(noise=noise).fit(X, y).centroids_)
        fits[noise] = np.array_equal(*centroids)
    assert fits == {0.0: True, 1.0: False}
    # before: the first noise checked in a process decided for the other (a warning for 0.0
    # after 1.0, none for 1.0 after 0.0)
    for noise in order:
        said = _global_warnings(ScaledNoiseCentroid(noise=noise), None, X, y, n_jobs=1)
        assert len(said) == (1 if noise else 0)


def test_refits_of_one_pipeline_share_their_verdict():
    # review of round 32: a pipeline's steps (fitted, seeded) were hashed into the key, so
    # every fit of a pipeline that draws from the global state was made twice
    from sklearn_fair.model_selection._nested._tasks import _verdict_key

    def fitted(seed, rows):
        model = make_pipeline(PCA(2, random_state=seed), LogisticRegression(random_state=seed))
        return model.fit(X[rows], y[rows])

    key = _verdict_key(fitted(1, slice(0, 60)))
    assert key is not None
    assert _verdict_key(fitted(2, slice(30, 90))) == key
    other = make_pipeline(PCA(3), LogisticRegression()).fit(X, y)  # another configuration
    assert _verdict_key(other) != key


def _scaled_noise(X, scale=1.0):
    return X + scale * np.random.normal(size=np.shape(X))


def _unused_draw(X):
    np.random.permutation(len(X))  # draws, and returns X as it was
    return X


@pytest.mark.parametrize(
    "first, then",
    [
        ({"func": _unused_draw}, {"func": _scaled_noise}),
        (
            {"func": _scaled_noise, "kw_args": {"scale": 0.0}},
            {"func": _scaled_noise, "kw_args": {"scale": 3.0}},
        ),
    ],
    ids=["another function", "other kw_args"],
)
def test_a_function_transformer_has_its_own_verdict(monkeypatch, first, then):
    # hunt CACHE2-1: the verdict's key left functions and dicts out, so a FunctionTransformer
    # that draws without effect, checked first in a process, silenced the warning for one
    # whose draws matter (its seeded runs then differed from run to run, unwarned)
    from sklearn.preprocessing import FunctionTransformer

    from sklearn_fair.model_selection._nested import _tasks

    monkeypatch.setattr(_tasks, "_GLOBAL_DRAWS_MATTER", {})
    said = []
    for params in (first, then):
        model = make_pipeline(FunctionTransformer(**params), LogisticRegression())
        said.append(len(_global_warnings(model, None, X, y, n_jobs=1)))
    assert said == [0, 1]
    # the verdict the second run gives: np.random.seed before a fit changes its scores
    model = make_pipeline(FunctionTransformer(**then), LogisticRegression())
    scores = []
    for seed in (0, 1):
        np.random.seed(seed)
        scores.append(model.fit(X, y).predict(X))
    assert not np.array_equal(*scores)


class _Jitter:
    """A user's object whose method draws from np.random (review39 REV-1)."""

    def __init__(self, scale):
        self.scale = scale
        self.ballast = np.zeros(10)

    def add(self, X):
        return _scaled_noise(X, self.scale)


def test_one_verdict_per_configuration_and_no_copy_kept(monkeypatch):
    # review39 REV-1: functions counted by identity, but clone copies a partial and a bound
    # method's object for each fit: every fit missed the memo, was fitted twice and left an
    # entry holding its copy (13 entries for a partial, 40 for a bound method on 3 x 3 folds)
    from functools import partial

    from sklearn.preprocessing import FunctionTransformer

    from sklearn_fair.model_selection._nested import _tasks

    grid = {"logisticregression__C": [0.1, 1.0]}
    memo = {}
    monkeypatch.setattr(_tasks, "_GLOBAL_DRAWS_MATTER", memo)
    model = make_pipeline(
        FunctionTransformer(partial(_scaled_noise, scale=3.0)), LogisticRegression()
    )
    assert len(_global_warnings(model, grid, X, y, n_jobs=1)) == 1
    # at most one verdict per candidate: the fits of the second candidate on rows the first
    # trained on are served the transformer (reuse_prefix) and draw nothing, so which candidates
    # are checked depends on which wins an outer fold (the refit draws), and so on the noise
    assert 1 <= len(memo) <= len(grid["logisticregression__C"])
    memo.clear()
    model = make_pipeline(FunctionTransformer(_Jitter(3.0).add), LogisticRegression())
    assert len(_global_warnings(model, grid, X, y, n_jobs=1)) == 1
    assert memo == {}  # an object's method cannot be told apart: checked each fit, not kept


@pytest.mark.parametrize("clock_seed", [1, 2])
def test_one_worker_repeats_its_draws_after_np_random_seed(monkeypatch, clock_seed):
    # hunt FLAKY-2: with n_jobs=1 the tasks ran in an order the measured fit times decided, so
    # a model drawing from np.random got other draws, hence other scores, from one run to the
    # next after the same np.random.seed (scikit-learn's sequential idiom repeats them). Fit
    # times are made up here (two clocks that time the fits differently): the order, and so
    # the scores, must not depend on them
    import types

    from sklearn_fair.model_selection._nested import _tasks

    def run(clock):
        ticks = iter(np.cumsum(np.random.RandomState(clock).exponential(size=10_000)))
        monkeypatch.setattr(_tasks, "time", types.SimpleNamespace(perf_counter=ticks.__next__))
        np.random.seed(0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            nested = NestedCV(GlobalNoiseCentroid(), {"shrink": [0.0, 0.3, 0.6]},
                              outer_cv=KFold(3), inner_cv=KFold(3), n_refits=1, random_state=0,
                              n_jobs=1).fit(X, y)  # fmt: skip
        return nested.outer_scores_, nested.best_params_per_fold_

    first, again = run(0), run(clock_seed)
    np.testing.assert_array_equal(first[0], again[0])
    assert first[1] == again[1]


_SCALE = 0.0


def _noise_at_global_scale(X):
    return X + _SCALE * np.random.normal(size=np.shape(X))


def _noise_through_a_helper(X):
    return _noise_at_global_scale(X)


class _Settings:
    scale = 0.0


def _noise_at_class_scale(X):
    return X + _Settings.scale * np.random.normal(size=np.shape(X))


def _noise_at_closure_scale():
    scale = [0.0]

    def noise(X):
        return X + scale[0] * np.random.normal(size=np.shape(X))

    return noise, scale


@pytest.mark.parametrize("where", ["global", "closure", "helper", "class"])
def test_a_function_whose_scale_changed_gets_a_new_verdict(monkeypatch, where):
    # hunt DOC16-1: a function was keyed by its identity alone, so the verdict of its run with
    # a global (or closure) scale of 0, no effect, silenced the warning once the scale was 3;
    # hunt SESSION-1: the same through a helper function it calls or a class attribute
    from sklearn.preprocessing import FunctionTransformer

    from sklearn_fair.model_selection._nested import _tasks

    monkeypatch.setattr(_tasks, "_GLOBAL_DRAWS_MATTER", {})
    function, cell = _noise_at_global_scale, None
    if where == "closure":
        function, cell = _noise_at_closure_scale()
    function = {"helper": _noise_through_a_helper, "class": _noise_at_class_scale}.get(
        where, function
    )
    said = []
    for scale in (0.0, 3.0):
        if cell is not None:
            cell[0] = scale
        elif where == "class":
            monkeypatch.setattr(_Settings, "scale", scale)
        else:
            monkeypatch.setitem(globals(), "_SCALE", scale)
        model = make_pipeline(FunctionTransformer(function), LogisticRegression())
        said.append(len(_global_warnings(model, None, X, y, n_jobs=1)))
    assert said == [0, 1]


_TABLE = None  # a DataFrame, set by the test below
_LARGE = np.zeros(20_001)


def _noise_read_from_objects(X):
    return np.log1p(np.abs(X)) * _TABLE.iloc[0, 0] + _LARGE[:1] + np.random.normal(size=X.shape)


def test_a_function_reading_objects_keeps_a_key_that_costs_little(monkeypatch):
    # review40 REV-1: every global a function named was hashed at every fit that drew (a 1 GiB
    # array took 1.7 s a fit), and one that could not be hashed (a DataFrame, a ufunc) left
    # the model without a key, refitted to be checked at every fit: objects and large arrays
    # now count by identity
    from sklearn.preprocessing import FunctionTransformer

    from sklearn_fair.model_selection._nested._tasks import _verdict_key

    pd = pytest.importorskip("pandas")
    monkeypatch.setitem(globals(), "_TABLE", pd.DataFrame({"a": [1.0]}))
    model = make_pipeline(FunctionTransformer(_noise_read_from_objects), LogisticRegression())
    key = _verdict_key(model)
    assert key is not None
    _LARGE[1] = 1.0  # past what is read by content: the key does not hash it
    assert _verdict_key(model) == key
    monkeypatch.setitem(globals(), "_LARGE", np.zeros(20_001))  # another object: another key
    assert _verdict_key(model) != key
