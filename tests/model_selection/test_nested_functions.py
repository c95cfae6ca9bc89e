"""nested_cross_validate and nested_cross_val_score: the functional forms of NestedCV."""

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold, cross_validate
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV, nested_cross_val_score, nested_cross_validate

X, y = make_classification(n_samples=60, n_features=5, n_informative=3, random_state=0)
OUTER = StratifiedKFold(4, shuffle=True, random_state=0)
GRID = {"C": [0.1, 1.0, 10.0]}


class SeedScorer(ClassifierMixin, BaseEstimator):
    """Predicts the first class; its score is the random_state it was fitted with."""

    def __init__(self, random_state=None, C=1.0):
        self.random_state = random_state
        self.C = C

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])

    def score(self, X, y, sample_weight=None):
        return float(self.random_state)


def test_keys_and_shapes():
    # cross_validate's keys only, unless ours are asked for (issue 23.3)
    plain = nested_cross_validate(SVC(), X, y, param_grid=GRID, outer_cv=OUTER, inner_cv=3)
    assert set(plain) == {"test_score", "fit_time", "score_time"}
    results = nested_cross_validate(
        SVC(),
        X,
        y,
        param_grid=GRID,
        outer_cv=OUTER,
        inner_cv=3,
        n_refits=1,
        return_indices=True,
        return_nested_info=True,
    )
    assert set(results) == {
        "test_score",
        "validation_score",
        "best_params",
        "fit_time",
        "score_time",
        "indices",
        "refit_seeds",
    }
    for key in ("test_score", "validation_score", "fit_time", "score_time"):
        assert results[key].shape == (4,)
    assert (results["fit_time"] > 0).all() and (results["score_time"] >= 0).all()
    assert len(results["best_params"]) == 4
    for k, (train, test) in enumerate(OUTER.split(X, y)):
        np.testing.assert_array_equal(results["indices"]["train"][k], train)
        np.testing.assert_array_equal(results["indices"]["test"][k], test)


def test_equals_cross_validate_of_grid_search():
    inner = KFold(3)
    reference = cross_validate(
        GridSearchCV(SVC(), GRID, cv=inner), X, y, cv=OUTER, return_estimator=True
    )
    results = nested_cross_validate(
        SVC(),
        X,
        y,
        param_grid=GRID,
        outer_cv=OUTER,
        inner_cv=inner,
        n_refits=1,
        return_nested_info=True,
    )
    np.testing.assert_allclose(results["test_score"], reference["test_score"])
    np.testing.assert_allclose(
        results["validation_score"], [s.best_score_ for s in reference["estimator"]]
    )
    assert results["best_params"] == [s.best_params_ for s in reference["estimator"]]


def test_equals_the_nested_cv_estimator():
    params = dict(outer_cv=OUTER, inner_cv=3, n_refits=2, random_state=0)
    results = nested_cross_validate(SVC(), X, y, param_grid=GRID, return_nested_info=True, **params)
    nested = NestedCV(SVC(), GRID, refit=False, **params).fit(X, y)
    np.testing.assert_allclose(results["test_score"], nested.outer_scores_)
    np.testing.assert_allclose(results["validation_score"], nested.validation_scores_)
    assert results["best_params"] == nested.best_params_per_fold_
    assert results["refit_seeds"] == [f["refit_seeds"] for f in nested.outer_results_]


def test_multimetric_keys():
    scoring = {"acc": "accuracy", "bacc": "balanced_accuracy"}
    results = nested_cross_validate(
        SVC(),
        X,
        y,
        param_grid=GRID,
        outer_cv=OUTER,
        inner_cv=3,
        scoring=scoring,
        refit="bacc",
        n_refits=1,
        return_nested_info=True,
    )
    for name in scoring:
        assert results[f"test_{name}"].shape == results[f"validation_{name}"].shape == (4,)
    assert "test_score" not in results
    reference = cross_validate(
        GridSearchCV(SVC(), GRID, cv=3, scoring=scoring, refit="bacc"),
        X,
        y,
        cv=OUTER,
        scoring=scoring,
    )
    np.testing.assert_allclose(results["test_acc"], reference["test_acc"])
    np.testing.assert_allclose(results["test_bacc"], reference["test_bacc"])


def test_return_estimator_gives_the_refits_whose_scores_are_reported():
    # issue 23.4: the models returned are those whose test scores make test_score
    results = nested_cross_validate(
        DecisionTreeClassifier(),
        X,
        y,
        param_grid={"max_depth": [1, 3]},
        outer_cv=OUTER,
        inner_cv=2,
        n_refits=2,
        random_state=0,
        return_estimator=True,
        return_nested_info=True,
    )
    assert len(results["estimator"]) == 4
    for models, params, seeds, score, (train, test) in zip(
        results["estimator"],
        results["best_params"],
        results["refit_seeds"],
        results["test_score"],
        OUTER.split(X, y),
    ):
        assert len(models) == len(seeds) >= 1
        for model, seed in zip(models, seeds):
            assert model.max_depth == params["max_depth"] and model.random_state == seed
            refitted = DecisionTreeClassifier(**params, random_state=seed)
            np.testing.assert_array_equal(
                model.predict(X), refitted.fit(X[train], y[train]).predict(X)
            )
        assert score == pytest.approx(np.mean([m.score(X[test], y[test]) for m in models]))


def test_return_estimator_with_one_refit_is_cross_validates_list_of_models():
    results = nested_cross_validate(
        SVC(), X, y, param_grid=GRID, outer_cv=OUTER, n_refits=1, return_estimator=True
    )
    assert all(isinstance(model, SVC) for model in results["estimator"])


def test_test_score_is_the_mean_over_the_refits():
    results = nested_cross_validate(
        SeedScorer(), X, y, outer_cv=3, inner_cv=2, n_refits=3, return_nested_info=True
    )
    seeds = results["refit_seeds"][0]
    assert len(set(seeds)) == 3
    assert all(fold == seeds for fold in results["refit_seeds"])
    np.testing.assert_allclose(results["test_score"], np.mean(seeds))


@pytest.mark.parametrize("scoring", [None, "balanced_accuracy"])
def test_nested_cross_val_score_is_the_test_score(scoring):
    kwargs = dict(param_grid=GRID, outer_cv=OUTER, inner_cv=3, n_refits=1, scoring=scoring)
    scores = nested_cross_val_score(SVC(), X, y, **kwargs)
    np.testing.assert_array_equal(
        scores, nested_cross_validate(SVC(), X, y, **kwargs)["test_score"]
    )
    assert scores.shape == (4,)


def test_nested_cross_val_score_with_a_search():
    search = GridSearchCV(SVC(), GRID, cv=3)
    reference = cross_validate(search, X, y, cv=OUTER)["test_score"]
    np.testing.assert_allclose(nested_cross_val_score(search, X, y, outer_cv=OUTER), reference)


@pytest.mark.parametrize("scoring", [["accuracy"], ("accuracy", "recall"), {"a": "accuracy"}])
def test_nested_cross_val_score_refuses_several_metrics(scoring):
    with pytest.raises(ValueError, match="single metric"):
        nested_cross_val_score(SVC(), X, y, scoring=scoring)
