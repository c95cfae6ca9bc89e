"""A scorer of a metric function that scores another response of the estimator than the
function's scorer names do is named with that response: scikit-learn's
``make_scorer(log_loss, greater_is_better=False)`` scores the predicted labels (its default
``response_method="predict"``), "neg_log_loss" the probabilities.

Before, both printed "log loss" (a NestedCV's means 8.89 and 0.59), and
``compare(..., scoring="neg_log_loss")`` took the hard-label results as neg_log_loss.
"""

import warnings

import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import (
    average_precision_score,
    brier_score_loss,
    log_loss,
    make_scorer,
    mean_squared_error,
    roc_auc_score,
)

from sklearn_fair.metrics import get_scorer, metric_display_name
from sklearn_fair.model_selection import NestedCV
from sklearn_fair.stats import compare

X, Y = make_classification(n_samples=150, random_state=0, flip_y=0.3, weights=[0.8])
MODEL = LogisticRegression().fit(X, Y)
HARD_LOG_LOSS = make_scorer(log_loss, greater_is_better=False)


def test_a_log_loss_of_predicted_labels_is_named_so():
    # the scorer's number is scikit-learn's log loss of the labels, not of the probabilities
    hard = -HARD_LOG_LOSS(MODEL, X, Y)
    assert hard == pytest.approx(log_loss(Y, MODEL.predict(X)))
    assert hard != pytest.approx(log_loss(Y, MODEL.predict_proba(X)))
    metric = metric_display_name(HARD_LOG_LOSS)
    assert (metric.name, metric.sign) == ("log loss (from predicted labels)", -1)
    assert metric.name != metric_display_name("neg_log_loss").name == "log loss"
    # under the key of the named scorer too
    keyed = metric_display_name(HARD_LOG_LOSS, name="neg_log_loss")
    assert keyed.name == "log loss (from predicted labels)"


def test_a_roc_auc_of_predicted_labels_is_named_so():
    scorer = make_scorer(roc_auc_score)  # response_method="predict"
    value = scorer(MODEL, X, Y)
    assert value == pytest.approx(roc_auc_score(Y, MODEL.predict(X)))
    assert value != pytest.approx(roc_auc_score(Y, MODEL.decision_function(X)))
    assert metric_display_name(scorer).name == "ROC AUC (from predicted labels)"
    assert metric_display_name(scorer, name="roc_auc").name == "ROC AUC (from predicted labels)"


@pytest.mark.parametrize(
    "scorer, expected",
    [
        # the responses of scikit-learn's scorer names of the function: no qualifier
        (make_scorer(log_loss, greater_is_better=False, response_method="predict_proba"),
         "log loss"),
        (make_scorer(roc_auc_score, response_method=("decision_function", "predict_proba")),
         "ROC AUC"),
        (make_scorer(roc_auc_score, response_method="predict_proba"), "ROC AUC"),
        (get_scorer("roc_auc"), "ROC AUC"),
    ],
)  # fmt: skip
def test_the_responses_of_the_named_scorers_are_not_qualified(scorer, expected):
    assert metric_display_name(scorer).name == expected


@pytest.mark.parametrize(
    "scorer, metric, expected",
    [
        # decision values and probabilities, in either order: the scores of "roc_auc" and
        # "average_precision", which take the first of them the estimator has
        (make_scorer(roc_auc_score, response_method="decision_function"), roc_auc_score,
         "ROC AUC"),
        (make_scorer(roc_auc_score, response_method=("predict_proba", "decision_function")),
         roc_auc_score, "ROC AUC"),
        (make_scorer(roc_auc_score, response_method=["decision_function", "predict_proba"]),
         roc_auc_score, "ROC AUC"),
        (make_scorer(average_precision_score, response_method="predict_proba"),
         average_precision_score, "average precision"),
        (make_scorer(average_precision_score, response_method="decision_function"),
         average_precision_score, "average precision"),
    ],
)  # fmt: skip
def test_decision_values_and_probabilities_are_one_response(scorer, metric, expected):
    # before: "ROC AUC (from decision_function)", "ROC AUC (from predict_proba or
    # decision_function)", "average precision (from predict_proba)"
    reference = metric(Y, MODEL.decision_function(X))
    assert scorer(MODEL, X, Y) == pytest.approx(reference)
    assert metric(Y, MODEL.predict_proba(X)[:, 1]) == pytest.approx(reference)
    assert metric_display_name(scorer).name == expected
    key = {roc_auc_score: "roc_auc", average_precision_score: "average_precision"}[metric]
    assert metric_display_name(scorer, name=key).name == expected
    assert metric_display_name(key).name == expected


def test_a_continuous_response_of_a_metric_of_labels_is_named_so():
    # the MSE of the probabilities, the Brier score, is no MSE of the predicted labels
    scorer = make_scorer(mean_squared_error, greater_is_better=False,
                         response_method="predict_proba")  # fmt: skip
    assert -scorer(MODEL, X, Y) == pytest.approx(
        mean_squared_error(Y, MODEL.predict_proba(X)[:, 1])
    )
    assert metric_display_name(scorer).name == "MSE (from predict_proba)"


def _fit(scoring):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return NestedCV(
            LogisticRegression(), {"C": [0.1, 1.0]}, outer_cv=3, inner_cv=2,
            scoring=scoring, random_state=0,
        ).fit(X, Y)  # fmt: skip


def test_compare_refuses_hard_label_log_losses_as_neg_log_loss():
    hard = [_fit(HARD_LOG_LOSS), _fit(HARD_LOG_LOSS)]
    # before: compared as neg_log_loss, means of 8.89 where the log loss is 0.59
    with pytest.raises(ValueError, match="holds no scores of it.*from predicted labels"):
        compare({"a": hard[0], "b": hard[1]}, scoring="neg_log_loss")
    soft = _fit("neg_log_loss")
    compared = compare({"a": soft, "b": soft}, scoring="neg_log_loss")
    assert compared.table.shape[0] == 1


def test_compare_takes_decision_value_roc_aucs_as_roc_auc():
    decision = _fit(make_scorer(roc_auc_score, response_method="decision_function"))
    named = _fit("roc_auc")
    # each outer score is scikit-learn's ROC AUC of the fold's refit model
    for fold, score in zip(decision.outer_results_, decision.outer_scores_):
        train, test = fold["train_indices"], fold["test_indices"]
        model = LogisticRegression(**fold["best_params"]).fit(X[train], Y[train])
        assert score == pytest.approx(roc_auc_score(Y[test], model.decision_function(X[test])))
    # before: refused, "its outer scores are of ROC AUC (from decision_function)"
    compared = compare({"a": decision, "b": named}, scoring="roc_auc")
    row = compared.table.iloc[0]
    assert row["mean_a"] == pytest.approx(row["mean_b"])
    assert row["mean_a"] == pytest.approx(decision.outer_scores_.mean())


@pytest.mark.parametrize("function", [log_loss, brier_score_loss])
def test_a_probability_metric_of_decision_values_is_named_so(function):
    # "neg_log_loss" and "neg_brier_score" score probabilities only (scikit-learn refuses
    # decision values outside [0, 1]); ROC AUC's names take either, log loss's do not
    scorer = make_scorer(function, greater_is_better=False, response_method="decision_function")
    X, y = make_classification(200, random_state=0)
    with pytest.raises(ValueError, match="y_prob contains values greater than 1"):
        scorer(LogisticRegression().fit(X, y), X, y)
    assert metric_display_name(scorer).name.endswith("(from decision_function)")
