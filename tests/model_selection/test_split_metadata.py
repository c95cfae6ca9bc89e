"""Metadata requested by an inner splitter reaches it as scikit-learn's nested idiom passes
it: indexed by a fold's rows where it has one entry per sample, whole otherwise."""

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import BaseCrossValidator, GridSearchCV, KFold, cross_validate

from sklearn_fair import nested_cross_validate

GRID = {"C": [0.01, 0.1, 1.0, 10.0]}
N = 120


class ShiftKFold(BaseCrossValidator):
    """K-fold whose fold of row i is ``(i + s) % n_splits``, ``s`` read from ``shift``: a
    scalar, a dict ``{"k": s}``, an array whose first entry is s, or one shift per row (then
    ``(i + shift[i]) % n_splits``). Records the ``shift`` each split receives."""

    received = []

    def __init__(self, n_splits=3):
        self.n_splits = n_splits

    def get_n_splits(self, X=None, y=None, groups=None, shift=None):
        return self.n_splits

    def split(self, X, y=None, groups=None, shift=None):
        type(self).received.append(shift)
        n = len(X)
        if isinstance(shift, dict):
            s = shift["k"]
        elif np.ndim(shift) and len(shift) == n:
            s = np.asarray(shift)
        else:
            s = int(np.ravel(shift)[0])
        folds = (np.arange(n) + s) % self.n_splits
        for k in range(self.n_splits):
            yield np.flatnonzero(folds != k), np.flatnonzero(folds == k)


def _data():
    rng = np.random.RandomState(0)
    X = rng.randn(N, 4)
    return X, (X[:, 0] + 0.8 * rng.randn(N) > 0).astype(int)


def _received(run):
    ShiftKFold.received = []
    result = run()
    return result, list(ShiftKFold.received)


@pytest.mark.parametrize(
    "shift",
    [
        1,
        {"k": 2},
        np.array([2]),
        np.arange(200) % 3,  # a lookup table longer than the data set: whole, not cut
        np.random.RandomState(1).randint(0, 3, N),  # one per row: indexed by the fold's rows
    ],
    ids=["scalar", "dict", "1-array", "table", "per row"],
)
def test_inner_split_metadata_reaches_the_splitter_as_in_scikit_learn(routing, shift):
    X, y = _data()
    inner = ShiftKFold(3).set_split_request(shift=True)
    outer = KFold(4, shuffle=True, random_state=1)
    ref, ref_got = _received(
        lambda: cross_validate(
            GridSearchCV(LogisticRegression(), GRID, cv=inner), X, y, cv=outer,
            params={"shift": shift}, return_estimator=True,
        )
    )  # fmt: skip
    ours, got = _received(
        lambda: nested_cross_validate(
            LogisticRegression(), X, y, param_grid=GRID, inner_cv=inner, cv=outer,
            params={"shift": shift}, n_refits=1, return_nested_info=True,
        )
    )  # fmt: skip
    assert len(got) == len(ref_got) == 4  # one split per outer fold
    for value, expected in zip(got, ref_got):
        if isinstance(expected, dict):
            assert value == expected
        else:
            np.testing.assert_array_equal(value, expected)
    assert ours["best_params"] == [est.best_params_ for est in ref["estimator"]]
    np.testing.assert_allclose(ours["test_score"], ref["test_score"])
