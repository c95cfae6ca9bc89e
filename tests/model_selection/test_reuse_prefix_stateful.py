"""A pipeline step whose transform changes its fitted state breaks scikit-learn's contract
(check_dict_unchanged); shared by the fits that train it on the same rows
(``reuse_prefix=True``), each candidate would be validated with the state the previous ones
left. It is found when served again, refitted for every fit, and named in a warning: the
numbers are scikit-learn's, as with ``reuse_prefix=False``."""

import collections
import random
import sys
import types
import warnings

import cloudpickle
import numpy as np
import pytest
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, KFold, cross_validate
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils import check_random_state

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import ReproducibilityWarning


class RunningScaler(TransformerMixin, BaseEstimator):
    """Centres with a running mean that every transform updates (online normalisation)."""

    def __init__(self, momentum=0.2):
        self.momentum = momentum

    def fit(self, X, y=None):
        self.mean_ = np.asarray(X, float).mean(0)
        return self

    def transform(self, X):
        X = np.asarray(X, float)
        self.mean_ = self.momentum * self.mean_ + (1 - self.momentum) * X.mean(0)
        return X - self.mean_


class InPlaceRunningScaler(RunningScaler):
    """The same, updating its array in place (check_dict_unchanged does not see it)."""

    def transform(self, X):
        X = np.asarray(X, float)
        self.mean_ *= self.momentum
        self.mean_ += (1 - self.momentum) * X.mean(0)
        return X - self.mean_


class WindowScaler(TransformerMixin, BaseEstimator):
    """Centres with the mean of the last 3 batches seen, held in a deque."""

    def fit(self, X, y=None):
        self.window_ = collections.deque([np.asarray(X, float).mean(0)], maxlen=3)
        return self

    def transform(self, X):
        X = np.asarray(X, float)
        self.window_.append(X.mean(0))
        return X - np.mean(self.window_, axis=0)


class NamespaceRunningScaler(RunningScaler):
    """The running mean held in a namespace, changed in place."""

    def fit(self, X, y=None):
        self.stats_ = types.SimpleNamespace(mean=np.asarray(X, float).mean(0))
        return self

    def transform(self, X):
        X = np.asarray(X, float)
        self.stats_.mean = self.momentum * self.stats_.mean + (1 - self.momentum) * X.mean(0)
        return X - self.stats_.mean


class _Window:
    __slots__ = ("means",)

    def __init__(self, means):
        self.means = means

    # a class sent by value to loky's workers loses its slots' pickling: its own state
    def __getstate__(self):
        return self.means

    def __setstate__(self, state):
        self.means = state


class SlotsRunningScaler(RunningScaler):
    """The running mean held in an object with ``__slots__`` (no ``__dict__``), rebound."""

    def fit(self, X, y=None):
        self.stats_ = _Window(np.asarray(X, float).mean(0))
        return self

    def transform(self, X):
        X = np.asarray(X, float)
        self.stats_.means = self.momentum * self.stats_.means + (1 - self.momentum) * X.mean(0)
        return X - self.stats_.means


class Jitter(TransformerMixin, BaseEstimator):
    """Adds noise drawn from a RandomState made in fit (scikit-learn's check_random_state
    idiom): each transform moves the generator on."""

    def __init__(self, random_state=0):
        self.random_state = random_state

    def fit(self, X, y=None):
        self.rng_ = check_random_state(self.random_state)
        return self

    def transform(self, X):
        return np.asarray(X, float) + self.rng_.normal(0, 2.0, np.shape(X))


class PythonJitter(Jitter):
    """Jitter drawing from Python's ``random.Random``."""

    def fit(self, X, y=None):
        self.rng_ = random.Random(self.random_state)
        return self

    def transform(self, X):
        X = np.asarray(X, float)
        return X + np.reshape([self.rng_.gauss(0, 2.0) for _ in range(X.size)], X.shape)


