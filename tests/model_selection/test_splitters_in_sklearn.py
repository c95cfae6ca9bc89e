"""sklearn-fair's splitters given directly to scikit-learn: SavedSplits as cv, a fingerprinted
PredefinedSplits under permutation_test_score, HoldoutSplit with y as a one-column frame."""

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    GridSearchCV,
    StratifiedKFold,
    StratifiedShuffleSplit,
    cross_val_score,
    cross_validate,
    permutation_test_score,
)

from sklearn_fair.exceptions import SplitsMismatchError
from sklearn_fair.model_selection import (
    HoldoutSplit,
    PredefinedSplits,
    load_splits,
    save_splits,
)


@pytest.fixture
def data():
    rng = np.random.RandomState(0)
    X = rng.randn(60, 3)
    y = (X[:, 0] + 0.5 * rng.randn(60) > 0).astype(int)
    return X, y


@pytest.fixture
def saved(data, tmp_path):
    X, y = data
    path = tmp_path / "splits.json"
    save_splits(_folds(X, y), path, y=y)
    return load_splits(path)


def _folds(X, y):
    return list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))


def test_saved_splits_as_cv_refuse_the_data_in_another_order(data, saved):
    # the splits were saved with y; the same rows re-sorted would be split by the old indices
    X, y = data
    order = np.argsort(X[:, 1])
    with pytest.raises(SplitsMismatchError, match="fingerprints differ"):
        cross_val_score(LogisticRegression(), X[order], y[order], cv=saved)
    with pytest.raises(SplitsMismatchError, match="fingerprints differ"):
        GridSearchCV(LogisticRegression(), {"C": [0.1, 1.0]}, cv=saved).fit(X[order], y[order])


def test_saved_splits_as_cv_refuse_more_rows_than_they_split(data, saved):
    # 80 rows: the 20 rows the 60-sample splits never reach would be silently left out
    X, y = data
    rng = np.random.RandomState(1)
    X80, y80 = np.vstack([X, rng.randn(20, 3)]), np.r_[y, rng.randint(0, 2, 20)]
    with pytest.raises(SplitsMismatchError, match="for 60 samples but X has 80"):
        cross_val_score(LogisticRegression(), X80, y80, cv=saved)
    with pytest.raises(SplitsMismatchError, match="for 60 samples but X has 80"):
        cross_validate(LogisticRegression(), X80, y80, cv=saved)


def test_saved_splits_as_cv_score_as_their_folds_given_as_a_list(data, saved):
    X, y = data
    expected = cross_val_score(LogisticRegression(), X, y, cv=_folds(X, y))
    np.testing.assert_array_equal(cross_val_score(LogisticRegression(), X, y, cv=saved), expected)
    assert saved.get_n_splits(X, y) == 5


def test_saved_splits_as_cv_say_that_they_ignore_groups(data, saved):
    X, y = data
    with pytest.warns(UserWarning, match="groups parameter is ignored by SavedSplits"):
        cross_val_score(LogisticRegression(), X, y, cv=saved, groups=np.arange(60) % 6)


def test_permutation_test_score_refusal_names_the_cause_and_the_way_out(data, saved):
    X, y = data
    cv = PredefinedSplits(saved)
    run = dict(n_permutations=10, random_state=0)
    with pytest.raises(SplitsMismatchError) as refusal:
        permutation_test_score(LogisticRegression(), X, y, cv=cv, **run)
    message = str(refusal.value)
    assert "permutation_test_score" in message
    assert "cv=list(PredefinedSplits(saved).split(X, y))" in message
    # the way out gives what scikit-learn gives on the same folds, listed
    score, permuted, p = permutation_test_score(
        LogisticRegression(), X, y, cv=list(cv.split(X, y)), **run
    )
    ref_score, ref_permuted, ref_p = permutation_test_score(
        LogisticRegression(), X, y, cv=_folds(X, y), **run
    )
    assert score == ref_score and p == ref_p
    np.testing.assert_array_equal(permuted, ref_permuted)
    assert round(ref_score, 3) == 0.783


def _positives(splitter, X, y, labels, groups=None):
    _, test = next(splitter.split(X, labels, groups))
    return int(y[test].sum())


def test_holdout_stratifies_a_one_column_frame_as_its_column():
    # scikit-learn takes a column vector for class labels (type_of_target: "binary")
    X, y = np.zeros((100, 2)), np.array([1] * 10 + [0] * 90)
    frame = pd.DataFrame({"label": y})[["label"]]
    for seed in range(20):
        column = _positives(HoldoutSplit(0.1, random_state=seed), X, y, frame)
        assert column == _positives(HoldoutSplit(0.1, random_state=seed), X, y, y)
        sss = StratifiedShuffleSplit(1, test_size=0.1, random_state=seed)
        assert column == _positives(sss, X, y, frame) == 1


def test_holdout_stratifies_whole_groups_by_a_one_column_frame():
    rng = np.random.RandomState(0)
    X, y = np.zeros((200, 1)), (rng.rand(200) < 0.2).astype(int)
    groups = np.arange(200) // 4
    frame = pd.DataFrame({"label": y})
    for seed in range(10):
        _, with_frame = next(HoldoutSplit(0.2, random_state=seed).split(X, frame, groups))
        _, with_vector = next(HoldoutSplit(0.2, random_state=seed).split(X, y, groups))
        np.testing.assert_array_equal(with_frame, with_vector)


def test_search_on_a_holdout_scores_a_one_column_frame_as_its_column():
    # unstratified, 10 rows of 10% positives held out held none: roc_auc was nan
    rng = np.random.RandomState(0)
    X, y = rng.randn(100, 2), np.array([1] * 10 + [0] * 90)
    scores = []
    for labels in (y, pd.DataFrame({"label": y})):
        search = GridSearchCV(
            LogisticRegression(),
            {"C": [0.1, 1.0]},
            cv=HoldoutSplit(0.1, random_state=1),
            scoring="roc_auc",
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the column vector's DataConversionWarning
            scores.append(search.fit(X, labels).cv_results_["mean_test_score"])
    reference = GridSearchCV(
        LogisticRegression(),
        {"C": [0.1, 1.0]},
        cv=StratifiedShuffleSplit(1, test_size=0.1, random_state=1),
        scoring="roc_auc",
    )
    expected = reference.fit(X, y).cv_results_["mean_test_score"]
    assert not np.isnan(expected).any()
    np.testing.assert_array_equal(scores[0], expected)
    np.testing.assert_array_equal(scores[1], expected)


def test_two_saved_splits_of_one_repr_are_not_taken_as_the_same_cv(tmp_path):
    # a search's own cv and inner_cv that are other SavedSplits of the same repr: the folds
    # differ (by hand), so neither is said to split as the other
    from sklearn_fair.model_selection._nested._candidates import _same_cv
    from sklearn_fair.model_selection._nested._resampling import _given_splits

    rows = np.arange(20)
    one = [(rows[5:], rows[:5]), (rows[:15], rows[15:])]
    other = [(rows[:15], rows[15:]), (rows[5:], rows[:5])]
    save_splits(one, tmp_path / "a.json")
    save_splits(other, tmp_path / "b.json")
    a, b = load_splits(tmp_path / "a.json"), load_splits(tmp_path / "b.json")
    assert repr(a) == repr(b)
    assert not _same_cv(a, b)
    assert [t.tolist() for _, t in _given_splits(a)] == [t.tolist() for _, t in one]
