"""What audit says of a prepare that drops or adds samples: the duplicates of the samples the
evaluation splits, and resampling flagged where samples are added or the class balance moves,
not where duplicates or missing values are dropped."""

import re

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold

from sklearn_fair import audit

pd = pytest.importorskip("pandas")

CHECKS = ("duplicates", "prefit")  # the flags at stake, without the permutation runs
CV = StratifiedKFold(4, shuffle=True, random_state=0)


def _with_duplicates():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(60, 4)), rng.integers(0, 2, 60)
    return np.vstack([X, X[:20]]), np.r_[y, y[:20]]


def drop_duplicates(X, y):
    keep = ~pd.DataFrame(X).duplicated().to_numpy()
    return X[keep], y[keep]


def test_dropping_duplicates_first_passes():
    # the guide's fix for duplicates, handed in as prepare, was flagged twice: "15 group(s)
    # of identical samples fall on both sides" and "resampling before splitting"
    X, y = _with_duplicates()
    found = audit(LogisticRegression(), X, y, cv=CV, prepare=drop_duplicates, checks=CHECKS)
    prepared = drop_duplicates(X, y)[0]
    assert pd.DataFrame(prepared).duplicated().sum() == 0  # pandas: nothing left to straddle
    assert len(found.duplicates.groups) == 0 and found.n_prepared == 60
    assert not found.resampled_before_split and found.passed
    # without prepare, the 20 copies are found as before
    assert len(audit(LogisticRegression(), X, y, cv=CV, checks=CHECKS).duplicates.groups) == 20


def test_dropping_missing_values_passes():
    rng = np.random.default_rng(1)
    X, y = rng.normal(size=(60, 4)), np.tile([0, 1], 30)
    X[::7, 0] = np.nan  # rows 0, 7, ..., 56: class 0 from 0.500 to 0.490 of the rows

    def dropna(X, y):
        keep = ~np.isnan(X).any(axis=1)
        return X[keep], y[keep]

    found = audit(LogisticRegression(), X, y, cv=CV, prepare=dropna, checks=CHECKS)
    assert found.n_prepared == 51 and found.passed


def test_undersampling_and_oversampling_before_splitting_are_flagged():
    rng = np.random.default_rng(2)
    X, y = rng.normal(size=(80, 4)), (np.arange(80) < 20).astype(int)  # 25% positives

    def undersample(X, y):
        keep = np.r_[np.flatnonzero(y == 1), np.flatnonzero(y == 0)[:20]]
        return X[keep], y[keep]

    under = audit(LogisticRegression(), X, y, cv=CV, prepare=undersample, checks=CHECKS)
    assert under.resampled_before_split
    assert "class 0 from 0.750 to 0.500 of the samples" in under.flags[-1]

    def oversample(X, y):
        copies = np.r_[np.arange(80), np.repeat(np.flatnonzero(y == 1), 2)]
        return X[copies], y[copies]

    over = audit(LogisticRegression(), X, y, cv=CV, prepare=oversample, checks=CHECKS)
    assert over.resampled_before_split and over.n_prepared == 120
    # the copies the evaluation's splits put beside their originals are found (they were "0
    # across a split", as the data given has none)
    assert len(over.duplicates.groups) == 20 and len(over.duplicates.straddling) > 0


def test_a_prepare_that_renames_the_classes_is_no_resampling():
    # a LabelEncoder in prepare made class 'neg' look gone: "prepare turned 60 samples into 60
    # (class 'neg' from 0.500 to 0.000 of the samples)"
    from sklearn.preprocessing import LabelEncoder

    rng = np.random.default_rng(3)
    X, y = rng.normal(size=(60, 4)), np.repeat(["neg", "pos", "pos"], 20)

    def encode(X, y):
        return X, LabelEncoder().fit_transform(y)

    found = audit(LogisticRegression(), X, y, cv=CV, prepare=encode, checks=CHECKS)
    assert found.share_changed == (None, pytest.approx(2 / 3), pytest.approx(2 / 3))
    assert found.passed

    def encode_and_undersample(X, y):
        keep = np.r_[np.arange(20), np.arange(20, 40)]  # 20 'neg' and 20 'pos'
        return X[keep], LabelEncoder().fit_transform(y[keep])

    found = audit(LogisticRegression(), X, y, cv=CV, prepare=encode_and_undersample, checks=CHECKS)
    # both classes moved by 1/6: 2/3 and 1/3 of the samples to a half each
    assert re.search(r"a class renamed by prepare from 0\.(667|333) to 0\.500", found.flags[-1])


def test_a_prepare_that_selects_features_finds_no_duplicates_the_samples_do_not_have():
    # rows of 0-2 integers alike on the three columns kept, distinct samples: "26 group(s) of
    # identical samples fall on both sides of a split", and LEAKS FOUND
    rng = np.random.default_rng(4)
    X, y = rng.integers(0, 3, size=(120, 8)).astype(float), rng.integers(0, 2, 120)
    assert not pd.DataFrame(X).duplicated().any()

    def keep_three(X, y):
        return X[:, :3], y

    assert pd.DataFrame(X[:, :3]).duplicated().any()  # alike on what prepare keeps
    found = audit(LogisticRegression(), X, y, cv=CV, prepare=keep_three, checks=CHECKS)
    assert len(found.duplicates.groups) == 0 and found.passed
