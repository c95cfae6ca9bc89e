"""X and y as pandas objects whose indexes hold the same rows in different orders."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import RowOrderWarning

pd = pytest.importorskip("pandas")


def _data():
    X, y = make_classification(n_samples=60, random_state=0)
    X = pd.DataFrame(X, index=[f"r{i}" for i in range(60)])
    return X, pd.Series(y, index=X.index, name="y")


def _fit(X, y, groups=None):
    search = NestedCV(LogisticRegression(), {"C": [1.0]}, outer_cv=3, inner_cv=2, random_state=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        search.fit(X, y, groups=groups)
    return search, [str(w.message) for w in caught if w.category is RowOrderWarning]


def test_y_sorted_apart_from_x_warns_and_rows_are_paired_by_position():
    X, y = _data()
    shuffled = X.sample(frac=1, random_state=0)
    search, messages = _fit(shuffled, y)
    assert len(messages) == 1
    first = shuffled.index[0]
    assert f"(position 0: X's row '{first}', y's row 'r0')" in messages[0]
    assert "y.loc[X.index]" in messages[0] and "reset_index" not in messages[0]
    # paired by position, as scikit-learn pairs them (the same outer splits, by hand)
    reference = cross_val_score(
        GridSearchCV(LogisticRegression(), {"C": [1.0]}, cv=StratifiedKFold(2)),
        shuffled.to_numpy(),
        y.to_numpy(),
        cv=search.outer_cv_,
    )
    np.testing.assert_allclose(search.outer_scores_, reference)


@pytest.mark.parametrize("reset", ["X", "y"])
def test_the_fix_for_an_index_reset_after_a_shuffle_resets_the_other(reset):
    # the warning said y.reset_index(drop=True) whichever was reset: a no-op where y's was
    X, y = _data()
    X.index = y.index = range(60)
    order = np.random.default_rng(0).permutation(60)
    X, y = X.iloc[order], y.iloc[order]  # shuffled together: rows line up by position
    if reset == "X":
        X = X.reset_index(drop=True)
    else:
        y = y.reset_index(drop=True)
    _, messages = _fit(X, y)
    kept = "y" if reset == "X" else "X"
    assert f"reset {kept}'s too: {kept}.reset_index(drop=True)" in messages[0]
    fixed = {"X": X, "y": y, kept: {"X": X, "y": y}[kept].reset_index(drop=True)}
    assert _fit(fixed["X"], fixed["y"])[1] == []  # the fix silences it


def test_groups_in_another_order_warn_too():
    X, y = _data()
    groups = pd.Series(np.arange(60) % 6, index=X.index)[::-1]
    _, messages = _fit(X, y, groups=groups)
    assert len(messages) == 1 and messages[0].startswith("X and groups hold")


@pytest.mark.parametrize(
    "make_y",
    [
        lambda X, y: y,  # the same index
        lambda X, y: y.to_numpy(),  # no index
        lambda X, y: y.reset_index(drop=True),  # other labels: nothing to compare
    ],
)
def test_lined_up_or_unlabelled_rows_say_nothing(make_y):
    X, y = _data()
    _, messages = _fit(X, make_y(X, y))
    assert messages == []


def test_a_reversed_default_index_is_not_taken_for_one_reset():
    # y.iloc[::-1] has a RangeIndex(59, -1, -1): "reset X's too" was suggested, a no-op on X's
    # 0..59
    X, y = _data()
    X.index = y.index = range(60)
    _, messages = _fit(X, y.iloc[::-1])
    assert "if X's index was reset after a shuffle" in messages[0]
    assert "reset y's too: y.reset_index(drop=True)" in messages[0]
    assert _fit(X, y.iloc[::-1].reset_index(drop=True))[1] == []  # the fix given silences it
