"""Metrics on one-label folds, default-score names, and scorer names and ranges.

Every expected value comes from scikit-learn (its metrics, its estimators' ``score``) or from
counts by hand, not from sklearn_fair's own functions.
"""

import math
import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import make_classification, make_regression
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegressionCV, PoissonRegressor, RidgeCV
from sklearn.metrics import (
    accuracy_score,
    balanced_accuracy_score,
    check_scoring,
    make_scorer,
    precision_score,
    r2_score,
    recall_score,
)
from sklearn.metrics import get_scorer as sklearn_get_scorer
from sklearn.model_selection import PredefinedSplit, cross_validate
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_fair.metrics import (
    get_scorer,
    get_scorer_names,
    make_kappa_scorer,
    make_ppv_scorer,
    metric_display_name,
    npv,
    ppv,
    score_range,
    sensitivity,
    specificity,
)
from sklearn_fair.stats import summarize
from sklearn_fair.stats._bounds import metric_range

# ---------------------------------------------------------------------------------------------
# 1. a fold whose labels and predictions are all one label


@pytest.mark.parametrize(
    "y_true, y_pred, pos_label",
    [([0, 0, 0], [0, 0, 0], 1), (["a", "a"], ["a", "a"], "b"), ([0, 0, 0, 0], [0, 0, 0, 0], 1)],
)
def test_specificity_and_npv_of_a_fold_without_positives(y_true, y_pred, pos_label):
    # scikit-learn: specificity is the recall of the negatives, NPV their precision; with
    # one label present, pos_label is accepted (_check_set_wise_labels)
    negative = y_true[0]
    assert specificity(y_true, y_pred, pos_label=pos_label) == recall_score(
        y_true, y_pred, pos_label=negative
    )
    assert npv(y_true, y_pred, pos_label=pos_label) == precision_score(
        y_true, y_pred, pos_label=negative
    )
    tn, fp = len(y_true), 0  # by hand: every sample a true negative
    assert specificity(y_true, y_pred, pos_label=pos_label) == tn / (tn + fp) == 1.0


@pytest.mark.parametrize("zero_division", [np.nan, 0.0, 1.0])
@pytest.mark.parametrize("y_true", [[0, 0, 0], ["a", "a", "a"]])
def test_sensitivity_and_ppv_of_one_label_follow_scikit_learn(y_true, zero_division):
    options = {"pos_label": 1, "zero_division": zero_division}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected_recall = recall_score(y_true, y_true, **options)
        expected_precision = precision_score(y_true, y_true, **options)
    np.testing.assert_equal(sensitivity(y_true, y_true, **options), expected_recall)
    np.testing.assert_equal(ppv(y_true, y_true, **options), expected_precision)


def test_pos_label_absent_from_two_labels_is_still_refused_as_in_scikit_learn():
    with pytest.raises(ValueError, match="pos_label=2 is not a valid label"):
        recall_score([0, 1, 1], [0, 1, 0], pos_label=2)
    for metric in (sensitivity, specificity, ppv, npv):
        with pytest.raises(ValueError, match="'pos_label' parameter must be one of the labels"):
            metric([0, 1, 1], [0, 1, 0], pos_label=2)


def test_cross_validate_scores_a_fold_without_positives():
    X = np.zeros((20, 1))
    y = np.array([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0])
    cv = PredefinedSplit(np.repeat([0, 1, 2, 3], 5))  # test fold 1 holds no positive
    model = DummyClassifier(strategy="most_frequent")  # predicts 0 everywhere
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a fold scoring NaN would warn (FitFailedWarning)
        result = cross_validate(
            model,
            X,
            y,
            cv=cv,
            scoring={"spec": get_scorer("specificity"), "npv": get_scorer("npv")},
            error_score="raise",
        )
    folds = [test for _, test in cv.split(X, y)]
    assert result["test_spec"].tolist() == [1.0] * 4  # TN / (TN + FP), no FP
    assert result["test_npv"].tolist() == [float(np.mean(y[test] == 0)) for test in folds]


# ---------------------------------------------------------------------------------------------
# 2. scoring=None: the name and range of the estimator's own score

X_CLS, Y_CLS = make_classification(n_samples=90, random_state=0)


