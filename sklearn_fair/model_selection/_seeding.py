"""Seeds for the refits: which parameters take them, and how they are drawn."""

import numpy as np
from sklearn.base import clone
from sklearn.utils import check_random_state

__all__ = ["configured", "draw_distinct_seeds", "random_state_params", "with_seed"]

_SEED_HIGH = np.iinfo(np.int32).max


def random_state_params(estimator):
    """Names of every ``random_state`` parameter of ``estimator``, nested ones included.

    Examples
    --------
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> random_state_params(make_pipeline(StandardScaler(), DecisionTreeClassifier()))
    ['decisiontreeclassifier__random_state']
    """
    return sorted(
        name
        for name in estimator.get_params(deep=True)
        if name == "random_state" or name.endswith("__random_state")
    )


def configured(estimator, params):
    """A fresh clone of ``estimator`` with ``params``, each value cloned too.

    Values are cloned as scikit-learn's own searches do, so an object in a grid (a skorch
    callback, an estimator) is never shared, and so never mutated, across fits.
    """
    return clone(estimator).set_params(
        **{name: clone(value, safe=False) for name, value in params.items()}
    )


def with_seed(params, seed_params, seed):
    """Return ``params`` with every name in ``seed_params`` set to ``seed``."""
    if seed is None or not seed_params:
        return dict(params)
    return {**params, **{name: seed for name in seed_params}}


def draw_distinct_seeds(rng, n):
    """Draw ``n`` distinct integer seeds from ``rng`` (anything check_random_state takes)."""
    rng = check_random_state(rng)
    seeds = []
    while len(seeds) < n:
        seed = int(rng.randint(_SEED_HIGH))
        if seed not in seeds:
            seeds.append(seed)
    return seeds
