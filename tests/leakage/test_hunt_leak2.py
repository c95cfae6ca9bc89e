"""Hunt LEAK2: the duplicates of the rows the evaluation splits where prepare returns as many
rows as given but other ones, cv given as a generator of splits, a scoring callable that
returns a dict, the labels of copies in 2-D labels, and object cells equal in value."""

import datetime
import warnings
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, f1_score
from sklearn.model_selection import KFold, StratifiedKFold, cross_val_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.preprocessing import StandardScaler
from sklearn.utils import resample, shuffle

from sklearn_fair import audit
from sklearn_fair.leakage import find_duplicates, permutation_check

CHECKS = ("duplicates", "prefit")  # no permutation runs where the duplicates are at stake


def _by_hand(X, splits):
    """The groups of identical rows of ``X`` (pandas), and those a split puts on both sides."""
    frame = pd.DataFrame(X)
    rows = frame[frame.duplicated(keep=False)]
    groups = sorted(
        sorted(index.tolist()) for index in rows.groupby(list(frame.columns)).groups.values()
    )
    straddling = [
        g for g in groups if any(set(g) & set(tr) and set(g) & set(te) for tr, te in splits)
    ]
    return groups, straddling


def _bootstrap(X, y):
    return resample(X, y, random_state=0)


def test_a_bootstrap_of_the_same_size_in_prepare_finds_its_copies_across_the_splits():
    # noise, bootstrapped before splitting: 1-NN scores 0.79 on it, yet audit said "0 group(s)
    # of identical samples, 0 across a split", no leak found, no resampling
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(120, 4)), rng.integers(0, 2, 120)
    Xb, yb = _bootstrap(X, y)
    splits = list(StratifiedKFold(5).split(Xb, yb))  # what the evaluation splits (cv=5)
    assert cross_val_score(KNeighborsClassifier(1), Xb, yb, cv=StratifiedKFold(5)).mean() > 0.7
    groups, straddling = _by_hand(Xb, splits)
    assert len(straddling) > 0

    found = audit(KNeighborsClassifier(1), X, y, prepare=_bootstrap, checks=CHECKS)
    assert [g.tolist() for g in found.duplicates.groups] == groups
    assert [g.tolist() for g in found.duplicates.straddling] == straddling
    assert found.rows_kept is False and not found.passed
    # the copies of given rows the bootstrap made: all its rows but one of each
    assert found.copies_added == len(Xb) - len(np.unique(Xb, axis=0))
    assert found.resampled_before_split
    assert f"{len(groups)} group(s) of identical samples, {len(straddling)} across a split " in (
        str(found)
    )
    assert "(of the 120 samples prepare returned)" in str(found)


def test_a_shuffle_in_prepare_finds_the_copies_it_puts_on_both_sides():
    # each row twice, adjacent; shuffled before KFold: "50 group(s) of identical samples, 0
    # across a split" (the splits of the rows as given keep each pair together)
    rng = np.random.default_rng(0)
    X = np.repeat(rng.normal(size=(50, 4)), 2, axis=0)
    y = np.repeat(rng.integers(0, 2, 50), 2)

    def prepare(X, y):
        return shuffle(X, y, random_state=0)

    Xs, _ = prepare(X, y)
    groups, straddling = _by_hand(Xs, list(KFold(5).split(Xs)))
    assert len(groups) == 50 and len(straddling) > 0
    found = audit(LogisticRegression(), X, y, cv=KFold(5), prepare=prepare, checks=CHECKS)
    assert [g.tolist() for g in found.duplicates.straddling] == straddling
    assert found.rows_kept is False and not found.passed
    # a shuffle adds no copy and keeps the balance: no resampling
    assert found.copies_added == 0 and not found.resampled_before_split


def test_given_splits_with_a_prepare_that_reorders_the_rows_are_refused():
    # the splits index the rows as given: after a shuffle, other rows
    rng = np.random.default_rng(1)
    X, y = rng.normal(size=(60, 3)), np.tile([0, 1], 30)

    def prepare(X, y):
        return shuffle(X, y, random_state=0)

    with pytest.raises(ValueError, match=r"'cv' parameter of audit.*not the 60 given"):
        audit(
            LogisticRegression(), X, y, cv=list(KFold(3).split(X)), prepare=prepare,
            checks=CHECKS,
        )  # fmt: skip


