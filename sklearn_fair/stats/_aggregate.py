"""Aggregates across data sets with rliable's definitions (Agarwal et al., NeurIPS 2021).

Pure functions of one score list per data set (a model's outer folds on it): the IQM of the
scores (rliable's ``aggregate_iqm``), their mean, the probability of improvement averaged over
the data sets, and the performance profile (rliable's ``score_distributions``). *Every data
set weighs the same*, whatever its number of folds: the mean is the mean of the data sets'
means, the others average over the data sets or (the IQM) give each data set's scores integer
weights. With equal fold counts all four are rliable's, computed on the pooled scores.

Intervals are percentile intervals of :func:`scipy.stats.bootstrap` with one sample per data
set (``paired=False``): each data set's folds are resampled on their own (rliable's
``StratifiedBootstrap``; for two models each model's folds independently, its
``StratifiedIndependentBootstrap``), vectorised. Each model's draws come from a generator
derived from ``random_state`` and the model's name (and the baseline's), so adding a model
changes no other model's interval; rliable's own bootstrap ignores the seed it is given.
"""

import math

import numpy as np
from scipy import stats as _scipy_stats
from sklearn.utils._param_validation import validate_params

from ..utils import RANDOM_STATE_CONSTRAINTS
from ..utils._random import named_generator, seed_root
from ._checks import CONFIDENCE, COUNT, tie_levels

__all__ = [
    "aggregate",
    "aggregate_iqm",
    "average_probability_of_improvement",
    "performance_profile",
    "probability_of_improvement",
]


def _check_finite(subject, groups):
    """A ValueError naming ``subject`` (whose scores), the data set and the score where
    ``groups`` (one array per data set, scores on the last axis) hold NaN or inf: a NaN would
    count as a loss in the probability of improvement and as below every threshold of a
    profile, and make the IQM and the mean NaN, with no word."""
    for index, group in enumerate(groups):
        bad = ~np.isfinite(group)
        if bad.any():
            first = int(np.argmax(bad))
            position = np.unravel_index(first, group.shape)[-1]
            raise ValueError(
                f"{subject} holds a score of {group.flat[first]} (data set "
                f"{index}, score {position}); every score must be a finite number. A failed "
                "fold's error_score (NaN by default) is no score: leave out the data sets where "
                "folds failed (as BenchmarkResult does, with a MissingCellsWarning), or fix "
                "the failure."
            )


def _check_groups(per_dataset, subject="The 'per_dataset' parameter"):
    """``per_dataset`` as a list of 1-D float arrays of finite scores, at least one each."""
    groups = [np.asarray(scores, dtype=float) for scores in per_dataset]
    if any(group.ndim != 1 or group.shape[0] < 1 for group in groups):
        raise ValueError(f"{subject} needs a 1-D array of at least one score per data set.")
    _check_finite(subject, groups)
    return groups


