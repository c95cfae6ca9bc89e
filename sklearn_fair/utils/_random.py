"""One way to turn a ``random_state`` into a generator, across the package.

Every public ``random_state`` accepts None, an int, a :class:`numpy.random.RandomState` and a
:class:`numpy.random.Generator`. Code that needs scikit-learn's legacy RandomState (to pass
it to a scikit-learn splitter, say) calls :func:`check_random_state`; code that draws with
the modern API calls :func:`as_generator`. A Generator or RandomState given by the user is
drawn from (its state advances), as scikit-learn does with RandomState instances.
"""

import numbers

import numpy as np

__all__ = ["as_generator", "check_random_state", "draw_seeds"]

#: Seeds are drawn below this bound, so that they fit every library's int32 seed.
SEED_HIGH = np.iinfo(np.int32).max


def _invalid(random_state):
    return ValueError(
        "The 'random_state' parameter must be None, a non-negative int, a "
        f"numpy.random.Generator or a numpy.random.RandomState. Got {random_state!r} instead."
    )


def check_random_state(random_state):
    """Return a :class:`numpy.random.RandomState` for ``random_state``.

    As :func:`sklearn.utils.check_random_state`, and a :class:`numpy.random.Generator`
    is accepted too: the RandomState is seeded from one draw of it.

    Parameters
    ----------
    random_state : None, int, RandomState or Generator
        None gives the global RandomState (unseeded), as in scikit-learn.

    Returns
    -------
    rng : RandomState

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_fair.utils import check_random_state
    >>> a = check_random_state(np.random.default_rng(0)).randint(100)
    >>> b = check_random_state(np.random.default_rng(0)).randint(100)
    >>> a == b
    True
    """
    if isinstance(random_state, np.random.Generator):
        return np.random.RandomState(int(random_state.integers(SEED_HIGH)))
    if random_state is None or isinstance(random_state, np.random.RandomState):
        return np.random.mtrand._rand if random_state is None else random_state
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        if random_state < 0 or random_state > np.iinfo(np.uint32).max:
            raise _invalid(random_state)
        return np.random.RandomState(int(random_state))
    raise _invalid(random_state)


def as_generator(random_state):
    """Return a :class:`numpy.random.Generator` for ``random_state``.

    An int or None seeds a new generator; a Generator is used as it is (so its state
    advances); a RandomState seeds a new generator from one draw of it.

    Parameters
    ----------
    random_state : None, int, RandomState, Generator or SeedSequence

    Returns
    -------
    rng : Generator

    Examples
    --------
    >>> from sklearn_fair.utils import as_generator
    >>> bool(as_generator(0).integers(10) == as_generator(0).integers(10))
    True
    """
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, np.random.RandomState):
        return np.random.default_rng(random_state.randint(SEED_HIGH))
    if isinstance(random_state, np.random.SeedSequence):
        return np.random.default_rng(random_state)
    if random_state is None or (
        isinstance(random_state, numbers.Integral)
        and not isinstance(random_state, bool)
        and random_state >= 0
    ):
        return np.random.default_rng(random_state)
    raise _invalid(random_state)


def draw_seeds(random_state, n, *, distinct=True):
    """Draw ``n`` integer seeds in ``[0, 2**31 - 1)`` from ``random_state``.

    Parameters
    ----------
    random_state : None, int, RandomState or Generator
    n : int
        How many seeds.
    distinct : bool, default=True
        Redraw until no seed repeats.

    Returns
    -------
    seeds : list of int

    Examples
    --------
    >>> from sklearn_fair.utils import draw_seeds
    >>> draw_seeds(0, 3) == draw_seeds(0, 3)
    True
    """
    rng = check_random_state(random_state)
    seeds = []
    while len(seeds) < n:
        seed = int(rng.randint(SEED_HIGH))
        if not (distinct and seed in seeds):
            seeds.append(seed)
    return seeds
