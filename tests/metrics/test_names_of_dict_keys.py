"""A key of a ``scoring`` dict that is a scorer name is printed as the metric only where the
scorer computes that metric: a key over another metric prints the scorer's metric with the key.

Before, a key given a scorer *name* ({"accuracy": "roc_auc"}) printed the key ("accuracy" over
ROC AUC scores, "R^2" over MSEs), and a key over a metric of one "family" printed the key
("specificity" over the sensitivity, "NPV" over a PPV at a prevalence).
"""

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification, make_regression
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import (
    balanced_accuracy_score,
    f1_score,
    fbeta_score,
    make_scorer,
    mean_squared_error,
    precision_score,
    recall_score,
    roc_auc_score,
)

from sklearn_fair.metrics import (
    get_scorer,
    make_npv_scorer,
    make_ppv_scorer,
    make_sensitivity_scorer,
    make_specificity_scorer,
    metric_display_name,
)
from sklearn_fair.metrics._names import same_metric
from sklearn_fair.model_selection import NestedCV
from sklearn_fair.report import nested_cv_report


@pytest.mark.parametrize(
    "scoring, key, expected",
    [
        ("roc_auc", "accuracy", "ROC AUC (under the key 'accuracy')"),
        ("balanced_accuracy", "accuracy", "balanced accuracy (under the key 'accuracy')"),
        ("recall", "precision", "recall (under the key 'precision')"),
        ("kappa", "accuracy", "Cohen's kappa (under the key 'accuracy')"),
        ("r2", "neg_mean_absolute_error", "R^2 (under the key 'neg_mean_absolute_error')"),
        ("neg_mean_squared_error", "r2", "MSE (under the key 'r2')"),
        ("neg_mean_squared_error", "neg_mean_absolute_error",
         "MSE (under the key 'neg_mean_absolute_error')"),
    ],
)  # fmt: skip
def test_a_name_string_under_a_key_of_another_metric_is_named_as_its_scorer(scoring, key, expected):
    # before: the key, "accuracy", "neg mean absolute error", "R^2", "MAE"
    by_name = metric_display_name(scoring, name=key)
    by_scorer = metric_display_name(get_scorer(scoring), name=key)
    assert by_name.name == by_scorer.name == expected
    assert by_name.sign == by_scorer.sign


def test_an_error_under_the_key_r2_prints_the_error_it_holds():
    X, y = make_regression(n_samples=80, n_features=4, noise=20, random_state=0)
    model = Ridge().fit(X, y)
    metric = metric_display_name("neg_mean_squared_error", name="r2")
    printed = metric.values([get_scorer("neg_mean_squared_error")(model, X, y)])[0]
    # the printed number is scikit-learn's MSE, and the name says MSE (before: "R^2")
    assert printed == pytest.approx(mean_squared_error(y, model.predict(X)))
    assert metric.name == "MSE (under the key 'r2')"
    assert "the MSE negated" in metric.note and "r2" not in metric.note


