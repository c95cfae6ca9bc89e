"""One explicit random generator, made once from a ``random_state``."""

import numbers

import numpy as np


def as_generator(random_state):
    """Return a :class:`numpy.random.Generator` for ``random_state``.

    An int or None seeds a new generator; a Generator is used as it is (so
    its state advances); a legacy RandomState seeds a new generator from one
    draw, as scikit-learn code passes them around.
    """
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, np.random.RandomState):
        return np.random.default_rng(random_state.randint(np.iinfo(np.int32).max))
    if random_state is None or (
        isinstance(random_state, numbers.Integral)
        and not isinstance(random_state, bool)
        and random_state >= 0
    ):
        return np.random.default_rng(random_state)
    if isinstance(random_state, np.random.SeedSequence):
        return np.random.default_rng(random_state)
    raise ValueError(
        "The 'random_state' parameter must be None, a non-negative int, a "
        f"numpy.random.Generator or a RandomState. Got {random_state!r} instead."
    )
