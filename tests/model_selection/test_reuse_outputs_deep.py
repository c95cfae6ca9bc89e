"""A step's output served from the prefix store (``reuse_prefix=True``) is a copy that no later
step can reach into: a step that edits the records it is given in place (dicts in a list, an
object array or a frame's object column) leaves every other fit's records as they were, so the
search selects what GridSearchCV selects, with any ``n_jobs``."""

import copy
import sys

import cloudpickle
import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.datasets import make_classification
from sklearn.feature_extraction import DictVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_validate
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import FunctionTransformer

from sklearn_fair import nested_cross_validate
from sklearn_fair.model_selection._nested import _reuse

# the workers of n_jobs=2 get this module's steps by value
cloudpickle.register_pickle_by_value(sys.modules[__name__])

X, y = make_classification(n_samples=150, n_features=4, n_informative=2, random_state=0)


def to_list(X):
    return [{f"f{j}": float(v) for j, v in enumerate(row)} for row in X]


def to_object_array(X):
    records = np.empty(len(X), dtype=object)
    records[:] = to_list(X)
    return records


def to_frame(X):
    return pd.DataFrame({"record": to_list(X), "name": [f"row{i}" for i in range(len(X))]})


def records(X):
    return list(X["record"]) if isinstance(X, pd.DataFrame) else list(X)


class ScaleInPlace(TransformerMixin, BaseEstimator):
    """Multiplies ``f0`` of every record by ``factor``, editing the records it is given."""

    def __init__(self, factor=1.0):
        self.factor = factor

    def fit(self, X, y=None):
        return self

    def transform(self, X):
        for record in records(X):
            record["f0"] *= self.factor
        return X


@pytest.mark.parametrize("make_records", [to_list, to_object_array, to_frame])
def test_in_place_step_selects_as_grid_search(make_records):
    pipe = Pipeline(
        [
            ("records", FunctionTransformer(make_records)),
            ("scale", ScaleInPlace()),
            ("list", FunctionTransformer(records)),
            ("dv", DictVectorizer(sparse=False)),
            ("lr", LogisticRegression(C=0.01)),
        ]
    )
    grid = {"scale__factor": [0.01, 1.0]}
    outer = StratifiedKFold(3, shuffle=True, random_state=0)
    inner = StratifiedKFold(3, shuffle=True, random_state=1)
    expected = cross_validate(
        GridSearchCV(pipe, grid, cv=inner), X, y, cv=outer, return_estimator=True
    )
    expected_params = [search.best_params_ for search in expected["estimator"]]
    # with shared records, the grid's first candidate scaled f0 by 0.01 for the second too
    assert expected_params != [{"scale__factor": 0.01}] * 3

    results = [
        nested_cross_validate(
            pipe,
            X,
            y,
            param_grid=grid,
            cv=outer,
            inner_cv=inner,
            n_refits=1,
            reuse_prefix=True,
            n_jobs=n_jobs,
            return_nested_info=True,
        )
        for n_jobs in (1, 2)
    ]
    for result in results:
        assert result["best_params"] == expected_params
        np.testing.assert_allclose(
            result["validation_score"], [s.best_score_ for s in expected["estimator"]]
        )
        np.testing.assert_allclose(result["test_score"], expected["test_score"])


def test_copy_cannot_be_reached_into():
    lists = [{"a": [1.0]}, {"a": [2.0]}]
    objects = np.empty(2, dtype=object)
    objects[:] = copy.deepcopy(lists)
    for value in (lists, objects, tuple(lists), {"k": lists}):
        stored = _reuse._copy(value)
        reference = copy.deepcopy(value)
        for record in value["k"] if isinstance(value, dict) else value:
            record["a"].append(0.0)
        assert repr(stored) == repr(reference)

    # numeric arrays, sparse matrices and frames of immutable values: copied as before
    numeric = np.arange(6.0).reshape(3, 2)
    sparse = sp.csr_matrix(numeric)
    frame = pd.DataFrame({"x": [1.0, 2.0], "s": ["a", "b"]})
    stored = [_reuse._copy(v) for v in (numeric, sparse, frame)]
    numeric[0, 0] = sparse.data[0] = frame.loc[0, "x"] = 9.0
    np.testing.assert_array_equal(stored[0], np.arange(6.0).reshape(3, 2))
    np.testing.assert_array_equal(stored[1].toarray(), np.arange(6.0).reshape(3, 2))
    pd.testing.assert_frame_equal(stored[2], pd.DataFrame({"x": [1.0, 2.0], "s": ["a", "b"]}))

    # pandas' deep copy shares a column's dicts; such a frame is not stored at all
    assert _reuse._copy(pd.DataFrame({"record": lists})) is _reuse._NO_COPY
    assert _reuse._copy(pd.Series(lists)) is _reuse._NO_COPY