class TorchJitter(Jitter):
    """Jitter drawing from a ``torch.Generator``."""

    def fit(self, X, y=None):
        import torch

        self.rng_ = torch.Generator().manual_seed(self.random_state)
        return self

    def transform(self, X):
        import torch

        X = np.asarray(X, float)
        noise = torch.normal(0.0, 2.0, size=X.shape, generator=self.rng_, dtype=torch.float64)
        return X + noise.numpy()


class LoggedScaler(StandardScaler):
    """StandardScaler, logging each fit to ``log``."""

    def __init__(self, log=None):
        super().__init__()
        self.log = log

    def fit(self, X, y=None, sample_weight=None):
        with open(self.log, "a") as file:
            file.write("fit\n")
        return super().fit(X, y, sample_weight)


# loky's workers cannot import this test module: its classes travel by value
cloudpickle.register_pickle_by_value(sys.modules[__name__])

X, y = make_classification(n_samples=150, n_features=6, random_state=0, shift=2.0)
GRID = {"logisticregression__C": [0.01, 0.1, 1.0]}
OUTER, INNER = KFold(5), KFold(3)


def _nested(pipe, reuse, n_jobs=1):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nested = NestedCV(pipe, GRID, outer_cv=OUTER, inner_cv=INNER, n_refits=1,
                          random_state=0, reuse_prefix=reuse, n_jobs=n_jobs).fit(X, y)  # fmt: skip
    found = [
        str(w.message)
        for w in caught
        if issubclass(w.category, ReproducibilityWarning) and "fitted state" in str(w.message)
    ]
    return nested, found


@pytest.mark.parametrize("n_jobs", [1, 2])
@pytest.mark.parametrize(
    "scaler",
    [
        RunningScaler,
        InPlaceRunningScaler,
        WindowScaler,
        NamespaceRunningScaler,
        SlotsRunningScaler,
        Jitter,
        PythonJitter,
        TorchJitter,
    ],
)
def test_a_step_whose_transform_changes_it_is_refitted_and_named(scaler, n_jobs):
    if scaler is TorchJitter:
        pytest.importorskip("torch")
    pipe = make_pipeline(scaler(), LogisticRegression(fit_intercept=False))
    # the reference: scikit-learn's GridSearchCV on each outer training fold
    searches = [
        GridSearchCV(pipe, GRID, cv=INNER).fit(X[train], y[train]) for train, _ in OUTER.split(X)
    ]
    outer = cross_validate(GridSearchCV(pipe, GRID, cv=INNER), X, y, cv=OUTER)["test_score"]
    reused, found = _nested(pipe, True, n_jobs)
    refitted, _ = _nested(pipe, False, n_jobs)
    for nested in (reused, refitted):
        np.testing.assert_array_equal(
            nested.validation_scores_, [search.best_score_ for search in searches]
        )
        assert nested.best_params_per_fold_ == [search.best_params_ for search in searches]
        np.testing.assert_array_equal(nested.outer_scores_, outer)
    assert reused.optimism_ == refitted.optimism_
    assert len(found) == 1, found
    name = type(pipe.steps[0][1]).__name__
    assert f"The pipeline step {name.lower()!r} ({name}) changed its fitted state" in found[0]
    assert "reuse_prefix=False" in found[0]


def test_a_step_that_keeps_the_contract_is_reused_without_a_warning(tmp_path):
    counts = {}
    for reuse in (True, False):
        log = tmp_path / f"fits-{reuse}.log"
        pipe = make_pipeline(LoggedScaler(log=str(log)), LogisticRegression())
        nested, found = _nested(pipe, reuse)
        assert found == []
        counts[reuse] = len(log.read_text().splitlines())
        if reuse:
            reused = nested
    np.testing.assert_array_equal(reused.outer_scores_, nested.outer_scores_)
    # still fitted at most once for each set of training rows (3 inner splits and the outer
    # training fold in each of 5 outer folds, and as many on all the data for the final
    # model), not once per candidate as without reuse
    n_candidates = len(GRID["logisticregression__C"])
    assert counts[True] <= 6 * (3 + 1)
    assert counts[False] == 6 * (3 * n_candidates + 1)


