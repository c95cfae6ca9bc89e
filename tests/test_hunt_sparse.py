"""A sparse y is refused by name: nested cross-validation reads y's values (its splits, its
checks), and densifying it silently would change what the user's estimator receives."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import make_multilabel_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold
from sklearn.multiclass import OneVsRestClassifier

from sklearn_fair import NestedCV


@pytest.mark.parametrize("kind", [sp.csr_matrix, sp.csr_array, sp.coo_matrix])
def test_a_sparse_y_is_refused_naming_it(kind):
    X, Y = make_multilabel_classification(n_samples=60, n_features=5, n_classes=3, random_state=0)
    y = kind(Y)
    nested = NestedCV(
        OneVsRestClassifier(LogisticRegression()),
        {"estimator__C": [0.1, 1.0]},
        outer_cv=KFold(3),
        inner_cv=KFold(2),
        n_refits=1,
    )
    # it failed with "TypeError: Input should have at least 1 dimension ... got scalar
    # array(<Compressed Sparse Row sparse matrix ...>, dtype=object)"
    with pytest.raises(ValueError) as error:
        nested.fit(X, y)
    assert str(error.value) == (
        f"y is a sparse {kind.__name__} of shape (60, 3); nested cross-validation needs a "
        "dense y (its splits and checks read its values): pass y.toarray()."
    )
    # as the message says, the dense y runs
    assert np.all(np.isfinite(nested.fit(X, y.toarray()).outer_scores_))


def test_benchmark_refuses_a_sparse_y_naming_the_data_set():
    # review_30: benchmark made y an array first, and failed with numpy's 0-d object error
    from sklearn_fair import benchmark

    X, Y = make_multilabel_classification(n_samples=60, n_features=5, n_classes=3, random_state=0)
    with pytest.raises(ValueError, match=r"^The y of data set 'd' is a sparse csr_matrix of "):
        benchmark({"m": OneVsRestClassifier(LogisticRegression())}, {"d": (X, sp.csr_matrix(Y))},
                  outer_cv=3, n_refits=1, random_state=0)  # fmt: skip
