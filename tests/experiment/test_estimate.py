"""The dry run's compute estimate, checked on a clock that only the model's work moves.

A regressor whose fit costs exactly ``alpha * (FIXED + PER_ROW * n)`` seconds and whose predict
costs ``PREDICT_FIXED + PREDICT_ROW * n`` on a fake clock: the estimate must then equal the
total written here by hand from the plan's splits (every selection fit at its own candidate's
cost, each refit at the candidates' mean, each scoring at the size it scores), whatever the
real machine does.
"""

from types import SimpleNamespace

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin

from sklearn_fair.experiment import load_config

FIXED, PER_ROW = 1e-3, 1e-5
PREDICT_FIXED, PREDICT_ROW = 2e-4, 3e-6
NOISE = 0.01  # the extra seconds of the first of every five timed fits (a busy machine)


class Clock:
    now = 0.0
    fits = 0  # fits on more than the warm-up's 16 rows
    noisy = False


def perf_counter():
    return Clock.now


class ClockedRegressor(RegressorMixin, BaseEstimator):
    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def fit(self, X, y):
        n = len(X)
        Clock.now += self.alpha * (FIXED + PER_ROW * n)
        if n > 16:
            if Clock.noisy and Clock.fits % 5 == 0:
                Clock.now += NOISE
            Clock.fits += 1
        self.mean_ = float(np.mean(y))
        return self

    def predict(self, X):
        Clock.now += PREDICT_FIXED + PREDICT_ROW * len(X)
        return np.full(len(X), self.mean_)


TOML = """\
[experiment]
progress = false
output_dir = "out"

[data]
dataset = "sklearn:diabetes"

[protocol]
outer_cv = 3
inner_cv = 2
n_refits = 1
scoring = "r2"

[models.model]
estimator = "sklearn.linear_model.Ridge"
grid = { alpha = [1.0, 2.0, 4.0] }
"""


def read_experiment(tmp_path):
    """``(config, dataset, data, spec)`` of :data:`TOML` written to ``tmp_path``."""
    from sklearn_fair.experiment._reading._data import load_data

    path = tmp_path / "e.toml"
    path.write_text(TOML)
    config = load_config(path)
    (dataset,) = config.datasets.values()
    data = load_data(config, dataset, tmp_path / "data")
    return config, dataset, data, config.models["model"]


@pytest.fixture
def clocked(tmp_path, monkeypatch):
    from sklearn_fair.experiment._counting import _estimate
    from sklearn_fair.experiment._counting._plan import plan_model

    config, dataset, data, spec = read_experiment(tmp_path)
    spec.estimator = ClockedRegressor()
    plan = plan_model(config, dataset, spec, data)
    monkeypatch.setattr(_estimate, "time", SimpleNamespace(perf_counter=perf_counter))
    monkeypatch.setattr(Clock, "now", 0.0)
    monkeypatch.setattr(Clock, "fits", 0)
    return _estimate, spec, plan, data


def _by_hand(plan, alphas, fixed):
    """Seconds of every fit and scoring of the plan (its sizes), written out."""
    mean_alpha = np.mean(alphas)
    total = plan.planning_seconds
    for inner in plan.inner:
        for n_train, n_valid in inner:
            for alpha in alphas:
                total += alpha * (fixed + PER_ROW * n_train)
                total += PREDICT_FIXED + PREDICT_ROW * n_valid
    for n_train, n_test in plan.outer:  # one refit per fold, of a winner not known yet
        total += mean_alpha * (fixed + PER_ROW * n_train) + PREDICT_FIXED + PREDICT_ROW * n_test
    return total


def test_estimate_is_the_plans_work_at_the_timed_costs(clocked):
    _estimate, spec, plan, data = clocked
    assert max(n for n, _ in plan.outer) > 128  # so that two sizes are timed: 128, then 295
    estimate = _estimate.estimate_compute(spec, plan, data)
    assert estimate.seconds == pytest.approx(_by_hand(plan, [1.0, 2.0, 4.0], FIXED), rel=1e-9)
    # the cheapest and the dearest candidate, each taken for every fit
    assert estimate.low < estimate.seconds < estimate.high
    assert "timed 3 of 3 candidates" in estimate.basis
    # 3 folds x 2 inner splits x 3 candidates = 18 selection fits, and 3 refits
    assert "extrapolated to the 21 fits" in estimate.basis


def test_estimate_keeps_the_mean_of_repeated_fits_not_the_best(clocked, monkeypatch):
    # the first of every five timed fits is slowed by NOISE: the run pays such delays too,
    # so each size's mean carries NOISE / 5 (the fixed part of the cost), the best none
    _estimate, spec, plan, data = clocked
    monkeypatch.setattr(Clock, "noisy", True)
    estimate = _estimate.estimate_compute(spec, plan, data, n_repeats=5)
    alphas = [1.0, 2.0, 4.0]
    noisy = _by_hand(plan, alphas, FIXED) + NOISE / 5 * (3 * 2 * 3 + 3)
    assert estimate.seconds == pytest.approx(noisy, rel=1e-9)
