"""Two models across data sets: the Bayesian signed-rank test with a ROPE, and win/tie/loss.

Benavoli, Corani, Demšar and Zaffalon (JMLR 18(77), 2017, "Time for a change") recommend the
Bayesian signed-rank test (Benavoli et al., ICML 2014): a Dirichlet process on the
distribution of the per-data-set differences ``d``, with a prior of strength ``prior`` on a
pseudo-observation at 0. Each posterior sample weighs ``z = (0, d_1, ..., d_n)`` by ``w ~
Dirichlet(prior, 1, ..., 1)``; the probability that a model is better by more than the ROPE
is ``sum_ij w_i w_j [z_i + z_j > 2 rope]`` (ties count half), that of the other ``[z_i + z_j
< -2 rope]``, and equivalence the rest. As in baycomp (``SignedRankTest``), the reported
probabilities are how often each of the three is the largest over the samples, computed for
all draws at once (baycomp loops); with baycomp's draws the numbers are baycomp's
(``tests/stats/test_signed_rank.py``) for the differences as written: a sum equal to the
threshold up to the rounding of the scores (``0.81 - 0.80`` twice, against ``2 * 0.01``) is a
tie, where baycomp's float comparison puts it on one side.
"""

from dataclasses import dataclass

import numpy as np
from sklearn.utils._param_validation import StrOptions, validate_params

from ..utils import RANDOM_STATE_CONSTRAINTS, as_generator
from ._checks import (
    CONFIDENCE,
    COUNT,
    NON_NEGATIVE,
    POSITIVE,
    AsDict,
    check_paired,
    differences_beyond_rounding,
    pair_tolerances,
)
from ._paired import corrected_resampled_ttest, holm

__all__ = ["SignedRankResult", "WinTieLoss", "bayesian_signed_rank", "win_tie_loss"]


@dataclass(frozen=True)
class SignedRankResult(AsDict):
    """Posterior probabilities of :func:`bayesian_signed_rank`.

    Attributes
    ----------
    p_a_better, p_equivalent, p_b_better : float
        How often, over the posterior samples, "a better by more than the ROPE", "within the
        ROPE" and "b better" is the most probable; they sum to 1 (``p_equivalent`` is 0 with
        ``rope=0``).
    rope, prior : float
    n_datasets, n_samples : int
    """

    p_a_better: float
    p_equivalent: float
    p_b_better: float
    rope: float
    prior: float
    n_datasets: int
    n_samples: int


def _posterior(differences, rope, weights, tolerances=0.0):
    """``(n_samples, 3)``: each sample's mass of (a better, equivalent, b better).

    ``tolerances`` (one per difference, :func:`~._checks.pair_tolerances`) is how far each
    difference can lie from that of the scores as written by rounding alone: a pair sum
    within the sum of its two tolerances (and the rounding of ``2 rope``) of ``±2 rope`` is
    on the threshold and counts half, as the sum of the written scores' differences does
    (``0.81 - 0.80`` twice against ``2 * 0.01``); with ``rope > 0`` a sum within rounding of
    0 is equivalence, however small the rope. 0 compares the sums exactly (baycomp).
    """
    z = np.concatenate([[0.0], differences])
    sums = z[:, None] + z[None, :]
    threshold = 2.0 * rope
    slack = np.concatenate([[0.0], np.broadcast_to(tolerances, differences.shape)])
    slack = slack[:, None] + slack[None, :] + np.finfo(float).eps * threshold
    # with a rope of the size of rounding, a sum of 0 is not on either threshold
    no_sum = (np.abs(sums) <= slack) if rope > 0 else np.zeros(sums.shape, dtype=bool)

    def beyond(sign):
        """Each pair's mass beyond ``sign * threshold``: 1, or 0.5 on it up to rounding."""
        on = (np.abs(sums - sign * threshold) <= slack) & ~no_sum
        return ((sign * sums > threshold) & ~on & ~no_sum) + 0.5 * on

    a_mass = np.einsum("si,ij,sj->s", weights, beyond(1.0), weights)
    if rope == 0:  # baycomp: the b side is 1 minus the a side, no mass on equivalence
        return np.column_stack([a_mass, np.zeros_like(a_mass), 1.0 - a_mass])
    b_mass = np.einsum("si,ij,sj->s", weights, beyond(-1.0), weights)
    return np.column_stack([a_mass, 1.0 - a_mass - b_mass, b_mass])


