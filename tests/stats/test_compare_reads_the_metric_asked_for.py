"""compare() compares the metric its ``scoring`` names, or refuses: never the results' own
metric under another name, and never a number that stands in for a failed fold."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, log_loss, make_scorer
from sklearn.model_selection import KFold, StratifiedKFold

from sklearn_fair import NestedCV, nested_cross_validate
from sklearn_fair.stats import compare

X, y = make_classification(n_samples=90, n_features=4, random_state=0)


def fitted(estimator, grid, scoring=None):
    return NestedCV(estimator, grid, outer_cv=3, inner_cv=2, n_refits=1, scoring=scoring,
                    random_state=0).fit(X, y)  # fmt: skip


@pytest.mark.parametrize("scoring", [None, "accuracy"])
def test_a_metric_the_results_were_not_scored_with_is_refused(scoring):
    a = fitted(LogisticRegression(), {"C": [0.1, 1.0]}, scoring)
    b = fitted(DummyClassifier(), {"strategy": ["prior"]}, scoring)
    for asked in ("roc_auc", "neg_log_loss"):
        with pytest.raises(ValueError, match=f"'scoring' parameter is '{asked}'.*holds no scores"):
            compare({"a": a, "b": b}, scoring=asked)
    # the metric they were scored with is compared: the means of their outer scores
    table = compare({"a": a, "b": b}, scoring=scoring).to_frame()
    assert table["mean_a"][0] == pytest.approx(np.mean(a.outer_scores_))
    assert table["mean_b"][0] == pytest.approx(np.mean(b.outer_scores_))


@pytest.mark.parametrize("scoring", [None, make_scorer(accuracy_score)])
def test_the_metric_the_results_were_scored_with_is_compared_by_its_name(scoring):
    # a classifier's default score and a scorer of accuracy_score are accuracy
    a = fitted(LogisticRegression(), {"C": [0.1, 1.0]}, scoring)
    b = fitted(DummyClassifier(), {"strategy": ["prior"]}, scoring)
    table = compare({"a": a, "b": b}, scoring="accuracy").to_frame()
    assert table["mean_a"][0] == pytest.approx(np.mean(a.outer_scores_))


def test_dicts_name_the_folds_scored_error_score_and_compare_refuses_them():
    order = np.argsort(y, kind="stable")  # two of three test folds hold one class
    X_sorted, y_sorted = X[order], y[order]
    outer = KFold(3)
    kwargs = dict(
        cv=outer, inner_cv=StratifiedKFold(3, shuffle=True, random_state=0),
        scoring={"acc": "accuracy", "ll": "neg_log_loss"}, refit="acc", n_refits=1,
        return_indices=True, error_score=-1.0,
    )  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = nested_cross_validate(LogisticRegression(), X_sorted, y_sorted,
                                  param_grid={"C": [0.01, 1.0]}, **kwargs)  # fmt: skip
        b = nested_cross_validate(DummyClassifier(), X_sorted, y_sorted, **kwargs)
    # scikit-learn's log_loss cannot score a test fold of one class without its labels
    one_class = [
        i
        for i, (_, test) in enumerate(outer.split(X_sorted))
        if np.unique(y_sorted[test]).size == 1
    ]
    assert one_class == [0, 2]
    with pytest.raises(ValueError):
        log_loss(y_sorted[:30], np.full((30, 2), 0.5))
    assert a["failed_metrics"] == [["ll"], [], ["ll"]]
    assert a["test_ll"][0] == -1.0
    with pytest.raises(ValueError, match=r"no test score on outer fold\(s\) 0, 2"):
        compare({"lr": a, "dummy": b}, scoring="ll")
    # the metric every fold has is compared
    assert compare({"lr": a, "dummy": b}, scoring="acc").to_frame()["mean_a"][0] == (
        pytest.approx(np.mean(a["test_acc"]))
    )


def test_dicts_without_a_failure_keep_cross_validates_keys():
    result = nested_cross_validate(LogisticRegression(), X, y, param_grid={"C": [0.1, 1.0]},
                                   cv=3, inner_cv=2, n_refits=1)  # fmt: skip
    assert "failed_metrics" not in result
