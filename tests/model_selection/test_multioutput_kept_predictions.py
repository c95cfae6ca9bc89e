"""Kept predictions of multi-output classifiers (keep_predictions=True): they are kept label by
label, whatever each label's number of classes, and keeping them never fails a refit or
changes a score. Also: a selection that fails because the scorer raised says the scorer's
error, not a failed fit."""

import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import average_precision_score, make_scorer
from sklearn.model_selection import GridSearchCV, KFold, cross_val_predict, cross_validate
from sklearn.neighbors import KNeighborsClassifier

from sklearn_fair import NestedCV, benchmark, nested_cross_val_score

OUTER = KFold(3)


def _subset_accuracy(y_true, y_pred):
    return float(np.mean(np.all(np.asarray(y_true) == np.asarray(y_pred), axis=1)))


@pytest.fixture(scope="module")
def rare_label():
    """A multilabel target whose rare label 1 has all its positives in outer test fold 0, so
    that fold's model learns a single class for label 1."""
    rng = np.random.RandomState(0)
    X = rng.randn(90, 4)
    Y = np.column_stack([rng.rand(90) < 0.5, np.zeros(90, bool)]).astype(int)
    Y[:3, 1] = 1
    return X, Y


@pytest.fixture(scope="module")
def two_columns():
    """A 3-class and a 2-class column (multiclass-multioutput)."""
    rng = np.random.RandomState(1)
    first = rng.randint(0, 3, 90)
    X = rng.randn(90, 4)
    X[:, 0] += first
    return X, np.column_stack([first, (rng.rand(90) < 0.5).astype(int)])


