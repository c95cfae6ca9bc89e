"""NestedCV as scikit-learn's meta-estimators are, checked against GridSearchCV: metadata
routed to its scorer from ``score`` (cross_validate's scoring=None calls it), the methods of
its final model delegated, and no final model left from an earlier fit with refit=False."""

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.decomposition import PCA
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import get_scorer
from sklearn.model_selection import GridSearchCV, KFold, cross_validate

from sklearn_fair import NestedCV

X, y = make_classification(n_samples=120, random_state=3, flip_y=0.15)
WEIGHTS = np.random.RandomState(0).uniform(0.1, 5, size=len(y))


def test_cross_validate_without_scoring_routes_the_weights_to_its_scorer(routing):
    # scoring=None scores with NestedCV.score, whose scorer requested the weights: they were
    # never routed from score, and the scores were the unweighted ones
    model = LogisticRegression().set_fit_request(sample_weight=True)
    scorer = get_scorer("accuracy").set_score_request(sample_weight=True)
    grid, inner = {"C": [0.01, 1.0]}, KFold(2)
    nested = NestedCV(
        model, grid, outer_cv=2, inner_cv=inner, scoring=scorer, n_refits=1, random_state=0
    )
    search = GridSearchCV(model, grid, cv=inner, scoring=scorer)
    params = {"sample_weight": WEIGHTS}
    ours = cross_validate(nested, X, y, cv=KFold(3), params=params)["test_score"]
    theirs = cross_validate(search, X, y, cv=KFold(3), params=params)["test_score"]
    np.testing.assert_allclose(ours, theirs)
    unweighted = cross_validate(search, X, y, cv=KFold(3))["test_score"]
    assert not np.allclose(ours, unweighted)


def test_score_follows_the_scorers_request(routing):
    # the scorer refuses the weights: GridSearchCV.score says so; NestedCV.score weighted
    model = LogisticRegression().set_fit_request(sample_weight=True)
    scorer = get_scorer("accuracy").set_score_request(sample_weight=False)
    grid = {"C": [0.01, 1.0]}
    for estimator in (
        NestedCV(model, grid, outer_cv=2, inner_cv=2, scoring=scorer, n_refits=1),
        GridSearchCV(model, grid, cv=2, scoring=scorer),
    ):
        estimator.fit(X, y)
        with pytest.raises(TypeError, match="sample_weight"):
            estimator.score(X, y, sample_weight=WEIGHTS)


def test_the_final_models_inverse_transform_and_score_samples_are_delegated():
    grid = {"n_components": [1, 2]}
    nested = NestedCV(PCA(), grid, outer_cv=2, inner_cv=2, n_refits=1).fit(X)
    search = GridSearchCV(PCA(), grid, cv=2).fit(X)
    reduced = nested.transform(X)
    np.testing.assert_allclose(nested.inverse_transform(reduced), search.inverse_transform(reduced))
    np.testing.assert_allclose(nested.score_samples(X), search.score_samples(X))


def test_a_fit_with_refit_false_leaves_nothing_of_an_earlier_final_model():
    grid = {"C": [0.01, 1.0]}
    nested = NestedCV(LogisticRegression(), grid, outer_cv=2, inner_cv=2, n_refits=1).fit(X, y)
    assert hasattr(nested, "classes_") and hasattr(nested, "best_params_")
    nested.set_params(refit=False).fit(X[:, :5], np.where(y == 1, 20, 10))
    search = GridSearchCV(LogisticRegression(), grid, cv=2, refit=False).fit(X[:, :5], y)
    for name in ("classes_", "best_estimator_", "n_features_in_"):
        assert hasattr(nested, name) == hasattr(search, name) == False  # noqa: E712
    assert not hasattr(nested, "best_params_")  # GridSearchCV keeps its own selection's


def test_classes_of_a_fit_with_refit_false_says_why_as_grid_search_does():
    # NotFittedError ("Call 'fit'") of an instance that was fitted, where GridSearchCV says
    # that refit=False leaves no final model
    grid = {"C": [0.01, 1.0]}
    nested = NestedCV(LogisticRegression(), grid, outer_cv=2, inner_cv=2, n_refits=1)
    nested.set_params(refit=False).fit(X, y)
    search = GridSearchCV(LogisticRegression(), grid, cv=2, refit=False).fit(X, y)
    with pytest.raises(AttributeError, match="refit=False"):
        getattr(search, "classes_")  # noqa: B009
    with pytest.raises(AttributeError, match="initialized with refit=False"):
        getattr(nested, "classes_")  # noqa: B009


def test_feature_metadata_is_that_of_the_last_final_model():
    # a refit on data without column names kept the earlier fit's names and count, where the
    # final model has none (GridSearchCV reads n_features_in_ from its best estimator)
    pd = pytest.importorskip("pandas")
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.pipeline import make_pipeline

    frame = pd.DataFrame(X[:, :4], columns=["age", "bmi", "bp", "glucose"])
    nested = NestedCV(LogisticRegression(), {"C": [0.1, 1.0]}, outer_cv=2, inner_cv=2, n_refits=1)
    assert list(nested.fit(frame, y).feature_names_in_) == ["age", "bmi", "bp", "glucose"]
    nested.fit(X[:, :4], y)
    assert not hasattr(nested, "feature_names_in_") and nested.n_features_in_ == 4
    texts = ["red apple" if label else "green pear" for label in y]
    text_model = make_pipeline(CountVectorizer(), LogisticRegression())
    nested.set_params(estimator=text_model, param_grid={"logisticregression__C": [0.1, 1.0]})
    nested.fit(texts, y)
    search = GridSearchCV(text_model, {"logisticregression__C": [0.1, 1.0]}, cv=2).fit(texts, y)
    assert hasattr(nested, "n_features_in_") == hasattr(search, "n_features_in_") == False  # noqa: E712
    assert not hasattr(nested, "feature_names_in_")
