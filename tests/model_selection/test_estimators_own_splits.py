"""What an estimator splits by itself inside each training fold, outside the protocol's splits,
is warned of where it breaks what the outer splits keep (the groups, the time order, the gap),
or where no seed of the run reaches it (hunt INCV)."""

import warnings

import numpy as np
import pytest
import sklearn
from sklearn.compose import make_column_transformer
from sklearn.datasets import make_classification, make_regression
from sklearn.ensemble import GradientBoostingClassifier, HistGradientBoostingClassifier
from sklearn.feature_selection import SequentialFeatureSelector
from sklearn.linear_model import LogisticRegression, LogisticRegressionCV, RidgeCV, SGDClassifier
from sklearn.model_selection import GroupKFold, KFold, TimeSeriesSplit
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler, TargetEncoder

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import ReproducibilityWarning, SplitLeakageWarning
from sklearn_fair.model_selection import HoldoutSplit

X, Y = make_classification(n_samples=120, n_features=5, random_state=0)
GROUPS = np.repeat(np.arange(24), 5)
OUTER = {
    "groups": (GroupKFold(3), {"groups": GROUPS}),
    "time": (TimeSeriesSplit(3), {}),
}


def _leaks(estimator, outer="groups", X=X, y=Y, **params):
    """The messages of the SplitLeakageWarnings of a NestedCV run, and the run."""
    cv, groups = OUTER[outer]
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        nested = NestedCV(estimator, outer_cv=cv, n_refits=1, refit=False, random_state=0,
                          **params).fit(X, y, **groups)  # fmt: skip
    return [str(w.message) for w in record if issubclass(w.category, SplitLeakageWarning)], nested


# -- INCV-1: TargetEncoder's unseeded cross-fitting --------------------------------------------

deprecated_seed = pytest.mark.skipif(
    TargetEncoder().random_state != "deprecated",
    reason="TargetEncoder's random_state is deprecated from scikit-learn 1.9",
)
X_CAT = np.c_[X, np.random.RandomState(1).randint(0, 8, size=len(Y))]


def _encoded(encoder):
    return make_pipeline(
        make_column_transformer((encoder, [5]), remainder="passthrough"), LogisticRegression()
    )


@deprecated_seed
def test_scikit_learns_default_target_encoder_shuffles_its_folds_unseeded():
    # the fact behind the warning: two plain fits on the same data cross-fit differently
    first = TargetEncoder().fit_transform(X_CAT[:, [5]], Y)
    second = TargetEncoder().fit_transform(X_CAT[:, [5]], Y)
    assert not np.array_equal(first, second)
    seeded = TargetEncoder(cv=KFold(5, shuffle=True, random_state=0))
    np.testing.assert_array_equal(
        seeded.fit_transform(X_CAT[:, [5]], Y), seeded.fit_transform(X_CAT[:, [5]], Y)
    )


@deprecated_seed
def test_a_default_target_encoder_is_warned_of_and_a_seeded_cv_is_not():
    says = "TargetEncoder \\(its parameter 'columntransformer__targetencoder__cv'\\)"
    with pytest.warns(ReproducibilityWarning, match=says) as said:
        NestedCV(_encoded(TargetEncoder()), outer_cv=3, refit=False, random_state=0).fit(X_CAT, Y)
    (message,) = [str(w.message) for w in said if "targetencoder__cv" in str(w.message)]
    assert "cv=StratifiedKFold(5, shuffle=True, random_state=0)" in message  # what seeds it
    seeded = _encoded(TargetEncoder(cv=KFold(5, shuffle=True, random_state=0)))
    with warnings.catch_warnings():
        warnings.simplefilter("error", ReproducibilityWarning)
        NestedCV(seeded, outer_cv=3, refit=False, random_state=0).fit(X_CAT, Y)
    unshuffled = _encoded(TargetEncoder(cv=KFold(5)))
    with warnings.catch_warnings():
        warnings.simplefilter("error", ReproducibilityWarning)
        NestedCV(unshuffled, outer_cv=3, refit=False, random_state=0).fit(X_CAT, Y)


# -- INCV-2: a splitter that splits by groups only if the groups reach it ----------------------


def _holdout_lrcv():
    return LogisticRegressionCV(Cs=[0.01, 1, 100], cv=HoldoutSplit(test_size=0.25, random_state=0))


