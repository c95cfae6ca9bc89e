"""NestedCV takes ``groups`` in its own fit (an int or None outer_cv or inner_cv splits by
them): with metadata routing on, its request for them is part of its routing, as for
scikit-learn's routers that consume metadata (``MetadataRouter.add_self_request``). Hunt PKL:
``set_fit_request(groups=True)`` was stored but not routed, so ``cross_validate`` never passed
the groups to ``NestedCV.fit``, whose outer and inner splits then mixed groups, silently."""

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.exceptions import UnsetMetadataPassedError
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    GridSearchCV,
    GroupKFold,
    StratifiedGroupKFold,
    StratifiedKFold,
    cross_validate,
)

from sklearn_fair import NestedCV

X, Y = make_classification(n_samples=120, n_features=5, random_state=0)
GROUPS = np.repeat(np.arange(24), 5)
GRID = {"C": [0.1, 1.0]}


def nested(**kwargs):
    options = dict(outer_cv=3, n_refits=1, random_state=0)
    return NestedCV(LogisticRegression(), GRID, **{**options, **kwargs})


def test_requested_groups_reach_fit_inside_cross_validate(routing):
    model = nested().set_fit_request(groups=True)
    result = cross_validate(
        model, X, Y, cv=GroupKFold(3), params={"groups": GROUPS},
        return_estimator=True, return_indices=True,
    )  # fmt: skip
    for fitted, rows in zip(result["estimator"], result["indices"]["train"]):
        groups = GROUPS[rows]  # NestedCV's rows are cross_validate's training rows
        # its outer folds are StratifiedGroupKFold(3) on the groups: scikit-learn's own
        expected = [test for _, test in StratifiedGroupKFold(3).split(X[rows], Y[rows], groups)]
        got = [fold["test_indices"] for fold in fitted.outer_results_]
        assert len(got) == len(expected)
        for got_test, test in zip(got, expected):
            np.testing.assert_array_equal(np.sort(got_test), np.sort(test))
        for fold in fitted.outer_results_:
            train, test = groups[fold["train_indices"]], groups[fold["test_indices"]]
            assert not set(train) & set(test)  # no group on both sides


def test_an_unset_request_refuses_the_groups(routing):
    # the groups were dropped, silently
    with pytest.raises(UnsetMetadataPassedError, match=r"\[groups\].*NestedCV\.fit"):
        cross_validate(nested(), X, Y, cv=GroupKFold(3), params={"groups": GROUPS})


def test_groups_not_requested_are_not_passed(routing):
    # set_fit_request(groups=False): as the user says, NestedCV splits without them
    model = nested().set_fit_request(groups=False)
    result = cross_validate(
        model, X, Y, cv=GroupKFold(3), params={"groups": GROUPS},
        return_estimator=True, return_indices=True,
    )  # fmt: skip
    fitted, rows = result["estimator"][0], result["indices"]["train"][0]
    expected = [test for _, test in StratifiedKFold(3).split(X[rows], Y[rows])]  # no groups
    got = [fold["test_indices"] for fold in fitted.outer_results_]
    assert len(got) == len(expected)
    for got_test, test in zip(got, expected):
        np.testing.assert_array_equal(np.sort(got_test), np.sort(test))


def test_the_default_request_is_scikit_learns(routing):
    # groups is a named parameter of fit: requested neither way until set_fit_request
    assert nested()._get_metadata_request().fit.requests == {"groups": None}
    assert nested().set_fit_request(groups="g")._get_metadata_request().fit.requests == {
        "groups": "g"
    }
    routing_ = nested().set_fit_request(groups=True).get_metadata_routing()
    assert routing_.consumes("fit", ["groups"]) == {"groups"}
    assert not nested().get_metadata_routing().consumes("fit", ["groups"])


@pytest.mark.parametrize(
    "model",
    [
        nested(outer_cv=StratifiedGroupKFold(3)),
        NestedCV(GridSearchCV(LogisticRegression(), GRID, cv=GroupKFold(3)), outer_cv=3,
                 n_refits=1, random_state=0),
    ],
    ids=["group outer_cv", "search splitting by groups"],
)  # fmt: skip
def test_groups_that_a_splitter_requests_still_reach_fit_unset(routing, model):
    # as before the request of fit itself was routed: they reach fit through the splitter
    result = cross_validate(
        model, X, Y, cv=GroupKFold(3), params={"groups": GROUPS},
        return_estimator=True, return_indices=True,
    )  # fmt: skip
    fitted, rows = result["estimator"][0], result["indices"]["train"][0]
    groups = GROUPS[rows]
    for fold in fitted.outer_results_:
        assert not set(groups[fold["train_indices"]]) & set(groups[fold["test_indices"]])
