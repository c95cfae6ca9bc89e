"""Validation data the user gives to ``fit`` are never silently replaced by the protocol's
own validation rows (``early_stopping_split``)."""

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification

from sklearn_fair import NestedCV

X, y = make_classification(n_samples=80, n_features=4, random_state=0)
X_user, y_user = X[:7], y[:7]  # 7 rows: no inner split of the protocol has that many


class StopsEarly(ClassifierMixin, BaseEstimator):
    """Majority vote that early-stops on X_val/y_val (it records how many rows it got)."""

    def __init__(self, c=1):
        self.c = c

    def fit(self, X, y, X_val=None, y_val=None):
        self.n_validation_rows_ = None if X_val is None else len(X_val)
        self.classes_, counts = np.unique(y, return_counts=True)
        self.majority_ = self.classes_[np.argmax(counts)]
        return self

    def predict(self, X):
        return np.full(len(X), self.majority_)


def nested(**kwargs):
    return NestedCV(
        StopsEarly(), {"c": [1, 2]}, outer_cv=2, inner_cv=2, n_refits=1, random_state=0,
        **kwargs,
    )  # fmt: skip


@pytest.mark.parametrize("mode", ["auto", "protocol"])
@pytest.mark.parametrize("given", [{"X_val": X_user, "y_val": y_user}, {"X_val": X_user}])
def test_the_users_validation_data_are_not_replaced_by_the_protocols(mode, given):
    with pytest.raises(ValueError, match="early_stopping_split='estimator'") as error:
        nested(early_stopping_split=mode).fit(X, y, **given)
    assert "would replace the X_val" in str(error.value)


def test_with_early_stopping_split_estimator_every_fit_gets_the_users_rows():
    model = nested(early_stopping_split="estimator").fit(X, y, X_val=X_user, y_val=y_user)
    assert model.best_estimator_.n_validation_rows_ == len(X_user)


def test_without_validation_data_of_the_users_the_protocol_hands_its_own():
    model = nested(early_stopping_split="auto").fit(X, y)
    rows = model.best_estimator_.n_validation_rows_
    assert rows is not None and 0 < rows < len(X)
