"""Min-max normalisation of scores between two anchors, as rliable defines it."""

import math

import numpy as np

from ..utils._scaling import scale_exponent

__all__ = ["normalize_scores"]


def normalize_scores(scores, low, high):
    """rliable's min-max normalisation of one task's scores: ``(scores - low) / (high - low)``.

    rliable (Agarwal et al., NeurIPS 2021, and its colab's ``score_normalization``) puts each
    task's scores between two reference scores of that task before pooling tasks (Atari's
    human-normalised score: a random agent's and a human's; Procgen's: the least and the
    greatest score the game allows). The map is affine and increasing: every comparison
    within a task is unchanged, only how tasks of different scales pool changes.

    Parameters
    ----------
    scores : array-like of float
        Scores of one task (data set), higher is better.
    low, high : float
        The anchors: the scores that become 0 and 1 (a baseline's and a reference's score, or
        the least and the greatest score possible); scores outside them fall outside [0, 1].
        ``high`` must be greater than ``low``.

    Returns
    -------
    ndarray of float

    Examples
    --------
    >>> from sklearn_fair.stats import normalize_scores
    >>> normalize_scores([0.5, 0.75, 1.0], low=0.5, high=1.0)
    array([0. , 0.5, 1. ])
    """
    low, high = float(low), float(high)
    for name, value in (("low", low), ("high", high)):
        if not math.isfinite(value):
            raise ValueError(
                f"The '{name}' parameter of normalize_scores must be a finite number. Got "
                f"{value!r} instead."
            )
    if not high > low:
        raise ValueError(
            "The 'high' parameter of normalize_scores must be a finite number greater than "
            f"'low'. Got low={low!r} and high={high!r} instead."
        )
    # anchors past 2**100 scaled by a power of 2, exactly (the ratio is scale-free): high - low
    # overflowed to inf near the largest float, and a finite score normalised to NaN
    exponent = scale_exponent(np.array([low, high]))
    scores, low, high = (np.ldexp(x, -exponent) for x in (np.asarray(scores, float), low, high))
    return (scores - low) / (high - low)
