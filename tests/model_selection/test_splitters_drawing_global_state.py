"""A user's splitter that draws from numpy's global random state (``np.random.permutation``,
or ``check_random_state(None)`` under another name than ``random_state``) makes a seeded run
split otherwise on every run: no seed of the run reaches it. It is named in a
ReproducibilityWarning, as an unseeded KFold(shuffle=True) is."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import BaseCrossValidator, KFold
from sklearn.utils import check_random_state

from sklearn_fair import NestedCV, nested_cross_validate
from sklearn_fair.exceptions import ReproducibilityWarning

X, y = load_iris(return_X_y=True)
GRID = {"C": [0.01, 1.0]}


class PermutedKFold(BaseCrossValidator):
    """Shuffles with numpy's global state; ``seed`` (not ``random_state``) seeds it."""

    def __init__(self, n_splits=3, seed=None):
        self.n_splits = n_splits
        self.seed = seed

    def get_n_splits(self, X=None, y=None, groups=None):
        return self.n_splits

    def _iter_test_indices(self, X=None, y=None, groups=None):
        order = check_random_state(self.seed).permutation(len(X))
        yield from np.array_split(order, self.n_splits)


def _run(outer, inner):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = nested_cross_validate(
            LogisticRegression(max_iter=300), X, y, cv=outer, inner_cv=inner,
            param_grid=GRID, random_state=0,
        )  # fmt: skip
    drew = [
        str(w.message)
        for w in caught
        if issubclass(w.category, ReproducibilityWarning) and "global random state" in str(w)
    ]
    return result["test_score"], drew


def test_a_splitter_drawing_from_the_global_state_is_named():
    np.random.seed(0)
    first, drew = _run(PermutedKFold(3), PermutedKFold(2))
    second, _ = _run(PermutedKFold(3), PermutedKFold(2))
    # the case: the same seeded call splits otherwise on a second run
    assert not np.array_equal(first, second)
    assert len(drew) == 2, drew
    assert drew[0].startswith(
        "The 'outer_cv' of nested_cross_validate (PermutedKFold) drew random numbers from "
        "numpy's global random state"
    )
    assert drew[1].startswith("The 'inner_cv' of nested_cross_validate (PermutedKFold)")


@pytest.mark.parametrize(
    "outer", [PermutedKFold(3, seed=0), KFold(3, shuffle=True, random_state=0)]
)
def test_a_seeded_splitter_or_an_unseeded_run_is_not_named(outer):
    _, drew = _run(outer, PermutedKFold(2, seed=1))
    assert drew == []


def test_an_unseeded_nested_cv_makes_no_promise():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        NestedCV(LogisticRegression(max_iter=300), GRID, outer_cv=PermutedKFold(3),
                 inner_cv=PermutedKFold(2), random_state=None).fit(X, y)  # fmt: skip
    assert not [w for w in caught if "global random state" in str(w.message)]


def test_nested_cv_names_it_too():
    with pytest.warns(ReproducibilityWarning, match="'outer_cv' of NestedCV \\(PermutedKFold\\)"):
        NestedCV(LogisticRegression(max_iter=300), GRID, outer_cv=PermutedKFold(3),
                 random_state=0).fit(X, y)  # fmt: skip
