"""What selection does with error_score placeholders and with scores that cannot separate
candidates.

Hunt FAIL2-2: a numeric error_score that beats every measured score is selected, as
GridSearchCV selects it, but it is said, and not reported as a measured validation score.
Hunt PROB-4: the thresholds of a FixedThresholdClassifier tie under a metric of probabilities;
the warning says so, instead of advising more validation rows.
"""

import re
import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.datasets import make_regression
from sklearn.exceptions import FitFailedWarning
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import (
    FixedThresholdClassifier,
    GridSearchCV,
    KFold,
    StratifiedKFold,
    cross_validate,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_fair import NestedCV, nested_cross_validate
from sklearn_fair.exceptions import SelectionTieWarning


class _FailingRidge(RegressorMixin, BaseEstimator):
    """Ridge that fails to fit with ``alpha == fail_alpha`` on a number of rows in
    ``fail_sizes``."""

    def __init__(self, alpha=1.0, fail_alpha=None, fail_sizes=()):
        self.alpha = alpha
        self.fail_alpha = fail_alpha
        self.fail_sizes = fail_sizes

    def fit(self, X, y):
        if self.alpha == self.fail_alpha and len(X) in self.fail_sizes:
            raise ValueError(f"fails on {len(X)} rows")
        self.model_ = Ridge(alpha=self.alpha).fit(X, y)
        return self

    def predict(self, X):
        return self.model_.predict(X)


X, y = make_regression(120, 5, noise=5, random_state=0)
GRID = {"alpha": [0.1, 100.0]}
SCORING = "neg_mean_squared_error"


def _fit(estimator, param_grid=GRID, **params):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nested = NestedCV(
            estimator, param_grid, outer_cv=KFold(3), inner_cv=KFold(3), scoring=SCORING,
            error_score=0.0, random_state=0, **params,
        ).fit(X, y)  # fmt: skip
    return nested, [w for w in caught if issubclass(w.category, FitFailedWarning)]


def test_a_placeholder_that_wins_is_selected_as_in_scikit_learn_and_not_reported_measured():
    # alpha=100 fails on the 53-54 rows of every inner fit, and fits the 80 rows of a refit:
    # its only "scores" are error_score=0.0, a perfect MSE, so it wins everywhere
    estimator = _FailingRidge(fail_alpha=100.0, fail_sizes=(53, 54))
    nested, caught = _fit(estimator, refit=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FitFailedWarning)
        sklearn = cross_validate(
            GridSearchCV(estimator, GRID, cv=KFold(3), scoring=SCORING, error_score=0.0),
            X, y, cv=KFold(3), scoring=SCORING, return_estimator=True,
        )  # fmt: skip
    # the selection and the outer scores are scikit-learn's
    assert nested.best_params_per_fold_ == [s.best_params_ for s in sklearn["estimator"]]
    assert nested.best_params_per_fold_ == [{"alpha": 100.0}] * 3
    np.testing.assert_allclose(nested.outer_scores_, sklearn["test_score"], rtol=1e-12)
    assert [s.best_score_ for s in sklearn["estimator"]] == [0.0] * 3
    # ... but 0.0 was never measured: it was reported as the validation MSE, optimism +5714
    assert np.isnan(nested.validation_scores_).all()
    assert np.isnan(nested.optimism_)
    assert all(np.isnan(f["validation_scores"]["score"]) for f in nested.outer_results_)
    said = [str(w.message) for w in caught if "selected candidate" in str(w.message)]
    assert len(said) == 3
    for fold, message in enumerate(said):
        assert f"In outer fold {fold} of NestedCV" in message
        assert "{'alpha': 100.0} has 3 of its 3 inner validation scores" in message
        assert "error_score=0.0" in message and "above every measured inner score" in message
        assert "error_score=np.nan" in message


def test_a_winner_with_some_placeholders_has_no_validation_score():
    # alpha=1 fails on one inner split of each outer fold (the one training on 54 rows): its
    # mean mixes one 0.0 with two measured MSEs, which makes it win
    grid = {"alpha": [0.1, 1.0]}
    estimator = _FailingRidge(fail_alpha=1.0, fail_sizes=(54,))
    nested, caught = _fit(estimator, refit=False, param_grid=grid)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FitFailedWarning)
        for fold, (train, _) in enumerate(KFold(3).split(X)):
            search = GridSearchCV(estimator, grid, cv=KFold(3), scoring=SCORING, error_score=0.0)
            search.fit(X[train], y[train])
            assert nested.best_params_per_fold_[fold] == search.best_params_ == {"alpha": 1.0}
            # with error_score=nan, scikit-learn's mean of the winner is NaN: it holds a failure
            scores = GridSearchCV(estimator, grid, cv=KFold(3), scoring=SCORING).fit(
                X[train], y[train]
            ).cv_results_["mean_test_score"]  # fmt: skip
            assert np.isnan(scores[search.best_index_])
    assert np.isnan(nested.validation_scores_).all()
    said = [str(w.message) for w in caught if "selected candidate" in str(w.message)]
    assert [m.startswith(f"In outer fold {fold} of NestedCV") for fold, m in enumerate(said)] == [
        True
    ] * 3
    assert all("{'alpha': 1.0} has 1 of its 3 inner validation scores" in m for m in said)


