"""benchmark takes the outer splits as a generator, as NestedCV and cross_validate do."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_regression
from sklearn.linear_model import Ridge
from sklearn.model_selection import KFold, TimeSeriesSplit

from sklearn_fair import benchmark, nested_cross_validate


def test_outer_splits_given_as_a_generator_are_read_once_for_every_model():
    X, y = make_regression(n_samples=80, n_features=4, noise=10, random_state=0)
    models = {"ridge": (Ridge(), {"alpha": [0.1, 10.0]}), "plain": Ridge()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # before: TypeError: cannot pickle 'generator' object
        result = benchmark(models, {"d": (X, y)}, outer_cv=TimeSeriesSplit(3).split(X),
                           n_refits=1, random_state=0)  # fmt: skip
        alone = nested_cross_validate(Ridge(), X, y, param_grid={"alpha": [0.1, 10.0]},
                                      cv=TimeSeriesSplit(3).split(X), n_refits=1,
                                      random_state=0)  # fmt: skip
    np.testing.assert_allclose(result.estimators["d", "ridge"].outer_scores_, alone["test_score"])
    assert result.estimators["d", "plain"].outer_scores_.shape == (3,)


def test_one_list_of_splits_for_data_sets_of_different_sizes_is_refused():
    Xa, ya = make_regression(n_samples=60, n_features=4, random_state=0)
    Xb, yb = make_regression(n_samples=90, n_features=4, random_state=1)
    splits = list(TimeSeriesSplit(3).split(Xa))
    # before: data set b was tested on its first 60 rows only, without a word
    with pytest.raises(ValueError, match=r"different sizes \('a': 60 rows, 'b': 90 rows\)"):
        benchmark({"ridge": Ridge()}, {"a": (Xa, ya), "b": (Xb, yb)}, outer_cv=splits,
                  n_refits=1, random_state=0)  # fmt: skip
    per_data_set = {"a": splits, "b": list(TimeSeriesSplit(3).split(Xb))}
    result = benchmark({"ridge": Ridge()}, {"a": (Xa, ya), "b": (Xb, yb)},
                       outer_cv=per_data_set, n_refits=1, random_state=0)  # fmt: skip
    assert result.estimators["b", "ridge"].outer_results_[-1]["test_indices"].max() == 89


def test_a_data_set_splitter_seeded_with_a_random_state_splits_alike_for_every_model():
    X, y = make_regression(n_samples=60, n_features=4, noise=10, random_state=0)
    models = {"ridge": (Ridge(), {"alpha": [0.1, 10.0]}), "plain": Ridge()}

    def scores(outer_cv):
        result = benchmark(models, {"d": (X, y)}, outer_cv=outer_cv, inner_cv=2, n_refits=1,
                           random_state=0)  # fmt: skip
        return {m: result.estimators["d", m].outer_scores_ for m in models}

    # the int seed 0 is the reference: RandomState(0) is the state it stands for
    reference = scores({"d": KFold(3, shuffle=True, random_state=0)})
    seeded = KFold(3, shuffle=True, random_state=np.random.RandomState(0))
    # before: SplitsMismatchError, the second model's split() drew on from the first's state
    for _ in range(2):  # and the user's splitter is not moved on by a call
        got = scores({"d": seeded})
        for model in models:
            np.testing.assert_array_equal(got[model], reference[model])
