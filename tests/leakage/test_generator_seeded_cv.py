"""A splitter seeded with a RandomState moves it on with each split(): permutation_check gives
every run (the real labels and each permutation) a copy of it, from the same state, so its
runs split alike, as with the int seed that state comes from, and it does not warn that each
call of nested_cross_validate (which it calls) splits otherwise."""

import warnings

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold

from sklearn_fair.exceptions import ReproducibilityWarning
from sklearn_fair.leakage import permutation_check


def _check(cv):
    rng = np.random.RandomState(0)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] + rng.normal(scale=0.5, size=60) > 0).astype(int)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = permutation_check(
            LogisticRegression(), X, y, param_grid={"C": [0.1, 1.0]}, outer_cv=cv,
            inner_cv=2, n_permutations=3, random_state=0,
        )  # fmt: skip
    return report, [w for w in caught if issubclass(w.category, ReproducibilityWarning)]


def test_runs_split_as_with_the_int_seed_and_say_nothing_of_each_call():
    seeded, said = _check(KFold(3, shuffle=True, random_state=np.random.RandomState(0)))
    reference, _ = _check(KFold(3, shuffle=True, random_state=0))
    assert not said
    assert seeded.estimate == reference.estimate
    np.testing.assert_array_equal(seeded.permuted_estimates, reference.permuted_estimates)
