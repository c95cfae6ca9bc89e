"""Bootstrap(stratify=True) needs two samples of every class: a class's only sample is drawn
every time and never assessed out of bag."""

import numpy as np
import pytest

from sklearn_fair.model_selection import Bootstrap

X = np.zeros((20, 1))


def test_continuous_y_is_refused_before_drawing():
    y = np.random.default_rng(0).random(20)
    with pytest.raises(
        ValueError, match=r"at least 2 .* 20 of the 20 classes have only 1.*stratify=False"
    ):
        next(Bootstrap(2, stratify=True, random_state=0).split(X, y))


def test_a_class_of_one_sample_is_refused_by_name():
    y = np.array(["a"] * 12 + ["b"] * 7 + ["c"])
    with pytest.raises(ValueError, match=r"1 of the 3 classes have only 1 \('c'\)"):
        next(Bootstrap(2, stratify=True, random_state=0).split(X, y))


def test_two_samples_of_every_class_are_enough():
    y = np.array(["a"] * 16 + ["b"] * 2 + ["c"] * 2)
    for train, test in Bootstrap(5, stratify=True, random_state=0).split(X, y):
        # drawn class by class: each class keeps its count in the analysis set
        assert sorted(np.unique(y[train], return_counts=True)[1].tolist()) == [2, 2, 16]
        np.testing.assert_array_equal(test, np.setdiff1d(np.arange(20), train))
