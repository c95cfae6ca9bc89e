"""The task cache keys X's container type: an np.matrix and an ndarray, a csr_matrix and a
csr_array of the same values fingerprint alike, but scikit-learn and code of the user's treat
them differently, so one's entries must never serve the other."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold, StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer

from sklearn_fair import NestedCV


def _data():
    rng = np.random.RandomState(0)
    X = rng.randn(60, 4)
    return X, (X[:, 0] > 0).astype(int)


def _fit(estimator, grid, X, y, cache_dir):
    return NestedCV(
        estimator,
        grid,
        outer_cv=StratifiedKFold(3),
        inner_cv=KFold(2),
        n_refits=1,
        refit=False,
        random_state=0,
        cache_dir=cache_dir,
        error_score="raise",
    ).fit(X, y)


def test_an_np_matrix_is_not_served_the_scores_of_an_ndarray(tmp_path):
    X, y = _data()
    with pytest.raises(TypeError, match="np.matrix is not supported") as sklearn_error:
        LogisticRegression().fit(np.asmatrix(X), y)  # scikit-learn refuses it
    _fit(LogisticRegression(), {"C": [0.1, 10.0]}, X, y, tmp_path)
    # the same values as an np.matrix: refused as scikit-learn refuses it, not served the
    # cached scores of the ndarray (15 hits, 0 fits before)
    with pytest.raises(TypeError, match="np.matrix is not supported") as error:
        _fit(LogisticRegression(), {"C": [0.1, 10.0]}, np.asmatrix(X), y, tmp_path)
    assert str(error.value) == str(sklearn_error.value)


def _row_scale(X):
    # X.sum(axis=1) is an (n, 1) np.matrix for a csr_matrix and an (n,) array for a csr_array
    return X.multiply(1 / (np.asarray(X.sum(axis=1)) + 1))


def test_a_csr_array_is_not_served_the_scores_of_a_csr_matrix(tmp_path):
    X, y = _data()
    S = sp.csr_matrix(np.abs(X))
    estimator = make_pipeline(
        FunctionTransformer(_row_scale, accept_sparse=True), LogisticRegression()
    )
    grid = {"logisticregression__C": [0.1, 10.0]}
    with pytest.raises(ValueError, match="inconsistent shapes"):
        _row_scale(sp.csr_array(S))  # the function cannot take a csr_array of 4 columns
    with pytest.raises(ValueError, match="inconsistent shapes"):
        _fit(estimator, grid, sp.csr_array(S), y, None)
    first = _fit(estimator, grid, S, y, tmp_path)
    assert first.cache_info_["computed"] > 0
    with pytest.raises(ValueError, match="inconsistent shapes"):
        _fit(estimator, grid, sp.csr_array(S), y, tmp_path)
    # and the csr_matrix's own entries still serve it
    again = _fit(estimator, grid, S, y, tmp_path)
    assert again.cache_info_["computed"] == 0
    assert np.array_equal(again.outer_scores_, first.outer_scores_)


def test_the_keys_of_the_same_values_in_other_types_differ():
    from sklearn.metrics import get_scorer

    from sklearn_fair.model_selection._nested._cache_key import KeyBuilder
    from sklearn_fair.model_selection._nested._data import RunData

    X, y = _data()
    containers = (X, np.asmatrix(X), sp.csr_matrix(X), sp.csr_array(X))
    scorers = {"score": get_scorer("accuracy")}
    contexts = {KeyBuilder(RunData(data_X, y), scorers).context for data_X in containers}
    assert len(contexts) == len(containers)
