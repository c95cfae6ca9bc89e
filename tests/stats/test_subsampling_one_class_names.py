"""paired_subsampling_scores refuses, as NestedCV does, a scorer name that scores class 1
against the rest ("sensitivity", "specificity", "ppv", "npv") on a y where that is not the
metric of all classes. Before, "sensitivity" on a 3-class y returned class 1's rate."""

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import make_scorer, recall_score

from sklearn_fair.metrics import make_sensitivity_scorer
from sklearn_fair.stats import paired_subsampling_scores

X, Y = make_classification(n_samples=150, n_classes=3, n_informative=4, random_state=0)
KW = dict(n_splits=2, n_pairs=1, random_state=0)


@pytest.mark.parametrize("scoring", ["sensitivity", "specificity", "ppv", "npv"])
def test_one_class_names_are_refused_on_a_multiclass_y(scoring):
    with pytest.raises(
        ValueError,
        match=f"'scoring' parameter of paired_subsampling_scores names '{scoring}'.*"
        r"3 classes \(0, 1, 2\)",
    ):
        paired_subsampling_scores(LogisticRegression(max_iter=500), X, Y, scoring=scoring, **KW)


def test_a_binary_y_without_the_class_1_is_refused():
    labels = np.where(Y == 0, "a", "b")
    with pytest.raises(ValueError, match="class 1 is not one of them"):
        paired_subsampling_scores(LogisticRegression(), X, labels, scoring="sensitivity", **KW)


def test_one_class_against_the_rest_on_purpose_is_taken():
    # a scorer with pos_label given scores that class on purpose: scikit-learn's recall of it
    estimator = LogisticRegression(max_iter=500)
    ours = paired_subsampling_scores(
        estimator, X, Y, scoring=make_sensitivity_scorer(pos_label=2), **KW
    )
    reference = make_scorer(recall_score, labels=[2], average="macro")
    theirs = paired_subsampling_scores(estimator, X, Y, scoring=reference, **KW)
    np.testing.assert_allclose(ours.scores, theirs.scores)
    np.testing.assert_allclose(ours.half_scores, theirs.half_scores)


def test_sensitivity_of_a_binary_y_is_scikit_learns_recall():
    binary = (Y == 1).astype(int)
    ours = paired_subsampling_scores(LogisticRegression(), X, binary, scoring="sensitivity", **KW)
    theirs = paired_subsampling_scores(LogisticRegression(), X, binary, scoring="recall", **KW)
    np.testing.assert_allclose(ours.scores, theirs.scores)
