"""Each outer fold decides for itself whether a seed changes its model (hunt ORDER-1).

Whether a seed changes a model depends on the rows it trains on, not only on its
hyper-parameters: a tree breaks ties between equally good features by its ``random_state``,
and one fold's training rows may hold a tie where another's do not. Fold 0's two refits
agreeing once cut every fold that selected the same hyper-parameters to one refit, so the
score of a fold with a tie was that of one seed, and changed with the order of the folds.
"""

import numpy as np
import pytest
from sklearn.linear_model import Ridge
from sklearn.model_selection import GridSearchCV, KFold, cross_validate
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV

pytestmark = pytest.mark.filterwarnings("ignore")

rng = np.random.default_rng(0)
a = rng.normal(size=90)
y = (a > 0).astype(int)
b = a.copy()
TIE = np.arange(60, 90)  # the rows of the last fold of KFold(3)
b[TIE] = -b[TIE]  # b separates the classes as a does, but on the last fold's rows
X = np.column_stack([a, b, rng.normal(size=(90, 2))])
SPLITS = list(KFold(3).split(X))


def _by_hand(params, seeds, train, test):
    """scikit-learn's tree with each seed, fitted and scored by hand on one outer fold."""
    return [
        DecisionTreeClassifier(max_depth=1, random_state=seed, **params)
        .fit(X[train], y[train])
        .score(X[test], y[test])
        for seed in seeds
    ]


@pytest.mark.parametrize("order", ["forward", "reversed"])
def test_the_score_of_a_fold_whose_seed_matters_is_the_mean_over_every_seed(order):
    # fold 0's seeds agree; the tie fold's do not (its seeds score 0, 1 and 1): forward, the
    # tie fold was trained once, with the first seed, and scored 0.0, where reversed it scored
    # 0.667 (the first fold of the run then being the tie fold)
    splits = SPLITS if order == "forward" else SPLITS[::-1]
    nested = NestedCV(
        DecisionTreeClassifier(max_depth=1),
        {"min_samples_leaf": [1, 2]},
        outer_cv=splits,
        inner_cv=3,
        n_refits=3,
        random_state=0,
    ).fit(X, y)
    seeds = nested.refit_seeds_
    assert len(seeds) == 3
    hand = [
        _by_hand(nested.best_params_per_fold_[k], seeds, *split) for k, split in enumerate(splits)
    ]
    np.testing.assert_allclose(nested.outer_scores_, np.mean(hand, axis=1))
    for k, (_, test) in enumerate(splits):
        ran = nested.outer_results_[k]["refit_seeds"]
        if np.array_equal(test, TIE):
            assert len(set(hand[k])) > 1  # its seeds disagree: every seed is trained
            assert ran == seeds
        else:  # its first two seeds agree: they are kept, the others not trained
            assert len(set(hand[k])) == 1
            assert ran == seeds[:2]


def test_a_deterministic_estimator_still_saves_seeds():
    # Ridge's random_state is left unset but its solver ignores it: each fold trains its two
    # refits, which agree, and no third; their scores are those of scikit-learn's own nested
    # CV with one refit
    X_r = X[:, [0, 2, 3]]
    y_r = a + 0.5 * X_r[:, 1]
    grid = {"alpha": [0.1, 10.0]}
    nested = NestedCV(Ridge(), grid, outer_cv=KFold(3), inner_cv=3, n_refits=3, random_state=0).fit(
        X_r, y_r
    )
    theirs = cross_validate(GridSearchCV(Ridge(), grid, cv=3), X_r, y_r, cv=KFold(3))
    assert [len(f["refit_seeds"]) for f in nested.outer_results_] == [2, 2, 2]
    for fold, score in zip(nested.outer_results_, theirs["test_score"]):
        np.testing.assert_allclose(fold["test_scores"], [score, score])
    np.testing.assert_allclose(nested.outer_scores_, theirs["test_score"])
