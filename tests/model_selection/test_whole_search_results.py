"""A search that NestedCV runs whole (a halving search, a callable refit): its cv_results_
rows hold the search's own per-split scores, and a search that could score no candidate is no
selection (it picked one anyway, reported as tuned)."""

import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, make_scorer
from sklearn.model_selection import GridSearchCV, StratifiedKFold

from sklearn_fair import NestedCV

X, y = make_classification(300, 8, random_state=0, flip_y=0.15)
OUTER = StratifiedKFold(3, shuffle=True, random_state=1)
GRID = {"C": [0.001, 0.01, 0.1, 1]}


def _callable_refit(results):
    return int(np.nanargmax(np.nan_to_num(results["mean_test_score"], nan=-1)))


def test_cv_results_hold_the_searchs_own_split_scores():
    # they held each candidate's mean as its one split score: std_test_score 0 everywhere
    search = GridSearchCV(LogisticRegression(max_iter=500), GRID, cv=5, refit=_callable_refit)
    nested = NestedCV(search, outer_cv=OUTER, n_refits=1, random_state=0, refit=False).fit(X, y)
    train, _ = next(OUTER.split(X, y))
    reference = clone(search).fit(X[train], y[train]).cv_results_
    rows = nested.cv_results_["outer_fold"] == 0
    for key in [f"split{k}_test_score" for k in range(5)] + ["mean_test_score", "std_test_score"]:
        np.testing.assert_allclose(nested.cv_results_[key][rows], reference[key], rtol=1e-12)
    assert "split5_test_score" not in nested.cv_results_
    assert (nested.cv_results_["std_test_score"][rows] > 0).all()


def test_a_search_that_scored_no_candidate_selects_none():
    # a scorer undefined (NaN) on every validation split: scikit-learn's search ranks NaN last
    # and refits one candidate anyway, which NestedCV reported as tuned ([0.77, 0.88, 0.82])
    # where the same grid taken apart raises
    def accuracy_of_many(y_true, y_pred):
        return accuracy_score(y_true, y_pred) if len(y_true) >= 80 else np.nan

    search = GridSearchCV(LogisticRegression(max_iter=500), GRID, cv=5,
                          scoring=make_scorer(accuracy_of_many), refit=_callable_refit)  # fmt: skip
    nested = NestedCV(search, outer_cv=OUTER, n_refits=1, random_state=0, scoring="accuracy",
                      refit=False)  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match="every one of the 4 candidates of the search given"):
            nested.fit(X, y)
