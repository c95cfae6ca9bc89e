"""scikit-learn's scorers of one positive class (``pos_label=1``: "f1", "precision",
"recall", "average_precision", "jaccard") on text labels: every fit's score would fail, so
the run refuses them before any fit, as it refuses "ppv" and "sensitivity"."""

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import get_scorer

from sklearn_fair import nested_cross_validate

X, Y = make_classification(n_samples=90, random_state=0)
WORDS = np.where(Y == 1, "yes", "no")


class Counting(LogisticRegression):
    fits = 0

    def fit(self, X, y, **params):
        type(self).fits += 1
        return super().fit(X, y, **params)


@pytest.mark.parametrize("name", ["f1", "precision", "recall", "average_precision", "jaccard"])
def test_a_scorer_of_class_1_on_text_labels_is_refused_before_any_fit(name):
    # the fact behind the refusal: scikit-learn's scorer fails on these labels
    with pytest.raises(ValueError, match="pos_label=1 is not a valid label"):
        get_scorer(name)(LogisticRegression().fit(X, WORDS), X, WORDS)
    Counting.fits = 0
    # before: every fold was fitted, then "All the 3 outer folds failed"
    with pytest.raises(ValueError, match=rf"names '{name}'.*pos_label=1.*'balanced_accuracy'"):
        nested_cross_validate(Counting(), X, WORDS, param_grid={"C": [0.1, 1.0]}, cv=3,
                              inner_cv=2, scoring=name, random_state=0)  # fmt: skip
    assert Counting.fits == 0


def test_the_same_scorers_on_labels_holding_class_1_are_taken():
    result = nested_cross_validate(LogisticRegression(), X, Y, param_grid={"C": [0.1, 1.0]},
                                   cv=3, inner_cv=2, scoring="f1", random_state=0)  # fmt: skip
    assert np.isfinite(result["test_score"]).all()
