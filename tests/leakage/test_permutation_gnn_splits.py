"""permutation_check over a gnn-comparison split file (review38 REV-1).

Such files' test folds are stratified by class in the order of the data set's graphs, and
replaying them with labels in another order warns that they are not the paper's folds. The
permuted runs permute the labels on purpose: each of them warned, while the graphs were in
the file's order."""

import warnings

import numpy as np
from sklearn.linear_model import LogisticRegression

from sklearn_fair.leakage import permutation_check
from sklearn_fair.model_selection import PredefinedSplits, load_splits

ORDER = "not in the order the split file was made for"


def _imdb_binary(data_dir):
    y = np.loadtxt(data_dir / "TUDataset/IMDB-BINARY/raw/IMDB-BINARY_graph_labels.txt", dtype=int)
    splits = load_splits(
        data_dir / "gnn_comparison_splits/COLLABORATIVE_DEGREE/IMDB-BINARY_splits.json",
        format="gnn-comparison",
    )
    X = np.random.default_rng(0).normal(size=(y.size, 3))
    return X, y, splits


def _order_warnings(X, y, splits):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = permutation_check(
            LogisticRegression(), X, y, param_grid={"C": [1.0]},
            outer_cv=PredefinedSplits(splits), n_permutations=2, random_state=0, n_jobs=1,
        )  # fmt: skip
    return report, [w for w in caught if ORDER in str(w.message)]


def test_permuted_runs_over_a_gnn_comparison_file_do_not_warn_of_the_order(data_dir):
    X, y, splits = _imdb_binary(data_dir)
    report, order = _order_warnings(X, y, splits)
    assert len(report.permuted_estimates) == 2
    assert order == []


def test_labels_in_another_order_still_warn_once(data_dir):
    X, y, splits = _imdb_binary(data_dir)
    shuffled = np.random.default_rng(1).permutation(y)
    _, order = _order_warnings(X, shuffled, splits)
    assert len(order) == 1  # the check of the true labels, not one per permuted run
