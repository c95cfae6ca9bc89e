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


@pytest.fixture(scope="package")
def regression_data():
    from sklearn.datasets import make_regression

    return make_regression(n_samples=60, n_features=4, noise=10.0, random_state=0)


@pytest.fixture(scope="package")
def fitted_regressors(regression_data):
    """Two regressors scored with scikit-learn's negated RMSE, on the same outer folds."""
    from sklearn.linear_model import Ridge
    from sklearn.neighbors import KNeighborsRegressor

    X, y = regression_data
    models = {
        "ridge": NestedCV(Ridge(), {"alpha": [0.1, 10.0]}, outer_cv=4, n_refits=1),
        "knn": NestedCV(KNeighborsRegressor(), {"n_neighbors": [3, 7]}, outer_cv=4),
    }
    return {
        name: model.set_params(
            scoring="neg_root_mean_squared_error", refit=False, random_state=0
        ).fit(X, y)
        for name, model in models.items()
    }


@pytest.fixture(scope="package")
def fitted_large_errors():
    """Pipelines scored with RMSE in the tens of thousands: long names, long tick labels."""
    from sklearn.datasets import make_regression
    from sklearn.linear_model import Ridge
    from sklearn.neighbors import KNeighborsRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = make_regression(n_samples=80, n_features=5, noise=30.0, random_state=0)
    y = 400 * y + 20_000
    models = {
        "ridge regression": NestedCV(
            make_pipeline(StandardScaler(), Ridge()), {"ridge__alpha": [0.1, 10.0]}, outer_cv=4
        ),
        "k-nearest neighbours regression": NestedCV(
            make_pipeline(StandardScaler(), KNeighborsRegressor()),
            {"kneighborsregressor__n_neighbors": [3, 9],
             "kneighborsregressor__weights": ["uniform", "distance"]},
            outer_cv=4,
        ),
    }  # fmt: skip
    return {
        name: model.set_params(
            scoring="neg_root_mean_squared_error", refit=False, random_state=0
        ).fit(X, y)
        for name, model in models.items()
    }


@pytest.fixture(scope="package")
def fitted_multimetric(data):
    """One classifier with three metrics (ROC AUC selects), one with its default score."""
    X, y = data
    return {
        "logistic": NestedCV(
            LogisticRegression(max_iter=200),
            {"C": [0.1, 1.0]},
            outer_cv=4,
            n_refits=1,
            scoring=["roc_auc", "accuracy", "neg_log_loss"],
            refit="roc_auc",
            random_state=0,
        ).fit(X, y),
        "knn": NestedCV(
            KNeighborsClassifier(), {"n_neighbors": [3, 7]}, outer_cv=4, refit=False,
            random_state=0,
        ).fit(X, y),
    }  # fmt: skip
