"""save_splits / load_splits / PredefinedSplits, and the split files of Errica et al. (2020)."""

import json
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.model_selection import (
    GridSearchCV,
    KFold,
    ShuffleSplit,
    StratifiedKFold,
    cross_validate,
)
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair.exceptions import InvalidSplitError, SplitsMismatchError
from sklearn_fair.model_selection import (
    Bootstrap,
    HoldoutSplit,
    PredefinedSplits,
    SavedSplits,
    labels_fingerprint,
    load_splits,
    save_splits,
)

PAPER_FILES = [
    "CHEMICAL/DD_splits.json",
    "CHEMICAL/ENZYMES_splits.json",
    "CHEMICAL/NCI1_splits.json",
    "CHEMICAL/PROTEINS_full_splits.json",
    "COLLABORATIVE_1/COLLAB_splits.json",
    "COLLABORATIVE_1/IMDB-BINARY_splits.json",
    "COLLABORATIVE_1/IMDB-MULTI_splits.json",
    "COLLABORATIVE_1/REDDIT-BINARY_splits.json",
    "COLLABORATIVE_1/REDDIT-MULTI-5K_splits.json",
    "COLLABORATIVE_DEGREE/COLLAB_splits.json",
    "COLLABORATIVE_DEGREE/IMDB-BINARY_splits.json",
    "COLLABORATIVE_DEGREE/IMDB-MULTI_splits.json",
    "COLLABORATIVE_DEGREE/REDDIT-BINARY_splits.json",
    "COLLABORATIVE_DEGREE/REDDIT-MULTI-5K_splits.json",
]


def nested_kfold_with_holdout(y, seed=0):
    """Outer stratified 4-fold, one inner hold-out per fold, in absolute indices."""
    X = np.zeros((len(y), 1))
    triples = []
    for train, test in StratifiedKFold(4, shuffle=True, random_state=seed).split(X, y):
        inner_train, inner_test = next(HoldoutSplit(0.25, random_state=seed).split(train, y[train]))
        triples.append((train, test, [(train[inner_train], train[inner_test])]))
    return triples


def write_json(tmp_path, document, name="splits.json"):
    path = tmp_path / name
    path.write_text(json.dumps(document))
    return path


# --- the paper's files --------------------------------------------------------------------------


@pytest.mark.parametrize("relative_path", PAPER_FILES)
def test_paper_files_load_with_their_exact_indices(data_dir, relative_path):
    path = data_dir / "gnn_comparison_splits" / relative_path
    raw = json.loads(path.read_text())
    saved = load_splits(path, format="gnn-comparison")
    n_samples = sum(len(fold["test"]) for fold in raw)
    assert saved.n_samples == n_samples
    assert saved.kfold and saved.labels_fingerprint is None
    cv = PredefinedSplits(saved)
    assert cv.get_n_splits() == len(raw) == 10
    for number, ((train, test), fold) in enumerate(zip(cv.split(), raw)):
        assert test.tolist() == fold["test"]
        assert train.tolist() == sorted(set(range(n_samples)) - set(fold["test"]))
        inner = cv.get_inner_splits(number)
        assert len(inner) == len(fold["model_selection"]) == 1
        for (inner_train, inner_test), pair in zip(inner, fold["model_selection"]):
            assert inner_train.tolist() == pair["train"]
            assert inner_test.tolist() == pair["validation"]


def read_tu_labels(data_dir, name):
    return np.loadtxt(data_dir / "TUDataset" / name / "raw" / f"{name}_graph_labels.txt", dtype=int)