def test_a_hidden_holdout_split_that_gets_no_groups_is_warned_about():
    # the fact behind the warning: HoldoutSplit without groups (LogisticRegressionCV's fit gets
    # none without metadata routing) holds out rows of groups it also trains on
    train, valid = next(HoldoutSplit(test_size=0.25, random_state=0).split(X, Y))
    assert np.intersect1d(GROUPS[train], GROUPS[valid]).size > 0
    leaks, _ = _leaks(_holdout_lrcv())
    (message,) = [m for m in leaks if "by itself" in m]
    assert "cv=HoldoutSplit(" in message and "metadata routing" in message


def test_a_hidden_holdout_split_given_the_groups_by_routing_is_not_warned_about():
    with sklearn.config_context(enable_metadata_routing=True):
        leaks, nested = _leaks(_holdout_lrcv())
    assert leaks == []
    assert np.isfinite(nested.outer_scores_).all()


def test_a_hidden_group_kfold_without_routing_still_fails_loudly_without_a_warning():
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        with pytest.raises(ValueError, match="fits failed"):
            NestedCV(LogisticRegressionCV(Cs=3, cv=GroupKFold(3)), outer_cv=GroupKFold(3),
                     n_refits=1, refit=False, random_state=0).fit(X, Y, groups=GROUPS)  # fmt: skip
    assert not [w for w in record if issubclass(w.category, SplitLeakageWarning)]


# -- INCV-3: SequentialFeatureSelector selects on its own cv -----------------------------------


@pytest.mark.parametrize("outer", ["groups", "time"])
def test_a_sequential_feature_selector_is_warned_about_and_counted(outer):
    sfs = SequentialFeatureSelector(LogisticRegression(), n_features_to_select=1, cv=3)
    leaks, nested = _leaks(make_pipeline(sfs, LogisticRegression()), outer)
    (message,) = [m for m in leaks if "by itself" in m]
    assert "sequentialfeatureselector__cv=3" in message
    assert nested._tuning_counts["n_hidden_searches"] == 1


# -- INCV-4: early stopping on the estimator's own random hold-out -----------------------------

STOPPING = [
    (MLPClassifier((4,), early_stopping=True, max_iter=50), "early_stopping=True"),
    (SGDClassifier(early_stopping=True), "early_stopping=True"),
    (GradientBoostingClassifier(n_iter_no_change=3, n_estimators=10), "n_iter_no_change=3"),
    (
        make_pipeline(StandardScaler(), MLPClassifier((4,), early_stopping=True, max_iter=50)),
        "mlpclassifier__early_stopping=True",
    ),
]


@pytest.mark.parametrize("outer", ["groups", "time"])
@pytest.mark.parametrize("estimator, named", STOPPING)
def test_early_stopping_on_the_estimators_own_holdout_is_warned_about(estimator, named, outer):
    leaks, _ = _leaks(estimator, outer)
    (message,) = [m for m in leaks if "early-stops on a hold-out of its own" in m]
    assert f"with {named}:" in message
    assert ("groups" if outer == "groups" else "time-ordered") in message


@pytest.mark.parametrize("outer", ["groups", "time"])
def test_early_stopping_switched_off_is_not_warned_about(outer):
    off = [
        MLPClassifier((4,), max_iter=50),
        GradientBoostingClassifier(n_estimators=10),
        HistGradientBoostingClassifier(max_iter=10),  # "auto", on 80 rows: off
    ]
    for estimator in off:
        leaks, _ = _leaks(estimator, outer)
        assert leaks == []


@pytest.mark.parametrize("outer", ["groups", "time"])
def test_a_model_that_early_stops_on_the_protocols_holdout_is_not_warned_about(outer):
    hgb = HistGradientBoostingClassifier(early_stopping=True, max_iter=10)
    leaks, _ = _leaks(hgb, outer)
    assert leaks == []
    # where it is left to hold out its own rows, it is warned about
    leaks, _ = _leaks(hgb, outer, early_stopping_split="estimator")
    (message,) = [m for m in leaks if "early-stops on a hold-out of its own" in m]
    assert "with early_stopping=True:" in message


