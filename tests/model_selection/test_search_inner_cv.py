"""An ``inner_cv`` given with a search as the estimator (hunt SEAM): it replaces the search's
own cv, taken apart or run whole, and says so; an int made a group splitter with groups, as
for a search taken apart, so that a search run whole never validates on groups it trained
on; the description names the cv that split.

Every fit records its training rows (column 0 holds each row's index), and every prediction
the rows it predicts: the splits used are compared with those scikit-learn's splitters make
on each outer training fold."""

import warnings
from collections import Counter

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.experimental import enable_halving_search_cv  # noqa: F401
from sklearn.model_selection import (
    GridSearchCV,
    GroupKFold,
    HalvingGridSearchCV,
    KFold,
    StratifiedGroupKFold,
    StratifiedKFold,
    TimeSeriesSplit,
)
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV, benchmark
from sklearn_fair.exceptions import SklearnFairWarning, SplitLeakageWarning

FEATURES, Y = make_classification(n_samples=120, n_features=4, random_state=0)
X = np.c_[np.arange(120), FEATURES]  # column 0: the row's index
# 12 groups of 10 rows, in a shuffled order: a k-fold on row order cuts through them
GROUPS = np.random.default_rng(0).permutation(np.repeat(np.arange(12), 10))
GRID = {"max_depth": [1, 2]}

FITTED = []  # the training rows of every fit
OVERLAPS = []  # per prediction: the groups it shares with the rows its model trained on


class Recorder(DecisionTreeClassifier):
    """A tree that records the rows it trains on and the groups each prediction shares with
    them."""

    def fit(self, X, y, sample_weight=None, check_input=True):
        rows = np.asarray(X)[:, 0].astype(int)
        FITTED.append(rows)
        self.trained_groups_ = set(GROUPS[rows])
        return super().fit(X, y, sample_weight=sample_weight, check_input=check_input)

    def predict(self, X):
        OVERLAPS.append(self.trained_groups_ & set(GROUPS[np.asarray(X)[:, 0].astype(int)]))
        return super().predict(X)


def _first_best(results):
    return int(np.argmax(results["mean_test_score"]))


def _fit(nested, **fit_params):
    FITTED.clear()
    OVERLAPS.clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nested.fit(X, Y, **fit_params)
    return caught


def _selection_fits(outer_trains):
    """The training rows of the fits smaller than an outer training fold (the selection's)."""
    smallest = min(len(train) for train in outer_trains)
    return Counter(frozenset(rows) for rows in FITTED if len(rows) < smallest)


def test_a_search_run_whole_splits_an_int_inner_cv_by_the_groups():
    # a callable refit runs the search whole; before, it got inner_cv=3 as it was, and split
    # with StratifiedKFold(3): its fits validated on rows of groups they trained on, without
    # a SplitLeakageWarning, and resampling_ said "the search's own cv"
    search = GridSearchCV(Recorder(random_state=0), GRID, cv=GroupKFold(3), refit=_first_best)
    nested = NestedCV(
        search, outer_cv=GroupKFold(3), inner_cv=3, n_refits=1, refit=False, random_state=0
    )
    caught = _fit(nested, groups=GROUPS)
    assert not [w for w in caught if issubclass(w.category, SplitLeakageWarning)]
    assert OVERLAPS and all(not shared for shared in OVERLAPS)
    # the splits scikit-learn's StratifiedGroupKFold(3) makes of each outer training fold,
    # once per candidate, and the search's own refit on the whole fold
    outer_trains = [train for train, _ in GroupKFold(3).split(X, Y, GROUPS)]
    expected = Counter(
        frozenset(train[inner])
        for train in outer_trains
        for inner, _ in StratifiedGroupKFold(3).split(X[train], Y[train], GROUPS[train])
        for _ in GRID["max_depth"]
    )
    assert _selection_fits(outer_trains) == expected
    assert nested.resampling_["inner"].startswith(
        "3-fold StratifiedGroupKFold (cv=3 with groups) on groups: inner_cv in place of the "
        "search's own cv, run by the search in each outer training fold"
    )


def test_a_halving_search_with_an_int_inner_cv_never_validates_on_its_training_groups():
    search = HalvingGridSearchCV(
        Recorder(random_state=0), {"max_depth": [1, 2, 3, 4]}, cv=GroupKFold(3), factor=2,
        random_state=0, return_train_score=False,  # scores only its validation rows
    )  # fmt: skip
    nested = NestedCV(
        search, outer_cv=GroupKFold(3), inner_cv=3, n_refits=1, refit=False, random_state=0
    )
    caught = _fit(nested, groups=GROUPS)
    assert not [w for w in caught if issubclass(w.category, SplitLeakageWarning)]
    assert len(OVERLAPS) > 3 and all(not shared for shared in OVERLAPS)
    assert "StratifiedGroupKFold" in nested.resampling_["inner"]


