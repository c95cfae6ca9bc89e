"""Groups given as one column (``df[["patient"]]``, shape (n, 1)) are read as that column, as
a one-column y is (hunt SPLITX-2: they crashed with numpy's "object too deep for desired
array", or "unhashable type: 'numpy.ndarray'"); groups of several columns are refused."""

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold

from sklearn_fair import NestedCV, nested_cross_validate

GRID = {"C": [0.01, 1]}


def _data():
    X, y = make_classification(120, 6, n_informative=3, flip_y=0.2, random_state=0)
    patient = np.random.RandomState(0).permutation(np.repeat(np.arange(12), 10))
    return X, y, pd.DataFrame({"patient": patient}, index=np.arange(500, 620))


def _nested_cv(X, y, groups, outer_cv):
    return NestedCV(
        LogisticRegression(), GRID, outer_cv=outer_cv, inner_cv=3, n_refits=1, refit=False,
        random_state=0,
    ).fit(X, y, groups=groups).outer_scores_  # fmt: skip


def _nested_cross_validate(X, y, groups, outer_cv):
    return nested_cross_validate(
        LogisticRegression(), X, y, groups=groups, cv=outer_cv, param_grid=GRID, inner_cv=3,
        n_refits=1, random_state=0,
    )["test_score"]  # fmt: skip


@pytest.mark.parametrize("run", [_nested_cv, _nested_cross_validate])
@pytest.mark.parametrize("outer_cv", [GroupKFold(4), 4])
@pytest.mark.parametrize(
    "as_column", [lambda df: df[["patient"]], lambda df: df.to_numpy()], ids=["frame", "array"]
)
def test_one_column_groups_give_the_scores_of_the_column(run, outer_cv, as_column):
    X, y, df = _data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        column = run(X, y, as_column(df), outer_cv)
        flat = run(X, y, df["patient"], outer_cv)
    # the reference: a grouped outer split keeps every patient on one side, as on the Series
    assert len(flat) == 4 and not np.isnan(flat).any()
    np.testing.assert_array_equal(column, flat)


@pytest.mark.parametrize("run", [_nested_cv, _nested_cross_validate])
def test_groups_of_several_columns_are_refused_with_their_shape(run):
    X, y, df = _data()
    two = df.assign(site=df["patient"] % 3)
    with pytest.raises(ValueError, match=r"groups must hold one group label per row .* shape "
                       r"\(120, 2\)\. Pass the column"):  # fmt: skip
        run(X, y, two, GroupKFold(4))
