"""imbalanced-learn's Pipeline under NestedCV: every step refitted per resample, samplers
acting only while fitting."""

import numpy as np
from imblearn.pipeline import make_pipeline
from imblearn.under_sampling import RandomUnderSampler
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

from sklearn_fair import NestedCV, nested_cross_validate


def n_scored(estimator, X, y):
    return len(y)


def test_steps_refitted_in_every_fold_and_sampler_fit_only():
    X, y = make_classification(n_samples=80, weights=[0.75, 0.25], random_state=0)
    pipe = make_pipeline(
        StandardScaler(), RandomUnderSampler(), StandardScaler(), LogisticRegression()
    )
    results = nested_cross_validate(
        pipe,
        X,
        y,
        param_grid={"randomundersampler__sampling_strategy": [1.0, 0.8]},
        outer_cv=4,
        scoring=n_scored,
        refit=True,
        n_refits=2,
        random_state=0,
        return_estimator=True,
        return_indices=True,
    )
    for train, test, models, score in zip(
        results["indices"]["train"],
        results["indices"]["test"],
        results["estimator"],
        results["test_score"],
    ):
        model = models[0]  # n_refits=2: the refits of the fold, a list
        # scored on the whole test fold: the sampler does not act when scoring
        assert score == len(test)
        # the first scaler saw the whole training fold, the second only the sampled rows
        np.testing.assert_allclose(model[0].mean_, X[train].mean(0))
        kept = model[1].sample_indices_
        np.testing.assert_allclose(
            model[2].mean_, model[0].transform(X[train][kept]).mean(0), atol=1e-12
        )
        assert model[-1].n_features_in_ == X.shape[1]


def test_sampler_seeded_by_nested_cv_is_reproducible():
    X, y = make_classification(n_samples=60, weights=[0.7, 0.3], random_state=1)
    pipe = make_pipeline(RandomUnderSampler(), LogisticRegression())
    first = NestedCV(pipe, outer_cv=3, random_state=0).fit(X, y)
    second = NestedCV(pipe, outer_cv=3, random_state=0).fit(X, y)
    np.testing.assert_array_equal(first.outer_scores_, second.outer_scores_)
    assert pipe[0].random_state is None  # the user's pipeline is left untouched
