"""The power bound of the corrected resampled t-test against real cross-validation runs.

A cheap version of benchmarks/bench_power.py (which runs many more replications, more schemes
and a classification problem, results in benchmarks/results/power.json): ridge regression on
all 10 features against the first 2, fitted in closed form on each of scikit-learn's KFold
training folds, on data drawn afresh in every replication.
"""

import numpy as np
import pytest
from scipy import stats
from sklearn.model_selection import KFold

from sklearn_fair.stats import corrected_ttest_power

N_ROWS, N_FOLDS, N_RUNS = 150, 10, 300


def _ridge_mse(X_train, y_train, X_test, y_test):
    mean_x, mean_y = X_train.mean(0), y_train.mean()
    Xc = X_train - mean_x
    coef = np.linalg.solve(Xc.T @ Xc + np.eye(X_train.shape[1]), Xc.T @ (y_train - mean_y))
    return np.mean((mean_y + (X_test - mean_x) @ coef - y_test) ** 2)


def _runs(b, seed):
    rng = np.random.default_rng(seed)
    beta = np.r_[1.0, 1.0, np.full(8, b)]
    runs = []
    for _ in range(N_RUNS):
        X = rng.normal(size=(N_ROWS, 10))
        y = X @ beta + 2.0 * rng.normal(size=N_ROWS)
        splits = KFold(N_FOLDS, shuffle=True, random_state=int(rng.integers(2**31))).split(X)
        runs.append(
            [
                _ridge_mse(X[tr][:, :2], y[tr], X[te][:, :2], y[te])
                - _ridge_mse(X[tr], y[tr], X[te], y[te])
                for tr, te in splits
            ]
        )
    return np.asarray(runs)


@pytest.mark.parametrize("b, seed", [(0.3, 0), (0.7, 1)])
def test_the_power_bound_holds_on_real_cross_validation(b, seed):
    runs = _runs(b, seed)
    t = runs.mean(1) / np.sqrt((1 / N_FOLDS + 1 / (N_FOLDS - 1)) * runs.var(1, ddof=1))
    measured = np.mean(np.abs(t) > stats.t.ppf(0.975, N_FOLDS - 1))
    error = np.sqrt(max(measured * (1 - measured), 0.01) / N_RUNS)
    delta, sd = runs.mean(), np.sqrt(runs.var(1, ddof=1).mean())
    bound = corrected_ttest_power(delta, sd, n_folds=N_FOLDS)
    assert bound <= measured + 2 * error
    if b == 0.3:
        # the model at the correlation the correction assumes, 1/k, overstates it
        assert corrected_ttest_power(delta, sd, n_folds=N_FOLDS, rho=0.1) > measured + 2 * error
    else:
        assert bound >= 0.6  # a useful bound where the power is high, not a trivial 0
