"""A scorer of the user's own, ``scorer(estimator, X, y)``, is greater-is-better: named like an
error ("mean_squared_error"), it returns the error negated, so it is not printed as that error
("MSE", whose values read lower-is-better) but as the user's own scorer."""

import numpy as np
import pytest
from sklearn.datasets import make_regression
from sklearn.linear_model import Ridge
from sklearn.metrics import make_scorer, mean_squared_error
from sklearn.model_selection import GridSearchCV, KFold, cross_validate

from sklearn_fair import NestedCV
from sklearn_fair.metrics import metric_display_name


def _scorer_named(name):
    namespace = {}
    exec(f"def {name}(estimator, X, y):\n    return -1.0", namespace)
    return namespace[name]


@pytest.mark.parametrize(
    "name",
    [
        "mean_squared_error",
        "root_mean_squared_error",
        "mean_absolute_error",
        "brier_score_loss",
        "max_error",
        "log_loss",
        "mean_poisson_deviance",
    ],
)
def test_a_scorer_named_like_an_error_is_the_users_own(name):
    metric = metric_display_name(_scorer_named(name))
    assert (metric.name, metric.sign, metric.greater_is_better) == (
        f"custom scorer {name}",
        1,
        True,
    )
    # the same under a key of a scoring dict
    assert metric_display_name(_scorer_named("score"), name=name).name == name


@pytest.mark.parametrize(
    "name, printed",
    [("accuracy_score", "accuracy"), ("r2_score", "R^2"), ("roc_auc", "ROC AUC")],
)
def test_a_scorer_named_like_a_score_keeps_its_name(name, printed):
    assert metric_display_name(_scorer_named(name)).name == printed


def test_make_scorer_of_an_error_is_still_named_after_it():
    metric = metric_display_name(make_scorer(mean_squared_error, greater_is_better=False))
    assert (metric.name, metric.sign) == ("MSE", -1)


def mean_squared_error_scorer(estimator, X, y):
    return -float(np.mean((estimator.predict(X) - y) ** 2))


mean_squared_error_scorer.__name__ = "mean_squared_error"


def test_nested_cv_summary_of_such_a_scorer_does_not_say_mse():
    X, y = make_regression(n_samples=60, n_features=4, noise=10, random_state=0)
    grid = {"alpha": [0.1, 10.0]}
    scorer = mean_squared_error_scorer
    reference = cross_validate(
        GridSearchCV(Ridge(), grid, cv=KFold(3), scoring=scorer), X, y, cv=KFold(3),
        scoring=scorer,
    )["test_score"]  # fmt: skip
    nested = NestedCV(
        Ridge(), grid, outer_cv=KFold(3), inner_cv=KFold(3), scoring=scorer, n_refits=1
    ).fit(X, y)
    summary = nested.summary()
    assert summary.mean == pytest.approx(reference.mean())
    assert reference.mean() < 0  # the negated error, printed as it is
    assert str(summary).startswith("custom scorer mean_squared_error,")
    assert "MSE" not in str(summary)
