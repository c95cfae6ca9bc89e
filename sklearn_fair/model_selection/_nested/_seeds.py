"""Every seed of a nested run, drawn in one place.

A seed is derived from the run's root entropy and a *name* (what it is for, and which fold or
refit), never from the order in which other code happened to draw before it. Adding a new use of
randomness therefore changes no existing seed, and the same ``random_state`` gives the same seeds
whatever the number of workers, the backend or the order in which tasks finish.
"""

import numbers
from dataclasses import dataclass

import numpy as np

from ...utils import check_random_state

__all__ = ["Seeds"]

_SEED_HIGH = np.iinfo(np.int32).max

# One code per purpose; never reuse or renumber one (it would change old runs' seeds).
_PURPOSES = {
    "inner_cv": 1,  # the default inner hold-out of every outer training fold
    "sampler": 2,  # the candidates sampled from param_distributions
    "selection": 3,  # random_state parameters left at None, for selection fits and the final fit
    "refit": 4,  # the seeds of the refits of the selected configuration
    "refit_holdout": 5,  # the hold-out that a refit early-stops on, when no stored split exists
    "final_holdout": 6,  # the hold-out that the final model early-stops on
}


@dataclass(frozen=True)
class Seeds:
    """The seeds of one run, derived from ``entropy`` by name.

    Attributes
    ----------
    entropy : int
        The root: the int ``random_state``, or one draw from a RandomState or Generator, or
        fresh operating-system entropy for ``random_state=None``.
    seeded : bool
        Whether ``random_state`` was given (so that two runs draw the same seeds).
    """

    entropy: int
    seeded: bool

    @classmethod
    def from_random_state(cls, random_state):
        """Seeds of a run with ``random_state`` (None, int, RandomState or Generator)."""
        if random_state is None:
            return cls(int(np.random.SeedSequence().entropy), False)
        if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
            check_random_state(random_state)  # refuses negative and too large ints
            return cls(int(random_state), True)
        return cls(int(check_random_state(random_state).randint(_SEED_HIGH)), True)

    def draw(self, purpose, index=0):
        """The seed for ``purpose`` (a name of ``_PURPOSES``) number ``index``, in [0, 2**31-1)."""
        sequence = np.random.SeedSequence(self.entropy, spawn_key=(_PURPOSES[purpose], index))
        return int(sequence.generate_state(1, np.uint64)[0] % _SEED_HIGH)

    def refit_seeds(self, n_refits):
        """``n_refits`` distinct seeds for the refits."""
        seeds, index = [], 0
        while len(seeds) < n_refits:
            seed = self.draw("refit", index)
            index += 1
            if seed not in seeds:
                seeds.append(seed)
        return seeds
