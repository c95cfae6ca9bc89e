"""Leaks the leakage tools used to miss or misreport (hunt LEAK3): a target encoding of the
groups, leave-one-out folds, pandas labels, numpy datetimes in object cells, duplicates of a
pandas index and splits that put a sample on both sides."""

import datetime
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.feature_selection import SelectKBest
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold, KFold, LeaveOneOut, cross_val_score

from sklearn_fair import audit
from sklearn_fair.exceptions import SklearnFairWarning
from sklearn_fair.leakage import find_duplicates, permutation_check


def _patients(n_patients=40, per=5, seed=0):
    rng = np.random.default_rng(seed)
    groups = np.repeat(np.arange(n_patients), per)
    y = np.repeat(rng.integers(0, 2, n_patients), per)  # one diagnosis per patient
    return rng.normal(size=(len(y), 5)), y, groups


def test_group_labels_are_permuted_among_groups_and_a_group_target_encoding_is_flagged():
    X, y, groups = _patients()
    seen = []

    def leave_one_out_encoding(X, y):  # of the patient id, on all rows: the leak
        seen.append(np.asarray(y).copy())
        sums, counts = np.bincount(groups, weights=y), np.bincount(groups)
        return np.c_[X, (sums[groups] - y) / (counts[groups] - 1)], y

    cv = GroupKFold(5)
    # reference: whole patients' labels permuted by hand, the encoding re-run, scikit-learn's CV
    reference = []
    for seed in range(3):
        patient_labels = y[::5][np.random.default_rng(100 + seed).permutation(40)]
        y_permuted = np.repeat(patient_labels, 5)
        X_encoded, _ = leave_one_out_encoding(X, y_permuted)
        reference.append(
            cross_val_score(LogisticRegression(), X_encoded, y_permuted, cv=cv, groups=groups)
        )
    assert np.mean(reference) > 0.9  # the leak survives a permutation of whole patients
    seen.clear()
    report = permutation_check(
        LogisticRegression(), X, y, prepare=leave_one_out_encoding, groups=groups,
        outer_cv=cv, n_permutations=3, with_estimate=False, random_state=0,
    )  # fmt: skip
    assert report.leaks, report
    assert report.permuted_mean == pytest.approx(np.mean(reference), abs=0.1)
    for labels in seen:  # each patient one label, the patients' labels permuted
        assert all(np.unique(labels[groups == g]).size == 1 for g in range(40))
        assert np.array_equal(np.sort(labels[::5]), np.sort(y[::5]))
    assert not all(np.array_equal(labels, y) for labels in seen)


def test_labels_that_vary_within_groups_warn_that_such_a_leak_goes_unseen():
    X, y, groups = _patients()
    y = y.copy()
    y[0] = 1 - y[0]  # one row of group 0 disagrees
    with pytest.warns(SklearnFairWarning, match=r"vary within 1 of the 40 groups.*\(group 0 "):
        permutation_check(
            LogisticRegression(), X, y, prepare=_unchanged, groups=groups,
            outer_cv=GroupKFold(5), n_permutations=2, with_estimate=False, random_state=0,
        )  # fmt: skip
    # without prepare no such leak can come in (the pipeline refits its steps on each
    # training fold): rows permuted as before, no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error", SklearnFairWarning)
        permutation_check(
            LogisticRegression(), X, y, groups=groups, outer_cv=GroupKFold(5),
            n_permutations=2, with_estimate=False, random_state=0,
        )  # fmt: skip


def _unchanged(X, y):
    return X, y


def _select_on_all_data(X, y):
    return SelectKBest(k=10).fit_transform(X, y), y


