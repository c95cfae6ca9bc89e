"""Bates, Hastie & Tibshirani (2023)'s NCV estimates and interval, Algorithm 1 and Section 4
written out by hand on raw pointwise losses: the reference of tests/stats/test_ncv.py (the
arithmetic alone) and tests/model_selection/test_bates.py (whole runs, models fitted here)."""

import math

import numpy as np
from scipy import stats


def ncv_by_hand(outer, inner, n_samples, confidence):
    """The paper's estimates, from the raw losses with numpy and scipy, no moments.

    ``outer[r][k]``: the pointwise losses on fold ``k`` of repetition ``r`` of the model
    trained on the other folds; ``inner[r][k][j]`` (``j != k``; the diagonal is not read): the
    losses on fold ``j`` of the model trained without folds ``k`` and ``j``.
    """
    n_repetitions, n_folds = len(outer), len(outer[0])
    a, b, every_inner, every_outer = [], [], [], []
    for r in range(n_repetitions):
        for k in range(n_folds):
            e_out = outer[r][k]
            e_in = np.concatenate([inner[r][k][j] for j in range(n_folds) if j != k])
            a.append((e_in.mean() - e_out.mean()) ** 2)
            b.append(np.var(e_out, ddof=1) / e_out.size)
            every_inner.append(e_in)
            every_outer.append(e_out)
    every_inner, every_outer = np.concatenate(every_inner), np.concatenate(every_outer)
    mse = np.mean(a) - np.mean(b)
    err_ncv, err_cv = every_inner.mean(), every_outer.mean()
    bias = (1 + (n_folds - 2) / n_folds) * (err_ncv - err_cv)
    naive = np.std(every_inner, ddof=1) / math.sqrt(n_samples)
    se = np.clip(
        math.sqrt((n_folds - 1) / n_folds * max(mse, 0)), naive, math.sqrt(n_folds) * naive
    )
    z = stats.norm.ppf(0.5 + confidence / 2)
    estimate = err_ncv - bias
    return {
        "mse": mse,
        "ncv_estimate": err_ncv,
        "cv_estimate": err_cv,
        "bias": bias,
        "estimate": estimate,
        "naive_standard_error": naive,
        "standard_error": se,
        "low": estimate - z * se,
        "high": estimate + z * se,
        "cv_standard_error": np.std(every_outer, ddof=1) / math.sqrt(n_samples),
    }