def test_paper_file_resaved_with_labels_pins_the_data_set(data_dir, tmp_path):
    y = read_tu_labels(data_dir, "ENZYMES")
    saved = load_splits(
        data_dir / "gnn_comparison_splits/CHEMICAL/ENZYMES_splits.json", "gnn-comparison"
    )
    path = tmp_path / "enzymes.json"
    save_splits(saved, path, y=y)
    reloaded = load_splits(path)
    assert reloaded.kfold and reloaded.labels_fingerprint == labels_fingerprint(y)
    for (train_a, test_a), (train_b, test_b) in zip(saved, reloaded):
        assert train_a.tolist() == train_b.tolist() and test_a.tolist() == test_b.tolist()
    for fold in range(10):
        for (a, b), (c, d) in zip(saved.get_inner_splits(fold), reloaded.get_inner_splits(fold)):
            assert a.tolist() == c.tolist() and b.tolist() == d.tolist()
    cv = PredefinedSplits(reloaded)
    # PyG's re-coding of the labels (1..6 to 0..5) keeps the fingerprint.
    assert len(list(cv.split(np.zeros((600, 1)), y - 1))) == 10
    with pytest.raises(SplitsMismatchError, match="fingerprints differ"):
        cv.split(np.zeros((600, 1)), np.roll(y, 1))
    with pytest.raises(SplitsMismatchError, match="600 samples but X has 599"):
        cv.split(np.zeros((599, 1)))


def test_paper_test_folds_are_stratified(data_dir):
    y = read_tu_labels(data_dir, "NCI1")
    saved = load_splits(
        data_dir / "gnn_comparison_splits/CHEMICAL/NCI1_splits.json", "gnn-comparison"
    )
    counts = np.array([np.bincount(y[test]) for _, test in saved])
    assert np.ptp(counts, axis=0).max() <= 1


# --- round trips --------------------------------------------------------------------------------


def test_round_trip_with_inner_splits(tmp_path):
    y = np.array([0, 1, 1] * 8)
    triples = nested_kfold_with_holdout(y)
    save_splits(triples, tmp_path / "s.json", y=y)
    document = json.loads((tmp_path / "s.json").read_text())
    # k-fold training sets are "the rest" of the samples: version 2 lists the test sets only
    assert document["format"] == "sklearn-fair-splits" and document["version"] == 2
    assert all(fold["train_is_rest"] and "train" not in fold for fold in document["folds"])
    assert document["n_samples"] == 24 and document["kfold"] is True
    cv = PredefinedSplits(load_splits(tmp_path / "s.json"))
    for number, ((train, test), (train0, test0, inner0)) in enumerate(
        zip(cv.split(np.zeros((24, 1)), y), triples)
    ):
        np.testing.assert_array_equal(train, train0)
        np.testing.assert_array_equal(test, test0)
        ((inner_train, inner_test),) = cv.get_inner_splits(number)
        np.testing.assert_array_equal(inner_train, inner0[0][0])
        np.testing.assert_array_equal(inner_test, inner0[0][1])


def test_round_trip_bootstrap_keeps_repeats(tmp_path):
    X = np.zeros((30, 1))
    splits = list(Bootstrap(4, random_state=0).split(X))
    save_splits(splits, tmp_path / "b.json")
    saved = load_splits(tmp_path / "b.json")
    assert not saved.kfold and saved.get_inner_splits(0) is None
    for (a, b), (c, d) in zip(splits, saved):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)
    result = cross_validate(
        DecisionTreeClassifier(), X, np.arange(30) % 2, cv=PredefinedSplits(saved)
    )
    assert len(result["test_score"]) == 4


@settings(max_examples=40, deadline=None)
@given(
    n_samples=st.integers(min_value=4, max_value=60),
    n_splits=st.integers(min_value=2, max_value=4),
    seed=st.integers(min_value=0, max_value=2**31 - 1),
)
def test_round_trip_is_exact(tmp_path_factory, n_samples, n_splits, seed):
    order = np.random.default_rng(seed).permutation(n_samples)
    tests = np.array_split(order, n_splits)
    splits = [(np.setdiff1d(order, t), t) for t in tests if t.size]
    path = tmp_path_factory.mktemp("rt") / "s.json"
    save_splits(iter(splits), path)
    saved = load_splits(path)
    assert saved.n_samples == n_samples and saved.kfold
    for (a, b), (c, d) in zip(splits, saved):
        assert a.tolist() == c.tolist() and b.tolist() == d.tolist()


