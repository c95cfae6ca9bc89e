"""make_plan reuses an earlier plan's splits only where its own would be the same: the same
data, splitters, seeds, kind of estimator, search and early stopping, and splitters that split
the same way at every call (the dry run plans every model of a data set with one set of
splits)."""

import numpy as np
import pytest
import sklearn
from sklearn.datasets import load_iris
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import Ridge
from sklearn.model_selection import GridSearchCV, KFold, ShuffleSplit, TimeSeriesSplit
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV
from sklearn_fair.model_selection._nested._planning import make_plan

X, y = load_iris(return_X_y=True)
GROUPS = np.arange(len(y)) % 30


def plan(estimator, grid, earlier=(), X=X, y=y, groups=None, params=None, final=False,
         owner="NestedCV", routing=False, **protocol):  # fmt: skip
    nested = NestedCV(estimator, grid, **{"outer_cv": 3, "random_state": 0, **protocol})
    with sklearn.config_context(enable_metadata_routing=routing):
        return make_plan(nested, X, y, groups, params or {}, final=final, return_estimator=False,
                         owner=owner, earlier=earlier)  # fmt: skip


def splits_of(p):
    inner = [pair for fold in range(p.n_outer) for pair in p.inner_splits_of(fold)]
    return [a for pair in [*p.outer_splits, *inner] for a in pair]


@pytest.mark.parametrize(
    "protocol",
    [
        {},
        {"inner_cv": 2},
        {"outer_cv": KFold(3, shuffle=True, random_state=1), "inner_cv": 2},
        {"outer_cv": TimeSeriesSplit(3)},
    ],
    ids=["default hold-out", "k-fold", "seeded splitter", "splitter that draws nothing"],
)
def test_the_same_inputs_reuse_the_splits_that_a_fresh_plan_makes(protocol):
    first = plan(DecisionTreeClassifier(), {"max_depth": [1, 2]}, **protocol)
    second = plan(KNeighborsClassifier(), {"n_neighbors": [3, 5]}, [first], **protocol)
    assert second.inner_splits is first.inner_splits and second.outer_splits is first.outer_splits
    fresh = plan(KNeighborsClassifier(), {"n_neighbors": [3, 5]}, **protocol)
    assert second.inner_splits is not fresh.inner_splits
    for reused, made in zip(splits_of(second), splits_of(fresh), strict=True):
        np.testing.assert_array_equal(reused, made)
    assert second.data.rows.keys() == fresh.data.rows.keys()
    assert second.resampling == fresh.resampling


class MyKFold(KFold):
    """Another package's splitter: it may draw from numpy's global generator."""


UNSEEDED = KFold(3, shuffle=True)
DRAWING = KFold(3, shuffle=True, random_state=np.random.RandomState(0))
DIFFERENT = {
    # a regressor: KFold where a classifier stratifies
    "another kind of estimator": dict(estimator=Ridge(), grid={"alpha": [1.0]}),
    "a splitter without a seed": dict(outer_cv=UNSEEDED, both=True),
    "a splitter drawing from a RandomState": dict(outer_cv=DRAWING, both=True),
    "a run without a seed": dict(random_state=None, both=True),
    "another package's splitter": dict(outer_cv=MyKFold(3), both=True),
    "another seed": dict(random_state=1),
    "another inner splitter": dict(inner_cv=ShuffleSplit(2, random_state=0)),
    "other data": dict(X=X.copy()),
    "other labels": dict(y=y.copy()),
    "another outer splitter": dict(outer_cv=KFold(3, shuffle=True, random_state=0)),
    "a final selection": dict(final=True),
    "another owner": dict(owner="benchmark"),  # whose warnings name it
    "metadata routing": dict(routing=True),
    "groups": dict(groups=GROUPS),
    "fit parameters": dict(params={"sample_weight": np.ones(len(y))}, both=True),
    "a search with its own cv": dict(
        estimator=GridSearchCV(KNeighborsClassifier(), {"n_neighbors": [3, 5]}), grid=None
    ),
    # a callable refit: the search runs whole, and makes no inner splits
    "a search run whole": dict(
        estimator=GridSearchCV(KNeighborsClassifier(), {"n_neighbors": [3, 5]}, refit=lambda r: 0),
        grid=None,
    ),
    # its refits early-stop on hold-outs that the others have not
    "early stopping": dict(
        estimator=HistGradientBoostingClassifier(early_stopping=True), grid={"max_iter": [5]}
    ),
}


@pytest.mark.filterwarnings("ignore:The 'outer_cv' of NestedCV shuffles without a seed")
@pytest.mark.parametrize("change", sorted(DIFFERENT))
def test_other_inputs_make_their_own_splits(change):
    change = dict(DIFFERENT[change])
    both = change.pop("both", False)  # the change is made to the first plan too
    estimator = change.pop("estimator", KNeighborsClassifier())
    grid = change.pop("grid", {"n_neighbors": [3, 5]})
    first = plan(DecisionTreeClassifier(), {"max_depth": [1, 2]}, **(change if both else {}))
    second = plan(estimator, grid, [first], **change)
    assert second.outer_splits is not first.outer_splits
    assert second.inner_splits is not first.inner_splits
