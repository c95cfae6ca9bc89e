import json

import pytest
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.metrics import get_scorer, make_scorer, mean_absolute_error
from sklearn.metrics import get_scorer_names as sklearn_scorer_names
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_fair.metrics import MetricName, get_scorer_names, metric_display_name


@pytest.mark.parametrize("name", get_scorer_names())
def test_every_scorer_name_has_a_printed_name_and_the_scorers_sign(name):
    metric = metric_display_name(name)
    assert isinstance(metric, MetricName) and str(metric) == metric.name
    assert metric.name and "_" not in metric.name and not metric.name.startswith("neg")
    assert metric.scoring == name
    # Independent check of the sign: the scorer object itself (scikit-learn keeps
    # greater_is_better as _sign on every scorer it makes).
    sign = getattr(get_scorer(name), "_sign", 1) if name in sklearn_scorer_names() else 1
    assert metric.sign == sign
    assert metric.greater_is_better == (sign > 0)
    assert bool(metric.note) == (sign < 0)


def test_names_are_distinct():
    names = [metric_display_name(name).name for name in get_scorer_names()]
    assert len(set(names)) == len(names)


@pytest.mark.parametrize(
    "scoring, expected",
    [
        ("neg_root_mean_squared_error", "RMSE"),
        ("neg_mean_absolute_error", "MAE"),
        ("r2", "R^2"),
        ("roc_auc_ovr_weighted", "ROC AUC (one-vs-rest, weighted average)"),
        ("f1_macro", "F1 (macro average)"),
        ("balanced_accuracy", "balanced accuracy"),
        ("kappa", "Cohen's kappa"),
        ("ppv", "PPV"),
    ],
)
def test_familiar_names(scoring, expected):
    assert metric_display_name(scoring).name == expected


def test_negated_error_is_explained_and_values_are_positive():
    rmse = metric_display_name("neg_root_mean_squared_error")
    assert rmse.sign == -1 and not rmse.greater_is_better
    assert "negated so that higher is better" in rmse.note and "positive RMSE" in rmse.note
    assert rmse.values([-0.5, -0.25]).tolist() == [0.5, 0.25]


@pytest.mark.parametrize(
    "estimator, expected",
    [
        (LogisticRegression(), "accuracy"),
        (make_pipeline(StandardScaler(), LinearRegression()), "R^2"),
        (GridSearchCV(DummyClassifier(), {"strategy": ["prior"]}), "accuracy"),
        (StandardScaler(), "score"),
        (None, "score"),
    ],
)
def test_default_score_follows_the_estimator(estimator, expected):
    metric = metric_display_name(None, estimator=estimator)
    assert metric.name == expected and metric.sign == 1 and "scoring=None" in metric.note


def test_scorers_and_user_keys():
    negated = make_scorer(mean_absolute_error, greater_is_better=False)
    assert (metric_display_name(negated).name, metric_display_name(negated).sign) == ("MAE", -1)
    assert metric_display_name(lambda estimator, X, y: 1.0).name == "custom scorer <lambda>"
    # A key of a scoring dict is printed as written, its sign from the scorer.
    keyed = metric_display_name("neg_mean_absolute_error", name="neg_mae")
    assert (keyed.name, keyed.sign) == ("mae", -1)
    assert metric_display_name(get_scorer("accuracy"), name="acc").name == "acc"
    assert metric_display_name("neg_root_mean_squared_error", name="rmse").name == "rmse"
    assert metric_display_name("ppv_5pct").name == "ppv_5pct"


def test_round_trips_through_json():
    metric = metric_display_name("neg_log_loss")
    assert MetricName(**json.loads(json.dumps(metric.to_dict()))) == metric


def test_bad_arguments():
    with pytest.raises(TypeError, match="'scoring' parameter of metric_display_name"):
        metric_display_name(3)
    with pytest.raises(TypeError, match="'name' parameter of metric_display_name"):
        metric_display_name("accuracy", name=3)


def test_a_negated_scorer_object_and_a_negated_key_read_as_words():
    # "scikit-learn's the scorer is the MAE negated"; a key "neg_log_loss" printed "log_loss"
    # where the name "neg_log_loss" printed "log loss"
    negated = make_scorer(mean_absolute_error, greater_is_better=False)
    assert metric_display_name(negated).note.startswith("the scorer is the MAE negated")
    assert "scikit-learn's the" not in metric_display_name(negated).note
    keyed = metric_display_name(get_scorer("neg_log_loss"), name="neg_log_loss")
    assert keyed.name == metric_display_name("neg_log_loss").name == "log loss"
