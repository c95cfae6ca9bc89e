"""A step whose transform draws from a random source moves that source on: shared by the
fits that train it on the same rows (``reuse_prefix=True``), each candidate would be
validated with the draws the previous ones left. The reuse check reads every source a
transform can draw from (a Generator kept as a bound method, in a partial or in a closure; a
SeedSequence or Generator that spawns), and a step holding a source whose state it cannot read
(an iterator) is fitted for each fit: the numbers are scikit-learn's, as with
``reuse_prefix=False``."""

import functools
import itertools
import sys
import warnings

import cloudpickle
import numpy as np
import pytest
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.datasets import load_iris
from sklearn.decomposition import PCA
from sklearn.feature_selection import SelectKBest
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, KFold, cross_validate
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer, StandardScaler

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import ReproducibilityWarning
from sklearn_fair.model_selection._nested._reuse import store_statistics


class Jitter(TransformerMixin, BaseEstimator):
    """Adds noise drawn at each transform from a source made in fit (:meth:`_source`)."""

    def __init__(self, random_state=0):
        self.random_state = random_state

    def fit(self, X, y=None):
        self.source_ = self._source(self.random_state)
        return self

    def transform(self, X):
        return np.asarray(X, float) + self._draw(np.shape(X))


class BoundMethodJitter(Jitter):
    """Keeps only the bound draw method of a seeded Generator."""

    def _source(self, seed):
        return np.random.default_rng(seed).normal

    def _draw(self, shape):
        return self.source_(0, 2.0, shape)


class PartialJitter(Jitter):
    """Keeps a partial of a Generator's draw method."""

    def _source(self, seed):
        return functools.partial(np.random.default_rng(seed).normal, 0, 2.0)

    def _draw(self, shape):
        return self.source_(shape)


class ClosureJitter(Jitter):
    """Keeps a function closing over a Generator."""

    def _source(self, seed):
        rng = np.random.default_rng(seed)
        return lambda shape: rng.normal(0, 2.0, shape)

    def _draw(self, shape):
        return self.source_(shape)


class SeedSequenceJitter(Jitter):
    """Spawns a Generator from a SeedSequence at each transform."""

    def _source(self, seed):
        return np.random.SeedSequence(seed)

    def _draw(self, shape):
        return np.random.default_rng(self.source_.spawn(1)[0]).normal(0, 2.0, shape)


class GeneratorSpawnJitter(Jitter):
    """Spawns a child of a Generator at each transform: its bit generator's state stays, its
    SeedSequence moves on."""

    def _source(self, seed):
        return np.random.default_rng(seed)

    def _draw(self, shape):
        return self.source_.spawn(1)[0].normal(0, 2.0, shape)


class CounterJitter(Jitter):
    """Seeds a Generator from a counter at each transform."""

    def _source(self, seed):
        return itertools.count(seed)

    def _draw(self, shape):
        return np.random.default_rng(next(self.source_)).normal(0, 2.0, shape)


# loky's workers cannot import this test module: its classes travel by value
cloudpickle.register_pickle_by_value(sys.modules[__name__])

X, y = load_iris(return_X_y=True)
GRID = {"logisticregression__C": [0.01, 0.1, 1.0]}
OUTER, INNER = KFold(5, shuffle=True, random_state=0), KFold(3, shuffle=True, random_state=0)


def _nested(pipe, reuse):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nested = NestedCV(pipe, GRID, outer_cv=OUTER, inner_cv=INNER, n_refits=1,
                          random_state=0, reuse_prefix=reuse, n_jobs=1).fit(X, y)  # fmt: skip
    found = [
        str(w.message)
        for w in caught
        if issubclass(w.category, ReproducibilityWarning) and "fitted state" in str(w.message)
    ]
    return nested, found


def _assert_scikit_learns(pipe, nested):
    # the reference: scikit-learn's GridSearchCV on each outer training fold
    reference = cross_validate(
        GridSearchCV(pipe, GRID, cv=INNER), X, y, cv=OUTER, return_estimator=True
    )
    searches = reference["estimator"]
    np.testing.assert_array_equal(
        nested.validation_scores_, [search.best_score_ for search in searches]
    )
    assert nested.best_params_per_fold_ == [search.best_params_ for search in searches]
    np.testing.assert_array_equal(nested.outer_scores_, reference["test_score"])


@pytest.mark.parametrize(
    "jitter, warned",
    [
        (BoundMethodJitter, True),
        (PartialJitter, True),
        (ClosureJitter, True),
        (SeedSequenceJitter, True),
        (GeneratorSpawnJitter, True),
        # a counter's state cannot be read: the step is never stored, so nothing is served
        (CounterJitter, False),
    ],
)
def test_a_step_drawing_from_a_random_source_held_any_way_gives_scikit_learns_scores(
    jitter, warned
):
    # the reuse check read only a Generator's bit generator, and took a partial, a closure, a
    # method's object and a SeedSequence by identity: the step was served moved on, e.g. outer
    # scores [0.5 0.5 0.6 0.6333 0.6] for scikit-learn's [0.5333 0.4667 0.6667 0.6333 0.6667]
    pipe = make_pipeline(jitter(), LogisticRegression(max_iter=500))
    reused, found = _nested(pipe, True)
    _assert_scikit_learns(pipe, reused)
    assert len(found) == int(warned), found


@pytest.mark.parametrize(
    "first",
    [
        StandardScaler(),
        PCA(n_components=2, random_state=0),
        SelectKBest(k=2),
        FunctionTransformer(np.log),
        FunctionTransformer(functools.partial(np.power, 2.0)),
    ],
    ids=["scaler", "pca", "kbest", "log", "partial"],
)
def test_a_step_without_random_draws_is_still_reused(first):
    pipe = make_pipeline(first, LogisticRegression(max_iter=500))
    hits = store_statistics()[0]
    reused, found = _nested(pipe, True)
    assert found == []
    # served to the 2 other candidates on each of the 3 inner splits of 5 outer folds and on
    # the 3 inner splits of the final search
    assert store_statistics()[0] - hits == 2 * 3 * 6
    _assert_scikit_learns(pipe, reused)
