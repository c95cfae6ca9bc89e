"""Issue 5, demonstrations (a) and (b): leaks that inflate an estimate, and their fixes.

(a) Pure noise: selecting features on all the data and then cross-validating reports far
above chance; the same selection inside the pipeline under NestedCV reports chance, and
audit flags the first and passes the second.
(b) Down-sampling the whole data set before splitting versus RandomUnderSampler inside the
pipeline: only the latter keeps every test fold at the data's class balance, and the PPV
reported differs accordingly.
"""

import numpy as np
import pytest
from imblearn.pipeline import make_pipeline as make_imb_pipeline
from imblearn.under_sampling import RandomUnderSampler
from sklearn.datasets import make_classification
from sklearn.feature_selection import SelectKBest
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_fair import NestedCV, audit, nested_cross_validate


@pytest.fixture(scope="module")
def noise():
    """100 samples x 5,000 features of pure noise, with random binary labels."""
    rng = np.random.default_rng(0)
    return rng.normal(size=(100, 5000)), rng.integers(0, 2, 100)


def select_on_all_data(X, y):
    return SelectKBest(k=20).fit_transform(X, y), y


def test_selection_on_all_data_reports_far_above_chance(noise):
    X, y = noise
    X_selected, _ = select_on_all_data(X, y)
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    scores = cross_val_score(LogisticRegression(), X_selected, y, cv=cv)
    assert scores.mean() > 0.7


def test_selection_inside_nested_cv_reports_chance(noise):
    X, y = noise
    pipe = make_pipeline(SelectKBest(k=20), LogisticRegression())
    nested = NestedCV(
        pipe, {"selectkbest__k": [10, 20]}, outer_cv=5, n_refits=1, random_state=0
    ).fit(X, y)
    low, high = nested.summary().ci
    assert low <= 0.5 <= high
    assert nested.score_mean_ < 0.65


def test_audit_flags_selection_on_all_data(noise):
    X, y = noise
    result = audit(LogisticRegression(), X, y, prepare=select_on_all_data, random_state=0)
    assert not result.passed
    assert result.permutation.leaks
    assert result.permutation.permuted_mean > 0.7
    assert any(flag.startswith("permutation") for flag in result.flags)
    assert "LEAKS FOUND" in str(result)


def test_audit_flags_a_selector_fitted_on_all_data(noise):
    X, y = noise
    selector = FrozenEstimator(SelectKBest(k=20).fit(X, y))
    result = audit(make_pipeline(selector, LogisticRegression()), X, y, checks=("prefit",))
    assert not result.passed
    assert [(s.estimator, s.frozen) for s in result.prefit] == [("SelectKBest", True)]


def test_audit_passes_selection_inside_the_pipeline(noise):
    X, y = noise
    pipe = make_pipeline(SelectKBest(k=20), LogisticRegression())
    result = audit(pipe, X, y, random_state=0)
    assert result.passed, str(result)
    assert not result.permutation.leaks
    assert result.prefit == []
    assert "no leak found" in str(result)


@pytest.fixture(scope="module")
def imbalanced():
    X, y = make_classification(
        n_samples=300, weights=[0.8, 0.2], class_sep=0.5, flip_y=0.05, random_state=0
    )
    return X, y


def _prevalences(y, results):
    return np.array([np.mean(y[test] == 1) for test in results["indices"]["test"]])


def test_undersampling_before_vs_inside_the_pipeline(imbalanced):
    X, y = imbalanced
    outer = StratifiedKFold(5, shuffle=True, random_state=0)
    X_down, y_down = RandomUnderSampler(random_state=0).fit_resample(X, y)
    before = nested_cross_validate(
        make_pipeline(StandardScaler(), LogisticRegression()),
        X_down,
        y_down,
        outer_cv=outer,
        scoring="ppv",
        n_refits=1,
        random_state=0,
        return_indices=True,
    )
    inside = nested_cross_validate(
        make_imb_pipeline(StandardScaler(), RandomUnderSampler(), LogisticRegression()),
        X,
        y,
        outer_cv=outer,
        scoring="ppv",
        n_refits=1,
        random_state=0,
        return_indices=True,
    )
    # only the sampler inside the pipeline keeps every test fold at the data's balance
    np.testing.assert_allclose(_prevalences(y_down, before), 0.5, atol=0.02)
    # (stratified folds of 60: to within one sample of the whole data's prevalence)
    np.testing.assert_allclose(_prevalences(y, inside), np.mean(y == 1), atol=1 / 60 + 1e-9)
    # and the PPV reported on balanced test folds is far higher than on real ones
    assert before["test_score"].mean() > inside["test_score"].mean() + 0.2


def test_audit_flags_undersampling_before_splitting(imbalanced):
    X, y = imbalanced

    def undersample_all(X, y):
        return RandomUnderSampler(random_state=0).fit_resample(X, y)

    result = audit(LogisticRegression(), X, y, prepare=undersample_all, checks="prefit")
    assert result.resampled_before_split
    assert not result.passed
