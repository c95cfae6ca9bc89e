"""permutation_check leaves no row at its real label, scores the model's own chance on the
test rows as they were, and passes on the warning that a splitter drew global random numbers."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification, make_regression
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import GridSearchCV, GroupKFold, KFold, cross_val_score
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_fair.exceptions import ReproducibilityWarning, SklearnFairWarning
from sklearn_fair.leakage import audit, permutation_check


def _honest_groups(sizes, labels, seed=0):
    """One label a group, X a real signal of the label (no leak)."""
    groups = np.repeat(np.arange(len(sizes)), sizes)
    y = np.repeat(labels, sizes)
    X = y[:, None] + np.random.default_rng(seed).normal(size=(len(y), 3))
    return X, y, groups


def _row_permuted_reference(X, y, groups, n=5):
    """The nested estimate on labels permuted row by row, with scikit-learn alone."""
    scores = []
    for i in range(n):
        permuted = y[np.random.default_rng(100 + i).permutation(len(y))]
        search = GridSearchCV(LogisticRegression(), {"C": [0.1, 1.0]}, cv=GroupKFold(3))
        scores.append(
            cross_val_score(
                search, X, permuted, groups=groups, cv=GroupKFold(4), params={"groups": groups}
            ).mean()
        )
    return float(np.mean(scores))


@pytest.mark.parametrize(
    "sizes, labels, stuck",
    [
        # 16 groups of 4 rows; 16 more, each alone in its size (5 to 20 rows)
        ([4] * 16 + list(range(5, 21)), np.random.RandomState(0).permutation([0, 1] * 16), 16),
        # the size gives the label: the groups of 4 rows hold 0, those of 8 rows 1
        ([4] * 16 + [8] * 16, np.repeat([0, 1], 16), 32),
    ],
    ids=["groups alone in their size", "sizes of one label"],
)
def test_no_group_keeps_its_real_labels_in_every_permutation(sizes, labels, stuck):
    X, y, groups = _honest_groups(sizes, labels)
    seen = []

    def prepare(X, y):  # leaks nothing
        seen.append(np.asarray(y).copy())
        return X, y

    with pytest.warns(SklearnFairWarning, match=rf"{stuck} of the 32 groups.*row by row"):
        report = permutation_check(
            LogisticRegression(), X, y, prepare=prepare, groups=groups,
            outer_cv=GroupKFold(4), inner_cv=GroupKFold(3), param_grid={"C": [0.1, 1.0]},
            n_permutations=5, with_estimate=False, random_state=0,
        )  # fmt: skip
    assert len(seen) == 6  # the labels as given (to read the scored labels), then 5 permuted
    for permuted in seen[1:]:
        assert np.array_equal(np.sort(permuted), np.sort(y))  # each label's share kept
        # about half the rows keep their label by chance, not all of them
        assert np.mean(permuted == y) < 0.75
    assert not report.leaks, report
    assert report.permuted_mean == pytest.approx(_row_permuted_reference(X, y, groups), abs=0.1)


def test_model_writing_into_its_input_gets_the_same_own_chance():
    X, y = make_regression(120, 6, noise=5, random_state=0)
    X = X * 3 + 10
    chances, leaks = [], []
    for copy in (True, False):  # the same model; with copy=False it scales its input in place
        model = Pipeline([("scale", StandardScaler(copy=copy)), ("ridge", Ridge())])
        report = permutation_check(
            model, X.copy(), y, outer_cv=KFold(4, shuffle=True, random_state=0), inner_cv=3,
            param_grid={"ridge__alpha": [0.1, 1.0]}, n_permutations=3, random_state=0,
        )  # fmt: skip
        chances.append(report.chance)
        leaks.append(report.leaks)
    assert chances[1] == pytest.approx(chances[0], rel=1e-9)
    assert leaks == [False, False]


class _GlobalDrawsKFold:
    """A user's splitter that shuffles with numpy's global random state."""

    def __init__(self, n_splits=3):
        self.n_splits = n_splits

    def get_n_splits(self, X=None, y=None, groups=None):
        return self.n_splits

    def split(self, X, y=None, groups=None):
        order = np.random.permutation(len(X))
        for part in np.array_split(order, self.n_splits):
            yield np.setdiff1d(order, part), part


@pytest.mark.parametrize("check", ["permutation_check", "audit"])
def test_global_draws_of_each_splitter_are_reported_once(check):
    X, y = make_classification(90, 5, random_state=0)
    outer = "outer_cv" if check == "permutation_check" else "cv"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        (permutation_check if check == "permutation_check" else audit)(
            LogisticRegression(), X, y, inner_cv=_GlobalDrawsKFold(2),
            param_grid={"C": [0.1, 1.0]}, n_permutations=2, random_state=0,
            **{outer: _GlobalDrawsKFold(3)},
        )  # fmt: skip
    said = [str(w.message) for w in caught if issubclass(w.category, ReproducibilityWarning)]
    for name in ("outer_cv", "inner_cv"):
        start = f"The '{name}' of nested_cross_validate (_GlobalDrawsKFold) drew random numbers"
        assert sum(message.startswith(start) for message in said) == 1, said