def test_round_trip_keeps_the_order_of_shuffled_training_sets(tmp_path):
    # ShuffleSplit (and HoldoutSplit, which is it) yield training sets in a random order, and
    # an estimator fitted on the same rows in another order can differ (SGD, ties): a file
    # replays them in the order saved; the sorted ones of a k-fold stay compact (version 2)
    X, y = np.zeros((40, 1)), np.arange(40) % 2
    for cv, version in [(ShuffleSplit(3, test_size=0.25, random_state=0), 1), (KFold(4), 2)]:
        splits = list(cv.split(X, y))
        save_splits(splits, tmp_path / "s.json", y=y)
        assert json.loads((tmp_path / "s.json").read_text())["version"] == version
        for (a, b), (c, d) in zip(splits, load_splits(tmp_path / "s.json")):
            assert a.tolist() == c.tolist() and b.tolist() == d.tolist()


def test_fingerprint_ignores_order_preserving_recoding():
    y = np.array(["b", "a", "c", "a"])
    assert labels_fingerprint(y) == labels_fingerprint([1, 0, 2, 0])
    assert labels_fingerprint(y) == labels_fingerprint(np.array([-1.0, -3.0, 7.0, -3.0]))
    assert labels_fingerprint(y) != labels_fingerprint([1, 0, 2])
    assert labels_fingerprint(y).startswith("sha256-ranks:")


def test_save_with_conflicting_labels(tmp_path):
    y = np.array([0, 1] * 6)
    save_splits(StratifiedKFold(3).split(y, y), tmp_path / "s.json", y=y)
    saved = load_splits(tmp_path / "s.json")
    with pytest.raises(SplitsMismatchError, match="does not match"):
        save_splits(saved, tmp_path / "t.json", y=np.roll(y, 1))
    with pytest.raises(SplitsMismatchError, match="13 labels"):
        save_splits(saved, tmp_path / "t.json", y=np.zeros(13))


# --- validation of the splits given to us -------------------------------------------------------

BAD_FOLDS = [
    ([([0, 1, 9], [2])], "Fold 0 of .* out of range for 4 samples: \\[9\\]"),
    ([([0, 1], [2, 3]), ([0, 1, 2], [3, -1])], "Fold 1 of .* out of range .*\\[-1\\]"),
    ([([0, 1, 2], [2, 3])], "Fold 0 of .* both its training and test set: \\[2\\]"),
    ([([0, 1], [2, 3, 3])], "Fold 0 of .* test indices more than once: \\[3\\]"),
]


@pytest.mark.parametrize("folds, message", BAD_FOLDS)
def test_invalid_loaded_files_name_fold_and_indices(tmp_path, folds, message):
    document = {
        "format": "sklearn-fair-splits",
        "version": 1,
        "n_samples": 4,
        "kfold": False,
        "labels_fingerprint": None,
        "folds": [{"train": train, "test": test} for train, test in folds],
    }
    with pytest.raises(InvalidSplitError, match=message):
        load_splits(write_json(tmp_path, document))


@pytest.mark.parametrize("folds, message", BAD_FOLDS)
def test_invalid_predefined_splits_name_fold_and_indices(folds, message):
    with pytest.raises(InvalidSplitError, match=message):
        PredefinedSplits(folds).split(np.zeros((4, 1)))


@pytest.mark.parametrize(
    "tests, message",
    [
        ([[0, 1], [2]], "never tested: \\[3\\]"),
        ([[0, 1, 2], [2, 3]], "tested in several folds: \\[2\\]"),
    ],
)
def test_kfold_file_must_test_each_sample_once(tmp_path, tests, message):
    folds = [{"train": sorted(set(range(4)) - set(t)), "test": t} for t in tests]
    document = {
        "format": "sklearn-fair-splits",
        "version": 1,
        "n_samples": 4,
        "kfold": True,
        "folds": folds,
    }
    with pytest.raises(InvalidSplitError, match=message):
        load_splits(write_json(tmp_path, document))
    gnn = [
        {"test": t, "model_selection": [{"train": f["train"][:1], "validation": f["train"][1:]}]}
        for t, f in zip(tests, folds)
    ]
    with pytest.raises(InvalidSplitError, match=message):
        load_splits(write_json(tmp_path, gnn, "gnn.json"), format="gnn-comparison")


