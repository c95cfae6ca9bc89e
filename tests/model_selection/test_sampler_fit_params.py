"""A fit parameter with one value per sample that reaches a pipeline's step after a sampler
(imbalanced-learn's Pipeline resamples X and y, not the fit parameters) is refused before any
fit, naming the sampler, the step and the parameter; given to steps before the sampler, or to
the scorer alone, it is not."""

import numpy as np
import pytest
import sklearn
from imblearn.pipeline import make_pipeline
from imblearn.under_sampling import RandomUnderSampler
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import balanced_accuracy_score, make_scorer
from sklearn.model_selection import GridSearchCV
from sklearn.preprocessing import StandardScaler

from sklearn_fair import nested_cross_validate

X, y = make_classification(n_samples=90, n_features=4, weights=[0.75], random_state=0)
WEIGHTS = np.linspace(0.5, 2.0, len(y))
GRID = {"logisticregression__C": [0.1, 1.0]}
OPTIONS = dict(inner_cv=2, cv=3, n_refits=1, random_state=0, error_score="raise")
REFUSED = (
    r"fit parameter '{name}' of nested_cross_validate holds one value per sample and reaches "
    r"the step '{step}' of the pipeline after its sampler '{sampler}'.*not the fit "
    r"parameters.*to the scorer alone.*class_weight"
)


def _pipeline(*steps):
    return make_pipeline(*steps, RandomUnderSampler(random_state=0), LogisticRegression())


def test_weights_for_a_step_after_the_sampler_are_refused():
    name = "logisticregression__sample_weight"
    match = REFUSED.format(name=name, step="logisticregression", sampler="randomundersampler")
    with pytest.raises(ValueError, match=match):
        nested_cross_validate(_pipeline(), X, y, param_grid=GRID, params={name: WEIGHTS}, **OPTIONS)


def test_routed_weights_requested_after_the_sampler_are_refused():
    with sklearn.config_context(enable_metadata_routing=True):
        pipe = make_pipeline(
            RandomUnderSampler(random_state=0),
            LogisticRegression().set_fit_request(sample_weight=True),
        )
        match = REFUSED.format(
            name="sample_weight", step="logisticregression", sampler="randomundersampler"
        )
        with pytest.raises(ValueError, match=match):
            nested_cross_validate(
                pipe, X, y, param_grid=GRID, params={"sample_weight": WEIGHTS}, **OPTIONS
            )


def test_a_sampler_in_a_search_inside_the_pipeline_is_found():
    search = GridSearchCV(_pipeline(), {"logisticregression__C": [1.0]}, cv=2)
    pipe = make_pipeline(StandardScaler(), search)
    name = "gridsearchcv__logisticregression__sample_weight"
    match = REFUSED.format(
        name=name,
        step="gridsearchcv__estimator__logisticregression",
        sampler="gridsearchcv__estimator__randomundersampler",
    )
    with pytest.raises(ValueError, match=match):
        nested_cross_validate(
            pipe,
            X,
            y,
            param_grid={"standardscaler__with_mean": [True, False]},
            params={name: WEIGHTS},
            **OPTIONS,
        )


def test_a_sampler_that_a_candidate_puts_in_place_is_found():
    pipe = make_pipeline(StandardScaler(), LogisticRegression())
    grid = {"standardscaler": [StandardScaler(), RandomUnderSampler(random_state=0)]}
    name = "logisticregression__sample_weight"
    match = REFUSED.format(name=name, step="logisticregression", sampler="standardscaler")
    with pytest.raises(ValueError, match=match):
        nested_cross_validate(pipe, X, y, param_grid=grid, params={name: WEIGHTS}, **OPTIONS)


def test_weights_for_a_step_before_the_sampler_are_accepted():
    result = nested_cross_validate(
        _pipeline(StandardScaler()),
        X,
        y,
        param_grid=GRID,
        params={"standardscaler__sample_weight": WEIGHTS},
        **OPTIONS,
    )
    assert np.isfinite(result["test_score"]).all()


def test_weights_for_the_scorer_alone_are_accepted():
    with sklearn.config_context(enable_metadata_routing=True):
        scorer = make_scorer(balanced_accuracy_score).set_score_request(sample_weight=True)
        pipe = make_pipeline(
            RandomUnderSampler(random_state=0),
            LogisticRegression().set_fit_request(sample_weight=False),
        )
        result = nested_cross_validate(
            pipe,
            X,
            y,
            param_grid=GRID,
            scoring=scorer,
            params={"sample_weight": WEIGHTS},
            **OPTIONS,
        )
    assert np.isfinite(result["test_score"]).all()


def test_a_sampler_that_keeps_every_row_takes_weights_after_it():
    from imblearn import FunctionSampler

    # FunctionSampler without a func returns the rows it is given: the weights stay in line,
    # and they weigh the fits as they do without it
    name = "logisticregression__sample_weight"
    options = dict(param_grid=GRID, params={name: WEIGHTS}, **OPTIONS)
    kept = nested_cross_validate(
        make_pipeline(FunctionSampler(), LogisticRegression()), X, y, **options
    )
    plain = nested_cross_validate(make_pipeline(LogisticRegression()), X, y, **options)
    np.testing.assert_array_equal(kept["test_score"], plain["test_score"])