def test_leave_one_out_own_chance_is_refused_and_a_given_chance_flags_the_leak():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(24, 300)), rng.integers(0, 2, 24)
    with pytest.raises(ValueError, match="test folds of one label.*LeaveOneOut.*Pass chance"):
        permutation_check(
            LogisticRegression(), X, y, prepare=_select_on_all_data, outer_cv=LeaveOneOut(),
            n_permutations=2, with_estimate=False, random_state=0,
        )  # fmt: skip
    majority = np.bincount(y).max() / len(y)  # the most a model without skill scores
    report = permutation_check(
        LogisticRegression(), X, y, prepare=_select_on_all_data, outer_cv=LeaveOneOut(),
        chance=majority, n_permutations=4, with_estimate=False, random_state=0,
    )  # fmt: skip
    assert report.chance == majority
    assert report.leaks, report


def test_prepare_gets_the_users_series_with_its_index_and_name():
    rng = np.random.default_rng(0)
    n = 60
    index = pd.Index(1000 + 3 * np.arange(n), name="record")
    X = pd.DataFrame({"a": rng.normal(size=n), "cat": rng.integers(0, 10, n)}, index=index)
    y = pd.Series(rng.integers(0, 2, n), index=index, name="target")
    got = []

    def target_encoding(X, y):  # pandas' own groupby on the labels it is given
        got.append(y)
        X = X.copy()
        X["cat_te"] = y.groupby(X["cat"]).transform("mean")
        return X, y

    result = audit(
        LogisticRegression(), X, y, prepare=target_encoding, cv=KFold(3, shuffle=True,
        random_state=0), n_permutations=2, checks=("permutation",), random_state=0,
    )  # fmt: skip
    assert result.permutation is not None
    assert len(got) >= 3  # the audit's own, the real labels' run, the permutations
    for labels in got:
        assert isinstance(labels, pd.Series)
        assert labels.index.equals(y.index) and labels.name == "target"
        assert np.array_equal(np.sort(labels.to_numpy()), np.sort(y.to_numpy()))
    assert any(not labels.equals(y) for labels in got)  # permuted values, in place


_NS = np.datetime64("2020-01-01T00:00:00.000000000")


@pytest.mark.parametrize(
    "pair",
    [
        (_NS, int(_NS.astype("int64"))),  # pandas: a datetime is not its nanoseconds
        (np.datetime64("2020-01-01"), pd.Timestamp("2020-01-01")),
        (_NS, pd.Timestamp("2020-01-01")),
        (np.datetime64("2020-01-01"), datetime.datetime(2020, 1, 1)),
        (np.timedelta64(1, "s"), pd.Timedelta(seconds=1)),
        (np.timedelta64(1, "s"), datetime.timedelta(seconds=1)),
        (np.datetime64("NaT"), pd.NaT),
        (np.timedelta64("NaT"), pd.NaT),
        (np.datetime64("2020-01-01T00:00:00.000001"), _NS + np.timedelta64(1000, "ns")),
        # not (datetime64, datetime.date): pandas' own answer to it changes within one
        # process (duplicates after the docs build ran, not before), so it is no reference
    ],
)
def test_numpy_datetimes_in_object_cells_are_compared_as_pandas(pair):
    X = np.empty((2, 1), dtype=object)
    X[:, 0] = pair
    # pandas reads such a column as datetime64 or timedelta64 where it can (not a date, nor
    # an int beside a datetime), and compares its values there
    expected = pd.DataFrame(X).duplicated(keep=False).tolist()
    found = [g.tolist() for g in find_duplicates(X).groups]
    assert found == ([[0, 1]] if all(expected) else [])


def test_duplicates_of_a_pandas_frame_are_named_by_position_and_index_label():
    rng = np.random.default_rng(0)
    df = pd.DataFrame(
        rng.normal(size=(12, 3)).round(2), columns=list("abc"),
        index=pd.Index([100 + 7 * i for i in range(12)][::-1], name="record_id"),
    )  # fmt: skip
    df.iloc[9] = df.iloc[2].to_numpy()
    y = pd.Series(rng.integers(0, 2, 12), index=df.index)
    labels = df.index[df.duplicated(keep=False)].tolist()  # pandas' own: [163, 114]
    positions = np.flatnonzero(df.duplicated(keep=False)).tolist()
    report = find_duplicates(df, y, list(KFold(3).split(df)))
    assert report.straddling_index == [labels]
    result = audit(LogisticRegression(), df, y, cv=KFold(3), checks=("duplicates",))
    (flag,) = result.flags
    assert f"at positions {positions}" in flag and f"(index labels {labels})" in flag


