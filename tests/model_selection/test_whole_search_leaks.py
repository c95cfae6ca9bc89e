"""A search that NestedCV runs whole (a halving search, which it cannot take apart) is checked
as one taken apart (hunt TIME): ``resampling_["inner"]`` names its cv and says what the
warnings found (TIME-1), and its cv's gap and the splitters and early stopping of its
estimator are checked under time-ordered or grouped outer splits (TIME-2).

The leaks asserted are checked independently: the search cv's splits of each outer training
fold, made with scikit-learn's splitters themselves."""

import warnings

import numpy as np
import pytest
from sklearn.experimental import enable_halving_search_cv  # noqa: F401
from sklearn.linear_model import Ridge, RidgeCV, SGDRegressor
from sklearn.model_selection import (
    GridSearchCV,
    GroupKFold,
    HalvingGridSearchCV,
    KFold,
    TimeSeriesSplit,
)

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import SplitLeakageWarning

_RNG = np.random.RandomState(0)
X120 = _RNG.randn(120, 3)
Y120 = X120[:, 0] + _RNG.randn(120)
G120 = _RNG.randint(0, 12, 120)
_RNG = np.random.RandomState(0)
X = _RNG.randn(200, 3)
Y = X[:, 0] + _RNG.randn(200)
GROUPS = _RNG.randint(0, 12, 200)


def _halving(estimator=None, grid=None, **kwargs):
    return HalvingGridSearchCV(
        Ridge() if estimator is None else estimator,
        {"alpha": [0.1, 10]} if grid is None else grid,
        factor=2,
        **kwargs,
    )