def _fitted(estimator, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return estimator.fit(X, y)


def test_a_classifier_that_scores_with_its_own_scoring_is_not_accuracy():
    model = _fitted(
        LogisticRegressionCV(Cs=[0.1, 1.0], cv=3, scoring="neg_log_loss", max_iter=500),
        X_CLS,
        Y_CLS,
    )
    # scikit-learn: LogisticRegressionCV.score is get_scorer(self.scoring or "accuracy")
    value = model.score(X_CLS, Y_CLS)
    assert value == pytest.approx(sklearn_get_scorer("neg_log_loss")(model, X_CLS, Y_CLS))
    assert value < 0  # outside accuracy's [0, 1]
    metric = metric_display_name(None, estimator=model)
    assert metric.name == "score" and "LogisticRegressionCV.score" in metric.note
    assert score_range(check_scoring(model)) == (-math.inf, math.inf)
    assert metric_range(metric) is None
    summarize([value, value - 0.1, value + 0.05], metric=metric)  # no range error


def test_logistic_regression_cv_without_scoring_is_accuracy():
    model = _fitted(LogisticRegressionCV(Cs=[0.1, 1.0], cv=3, max_iter=500), X_CLS, Y_CLS)
    assert model.score(X_CLS, Y_CLS) == accuracy_score(Y_CLS, model.predict(X_CLS))
    assert metric_display_name(None, estimator=model).name == "accuracy"
    assert score_range(check_scoring(model)) == (0.0, 1.0)


def test_default_scores_by_the_method_scikit_learn_runs():
    X, y = make_regression(n_samples=60, n_features=3, random_state=0)
    y_counts = np.abs(y) + 1.0
    # RidgeCV's scoring chooses alpha only: its score is RegressorMixin.score, R^2
    ridge = _fitted(RidgeCV(scoring="neg_mean_absolute_error"), X, y)
    assert ridge.score(X, y) == pytest.approx(r2_score(y, ridge.predict(X)))
    assert metric_display_name(None, estimator=ridge).name == "R^2"
    # a GLM's score is D^2 of its deviance, not R^2
    poisson = _fitted(PoissonRegressor(), X, y_counts)
    assert poisson.score(X, y_counts) != pytest.approx(r2_score(y_counts, poisson.predict(X)))
    assert metric_display_name(None, estimator=poisson).name == "score"
    assert score_range(check_scoring(poisson)) == (-math.inf, math.inf)
    # through a pipeline, the final step decides
    pipe = make_pipeline(StandardScaler(), LogisticRegressionCV(scoring="neg_log_loss"))
    assert metric_display_name(None, estimator=pipe).name == "score"


# ---------------------------------------------------------------------------------------------
# 3. a scorer's keyword arguments: in its name and its range


def test_adjusted_balanced_accuracy_is_named_and_bounded_as_its_scorer():
    scorer = make_scorer(balanced_accuracy_score, adjusted=True)
    metric = metric_display_name(scorer)
    assert metric.name == "balanced accuracy (adjusted=True)"
    worst = balanced_accuracy_score([0, 0, 1, 1], [1, 1, 0, 0], adjusted=True)
    assert worst == -1.0
    assert metric_range(metric) == (-1.0, 1.0)
    scores = [-0.10, 0.05, -0.20, 0.02, -0.05]  # a near-chance model
    summary = summarize(scores, metric=metric, interval="t")
    half = stats.t.ppf(0.975, 4) * np.std(scores, ddof=1) / np.sqrt(5)
    assert summary.ci == pytest.approx((np.mean(scores) - half, np.mean(scores) + half))


def test_accuracy_counts_are_named_and_bounded_as_counts():
    scorer = make_scorer(accuracy_score, normalize=False)
    metric = metric_display_name(scorer)
    assert metric.name == "accuracy (normalize=False)"
    assert accuracy_score([0, 1, 1, 1], [0, 1, 1, 1], normalize=False) == 4.0
    assert metric_range(metric) == (0.0, math.inf)
    summarize([3.0, 4.0, 5.0], metric=metric)  # no range error


def test_a_printed_name_with_a_range_changing_argument_has_no_known_range():
    assert metric_range("balanced accuracy (adjusted=True)") is None
    assert metric_range("accuracy (normalize=False)") is None
    assert metric_range("PPV (prevalence=0.05)") == (0.0, 1.0)
    assert metric_range("balanced accuracy") == (0.0, 1.0)


# ---------------------------------------------------------------------------------------------
# 4. scorer objects keep the information of their names


@pytest.mark.parametrize(
    "scorer, expected",
    [
        (get_scorer("f1_macro"), "F1 (macro average)"),
        (get_scorer("roc_auc_ovr"), "ROC AUC (one-vs-rest)"),
        (get_scorer("roc_auc_ovo_weighted"), "ROC AUC (one-vs-one, weighted average)"),
        (
            make_kappa_scorer(weights="quadratic", labels=[0, 1]),
            "Cohen's kappa (quadratic weights, labels=[0, 1])",
        ),
        (make_ppv_scorer(prevalence=0.05), "PPV (prevalence=0.05)"),
        (get_scorer("ccc"), "CCC"),
        (get_scorer("kappa"), "Cohen's kappa"),
        (get_scorer("ppv"), "PPV"),
        (get_scorer("balanced_accuracy"), "balanced accuracy"),
    ],
)
def test_scorer_objects_are_named_with_their_arguments(scorer, expected):
    assert metric_display_name(scorer).name == expected


@pytest.mark.parametrize("name", get_scorer_names())
def test_a_scorer_object_is_named_as_its_scorer_name(name):
    by_name = metric_display_name(name)
    by_object = metric_display_name(get_scorer(name))
    assert (by_object.name, by_object.sign) == (by_name.name, by_name.sign)
    assert not by_object.name.startswith("custom scorer")
