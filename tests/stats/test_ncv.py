"""The NCV interval's arithmetic (stats._ncv) against the paper's formulas written out by hand
on raw pointwise losses (Bates, Hastie & Tibshirani 2023, Algorithm 1 and Section 4)."""

import math

import numpy as np
import pytest

from sklearn_fair.stats._ncv import ncv_estimates, pool_moments

from ._ncv_reference import ncv_by_hand


def _moments(losses):
    return (losses.size, losses.mean(), losses.size * losses.var())


def _fake_losses(rng, n_repetitions, n_folds, fold_sizes, scale):
    """Raw losses: outer[r][k] on fold k, inner[r][k][j] on fold j (j != k)."""
    outer = [
        [scale * rng.random(fold_sizes[k]) for k in range(n_folds)] for _ in range(n_repetitions)
    ]
    inner = [
        [
            [scale * rng.random(fold_sizes[j]) + 0.05 * (j != k) for j in range(n_folds)]
            for k in range(n_folds)
        ]
        for _ in range(n_repetitions)
    ]
    return outer, inner


@pytest.mark.parametrize("n_repetitions, n_folds, scale", [(1, 3, 1.0), (3, 5, 1.0), (2, 4, 1e6)])
def test_estimates_equal_the_hand_formulas(n_repetitions, n_folds, scale):
    rng = np.random.default_rng(n_folds)
    sizes = [7 + (k % 2) for k in range(n_folds)]  # folds differing by one row, as KFold's
    outer, inner = _fake_losses(rng, n_repetitions, n_folds, sizes, scale)
    outer_m = np.array([[_moments(e) for e in rep] for rep in outer])
    inner_m = np.array([[[_moments(e) for e in row] for row in rep] for rep in inner])
    for r in range(n_repetitions):  # the diagonal is not read
        for k in range(n_folds):
            inner_m[r, k, k] = np.nan
    n_samples = sum(sizes)
    got = ncv_estimates(outer_m, inner_m, n_samples, 0.9)
    expected = ncv_by_hand(outer, inner, n_samples, 0.9)
    for name, value in expected.items():
        assert got[name] == pytest.approx(value, rel=1e-9, abs=1e-12 * scale), name
    assert got["fold_losses"] == pytest.approx(np.array([[e.mean() for e in rep] for rep in outer]))


def test_clamps_name_the_bound_that_applied():
    rng = np.random.default_rng(0)
    sizes = [6, 6, 6]
    outer, inner = _fake_losses(rng, 2, 3, sizes, 1.0)
    # inner means far from the outer ones: a huge MSE, clamped to sqrt(K) times the naive SE
    far = [
        [[e + 10.0 * (j != k) for j, e in enumerate(row)] for k, row in enumerate(rep)]
        for rep in inner
    ]
    outer_m = np.array([[_moments(e) for e in rep] for rep in outer])
    inner_m = np.array([[[_moments(e) for e in row] for row in rep] for rep in far])
    got = ncv_estimates(outer_m, inner_m, 18, 0.95)
    assert got["clamped"] == "upper"
    assert got["standard_error"] == pytest.approx(math.sqrt(3) * got["naive_standard_error"])
    # each fold's inner mean equal to its outer mean: MSE = -mean(b) < 0, raised to the naive
    # standard error
    same = np.array(
        [[[(6, outer_m[r, k, 1], 1.0) for j in range(3)] for k in range(3)] for r in range(2)]
    )
    got = ncv_estimates(outer_m, same, 18, 0.95)
    assert got["mse"] < 0 and got["clamped"] == "lower"
    assert got["standard_error"] == got["naive_standard_error"]


def test_pooled_moments_equal_those_of_the_union_without_cancellation():
    rng = np.random.default_rng(1)
    parts = [1e9 + rng.random(n) for n in (3, 5, 8)]  # large offset: naive sums cancel
    count, mean, m2 = pool_moments([_moments(p) for p in parts])
    union = np.concatenate(parts)
    assert count == union.size
    assert mean == pytest.approx(union.mean(), rel=1e-15)
    # the reference on the data shifted back (exact subtraction); the textbook sum(x**2) -
    # n mean**2 would be off by ~1e2 here, against an M2 of ~1
    shifted = union - 1e9
    assert m2 == pytest.approx(np.sum((shifted - shifted.mean()) ** 2), rel=1e-6)


@pytest.mark.parametrize("n_folds", [5, 10])
def test_bias_factor_is_the_papers(n_folds):
    # Bates et al. (Section 4.3) correct Err_NCV by (1 + (K - 2) / K) (Err_NCV - Err_CV): exact
    # when the error is a + b / m for m training rows, inner models training on n (K - 2) / K
    # rows and outer ones on n (K - 1) / K. The authors' R code's 1 + ((K - 2) / K)**1.5 is not.
    a, b, n = 0.3, 12.0, 200
    error = {m: a + b / m for m in (n * (n_folds - 2) / n_folds, n * (n_folds - 1) / n_folds)}
    inner_mean, outer_mean = error[n * (n_folds - 2) / n_folds], error[n * (n_folds - 1) / n_folds]
    size = n // n_folds
    outer = np.tile([size, outer_mean, 1.0], (2, n_folds, 1))
    inner = np.tile([size, inner_mean, 1.0], (2, n_folds, n_folds, 1))
    got = ncv_estimates(outer, inner, n, 0.9)
    assert got["estimate"] == pytest.approx(a + b / n, rel=1e-12)
    assert got["bias"] == pytest.approx((1 + (n_folds - 2) / n_folds) * (inner_mean - outer_mean))
    authors = inner_mean - (1 + ((n_folds - 2) / n_folds) ** 1.5) * (inner_mean - outer_mean)
    assert abs(authors - (a + b / n)) > 1e-4