def test_a_sparse_matrix_read_by_transform_keeps_the_steps_state():
    # scipy caches flags on a sparse matrix when they are read (has_sorted_indices): a step
    # that only reads its fitted matrix was taken to have changed it, refitted and warned of
    import scipy.sparse as sp

    from sklearn_fair.model_selection._nested._reuse import _state

    class Holder:
        def get_params(self, deep=True):
            return {}

    step = Holder()
    step.reference_ = sp.csr_matrix(np.array([[0.0, 1.0], [2.0, 0.0]]))
    before = _state(step)
    assert step.reference_.has_sorted_indices  # a read that sets the cached flag
    assert _state(step) == before
    step.reference_.data[0] = 5.0  # a change in place still counts
    assert _state(step) != before


class HoldsALogger(StandardScaler):
    """StandardScaler keeping a logger, which leads back to itself through its manager."""

    def fit(self, X, y=None, sample_weight=None):
        import logging

        self.logger_ = logging.getLogger("sklearn_fair_tests.scaler")
        return super().fit(X, y, sample_weight)


class HoldsADeepModel(StandardScaler):
    """StandardScaler keeping a model nested 12 objects deep (a deep network's modules)."""

    def fit(self, X, y=None, sample_weight=None):
        model = types.SimpleNamespace(weights=np.ones(3))
        for _ in range(12):
            model = types.SimpleNamespace(inner=model)
        self.model_ = model
        return super().fit(X, y, sample_weight)


class LoggingLogisticRegression(LogisticRegression):
    """LogisticRegression making a logger of its own at each fit, as many libraries do: every
    logger of the process is listed by the manager that the step's logger holds."""

    def fit(self, X, y, sample_weight=None):
        import logging
        import uuid

        logging.getLogger(f"sklearn_fair_tests.fit.{uuid.uuid4().hex}")
        return super().fit(X, y, sample_weight)


@pytest.mark.parametrize("scaler", [HoldsALogger, HoldsADeepModel])
def test_a_step_holding_a_cycle_or_a_deep_object_is_still_reused(scaler):
    # reading every object's attributes, the state check reached its depth limit on both, so
    # the step was never stored and was fitted again for every candidate
    from sklearn_fair.model_selection._nested._reuse import store_statistics

    pipe = Pipeline([("scaler", scaler()), ("logisticregression", LoggingLogisticRegression())])
    hits_before = store_statistics()[0]
    reused, found = _nested(pipe, True)
    assert found == []
    assert store_statistics()[0] > hits_before
    refitted, _ = _nested(pipe, False)
    np.testing.assert_array_equal(reused.outer_scores_, refitted.outer_scores_)


class HoldsTheGlobalState(TransformerMixin, BaseEstimator):
    """Keeps numpy's global RandomState (check_random_state(None)) and never draws from it."""

    def __init__(self, seed=None):
        self.seed = seed

    def fit(self, X, y=None):
        self.rng_ = check_random_state(self.seed)
        return self

    def transform(self, X):
        return X


class DrawsGlobally(LogisticRegression):
    """Draws from numpy's global state in fit; its results do not depend on the draw."""

    def fit(self, X, y, sample_weight=None):
        np.random.rand(3)
        return super().fit(X, y, sample_weight)


def test_a_step_holding_the_global_random_state_is_not_said_to_change():
    # another fit's draws move numpy's global state: the step holding it changed nothing
    pipe = make_pipeline(HoldsTheGlobalState(), DrawsGlobally())
    grid = {"drawsglobally__C": [0.01, 0.1, 1.0]}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        NestedCV(pipe, grid, outer_cv=OUTER, inner_cv=INNER, n_refits=1,
                 random_state=0).fit(X, y)  # fmt: skip
    assert not [w for w in caught if "changed its fitted state" in str(w.message)]
