"""Inputs that changed a metric's value or a metric's name without a word (hunt MT).

Label types that share no label, repeated kappa labels, None in the labels, one metric
written two ways refused by compare(), and a ``scoring`` key that hid its scorer's parameters.
"""

import re
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification, make_regression
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import cohen_kappa_score, make_scorer, recall_score
from sklearn.model_selection import KFold

from sklearn_fair import NestedCV
from sklearn_fair.metrics import (
    MetricName,
    concordance_correlation_coefficient,
    get_scorer,
    kappa,
    make_kappa_scorer,
    make_ppv_scorer,
    metric_display_name,
    npv,
    ppv,
    sensitivity,
    specificity,
)
from sklearn_fair.metrics._names import same_metric
from sklearn_fair.stats import compare


def _sklearn_error(y_true, y_pred, **kwargs):
    """scikit-learn's recall_score's message for these targets: the reference."""
    with pytest.raises(ValueError) as error:
        recall_score(y_true, y_pred, **kwargs)
    return str(error.value)


@pytest.mark.parametrize("zero_division", ["warn", 1.0, np.nan])
def test_labels_of_two_types_are_refused_before_an_undefined_sensitivity(zero_division):
    # 3 positives read as ints, predictions saved as text: sensitivity returned the value of
    # "no positive samples" (0.0 with a warning, or 1.0) where scikit-learn raises
    y_true = np.array([1, 0, 1, 1, 0])
    y_pred = np.array(["1", "0", "1", "0", "0"])
    message = _sklearn_error(y_true, y_pred, pos_label="1", zero_division=zero_division)
    assert message.startswith("Mix of label input types")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "ill-defined" warning before the error
        with pytest.raises(ValueError, match=re.escape(message)):
            sensitivity(y_true, y_pred, pos_label="1", zero_division=zero_division)
        # a fold of the positive class alone: specificity's undefined case
        with pytest.raises(ValueError, match="Mix of label input types"):
            specificity(np.array(["1", "1"]), np.array([1, 0]), pos_label="1", zero_division=1.0)


def test_continuous_predictions_are_refused_before_an_undefined_rate():
    y_true, y_pred = np.array([0, 0, 0]), np.array([0.25, 0.5, 1.0])
    message = _sklearn_error(y_true, y_pred, zero_division=1.0)
    assert "continuous" in message
    with pytest.raises(ValueError, match=re.escape(message)):
        sensitivity(y_true, y_pred, zero_division=1.0)
    with pytest.raises(ValueError, match="mix of binary and continuous"):
        specificity([1, 1, 1], y_pred, zero_division=1.0)
    with pytest.raises(ValueError, match="continuous is not supported"):
        sensitivity([0.5, 0.5], [0.5, 0.5], zero_division=1.0)


@pytest.mark.parametrize("weights", ["linear", "quadratic"])
def test_a_repeated_kappa_label_is_refused(weights):
    y_true = [0, 1, 2, 3, 3, 2, 1, 0, 2, 3]
    y_pred = [0, 2, 2, 3, 2, 1, 1, 0, 3, 3]
    # the reference: scikit-learn's kappa on the scale 0..3 differs from that on 0, 1, 1, 2, 3
    # (linear 0.6721 against 0.7403), which kappa returned for the repeated label
    scale = cohen_kappa_score(y_true, y_pred, labels=[0, 1, 2, 3], weights=weights)
    repeated = cohen_kappa_score(y_true, y_pred, labels=[0, 1, 1, 2, 3], weights=weights)
    assert abs(scale - repeated) > 0.04
    assert kappa(y_true, y_pred, labels=[0, 1, 2, 3], weights=weights) == pytest.approx(scale)
    message = r"'labels' parameter must hold each label once.*repeats \[1\]"
    with pytest.raises(ValueError, match=message):
        kappa(y_true, y_pred, labels=[0, 1, 1, 2, 3], weights=weights)
    with pytest.raises(ValueError, match=message):
        make_kappa_scorer(weights=weights, labels=np.array([0, 1, 1, 2, 3]))
    with pytest.raises(ValueError, match=r"repeats \['a', 'b'\]"):
        kappa(["a", "b"], ["a", "b"], labels=["a", "b", "b", "a", "c"])


@pytest.mark.parametrize("metric", [ppv, npv, sensitivity, specificity])
@pytest.mark.parametrize("container", [np.array, pd.Series])
def test_none_in_the_labels_is_a_missing_value(metric, container):
    # it ended in TypeError "'<' not supported between instances of 'NoneType' and 'str'"
    y_true = container(["a", None, "a", "b"], dtype=object)
    with pytest.raises(ValueError, match="'y_true' parameter contains NaN or None"):
        metric(y_true, ["a", "b", "a", "b"], pos_label="a")
    with pytest.raises(ValueError, match="'y_pred' parameter contains NaN or None"):
        metric([1, 0, 1, 0], np.array([1, None, 1, 0], dtype=object))


