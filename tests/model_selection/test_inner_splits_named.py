"""What NestedCV says of inner splits it cannot use and of groups its outer splitter ignores
(hunt LEAKAGE, LEAKAGE-3 and LEAKAGE-4)."""

import warnings

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, KFold

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import GroupLeakageWarning, InvalidSplitError

GIVEN = [(np.arange(40), np.arange(40, 50))]  # positions of the 50 samples, not of a fold


def _data():
    rng = np.random.default_rng(0)
    return rng.normal(size=(50, 3)), np.tile([0, 1], 25)


@pytest.mark.parametrize("through", ["search", "inner_cv"])
def test_given_inner_splits_out_of_range_name_where_they_came_from(through):
    # LEAKAGE-4: the cv of a search given as the estimator was blamed on inner_cv, and the
    # message did not say that the indices are positions within each outer training fold
    X, y = _data()
    if through == "search":
        model = GridSearchCV(LogisticRegression(), {"C": [0.1, 1]}, cv=GIVEN)
        nested = NestedCV(model, outer_cv=5, n_refits=1, random_state=0)
    else:
        grid = {"C": [0.1, 1]}
        nested = NestedCV(LogisticRegression(), grid, outer_cv=5, inner_cv=GIVEN, n_refits=1)
    with pytest.raises(InvalidSplitError) as caught:
        nested.fit(X, y)
    message = str(caught.value)
    assert not message.startswith("Fold 0 of inner_cv in")
    assert "the cv of the search given as the estimator" in message
    # by hand: a stratified 5-fold split of 50 samples trains on 40
    assert "positions within each outer training fold" in message
    assert message.endswith("outer training fold 0 has 40 rows.")


def test_groups_an_outer_splitter_ignores_may_inflate_the_scores():
    # LEAKAGE-3: "so the scores are optimistic", also for groups that share no signal
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(60, 3)), rng.integers(0, 2, 60)
    nested = NestedCV(LogisticRegression(), {"C": [0.1, 1]}, outer_cv=KFold(5))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nested.fit(X, y, groups=np.repeat(np.arange(12), 5))
    (message,) = [str(w.message) for w in caught if w.category is GroupLeakageWarning]
    assert "so the scores may be optimistic" in message
    assert "scores are optimistic" not in message
