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
    # and the file it came from
    match = "Fold 0 of the inner splits of outer fold 1 of the splits in splits.json has"
    with pytest.raises(InvalidSplitError, match=match):
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
    with pytest.raises(InvalidSplitError, match="more than max_bytes=100; pass save_splits a"):
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


# --- gnn-comparison inner splits cover the outer training set ------------------------------------


def test_every_paper_file_has_inner_splits_that_cover_the_outer_training_set(data_dir):
    # the rule the loader now enforces holds in all 14 official files (read with plain json)
    for relative_path in PAPER_FILES:
        raw = json.loads((data_dir / "gnn_comparison_splits" / relative_path).read_text())
        n_samples = sum(len(fold["test"]) for fold in raw)
        for fold in raw:
            outer_train = set(range(n_samples)) - set(fold["test"])
            for pair in fold["model_selection"]:
                assert sorted(pair["train"] + pair["validation"]) == sorted(outer_train)


@pytest.mark.parametrize("drop", [("train", 0), ("validation", 0), ("train", 3)])
def test_gnn_inner_split_that_leaves_graphs_out_is_refused(data_dir, tmp_path, drop):
    raw = json.loads((data_dir / "gnn_comparison_splits/CHEMICAL/ENZYMES_splits.json").read_text())
    part, fold = drop
    removed = raw[fold]["model_selection"][0][part][:2]
    del raw[fold]["model_selection"][0][part][:2]
    path = write_json(tmp_path, raw, "ENZYMES_splits.json")
    shown = ", ".join(str(i) for i in sorted(removed))
    message = (
        rf"model_selection\[0\] of outer fold {fold} of .* leaves 2 of the fold's 540 training "
        rf"graphs out of both 'train' and 'validation': \[{shown}\]"
    )
    with pytest.raises(InvalidSplitError, match=message):
        load_splits(path, format="gnn-comparison")


def test_gnn_inner_split_must_cover_in_a_small_file(tmp_path):
    gnn = [
        {"test": [0, 1], "model_selection": [{"train": [2], "validation": [3]}]},
        {"test": [2, 3, 4], "model_selection": [{"train": [0], "validation": [1]}]},
    ]
    # fold 0's training set is [2, 3, 4]: graph 4 is in neither inner set
    with pytest.raises(InvalidSplitError, match=r"outer fold 0 .* leaves 1 of .* 3 .*: \[4\]"):
        load_splits(write_json(tmp_path, gnn), format="gnn-comparison")
    gnn[0]["model_selection"][0]["validation"] = [3, 4]
    saved = load_splits(write_json(tmp_path, gnn), format="gnn-comparison")
    assert saved.get_inner_splits(0)[0][1].tolist() == [3, 4]


# --- save_splits: n_samples and max_folds ------------------------------------------------------


def test_save_splits_takes_a_numpy_integer_n_samples(tmp_path):
    splits = [(np.array([0, 1, 2]), np.array([3, 4])), (np.array([2, 3, 4]), np.array([0, 1]))]
    save_splits(splits, tmp_path / "s.json", n_samples=np.int64(5))
    assert json.loads((tmp_path / "s.json").read_text())["n_samples"] == 5
    loaded = load_splits(tmp_path / "s.json")
    assert loaded.n_samples == 5 and [t.tolist() for _, t in loaded] == [[3, 4], [0, 1]]


def test_save_splits_max_folds(tmp_path):
    # 3 outer folds and 2 inner splits: 5 splits, as load_splits counts them
    inner = [(np.array([1]), np.array([2]))]
    splits = [
        (np.array([1, 2]), np.array([0]), inner),
        (np.array([0, 2]), np.array([1]), None),
        (np.array([0, 1]), np.array([2]), [(np.array([0]), np.array([1]))]),
    ]
    path = tmp_path / "s.json"
    message = (
        r"These splits are 5 splits \(outer folds and inner splits\), more than max_folds=4; "
        r"pass save_splits a larger max_folds to write them, and load_splits the same"
    )
    with pytest.raises(InvalidSplitError, match=message):
        save_splits(splits, path, max_folds=4)
    assert not path.exists()
    save_splits(splits, path, max_folds=5)
    with pytest.raises(InvalidSplitError, match="max_folds=4: pass a larger max_folds"):
        load_splits(path, max_folds=4)  # what save_splits refused, load_splits refuses
    assert len(load_splits(path, max_folds=5)) == 3
    # both limits at once: both named
    with pytest.raises(
        InvalidSplitError,
        match=r"more than max_bytes=10 and .* max_folds=4; .*"
        r"larger max_bytes and max_folds",
    ):
        save_splits(splits, path, max_bytes=10, max_folds=4)


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "5"])
def test_save_splits_max_folds_is_validated_as_load_splits_is(tmp_path, bad):
    for function, args in (
        (save_splits, ([([0], [1])], tmp_path / "s.json")),
        (load_splits, (tmp_path / "s.json",)),
    ):
        with pytest.raises(
            (TypeError, ValueError),
            match=rf"'max_folds' parameter of {function.__name__} must be an int in the range "
            rf"\[1, inf\)\. Got {bad!r}",
        ):
            function(*args, max_folds=bad)