def test_none_in_kappas_labels_is_a_missing_value():
    with pytest.raises(ValueError, match="'y_true' parameter contains NaN or None"):
        kappa(np.array(["a", None, "a", "b"], dtype=object), ["a", "b", "a", "b"])


def _scores(scorer, estimator, X, y):
    return scorer(estimator.fit(X, y), X, y)


def test_one_metric_of_ours_however_its_scorer_was_written():
    X, y = make_classification(n_samples=80, n_classes=3, n_informative=4, random_state=0)
    model = LogisticRegression(C=0.05)
    same = [
        ("ppv", make_scorer(ppv)),
        ("kappa", make_scorer(kappa)),
        (
            make_kappa_scorer(weights="linear", labels=[0, 1, 2]),
            make_kappa_scorer(weights="linear", labels=np.array([0, 1, 2])),
        ),
    ]
    for a, b in same:
        # the reference: both scorers give the one value
        assert _scores(get_scorer(a), model, X, y) == _scores(get_scorer(b), model, X, y)
        assert same_metric([metric_display_name(a), metric_display_name(b)]), (a, b)
    # a result saved with the array scorer keeps its repr, NumPy's "labels=[0 1 2]"
    array_scorer = make_kappa_scorer(weights="linear", labels=np.array([0, 1, 2]))
    saved = MetricName(**metric_display_name(array_scorer).to_dict())
    assert "labels=[0 1 2]" in saved.scoring
    live = metric_display_name(make_kappa_scorer(weights="linear", labels=[0, 1, 2]))
    assert same_metric([saved, live])
    # still refused: different values for the same printed name
    different = [
        (
            make_kappa_scorer(weights="linear", labels=[0, 1, 2]),
            make_kappa_scorer(weights="linear", labels=np.array([0, 2, 1])),
        ),
        ("kappa", make_scorer(kappa, weights="quadratic")),
    ]
    for a, b in different:
        assert _scores(get_scorer(a), model, X, y) != _scores(get_scorer(b), model, X, y)
        assert not same_metric([metric_display_name(a), metric_display_name(b)]), (a, b)
    # still refused: another function, which scores what kappa refuses (absent labels)
    assert not same_metric(
        [metric_display_name("kappa"), metric_display_name(make_scorer(cohen_kappa_score))]
    )


def test_compare_takes_ccc_by_name_and_by_make_scorer():
    X, y = make_regression(n_samples=60, n_features=5, noise=10, random_state=0)
    outer = KFold(3, shuffle=True, random_state=0)

    def fit(scoring, grid):
        return NestedCV(
            Ridge(), {"alpha": grid}, outer_cv=outer, inner_cv=3, scoring=scoring,
            refit=False, n_refits=1, random_state=0, n_jobs=1,
        ).fit(X, y)  # fmt: skip

    a = fit("ccc", [0.1, 10.0])
    b = fit(make_scorer(concordance_correlation_coefficient), [1.0, 100.0])
    # before: "compare() needs every result scored with the same metric"
    result = compare({"a": a, "b": b})
    table = result.to_frame()
    assert len(table) == 1
    # the reference: the two results' own outer scores
    row = table.iloc[0]
    assert row["mean_a"] == pytest.approx(np.mean(a.outer_scores_))
    assert row["mean_b"] == pytest.approx(np.mean(b.outer_scores_))
    assert row["mean_difference"] == pytest.approx(row["mean_a"] - row["mean_b"])


@pytest.mark.parametrize(
    "scorer, key, expected",
    [
        (
            make_kappa_scorer(weights="quadratic", labels=[0, 1, 2]),
            "kappa",
            "Cohen's kappa (quadratic weights, labels=[0, 1, 2])",
        ),
        (
            make_ppv_scorer(prevalence=0.05, pos_label="ill"),
            "ppv",
            "PPV (pos_label='ill', prevalence=0.05)",
        ),
        ("f1_macro", "f1", "F1 (macro average)"),
        (get_scorer("kappa"), "kappa", "Cohen's kappa"),
        ("neg_root_mean_squared_error", "neg_root_mean_squared_error", "RMSE"),
        # a key that names another metric: the scorer's, with the key (was "accuracy")
        ("balanced_accuracy", "accuracy", "balanced accuracy (under the key 'accuracy')"),
    ],
)
def test_a_key_named_after_a_scorer_keeps_its_scorers_parameters(scorer, key, expected):
    # before: "Cohen's kappa" and "PPV", the names of the scorers "kappa" and "ppv"
    assert metric_display_name(scorer, name=key).name == expected