def _fit(search, outer, X=X, y=Y, **fit_params):
    """The fitted NestedCV and the messages of its SplitLeakageWarnings."""
    nested = NestedCV(search, outer_cv=outer, n_refits=1, random_state=0, refit=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nested.fit(X, y, **fit_params)
    leaks = [str(w.message) for w in caught if issubclass(w.category, SplitLeakageWarning)]
    return nested, leaks


def _inner_splits(outer, inner, X, y, groups=None):
    """The splits ``inner`` makes of each training fold of ``outer``, as absolute rows."""
    return [
        (train[tr], train[te])
        for train, _ in outer.split(X, y, groups)
        for tr, te in inner.split(X[train], y[train], None if groups is None else groups[train])
    ]


# -- TIME-1: the description names the search's cv and what the warnings found ----------------


def test_a_whole_search_ignoring_the_groups_is_described_as_one_taken_apart():
    splits = _inner_splits(GroupKFold(3), KFold(3), X120, Y120, G120)
    straddling = sum(bool(np.intersect1d(G120[tr], G120[te]).size) for tr, te in splits)
    assert straddling > 0  # the leak, seen with the splitter itself
    leaked = f"some on both sides of {straddling} of {len(splits)} splits"

    whole, leaks = _fit(_halving(cv=KFold(3)), 3, X120, Y120, groups=G120)
    apart, _ = _fit(GridSearchCV(Ridge(), {"alpha": [0.1, 10]}, cv=KFold(3)), 3, X120, Y120,
                    groups=G120)  # fmt: skip
    assert any("does not receive the groups" in m for m in leaks), leaks
    described = whole.resampling_["inner"]
    # before: "the search's own cv, run whole in each outer training fold", nothing else
    assert described.startswith(
        "3-fold KFold, ignoring the groups: the search's own cv, run whole"
    ), described
    assert f"the search's fit not receiving the groups, {leaked}" in described
    assert apart.resampling_["inner"].startswith(f"3-fold KFold, ignoring the groups ({leaked}")


def test_a_whole_search_not_in_time_order_is_described_as_one_taken_apart():
    outer = TimeSeriesSplit(3)
    splits = _inner_splits(outer, KFold(3), X120, Y120)
    late = sum(te.min() < tr.max() for tr, te in splits)
    assert late > 0
    said = (
        f"{late} of the {len(splits)} validating on rows before their training rows (model "
        "selection sees the future)"
    )

    whole, leaks = _fit(_halving(cv=KFold(3)), outer, X120, Y120)
    apart, _ = _fit(GridSearchCV(Ridge(), {"alpha": [0.1, 10]}, cv=KFold(3)), outer, X120, Y120)
    assert any("is not one sklearn-fair knows to be time-ordered" in m for m in leaks), leaks
    described = whole.resampling_["inner"]
    assert described.startswith("3-fold KFold: the search's own cv, run whole"), described
    assert f"not one sklearn-fair knows to be time-ordered, {said}" in described
    assert apart.resampling_["inner"].startswith(f"3-fold KFold, {said}")


def test_a_whole_search_that_keeps_the_structure_is_named_without_a_warning():
    whole, leaks = _fit(_halving(cv=GroupKFold(3)), 3, X120, Y120, groups=G120)
    assert leaks == []
    assert whole.resampling_["inner"] == (
        "3-fold GroupKFold on groups: the search's own cv, run whole in each outer training fold"
    )


# -- TIME-2: the gap of its cv, the splitters and early stopping of its estimator -------------


def test_a_whole_search_whose_cv_leaves_fewer_rows_out_than_the_outer_gap_warns():
    outer = TimeSeriesSplit(3, gap=5)
    splits = _inner_splits(outer, TimeSeriesSplit(2), X, Y)
    gaps = [te.min() - tr.max() - 1 for tr, te in splits]
    assert max(gaps) < 5  # narrower than the outer gap, in every split

    whole, leaks = _fit(_halving(cv=TimeSeriesSplit(2)), outer)
    assert any("leave 5 rows out" in m and "Give the search's cv" in m for m in leaks), leaks
    assert (
        f"{len(splits)} of the {len(splits)} inner splits" in whole.resampling_["inner"]
        and "than the outer gap of 5" in whole.resampling_["inner"]
    )
    # the search's cv given the outer gap: nothing to say
    kept, leaks = _fit(_halving(cv=TimeSeriesSplit(2, gap=5)), outer)
    assert leaks == []
    assert kept.resampling_["inner"] == (
        "2 splits of TimeSeriesSplit (gap=5): the search's own cv, run whole in each outer "
        "training fold"
    )


def _sgd(early_stopping=True):
    return SGDRegressor(early_stopping=early_stopping, validation_fraction=0.2, random_state=0)


SGD_GRID = {"alpha": [1e-4, 1e-2]}


@pytest.mark.parametrize(
    "cv, outer, fit_params",
    [(TimeSeriesSplit(2), TimeSeriesSplit(3), {}), (GroupKFold(2), 3, {"groups": GROUPS})],
    ids=["time-ordered", "grouped"],
)
def test_a_whole_search_whose_estimator_early_stops_on_its_own_hold_out_warns(
    cv, outer, fit_params
):
    def stopping(messages):
        return [m for m in messages if "early-stops on a hold-out of its own" in m]

    # the reference: the same search taken apart warns
    _, apart = _fit(GridSearchCV(_sgd(), SGD_GRID, cv=cv), outer, **fit_params)
    assert stopping(apart)
    whole, leaks = _fit(_halving(_sgd(), SGD_GRID, cv=cv), outer, **fit_params)
    assert stopping(leaks) and "estimator__early_stopping=True" in stopping(leaks)[0]
    assert "estimator__early_stopping=True" in whole.resampling_["inner"]
    # its early stopping off: none
    _, leaks = _fit(_halving(_sgd(False), SGD_GRID, cv=cv), outer, **fit_params)
    assert not stopping(leaks), leaks


def test_a_whole_search_whose_estimator_splits_by_itself_out_of_time_order_warns():
    grid = {"fit_intercept": [True, False]}
    outer = TimeSeriesSplit(3)

    def hidden(messages):
        return [m for m in messages if "splits its training rows by itself" in m]

    _, apart = _fit(GridSearchCV(RidgeCV(), grid, cv=TimeSeriesSplit(2)), outer)
    assert hidden(apart)  # the reference: taken apart, it warns
    whole, leaks = _fit(_halving(RidgeCV(), grid, cv=TimeSeriesSplit(2)), outer)
    assert hidden(leaks) and "estimator__cv=None" in hidden(leaks)[0]
    assert "estimator__cv=None" in whole.resampling_["inner"]
    # RidgeCV's own cv time-ordered: none
    ordered = RidgeCV(cv=TimeSeriesSplit(2))
    _, leaks = _fit(_halving(ordered, grid, cv=TimeSeriesSplit(2)), outer)
    assert not hidden(leaks), leaks
