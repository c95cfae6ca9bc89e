"""The estimates of the nested-CV interval (Bates, Hastie & Tibshirani), from pooled moments.

Pure arithmetic: ``model_selection._bates`` (its one caller) hands over, per fit, the ``(count,
mean, M2)`` of its pointwise losses, so that losses never leave the workers; unions of rows are
pooled by Chan et al.'s formula, which has no difference of large sums (no cancellation). With
``R`` repetitions of ``K`` folds (the paper's Section 4 and Algorithm 1): ``a[r, k] =
(mean(e_in) - mean(e_out))**2`` and ``b[r, k] = var(e_out) / |fold k|``, with ``e_out`` the
losses on fold ``k`` of the model trained without it and ``e_in`` those of the ``(K - 1)``-fold
CV on the other folds; ``MSE = mean(a) - mean(b)``; ``bias = (1 + (K - 2) / K) (Err_NCV -
Err_CV)``, the paper's factor (Section 4.3, as mlr3inferr has it; not its R package's, see the
user guide, "Honest uncertainty", and ``tests/stats/test_ncv.py``); the interval is
``Err_NCV - bias -/+ z SE``, ``SE = sqrt((K - 1) / K max(MSE, 0))`` kept between the naive
``sd(e_in) / sqrt(n)`` and ``sqrt(K)`` times it.
"""

import math

import numpy as np
from scipy.special import ndtri

__all__ = ["ncv_estimates", "pool_moments"]


def pool_moments(groups):
    """``(count, mean, M2)`` of the union of groups, each given as such a triple (Chan et al.:
    ``M2 = sum(M2_g) + sum(n_g (mean_g - mean)**2)``).

    Examples
    --------
    >>> import numpy as np
    >>> a, b = np.array([1.0, 2.0]), np.array([4.0, 6.0, 8.0])
    >>> count, mean, m2 = pool_moments([(2, a.mean(), 2 * a.var()), (3, b.mean(), 3 * b.var())])
    >>> both = np.concatenate([a, b])
    >>> bool(np.isclose(mean, both.mean()) and np.isclose(m2, 5 * both.var()))
    True
    """
    counts = np.array([g[0] for g in groups], dtype=float)
    means = np.array([g[1] for g in groups])
    count = counts.sum()
    mean = float(np.dot(counts, means) / count)
    m2 = float(sum(g[2] for g in groups) + np.dot(counts, (means - mean) ** 2))
    return count, mean, m2


def ncv_estimates(outer, inner, n_samples, confidence):
    """Bates et al.'s estimates and interval from the moments of every fit's losses.

    Parameters
    ----------
    outer : array-like of shape (n_repetitions, n_folds, 3)
        ``(count, mean, M2)`` of the losses on fold ``k`` of repetition ``r`` of the model
        trained on the other folds.
    inner : array-like of shape (n_repetitions, n_folds, n_folds, 3)
        ``inner[r, k, j]``: those on fold ``j`` of the model trained without folds ``k`` and
        ``j``; the diagonal ``j == k`` is not read.

    Returns
    -------
    dict
        The fields of ``NestedCVInterval`` that these numbers give (``estimate``, ``low``,
        ``high``, ``standard_error``, ..., ``clamped``, ``fold_losses``).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> def moments(losses):
    ...     return (losses.size, losses.mean(), losses.size * losses.var())
    >>> outer = np.array([[moments(rng.random(4)) for k in range(3)]])
    >>> inner = np.array([[[moments(rng.random(4)) for j in range(3)] for k in range(3)]])
    >>> result = ncv_estimates(outer, inner, n_samples=12, confidence=0.9)
    >>> bool(result["low"] < result["estimate"] < result["high"]), result["fold_losses"].shape
    (True, (1, 3))
    """
    outer, inner = np.asarray(outer, dtype=float), np.asarray(inner, dtype=float)
    n_repetitions, n_folds = outer.shape[:2]
    a_terms, b_terms, inner_groups, outer_groups = [], [], [], []
    fold_losses = np.empty((n_repetitions, n_folds))
    for r in range(n_repetitions):
        for k in range(n_folds):
            m_out, mean_out, m2_out = outer[r, k]
            inner_k = [tuple(inner[r, k, j]) for j in range(n_folds) if j != k]
            _, mean_in, _ = pool_moments(inner_k)
            a_terms.append((mean_in - mean_out) ** 2)
            b_terms.append(m2_out / (m_out - 1) / m_out)
            inner_groups.extend(inner_k)
            outer_groups.append((m_out, mean_out, m2_out))
            fold_losses[r, k] = mean_out
    mse = float(np.mean(a_terms) - np.mean(b_terms))
    n_inner, ncv_estimate, m2_inner = pool_moments(inner_groups)
    n_outer, cv_estimate, m2_outer = pool_moments(outer_groups)
    bias = (1 + (n_folds - 2) / n_folds) * (ncv_estimate - cv_estimate)
    estimate = ncv_estimate - bias
    naive = math.sqrt(m2_inner / (n_inner - 1) / n_samples)
    raw = math.sqrt((n_folds - 1) / n_folds * max(mse, 0.0))
    upper = math.sqrt(n_folds) * naive
    clamped = "lower" if raw < naive else "upper" if raw > upper else "none"
    standard_error = min(max(raw, naive), upper)
    half_width = float(ndtri(0.5 + confidence / 2)) * standard_error
    return dict(
        estimate=float(estimate),
        low=float(estimate - half_width),
        high=float(estimate + half_width),
        standard_error=float(standard_error),
        ncv_estimate=float(ncv_estimate),
        cv_estimate=float(cv_estimate),
        bias=float(bias),
        mse=mse,
        naive_standard_error=float(naive),
        cv_standard_error=math.sqrt(m2_outer / (n_outer - 1) / n_samples),
        clamped=clamped,
        fold_losses=fold_losses,
    )
