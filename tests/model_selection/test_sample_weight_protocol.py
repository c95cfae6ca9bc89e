"""sample_weight through the protocol: the weighted validation scores of the inner selection
are not compared with unweighted outer test scores, and early stopping on the protocol's
validation rows weighs them as the fit weighs its training rows."""

import warnings

import numpy as np
import pytest
import sklearn
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, make_scorer
from sklearn.model_selection import KFold
from threadpoolctl import threadpool_limits

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import UnweightedValidationWarning
from sklearn_fair.model_selection import nested_cross_validate


@pytest.fixture(autouse=True)
def _one_blas_thread():
    with threadpool_limits(limits=1):
        yield


# -- the optimism of a selection scored with the weights, tested without them -------------------

X, y = make_classification(300, 5, random_state=0, flip_y=0.2, weights=[0.8])
WEIGHTS = np.where(y == 1, 4.0, 0.25)
GRID = {"C": [0.01, 0.1, 1.0]}
OUTER, INNER = KFold(5), KFold(3)


def _nested(scoring="accuracy", estimator=None):
    estimator = LogisticRegression() if estimator is None else estimator
    return NestedCV(
        estimator, GRID, scoring=scoring, inner_cv=INNER, outer_cv=OUTER, n_refits=1,
        random_state=0,
    )  # fmt: skip


def _by_hand(selected, weighted_test):
    """Each fold's mean weighted validation accuracy of its selected C, and its test accuracy
    (weighted or not), by scikit-learn's own functions."""
    validation, test = [], []
    for (train, held_out), params in zip(OUTER.split(X), selected):
        scores = []
        for inner_train, inner_val in INNER.split(train):
            fit, val = train[inner_train], train[inner_val]
            model = LogisticRegression(**params).fit(X[fit], y[fit], sample_weight=WEIGHTS[fit])
            scores.append(accuracy_score(y[val], model.predict(X[val]), sample_weight=WEIGHTS[val]))
        validation.append(np.mean(scores))
        model = LogisticRegression(**params).fit(X[train], y[train], sample_weight=WEIGHTS[train])
        weights = WEIGHTS[held_out] if weighted_test else None
        test.append(accuracy_score(y[held_out], model.predict(X[held_out]), sample_weight=weights))
    return np.array(validation), np.array(test)


def test_weighted_validation_is_not_subtracted_from_unweighted_test_scores():
    nested = _nested().fit(X, y, sample_weight=WEIGHTS)
    validation, test = _by_hand(nested.best_params_per_fold_, weighted_test=False)
    # what is reported is as documented: weighted selection, unweighted outer test folds
    np.testing.assert_allclose(nested.validation_scores_, validation)
    np.testing.assert_allclose(nested.outer_scores_, test)
    assert validation.mean() - test.mean() > 0.3  # the difference was reported as optimism
    assert nested.validation_comparable_ is False
    assert np.isnan(nested.optimism_)
    assert nested.selection_metric_.name == "accuracy weighted by sample_weight"
    assert nested.metrics_["score"].name == "accuracy"


def test_routed_weights_on_both_scores_keep_the_optimism():
    with sklearn.config_context(enable_metadata_routing=True):
        scorer = make_scorer(accuracy_score).set_score_request(sample_weight=True)
        estimator = LogisticRegression().set_fit_request(sample_weight=True)
        nested = _nested(scorer, estimator).fit(X, y, sample_weight=WEIGHTS)
    validation, test = _by_hand(nested.best_params_per_fold_, weighted_test=True)
    np.testing.assert_allclose(nested.outer_scores_, test)
    assert nested.validation_comparable_ is True
    assert nested.optimism_ == pytest.approx(validation.mean() - test.mean())


def test_a_selection_scorer_that_cannot_take_the_weights_keeps_the_optimism():
    def unweighted(estimator, X, y):
        return accuracy_score(y, estimator.predict(X))

    with pytest.warns(UserWarning, match="does not take sample_weight"):
        nested = _nested(unweighted).fit(X, y, sample_weight=WEIGHTS)
    assert nested.validation_comparable_ is True
    expected = np.mean(nested.validation_scores_) - np.mean(nested.outer_scores_)
    assert nested.optimism_ == pytest.approx(expected)


def test_the_report_prints_no_optimism_for_weighted_validation_scores():
    from sklearn_fair.report import nested_cv_report

    nested = _nested().fit(X, y, sample_weight=WEIGHTS)
    text = str(nested_cv_report({"logreg": nested}))
    wrong = f"{np.mean(nested.validation_scores_) - np.mean(nested.outer_scores_):+.3f}"
    assert wrong not in text
    assert "accuracy weighted by sample_weight" in text


# -- early stopping on the protocol's validation rows -------------------------------------------

X_es, y_es = make_classification(400, 8, random_state=0, flip_y=0.15)
W_es = np.where(y_es == 1, 5.0, 0.2) * np.random.RandomState(0).uniform(0.5, 1.5, len(y_es))
ROW = {X_es[i].tobytes(): i for i in range(len(X_es))}
HGB_PARAMS = dict(early_stopping=True, n_iter_no_change=5, max_iter=300, random_state=0)


