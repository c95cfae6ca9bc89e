"""benchmark refuses an outer resampling of one split before it fits anything: a report needs
the spread of at least 2 outer scores, and the fits would be lost."""

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import ShuffleSplit

from sklearn_fair import benchmark
from sklearn_fair.model_selection import HoldoutSplit

FITS = []


class CountingLR(LogisticRegression):
    def fit(self, X, y, **kwargs):
        FITS.append(1)
        return super().fit(X, y, **kwargs)


DATA = make_classification(n_samples=60, n_features=5, random_state=0)


@pytest.mark.parametrize(
    "outer_cv",
    [
        HoldoutSplit(test_size=0.25, random_state=0),
        ShuffleSplit(n_splits=1, test_size=0.25, random_state=0),
        [(np.arange(15, 60), np.arange(15))],
    ],
)
def test_one_outer_split_is_refused_before_any_fit(outer_cv):
    FITS.clear()
    with pytest.raises(ValueError, match=r"'outer_cv' parameter of benchmark") as error:
        benchmark(
            {"lr": (CountingLR(), {"C": [0.1, 1.0]})},
            {"a": DATA},
            outer_cv=outer_cv,
            inner_cv=2,
            random_state=0,
            n_jobs=1,
        )
    assert "gives 1 outer split(s) of data set 'a'" in str(error.value)
    assert "at least 2" in str(error.value)
    assert FITS == []


def test_one_outer_split_of_one_data_set_in_a_dict_is_refused():
    FITS.clear()
    with pytest.raises(ValueError, match=r"of data set 'b'; benchmark needs at least 2"):
        benchmark(
            {"lr": (CountingLR(), {"C": [0.1, 1.0]})},
            {"a": DATA, "b": DATA},
            outer_cv={"a": 2, "b": HoldoutSplit(test_size=0.25, random_state=0)},
            inner_cv=2,
            random_state=0,
            n_jobs=1,
        )
    assert FITS == []