def test_the_final_selection_won_by_a_placeholder_has_no_best_score():
    # inner fits train on 60 rows (outer folds) and 90 (the selection on all the data): both
    # fail for alpha=100, whose refits (80 rows) and final fit (120) succeed
    estimator = _FailingRidge(fail_alpha=100.0, fail_sizes=(60, 90))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nested = NestedCV(
            estimator, GRID, outer_cv=KFold(3), inner_cv=KFold(4), scoring=SCORING,
            error_score=0.0, random_state=0,
        ).fit(X, y)  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FitFailedWarning)
        search = GridSearchCV(estimator, GRID, cv=KFold(4), scoring=SCORING, error_score=0.0)
        search.fit(X, y)
    assert nested.best_params_ == search.best_params_ == {"alpha": 100.0}
    assert search.best_score_ == 0.0  # a placeholder, not a measured MSE
    assert np.isnan(nested.best_score_)
    messages = [str(w.message) for w in caught]
    assert any(
        "In the selection on all the data (final model) of NestedCV" in m and "best_score_" in m
        for m in messages
    )


def test_a_measured_winner_is_reported_as_before():
    # error_score=0.0 that no candidate needs: the validation scores are GridSearchCV's
    estimator = _FailingRidge()
    nested, caught = _fit(estimator, refit=False)
    assert not caught
    for fold, (train, _) in enumerate(KFold(3).split(X)):
        search = GridSearchCV(estimator, GRID, cv=KFold(3), scoring=SCORING).fit(X[train], y[train])
        assert nested.validation_scores_[fold] == pytest.approx(search.best_score_, rel=1e-12)


def _threshold_data():
    rng = np.random.RandomState(0)
    X = rng.randn(120, 4)
    y = (X[:, 0] + rng.randn(120) > 0.5).astype(int)
    return X, y