def _rows(X_part):
    return np.array([ROW[np.asarray(row).tobytes()] for row in X_part])


class RecordingHGB(HistGradientBoostingClassifier):
    """Records, for each fit, its training and validation rows and the validation weights."""

    def fit(self, X, y, sample_weight=None, *, X_val=None, y_val=None, sample_weight_val=None):
        self.train_rows_ = _rows(X)
        self.val_rows_ = None if X_val is None else _rows(X_val)
        self.sample_weight_val_ = sample_weight_val
        return super().fit(
            X, y, sample_weight=sample_weight, X_val=X_val, y_val=y_val,
            sample_weight_val=sample_weight_val,
        )  # fmt: skip


def _check_weighted_early_stopping(models):
    for model in models:
        assert model.val_rows_ is not None  # the protocol's early stopping split
        np.testing.assert_array_equal(model.sample_weight_val_, W_es[model.val_rows_])
        train, val = model.train_rows_, model.val_rows_
        by_hand = HistGradientBoostingClassifier(**model.get_params()).fit(
            X_es[train], y_es[train], sample_weight=W_es[train],
            X_val=X_es[val], y_val=y_es[val], sample_weight_val=W_es[val],
        )  # fmt: skip
        assert model.n_iter_ == by_hand.n_iter_


def test_early_stopping_on_the_protocols_rows_weighs_them():
    result = nested_cross_validate(
        RecordingHGB(**HGB_PARAMS), X_es, y_es, param_grid={"learning_rate": [0.1, 0.3]},
        inner_cv=KFold(2), cv=KFold(3), params={"sample_weight": W_es}, n_refits=1,
        random_state=0, return_estimator=True,
    )  # fmt: skip
    _check_weighted_early_stopping(result["estimator"])


def test_early_stopping_under_routing_weighs_the_rows_where_requested():
    with sklearn.config_context(enable_metadata_routing=True):
        estimator = (
            RecordingHGB(**HGB_PARAMS)
            .set_fit_request(sample_weight=True, X_val=True, y_val=True, sample_weight_val=True)
            .set_score_request(sample_weight=False)
        )
        nested = NestedCV(
            estimator, {"learning_rate": [0.1, 0.3]}, inner_cv=KFold(2), outer_cv=KFold(3),
            n_refits=1, random_state=0,
        ).fit(X_es, y_es, sample_weight=W_es)  # fmt: skip
    _check_weighted_early_stopping([nested.best_estimator_])


def test_early_stopping_under_routing_without_the_request_warns():
    with sklearn.config_context(enable_metadata_routing=True):
        estimator = (
            RecordingHGB(**HGB_PARAMS)
            .set_fit_request(sample_weight=True, X_val=True, y_val=True)
            .set_score_request(sample_weight=False)
        )
        with pytest.warns(UnweightedValidationWarning, match="sample_weight_val"):
            nested = NestedCV(
                estimator, {"learning_rate": [0.1]}, inner_cv=KFold(2), outer_cv=KFold(2),
                n_refits=1, random_state=0,
            ).fit(X_es, y_es, sample_weight=W_es)  # fmt: skip
    assert nested.best_estimator_.sample_weight_val_ is None


class StopsEarlyUnweighted(ClassifierMixin, BaseEstimator):
    """Early-stops on X_val/y_val, and has no sample_weight_val."""

    def __init__(self, c=1):
        self.c = c

    def fit(self, X, y, sample_weight=None, X_val=None, y_val=None):
        self.classes_ = np.unique(y)
        self.majority_ = self.classes_[np.argmax(np.bincount(y, weights=sample_weight))]
        return self

    def predict(self, X):
        return np.full(len(X), self.majority_)


def test_early_stopping_that_cannot_weigh_the_validation_rows_warns():
    nested = NestedCV(StopsEarlyUnweighted(), {"c": [1, 2]}, outer_cv=2, inner_cv=2, n_refits=1)
    with pytest.warns(UnweightedValidationWarning, match="sample_weight_val") as record:
        nested.fit(X, y, sample_weight=WEIGHTS)
    assert len([w for w in record if "sample_weight_val" in str(w.message)]) == 1  # once
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        nested.fit(X, y)  # no weights: nothing to warn about
    assert not [w for w in record if "sample_weight_val" in str(w.message)]


def test_the_users_sample_weight_val_is_not_replaced_by_the_protocols():
    with pytest.raises(ValueError, match="would replace the sample_weight_val"):
        nested_cross_validate(
            HistGradientBoostingClassifier(**HGB_PARAMS), X_es, y_es,
            param_grid={"learning_rate": [0.1]}, inner_cv=2, cv=2, n_refits=1,
            params={"sample_weight": W_es, "sample_weight_val": W_es[:10]},
        )  # fmt: skip