def _probabilities(samples):
    winners = np.bincount(np.argmax(samples, axis=1), minlength=3) / samples.shape[0]
    return tuple(float(p) for p in winners)


@validate_params(
    {
        "a": ["array-like"],
        "b": ["array-like"],
        "rope": [NON_NEGATIVE],
        "prior": [POSITIVE],
        "greater_is_better": ["boolean"],
        "n_samples": [COUNT],
        "random_state": RANDOM_STATE_CONSTRAINTS,
    },
    prefer_skip_nested_validation=True,
)
def bayesian_signed_rank(
    a, b, *, rope=0.01, prior=0.5, greater_is_better=True, n_samples=50_000, random_state=0
):
    """Bayesian signed-rank test of two models across data sets, with a ROPE.

    Parameters
    ----------
    a, b : array-like of shape (n_datasets,)
        Each model's score on each data set (e.g. the mean over its outer folds), paired by
        data set (pandas Series by their index, as :func:`paired_ttest` pairs them); at
        least 2. A data set whose two scores are equal up to rounding (``0.1 + 0.2`` and
        ``0.3``) has a difference of 0, as in Wilcoxon's test of :func:`rank_comparison`,
        and a pair sum equal to ``±2 rope`` (or 0) up to rounding lies on the threshold and
        counts half, as that of the scores as written: 0.81 against 0.80 on every data set,
        with ``rope=0.01``, is equivalent with probability 1.
    rope : float, default=0.01
        Half-width of the region of practical equivalence, in the metric's units.
    prior : float, default=0.5
        Strength of the prior pseudo-observation at a difference of 0 (baycomp's default).
    greater_is_better : bool, default=True
        Whether a higher score is better.
    n_samples : int, default=50_000
        Posterior samples; the probabilities have a Monte-Carlo error of at most ``0.5 /
        sqrt(n_samples)``.
    random_state : int, RandomState, Generator or None, default=0
        Seeds every random draw: the same seed gives the same result.

    Returns
    -------
    SignedRankResult
        ``p_a_better``, ``p_equivalent``, ``p_b_better``. With ``rope=0`` and no difference
        on any data set (up to rounding, as in :func:`paired_ttest`), 0.5, 0 and 0.5 (each
        sample's posterior is split evenly).

    Examples
    --------
    >>> from sklearn_fair.stats import bayesian_signed_rank
    >>> a = [0.84, 0.79, 0.91, 0.75, 0.88, 0.82, 0.80, 0.86]
    >>> b = [0.80, 0.78, 0.85, 0.74, 0.86, 0.79, 0.80, 0.81]
    >>> result = bayesian_signed_rank(a, b, rope=0.01)
    >>> round(result.p_a_better, 2), round(result.p_equivalent, 2), round(result.p_b_better, 2)
    (0.98, 0.02, 0.0)
    """
    a, b = check_paired(a, b, purpose="a signed-rank test", unit="data set")
    # a difference within rounding of 0 is 0, a pair sum within rounding of 2 rope (or 0) is on
    # the threshold and counts half: rounding alone would put either on one side
    first, second = (a, b) if greater_is_better else (b, a)
    differences = differences_beyond_rounding(first, second)
    tolerances = pair_tolerances(first, second)
    alpha = np.concatenate([[float(prior)], np.ones(differences.shape[0])])
    weights = as_generator(random_state).dirichlet(alpha, int(n_samples))
    posterior = _posterior(differences, float(rope), weights, tolerances)
    p_a, p_rope, p_b = _probabilities(posterior)
    if rope == 0 and not differences.any():
        # every sample gives each side half its mass: rounding, not the data, would choose
        p_a, p_rope, p_b = 0.5, 0.0, 0.5
    return SignedRankResult(
        p_a_better=p_a,
        p_equivalent=p_rope,
        p_b_better=p_b,
        rope=float(rope),
        prior=float(prior),
        n_datasets=int(differences.shape[0]),
        n_samples=int(n_samples),
    )


@dataclass(frozen=True)
class WinTieLoss:
    """What :func:`win_tie_loss` counted.

    Attributes
    ----------
    wins, ties, losses : int
        Data sets where ``a`` is demonstrably better, not demonstrably different, worse.
    outcomes : tuple of str
        "win", "tie" or "loss" per data set, in the order given.
    pvalues : tuple of float
        Each data set's p-value, Holm-adjusted across the data sets when ``adjust="holm"``.
    """

    wins: int
    ties: int
    losses: int
    outcomes: tuple
    pvalues: tuple