def aggregate_iqm(per_dataset, axis=-1):
    """IQM of the scores of every data set, each data set weighing the same.

    The last axis of each array holds a data set's scores (leading axes are bootstrap
    resamples). With ``L`` the lcm of the fold counts, each score of a data set of ``n_d``
    folds weighs ``L / n_d``; of the ``N = D L`` weighted units, sorted, ``floor(N / 4)`` are
    dropped at each end and the rest averaged, as :func:`~sklearn_fair.stats.iqm` does.

    Examples
    --------
    >>> import numpy as np
    >>> aggregate_iqm([np.array([1.0, 2.0, 3.0, 4.0]), np.array([5.0, 6.0, 7.0, 8.0])])
    4.5
    >>> aggregate_iqm([np.array([1.0, 9.0]), np.array([2.0, 3.0, 4.0, 5.0])])  # 1 and 9 twice
    3.5
    """
    counts = [np.shape(scores)[axis] for scores in per_dataset]
    lcm = math.lcm(*counts)
    groups = [np.moveaxis(np.asarray(s, dtype=float), axis, -1) for s in per_dataset]
    values = np.concatenate(groups, -1)
    if not np.isfinite(values).all():
        _check_finite("The 'per_dataset' parameter", groups)
    weights = np.concatenate([np.full(n, lcm // n) for n in counts])
    order = np.argsort(values, axis=-1, kind="stable")
    ordered, ordered_weights = np.take_along_axis(values, order, -1), weights[order]
    total = len(counts) * lcm
    cut = total // 4
    after = np.cumsum(ordered_weights, axis=-1)
    kept = np.clip(
        np.minimum(after, total - cut) - np.maximum(after - ordered_weights, cut), 0, None
    )
    result = (kept * ordered).sum(axis=-1) / (total - 2 * cut)
    return float(result) if np.ndim(result) == 0 else result


def _mean_of_means(per_dataset, axis=-1):
    return np.mean([np.mean(scores, axis=axis) for scores in per_dataset], axis=0)


def _improvement(x, y):
    """P(X > Y) + P(X = Y) / 2 over every pair of the last axes of ``x`` and ``y``, scores
    already at their :func:`~sklearn_fair.stats._checks.tie_levels` (a resample draws from
    those values, so leveling once before resampling is the same as leveling every
    resample)."""
    x, y = x[..., :, None], y[..., None, :]
    return (x > y).mean(axis=(-2, -1)) + 0.5 * (x == y).mean(axis=(-2, -1))


def average_probability_of_improvement(per_dataset_x, per_dataset_y):
    """Mean over the data sets of P(X > Y) + P(X = Y) / 2 on that data set's scores, scores
    equal but for floating-point rounding tying as in
    :func:`~sklearn_fair.stats.probability_of_improvement`.

    Examples
    --------
    >>> average_probability_of_improvement([[3.0, 4.0], [1.0]], [[1.0, 3.0], [1.0]])
    0.6875
    """
    x, y = (
        _check_groups(per_dataset_x, "The 'per_dataset_x' parameter"),
        _check_groups(per_dataset_y, "The 'per_dataset_y' parameter"),
    )
    x, y = [tie_levels(g) for g in x], [tie_levels(g) for g in y]
    return float(np.mean([_improvement(a, b) for a, b in zip(x, y)]))


def performance_profile(per_dataset, thresholds):
    """Fraction of scores above each threshold, per data set, averaged over the data sets."""
    groups = _check_groups(per_dataset)
    thresholds = np.asarray(thresholds, dtype=float)
    fractions = [(s[None, :] > thresholds[:, None]).mean(axis=1) for s in groups]
    return np.mean(fractions, axis=0)


def _interval(groups, statistic, n_resamples, confidence, rng):
    """Percentile interval(s) of ``statistic(*groups, axis=-1)``, one sample per data set."""
    if min(group.shape[0] for group in groups) < 2:
        # scipy refuses a sample of one score; resampling it changes nothing anyway
        groups = [np.repeat(group, 2) if group.shape[0] == 1 else group for group in groups]
    result = _scipy_stats.bootstrap(
        groups,
        statistic,
        n_resamples=n_resamples,
        vectorized=True,
        paired=False,
        confidence_level=confidence,
        method="percentile",
        rng=rng,
    )
    return result.confidence_interval


def _improvement_with_interval(x, y, n_resamples, confidence, rng):
    """:func:`average_probability_of_improvement` and its percentile interval, each model's
    folds of each data set resampled independently."""
    x, y = [tie_levels(g) for g in x], [tie_levels(g) for g in y]
    n = len(x)

    def statistic(*samples, axis=-1):
        return np.mean([_improvement(samples[i], samples[n + i]) for i in range(n)], axis=0)

    interval = _interval(x + y, statistic, n_resamples, confidence, rng)
    estimate = average_probability_of_improvement(x, y)
    return {"estimate": estimate, "ci_low": float(interval.low), "ci_high": float(interval.high)}


_CONSTRAINTS = {
    "n_resamples": [COUNT],
    "confidence": [CONFIDENCE],
    "random_state": RANDOM_STATE_CONSTRAINTS,
}


@validate_params(
    {"per_dataset_x": [list], "per_dataset_y": [list], **_CONSTRAINTS},
    prefer_skip_nested_validation=True,
)
def probability_of_improvement(per_dataset_x, per_dataset_y, *, names=("x", "y"),
                               n_resamples=2000, confidence=0.95, random_state=0):  # fmt: skip
    """rliable's probability that X beats Y, averaged over the data sets, with its interval.

    ``names`` (the two models') name the generator, so that the interval is the one
    :func:`aggregate` gives X over a baseline Y with the same ``random_state``.

    Returns
    -------
    dict
        ``estimate``, ``ci_low``, ``ci_high`` (percentile, stratified bootstrap).
    """
    x, y = (
        _check_groups(per_dataset_x, "The 'per_dataset_x' parameter"),
        _check_groups(per_dataset_y, "The 'per_dataset_y' parameter"),
    )
    rng = named_generator(seed_root(random_state), *names)
    return _improvement_with_interval(x, y, int(n_resamples), float(confidence), rng)


@validate_params(
    {"per_model": [dict], "baseline": [str, None], **_CONSTRAINTS},
    prefer_skip_nested_validation=True,
)
def aggregate(per_model, *, baseline=None, n_resamples=2000, confidence=0.95,
                    random_state=0):  # fmt: skip
    """One row per model across all data sets: IQM, mean and, with a baseline, the
    probability of improvement over it, each with its stratified bootstrap interval.

    Parameters
    ----------
    per_model : dict
        Model name -> list of 1-D score arrays, one per data set, the data sets in the same
        order for every model.
    baseline : str, default=None
        The model the others' probability of improvement is over.
    random_state : int, RandomState instance, Generator or None, default=0
        The root of every model's generator (derived by the model's name).

    Returns
    -------
    DataFrame
        Indexed by model: ``iqm``, ``iqm_ci_low``, ``iqm_ci_high``, ``mean``, ``mean_ci_low``,
        ``mean_ci_high``, and with a baseline ``probability_of_improvement``, ``poi_ci_low``,
        ``poi_ci_high`` (NaN on the baseline's row).
    """
    import pandas as pd

    root = seed_root(random_state)
    n_resamples, confidence = int(n_resamples), float(confidence)

    def iqm_and_mean(*samples, axis=-1):
        return np.stack([aggregate_iqm(samples), _mean_of_means(samples)])

    rows = []
    for model, per_dataset in per_model.items():
        groups = _check_groups(per_dataset, f"The 'per_model' parameter's model {model!r}")
        row = {"model": model, "iqm": aggregate_iqm(groups), "mean": float(_mean_of_means(groups))}
        interval = _interval(
            groups, iqm_and_mean, n_resamples, confidence, named_generator(root, model)
        )
        row["iqm_ci_low"], row["mean_ci_low"] = (float(v) for v in interval.low)
        row["iqm_ci_high"], row["mean_ci_high"] = (float(v) for v in interval.high)
        if baseline is not None and model != baseline:
            base = _check_groups(
                per_model[baseline], f"The 'per_model' parameter's model {baseline!r}"
            )
            rng = named_generator(root, model, baseline)
            poi = _improvement_with_interval(groups, base, n_resamples, confidence, rng)
            row["probability_of_improvement"] = poi["estimate"]
            row["poi_ci_low"], row["poi_ci_high"] = poi["ci_low"], poi["ci_high"]
        rows.append(row)
    columns = ["model", "iqm", "iqm_ci_low", "iqm_ci_high", "mean", "mean_ci_low", "mean_ci_high"]
    if baseline is not None:
        columns += ["probability_of_improvement", "poi_ci_low", "poi_ci_high"]
    return pd.DataFrame(rows, columns=columns).set_index("model")
