"""PredefinedSplits validates whatever it replays, and validate_splits' checks of given splits.

Each check of validate_splits is compared with a plain reading of it built on numpy's set
functions (np.unique, np.intersect1d, np.setdiff1d), which the checks used before they were
made linear in the size of the splits.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.model_selection import StratifiedKFold

from sklearn_fair.exceptions import InvalidSplitError, SplitsMismatchError
from sklearn_fair.model_selection import (
    PredefinedSplits,
    RollingOrigin,
    SavedSplits,
    labels_fingerprint,
    load_splits,
    save_splits,
)
from sklearn_fair.model_selection._split_validation import (
    check_partition,
    validate_inner_splits,
    validate_splits,
)

X4 = np.zeros((4, 1))

# (folds of 4 samples, what the error says): each a SavedSplits built by hand replayed as is
HAND_BUILT = [
    ([([0, 1, 2], [2, 3])], r"Fold 0 of PredefinedSplits has indices in both .*: \[2\]"),
    ([([0, 1], [2, 3, 3])], r"Fold 0 of PredefinedSplits lists test indices more than once: \[3\]"),
    ([([0, 1], [7])], r"Fold 0 of PredefinedSplits has test indices out of range .*: \[7\]"),
    ([([0, 1], [2, 3]), ([0, 1, 2], [-1])], r"Fold 1 of .* out of range .*: \[-1\]"),
    ([([0, 1], [])], r"Fold 0 of PredefinedSplits has an empty test set"),
]


def as_arrays(folds):
    return [(np.asarray(train), np.asarray(test)) for train, test in folds]


@pytest.mark.parametrize("folds, message", HAND_BUILT)
def test_a_saved_splits_built_by_hand_is_validated_as_a_list_is(folds, message):
    # the same folds as a list raise; as a SavedSplits they were replayed without a check
    with pytest.raises(InvalidSplitError, match=message):
        list(PredefinedSplits(folds).split(X4))
    cv = PredefinedSplits(SavedSplits(as_arrays(folds), n_samples=4))
    for call in (cv.split, lambda X: cv.get_n_splits(), lambda X: cv.get_inner_splits(0)):
        with pytest.raises(InvalidSplitError, match=message):
            list(call(X4) or ())


def test_a_saved_splits_that_claims_kfold_must_be_one():
    saved = SavedSplits(as_arrays([([0, 1], [2]), ([0, 2], [1])]), n_samples=4, kfold=True)
    with pytest.raises(InvalidSplitError, match=r"not a k-fold split of 4 samples; never tested"):
        PredefinedSplits(saved).get_n_splits()


def test_hand_built_inner_splits_are_validated():
    folds = as_arrays([([1, 2, 3], [0])])
    leaking = SavedSplits(folds, inner_splits=[[(np.array([1, 2]), np.array([0]))]], n_samples=4)
    with pytest.raises(InvalidSplitError, match=r"Inner split 0 of outer fold 0 .*: \[0\]"):
        PredefinedSplits(leaking).get_inner_splits(0)


def test_a_hand_built_fingerprint_must_have_the_form_of_one():
    folds = as_arrays([([0, 1], [2, 3]), ([2, 3], [0, 1])])
    saved = SavedSplits(folds, n_samples=4, labels_fingerprint="garbage")
    with pytest.raises(InvalidSplitError, match="malformed 'labels_fingerprint' \\('garbage'\\)"):
        list(PredefinedSplits(saved).split(X4, [0, 1, 0, 1]))


def test_a_valid_saved_splits_replays_exactly(tmp_path):
    y = np.array([0, 1] * 6)
    folds = list(StratifiedKFold(3).split(y, y))
    saved = SavedSplits(folds, n_samples=12, labels_fingerprint=labels_fingerprint(y))
    cv = PredefinedSplits(saved)
    replayed = list(cv.split(np.zeros((12, 1)), y))
    assert cv.get_n_splits() == len(replayed) == 3
    for (train, test), (train0, test0) in zip(replayed, folds):
        np.testing.assert_array_equal(train, train0)
        np.testing.assert_array_equal(test, test0)
    # a SavedSplits is checked against its own n_samples, then compared with X
    with pytest.raises(SplitsMismatchError, match="for 12 samples but X has 13"):
        cv.split(np.zeros((13, 1)))
    save_splits(saved, tmp_path / "s.json")
    loaded = load_splits(tmp_path / "s.json")
    assert [t.tolist() for _, t in PredefinedSplits(loaded).split()] == [
        t.tolist() for _, t in folds
    ]


def test_rolling_origin_overlap_is_refused_as_before_in_both_forms():
    # RollingOrigin(lag > 0) overlaps on purpose; PredefinedSplits refused it as a list, and a
    # SavedSplits of the same folds is refused alike
    splits = list(RollingOrigin(initial=5, assess=2, lag=1).split(np.zeros((12, 1))))
    message = r"Fold 0 of PredefinedSplits has indices in both its training and test set: \[4\]"
    with pytest.raises(InvalidSplitError, match=message):
        PredefinedSplits(splits).get_n_splits()
    with pytest.raises(InvalidSplitError, match=message):
        PredefinedSplits(SavedSplits(splits, n_samples=12)).get_n_splits()


# --- validate_splits against a reading built on numpy's set functions ---------------------------


def _preview(values, limit=10):
    values = np.sort(np.asarray(values).reshape(-1))
    shown = ", ".join(str(int(v)) for v in values[:limit])
    return f"[{shown}" + (f", ... ({values.size} in all)" if values.size > limit else "") + "]"


def reference_problem(splits, n_samples, outer_train=None, name="cv"):
    """The first error the checks raise, or None: a direct reading of them."""
    for fold, (train, test) in enumerate(splits):
        for part, indices in (("training", train), ("test", test)):
            if indices.size == 0:
                return f"Fold {fold} of {name} has an empty {part} set."
            bad = indices[(indices < 0) | (indices >= n_samples)]
            if bad.size:
                return (
                    f"Fold {fold} of {name} has {part} indices out of range for {n_samples} "
                    f"samples: {_preview(bad)}."
                )
        values, counts = np.unique(test, return_counts=True)
        if (counts > 1).any():
            return (
                f"Fold {fold} of {name} lists test indices more than once: "
                f"{_preview(values[counts > 1])}."
            )
        both = np.intersect1d(train, test)
        if both.size:
            return (
                f"Fold {fold} of {name} has indices in both its training and test set: "
                f"{_preview(both)}."
            )
    if outer_train is not None:
        for number, (train, test) in enumerate(splits):
            outside = np.setdiff1d(np.concatenate([train, test]), outer_train)
            if outside.size:
                return (
                    f"Inner split {number} of outer fold 0 of cv uses indices outside the "
                    "fold's training set (leaking its test set into model selection): "
                    f"{_preview(outside)}."
                )
    return None


index_arrays = st.lists(st.integers(-2, 40), min_size=0, max_size=25).map(
    lambda v: np.array(v, dtype=np.intp)
)


@settings(max_examples=300, deadline=None)
@given(
    splits=st.lists(st.tuples(index_arrays, index_arrays), min_size=1, max_size=4),
    # small: a mask of n_samples; huge: a binary search (no array of n_samples is made)
    n_samples=st.sampled_from([1, 5, 20, 38, 10**15]),
    outer=st.lists(st.integers(0, 40), max_size=30).map(lambda v: np.array(v, dtype=np.intp)),
)
def test_checks_agree_with_numpys_set_functions(splits, n_samples, outer):
    expected = reference_problem(splits, n_samples)
    if expected is None:
        checked = validate_splits(splits, n_samples)
        for (train, test), (train0, test0) in zip(checked, splits):
            np.testing.assert_array_equal(train, train0)
            np.testing.assert_array_equal(test, test0)
    else:
        with pytest.raises(InvalidSplitError) as error:
            validate_splits(splits, n_samples)
        assert str(error.value) == expected
    outer = outer[outer < n_samples]
    name = "the inner splits of outer fold 0 of cv"
    expected = reference_problem(splits, n_samples, outer, name=name)
    if expected is None:
        validate_inner_splits(splits, outer, n_samples, fold=0, name="cv")
    else:
        with pytest.raises(InvalidSplitError) as error:
            validate_inner_splits(splits, outer, n_samples, fold=0, name="cv")
        assert str(error.value) == expected


@settings(max_examples=200, deadline=None)
@given(
    tests=st.lists(st.lists(st.integers(0, 30), max_size=12), min_size=1, max_size=4),
    n_samples=st.integers(0, 32),
)
def test_partition_check_agrees_with_a_count_of_each_sample(tests, n_samples):
    counts = {}
    for test in tests:
        for index in test:
            counts[index] = counts.get(index, 0) + 1
    never = [i for i in range(n_samples) if i not in counts]
    several = [i for i, count in counts.items() if count > 1]
    arrays = [np.array(test, dtype=np.intp) for test in tests]
    if not never and not several:
        check_partition(arrays, n_samples, name="cv")
        return
    with pytest.raises(InvalidSplitError) as error:
        check_partition(arrays, n_samples, name="cv")
    message = str(error.value)
    assert (f"never tested: {_preview(never)}" in message) == bool(never)
    assert (f"tested in several folds: {_preview(several)}" in message) == bool(several)


# --- what the messages show -----------------------------------------------------------------------


@pytest.mark.parametrize("value", [2**63, 2**64 - 1])
def test_uint64_indices_beyond_intp_are_shown_as_they_are(value):
    # as intp they wrapped round: 2**63 was shown as -9223372036854775808
    train, test = np.array([0, 1], np.uint64), np.array([2, value], np.uint64)
    with pytest.raises(InvalidSplitError, match=rf"test indices out of range .*: \[{value}\]"):
        validate_splits([(train, np.array([value], np.uint64))], 3)
    with pytest.raises(InvalidSplitError, match=rf"out of range for 3 samples: \[{value}\]"):
        PredefinedSplits([(train, test[1:])]).split(np.zeros((3, 1)))


def test_uint64_indices_in_range_are_taken():
    checked = validate_splits([(np.array([0, 1], np.uint64), np.array([2], np.uint64))], 3)
    assert [a.tolist() for a in checked[0]] == [[0, 1], [2]]
    assert checked[0][0].dtype == np.intp


@pytest.mark.parametrize("wrap", [lambda s: s, PredefinedSplits], ids=["saved", "predefined"])
def test_a_saved_splits_given_as_outer_cv_is_replayed_with_its_inner_splits_and_labels(
    tmp_path, wrap
):
    # given as it loads, check_cv wrapped it as a bare list of splits: its stored inner splits
    # were replaced by the default hold-out and rows in another order were not refused
    from sklearn.linear_model import LogisticRegression

    from sklearn_fair import NestedCV

    rng = np.random.RandomState(0)
    X, y = rng.normal(size=(40, 3)), np.array([0, 1] * 20)
    outer = list(StratifiedKFold(4, shuffle=True, random_state=0).split(X, y))
    triples = [(tr, te, [(tr[:15], tr[15:]), (tr[15:], tr[:15])]) for tr, te in outer]
    save_splits(triples, tmp_path / "s.json", y=y)
    saved = wrap(load_splits(tmp_path / "s.json"))
    nested = NestedCV(LogisticRegression(), {"C": [1.0, 2.0]}, outer_cv=saved, n_refits=1)
    nested.fit(X, y)
    assert nested.resampling_["inner"] == "the inner splits that outer_cv stores"
    assert [fold["inner_splits"] for fold in nested.outer_results_] == [2, 2, 2, 2]
    perm = rng.permutation(40)
    with pytest.raises(SplitsMismatchError, match="labels y are not those the splits were"):
        nested.fit(X[perm], y[perm])


def test_inner_splits_given_as_iterators_are_read_once_and_kept():
    # a zip of inner (train, test) pairs was read by the first check and found empty by the
    # next: "the inner splits of outer fold 0 ... produced no splits", from nested_cross_validate
    # too; the outer iterator was already kept as a list
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_validate

    from sklearn_fair import nested_cross_validate
    from sklearn_fair.model_selection import SavedSplits

    X, y = make_classification(n_samples=60, random_state=0)
    outer = list(StratifiedKFold(3, shuffle=True, random_state=0).split(X, y))
    inner = [(tr[: int(0.8 * len(tr))], tr[int(0.8 * len(tr)) :]) for tr, _ in outer]

    def triples():
        return [(tr, te, zip([a], [b])) for (tr, te), (a, b) in zip(outer, inner)]

    cv = PredefinedSplits(triples())
    for _ in range(2):
        (got,) = cv.get_inner_splits(0)
        np.testing.assert_array_equal(got[0], inner[0][0])
        np.testing.assert_array_equal(got[1], inner[0][1])
    grid = {"C": [0.01, 1.0]}
    result = nested_cross_validate(
        LogisticRegression(), X, y, param_grid=grid, outer_cv=PredefinedSplits(triples()),
        n_refits=1, random_state=0,
    )  # fmt: skip
    # the reference: GridSearchCV on each fold's one stored inner split (as rows of the fold)
    expected = []
    for (tr, te), (a, b) in zip(outer, inner):
        search = GridSearchCV(
            LogisticRegression(), grid, cv=[(np.searchsorted(tr, a), np.searchsorted(tr, b))]
        )
        expected.append(cross_validate(search, X, y, cv=[(tr, te)])["test_score"][0])
    np.testing.assert_allclose(result["test_score"], expected)
    saved = SavedSplits(outer, inner_splits=[zip([a], [b]) for a, b in inner], n_samples=60)
    assert saved.get_n_splits() == 3
    assert [len(test) for _, test in PredefinedSplits(saved).split(X)] == [
        len(te) for _, te in outer
    ]
