"""StratifiedGraphKFold and QuantileStratifiedKFold refuse n_splits=True in the library's words
(hunt SPLITTERS-2): scikit-learn's KFold.__init__ took True for 1 and said "got n_splits=1"."""

import re

import pytest

from sklearn_fair.model_selection import (
    QuantileStratifiedKFold,
    RepeatedQuantileStratifiedKFold,
    StratifiedGraphKFold,
)

SPLITTERS = [StratifiedGraphKFold, QuantileStratifiedKFold]


@pytest.mark.parametrize("splitter", SPLITTERS, ids=lambda cls: cls.__name__)
@pytest.mark.parametrize("n_splits", [True, False])
def test_a_bool_n_splits_is_refused_naming_it(splitter, n_splits):
    expected = (
        f"The 'n_splits' parameter of {splitter.__name__} must be an int in the range "
        f"[2, inf). Got {n_splits!r} instead."
    )
    with pytest.raises(ValueError, match=f"^{re.escape(expected)}$"):
        splitter(n_splits=n_splits)


def test_the_repeated_splitter_says_the_same():
    # the words RepeatedQuantileStratifiedKFold (no KFold.__init__) already used for True
    expected = "The 'n_splits' parameter of RepeatedQuantileStratifiedKFold must be an int"
    with pytest.raises(ValueError, match=expected):
        RepeatedQuantileStratifiedKFold(n_splits=True).get_n_splits()


@pytest.mark.parametrize("splitter", SPLITTERS, ids=lambda cls: cls.__name__)
def test_an_int_n_splits_is_kept_and_1_still_refused(splitter):
    assert splitter(n_splits=3).get_n_splits() == 3
    with pytest.raises(ValueError, match="n_splits=1"):  # scikit-learn's KFold words
        splitter(n_splits=1)
