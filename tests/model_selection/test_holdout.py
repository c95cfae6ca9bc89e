"""HoldoutSplit: one split, its sizes, stratification, determinism and its errors."""

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.model_selection import GridSearchCV, cross_validate
from sklearn.neighbors import KNeighborsClassifier

from sklearn_fair.model_selection import HoldoutSplit

X, y = make_classification(n_samples=60, n_features=4, weights=[0.75], random_state=0)
Y_IMBALANCED = np.array([0] * 45 + [1] * 15)


@pytest.mark.parametrize(
    "test_size, n_test", [(0.1, 6), (0.25, 15), (0.5, 30), (1, 1), (7, 7), (59, 59)]
)
def test_one_split_of_the_requested_size(test_size, n_test):
    # unstratified: a stratified split needs at least one sample of each class on each side
    cv = HoldoutSplit(test_size=test_size, stratify=False, random_state=0)
    splits = list(cv.split(X, y))
    assert cv.get_n_splits() == cv.get_n_splits(X, y) == len(splits) == 1
    train, test = splits[0]
    assert (len(train), len(test)) == (60 - n_test, n_test)
    np.testing.assert_array_equal(np.sort(np.concatenate([train, test])), np.arange(60))


@pytest.mark.parametrize("stratify", [None, True])
@pytest.mark.parametrize("random_state", [0, 1, 2])
@pytest.mark.parametrize("labels", [Y_IMBALANCED, np.where(Y_IMBALANCED == 1, "b", "a")])
def test_stratified_split_keeps_the_class_proportions(stratify, random_state, labels):
    cv = HoldoutSplit(test_size=0.2, stratify=stratify, random_state=random_state)
    train, test = next(cv.split(X, labels))
    # 45/15 split 80/20 keeps 36/12 and 9/3, whatever the seed
    assert sorted(np.unique(labels[test], return_counts=True)[1]) == [3, 9]
    assert sorted(np.unique(labels[train], return_counts=True)[1]) == [12, 36]


def test_unstratified_split_ignores_the_classes():
    # Unstratified, some seed gives a test set of another class balance than 9/3.
    counts = {
        int(
            Y_IMBALANCED[
                next(HoldoutSplit(0.2, stratify=False, random_state=s).split(X, Y_IMBALANCED))[1]
            ].sum()
        )
        for s in range(20)
    }
    assert counts != {3}


def test_float_targets_are_not_stratified_by_default():
    targets = np.linspace(0, 1, 60)
    train, test = next(HoldoutSplit(0.1, random_state=0).split(X, targets))
    assert (len(train), len(test)) == (54, 6)


def test_stratify_true_needs_y():
    with pytest.raises(ValueError, match="needs y"):
        next(HoldoutSplit(stratify=True).split(X))


@pytest.mark.parametrize("random_state", [0, 3])
def test_same_int_seed_same_split(random_state):
    first = next(HoldoutSplit(0.2, random_state=random_state).split(X, y))
    second = next(HoldoutSplit(0.2, random_state=random_state).split(X, y))
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)


def test_random_state_instance_gives_reproducible_sequences():
    def two_splits(seed):
        cv = HoldoutSplit(0.2, random_state=np.random.RandomState(seed))
        return [next(cv.split(X, y))[1] for _ in range(2)]

    first, second = two_splits(0), two_splits(0)
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("test_size", [0, 0.0, 1.0, 1.5, -0.1, -1, True, "0.1", None])
def test_invalid_test_size_is_refused(test_size):
    with pytest.raises(ValueError, match="'test_size' parameter of HoldoutSplit"):
        next(HoldoutSplit(test_size=test_size).split(X, y))


def test_repr_shows_the_parameters():
    assert repr(HoldoutSplit(0.2, stratify=True, random_state=1)) == (
        "HoldoutSplit(test_size=0.2, stratify=True, random_state=1)"
    )


def test_works_as_cv_of_grid_search_and_cross_validate():
    cv = HoldoutSplit(0.25, random_state=0)
    train, test = next(cv.split(X, y))
    search = GridSearchCV(KNeighborsClassifier(), {"n_neighbors": [1, 3]}, cv=cv).fit(X, y)
    assert "split1_test_score" not in search.cv_results_
    expected = KNeighborsClassifier(n_neighbors=3).fit(X[train], y[train]).score(X[test], y[test])
    assert search.cv_results_["split0_test_score"][1] == pytest.approx(expected)

    results = cross_validate(KNeighborsClassifier(n_neighbors=3), X, y, cv=cv)
    np.testing.assert_allclose(results["test_score"], [expected])
