"""Several random_state parameters left unset get distinct seeds: each one got the task's seed,
so a VotingClassifier of two forests was one forest twice (its outer scores those of one)."""

import warnings

import numpy as np
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier, VotingClassifier

from sklearn_fair import NestedCV

X, y = make_classification(300, 8, random_state=0)


def test_two_forests_of_a_vote_are_two_models():
    vote = VotingClassifier(
        [
            ("a", RandomForestClassifier(n_estimators=3)),
            ("b", RandomForestClassifier(n_estimators=3)),
        ],
        voting="soft",
    )
    forest = RandomForestClassifier(n_estimators=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        voted = NestedCV(vote, {"weights": [None, [1, 2]]}, outer_cv=3, n_refits=1,
                         random_state=0).fit(X, y)  # fmt: skip
        alone = NestedCV(forest, {"max_depth": [None, 8]}, outer_cv=3, n_refits=1,
                         random_state=0).fit(X, y)  # fmt: skip
    first, second = voted.best_estimator_.estimators_
    assert first.random_state != second.random_state
    # the first by name keeps the task's seed, as a model with one such parameter has it
    assert first.random_state == alone.best_estimator_.random_state
    assert not np.array_equal(first.predict_proba(X), second.predict_proba(X))


def test_members_given_in_a_searchs_grid_get_seeds_of_their_own():
    # a search run whole gets its grid's estimators seeded as copies: the members of a
    # (name, estimator) list all got the one seed (review_28)
    from sklearn_fair.model_selection._nested._seeds import _seeded_copy

    members = [("a", RandomForestClassifier()), ("b", RandomForestClassifier())]
    seeded = _seeded_copy(members, 123)
    assert [name for name, _ in seeded] == ["a", "b"]
    assert seeded[0][1].random_state == 123  # the first keeps the seed, as a lone model
    assert seeded[1][1].random_state not in (123, None)
    assert [m.random_state for _, m in members] == [None, None]  # the user's left as given
    given = [("a", RandomForestClassifier(random_state=1)), ("b", RandomForestClassifier())]
    assert _seeded_copy(given, 123)[0] is given[0]