def test_a_sample_in_both_sets_of_a_split_leaks_in_find_duplicates_and_audit():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(60, 3)), rng.integers(0, 2, 60)
    idx = np.arange(60)
    splits = [(idx[:50], idx[40:]), (idx[10:], idx[:10])]
    report = find_duplicates(X, y, splits)
    assert report.groups == []  # no copies: the overlap itself leaks
    assert report.leaks
    assert list(report.in_train_and_test) == [0]
    assert np.array_equal(report.in_train_and_test[0], np.intersect1d(idx[:50], idx[40:]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = audit(LogisticRegression(), X, y, cv=splits, checks=("duplicates",))
    assert not result.passed
    assert any(flag.startswith("splits: 1 split(s) put samples") for flag in result.flags)
    assert "split 0: [40, 41, 42, 43, 44] and 5 more" in str(result)


def test_labels_are_permuted_among_groups_of_one_size_keeping_each_labels_share():
    """5 patients of 20 rows of class 0 among 60 single-row patients of class 1: permuted
    among all groups, class 1 took 92% of the rows, not 62%, and a model without skill beat
    the majority rate it was compared with. Permuted among the groups of one size alone, the
    60 single rows (all of class 1) would keep their real labels: the labels are permuted row
    by row, with a warning, which keeps each label's share too."""
    sizes, labels = [20] * 5 + [1] * 60 + [20] * 5, [0] * 5 + [1] * 60 + [1] * 5
    groups = np.repeat(np.arange(len(sizes)), sizes)
    y = np.repeat(labels, sizes)
    X = np.random.default_rng(0).normal(size=(len(y), 3))
    seen = []

    def record(X, y):
        seen.append(np.asarray(y).copy())
        return X, y

    from sklearn.dummy import DummyClassifier

    with pytest.warns(SklearnFairWarning, match=r"60 of the 70 groups.*row by row"):
        report = permutation_check(
            DummyClassifier(strategy="most_frequent"), X, y, prepare=record, groups=groups,
            outer_cv=GroupKFold(5), chance=np.bincount(y).max() / len(y), n_permutations=4,
            with_estimate=False, random_state=0,
        )  # fmt: skip
    assert not report.leaks
    single = np.isin(groups, np.arange(5, 65))
    for labels_seen in seen[1:]:  # the permuted runs' labels
        assert np.bincount(labels_seen).tolist() == np.bincount(y).tolist()
        assert (labels_seen[single] == 0).any()  # the single rows are not all left at class 1


def test_leave_one_group_out_with_one_label_a_group_is_refused_for_the_own_chance():
    X, y, groups = _patients(16)
    from sklearn.model_selection import LeaveOneGroupOut

    with pytest.raises(ValueError, match="test folds of one label"):
        permutation_check(
            LogisticRegression(), X, y, prepare=_unchanged, groups=groups,
            outer_cv=LeaveOneGroupOut(), n_permutations=2, with_estimate=False, random_state=0,
        )  # fmt: skip


def test_datetimes_past_year_9999_are_compared_not_refused():
    X = np.empty((3, 1), dtype=object)
    X[:, 0] = [np.datetime64("300000-01-01"), np.datetime64("300000-01-01"),
               np.datetime64("-30000", "Y")]  # fmt: skip
    expected = pd.DataFrame(X).duplicated(keep=False).tolist()
    assert expected == [True, True, False]  # pandas reads them
    assert [g.tolist() for g in find_duplicates(X).groups] == [[0, 1]]
