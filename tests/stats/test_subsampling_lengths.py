"""paired_subsampling_scores refuses labels of another length than X before any fit, as
scikit-learn's cross_val_score does."""

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score

from sklearn_fair.stats import paired_subsampling_scores

FITS = {"n": 0}


class CountingLogisticRegression(LogisticRegression):
    def fit(self, X, y, **kw):
        FITS["n"] += 1
        return super().fit(X, y, **kw)


@pytest.mark.parametrize("n_labels", [10, 39, 41, 60])
def test_labels_of_another_length_are_refused_before_any_fit(n_labels):
    X, y = make_classification(40, 4, random_state=0)
    y = np.resize(y, n_labels)
    # scikit-learn's words for the same mistake
    with pytest.raises(ValueError) as expected:
        cross_val_score(LogisticRegression(), X, y)
    assert f"[40, {n_labels}]" in str(expected.value)
    FITS["n"] = 0
    with pytest.raises(ValueError, match=rf"inconsistent numbers of samples: \[40, {n_labels}\]"):
        paired_subsampling_scores(
            CountingLogisticRegression(), X, y, n_splits=3, n_pairs=2, random_state=0
        )
    assert FITS["n"] == 0
