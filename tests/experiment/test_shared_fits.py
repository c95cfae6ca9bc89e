"""The fewest refits that models sharing candidates can make: the smallest set of refit
tasks that gives every model one of its candidates' refits (a hitting set), checked against
trying every set of names by brute force."""

from itertools import combinations

import numpy as np
import pytest

from sklearn_fair.experiment._counting._shared import EXACT_SETS, _fewest_names


def _brute_force(sets):
    names = sorted(set().union(*sets))
    for size in range(1, len(names) + 1):
        for chosen in combinations(names, size):
            if all(set(chosen) & names_ for names_ in sets):
                return size
    raise AssertionError("no names")


@pytest.mark.parametrize("seed", range(40))
def test_the_fewest_refits_are_those_of_a_brute_force_search(seed):
    rng = np.random.default_rng(seed)
    n_sets = int(rng.integers(1, EXACT_SETS + 1))
    n_names = int(rng.integers(1, 9))
    sets = [
        frozenset(rng.choice(n_names, size=int(rng.integers(1, n_names + 1)), replace=False))
        for _ in range(n_sets)
    ]
    assert _fewest_names(sets) == _brute_force(sets)


def test_a_large_component_counts_no_more_than_the_fewest():
    # 13 models sharing candidates by pairs in a ring: more sets than the exact search takes;
    # the count stays a lower bound (the dry run's fewest fits must not exceed the run's)
    sets = [frozenset({i, (i + 1) % 13}) for i in range(13)]
    assert _fewest_names(sets) <= _brute_force(sets) == 7
