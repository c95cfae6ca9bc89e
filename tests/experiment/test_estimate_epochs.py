"""The dry run's compute estimate for estimators trained in epochs: an upper bound.

The timing fits run 2 epochs; every fit of the plan runs its candidate's ``max_epochs``
(20 here). A part of each epoch that does not grow with the rows (validation, callbacks, a
fixed number of batches) must be counted for every epoch, not once per fit: the true cost is
written here by hand from the plan's splits.
"""

import time
from types import SimpleNamespace

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin

from .test_estimate import Clock, perf_counter, read_experiment

MAX_EPOCHS = 20


class EpochRegressor(RegressorMixin, BaseEstimator):
    """Each fit costs ``setup + max_epochs * (per_epoch + per_sample_epoch * n)`` seconds,
    slept (``clocked=False``) or added to the test's fake clock; predicting costs nothing."""

    def __init__(
        self,
        alpha=1.0,
        max_epochs=MAX_EPOCHS,
        setup=0.0,
        per_epoch=0.0,
        per_sample_epoch=0.0,
        clocked=True,
    ):
        self.alpha = alpha
        self.max_epochs = max_epochs
        self.setup = setup
        self.per_epoch = per_epoch
        self.per_sample_epoch = per_sample_epoch
        self.clocked = clocked

    def fit(self, X, y):
        epoch = self.per_epoch + self.per_sample_epoch * len(X)
        if self.clocked:
            Clock.now += self.setup + self.max_epochs * epoch
        else:
            time.sleep(self.setup)
            for _ in range(self.max_epochs):
                time.sleep(epoch)
        self.mean_ = float(np.mean(y))
        return self

    def predict(self, X):
        return np.full(len(X), self.mean_)


@pytest.fixture
def planned(tmp_path, monkeypatch):
    from sklearn_fair.experiment._counting import _estimate
    from sklearn_fair.experiment._counting._plan import plan_model

    config, dataset, data, spec = read_experiment(tmp_path)
    monkeypatch.setattr(Clock, "now", 0.0)

    def plan(estimator, *, clocked):
        spec.estimator = estimator
        if clocked:
            monkeypatch.setattr(_estimate, "time", SimpleNamespace(perf_counter=perf_counter))
        return _estimate, spec, plan_model(config, dataset, spec, data), data

    return plan


def _true_cost(plan, estimator):
    """Seconds of every fit of the plan (3 candidates per inner split, one refit per fold)."""

    def fit(n):
        epoch = estimator.per_epoch + estimator.per_sample_epoch * n
        return estimator.setup + MAX_EPOCHS * epoch

    selection = sum(3 * fit(n_train) for inner in plan.inner for n_train, _ in inner)
    return selection + sum(fit(n_train) for n_train, _ in plan.outer)


@pytest.mark.parametrize(
    "cost",
    [
        {"per_epoch": 1e-3},  # an epoch costs the same on any number of rows
        {"per_sample_epoch": 1e-5},  # an epoch's cost grows with its rows
        {"per_epoch": 1e-3, "per_sample_epoch": 1e-5},
    ],
    ids=["per-epoch", "per-sample-epoch", "both"],
)
def test_each_epoch_is_counted_on_a_fake_clock(planned, cost):
    estimator = EpochRegressor(**cost)
    _estimate, spec, plan, data = planned(estimator, clocked=True)
    estimate = _estimate.estimate_compute(spec, plan, data)
    truth = plan.planning_seconds + _true_cost(plan, estimator)
    assert estimate.seconds == pytest.approx(truth, rel=1e-9)
    assert "for 2 epochs (max_epochs lowered)" in estimate.basis
    assert "s per epoch and" in estimate.basis and "an upper bound" in estimate.basis
    assert "extrapolated to the 21 fits" in estimate.basis


def test_a_one_off_setup_is_counted_per_epoch_an_upper_bound(planned):
    # the timing fits' 2 epochs cannot tell a set-up from a per-epoch cost: the set-up is
    # counted for each of the 20 epochs, 10 times over, never less than it costs
    setup = 2e-3
    estimator = EpochRegressor(setup=setup, per_epoch=1e-3, per_sample_epoch=1e-5)
    _estimate, spec, plan, data = planned(estimator, clocked=True)
    estimate = _estimate.estimate_compute(spec, plan, data)
    truth = plan.planning_seconds + _true_cost(plan, estimator)
    assert estimate.seconds >= truth
    assert estimate.seconds == pytest.approx(truth + 21 * setup * (MAX_EPOCHS / 2 - 1), rel=1e-9)


@pytest.mark.parametrize(
    "cost",
    [{"per_epoch": 0.02}, {"per_sample_epoch": 1e-4}],
    ids=["per-epoch", "per-sample-epoch"],
)
def test_sleeping_epochs_are_bounded_above(planned, cost):
    # real sleeps, timed on the machine as it is: the timing fits sleep at least as long as
    # written, so the estimate is at least the true cost, and not far above it
    estimator = EpochRegressor(clocked=False, **cost)
    _estimate, spec, plan, data = planned(estimator, clocked=False)
    estimate = _estimate.estimate_compute(spec, plan, data)
    truth = _true_cost(plan, estimator)
    assert truth <= estimate.seconds <= 3 * truth


def test_work_counts_each_fit_for_its_epochs():
    from sklearn_fair.experiment._counting._estimate import _work

    # one inner split of 10 training rows (5 scored), one outer fold of 15 (5 scored), one
    # refit; two candidates of 20 and 40 epochs; the refit at their mean, 30
    plan = SimpleNamespace(inner=[[(10, 5)]], outer=[(15, 5)], n_refits=1)
    per_candidate, shared = _work(plan, [20, 40])
    np.testing.assert_array_equal(per_candidate, [[20, 200, 1, 5], [40, 400, 1, 5]])
    np.testing.assert_array_equal(shared, [30, 450, 1, 5])
    # the second candidate's selection fit and the refit found in the task cache
    cached = SimpleNamespace(selection=[(0, 1, 0)], refits=[(0, 0)])
    per_candidate, shared = _work(plan, [20, 40], cached)
    np.testing.assert_array_equal(per_candidate, [[20, 200, 1, 5], [0, 0, 0, 0]])
    np.testing.assert_array_equal(shared, [0, 0, 0, 0])
