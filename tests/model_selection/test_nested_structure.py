"""Issue 12.1: the inner splits respect the groups and the time order that the outer split does.

Every combination is checked on the splits NestedCV actually used: no inner validation row
shares a group with its inner training rows, and after a time-ordered outer splitter no inner
validation row precedes an inner training row.
"""

import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.model_selection import (
    GroupKFold,
    KFold,
    LeaveOneGroupOut,
    StratifiedGroupKFold,
    StratifiedKFold,
    TimeSeriesSplit,
)

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import SplitLeakageWarning
from sklearn_fair.model_selection import (
    HoldoutSplit,
    PredefinedSplits,
    QuantileStratifiedKFold,
    RepeatedQuantileStratifiedKFold,
    RollingOrigin,
    SavedSplits,
)

rng = np.random.RandomState(0)
N = 120
X = rng.normal(size=(N, 3))
y = np.array([0, 1] * (N // 2))
y_reg = X[:, 0] + rng.normal(size=N)
GROUPS = np.repeat(np.arange(24), 5)  # 24 patients of 5 rows each


class SplitRecorder(ClassifierMixin, BaseEstimator):
    """Records the first feature (a row id) of every training and validation set it sees."""

    fits = []

    def __init__(self, C=1.0):
        self.C = C

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        self.train_ids_ = X[:, 0].astype(int)
        return self

    def predict(self, X):
        type(self).fits.append((self.train_ids_, X[:, 0].astype(int)))
        return np.full(len(X), self.classes_[0])


class RegressionRecorder(RegressorMixin, BaseEstimator):
    fits = []

    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def fit(self, X, y):
        self.train_ids_ = X[:, 0].astype(int)
        return self

    def predict(self, X):
        type(self).fits.append((self.train_ids_, X[:, 0].astype(int)))
        return np.zeros(len(X))


@pytest.fixture(autouse=True)
def _reset():
    SplitRecorder.fits = []
    RegressionRecorder.fits = []


def with_ids(data):
    return np.column_stack([np.arange(N), data])


def selection_fits(recorder, nested):
    """The (train, validation) row sets of the selection fits: those inside an outer fold."""
    outer_tests = [set(f["test_indices"]) for f in nested.outer_results_]
    return [
        (train, valid)
        for train, valid in recorder.fits
        if not any(set(valid) == test for test in outer_tests)
    ]


@pytest.mark.parametrize(
    "outer",
    [GroupKFold(4), StratifiedGroupKFold(4), LeaveOneGroupOut(), KFold(4)],
    ids=["GroupKFold", "StratifiedGroupKFold", "LeaveOneGroupOut", "KFold+groups"],
)
@pytest.mark.parametrize("routing", [False, True])
def test_default_inner_holdout_keeps_groups_apart(outer, routing):
    import sklearn

    with sklearn.config_context(enable_metadata_routing=routing):
        nested = NestedCV(
            SplitRecorder(),
            {"C": [1.0, 2.0]},
            outer_cv=outer,
            n_refits=1,
            refit=False,
            random_state=0,
        )
        with warnings.catch_warnings():
            warnings.simplefilter("error", SplitLeakageWarning)
            nested.fit(with_ids(X), y, groups=GROUPS)
    fits = selection_fits(SplitRecorder, nested)
    assert fits
    for train, valid in fits:
        assert not set(GROUPS[train]) & set(GROUPS[valid])
        # still about a 10% hold-out of the outer training fold
        assert 0.05 < len(valid) / (len(train) + len(valid)) < 0.2


@pytest.mark.parametrize(
    "outer, gap",
    # the same splits as a list were not taken as time-ordered: the default inner hold-out
    # was random, so model selection validated on the past, without a warning; and the rows
    # right after the inner training rows validated, where an outer gap keeps them from the
    # assessment
    [
        (TimeSeriesSplit(4), 0),
        (RollingOrigin(initial=40, assess=20), 0),
        (list(TimeSeriesSplit(4).split(X)), 0),
        (PredefinedSplits(list(TimeSeriesSplit(4).split(X))), 0),
        (TimeSeriesSplit(3, gap=10), 10),
        (PredefinedSplits(list(TimeSeriesSplit(3, gap=10).split(X))), 10),
        # a hold-out of the last rows is time-ordered too: its inner hold-out was random
        (HoldoutSplit(0.25, shuffle=False), 0),
        (HoldoutSplit(0.25, shuffle=False, gap=5), 5),
        # given time-ordered splits whose training rows are listed in another order: the
        # last 10% as listed validated, rows from the middle of the fold
        ([(rng.permutation(tr), te) for tr, te in TimeSeriesSplit(4).split(X)], 0),
        # saved lagged splits (their lag rows on both sides) were taken as random splits
        (
            PredefinedSplits(
                SavedSplits(
                    list(RollingOrigin(40, 20, skip=19, lag=3).split(X)),
                    n_samples=N,
                    allow_overlap=True,
                )
            ),
            0,
        ),
    ],
    ids=[
        "tss",
        "rolling",
        "tss-as-a-list",
        "tss-predefined",
        "gap",
        "gap-predefined",
        "holdout",
        "holdout-gap",
        "unsorted-list",
        "saved-lagged",
    ],
)
def test_default_inner_holdout_after_a_time_ordered_outer_split_validates_on_the_latest(outer, gap):
    nested = NestedCV(
        RegressionRecorder(),
        {"alpha": [1.0, 2.0]},
        outer_cv=outer,
        n_refits=1,
        refit=False,
        random_state=0,
    )
    nested.fit(with_ids(X), y_reg)
    fits = selection_fits(RegressionRecorder, nested)
    assert fits
    for train, valid in fits:
        assert valid.min() - train.max() - 1 == gap


def test_user_inner_cv_that_ignores_groups_is_warned_about():
    nested = NestedCV(
        SplitRecorder(),
        {"C": [1.0, 2.0]},
        outer_cv=GroupKFold(4),
        inner_cv=KFold(3, shuffle=True, random_state=0),
        n_refits=1,
        refit=False,
    )
    with pytest.warns(SplitLeakageWarning, match="put one group on both sides"):
        nested.fit(with_ids(X), y, groups=GROUPS)


def test_user_group_inner_cv_is_not_warned_about():
    nested = NestedCV(
        SplitRecorder(),
        {"C": [1.0, 2.0]},
        outer_cv=GroupKFold(4),
        inner_cv=GroupKFold(3),
        n_refits=1,
        refit=False,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error", SplitLeakageWarning)
        nested.fit(with_ids(X), y, groups=GROUPS)


def test_user_inner_cv_that_sees_the_future_is_warned_about():
    nested = NestedCV(
        RegressionRecorder(),
        {"alpha": [1.0, 2.0]},
        outer_cv=TimeSeriesSplit(3),
        inner_cv=KFold(3, shuffle=True, random_state=0),
        n_refits=1,
        refit=False,
    )
    with pytest.warns(SplitLeakageWarning, match="sees the future"):
        nested.fit(with_ids(X), y_reg)
    nested.set_params(outer_cv=list(TimeSeriesSplit(3).split(X)))
    with pytest.warns(SplitLeakageWarning, match="sees the future"):
        nested.fit(with_ids(X), y_reg)
    nested.set_params(outer_cv=HoldoutSplit(0.25, shuffle=False))
    with pytest.warns(SplitLeakageWarning, match="sees the future"):
        nested.fit(with_ids(X), y_reg)


class _ExpandingWindow:
    """A time-ordered splitter of the user's own (TimeSeriesSplit's splits), unknown to us."""

    def split(self, X, y=None, groups=None):
        yield from TimeSeriesSplit(4).split(X)

    def get_n_splits(self, X=None, y=None, groups=None):
        return 4


def test_a_time_ordered_splitter_of_the_users_own_is_warned_about_a_random_inner_holdout():
    nested = NestedCV(RegressionRecorder(), {"alpha": [1.0, 2.0]}, outer_cv=_ExpandingWindow(),
                      n_refits=1, refit=False, random_state=0)  # fmt: skip
    with pytest.warns(SplitLeakageWarning, match="does not know it to be time-ordered"):
        nested.fit(with_ids(X), y_reg)
    # random: some validation row precedes a row trained on
    fits = selection_fits(RegressionRecorder, nested)
    assert any(valid.min() < train.max() for train, valid in fits)
    with warnings.catch_warnings():
        warnings.simplefilter("error", SplitLeakageWarning)
        nested.set_params(inner_cv=HoldoutSplit(0.1, shuffle=False)).fit(with_ids(X), y_reg)


def test_a_search_run_whole_on_time_ordered_folds_is_warned_about_its_own_cv():
    from sklearn.experimental import enable_halving_search_cv  # noqa: F401
    from sklearn.linear_model import Ridge
    from sklearn.model_selection import HalvingGridSearchCV

    search = HalvingGridSearchCV(Ridge(), {"alpha": [0.1, 1.0, 10.0]}, cv=3, random_state=0)
    nested = NestedCV(search, outer_cv=TimeSeriesSplit(3), n_refits=1, refit=False)
    with pytest.warns(SplitLeakageWarning, match="cv=3 is not one sklearn-fair knows"):
        nested.fit(X, y_reg)
    with warnings.catch_warnings():
        warnings.simplefilter("error", SplitLeakageWarning)
        nested.set_params(estimator__cv=TimeSeriesSplit(3)).fit(X, y_reg)


def test_a_lagged_inner_rolling_origin_is_not_said_to_see_the_future():
    # its lag rows are on both sides by design; every other validation row follows the
    # training rows, so nothing validates on the past
    nested = NestedCV(
        RegressionRecorder(),
        {"alpha": [1.0, 2.0]},
        outer_cv=RollingOrigin(60, 30, skip=29),
        inner_cv=RollingOrigin(20, 10, lag=2, skip=9),
        n_refits=1,
        refit=False,
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", SplitLeakageWarning)
        nested.fit(with_ids(X), y_reg)
    said = [str(w.message) for w in caught if issubclass(w.category, SplitLeakageWarning)]
    # only that the selection counts the lag rows (2 of each 12 validated), not the future
    assert len(said) == 1 and "share rows (lag=2)" in said[0] and "future" not in said[0]
    fits = selection_fits(RegressionRecorder, nested)
    assert fits and all(np.isin(valid[:2], train).all() for train, valid in fits)


def _stored(outer_splits, inner_of):
    return PredefinedSplits([(tr, te, inner_of(tr)) for tr, te in outer_splits])


def test_stored_inner_splits_that_put_a_group_on_both_sides_are_warned_about():
    # as the same splits given as inner_cv are: stored ones (a file, by hand) were not checked
    outer = list(GroupKFold(4).split(X, y, GROUPS))
    # KFold(4) of the 90 rows of a training fold cuts groups of 5 rows in two
    stored = _stored(outer, lambda tr: [(tr[a], tr[b]) for a, b in KFold(4).split(tr)])
    nested = NestedCV(SplitRecorder(), {"C": [1.0, 2.0]}, outer_cv=stored, n_refits=1)
    with pytest.warns(SplitLeakageWarning, match="both sides.* Store inner splits that keep"):
        nested.fit(with_ids(X), y, groups=GROUPS)
    # stored grouped inner splits are not warned about
    grouped = _stored(
        outer, lambda tr: [(tr[a], tr[b]) for a, b in GroupKFold(3).split(tr, groups=GROUPS[tr])]
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error", SplitLeakageWarning)
        nested.set_params(outer_cv=grouped).fit(with_ids(X), y, groups=GROUPS)


def test_stored_inner_splits_that_validate_on_the_past_are_warned_about():
    outer = list(TimeSeriesSplit(3).split(X))
    stored = _stored(outer, lambda tr: [(tr[len(tr) // 4 :], tr[: len(tr) // 4])])
    nested = NestedCV(RegressionRecorder(), {"alpha": [1.0, 2.0]}, outer_cv=stored, n_refits=1)
    # the order of given splits is read from their indices: the warning says it is a guess
    with pytest.warns(SplitLeakageWarning, match="if the rows are in time order, model sel"):
        nested.fit(with_ids(X), y_reg)


def test_a_default_time_ordered_holdout_that_cannot_cut_between_groups_says_what_to_do():
    # after an outer hold-out of the last rows, the default inner hold-out of the most recent
    # rows keeps groups whole; where they interleave no cut exists
    from sklearn.linear_model import Ridge

    # six patients seen in turn over the first 90 rows; three new ones in the last 30
    interleaved = np.r_[np.tile(np.arange(6), 15), np.repeat([100, 101, 102], 10)]
    nested = NestedCV(Ridge(), {"alpha": [1.0]}, outer_cv=HoldoutSplit(0.25, shuffle=False))
    with pytest.raises(ValueError, match="validates on the most recent rows: pass an inner_cv"):
        nested.fit(X, y_reg, groups=interleaved)


@pytest.mark.parametrize(
    "splitter",
    [
        QuantileStratifiedKFold(3, random_state=0),
        RepeatedQuantileStratifiedKFold(3, n_repeats=2, random_state=0),
    ],
    ids=["quantile", "repeated-quantile"],
)
@pytest.mark.parametrize("where", ["outer_cv", "inner_cv"])
def test_quantile_splitters_take_an_integer_valued_target(splitter, where):
    # ages 20..139, one row each: the quantile splitters stratify bins of y, which NestedCV
    # counted as classes ("class 20 has only 1 member(s)") although the splitter takes them
    from sklearn.linear_model import Ridge

    ages = np.arange(20, 20 + N)
    other = "inner_cv" if where == "outer_cv" else "outer_cv"
    nested = NestedCV(
        Ridge(), {"alpha": [1.0, 2.0]}, **{where: splitter, other: KFold(3)}, n_refits=1
    ).fit(X, ages)
    expected = splitter.get_n_splits() if where == "outer_cv" else 3
    assert len(nested.outer_scores_) == expected
    assert np.isfinite(nested.outer_scores_).all()


def test_a_rare_class_does_not_stop_the_default_grouped_holdout():
    # a hold-out of whole groups needs no member of each class on each side; the run asked
    # for two (the ungrouped stratified hold-out's need), where the splitter itself splits
    labels = y.copy()
    labels[7] = 2  # one member
    nested = NestedCV(SplitRecorder(), {"C": [1.0, 2.0]}, outer_cv=3, n_refits=1, refit=False)
    nested.fit(with_ids(X), labels, groups=GROUPS)
    for train, valid in selection_fits(SplitRecorder, nested):
        assert not set(GROUPS[train]) & set(GROUPS[valid])


def test_default_inner_holdout_without_structure_is_stratified_and_random():
    nested = NestedCV(
        SplitRecorder(),
        {"C": [1.0, 2.0]},
        outer_cv=StratifiedKFold(4),
        n_refits=1,
        refit=False,
        random_state=0,
    )
    nested.fit(with_ids(X), y)
    for train, valid in selection_fits(SplitRecorder, nested):
        assert abs(np.mean(y[valid]) - 0.5) < 0.1
        assert valid.min() < train.max()  # shuffled, not the last rows


def test_inner_cv_given_as_splits_is_applied_to_each_outer_training_fold_and_said_so():
    # positions in each outer training fold, as scikit-learn's check_cv reads a list of splits
    inner = [(np.arange(60), np.arange(60, 80)), (np.arange(20, 80), np.arange(20))]
    nested = NestedCV(
        SplitRecorder(), {"C": [1.0]}, outer_cv=KFold(3), inner_cv=inner, n_refits=1, refit=False
    ).fit(with_ids(X), y)
    expected = [
        (train[tr].tolist(), train[te].tolist())
        for train, _ in KFold(3).split(X)
        for tr, te in inner
    ]
    fits = selection_fits(SplitRecorder, nested)
    used = [(tr.tolist(), te.tolist()) for tr, te in fits]
    assert used == expected
    assert (
        nested.resampling_["inner"] == "2 given (train, test) splits, in each outer training fold"
    )


def test_an_outer_gap_too_long_for_the_first_training_fold_is_said_with_what_to_do():
    from sklearn.linear_model import Ridge

    # an integer-valued target too: a time-ordered hold-out never stratifies (its class
    # counts were checked as if it did, and a regression on 0, 1, 2, ... was refused)
    rows = np.arange(100, dtype=float)[:, None]
    nested = NestedCV(Ridge(), {"alpha": [1.0]}, outer_cv=TimeSeriesSplit(5, gap=10))
    with pytest.raises(
        ValueError, match=r"outer training fold 0.*keeping its gap of 10 rows: pass an inner"
    ):
        nested.fit(rows, rows.ravel())
    nested.set_params(outer_cv=TimeSeriesSplit(3)).fit(rows, rows.ravel())
    assert np.isfinite(nested.outer_scores_).all()
