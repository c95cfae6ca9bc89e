"""One way to turn a ``random_state`` into a generator, across the package: a RandomState for
scikit-learn (:func:`check_random_state`) or a Generator (:func:`as_generator`). One given by
the user is drawn from (its state advances), as scikit-learn does with RandomState instances."""

import numbers
import zlib

import numpy as np
from sklearn.utils import check_random_state as sklearn_check_random_state
from sklearn.utils._param_validation import validate_parameter_constraints

from ._validation import RANDOM_STATE_CONSTRAINTS, IntervalNotBool

#: Every seed sklearn-fair draws is below this bound (the one definition), so that it fits every
#: library's int32 seed. Which seeds are drawn, and for what: ``model_selection/_nested/_seeds.py``.
SEED_BOUND = np.iinfo(np.int32).max

# numpy's Generator takes any non-negative int, and a SeedSequence.
_GENERATOR_SEEDS = [
    None,
    IntervalNotBool(numbers.Integral, 0, None, closed="left"),
    np.random.RandomState,
    np.random.Generator,
    np.random.SeedSequence,
]


def check_random_state_param(random_state, caller_name, constraints=RANDOM_STATE_CONSTRAINTS):
    """The one check of a ``random_state`` (scikit-learn's error, naming ``caller_name``, the
    value and what is accepted), for entry points without ``validate_params``."""
    # Always checked, even inside a function that skips nested validation: this is the last
    # step before a seed is used, and np.random.default_rng(True) would silently seed with 1.
    validate_parameter_constraints(
        {"random_state": constraints}, {"random_state": random_state}, caller_name=caller_name
    )


def check_random_state(random_state):
    """Return a :class:`numpy.random.RandomState` for ``random_state``.

    As :func:`sklearn.utils.check_random_state`; a Generator seeds it with one draw.

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
    check_random_state_param(random_state, "check_random_state")
    if isinstance(random_state, np.random.Generator):
        return np.random.RandomState(int(random_state.integers(SEED_BOUND)))
    return sklearn_check_random_state(random_state)


def as_generator(random_state):
    """Return a :class:`numpy.random.Generator` for ``random_state``.

    An int or None seeds a new generator; a Generator is used as it is (so its state advances);
    a RandomState seeds a new generator from one draw of it.

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
    check_random_state_param(random_state, "as_generator", _GENERATOR_SEEDS)
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, np.random.RandomState):
        return np.random.default_rng(random_state.randint(SEED_BOUND))
    return np.random.default_rng(random_state)


def draw_seeds(rng, n=None):
    """``n`` seeds (one int when ``n`` is None) in ``[0, SEED_BOUND)`` from a RandomState or
    Generator, as procedures outside the nested engine draw them (its state advances)."""
    draw = rng.integers if isinstance(rng, np.random.Generator) else rng.randint
    values = draw(SEED_BOUND, size=n)
    return int(values) if n is None else [int(v) for v in values]


def seed_root(random_state):
    """The int root of seeds derived by name (:func:`named_generator`) from a ``random_state``:
    the int itself, one draw from a Generator or RandomState (its state advances), fresh
    entropy for None; a drawn root lies below ``SEED_BOUND`` (a valid ``random_state``
    itself), an int is used as given.
    The one rule of every seeded procedure, NestedCV and a benchmark's models included."""
    check_random_state_param(random_state, "seed_root")
    if random_state is None:
        return int(np.random.SeedSequence().entropy % SEED_BOUND)
    if isinstance(random_state, numbers.Integral):
        return int(random_state)
    return draw_seeds(random_state)


def named_generator(root, *names):
    """The Generator of the purpose ``names`` (strings or ints) under the int ``root``.

    The same root and names give the same stream whatever was drawn before, so adding a model
    or a statistic changes no other one's draws.

    Examples
    --------
    >>> a = named_generator(0, "forest", "iqm").random()
    >>> a == named_generator(0, "forest", "iqm").random() != named_generator(0, "tree").random()
    True
    """
    key = tuple(n if isinstance(n, int) else zlib.crc32(str(n).encode()) for n in names)
    return np.random.default_rng(np.random.SeedSequence(root, spawn_key=key))
