"""Min-max normalisation of scores between two anchors, as rliable defines it.

rliable (Agarwal et al., NeurIPS 2021, and its colab's ``score_normalization``) normalises
each task's scores between two reference scores of that task before pooling tasks:
``(score - low) / (high - low)``: Atari's human-normalised score takes a random agent's
score as ``low`` and a human's as ``high``; Procgen's min-max normalised score the least and
the greatest score the game allows; its "PPO-normalised" score ``low = 0`` and ``high`` the
mean score of PPO. A score equal to ``low`` is 0, one equal to ``high`` is 1; scores outside
the anchors fall outside [0, 1]. The transformation is affine and increasing, so every
comparison within a task is unchanged; what changes is how tasks of different scales pool.
"""

import math

import numpy as np

__all__ = ["normalize_scores"]


def normalize_scores(scores, low, high):
    """rliable's min-max normalisation of one task's scores: ``(scores - low) / (high - low)``.

    Parameters
    ----------
    scores : array-like of float
        Scores of one task (data set), higher is better.
    low, high : float
        The anchors: the scores that become 0 and 1 (a baseline's and a reference's score,
        or the least and the greatest score possible). ``high`` must be greater than ``low``.

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
    if not (math.isfinite(low) and math.isfinite(high) and high > low):
        raise ValueError(
            "The 'high' parameter of normalize_scores must be a finite number greater than "
            f"'low'. Got low={low!r} and high={high!r} instead."
        )
    return (np.asarray(scores, dtype=float) - low) / (high - low)
