"""HoldoutSplit: one split, its sizes, stratification, determinism and its errors.

Also its grouped (``groups`` given) and time-ordered (``shuffle=False``) variants, and its
place among scikit-learn's cross-validators.
"""

import re

import numpy as np
import pytest
import sklearn
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import make_classification
from sklearn.model_selection import (
    BaseShuffleSplit,
    GridSearchCV,
    ShuffleSplit,
    StratifiedShuffleSplit,
    TimeSeriesSplit,
    check_cv,
    cross_validate,
    train_test_split,
)
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
    # scikit-learn's _build_repr: every constructor parameter, sorted by name
    assert repr(HoldoutSplit(0.2, stratify=True, random_state=1)) == (
        "HoldoutSplit(gap=0, random_state=1, shuffle=True, stratify=True,\n       test_size=0.2)"
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


# --- a scikit-learn cross-validator -------------------------------------------------------------


def test_is_a_scikit_learn_shuffle_split_with_one_split():
    cv = HoldoutSplit()
    assert isinstance(cv, BaseShuffleSplit)
    assert check_cv(cv, y, classifier=True) is cv
    assert cv.get_n_splits() == cv.get_n_splits(X, y, np.arange(60)) == 1
    assert cv.get_metadata_routing().split.requests == {"groups": True}


@pytest.mark.parametrize("test_size", [0.1, 0.25, 7])
@pytest.mark.parametrize("seed", [0, 1, 17])
@pytest.mark.parametrize("stratify", [None, True, False])
def test_same_indices_as_scikit_learn_for_the_same_seed(test_size, seed, stratify):
    # the indices (and their order) of scikit-learn's one-split shufflers with that seed,
    # as before HoldoutSplit was built on BaseShuffleSplit
    if stratify is False:
        reference = ShuffleSplit(1, test_size=test_size, random_state=seed).split(X)
    else:
        reference = StratifiedShuffleSplit(1, test_size=test_size, random_state=seed).split(X, y)
    expected = next(reference)
    got = next(HoldoutSplit(test_size, stratify=stratify, random_state=seed).split(X, y))
    for a, b in zip(got, expected):
        np.testing.assert_array_equal(a, b)


def test_random_state_instance_is_drawn_from_once_per_call():
    rng = np.random.RandomState(4)
    seed = np.random.RandomState(4).randint(np.iinfo(np.int32).max)
    expected = next(StratifiedShuffleSplit(1, test_size=0.2, random_state=seed).split(X, y))
    got = next(HoldoutSplit(0.2, random_state=rng).split(X, y))
    for a, b in zip(got, expected):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("groups", [None, np.repeat(np.arange(15), 4)])
@pytest.mark.parametrize("stratify", [None, False])
def test_generator_random_state(groups, stratify):
    def splits(seed):
        cv = HoldoutSplit(0.2, stratify=stratify, random_state=np.random.default_rng(seed))
        return [next(cv.split(X, y, groups))[1] for _ in range(3)]

    first, again, other = splits(0), splits(0), splits(1)
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
    # the Generator advances: the three calls differ, and another seed differs
    assert not np.array_equal(first[0], first[1])
    assert not all(np.array_equal(a, b) for a, b in zip(first, other))


def test_grid_search_with_metadata_routing_passes_groups():
    groups = np.repeat(np.arange(12), 5)
    cv = HoldoutSplit(0.25, random_state=0)
    train, test = next(cv.split(X, y, groups))
    assert not set(groups[train]) & set(groups[test])
    expected = KNeighborsClassifier(n_neighbors=3).fit(X[train], y[train]).score(X[test], y[test])
    for routing in (False, True):
        with sklearn.config_context(enable_metadata_routing=routing):
            search = GridSearchCV(KNeighborsClassifier(), {"n_neighbors": [3]}, cv=cv)
            search.fit(X, y, groups=groups)
        assert search.cv_results_["split0_test_score"][0] == pytest.approx(expected)


# --- grouped hold-out ---------------------------------------------------------------------------


def rows_held_out(test_size, n_samples):
    """The validation size ShuffleSplit gives: test_size rows, or its share rounded up."""
    return test_size if isinstance(test_size, int) else int(np.ceil(test_size * n_samples))


def assert_partition(train, test, n_samples):
    assert train.size and test.size
    np.testing.assert_array_equal(np.sort(np.concatenate([train, test])), np.arange(n_samples))


@settings(max_examples=60, deadline=None)
@given(
    group_sizes=st.lists(st.integers(1, 6), min_size=2, max_size=25),
    n_classes=st.integers(1, 3),
    test_size=st.sampled_from([0.1, 0.2, 0.5, 0.8, 1, 3]),
    stratify=st.sampled_from([None, True, False]),
    seed=st.integers(0, 2**31 - 2),
)
def test_grouped_holdout_never_puts_a_group_on_both_sides(
    group_sizes, n_classes, test_size, stratify, seed
):
    groups = np.repeat(np.arange(len(group_sizes)), group_sizes)
    rng = np.random.default_rng(seed)
    groups = rng.permutation(groups)
    n_samples = groups.size
    n_test = rows_held_out(test_size, n_samples)
    if n_test >= n_samples:
        return
    labels = rng.integers(0, n_classes, n_samples)
    cv = HoldoutSplit(test_size, stratify=stratify, random_state=seed)
    train, test = next(cv.split(np.zeros((n_samples, 1)), labels, groups))
    assert_partition(train, test, n_samples)
    assert not set(groups[train]) & set(groups[test])
    again = next(cv.split(np.zeros((n_samples, 1)), labels, groups))
    np.testing.assert_array_equal(test, again[1])
    if stratify is False:
        assert abs(test.size - n_test) <= max(group_sizes)


@pytest.mark.parametrize("seed", range(5))
def test_grouped_holdout_of_single_rows_is_exactly_stratified(seed):
    # with one row per group, whole groups do not constrain anything: 45/15 split 80/20
    # keeps 9 and 3 in validation, as StratifiedShuffleSplit does
    groups = np.arange(60)
    train, test = next(HoldoutSplit(0.2, random_state=seed).split(X, Y_IMBALANCED, groups))
    assert sorted(np.unique(Y_IMBALANCED[test], return_counts=True)[1]) == [3, 9]


def test_grouped_holdout_stratifies_as_far_as_groups_allow():
    # groups of 1 to 4 rows of mixed classes: stratified, the validation part's share of
    # class 1 stays closer to the whole's than unstratified
    rng = np.random.default_rng(0)
    errors = {True: [], False: []}
    for seed in range(40):
        groups = np.repeat(np.arange(50), rng.integers(1, 5, 50))
        labels = (rng.random(groups.size) < 0.25).astype(int)
        for stratify in (True, False):
            cv = HoldoutSplit(0.2, stratify=stratify, random_state=seed)
            _, test = next(cv.split(np.zeros((groups.size, 1)), labels, groups))
            errors[stratify].append(abs(labels[test].mean() - labels.mean()))
    assert np.mean(errors[True]) < 0.5 * np.mean(errors[False])


def test_grouped_holdout_aims_at_test_size_in_rows():
    groups = np.repeat(np.arange(30), 2)
    for seed in range(10):
        _, test = next(HoldoutSplit(0.1, stratify=False, random_state=seed).split(X, y, groups))
        assert test.size == 6


def test_grouped_holdout_with_groups_larger_than_the_target():
    # no group alone is near 10% of the rows: the one that overshoots least validates
    groups = np.repeat([0, 1, 2], [30, 20, 10])
    train, test = next(HoldoutSplit(0.1, stratify=False, random_state=0).split(X, y, groups))
    np.testing.assert_array_equal(test, np.arange(50, 60))


def test_grouped_holdout_needs_two_groups():
    with pytest.raises(ValueError, match="all the samples are in one group"):
        next(HoldoutSplit().split(X, y, np.zeros(60)))


def test_groups_of_another_length_are_refused():
    with pytest.raises(ValueError, match=r"groups must hold one group label per row of X \(60 "):
        next(HoldoutSplit().split(X, y, np.arange(10)))


# --- time-ordered hold-out ----------------------------------------------------------------------


@pytest.mark.parametrize("test_size, n_test", [(0.1, 6), (0.25, 15), (1, 1), (59, 59)])
def test_time_ordered_holdout_validates_on_the_last_rows(test_size, n_test):
    train, test = next(HoldoutSplit(test_size, shuffle=False).split(X, y))
    np.testing.assert_array_equal(train, np.arange(60 - n_test))
    np.testing.assert_array_equal(test, np.arange(60 - n_test, 60))


@settings(max_examples=60, deadline=None)
@given(
    group_sizes=st.lists(st.integers(1, 6), min_size=2, max_size=25),
    test_size=st.sampled_from([0.1, 0.3, 0.5, 0.9, 1, 4]),
)
def test_time_ordered_holdout_with_groups_cuts_between_groups(group_sizes, test_size):
    groups = np.repeat(np.arange(len(group_sizes)), group_sizes)
    n_samples = groups.size
    n_test = rows_held_out(test_size, n_samples)
    if n_test >= n_samples:
        return
    cv = HoldoutSplit(test_size, shuffle=False)
    train, test = next(cv.split(np.zeros((n_samples, 1)), None, groups))
    assert_partition(train, test, n_samples)
    assert train.max() < test.min()
    assert not set(groups[train]) & set(groups[test])
    # the cut is the group boundary nearest to the one without groups
    boundaries = np.cumsum(group_sizes)[:-1]
    best = np.min(np.abs(boundaries - (n_samples - n_test)))
    assert abs(train.size - (n_samples - n_test)) == best


def test_time_ordered_holdout_is_not_stratified_by_default():
    # y sorted by class: the last 25% are all of class 1, as time order says
    labels = np.array([0] * 45 + [1] * 15)
    _, test = next(HoldoutSplit(0.25, shuffle=False).split(X, labels))
    assert set(labels[test]) == {1}


def test_time_ordered_holdout_with_interleaved_groups_is_refused():
    groups = np.array([0, 1] * 30)
    with pytest.raises(ValueError, match="every cut point falls inside a group"):
        next(HoldoutSplit(shuffle=False).split(X, y, groups))


@pytest.mark.parametrize(
    "params, message",
    [
        ({"shuffle": False, "random_state": 0}, "random_state has no effect"),
        ({"shuffle": False, "random_state": np.random.default_rng(0)}, "random_state has no"),
        ({"shuffle": False, "stratify": True}, "cannot also stratify"),
        ({"shuffle": "no"}, "'shuffle' parameter of HoldoutSplit must be an instance of 'bool'"),
        ({"stratify": "yes"}, "'stratify' parameter of HoldoutSplit must be .*bool.* or None"),
        ({"stratify": 1}, "'stratify' parameter of HoldoutSplit must be .*Got 1 instead"),
        ({"random_state": -1}, "'random_state' parameter of HoldoutSplit must be None"),
        ({"random_state": "0"}, "'random_state' parameter of HoldoutSplit must be None"),
        ({"random_state": True}, "'random_state' parameter of HoldoutSplit .*Got True"),
        ({"test_size": True}, "'test_size' parameter of HoldoutSplit .*Got True"),
    ],
)
def test_invalid_parameters(params, message):
    with pytest.raises(ValueError, match=message):
        next(HoldoutSplit(**params).split(X, y))


@pytest.mark.parametrize("groups", [None, np.arange(60)])
def test_test_size_too_large_for_the_time_or_group_split(groups):
    with pytest.raises(ValueError, match="test_size=60\\) leaves no row"):
        next(HoldoutSplit(60, shuffle=False).split(X, y, groups))
    with pytest.raises(ValueError, match="test_size"):
        next(HoldoutSplit(60, random_state=0).split(X, y, groups))


# --- stratify=None on an integer-valued numeric target -------------------------------------------

Y_COUNTS = np.random.RandomState(0).poisson(20, 60)  # a count: integers, many seen once


@pytest.mark.parametrize(
    "y_int, reason",
    [
        (Y_COUNTS, "The least populated classes in y have only 1 member"),
        (np.repeat(np.arange(30), 2), "The test_size = 6 should be greater or equal to the number"),
    ],
)
def test_stratify_none_on_integer_targets_says_why_and_what_to_do(y_int, reason):
    # scikit-learn's message spoke of classes the user never meant to have
    with pytest.raises(ValueError) as error:
        next(HoldoutSplit(random_state=0).split(X, y_int))
    message = str(error.value)
    assert message.startswith(
        "HoldoutSplit(stratify=None) takes y, of integers, strings or booleans, for class labels"
    )
    assert reason in message
    assert "If they are a numeric target (a count, an age), or classes too rare" in message
    assert "pass stratify=False" in message
    # what it suggests works, and is ShuffleSplit's split
    train, test = next(HoldoutSplit(stratify=False, random_state=0).split(X, y_int))
    train0, test0 = next(ShuffleSplit(1, test_size=0.1, random_state=0).split(X))
    np.testing.assert_array_equal(train, train0)
    np.testing.assert_array_equal(test, test0)


def test_stratify_none_still_makes_stratified_shuffle_splits_of_integer_labels():
    y_int = np.repeat(np.arange(3), 20)
    for seed in range(5):
        train, test = next(HoldoutSplit(0.2, random_state=seed).split(X, y_int))
        train0, test0 = next(
            StratifiedShuffleSplit(1, test_size=0.2, random_state=seed).split(X, y_int)
        )
        np.testing.assert_array_equal(train, train0)
        np.testing.assert_array_equal(test, test0)


def test_other_errors_are_left_as_they_are():
    # stratify=True asked for classes: scikit-learn's message as it is
    with pytest.raises(ValueError, match="^The least populated classes in y have only 1 member"):
        next(HoldoutSplit(stratify=True, random_state=0).split(X, Y_COUNTS))
    # a test_size too large for X is not a matter of classes
    with pytest.raises(ValueError, match="^test_size=60 should be either positive and smaller"):
        next(HoldoutSplit(60, random_state=0).split(X, Y_COUNTS))


@pytest.mark.parametrize("gap", [0, 1, 5])
def test_a_time_ordered_gap_is_scikit_learns_time_series_split_gap(gap):
    X = np.zeros((50, 1))
    train, test = next(HoldoutSplit(test_size=8, shuffle=False, gap=gap).split(X))
    *_, (their_train, their_test) = TimeSeriesSplit(n_splits=3, test_size=8, gap=gap).split(X)
    np.testing.assert_array_equal(test, their_test)
    np.testing.assert_array_equal(train, their_train)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"gap": 2}, "needs shuffle=False"),
        ({"gap": 45, "shuffle": False}, "leaves no training rows"),
        ({"gap": -1, "shuffle": False}, "'gap' parameter"),
    ],
)
def test_a_gap_is_refused_where_it_cannot_hold(kwargs, match):
    with pytest.raises(ValueError, match=match):
        next(HoldoutSplit(test_size=5, **kwargs).split(np.zeros((50, 1))))


@pytest.mark.parametrize("n_samples", [2, 7, 42, 150])
def test_a_share_too_large_is_told_the_largest_share_that_leaves_training_rows(n_samples):
    # a fraction was told "test_size must be below n_samples", which 0.99 already is
    X = np.zeros((n_samples, 1))
    with pytest.raises(ValueError, match=r"a share of ([0-9.]+) or less") as error:
        next(HoldoutSplit(test_size=0.999, shuffle=False).split(X))
    share = float(re.search(r"a share of ([0-9.]+) or less", str(error.value))[1])
    train, test = next(HoldoutSplit(test_size=share, shuffle=False).split(X))
    assert len(train) >= 1 and len(test) >= 1
    # scikit-learn's own ordered hold-out keeps training rows at that share too
    assert len(train_test_split(X, test_size=share, shuffle=False)[0]) >= 1


def test_one_sample_is_told_a_hold_out_needs_two():
    with pytest.raises(ValueError, match="a hold-out needs at least 2 samples"):
        next(HoldoutSplit(test_size=0.5, shuffle=False).split(np.zeros((1, 1))))