def test_inner_split_must_stay_inside_outer_training_set(tmp_path):
    gnn = [
        {"test": [0, 1], "model_selection": [{"train": [2], "validation": [1, 3]}]},
        {"test": [2, 3], "model_selection": [{"train": [0], "validation": [1]}]},
    ]
    with pytest.raises(InvalidSplitError, match="Inner split 0 of outer fold 0 .*: \\[1\\]"):
        load_splits(write_json(tmp_path, gnn), format="gnn-comparison")
    with pytest.raises(InvalidSplitError, match="outer fold 1"):
        PredefinedSplits([([1, 2], [0], None), ([0, 2], [1], [([0], [1])])]).get_inner_splits(1)


def test_inner_split_overlap_names_outer_fold(tmp_path):
    gnn = [
        {"test": [0], "model_selection": [{"train": [1, 2], "validation": [3]}]},
        {"test": [1, 2, 3], "model_selection": [{"train": [0], "validation": [0]}]},
    ]
    with pytest.raises(InvalidSplitError, match="Fold 0 of the inner splits of outer fold 1"):
        load_splits(write_json(tmp_path, gnn), format="gnn-comparison")


@pytest.mark.parametrize(
    "document, message",
    [
        ([{"test": [0]}], "gnn-comparison loads with format='gnn-comparison'"),
        ({"folds": []}, "not an sklearn-fair splits file"),
        ({"format": "sklearn-fair-splits", "version": 99}, "version 99"),
        (
            {
                "format": "sklearn-fair-splits",
                "version": 1,
                "n_samples": 2,
                "folds": [{"train": [True], "test": [1]}],
            },
            "integer indices; found \\[True\\]",
        ),
        (
            {
                "format": "sklearn-fair-splits",
                "version": 1,
                "n_samples": 2,
                "folds": [{"train": [0.0], "test": [1]}],
            },
            "integer indices; found \\[0.0\\]",
        ),
        (
            {
                "format": "sklearn-fair-splits",
                "version": 1,
                "n_samples": 2,
                "folds": [{"test": [1]}],
            },
            "has no 'train' entry",
        ),
    ],
)
def test_malformed_files(tmp_path, document, message):
    with pytest.raises(InvalidSplitError, match=message):
        load_splits(write_json(tmp_path, document))


class _Marker:
    def __reduce__(self):
        return (open, ("/dev/null", "r"))


def test_loading_never_unpickles(tmp_path):
    path = tmp_path / "splits.pkl"
    for protocol in (0, pickle.HIGHEST_PROTOCOL):
        path.write_bytes(pickle.dumps([_Marker()], protocol=protocol))
        with pytest.raises(InvalidSplitError, match="not valid JSON"):
            load_splits(path)


def test_bad_format_parameter(tmp_path):
    with pytest.raises(
        ValueError, match="'format' parameter of load_splits must be a str among .*Got 'pickle'"
    ):
        load_splits(tmp_path / "x.json", format="pickle")


# --- PredefinedSplits as a splitter ---------------------------------------------------------------


def test_predefined_splits_from_generator_and_repr():
    y = np.array([0, 1] * 5)
    cv = PredefinedSplits(StratifiedKFold(5).split(y, y))
    assert cv.get_n_splits() == 5 and len(list(cv.split())) == 5 and len(list(cv.split())) == 5
    assert cv.get_inner_splits(0) is None
    with pytest.raises(ValueError, match="outer fold 5 does not exist"):
        cv.get_inner_splits(5)
    for bad in (-1, True, "0"):
        match = f"'fold' parameter of PredefinedSplits.get_inner_splits .*Got {bad!r}"
        with pytest.raises(ValueError, match=match):
            cv.get_inner_splits(bad)
    assert repr(cv).startswith("PredefinedSplits(splits=")


