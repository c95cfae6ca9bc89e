"""A balanced accuracy on folds that lack a rare class is not a leak: scikit-learn averages the
recalls of the classes a test fold holds, so a model with no skill scores 1/2 there, not 1/3
of all classes. permutation_check compares with the model's own chance, which on pure noise is
what scikit-learn's DummyClassifier(most_frequent) scores on the same folds."""

import warnings

import numpy as np
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score

from sklearn_fair.leakage import permutation_check


def test_a_rare_class_missing_from_test_folds_is_no_leak():
    rng = np.random.RandomState(0)
    X = rng.normal(size=(100, 4))  # noise: no signal, no leak
    y = np.array([0] * 52 + [1] * 45 + [2] * 3)
    outer = StratifiedKFold(10, shuffle=True, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        no_skill = cross_val_score(
            DummyClassifier(strategy="most_frequent"), X, y, cv=outer, scoring="balanced_accuracy"
        ).mean()
        report = permutation_check(
            LogisticRegression(),
            X,
            y,
            param_grid={"C": [1e-4, 1e-3]},
            outer_cv=outer,
            inner_cv=3,
            scoring="balanced_accuracy",
            n_permutations=5,
            random_state=7,
            with_estimate=False,
        )
    assert no_skill > 1 / 3 + 0.1  # folds without class 2 score 1/2
    assert not report.leaks
    assert report.chance > 1 / 3
    assert report.ci_low <= no_skill + 1e-9
