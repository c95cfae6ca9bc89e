"""Multi-output scores named and compared (hunt MULTI-5): MultiOutputClassifier's own score is
accuracy, and two own score methods that differ are refused for what they are."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification, make_multilabel_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import accuracy_score
from sklearn.model_selection import KFold
from sklearn.multioutput import MultiOutputClassifier

from sklearn_fair import benchmark, nested_cross_validate

X, Y = make_multilabel_classification(n_samples=90, n_features=6, n_classes=3, random_state=0)
OUTER = KFold(3, shuffle=True, random_state=1)


def test_multioutput_classifier_scores_accuracy_beside_a_forest():
    models = {
        "rf": RandomForestClassifier(n_estimators=5, random_state=0),
        "mo": MultiOutputClassifier(LogisticRegression()),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = benchmark(models, {"ml": (X, Y)}, outer_cv=OUTER, inner_cv=3, random_state=0)
        folds = nested_cross_validate(
            models["mo"], X, Y, cv=OUTER, inner_cv=3, random_state=0, n_refits=1,
            return_estimator=True, return_indices=True,
        )  # fmt: skip
    # the reference: scikit-learn's accuracy_score (subset accuracy) of each fold's model
    expected = [
        accuracy_score(Y[test], model.predict(X[test]))
        for model, test in zip(folds["estimator"], folds["indices"]["test"])
    ]
    np.testing.assert_allclose(result.mean_scores().loc["ml", "mo"], np.mean(expected))


def test_two_own_score_methods_are_refused_as_such():
    X, y = make_classification(n_samples=60, n_features=4, random_state=0)
    models = {"lr": LogisticRegression(), "ridge": Ridge()}
    message = (
        r"\('lr': accuracy, 'ridge': R\^2\): each model scores with its own score method "
        r"\(scoring=None\)"
    )
    with pytest.raises(ValueError, match=message) as raised:
        benchmark(models, {"d": (X, y)}, outer_cv=OUTER, inner_cv=2)
    assert "search" not in str(raised.value)