def test_hist_gradient_boostings_auto_early_stopping_is_warned_about_above_10000_rows():
    # scikit-learn's rule: "auto" early-stops on its own hold-out above 10,000 training rows
    X_many, y_many = make_classification(
        15_020, n_features=3, n_informative=2, n_redundant=0, random_state=0
    )
    auto = HistGradientBoostingClassifier(max_iter=3)
    assert auto.fit(X_many[:10_001], y_many[:10_001]).do_early_stopping_
    assert not auto.fit(X_many[:10_000], y_many[:10_000]).do_early_stopping_
    groups = np.repeat(np.arange(751), 20)
    warned = []
    for n_samples in (15_020, 15_000):  # GroupKFold(3): training folds of 10,013 / 10,000 rows
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            nested = NestedCV(auto, outer_cv=GroupKFold(3), n_refits=1, refit=False,
                              random_state=0)  # fmt: skip
            nested.fit(X_many[:n_samples], y_many[:n_samples], groups=groups[:n_samples])
        warned.append([str(w.message) for w in record if "hold-out of its own" in str(w.message)])
    (message,) = warned[0]
    assert "with early_stopping='auto'" in message
    assert warned[1] == []


def test_auto_early_stopping_of_the_final_fits_alone_is_warned_about():
    # GroupKFold(3) of 15,000 rows: outer training folds of 10,000 rows, where "auto" does not
    # early-stop; the selection on all the data and the final fit (refit=True) train on 13,500
    # and 15,000 rows, where it does, on a hold-out that ignores the groups (no warning before)
    X_many, y_many = make_classification(
        15_000, n_features=3, n_informative=2, n_redundant=0, random_state=0
    )
    groups = np.repeat(np.arange(750), 20)
    auto = HistGradientBoostingClassifier(max_iter=3)
    with pytest.warns(SplitLeakageWarning, match="hold-out of its own") as record:
        nested = NestedCV(auto, outer_cv=GroupKFold(3), n_refits=1, random_state=0)
        nested.fit(X_many, y_many, groups=groups)
    assert nested.best_estimator_.do_early_stopping_  # what the warning is about
    (message,) = [str(w.message) for w in record if "hold-out of its own" in str(w.message)]
    assert "with early_stopping='auto'" in message
    # review45b REV-2: the outer folds' fits (10,000 rows) do not early-stop, so the warning
    # says the outer scores are unaffected, and the assessment's description (the same as
    # with refit=False, whose fits are those of the outer folds alone) does not name it
    assert "the outer test scores are unaffected" in message
    assert "selection and fit on all the data alone" in message
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assessed = NestedCV(auto, outer_cv=GroupKFold(3), n_refits=1, refit=False, random_state=0)
        assessed.fit(X_many, y_many, groups=groups)
    assert nested.resampling_ == assessed.resampling_
    assert "early-stopping" not in nested.resampling_["inner"]


# -- INCV-5: a hidden time-ordered splitter with a smaller gap than the outer one --------------


def test_a_hidden_time_series_split_with_a_smaller_gap_than_the_outer_is_warned_about():
    X_reg, y_reg = make_regression(n_samples=200, n_features=5, noise=5, random_state=0)
    # the fact behind the warning: TimeSeriesSplit(3) validates on the rows right after those
    # it trains on, where the outer splits leave 10 rows out
    for train, valid in TimeSeriesSplit(3).split(X_reg):
        assert valid.min() - train.max() - 1 == 0
    outer = TimeSeriesSplit(3, gap=10)
    narrow = RidgeCV(alphas=[0.1, 1, 10], cv=TimeSeriesSplit(3))
    with pytest.warns(SplitLeakageWarning, match="leave 10 rows out") as record:
        NestedCV(narrow, outer_cv=outer, refit=False, random_state=0).fit(X_reg, y_reg)
    (message,) = [str(w.message) for w in record if "by itself" in str(w.message)]
    assert "cv=TimeSeriesSplit(" in message and "gap=10" in message
    kept = RidgeCV(alphas=[0.1, 1, 10], cv=TimeSeriesSplit(3, gap=10))
    with warnings.catch_warnings():
        warnings.simplefilter("error", SplitLeakageWarning)
        NestedCV(kept, outer_cv=outer, refit=False, random_state=0).fit(X_reg, y_reg)
