"""The scorers of class 1 against the rest on two classes of which 1 is the lower ({1, 2}):
scikit-learn's binary scorers of scores read 2 as the positive class there, so a run scoring
"sensitivity" and "roc_auc" would report one class's sensitivity beside the other's AUC."""

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import get_scorer, recall_score

from sklearn_fair import NestedCV


def _data():
    X, y = make_classification(n_samples=90, weights=[0.7], random_state=0)
    return X, y


def test_sensitivity_on_labels_1_and_2_is_refused_with_the_way_out():
    X, y = _data()
    y12 = np.where(y == 1, 2, 1)  # 2 the rarer class
    # the two conventions disagree on these labels: roc_auc's positive class is 2
    model = LogisticRegression().fit(X, y12)
    assert get_scorer("roc_auc")(model, X, y12) > 0.5
    assert model.classes_[1] == 2
    for scoring, refit in (("sensitivity", True), ({"auc": "roc_auc", "s": "specificity"}, "auc")):
        search = NestedCV(LogisticRegression(), {"C": [1.0]}, scoring=scoring, refit=refit)
        with pytest.raises(ValueError, match=r"class 1 is the lower of the two") as caught:
            search.fit(X, y12)
        assert "y == 1" in str(caught.value)


def test_sensitivity_of_class_1_given_as_booleans_is_scored_as_recall_of_class_1():
    X, y = _data()
    y12 = np.where(y == 1, 2, 1)
    search = NestedCV(
        LogisticRegression(), {"C": [1.0]}, scoring="sensitivity", outer_cv=3, random_state=0
    ).fit(X, y12 == 1)
    by_hand = [
        recall_score(
            y12[test] == 1, LogisticRegression().fit(X[train], y12[train] == 1).predict(X[test])
        )
        for train, test in search.outer_cv_.split(X, y12 == 1)
    ]
    np.testing.assert_allclose(search.outer_scores_, by_hand)


@pytest.mark.parametrize("labels", [(0, 1), (-1, 1)])
def test_labels_whose_higher_class_is_1_are_taken(labels):
    X, y = _data()
    coded = np.where(y == 1, labels[1], labels[0])
    search = NestedCV(
        LogisticRegression(), {"C": [1.0]}, scoring="sensitivity", outer_cv=3, random_state=0
    ).fit(X, coded)
    assert np.isfinite(search.outer_scores_).all()
