"""The k-fold splitters built on scikit-learn's KFold refuse an n_splits that is not an int of
at least 2 in the words of RepeatedQuantileStratifiedKFold, naming n_splits (hunt DOC21,
DOC21-3): np.True_, np.int64(1) and 1.0 got scikit-learn's "The number of folds must be of
Integral type" or "got n_splits=1"."""

import re

import numpy as np
import pytest
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_fair.model_selection import (
    QuantileStratifiedKFold,
    RepeatedQuantileStratifiedKFold,
    StratifiedGraphKFold,
)

SPLITTERS = [QuantileStratifiedKFold, StratifiedGraphKFold]
BAD = [np.True_, np.False_, np.int64(1), np.int32(0), 1.0, 2.0, "3", None]


def _words(owner, value):
    return (
        f"The 'n_splits' parameter of {owner} must be an int in the range [2, inf). "
        f"Got {value!r} instead."
    )


@pytest.mark.parametrize("splitter", SPLITTERS, ids=lambda cls: cls.__name__)
@pytest.mark.parametrize("value", BAD, ids=repr)
def test_a_bad_n_splits_is_refused_naming_it(splitter, value):
    with pytest.raises(
        InvalidParameterError, match=f"^{re.escape(_words(splitter.__name__, value))}$"
    ):
        splitter(n_splits=value)


@pytest.mark.parametrize("value", BAD, ids=repr)
def test_in_the_words_of_the_repeated_splitter(value):
    owner = "RepeatedQuantileStratifiedKFold"
    with pytest.raises(InvalidParameterError, match=f"^{re.escape(_words(owner, value))}$"):
        RepeatedQuantileStratifiedKFold(n_splits=value).get_n_splits()


def test_the_repro_of_the_hunt():
    with pytest.raises(InvalidParameterError, match="'n_splits' parameter"):
        list(QuantileStratifiedKFold(n_splits=np.True_).split(np.zeros((40, 2)), np.arange(40.0)))


@pytest.mark.parametrize("splitter", SPLITTERS, ids=lambda cls: cls.__name__)
def test_a_numpy_int_of_2_or_more_is_taken(splitter):
    y = np.arange(40.0) if splitter is QuantileStratifiedKFold else np.arange(40) % 2
    cv = splitter(n_splits=np.int64(4), random_state=0)
    tests = [test for _, test in cv.split(np.zeros((40, 1)), y)]
    assert len(tests) == cv.get_n_splits() == 4
    assert sorted(np.concatenate(tests).tolist()) == list(range(40))
