"""Groups are kept apart by every split the protocol makes (issue 33.1): an int ``outer_cv`` or
``inner_cv`` becomes a group k-fold when groups are given, in NestedCV, the functions and
benchmark; a splitter that ignores the groups gets our warning, with the leak counted."""

import warnings

import numpy as np
import pytest
import sklearn
from sklearn.datasets import make_classification, make_regression
from sklearn.linear_model import LogisticRegression, LogisticRegressionCV, Ridge
from sklearn.model_selection import (
    GridSearchCV,
    GroupKFold,
    KFold,
    LeaveOneGroupOut,
    StratifiedGroupKFold,
    StratifiedKFold,
    TunedThresholdClassifierCV,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV, benchmark, nested_cross_val_score, nested_cross_validate
from sklearn_fair.exceptions import GroupLeakageWarning, SplitLeakageWarning
from sklearn_fair.model_selection._nested._planning import make_plan

pd = pytest.importorskip("pandas")

X_ARRAY, Y = make_classification(n_samples=120, n_features=5, n_informative=3, random_state=0)
X = pd.DataFrame(X_ARRAY, columns=[f"f{i}" for i in range(5)])
# 24 patients of 5 rows each, in a shuffled order: a k-fold on row order cuts through them
PATIENTS = pd.Series(
    np.random.default_rng(0).permutation(np.repeat([f"p{i:02d}" for i in range(24)], 5)),
    name="patient",
)
GRID = {"C": [0.1, 1.0]}  # two values: no edge-of-grid warning


def _straddling(splits, groups=PATIENTS):
    """Per split, the number of groups on both sides."""
    groups = np.asarray(groups)
    return [np.intersect1d(groups[train], groups[test]).size for train, test in splits]


def _outer_splits(nested):
    return [(f["train_indices"], f["test_indices"]) for f in nested.outer_results_]


def test_nestedcv_int_outer_cv_keeps_patients_apart_outside_and_inside():
    nested = NestedCV(
        LogisticRegression(), GRID, outer_cv=5, n_refits=1, refit=False, random_state=0
    ).fit(X, Y, groups=PATIENTS)
    assert _straddling(_outer_splits(nested)) == [0] * 5
    # sklearn's StratifiedGroupKFold makes them: the same test folds, the independent reference
    expected = [test for _, test in StratifiedGroupKFold(5).split(X, Y, PATIENTS)]
    for fold, test in zip(nested.outer_results_, expected):
        np.testing.assert_array_equal(fold["test_indices"], test)
    assert isinstance(nested.outer_cv_, StratifiedGroupKFold) and nested.outer_cv_.n_splits == 5
    assert nested.resampling_["outer"].startswith("5-fold StratifiedGroupKFold (cv=5 with groups)")
    assert "on groups (no group on both sides)" in nested.resampling_["outer"]
    assert "hold-out" in nested.resampling_["inner"]
    assert "on groups" in nested.resampling_["inner"]


@pytest.mark.parametrize("inner_cv", [None, 3, GridSearchCV])
def test_inner_splits_keep_patients_apart(inner_cv):
    if inner_cv is GridSearchCV:  # a search's own cv (None: 5-fold) becomes a group k-fold too
        nested = NestedCV(GridSearchCV(LogisticRegression(), GRID), outer_cv=4)
    else:
        nested = NestedCV(LogisticRegression(), GRID, outer_cv=4, inner_cv=inner_cv)
    plan = make_plan(nested, X, Y, PATIENTS, {}, final=True, return_estimator=False, owner="t")
    inner = [split for splits in plan.inner_splits.values() for split in splits]
    assert len(inner) == 5 * (1 if inner_cv is None else 3 if inner_cv == 3 else 5)
    assert _straddling(inner) == [0] * len(inner)


def test_regressor_gets_group_kfold():
    X_reg, y_reg = make_regression(n_samples=120, n_features=4, random_state=0)
    nested = NestedCV(Ridge(), {"alpha": [0.1, 10.0]}, outer_cv=4, n_refits=1, refit=False)
    nested.fit(X_reg, pd.Series(y_reg), groups=PATIENTS)
    assert type(nested.outer_cv_) is GroupKFold
    assert _straddling(_outer_splits(nested)) == [0] * 4
    expected = [test for _, test in GroupKFold(4).split(X_reg, y_reg, PATIENTS)]
    for fold, test in zip(nested.outer_results_, expected):
        np.testing.assert_array_equal(fold["test_indices"], test)


def test_functions_default_cv_keeps_patients_apart():
    results = nested_cross_validate(
        LogisticRegression(), X, Y, groups=PATIENTS, param_grid=GRID, n_refits=1,
        return_indices=True,
    )  # fmt: skip
    splits = list(zip(results["indices"]["train"], results["indices"]["test"]))
    assert len(splits) == 5 and _straddling(splits) == [0] * 5
    expected = [test for _, test in StratifiedGroupKFold(5).split(X, Y, PATIENTS)]
    for test, reference in zip(results["indices"]["test"], expected):
        np.testing.assert_array_equal(test, reference)
    # nested_cross_val_score: the same folds, so the same scores
    scores = nested_cross_val_score(
        LogisticRegression(), X, Y, groups=PATIENTS, param_grid=GRID, n_refits=1
    )
    np.testing.assert_array_equal(scores, results["test_score"])


def test_benchmark_keeps_patients_apart_with_a_dataframe_and_series_groups():
    result = benchmark(
        {"tree": (DecisionTreeClassifier(random_state=0), {"max_depth": [1, 3]}),
         "logistic": (LogisticRegression(), GRID)},
        {"patients": (X, pd.Series(Y), PATIENTS)},
        outer_cv=4, n_refits=1, random_state=0,
    )  # fmt: skip
    for nested in result.estimators.values():
        assert type(nested.outer_cv_) is StratifiedGroupKFold
        assert _straddling(_outer_splits(nested)) == [0] * 4


def test_a_splitter_that_ignores_the_groups_is_named_with_the_leak():
    splits = list(KFold(5).split(X))
    shared = [set(PATIENTS[train]) & set(PATIENTS[test]) for train, test in splits]
    n_groups = len(set().union(*shared))
    n_splits = sum(1 for s in shared if s)
    assert n_splits == 5  # the data are made so: every fold straddles
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nested = NestedCV(LogisticRegression(), GRID, outer_cv=KFold(5), n_refits=1, refit=False)
        nested.fit(X, Y, groups=PATIENTS)
    ours = [w for w in caught if issubclass(w.category, GroupLeakageWarning)]
    assert len(ours) == 1
    message = str(ours[0].message)
    assert f"{n_groups} of the 24 groups are on both sides of {n_splits} of the 5" in message
    assert "KFold(" in message and "GroupKFold" in message
    # scikit-learn's generic "groups parameter is ignored" is not repeated beside ours
    assert not [w for w in caught if "groups parameter is ignored" in str(w.message)]
    assert "ignoring the groups" in nested.resampling_["outer"]
    with pytest.warns(GroupLeakageWarning, match="on both sides of 5 of the 5 outer splits"):
        nested_cross_val_score(
            LogisticRegression(), X, Y, groups=PATIENTS, cv=StratifiedKFold(5), n_refits=1
        )


def test_a_group_splitter_passed_is_not_warned_about():
    with warnings.catch_warnings():
        warnings.simplefilter("error", SplitLeakageWarning)
        nested_cross_val_score(
            LogisticRegression(), X, Y, groups=PATIENTS, cv=GroupKFold(3), param_grid=GRID,
            n_refits=1,
        )  # fmt: skip


def test_without_groups_an_int_stays_scikit_learns_kfold():
    nested = NestedCV(LogisticRegression(), outer_cv=5, n_refits=1, refit=False).fit(X, Y)
    assert type(nested.outer_cv_) is StratifiedKFold
    assert nested.resampling_["outer"] == "5-fold StratifiedKFold"


def test_a_search_run_whole_is_said_to_get_no_groups():
    from sklearn.experimental import enable_halving_search_cv  # noqa: F401
    from sklearn.model_selection import HalvingGridSearchCV

    search = HalvingGridSearchCV(LogisticRegression(), GRID, cv=3, random_state=0)
    with pytest.warns(SplitLeakageWarning, match="does not receive the groups"):
        nested_cross_val_score(search, X, Y, groups=PATIENTS, cv=3, n_refits=1)


def test_a_search_run_whole_given_the_groups_is_warned_only_where_its_cv_ignores_them():
    # groups given in params reach the search's fit: a GroupKFold in it keeps them apart, and
    # the warning that "its fit does not receive the groups" was wrong; with cv=3 it receives
    # them and ignores them, which the warning now says
    from sklearn.experimental import enable_halving_search_cv  # noqa: F401
    from sklearn.model_selection import HalvingGridSearchCV

    class TakesGroups(LogisticRegression):  # a user's model whose fit takes the groups
        def fit(self, X, y, groups=None):
            return super().fit(X, y)

    given = {"groups": PATIENTS, "params": {"groups": PATIENTS}, "cv": 3, "n_refits": 1}
    search = HalvingGridSearchCV(TakesGroups(), GRID, cv=GroupKFold(3), random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", SplitLeakageWarning)
        nested_cross_val_score(search, X, Y, **given)
    search.set_params(cv=3)
    with pytest.warns(SplitLeakageWarning, match="its cv=3 does not split by the groups"):
        nested_cross_val_score(search, X, Y, **given)


def test_a_search_run_whole_that_splits_by_groups_gets_those_of_fit_and_of_a_benchmark():
    # without routing, NestedCV.fit(groups=g) and benchmark((X, y, g)) gave a search run whole
    # no groups ("The 'groups' parameter should not be None" in every fit), where
    # cross_validate(search, groups=g, params={"groups": g}) gives them (fit cannot take both)
    from sklearn.experimental import enable_halving_search_cv  # noqa: F401
    from sklearn.model_selection import HalvingGridSearchCV, cross_validate

    search = HalvingGridSearchCV(LogisticRegression(), GRID, cv=GroupKFold(3), random_state=0)
    reference = cross_validate(
        search, X, Y, cv=GroupKFold(3), groups=PATIENTS, params={"groups": PATIENTS}
    )["test_score"]
    nested = NestedCV(search, outer_cv=GroupKFold(3), n_refits=1, refit=False, random_state=0)
    np.testing.assert_allclose(nested.fit(X, Y, groups=PATIENTS).outer_scores_, reference)
    result = benchmark(
        {"halving": search}, {"d": (X, Y, PATIENTS)}, outer_cv=GroupKFold(3), n_refits=1
    )
    np.testing.assert_allclose(result.cells["d", "halving"].scores, reference)


def test_the_groups_on_both_sides_of_each_outer_split_are_found_once(monkeypatch):
    # one intersection per outer split serves the leak warning, the inner-leak check and the
    # description (a splitter given for each, so that all three look at the outer splits)
    from sklearn_fair.model_selection._nested import _resampling

    calls = []
    original = _resampling._straddling

    def counting(splits, groups):
        calls.append(splits)
        return original(splits, groups)

    monkeypatch.setattr(_resampling, "_straddling", counting)
    nested = NestedCV(
        LogisticRegression(), GRID, outer_cv=GroupKFold(4), inner_cv=KFold(3), n_refits=1,
        refit=False, random_state=0,
    )  # fmt: skip
    with pytest.warns(SplitLeakageWarning):  # the inner KFold cuts through patients
        nested.fit(X, Y, groups=PATIENTS)
    outer = _outer_splits(nested)

    def is_outer(splits):
        return len(splits) == len(outer) and all(
            np.array_equal(test, expected) for (_, test), (_, expected) in zip(splits, outer)
        )

    assert sum(is_outer(splits) for splits in calls) == 1


@pytest.mark.parametrize(
    "n_groups, words, folds",
    [
        (7, "outer fold(s) 1, 2 and the final selection", [1, 2, None]),
        (9, "the final selection", [None]),
        (10, "outer fold(s) 1, 2", [1, 2]),
    ],
)
def test_inner_groups_on_both_sides_are_said_over_every_fold_as_the_warning_does(
    n_groups, words, folds
):
    # groups of 6 rows in row order, a GroupKFold(3) outside and a KFold(2) inside that ignores
    # them: whether it cuts through a group depends on the fold; outer fold 0's inner splits
    # are clean, so they cannot speak for the others
    groups = np.repeat(np.arange(n_groups), 6)
    X_g, y_g = make_classification(n_samples=groups.size, n_features=4, random_state=0)
    # the reference: scikit-learn's splits, intersected here (fold None: all the data)
    trains = dict(enumerate(train for train, _ in GroupKFold(3).split(X_g, y_g, groups)))
    trains[None] = np.arange(groups.size)
    per_fold = {
        fold: sum(
            np.intersect1d(groups[train[tr]], groups[train[te]]).size > 0
            for tr, te in KFold(2).split(train)
        )
        for fold, train in trains.items()
    }
    assert [fold for fold, n in per_fold.items() if n] == folds and per_fold[0] == 0
    n_leaking = sum(per_fold.values())
    nested = NestedCV(
        LogisticRegression(), GRID, outer_cv=GroupKFold(3), inner_cv=KFold(2), n_refits=1,
        random_state=0,
    )  # fmt: skip
    with pytest.warns(SplitLeakageWarning) as caught:
        nested.fit(X_g, y_g, groups=groups)
    # the words and the warning name the same folds, and count the same splits
    assert nested.resampling_["inner"] == (
        f"2-fold KFold, ignoring the groups (some on both sides of {n_leaking} of 8 splits, "
        f"in {words}), in each outer training fold"
    )
    warned = [str(w.message) for w in caught if issubclass(w.category, SplitLeakageWarning)]
    assert len(warned) == 1
    said = f"{n_leaking} of the 8 inner splits put one group on both sides, in {words}:"
    assert said in warned[0]


def test_inner_splits_clean_in_every_fold_are_said_to_keep_the_groups_apart():
    # 6 groups of 10 rows: every KFold(2) cut, in each outer training fold and on all the data,
    # falls between groups (checked here on scikit-learn's splits)
    groups = np.repeat(np.arange(6), 10)
    X_g, y_g = make_classification(n_samples=groups.size, n_features=4, random_state=0)
    trains = [train for train, _ in GroupKFold(3).split(X_g, y_g, groups)]
    for train in [*trains, np.arange(groups.size)]:
        for tr, te in KFold(2).split(train):
            assert not np.intersect1d(groups[train[tr]], groups[train[te]]).size
    nested = NestedCV(
        LogisticRegression(), GRID, outer_cv=GroupKFold(3), inner_cv=KFold(2), n_refits=1,
        random_state=0,
    )  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("error", SplitLeakageWarning)
        nested.fit(X_g, y_g, groups=groups)
    assert nested.resampling_["inner"] == (
        "2-fold KFold on groups (no group on both sides), in each outer training fold"
    )


def _first_best(results):
    return int(np.argmax(results["mean_test_score"]))


def _search_splitting_by_patients(whole):
    """A GridSearchCV whose cv is GroupKFold(3): taken apart or, ``whole`` (a callable refit,
    as a halving search), run whole in each outer training fold."""
    return GridSearchCV(
        LogisticRegression(), {"C": [0.01, 1.0]}, cv=GroupKFold(3),
        refit=_first_best if whole else True,
    )  # fmt: skip


@pytest.mark.parametrize("outer", [GroupKFold(3), KFold(3)], ids=["GroupKFold", "KFold"])
@pytest.mark.parametrize("routing", [False, True], ids=["routing-off", "routing-on"])
@pytest.mark.parametrize("whole", [False, True], ids=["taken-apart", "run-whole"])
def test_the_groups_given_to_a_search_split_it_as_in_scikit_learns_idiom(whole, routing, outer):
    # scikit-learn's grouped nested CV: cross_validate(search, X, y, groups=g, cv=outer,
    # params={"groups": g}) (routing off; with routing on, groups in params only). The groups
    # in params are the search's: they split its folds, never reach LogisticRegression.fit.
    # Routing off, they were passed to the estimator's fit (TypeError: unexpected keyword
    # 'groups'); routing on, a search run whole never got them ("The 'groups' parameter
    # should not be None")
    import sklearn
    from sklearn.model_selection import cross_validate

    given = {"params": {"groups": PATIENTS}}
    if not routing and isinstance(outer, GroupKFold):
        given["groups"] = PATIENTS  # the outer splitter's, as cross_validate takes them
    with sklearn.config_context(enable_metadata_routing=routing), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # KFold ignores the groups: our GroupLeakageWarning
        expected = cross_validate(_search_splitting_by_patients(whole), X, Y, cv=outer, **given)
        got = nested_cross_validate(
            _search_splitting_by_patients(whole), X, Y, cv=outer, n_refits=1,
            return_indices=True, **given,
        )  # fmt: skip
    outer_groups = PATIENTS if isinstance(outer, GroupKFold) else None
    outer_tests = [test for _, test in outer.split(X, Y, outer_groups)]
    for test, got_test in zip(outer_tests, got["indices"]["test"]):
        np.testing.assert_array_equal(got_test, test)
    np.testing.assert_allclose(got["test_score"], expected["test_score"])


def test_the_default_hold_out_of_few_groups_says_how_much_it_validates_on():
    # 3 groups, one left out: each training fold holds 2 groups, and the hold-out of whole
    # groups validates on one of them, half the fold, where the text said only "90%/10%"
    groups = np.arange(len(Y)) % 3
    nested = NestedCV(
        LogisticRegression(), GRID, outer_cv=LeaveOneGroupOut(), n_refits=1, refit=False,
        random_state=0,
    ).fit(X, Y, groups=groups)  # fmt: skip
    assert "validating on 50% of a fold (whole groups)" in nested.resampling_["inner"]
    many = NestedCV(
        LogisticRegression(), GRID, outer_cv=GroupKFold(3), n_refits=1, refit=False,
        random_state=0,
    ).fit(X, Y, groups=PATIENTS)  # fmt: skip
    assert "validating on" not in many.resampling_["inner"]  # close to its 10%


@pytest.mark.parametrize(
    "estimator, named",
    [
        (make_pipeline(StandardScaler(), GridSearchCV(LogisticRegression(), {"C": [0.1, 1]},
                                                      cv=3)), "gridsearchcv__cv=3"),
        (LogisticRegressionCV(Cs=3, cv=3), "cv=3"),
        (TunedThresholdClassifierCV(LogisticRegression(), cv=3), "cv=3"),
    ],
)  # fmt: skip
def test_a_search_hidden_in_the_estimator_is_warned_about_under_groups(estimator, named):
    # its cv=3 is a StratifiedKFold, which splits the rows of a patient apart: the threshold
    # or C it selects is chosen on validation rows of patients it trained on
    groups = np.repeat(np.arange(30), 4)
    assert not set(groups[:4]) & set(groups[4:])  # (4 rows a patient)
    with pytest.warns(SplitLeakageWarning, match="splits its training rows by itself") as record:
        nested_cross_validate(estimator, X_ARRAY, Y, groups=groups, cv=GroupKFold(3),
                              n_refits=1, random_state=0)  # fmt: skip
    (message,) = [str(w.message) for w in record if "by itself" in str(w.message)]
    assert named in message and "GroupKFold" in message


def test_a_hidden_group_splitter_is_not_warned_about():
    groups = np.repeat(np.arange(30), 4)
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(LogisticRegression(), {"C": [0.1, 1]}, cv=GroupKFold(3))
        nested = NestedCV(make_pipeline(StandardScaler(), search), outer_cv=GroupKFold(3),
                          n_refits=1, refit=False, random_state=0)  # fmt: skip
        with warnings.catch_warnings():
            warnings.simplefilter("error", SplitLeakageWarning)
            nested.fit(X_ARRAY, Y, groups=groups)
    assert np.isfinite(nested.outer_scores_).all()  # the hidden search got the groups


def test_a_threshold_tuned_on_a_random_share_is_warned_about_under_groups():
    # hunt FP2: TunedThresholdClassifierCV(cv=0.5) holds out half its rows at random (a float
    # that check_cv refuses), which the check skipped as if it were "prefit"
    groups = np.repeat(np.arange(30), 4)
    estimator = TunedThresholdClassifierCV(LogisticRegression(), cv=0.5, random_state=0)
    with pytest.warns(SplitLeakageWarning, match="splits its training rows by itself") as record:
        nested_cross_validate(estimator, X_ARRAY, Y, groups=groups, cv=GroupKFold(3),
                              n_refits=1, random_state=0)  # fmt: skip
    (message,) = [str(w.message) for w in record if "by itself" in str(w.message)]
    assert "cv=0.5" in message


def test_a_stackings_final_estimator_is_told_the_advice_that_can_be_followed():
    # hunt FP2: a stacking hands no groups to its final_estimator, so "give it a group
    # splitter ... by metadata routing" cannot be followed; param_grid can
    from sklearn.ensemble import StackingClassifier

    groups = np.repeat(np.arange(30), 4)
    stacking = StackingClassifier(
        [("lr", LogisticRegression())], final_estimator=LogisticRegressionCV(Cs=3), cv=3
    )
    with pytest.warns(SplitLeakageWarning, match="splits its training rows by itself") as record:
        nested_cross_validate(stacking, X_ARRAY, Y, groups=groups, cv=GroupKFold(3),
                              n_refits=1, random_state=0)  # fmt: skip
    (message,) = [str(w.message) for w in record if "by itself" in str(w.message)]
    assert "final_estimator__cv=None" in message
    assert "GroupKFold" not in message and "param_grid" in message
