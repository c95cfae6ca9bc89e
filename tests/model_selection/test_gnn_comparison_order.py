"""An official gnn-comparison split file used with graphs in another order warns.

Every split file of Errica et al. (ICLR 2020) is stratified (StratifiedKFold): in the order of
the TU data set's files, each class is within one graph of its share of every test fold. The
files carry no labels fingerprint, so labels off that share by more than one graph are the
only sign that the graphs were shuffled (PyG's ``dataset.shuffle()``) or sorted, and that the
folds index other graphs than the paper's.
"""

import re
import warnings

import numpy as np
import pytest
from sklearn.dummy import DummyClassifier

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import SklearnFairWarning
from sklearn_fair.model_selection import PredefinedSplits, SavedSplits, load_splits

ORDER = "not in the order the split file was made for"


def _graphs_and_splits(data_dir, name, folder, features):
    from sklearn_fair.graph import load_tu_dataset

    graphs = load_tu_dataset(name, data_dir / "TUDataset", features=features)
    path = data_dir / "gnn_comparison_splits" / folder / f"{name}_splits.json"
    return graphs, load_splits(path, format="gnn-comparison")


@pytest.mark.parametrize(
    "name, folder, features",
    [
        ("IMDB-BINARY", "COLLABORATIVE_DEGREE", "degree"),
        ("IMDB-MULTI", "COLLABORATIVE_1", "constant"),
        ("ENZYMES", "CHEMICAL", "auto"),
        ("PROTEINS_full", "CHEMICAL", "auto"),
        ("NCI1", "CHEMICAL", "auto"),
    ],
)
def test_the_data_sets_original_order_does_not_warn(data_dir, name, folder, features):
    graphs, splits = _graphs_and_splits(data_dir, name, folder, features)
    y = np.asarray(graphs.y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", SklearnFairWarning)
        folds = list(PredefinedSplits(splits).split(graphs, y))
        assert len(list(splits.split(graphs, y))) == 10
    # the folds are the file's, and stratified: every class within 1 of its share
    shares = np.bincount(y) / y.size
    for (_, test), (_, expected) in zip(folds, splits.folds):
        np.testing.assert_array_equal(test, expected)
        assert np.all(np.abs(np.bincount(y[test], minlength=shares.size) - shares * test.size) <= 1)


def test_shuffled_graphs_warn_with_the_fold_and_counts(data_dir):
    graphs, splits = _graphs_and_splits(data_dir, "IMDB-BINARY", "COLLABORATIVE_DEGREE", "degree")
    shuffled = graphs[np.random.default_rng(0).permutation(len(graphs))]  # dataset.shuffle()
    y = np.asarray(shuffled.y)
    with pytest.warns(SklearnFairWarning, match=ORDER) as record:
        list(PredefinedSplits(splits).split(shuffled, y))
    (warning,) = [w for w in record if ORDER in str(w.message)]
    message = str(warning.message)
    assert "PredefinedSplits replays a gnn-comparison split file" in message
    assert "these folds are not the paper's" in message
    # the folds, count and share it names, against a count of the shuffled labels
    n_off, n_folds, fold, count, label, share = re.search(
        r"(\d+) of its (\d+) test folds hold a class off its share by more than one "
        r"\(outer fold (\d+): (\d+) samples of class (\d+) where its share is ([\d.]+)\)",
        message,
    ).groups()
    shares = np.bincount(y) / y.size
    off = np.array(
        [
            np.abs(np.bincount(y[test], minlength=2) - shares * test.size).max()
            for _, test in splits.folds
        ]
    )
    assert (int(n_off), int(n_folds)) == (np.sum(off > 1), 10)
    assert int(fold) == np.argmax(off) and off.max() > 1  # the fold furthest off
    test = splits.folds[int(fold)][1]
    assert int(count) == np.sum(y[test] == int(label))
    assert float(share) == pytest.approx(shares[int(label)] * test.size, abs=0.05)
    assert abs(int(count) - float(share)) == pytest.approx(off.max(), abs=0.05)


def test_nested_cv_on_shuffled_labels_warns(data_dir):
    # NestedCV splits with the labels it is given (a graph collection's own when y is None)
    graphs, splits = _graphs_and_splits(data_dir, "IMDB-BINARY", "COLLABORATIVE_DEGREE", "degree")
    y = np.asarray(graphs.y)
    X = np.zeros((y.size, 1))
    search = NestedCV(
        DummyClassifier(),
        {"strategy": ["prior"]},
        outer_cv=PredefinedSplits(splits),
        n_refits=1,
        refit=False,
        random_state=0,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error", SklearnFairWarning)
        search.fit(X, y)
    shuffled = np.random.default_rng(0).permutation(y)
    with pytest.warns(SklearnFairWarning, match=ORDER):
        search.fit(X, shuffled)


def test_only_splits_read_as_gnn_comparison_are_checked(data_dir):
    # the same folds given by hand (or saved with a labels fingerprint) are not the paper's
    # file: nothing says they were stratified
    graphs, splits = _graphs_and_splits(data_dir, "IMDB-BINARY", "COLLABORATIVE_DEGREE", "degree")
    shuffled = np.asarray(graphs.y)[np.random.default_rng(0).permutation(len(graphs))]
    by_hand = SavedSplits(
        splits.folds, inner_splits=splits.inner_splits, n_samples=splits.n_samples
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error", SklearnFairWarning)
        list(PredefinedSplits(by_hand).split(None, shuffled))
        list(PredefinedSplits(list(splits.folds)).split(None, shuffled))
    with pytest.warns(SklearnFairWarning, match=ORDER):
        list(PredefinedSplits(splits).split(None, shuffled))


def _reference_style_file(tmp_path, y, seed=0):
    """A split file as the reference code writes one (StratifiedKFold(10, shuffle=True), each
    outer training set split into train and validation), on labels in their order."""
    import json

    from sklearn.model_selection import StratifiedKFold, train_test_split

    folds = []
    for train, test in StratifiedKFold(10, shuffle=True, random_state=seed).split(y, y):
        inner_train, validation = train_test_split(
            train, test_size=0.1, stratify=y[train], random_state=seed
        )
        selection = [{"train": inner_train.tolist(), "validation": validation.tolist()}]
        folds.append({"test": test.tolist(), "model_selection": selection})
    path = tmp_path / "WINE_splits.json"
    path.write_text(json.dumps(folds))
    return load_splits(path, format="gnn-comparison")


def test_stratified_kfold_rounding_does_not_warn(tmp_path):
    # StratifiedKFold deals each class round the folds: on wine's 3 classes a 10-fold test
    # set of 18 can hold a class 1.2 samples off its share, and the folds are still those
    # StratifiedKFold made for these labels in this order (scikit-learn's own splitter)
    from sklearn.datasets import load_wine

    y = load_wine().target
    splits = _reference_style_file(tmp_path, y)
    shares = np.bincount(y) / y.size
    off = max(
        np.abs(np.bincount(y[test], minlength=3) - shares * test.size).max()
        for _, test in splits.folds
    )
    assert off > 1  # the case: off its share by more than one, and stratified
    with warnings.catch_warnings():
        warnings.simplefilter("error", SklearnFairWarning)
        list(PredefinedSplits(splits).split(y.reshape(-1, 1), y))
    shuffled = y[np.random.default_rng(0).permutation(y.size)]
    with pytest.warns(SklearnFairWarning, match=ORDER):
        list(PredefinedSplits(splits).split(y.reshape(-1, 1), shuffled))