def test_a_prepare_that_scales_the_rows_keeps_the_samples_as_given():
    # scaled on all the data, the rows are the given ones in their order: the duplicates
    # are those of the data given, in the splits of the data given
    rng = np.random.default_rng(2)
    X, y = rng.normal(size=(40, 3)), np.tile([0, 1], 20)
    X[30:] = X[:10]  # rows 30-39 copy rows 0-9
    y[30:] = y[:10]

    def scale(X, y):
        return StandardScaler().fit_transform(X), y

    cv = StratifiedKFold(4, shuffle=True, random_state=0)
    groups, straddling = _by_hand(X, list(cv.split(X, y)))
    found = audit(LogisticRegression(), X, y, cv=cv, prepare=scale, checks=CHECKS)
    assert found.rows_kept is True and not found.resampled_before_split
    assert [g.tolist() for g in found.duplicates.straddling] == straddling
    assert "prepare returned" not in str(found)


def test_permutation_check_takes_a_generator_of_outer_splits():
    # scikit-learn's permutation_test_score takes one; the first nested run used it up:
    # "InvalidSplitError: outer_cv produced no splits."
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(60, 3)), np.tile([0, 1], 30)
    splits = list(StratifiedKFold(3).split(X, y))
    kwargs = dict(n_permutations=3, random_state=0)
    report = permutation_check(LogisticRegression(), X, y, outer_cv=iter(splits), **kwargs)
    # the estimate on the real labels: scikit-learn's, on the same splits
    reference = cross_val_score(LogisticRegression(), X, y, cv=splits).mean()
    assert report.estimate == pytest.approx(reference)
    listed = permutation_check(LogisticRegression(), X, y, outer_cv=splits, **kwargs)
    np.testing.assert_allclose(report.permuted_estimates, listed.permuted_estimates)


def _two_metrics(estimator, X, y):
    predicted = estimator.predict(X)
    return {"acc": accuracy_score(y, predicted), "f1": f1_score(y, predicted)}