def test_a_search_run_whole_warns_where_inner_cv_ignores_the_groups():
    # inner_cv=KFold(3) replaces the search's GroupKFold: the search's validation folds hold
    # groups it trained on, where the check looked at its own cv and said nothing
    search = GridSearchCV(Recorder(random_state=0), GRID, cv=GroupKFold(3), refit=_first_best)
    nested = NestedCV(
        search, outer_cv=GroupKFold(3), inner_cv=KFold(3), n_refits=1, refit=False,
        random_state=0,
    )  # fmt: skip
    caught = _fit(nested, groups=GROUPS)
    leaks = [str(w.message) for w in caught if issubclass(w.category, SplitLeakageWarning)]
    assert len(leaks) == 1 and "inner_cv=KFold(n_splits=3" in leaks[0]
    assert any(shared for shared in OVERLAPS)  # it does validate on groups it trained on
    assert nested.resampling_["inner"].startswith("3-fold KFold, ignoring the groups: inner_cv")


@pytest.mark.parametrize("whole", [False, True], ids=["taken-apart", "run-whole"])
def test_an_inner_cv_that_replaces_the_search_cv_is_said_and_used(whole):
    # before, inner_cv=3 silently replaced cv=KFold(2): the docs said the search keeps its cv
    search = GridSearchCV(
        Recorder(random_state=0), GRID, cv=KFold(2), refit=_first_best if whole else True
    )
    nested = NestedCV(search, outer_cv=3, inner_cv=3, n_refits=1, refit=False, random_state=0)
    caught = _fit(nested)
    said = [str(w.message) for w in caught if issubclass(w.category, SklearnFairWarning)]
    assert said == [
        "NestedCV got a GridSearchCV with its own cv=KFold(n_splits=2, random_state=None, "
        "shuffle=False) and inner_cv=3: the inner model selection splits with inner_cv, and "
        "the search's cv is not used. Pass inner_cv=None to keep the search's cv."
    ]
    # the inner fits are those of StratifiedKFold(3) (check_cv's for an int), not KFold(2)'s
    _assert_inner_fits_of_stratified_3_fold()
    assert "3-fold StratifiedKFold" in nested.resampling_["inner"]


@pytest.mark.parametrize(
    "search_cv, inner_cv", [(None, 3), (3, 3), (KFold(2), KFold(2)), (KFold(2), None)]
)
def test_no_word_where_the_search_cv_is_unset_or_the_same(search_cv, inner_cv):
    search = GridSearchCV(Recorder(random_state=0), GRID, cv=search_cv)
    nested = NestedCV(
        search, outer_cv=3, inner_cv=inner_cv, n_refits=1, refit=False, random_state=0
    )
    caught = _fit(nested)
    assert not [w for w in caught if "the search's cv is not used" in str(w.message)]


def test_benchmark_inner_cv_replaces_a_search_cv_with_the_warning():
    search = GridSearchCV(Recorder(random_state=0), GRID, cv=KFold(2))
    FITTED.clear()
    with pytest.warns(SklearnFairWarning, match=r"cv=KFold\(n_splits=2.*inner_cv=3"):
        benchmark({"search": search}, {"d": (X, Y)}, outer_cv=3, inner_cv=3, n_refits=1,
                  random_state=0)  # fmt: skip
    _assert_inner_fits_of_stratified_3_fold()


def test_a_search_run_whole_under_time_ordered_splits_is_told_to_fix_the_inner_cv_it_got():
    # the warning looks at the cv the search splits with, inner_cv's in place of its own:
    # its advice names inner_cv, where "give the search a time-ordered cv" would change nothing
    search = GridSearchCV(Recorder(random_state=0), GRID, cv=TimeSeriesSplit(3), refit=_first_best)
    nested = NestedCV(search, outer_cv=TimeSeriesSplit(3), inner_cv=KFold(3), n_refits=1,
                      refit=False, random_state=0)  # fmt: skip
    leaks = [str(w.message) for w in _fit(nested) if issubclass(w.category, SplitLeakageWarning)]
    assert any("Give inner_cv, which replaced the search's own cv" in m for m in leaks), leaks


def test_a_halving_search_left_at_its_default_cv_is_not_said_to_lose_it():
    # hunt FP2: HalvingGridSearchCV's default is cv=5, not None: it read as the user's choice
    search = HalvingGridSearchCV(Recorder(random_state=0), GRID, random_state=0)
    nested = NestedCV(search, outer_cv=KFold(3), inner_cv=3, n_refits=1, refit=False,
                      random_state=0)  # fmt: skip
    said = [str(w.message) for w in _fit(nested) if "its own cv" in str(w.message)]
    assert said == []
    # set to another value than inner_cv's, it is said
    search.set_params(cv=KFold(2))
    said = [str(w.message) for w in _fit(nested) if "its own cv" in str(w.message)]
    assert len(said) == 1


def _assert_inner_fits_of_stratified_3_fold():
    """The selection fits were those of StratifiedKFold(3) (check_cv's for an int) in each
    outer training fold of StratifiedKFold(3), one per candidate."""
    outer_trains = [train for train, _ in StratifiedKFold(3).split(X, Y)]
    expected = Counter(
        frozenset(train[inner])
        for train in outer_trains
        for inner, _ in StratifiedKFold(3).split(X[train], Y[train])
        for _ in GRID["max_depth"]
    )
    assert _selection_fits(outer_trains) == expected