def test_a_label_of_one_class_keeps_its_fold_and_its_probabilities(rare_label):
    X, Y = rare_label
    forest, grid = RandomForestClassifier(n_estimators=5, random_state=0), {"max_depth": [2, 3]}
    search = GridSearchCV(forest, grid, cv=3)
    expected = cross_validate(search, X, Y, cv=OUTER)["test_score"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nested = NestedCV(
            forest, grid, outer_cv=OUTER, inner_cv=3, n_refits=1, random_state=0,
            keep_predictions=True,
        ).fit(X, Y)  # fmt: skip
    np.testing.assert_allclose(nested.outer_scores_, expected)
    assert nested.failed_tasks_ == []
    # fold 0's kept probabilities are, label by label, the tuned model's on its test rows
    train, test = next(OUTER.split(X))
    model = search.fit(X[train], Y[train])
    kept = nested.outer_results_[0]["predictions"]
    assert kept["classes"] == [[0, 1], [0]]
    (proba,) = kept["proba"]  # one refit's: one array a label
    for label, own in zip(proba, model.predict_proba(X[test])):
        np.testing.assert_allclose(label, own)
    np.testing.assert_array_equal(kept["predict"][0], model.predict(X[test]))


def test_labels_of_different_numbers_of_classes_are_kept(two_columns):
    X, Y = two_columns
    scorer = make_scorer(_subset_accuracy)
    grid = {"n_neighbors": [3, 5]}
    search = GridSearchCV(KNeighborsClassifier(), grid, cv=3, scoring=scorer)
    expected = cross_validate(search, X, Y, cv=OUTER, scoring=scorer)["test_score"]
    nested = NestedCV(
        KNeighborsClassifier(), grid, outer_cv=OUTER, inner_cv=3, scoring=scorer,
        keep_predictions=True,
    ).fit(X, Y)  # fmt: skip
    np.testing.assert_allclose(nested.outer_scores_, expected)
    assert nested.outer_results_[0]["predictions"]["classes"] == [[0, 1, 2], [0, 1]]
    # the benchmark's table reads them: scikit-learn's out-of-fold predictions
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = benchmark(
            {"knn": (KNeighborsClassifier(), grid)}, {"d": (X, Y)}, outer_cv=OUTER,
            inner_cv=3, scoring=scorer, keep_predictions=True, random_state=0,
        )  # fmt: skip
    table = result.predictions.sort_values("row")
    np.testing.assert_array_equal(
        np.array(table["y_pred"].tolist()), cross_val_predict(search, X, Y, cv=OUTER)
    )


class _NoPredict(LogisticRegression):
    """A classifier whose predict fails, scored on its probabilities alone."""

    def predict(self, X):
        raise RuntimeError("this model has no predict")


def test_predictions_that_cannot_be_kept_change_no_score():
    rng = np.random.RandomState(0)
    X = rng.randn(90, 3)
    y = (X[:, 0] + rng.randn(90) > 0).astype(int)
    grid = {"C": [0.1, 1.0]}
    search = GridSearchCV(_NoPredict(), grid, cv=3, scoring="neg_log_loss")
    expected = cross_validate(search, X, y, cv=OUTER, scoring="neg_log_loss")["test_score"]
    with pytest.warns(UserWarning, match="this model has no predict.*its scores stand"):
        nested = NestedCV(
            _NoPredict(), grid, outer_cv=OUTER, inner_cv=3, scoring="neg_log_loss",
            keep_predictions=True,
        ).fit(X, y)  # fmt: skip
    np.testing.assert_allclose(nested.outer_scores_, expected)
    assert all(fold["predictions"] is None for fold in nested.outer_results_)


def test_a_scorer_that_raises_on_every_inner_fit_is_named_with_its_error():
    rng = np.random.RandomState(0)
    X = rng.randn(80, 4)
    b = (rng.rand(80) < 0.4).astype(int)
    X[:, 0] += 1.5 * b
    y = np.array(["neg", "pos"])[b]
    # a scorer object of the user's (the name "average_precision" is refused before any fit on
    # these labels): scikit-learn's own error for it on string labels
    scorer = make_scorer(average_precision_score, response_method="predict_proba")
    with pytest.raises(ValueError, match="pos_label=1 is not a valid label") as sklearn_error:
        cross_validate(LogisticRegression(), X, y, cv=4, scoring=scorer,
                       error_score="raise")  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match="All the 4 outer folds failed") as raised:
            nested_cross_val_score(
                LogisticRegression(), X, y, cv=4, param_grid={"C": [0.1, 1]}, inner_cv=3,
                scoring=scorer,
            )  # fmt: skip
    message = str(raised.value)
    assert "No fit failed: the scorer raised" in message
    assert "The scorer's first error was:\n" in message
    assert str(sklearn_error.value) in message
    assert "See why the fits failed" not in message


def test_a_refit_whose_predictions_could_not_be_kept_is_not_cached_to_be_refused(tmp_path):
    # it was written without its predictions, then refused by every later run as a suspect
    # entry ("A cache is a file from elsewhere: ... audit it"), and recomputed each time
    from sklearn_fair.exceptions import CacheWarning

    class NoPredict(ClassifierMixin, BaseEstimator):  # scored on probabilities
        def __init__(self, C=1.0):
            self.C = C

        def fit(self, X, y):
            self.model_ = LogisticRegression(C=self.C).fit(X, y)
            self.classes_ = self.model_.classes_
            return self

        def predict_proba(self, X):
            return self.model_.predict_proba(X)

        def predict(self, X):
            raise RuntimeError("no predict here")

    X, y = make_classification(90, 4, random_state=0)
    for run in range(2):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            nested = NestedCV(
                NoPredict(), {"C": [0.1, 1.0]}, outer_cv=3, inner_cv=3, n_refits=1,
                scoring="neg_log_loss", keep_predictions=True, random_state=0, refit=False,
                cache_dir=tmp_path,
            ).fit(X, y)  # fmt: skip
        assert not [w for w in caught if issubclass(w.category, CacheWarning)], run
    assert nested.cache_info_["computed"] == 3  # the 3 refits: not stored, so computed again