def test_nested_cv_and_its_report_name_roc_auc_under_the_key_accuracy():
    X, y = make_classification(n_samples=90, random_state=0, flip_y=0.2)
    kwargs = dict(outer_cv=3, inner_cv=2, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        keyed = NestedCV(
            LogisticRegression(), {"C": [1.0]}, scoring={"accuracy": "roc_auc"},
            refit="accuracy", **kwargs,
        ).fit(X, y)  # fmt: skip
    # the outer scores are scikit-learn's ROC AUC of each outer fold's model
    for fold, score in zip(keyed.outer_results_, keyed.outer_scores_):
        test = fold["test_indices"]
        train = fold["train_indices"]
        model = LogisticRegression().fit(X[train], y[train])
        assert score == pytest.approx(roc_auc_score(y[test], model.decision_function(X[test])))
    summary = keyed.summary()["accuracy"]
    assert summary.metric == "ROC AUC (under the key 'accuracy')"
    text = nested_cv_report(keyed).to_text()
    assert "test ROC AUC (under the key 'accuracy')" in text
    assert "test accuracy" not in text


X_BIN, Y_BIN = make_classification(
    n_samples=200, random_state=0, weights=[0.7], flip_y=0.15, class_sep=0.6
)
MODEL = LogisticRegression().fit(X_BIN, Y_BIN)
PREDICTED = MODEL.predict(X_BIN)
# scikit-learn's value of the metric each key names, of the labels 0 and 1
REFERENCE = {
    "sensitivity": recall_score(Y_BIN, PREDICTED),
    "recall": recall_score(Y_BIN, PREDICTED),
    "specificity": recall_score(Y_BIN, PREDICTED, pos_label=0),
    "ppv": precision_score(Y_BIN, PREDICTED),
    "precision": precision_score(Y_BIN, PREDICTED),
    "npv": precision_score(Y_BIN, PREDICTED, pos_label=0),
    "balanced_accuracy": balanced_accuracy_score(Y_BIN, PREDICTED),
    "f1": f1_score(Y_BIN, PREDICTED),
}


@pytest.mark.parametrize(
    "key, scorer, expected",
    [
        # another metric of the same "family": the scorer's metric, with the key
        ("specificity", make_sensitivity_scorer(), "sensitivity (under the key 'specificity')"),
        ("sensitivity", make_specificity_scorer(), "specificity (under the key 'sensitivity')"),
        ("specificity", make_scorer(recall_score), "recall (under the key 'specificity')"),
        ("ppv", make_npv_scorer(), "NPV (under the key 'ppv')"),
        ("ppv", "npv", "NPV (under the key 'ppv')"),
        ("precision", make_npv_scorer(), "NPV (under the key 'precision')"),
        ("npv", make_ppv_scorer(prevalence=0.1), "PPV (prevalence=0.1) (under the key 'npv')"),
        ("balanced_accuracy", make_scorer(recall_score),
         "recall (under the key 'balanced_accuracy')"),
        ("recall", make_scorer(balanced_accuracy_score),
         "balanced accuracy (under the key 'recall')"),
        ("sensitivity", make_scorer(recall_score, average="macro"),
         "recall (macro average) (under the key 'sensitivity')"),
        ("f1", make_scorer(fbeta_score, beta=2), "F-beta (beta=2) (under the key 'f1')"),
        # one metric under two names: the key's name
        ("sensitivity", make_scorer(recall_score), "sensitivity"),
        ("sensitivity", "recall", "sensitivity"),
        ("specificity", make_scorer(recall_score, pos_label=0), "specificity"),
        ("npv", make_scorer(precision_score, pos_label=0), "NPV"),
        ("ppv", make_scorer(precision_score), "PPV"),
        ("precision", make_ppv_scorer(), "precision"),
        ("f1", make_scorer(fbeta_score, beta=1), "F1"),
    ],
)  # fmt: skip
def test_a_key_names_the_metric_only_where_the_scorer_computes_it(key, scorer, expected):
    # before: the key's name for each ("specificity" over the sensitivity, 0.7692 where the
    # specificity is 0.9259; "NPV" over a PPV at a prevalence of 0.1)
    assert metric_display_name(scorer, name=key).name == expected
    value = get_scorer(scorer)(MODEL, X_BIN, Y_BIN)
    # the key's name exactly where the scorer's number is scikit-learn's of the key's metric
    assert (value == pytest.approx(REFERENCE[key])) == ("(under the key" not in expected)


def test_an_f_beta_of_beta_1_under_f1_keeps_its_average():
    # before: "F1", the macro average left out
    scorer = make_scorer(fbeta_score, beta=1, average="macro")
    assert scorer(MODEL, X_BIN, Y_BIN) == pytest.approx(f1_score(Y_BIN, PREDICTED, average="macro"))
    assert not np.isclose(scorer(MODEL, X_BIN, Y_BIN), REFERENCE["f1"])
    assert metric_display_name(scorer, name="f1").name == "F1 (macro average)"


# labels "no"/"yes", as a user with string labels must give pos_label
Y_STR = np.where(Y_BIN == 1, "yes", "no")
MODEL_STR = LogisticRegression().fit(X_BIN, Y_STR)
PREDICTED_STR = MODEL_STR.predict(X_BIN)


@pytest.mark.parametrize(
    "key, scorer, expected, reference",
    [
        # the key's rate of the class "yes": the key's name, with the class
        ("sensitivity", make_scorer(recall_score, pos_label="yes"),
         "sensitivity (pos_label='yes')", recall_score(Y_STR, PREDICTED_STR, pos_label="yes")),
        ("ppv", make_scorer(precision_score, pos_label="yes"),
         "PPV (pos_label='yes')", precision_score(Y_STR, PREDICTED_STR, pos_label="yes")),
        ("recall", make_sensitivity_scorer(pos_label="yes"),
         "recall (pos_label='yes')", recall_score(Y_STR, PREDICTED_STR, pos_label="yes")),
    ],
)  # fmt: skip
def test_a_key_over_its_rate_of_a_string_class_names_the_key_and_the_class(
    key, scorer, expected, reference
):
    # before: "recall (pos_label='yes') (under the key 'sensitivity')", "precision
    # (pos_label='yes') (under the key 'ppv')", as if they were another metric than the key's
    assert scorer(MODEL_STR, X_BIN, Y_STR) == pytest.approx(reference)
    metric = metric_display_name(scorer, name=key)
    assert metric.name == expected
    # not the plain scorer name's metric, the rate of the class 1
    assert metric.name != metric_display_name(key).name
    assert not same_metric([metric, metric_display_name(key)])


@pytest.mark.parametrize(
    "key, scorer, expected",
    [
        # the sensitivity of "yes" is no specificity (of "yes": the recall of "no")
        ("specificity", make_scorer(recall_score, pos_label="yes"),
         "recall (pos_label='yes') (under the key 'specificity')"),
        # nor the recall of "no" the specificity of "no"
        ("specificity", make_scorer(recall_score, pos_label="no"),
         "recall (pos_label='no') (under the key 'specificity')"),
        ("npv", make_scorer(precision_score, pos_label="yes"),
         "precision (pos_label='yes') (under the key 'npv')"),
    ],
)  # fmt: skip
def test_a_key_over_the_other_rate_of_a_string_class_names_the_scorers_metric(
    key, scorer, expected
):
    value = scorer(MODEL_STR, X_BIN, Y_STR)
    positive = scorer._kwargs["pos_label"]
    negative = "no" if positive == "yes" else "yes"
    # the number is the scorer's metric of its pos_label, not the key's metric of that class
    rate = recall_score if key == "specificity" else precision_score
    assert value == pytest.approx(rate(Y_STR, PREDICTED_STR, pos_label=positive))
    assert value != pytest.approx(rate(Y_STR, PREDICTED_STR, pos_label=negative))
    assert metric_display_name(scorer, name=key).name == expected


def test_a_recall_of_the_class_0_under_sensitivity_is_still_another_metric():
    # of the labels 0 and 1 the recall of 0 is the specificity: not the key's rate of 0
    scorer = make_scorer(recall_score, pos_label=0)
    assert scorer(MODEL, X_BIN, Y_BIN) == pytest.approx(REFERENCE["specificity"])
    assert not np.isclose(scorer(MODEL, X_BIN, Y_BIN), REFERENCE["sensitivity"])
    name = metric_display_name(scorer, name="sensitivity").name
    assert name == "recall (pos_label=0) (under the key 'sensitivity')"


def test_nested_cv_names_a_sensitivity_of_a_string_class_as_such():
    scorer = make_scorer(recall_score, pos_label="yes")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        keyed = NestedCV(
            LogisticRegression(), {"C": [1.0]}, scoring={"sensitivity": scorer},
            refit="sensitivity", outer_cv=3, inner_cv=2, random_state=0,
        ).fit(X_BIN, Y_STR)  # fmt: skip
    for fold, score in zip(keyed.outer_results_, keyed.outer_scores_):
        train, test = fold["train_indices"], fold["test_indices"]
        predicted = LogisticRegression().fit(X_BIN[train], Y_STR[train]).predict(X_BIN[test])
        assert score == pytest.approx(recall_score(Y_STR[test], predicted, pos_label="yes"))
    assert keyed.summary()["sensitivity"].metric == "sensitivity (pos_label='yes')"
    assert "under the key" not in nested_cv_report(keyed).to_text()
