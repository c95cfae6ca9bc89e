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


def _audited(cv):
    from sklearn_fair import audit

    rng = np.random.RandomState(0)
    X = rng.normal(size=(60, 3))
    X[30:33] = X[:3]  # duplicates, found on the splits the evaluation makes
    y = (X[:, 0] + rng.normal(scale=0.5, size=60) > 0).astype(int)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = audit(
            LogisticRegression(), X, y, cv=cv, param_grid={"C": [0.1, 1.0]}, inner_cv=2,
            n_permutations=2, random_state=0,
        )  # fmt: skip
    return report, [w for w in caught if issubclass(w.category, ReproducibilityWarning)]


def test_audit_splits_as_with_the_int_seed_on_every_call():
    reference, _ = _audited(KFold(3, shuffle=True, random_state=0))
    cv = KFold(3, shuffle=True, random_state=np.random.RandomState(0))
    # before: the duplicates check split first and moved the generator on, so the permutation
    # check ran on other folds (0.9667 against 0.9556 on iris), and each call on others again
    for _ in range(2):
        seeded, said = _audited(cv)
        assert not said
        assert seeded.duplicates.n_splits_straddled == reference.duplicates.n_splits_straddled
        for got, expected in zip(seeded.duplicates.straddling, reference.duplicates.straddling):
            np.testing.assert_array_equal(got, expected)
        assert seeded.permutation.estimate == reference.permutation.estimate
        np.testing.assert_array_equal(
            seeded.permutation.permuted_estimates, reference.permutation.permuted_estimates
        )
