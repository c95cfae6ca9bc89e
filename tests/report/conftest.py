"""Two small fitted NestedCV results on the same outer splits, shared by the report tests."""

import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import KNeighborsClassifier

from sklearn_fair import NestedCV


@pytest.fixture(scope="package")
def data():
    return make_classification(n_samples=60, n_features=5, random_state=0)


@pytest.fixture(scope="package")
def fitted(data):
    X, y = data
    models = {
        "logistic": NestedCV(
            LogisticRegression(max_iter=200), {"C": [0.1, 1.0]}, outer_cv=4, n_refits=2
        ),
        "knn": NestedCV(KNeighborsClassifier(), {"n_neighbors": [3, 7]}, outer_cv=4),
    }
    return {
        name: model.set_params(refit=False, random_state=0).fit(X, y)
        for name, model in models.items()
    }