def test_save_splits_over_the_default_max_folds_says_which_limit(tmp_path):
    splits = [(np.array([0, 1]), np.array([2]))] * 100_001
    with pytest.raises(InvalidSplitError) as error:
        save_splits(splits, tmp_path / "s.json", max_bytes=2**30)
    message = str(error.value)
    assert "100001 splits" in message and "max_folds=100000 (load_splits' default too)" in message
    assert "max_bytes" not in message  # a larger max_bytes would not help


# --- what a split file may hold ----------------------------------------------------------------


def sklearn_fair_document(**changes):
    document = {
        "format": "sklearn-fair-splits",
        "version": 1,
        "n_samples": 4,
        "kfold": True,
        "labels_fingerprint": None,
        "folds": [{"train": [1, 3], "test": [0, 2]}, {"train": [0, 2], "test": [1, 3]}],
    }
    document.update(changes)
    return document


@pytest.mark.parametrize(
    "value, shown", [("other-format", "'other-format'"), (None, "None"), (1, "1")]
)
def test_a_wrong_format_value_is_named(tmp_path, value, shown):
    path = write_json(tmp_path, sklearn_fair_document(format=value))
    message = (
        rf"not an sklearn-fair splits file: its 'format' is {shown}, not 'sklearn-fair-splits'"
    )
    with pytest.raises(InvalidSplitError, match=message):
        load_splits(path)
    document = sklearn_fair_document()
    del document["format"]
    with pytest.raises(InvalidSplitError, match=r"\(no 'format' key\)"):
        load_splits(write_json(tmp_path, document))


GOOD_FINGERPRINT = labels_fingerprint([0, 1, 0, 1])


@pytest.mark.parametrize(
    "fingerprint",
    [
        "garbage",
        "",
        "sha256-ranks:",
        GOOD_FINGERPRINT[:-1],
        GOOD_FINGERPRINT + "0",
        GOOD_FINGERPRINT.upper(),
        "sha256:" + GOOD_FINGERPRINT.split(":")[1],
        GOOD_FINGERPRINT[:-1] + "g",
        GOOD_FINGERPRINT + "\n",
    ],
)
def test_a_malformed_fingerprint_is_refused_at_load(tmp_path, fingerprint):
    # before, it loaded and then every y was refused as labels "of another data set"
    path = write_json(tmp_path, sklearn_fair_document(labels_fingerprint=fingerprint))
    with pytest.raises(InvalidSplitError, match="malformed 'labels_fingerprint'"):
        load_splits(path)
    # and save_splits does not write a file that load_splits would refuse
    folds = [(np.array([1, 3]), np.array([0, 2])), (np.array([0, 2]), np.array([1, 3]))]
    saved = SavedSplits(folds, n_samples=4, labels_fingerprint=fingerprint)
    with pytest.raises(InvalidSplitError, match="malformed 'labels_fingerprint'"):
        save_splits(saved, tmp_path / "t.json")
    assert not (tmp_path / "t.json").exists()


def test_a_well_formed_fingerprint_loads():
    import re

    # the form the loader checks is the one labels_fingerprint returns (prefix, SHA-256 hex)
    for y in ([0, 1, 0, 1], ["b", "a"], np.arange(1000.0)):
        assert re.fullmatch(r"sha256-ranks:[0-9a-f]{64}", labels_fingerprint(y))


def test_a_well_formed_fingerprint_round_trips(tmp_path):
    path = write_json(tmp_path, sklearn_fair_document(labels_fingerprint=GOOD_FINGERPRINT))
    cv = PredefinedSplits(load_splits(path))
    assert len(list(cv.split(np.zeros((4, 1)), [5, 7, 5, 7]))) == 2


@pytest.mark.parametrize(
    "text, key",
    [
        # gnn-comparison: a fold's test set given twice (the last one won)
        (
            '[{"test":[5,6,7],"test":[0,2],"model_selection":[{"train":[1],"validation":[3]}]},'
            '{"test":[1,3],"model_selection":[{"train":[0],"validation":[2]}]}]',
            "test",
        ),
        (
            '[{"test":[0,2],"model_selection":[{"train":[1],"validation":[3],"train":[3]}]},'
            '{"test":[1,3],"model_selection":[{"train":[0],"validation":[2]}]}]',
            "train",
        ),
    ],
)
def test_duplicate_keys_in_a_gnn_file_are_refused(tmp_path, text, key):
    path = tmp_path / "s.json"
    path.write_text(text)
    with pytest.raises(InvalidSplitError, match=f"gives the key '{key}' twice in one JSON object"):
        load_splits(path, format="gnn-comparison")


def test_duplicate_keys_in_an_sklearn_fair_file_are_refused(tmp_path):
    text = json.dumps(sklearn_fair_document())
    path = tmp_path / "s.json"
    path.write_text(text[:-1] + ',"n_samples":5}')
    with pytest.raises(InvalidSplitError, match="gives the key 'n_samples' twice"):
        load_splits(path)
    path.write_text(text[:-1] + ',"x":1,"y":2}')  # other keys, each once: refused as unknown
    with pytest.raises(InvalidSplitError, match="has the key\\(s\\) 'x', 'y', which"):
        load_splits(path)