@validate_params(
    {
        "per_dataset_a": [list],
        "per_dataset_b": [list],
        "n_train": ["array-like", POSITIVE],
        "n_test": ["array-like", POSITIVE],
        "alpha": [CONFIDENCE],
        "adjust": [StrOptions({"holm"}), None],
        "greater_is_better": ["boolean"],
    },
    prefer_skip_nested_validation=True,
)
def win_tie_loss(per_dataset_a, per_dataset_b, *, n_train, n_test, alpha=0.05, adjust="holm",
                 greater_is_better=True):  # fmt: skip
    """Count the data sets where model ``a`` wins, ties or loses against ``b``.

    On each data set the corrected resampled t-test (Nadeau & Bengio) of the paired outer-fold
    scores decides: a tie is a difference not demonstrated at ``alpha``.

    Parameters
    ----------
    per_dataset_a, per_dataset_b : list of array-like
        Each model's outer-fold scores on each data set, paired by fold (pandas Series by
        their index, as :func:`paired_ttest` pairs them).
    n_train, n_test : float or array-like of shape (n_datasets,)
        The mean training- and test-set sizes of each data set's outer folds.
    alpha : float, default=0.05
    adjust : {"holm"} or None, default="holm"
        Holm's adjustment across the data sets (so that no data set's win is claimed more
        often than ``alpha`` allows), or None for each data set on its own.
    greater_is_better : bool, default=True
        Whether a higher score is better.

    Returns
    -------
    WinTieLoss

    Examples
    --------
    >>> from sklearn_fair.stats import win_tie_loss
    >>> a = [[0.81, 0.84, 0.83, 0.85, 0.82], [0.70, 0.72, 0.69, 0.71, 0.73]]
    >>> b = [[0.71, 0.73, 0.72, 0.74, 0.70], [0.70, 0.73, 0.70, 0.70, 0.72]]
    >>> counts = win_tie_loss(a, b, n_train=80, n_test=20)
    >>> counts.wins, counts.ties, counts.losses, counts.outcomes
    (1, 1, 0, ('win', 'tie'))
    """
    if len(per_dataset_a) != len(per_dataset_b) or not per_dataset_a:
        raise ValueError(
            "The 'per_dataset_a' and 'per_dataset_b' parameters need one score array per data "
            f"set, as many for both. Got {len(per_dataset_a)} and {len(per_dataset_b)}."
        )
    n = len(per_dataset_a)
    sizes = [_sizes(name, value, n) for name, value in (("n_train", n_train), ("n_test", n_test))]
    names = [(f"per_dataset_a[{i}]", f"per_dataset_b[{i}]") for i in range(n)]
    paired = [
        check_paired(x, y, purpose="a corrected resampled t-test", names=pair, unit="fold")
        for x, y, pair in zip(per_dataset_a, per_dataset_b, names)
    ]
    tests = [
        corrected_resampled_ttest(x, y, n_train=float(tr), n_test=float(te))
        for (x, y), tr, te in zip(paired, *sizes)
    ]
    pvalues = [t.pvalue for t in tests]
    if adjust == "holm":
        pvalues = holm(pvalues).tolist()
    outcomes = []
    for test, p in zip(tests, pvalues):
        if p > alpha or test.mean_difference == 0:
            outcomes.append("tie")
        else:
            outcomes.append("win" if (test.mean_difference > 0) == greater_is_better else "loss")
    return WinTieLoss(
        wins=outcomes.count("win"),
        ties=outcomes.count("tie"),
        losses=outcomes.count("loss"),
        outcomes=tuple(outcomes),
        pvalues=tuple(float(p) for p in pvalues),
    )


def _sizes(name, value, n_datasets):
    """``value``, win_tie_loss's ``n_train`` or ``n_test``, as one size per data set: a
    ValueError naming ``name`` where a size is not a positive number or their count is not
    ``n_datasets`` (the corrected t-test of a data set with a size of -2 gave a p-value)."""
    sizes = np.asarray(value, dtype=float)
    if sizes.ndim > 1 or sizes.size not in (1, n_datasets):
        raise ValueError(
            f"The {name!r} parameter of win_tie_loss must be a positive number or one per data "
            f"set ({n_datasets}). Got {value!r}."
        )
    if not (np.isfinite(sizes) & (sizes > 0)).all():
        raise ValueError(
            f"The {name!r} parameter of win_tie_loss must hold positive numbers, the mean size "
            f"of each data set's outer folds. Got {value!r}."
        )
    return np.broadcast_to(sizes, (n_datasets,))
