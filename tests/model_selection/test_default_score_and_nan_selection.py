"""Nested CV whose scorer returns NaN for every candidate, and summaries of scores
whose range is not the one their printed name suggests."""

import re
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegressionCV
from sklearn.metrics import balanced_accuracy_score, cohen_kappa_score, make_scorer
from sklearn.model_selection import GridSearchCV, KFold, cross_validate
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV, nested_cross_validate
from sklearn_fair.metrics import get_scorer


class OneClassInner:
    """One inner split whose validation rows are all of class 0."""

    def split(self, X, y=None, groups=None):
        y = np.asarray(y)
        rows = np.arange(len(y))
        majority = rows[y == 0]
        validation = majority[: len(majority) // 3]
        yield np.setdiff1d(rows, validation), validation

    def get_n_splits(self, X=None, y=None, groups=None):
        return 1


def _one_class_data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    y = np.array([0] * 45 + [1] * 15)
    rng.shuffle(y)
    return X, y


GRID = {"strategy": ["most_frequent", "prior"]}
OUTER = KFold(3, shuffle=True, random_state=0)


def test_every_candidate_scored_nan_says_the_scorer_returned_nan():
    X, y = _one_class_data()
    # the reference: GridSearchCV's every mean validation kappa is NaN (kappa is undefined
    # on one class), so it takes candidate 0 with all ranks tied
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference = cross_validate(
            GridSearchCV(DummyClassifier(), GRID, cv=OneClassInner(), scoring=get_scorer("kappa")),
            X,
            y,
            cv=OUTER,
            return_estimator=True,
        )
        kappas = [
            cohen_kappa_score(
                y[test], DummyClassifier(strategy=s).fit(X[train], y[train]).predict(X[test])
            )
            for train, test in OneClassInner().split(X, y)
            for s in GRID["strategy"]
        ]
    assert np.isnan(kappas).all()
    assert all(search.best_index_ == 0 for search in reference["estimator"])
    assert all(np.isnan(search.best_score_) for search in reference["estimator"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match="no hyper-parameters can be selected") as info:
            nested_cross_validate(
                DummyClassifier(), X, y, cv=OUTER, inner_cv=OneClassInner(), param_grid=GRID,
                scoring="kappa", n_refits=1,
            )  # fmt: skip
    message = " ".join(str(info.value).split())
    # true: no fit failed, the scorer returned NaN; names the metric, why, and what to do
    assert not re.search(r"\b0 of the \d+ fits failed", message)
    assert "fits failed" not in message and "no fit raised an error" in message
    assert "all the 2 inner fits succeeded, but the scorer (Cohen's kappa) returned NaN" in message
    assert "single class" in message and "class counts {0: 9}" in message
    assert "StratifiedKFold" in message


def test_the_error_score_docstring_says_where_it_differs_from_grid_search():
    text = " ".join(nested_cross_validate.__doc__.split())
    assert "no candidate's mean validation score is finite" in text
    assert "differs from ``cross_validate(GridSearchCV(...))``" in text


def test_summary_of_a_classifier_whose_score_is_its_own_scoring():
    X, y = make_classification(n_samples=120, random_state=0)
    estimator = LogisticRegressionCV(Cs=[0.1, 1.0], cv=3, scoring="neg_log_loss", max_iter=500)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference = cross_validate(estimator, X, y, cv=3)["test_score"]
        nested = NestedCV(estimator, outer_cv=3, n_refits=1, random_state=0).fit(X, y)
    np.testing.assert_allclose(nested.outer_scores_, reference)
    assert (reference < 0).all()
    assert nested.metrics_["score"].name == "score"
    assert "mean" in str(nested.summary())


def test_summary_of_adjusted_balanced_accuracy_below_zero():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(80, 3)), rng.integers(0, 2, 80)  # noise: scores around 0
    scorer = make_scorer(balanced_accuracy_score, adjusted=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nested = NestedCV(
            DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2]}, outer_cv=5,
            inner_cv=3, scoring=scorer, n_refits=1, random_state=0,
        ).fit(X, y)  # fmt: skip
    assert (nested.outer_scores_ < 0).any()
    assert str(nested.metrics_["score"]) == "balanced accuracy (adjusted=True)"
    summary = nested.summary()
    assert summary.mean == pytest.approx(np.mean(nested.outer_scores_))
    assert summary.ci_low < 0
