"""Metrics printed alike are compared only when they are one metric (hunt A, t12 and t13).

A key shared by two ``scoring`` dicts, or the "score" of two estimators' own score methods
(scoring=None), names different metrics: compare(), comparison_text, the report's comparison
and a benchmark's tables refuse them, naming what each scored.
"""

import json

import numpy as np
import pytest
from sklearn.datasets import make_classification, make_regression
from sklearn.dummy import DummyRegressor
from sklearn.linear_model import (
    GammaRegressor,
    LogisticRegression,
    PoissonRegressor,
    Ridge,
    TweedieRegressor,
)
from sklearn.model_selection import KFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import BenchmarkResult, NestedCV, benchmark
from sklearn_fair.metrics import MetricName, metric_display_name
from sklearn_fair.report import comparison_text, result_to_dict
from sklearn_fair.stats import compare

OUTER = KFold(3, shuffle=True, random_state=0)


def _fit(estimator, X, y, **kwargs):
    kwargs = {"refit": False, **kwargs}
    return NestedCV(
        estimator, outer_cv=OUTER, inner_cv=2, n_refits=1, random_state=0, **kwargs
    ).fit(X, y)


def _positive_target():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    return X, rng.gamma(2.0, np.exp(0.5 + X @ [0.3, -0.2, 0.1]) / 2.0)


@pytest.fixture(scope="module")
def one_key():
    """Ridge and a prior under the one key "error": MSE for the one, MAE for the other."""
    X, y = make_regression(n_samples=60, n_features=4, noise=30, random_state=3)
    mse, mae = {"error": "neg_mean_squared_error"}, {"error": "neg_mean_absolute_error"}
    return {
        "ridge": _fit(Ridge(), X, y, scoring=mse, refit="error"),
        "dummy": _fit(DummyRegressor(), X, y, scoring=mae, refit="error"),
        "dummy_mse": _fit(DummyRegressor(), X, y, scoring=mse, refit="error"),
    }


@pytest.fixture(scope="module")
def own_scores():
    """Two GLMs scored with scoring=None: each one's score is D^2 of its own deviance."""
    X, y = _positive_target()
    return {
        "poisson": _fit(PoissonRegressor(), X, y),
        "gamma": _fit(GammaRegressor(), X, y),
        "pipeline": _fit(make_pipeline(StandardScaler(), PoissonRegressor()), X, y),
    }


def test_one_key_of_two_scorers_is_refused(one_key):
    ridge, dummy = one_key["ridge"], one_key["dummy"]
    # the reference: scikit-learn's scorers of the two keys differ
    assert ridge.metrics_["error"].scoring == "neg_mean_squared_error"
    assert dummy.metrics_["error"].scoring == "neg_mean_absolute_error"
    message = (
        r"different metrics \('ridge': error \(scoring='neg_mean_squared_error'\), "
        r"'dummy': error \(scoring='neg_mean_absolute_error'\)\)"
    )
    with pytest.raises(ValueError, match=message):
        compare({"ridge": ridge, "dummy": dummy})
    with pytest.raises(ValueError, match=message):
        compare({"ridge": ridge, "dummy": dummy}, scoring="error")
    with pytest.raises(ValueError, match="error \\(scoring='neg_mean_absolute_error'\\)"):
        comparison_text({"ridge": ridge, "dummy": dummy})
    # saved and read back, the scorers are still told apart
    saved = {name: json.loads(json.dumps(result_to_dict(r))) for name, r in one_key.items()}
    with pytest.raises(ValueError, match="neg_mean_absolute_error"):
        comparison_text({"ridge": saved["ridge"], "dummy": saved["dummy"]})
    cells = {("d", "ridge"): saved["ridge"], ("d", "dummy"): saved["dummy"]}
    with pytest.raises(ValueError, match="different metrics under one name"):
        BenchmarkResult.from_results(cells).table()


def test_one_key_of_one_scorer_is_compared(one_key):
    ridge, dummy = one_key["ridge"], one_key["dummy_mse"]
    table = compare({"ridge": ridge, "dummy": dummy})
    # the reference: the mean of the per-fold differences of the two outer scores
    expected = np.mean(ridge.outer_scores_ - dummy.outer_scores_)
    assert table["mean_difference"][0] == pytest.approx(expected)
    saved = json.loads(json.dumps(result_to_dict(dummy)))
    assert "ridge - dummy" in comparison_text({"ridge": ridge, "dummy": saved})


def test_own_score_methods_of_two_estimators_are_refused(own_scores):
    poisson, gamma = own_scores["poisson"], own_scores["gamma"]
    # both print as "score", as before
    assert str(poisson.metrics_["score"]) == str(gamma.metrics_["score"]) == "score"
    message = (
        r"'poisson': score \(scoring=None: PoissonRegressor.score\), "
        r"'gamma': score \(scoring=None: GammaRegressor.score\).*common 'scoring'"
    )
    with pytest.raises(ValueError, match=message):
        compare({"poisson": poisson, "gamma": gamma})
    with pytest.raises(ValueError, match="PoissonRegressor.score"):
        comparison_text({"poisson": poisson, "gamma": gamma})
    saved = {name: json.loads(json.dumps(result_to_dict(r))) for name, r in own_scores.items()}
    with pytest.raises(ValueError, match="GammaRegressor.score"):
        comparison_text({"poisson": saved["poisson"], "gamma": gamma})
    cells = {("d", "poisson"): poisson, ("d", "gamma"): saved["gamma"]}
    with pytest.raises(ValueError, match="different metrics under one name"):
        BenchmarkResult.from_results(cells).table()


