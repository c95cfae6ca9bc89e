"""Bootstrap(stratify=True) reads a one-column y (a one-column DataFrame, a column vector) as
its labels, as scikit-learn's StratifiedKFold does. Before, it raised "needs one label per
sample: y has shape (100, 1), X has 100 samples"."""

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification
from sklearn.model_selection import StratifiedKFold

from sklearn_fair.model_selection import Bootstrap

X, Y = make_classification(n_samples=100, random_state=0)


def _splits(y):
    return list(Bootstrap(3, stratify=True, random_state=0).split(X, y))


@pytest.mark.parametrize(
    "column",
    [pd.Series(Y, name="label").to_frame(), Y.reshape(-1, 1)],
    ids=["one-column DataFrame", "column vector"],
)
def test_one_column_gives_the_splits_of_its_labels(column):
    assert column.shape == (100, 1)
    # scikit-learn's stratified splitter reads the column as its labels too
    for (train, test), (train_1d, test_1d) in zip(
        StratifiedKFold(4).split(X, column), StratifiedKFold(4).split(X, Y)
    ):
        np.testing.assert_array_equal(train, train_1d)
        np.testing.assert_array_equal(test, test_1d)
    expected = _splits(Y)
    got = _splits(column)
    assert len(got) == len(expected) == 3
    for (train, test), (train_1d, test_1d) in zip(got, expected):
        np.testing.assert_array_equal(train, train_1d)
        np.testing.assert_array_equal(test, test_1d)


def test_several_columns_are_refused_naming_the_shape():
    two = np.column_stack([Y, 1 - Y])
    with pytest.raises(ValueError, match=r"one column of labels: y has shape \(100, 2\)"):
        _splits(two)


def test_a_wrong_length_is_refused_naming_both_lengths():
    with pytest.raises(ValueError, match=r"y has shape \(90, 1\), X has 100 samples"):
        _splits(Y[:90].reshape(-1, 1))