@pytest.mark.parametrize("check", [audit, permutation_check], ids=["audit", "permutation_check"])
def test_a_scoring_callable_that_returns_several_metrics_is_refused_by_name(check):
    # documented for nested_cross_validate; here a bare KeyError: 'test_score'
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(60, 3)), np.tile([0, 1], 30)
    with pytest.raises(ValueError, match=r"'scoring' parameter.*metrics \['acc', 'f1'\]"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check(LogisticRegression(), X, y, scoring=_two_metrics, n_permutations=2)


def test_same_label_compares_whole_label_sets_of_2d_labels():
    # np.unique flattened them: rows 0 and 1, both labelled [0, 1], had "not the same label"
    X = np.array([[0, 1], [0, 1], [2, 3], [2, 3]])
    Y = np.array([[0, 1], [0, 1], [1, 1], [1, 0]])
    report = find_duplicates(X, Y, splits=[([0, 2], [1, 3])])
    expected = [bool((Y[g] == Y[g][0]).all()) for g in report.straddling]  # by hand
    assert expected == [True, False]
    assert report.same_label == expected
    # labels of objects (strings) too
    assert find_duplicates(X, Y.astype(str).astype(object), [([0, 2], [1, 3])]).same_label == (
        expected
    )


_PARIS = datetime.timezone(datetime.timedelta(hours=1))


@pytest.mark.parametrize(
    "values",
    [
        [Decimal("1.0"), Decimal("1.00"), Decimal("2")],
        [Decimal("0"), Decimal("-0"), 0.5],
        [Decimal("1.5"), 1.5, 3],
        [Decimal("1.5"), np.float64(1.5), 3],
        [Decimal("0.1"), Fraction(1, 10), 0.1],
        [Fraction(1, 2), 0.5, 3],
        [Fraction(4, 2), 2, True],
        [Decimal("Infinity"), float("inf"), 2],
        [Decimal("NaN"), Decimal("NaN"), float("nan")],
        [Decimal(2**53 + 1), float(2**53), 2**53 + 1],
        [pd.Timestamp("2020-01-01 00:00", tz="UTC"), pd.Timestamp("2020-01-01 01:00", tz="CET"), 2],
        [pd.Timestamp("2020-01-01", tz="UTC"), datetime.datetime(2020, 1, 1, 1, tzinfo=_PARIS), 1],
        [pd.Timestamp("2020-01-01"), pd.Timestamp("2020-01-01", tz="UTC"), 1],
        [pd.Timestamp("2020-01-01"), datetime.datetime(2020, 1, 1), datetime.date(2020, 1, 1)],
        [pd.Timestamp("2020-01-01 00:00:00.000000001"), datetime.datetime(2020, 1, 1), 1],
        [pd.Timedelta(1, "s"), datetime.timedelta(seconds=1), 1],
        [pd.NaT, pd.NaT, None],
    ],
    ids=repr,
)
def test_object_cells_equal_in_value_are_copies_as_in_pandas(values):
    # Decimal("1.0") and Decimal("1.00"), Fraction(1, 2) and 0.5, UTC 00:00 and Paris 01:00
    # were not copies, two Decimal NaN were
    frame = pd.DataFrame({"s": pd.Series(values, dtype=object)})
    expected = frame.duplicated(keep=False).tolist()
    for X in (frame, [[v] for v in values]):
        flags = np.zeros(len(values), bool)
        for group in find_duplicates(X).groups:
            flags[group] = True
        assert flags.tolist() == expected


def test_a_prepare_that_transforms_a_regressors_target_keeps_the_rows():
    # the features as given, in their order: the rows are those given, so the groups and a
    # group splitter still apply (log y changes the labels, not which rows they are)
    from sklearn.linear_model import Ridge
    from sklearn.model_selection import GroupKFold

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    X[30:40] = X[:10]  # ten copies; the groups keep each copy with its original
    y = np.exp(X[:, 0] + rng.normal(size=60))
    groups = np.r_[np.arange(30) % 10, np.arange(10), np.arange(20) % 10 + 10]
    result = audit(
        Ridge(), X, y, groups=groups, cv=GroupKFold(3), checks=("duplicates",),
        prepare=lambda X, y: (X, np.log(y)),
    )  # fmt: skip
    assert result.rows_kept is True
    expected = [[i, 30 + i] for i in range(10)]  # by hand: rows i and 30 + i
    assert sorted(g.tolist() for g in result.duplicates.groups) == expected
    assert result.duplicates.straddling == []  # the groups keep each pair together


def test_a_prepare_that_changes_some_features_keeps_the_rows():
    # review_30: survey answers coded 0-4, capped at 3 by prepare, which makes a changed row
    # equal to another given row; they are still the rows as given, in their order: no
    # resampling, no leak, and the groups apply
    from sklearn.model_selection import GroupKFold

    rng = np.random.default_rng(0)
    X = rng.integers(0, 5, size=(60, 4)).astype(float)
    y = rng.integers(0, 2, 60)
    groups = np.repeat(np.arange(12), 5)
    capped = np.minimum(X, 3)
    # the premise, by hand: a capped row that is another given row (a copy prepare made)
    assert any((capped[i] == X[j]).all() for i in range(60) for j in range(60) if i != j)
    result = audit(
        LogisticRegression(), X, y, groups=groups, cv=GroupKFold(3), checks=("duplicates",),
        prepare=lambda X, y: (np.minimum(X, 3), y),
    )  # fmt: skip
    assert result.rows_kept is True and not result.resampled_before_split
    assert result.passed


def test_noise_added_by_prepare_does_not_hide_the_copies_of_the_rows_given():
    # review_30: ten rows recorded twice, prepare adding noise to every feature: the copies
    # are those of the rows given (the evaluation splits them in that order)
    rng = np.random.default_rng(2)
    X = rng.normal(size=(60, 3))
    X[30:40] = X[:10]
    y = (X[:, 0] > 0).astype(int)
    result = audit(
        LogisticRegression(), X, y, cv=KFold(2), checks=("duplicates",),
        prepare=lambda X, y: (X + np.random.default_rng(0).normal(0, 1e-3, X.shape), y),
    )  # fmt: skip
    assert result.rows_kept is True
    # by hand: KFold(2) tests rows 0-29 then 30-59, so each pair [i, 30 + i] straddles
    assert sorted(g.tolist() for g in result.duplicates.straddling) == [
        [i, 30 + i] for i in range(10)
    ]