def test_predefined_boolean_masks_are_as_long_as_the_data(tmp_path):
    # a boolean mask has one entry per sample: it gives n_samples where no X is passed
    # (get_n_splits(), as GridSearchCV and NestedCV call it, and save_splits)
    X, y = np.arange(60.0).reshape(30, 2), np.arange(30) % 2
    mask = np.arange(30) < 10
    masks = [(~mask, mask), (mask, ~mask)]
    indices = [(np.flatnonzero(train), np.flatnonzero(test)) for train, test in masks]
    cv = PredefinedSplits(masks)
    assert cv.get_n_splits() == 2
    tree, grid = DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2]}
    by_masks = GridSearchCV(tree, grid, cv=cv).fit(X, y).cv_results_["mean_test_score"]
    by_indices = GridSearchCV(tree, grid, cv=indices).fit(X, y).cv_results_["mean_test_score"]
    np.testing.assert_array_equal(by_masks, by_indices)
    save_splits(masks, tmp_path / "masks.json")
    saved = load_splits(tmp_path / "masks.json")
    assert saved.n_samples == 30 and saved.kfold
    for (a, b), (c, d) in zip(indices, saved):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)


def test_saved_splits_is_iterable_as_sklearn_cv():
    y = np.array([0, 1] * 5)
    saved = SavedSplits(list(StratifiedKFold(5).split(y, y)), n_samples=10)
    result = cross_validate(DecisionTreeClassifier(), y.reshape(-1, 1), y, cv=saved)
    assert len(result["test_score"]) == len(saved) == 5


def test_a_ten_fold_split_of_a_million_rows_loads_with_the_defaults(tmp_path):
    # 10 x 900,000 training indices took 65.7 MiB in JSON, over load_splits' 64 MiB default;
    # version 2 writes a training set that is "the rest" of the samples as its test set only
    from sklearn.model_selection import KFold

    from sklearn_fair.model_selection._saved_splits import MAX_BYTES

    n = 10**6
    path = tmp_path / "million.json"
    splits = list(KFold(10, shuffle=True, random_state=0).split(np.empty((n, 0))))
    save_splits(splits, path, n_samples=n)
    assert path.stat().st_size < MAX_BYTES / 8
    loaded = load_splits(path)
    assert loaded.kfold and len(loaded) == 10 and loaded.n_samples == n
    for (train, test), (train0, test0) in zip(loaded, splits):
        np.testing.assert_array_equal(train, train0)
        np.testing.assert_array_equal(test, test0)


def test_save_splits_writes_only_what_load_splits_reads(tmp_path):
    from sklearn_fair.exceptions import InvalidSplitError

    rng = np.random.default_rng(0)
    # bootstrap training sets have repeats: listed in full
    splits = [(rng.integers(0, 200, 200), np.arange(150, 200)) for _ in range(3)]
    splits = [(np.setdiff1d(tr, te), te) for tr, te in splits]
    path = tmp_path / "s.json"
    with pytest.raises(InvalidSplitError, match="more than load_splits reads by default"):
        save_splits(splits, path, n_samples=200, max_bytes=100)
    assert not path.exists()  # nothing is written
    save_splits(splits, path, n_samples=200, max_bytes=10**6)
    assert len(load_splits(path)) == 3


def test_a_compact_file_is_checked_like_any_other(tmp_path):
    from sklearn_fair.exceptions import InvalidSplitError

    path = tmp_path / "s.json"
    document = {
        "format": "sklearn-fair-splits",
        "version": 1,
        "n_samples": 4,
        "kfold": True,
        "labels_fingerprint": None,
        "folds": [{"train_is_rest": True, "test": [0, 1]}, {"train_is_rest": True, "test": [2, 3]}],
    }
    path.write_text(json.dumps(document))
    with pytest.raises(InvalidSplitError, match="needs version 2"):
        load_splits(path)
    document["version"] = 2
    path.write_text(json.dumps(document))
    assert load_splits(path).folds[0][0].tolist() == [2, 3]
    document["n_samples"] = 10**12  # the rest of a trillion samples is not built
    path.write_text(json.dumps(document))
    with pytest.raises(InvalidSplitError, match="more than the"):
        load_splits(path)
