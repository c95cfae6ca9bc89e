"""Accuracy and R² compare the permuted-label estimates with the model's own no-skill score:
the majority rate and 0 are only the most a model without skill scores, and a leak could lift
a model that predicts the minority class too (or noise) up to there unseen."""

import numpy as np
import pytest
from sklearn.feature_selection import SelectKBest, f_regression
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold, StratifiedKFold, cross_val_score
from sklearn.neighbors import KNeighborsRegressor
from sklearn.pipeline import make_pipeline

from sklearn_fair import audit


def _classification():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(100, 2000))
    y = (rng.random(100) < 0.25).astype(int)  # 24 positives: majority rate 0.76
    return X, y, StratifiedKFold(5, shuffle=True, random_state=0)


def _regression():
    rng = np.random.default_rng(0)
    return rng.normal(size=(80, 2000)), rng.normal(size=80), KFold(5, shuffle=True, random_state=0)


CASES = {
    "accuracy": (_classification, LogisticRegression(class_weight="balanced"), SelectKBest(k=5)),
    "r2": (_regression, KNeighborsRegressor(3), SelectKBest(f_regression, k=5)),
}


@pytest.mark.parametrize("metric", CASES)
def test_a_selection_on_all_the_data_is_found_with_the_default_score(metric):
    make_data, estimator, selector = CASES[metric]
    X, y, cv = make_data()

    def select_on_all_data(X, y):
        return selector.fit_transform(X, y), y

    # by hand, on one permutation: the leaky protocol scores above the honest one, which
    # scores below the fixed chance level (0.76, 0) the check compared with
    permuted = y[np.random.default_rng(1).permutation(len(y))]
    leaky = cross_val_score(estimator, select_on_all_data(X, permuted)[0], permuted, cv=cv)
    honest = cross_val_score(make_pipeline(selector, estimator), X, permuted, cv=cv)
    fixed = 0.76 if metric == "accuracy" else 0.0
    assert honest.mean() < fixed and leaky.mean() > honest.mean() + 0.1
    checks = ("permutation",)
    found = audit(estimator, X, y, cv=cv, prepare=select_on_all_data, random_state=0, checks=checks)
    report = found.permutation
    assert report.scoring == metric
    assert report.chance < fixed  # the model's own, not the fixed level (passed before)
    assert report.leaks and not found.passed
    # the honest pipeline is not flagged against the same chance
    honest_audit = audit(
        make_pipeline(selector, estimator), X, y, cv=cv, random_state=0, checks=checks
    )
    assert honest_audit.passed


def test_a_scoring_of_several_metrics_is_refused_naming_the_parameter():
    # a dict reached the own-chance test before the parameter's check: TypeError unhashable
    from sklearn.utils._param_validation import InvalidParameterError

    from sklearn_fair.leakage import permutation_check

    X, y, cv = _classification()
    with pytest.raises(InvalidParameterError, match="'scoring' parameter of permutation_check"):
        permutation_check(LogisticRegression(), X, y, scoring={"a": "accuracy"}, outer_cv=cv)


def test_an_unseeded_audit_leaves_the_users_numpy_stream_as_permutation_check_does():
    # audit(random_state=None) took one draw from numpy's global RandomState (and so repeated
    # its permutations under np.random.seed(0)); permutation_check draws fresh entropy
    X, y, cv = _classification()
    X = X[:, :20]
    np.random.seed(0)
    expected = np.random.rand()
    np.random.seed(0)
    audit(LogisticRegression(), X, y, cv=cv, checks=("permutation",), n_permutations=2)
    assert np.random.rand() == expected