def test_a_benchmark_of_two_own_score_methods_is_refused_before_fitting():
    X, y = _positive_target()
    models = {"poisson": (PoissonRegressor(), {}), "gamma": (GammaRegressor(), {})}
    with pytest.raises(ValueError, match="different metrics under one name.*GammaRegressor"):
        benchmark(models, {"d": (X, y)}, outer_cv=OUTER, inner_cv=2, n_refits=1, random_state=0)


def test_one_own_score_method_is_compared(own_scores):
    # a pipeline scores with its final step's score method: the same metric as the step's
    poisson, pipeline = own_scores["poisson"], own_scores["pipeline"]
    table = compare({"poisson": poisson, "pipeline": pipeline})
    expected = np.mean(poisson.outer_scores_ - pipeline.outer_scores_)
    assert table["mean_difference"][0] == pytest.approx(expected)
    saved = json.loads(json.dumps(result_to_dict(pipeline)))
    assert "poisson - pipeline" in comparison_text({"poisson": poisson, "pipeline": saved})


def test_the_mixins_score_methods_are_common_metrics():
    X, y = make_classification(n_samples=60, random_state=0)
    logistic = _fit(LogisticRegression(), X, y)
    tree = _fit(DecisionTreeClassifier(max_depth=2, random_state=0), X, y)
    accuracy = _fit(DecisionTreeClassifier(max_depth=2, random_state=0), X, y, scoring="accuracy")
    table = compare({"logistic": logistic, "tree": tree, "accuracy": accuracy})
    assert table["mean_difference"][2] == 0.0  # tree - accuracy: one metric, one model


def test_parameters_that_choose_the_metric_of_a_score_method():
    from sklearn_fair.metrics._names import same_metric

    # TweedieRegressor.score is D^2 of the Tweedie deviance of its own power
    mild, gamma = TweedieRegressor(power=1.5), TweedieRegressor(power=2)
    assert not same_metric(
        [metric_display_name(None, estimator=mild), metric_display_name(None, estimator=gamma)]
    )
    assert same_metric(
        [
            metric_display_name(None, estimator=mild),
            metric_display_name(None, estimator=TweedieRegressor(power=1.5, alpha=0.1)),
        ]
    )
    ending = make_pipeline(StandardScaler(), GammaRegressor())
    assert not same_metric(
        [
            metric_display_name(None, estimator=ending),
            metric_display_name(None, estimator=PoissonRegressor()),
        ]
    )


def test_a_metric_not_recorded_is_compared_by_name_and_sign():
    from sklearn_fair.metrics._names import same_metric

    # a result saved before sklearn-fair recorded its metric says nothing of what it scored
    unrecorded = MetricName("score", None, 1, "the metric was not saved with this result")
    own = metric_display_name(None, estimator=PoissonRegressor())
    assert same_metric([unrecorded, own])
    assert same_metric([unrecorded, metric_display_name(None, estimator=GammaRegressor())])
    assert not same_metric([own, metric_display_name(None, estimator=GammaRegressor())])


def test_one_metric_however_its_scorer_was_written():
    from sklearn.metrics import f1_score, fbeta_score, make_scorer

    from sklearn_fair.metrics._names import same_metric

    def named(scoring):
        return metric_display_name(scoring)

    # scikit-learn's "f1_macro" carries pos_label=None, which an averaged metric ignores
    assert same_metric([named("f1_macro"), named(make_scorer(f1_score, average="macro"))])
    assert same_metric(
        [
            named(make_scorer(fbeta_score, beta=2, average="macro")),
            named(make_scorer(fbeta_score, average="macro", beta=2)),
        ]
    )
    assert not same_metric(
        [
            named(make_scorer(fbeta_score, beta=2, average="macro")),
            named(make_scorer(fbeta_score, beta=0.5, average="macro")),
        ]
    )
    assert not same_metric([named("f1"), named(make_scorer(f1_score, pos_label=0))])
    # "f1" spells out f1_score's default average="binary"
    assert same_metric([named("f1"), named(make_scorer(f1_score))])


def test_a_note_of_an_earlier_version_is_compared_by_name_and_sign():
    from sklearn_fair.metrics._names import same_metric

    # before, the note named the class given (a pipeline), not the class whose score runs
    earlier = MetricName(
        "score", None, 1,
        "the estimator's own score method (scoring=None): Pipeline.score, not known to be "
        "accuracy or R^2, so of unknown range",
    )  # fmt: skip
    poisson = metric_display_name(
        None, estimator=make_pipeline(StandardScaler(), PoissonRegressor())
    )
    assert same_metric([earlier, poisson])
    bare = MetricName(
        "score", None, 1,
        "the estimator's own score method (scoring=None): TweedieRegressor.score, not known to "
        "be accuracy or R^2, so of unknown range",
    )  # fmt: skip
    assert same_metric([bare, metric_display_name(None, estimator=TweedieRegressor(power=1.5))])


def test_a_pipeline_of_the_users_that_scores_by_itself_is_its_own_metric():
    from sklearn.pipeline import Pipeline

    from sklearn_fair.metrics._names import same_metric

    class FeaturePipeline(Pipeline):  # a user's subclass with a score of its own
        def score(self, X, y=None, **params):
            return -float(np.mean((self.predict(X) - y) ** 2))

    own = metric_display_name(None, estimator=FeaturePipeline([("poisson", PoissonRegressor())]))
    assert not same_metric([own, metric_display_name(None, estimator=GammaRegressor())])
