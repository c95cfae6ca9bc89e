import json

import pytest
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.metrics import (
    cohen_kappa_score,
    f1_score,
    fbeta_score,
    get_scorer,
    make_scorer,
    mean_absolute_error,
    precision_score,
    recall_score,
)
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


@pytest.mark.parametrize(
    "key, scorer, expected",
    [
        ("kappa", make_scorer(f1_score), "F1 (under the key 'kappa')"),
        ("accuracy", make_scorer(f1_score), "F1 (under the key 'accuracy')"),
        ("neg_log_loss", make_scorer(mean_absolute_error, greater_is_better=False),
         "MAE (under the key 'neg_log_loss')"),
        # the key names the scorer's metric (ours are scikit-learn's under other names)
        ("kappa", make_scorer(cohen_kappa_score), "Cohen's kappa"),
        ("sensitivity", make_scorer(recall_score), "sensitivity"),
        ("f1_macro", make_scorer(f1_score, average="macro"), "F1 (macro average)"),
        ("my_f1", make_scorer(f1_score), "my_f1"),
        # metrics that become one another with their parameters: the key names the metric
        ("f1", make_scorer(fbeta_score, beta=1), "F1"),
        ("specificity", make_scorer(recall_score, pos_label=0), "specificity"),
        ("npv", make_scorer(precision_score, pos_label=0), "NPV"),
    ],
)  # fmt: skip
def test_a_key_that_names_another_metric_prints_the_scorers_metric(key, scorer, expected):
    # {"kappa": make_scorer(f1_score)} printed "Cohen's kappa" over F1 scores
    assert metric_display_name(scorer, name=key).name == expected


def test_numpy_labels_print_as_written():
    # numpy 2's repr printed "F1 (pos_label=np.int64(0))"
    import numpy as np

    scorer = make_scorer(f1_score, pos_label=np.int64(0))
    assert metric_display_name(scorer).name == "F1 (pos_label=0)"
    scorer = make_scorer(recall_score, labels=[np.int64(0), np.int64(2)], average="macro")
    assert metric_display_name(scorer).name.endswith("labels=[0, 2])")