@pytest.mark.parametrize("scoring", ["roc_auc", "neg_log_loss", "neg_brier_score"])
@pytest.mark.parametrize("in_pipeline", [False, True])
def test_thresholds_tied_by_a_metric_of_probabilities_are_said_to_be(scoring, in_pipeline):
    X, y = _threshold_data()
    estimator = FixedThresholdClassifier(LogisticRegression())
    name = "threshold"
    if in_pipeline:
        estimator = make_pipeline(StandardScaler(), estimator)
        name = "fixedthresholdclassifier__threshold"
    grid = {name: [0.3, 0.5, 0.7]}
    # scikit-learn: every threshold has the same mean validation score
    search = GridSearchCV(estimator, grid, cv=StratifiedKFold(3), scoring=scoring).fit(X, y)
    means = search.cv_results_["mean_test_score"]
    assert np.all(means == means[0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        NestedCV(
            estimator, grid, outer_cv=StratifiedKFold(3), inner_cv=StratifiedKFold(3),
            scoring=scoring, n_refits=1, refit=False,
        ).fit(X, y)  # fmt: skip
    ties = [str(w.message) for w in caught if w.category is SelectionTieWarning]
    assert len(ties) == 1
    assert f"They differ in {name!r}, the threshold of a FixedThresholdClassifier" in ties[0]
    assert "no validation data can tell these thresholds apart" in ties[0]
    assert "scoring='balanced_accuracy'" in ties[0]
    # the advice that cannot help is not given
    assert not re.search("RepeatedKFold|select='one_se'|validation rows", ties[0])


def test_thresholds_scored_by_their_labels_get_no_threshold_advice():
    X, y = _threshold_data()
    estimator = FixedThresholdClassifier(LogisticRegression())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        NestedCV(
            estimator, {"threshold": [0.3, 0.5, 0.7]}, outer_cv=StratifiedKFold(3),
            inner_cv=StratifiedKFold(3), scoring="balanced_accuracy", n_refits=1, refit=False,
        ).fit(X, y)  # fmt: skip
    assert not any("thresholds apart" in str(w.message) for w in caught)


def test_the_functional_form_reports_no_placeholder_validation_score():
    estimator = _FailingRidge(fail_alpha=100.0, fail_sizes=(53, 54))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FitFailedWarning)
        info = nested_cross_validate(
            estimator, X, y, param_grid=GRID, cv=KFold(3), inner_cv=KFold(3), scoring=SCORING,
            error_score=0.0, random_state=0, return_nested_info=True,
        )  # fmt: skip
    assert [p["alpha"] for p in info["best_params"]] == [100.0] * 3
    assert np.isnan(info["validation_score"]).all()


def test_a_placeholder_winner_whose_refits_fail_is_not_called_a_misconfigured_model():
    # alpha=100 fails on every fit: its inner error_score=0.0 wins, then its refits fail in
    # every fold; alpha=0.1 fits fine, so "your model is misconfigured" is not the cause
    estimator = _FailingRidge(fail_alpha=100.0, fail_sizes=(53, 54, 80))
    with pytest.raises(ValueError, match="All the 3 fits failed") as info:
        _fit(estimator, refit=False)
    message = str(info.value)
    assert "misconfigured" not in message
    assert "won on error_score placeholders" in message and "error_score=np.nan" in message
    # a model that fails everywhere is still said to be misconfigured
    with pytest.raises(ValueError, match="very likely that your model is misconfigured"):
        _fit(_FailingRidge(fail_alpha=0.1, fail_sizes=(53, 54, 80)), param_grid={"alpha": [0.1]},
             refit=False)  # fmt: skip


@pytest.mark.parametrize("error_score", [np.nan, 0.0], ids=["nan", "zero"])
def test_a_lone_candidate_whose_refits_fail_is_not_said_to_have_won_on_placeholders(error_score):
    # review_29: one candidate (nothing to win over) whose inner fits partly fail (60-row outer
    # training folds, 3 inner splits of 40 rows: one size fails) and whose refits fail; the
    # all-failed error blamed placeholders "beating" other candidates that do not exist
    estimator = _FailingRidge(fail_alpha=1.0, fail_sizes=(53, 80))
    with pytest.raises(ValueError, match="All the 3 fits failed") as info:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            NestedCV(estimator, {"alpha": [1.0]}, outer_cv=KFold(3), inner_cv=KFold(3),
                     scoring=SCORING, error_score=error_score, refit=False,
                     random_state=0).fit(X, y)  # fmt: skip
    assert "placeholders" not in str(info.value)
    assert "very likely that your model is misconfigured" in str(info.value)