def test_other_readers_of_bounded_json_keep_the_last_of_duplicate_keys(tmp_path):
    # read_json keeps the last of two keys unless asked (split and result files ask)
    from sklearn_fair.model_selection._bounded_json import read_json

    path = tmp_path / "r.json"
    path.write_text('{"a": 1, "a": 2}')
    assert read_json(path, max_bytes=100, max_depth=4, error=ValueError) == {"a": 2}
    with pytest.raises(ValueError, match="gives the key 'a' twice"):
        read_json(path, max_bytes=100, max_depth=4, error=ValueError, unique_keys=True)


def test_brackets_inside_strings_of_an_extra_key_do_not_count_as_nesting(tmp_path):
    # what test_saved_splits_hostile carried in labels_fingerprint, which must now be one; the
    # key itself is refused, after the reader has taken the string without a nesting error
    document = sklearn_fair_document(note="[" * 100 + '"{' * 100 + "\\" + "{" * 100)
    with pytest.raises(InvalidSplitError, match="has the key\\(s\\) 'note', which"):
        load_splits(write_json(tmp_path, document))


@pytest.mark.parametrize(
    "where, change",
    [
        ("the splits in splits.json", lambda d: d.update(labels_fingerprnt=None)),
        ("outer fold 1 of the splits", lambda d: d["folds"][1].update(inners=[])),
        (
            "inner split 0 of outer fold 0",
            lambda d: d["folds"][0].update(inner=[{"train": [1], "test": [3], "tset": [3]}]),
        ),
    ],
)
def test_a_key_the_format_does_not_have_is_refused_by_name(tmp_path, where, change):
    # a misspelt 'labels_fingerprint' or 'inner' loaded as a file without them: the labels
    # check and the stored inner splits vanished without a word
    document = sklearn_fair_document()
    change(document)
    with pytest.raises(InvalidSplitError, match=f"{where}.* has the key"):
        load_splits(write_json(tmp_path, document))


def test_a_file_without_kfold_says_what_its_folds_are(tmp_path):
    document = sklearn_fair_document()
    del document["kfold"]
    assert load_splits(write_json(tmp_path, document)).kfold  # its test sets partition 0..3
    document["folds"] = document["folds"][:1]
    assert not load_splits(write_json(tmp_path, document)).kfold


# --- loading is linear in the file ---------------------------------------------------------------


def test_loading_does_no_hash_based_set_operation_on_the_indices(tmp_path, monkeypatch):
    # np.unique (numpy >= 2.3 hashes integers) and np.intersect1d / np.setdiff1d, which call
    # it, took 85% of the 14 s that a 2.2 MiB file of 300,000 graphs took to load
    n, calls = 20_000, []
    folds = np.array_split(np.random.RandomState(0).permutation(n), 10)
    document = []
    for k, test in enumerate(folds):
        validation = folds[(k + 1) % 10][:100]
        train = np.setdiff1d(np.arange(n), np.concatenate([test, validation]))
        document.append(
            {
                "test": test.tolist(),
                "model_selection": [{"train": train.tolist(), "validation": validation.tolist()}],
            }
        )
    path = write_json(tmp_path, document, "BIG_splits.json")
    for name in ("unique", "intersect1d", "setdiff1d", "union1d", "isin"):
        original = getattr(np, name)

        def recording(*args, _original=original, _name=name, **kwargs):
            calls.append((_name, np.asarray(args[0]).size))
            return _original(*args, **kwargs)

        monkeypatch.setattr(np, name, recording)
    saved = load_splits(path, format="gnn-comparison")
    assert saved.kfold and len(saved) == 10
    assert [call for call in calls if call[1] > 1000] == []


def test_an_inner_cv_beside_stored_inner_splits_is_refused(tmp_path):
    # the stored inner splits were used and inner_cv=3 dropped without a word
    from sklearn.linear_model import LogisticRegression

    from sklearn_fair import NestedCV

    rng = np.random.default_rng(0)
    y = np.array([0, 1, 1] * 8)
    X = rng.normal(size=(24, 3))
    save_splits(nested_kfold_with_holdout(y), tmp_path / "s.json", y=y)
    cv = PredefinedSplits(load_splits(tmp_path / "s.json"))
    grid = {"C": [0.1, 1.0]}
    with pytest.raises(ValueError, match=r"stores the inner splits.*inner_cv=3.*Give one"):
        NestedCV(LogisticRegression(), grid, outer_cv=cv, inner_cv=3, refit=False).fit(X, y)
    stored = NestedCV(LogisticRegression(), grid, outer_cv=cv, refit=False, n_refits=1).fit(X, y)
    for fold, result in enumerate(stored.outer_results_):  # the stored hold-outs selected
        ((train, test),) = cv.get_inner_splits(fold)
        by_hand = max(
            LogisticRegression(C=C).fit(X[train], y[train]).score(X[test], y[test])
            for C in grid["C"]
        )
        assert result["inner_splits"] == 1 and result["validation_score"] == by_hand
