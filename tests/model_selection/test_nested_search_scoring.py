"""A search given to the drop-ins selects with its own scoring and refit, as in scikit-learn;
the function's ``scoring`` scores the outer test folds only (issue 33.3). Checked against
scikit-learn's idiom, ``cross_val_score(GridSearchCV(...), scoring=...)`` and ``cross_validate``,
on the same outer splits."""

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    GridSearchCV,
    KFold,
    StratifiedKFold,
    cross_val_score,
    cross_validate,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_fair import NestedCV, nested_cross_val_score, nested_cross_validate

X, y = make_classification(
    n_samples=150, n_features=8, n_informative=3, flip_y=0.15, random_state=3
)
OUTER = StratifiedKFold(4, shuffle=True, random_state=0)
PIPE = make_pipeline(StandardScaler(), LogisticRegression(solver="liblinear"))
GRID = {"logisticregression__C": [0.003, 0.03, 1.0, 100.0]}
SEARCH_SCORINGS = {
    "none": (None, True),
    "roc_auc": ("roc_auc", True),
    "multi": ({"auc": "roc_auc", "bacc": "balanced_accuracy"}, "bacc"),
}


def _search(name):
    scoring, refit = SEARCH_SCORINGS[name]
    return GridSearchCV(PIPE, GRID, cv=KFold(3), scoring=scoring, refit=refit)


@pytest.mark.parametrize("search", list(SEARCH_SCORINGS))
@pytest.mark.parametrize("scoring", ["neg_log_loss", "balanced_accuracy", None])
def test_nested_cross_val_score_equals_the_idiom(search, scoring):
    expected = cross_val_score(_search(search), X, y, cv=OUTER, scoring=scoring)
    got = nested_cross_val_score(_search(search), X, y, cv=OUTER, scoring=scoring, n_refits=1)
    np.testing.assert_allclose(got, expected, rtol=1e-12)


@pytest.mark.parametrize("search", list(SEARCH_SCORINGS))
def test_nested_cross_validate_multimetric_equals_the_idiom(search):
    scoring = ["neg_log_loss", "balanced_accuracy"]
    expected = cross_validate(_search(search), X, y, cv=OUTER, scoring=scoring,
                              return_estimator=True)  # fmt: skip
    got = nested_cross_validate(_search(search), X, y, cv=OUTER, scoring=scoring, n_refits=1,
                                return_nested_info=True)  # fmt: skip
    for key in ("test_neg_log_loss", "test_balanced_accuracy"):
        np.testing.assert_allclose(got[key], expected[key], rtol=1e-12)
    # the winners and their validation scores: the searches' own, in the search's metric
    searches = expected["estimator"]
    assert [dict(p) for p in got["best_params"]] == [s.best_params_ for s in searches]
    validation = got["validation_bacc" if search == "multi" else "validation_score"]
    np.testing.assert_allclose(validation, [s.best_score_ for s in searches], rtol=1e-12)


def test_a_multimetric_search_without_scoring_is_scored_by_its_refit_metric():
    # scikit-learn: cross_validate(search) scores with search.score, its refit metric
    expected = cross_validate(_search("multi"), X, y, cv=OUTER)
    got = nested_cross_validate(_search("multi"), X, y, cv=OUTER, n_refits=1)
    assert sorted(k for k in got if k.startswith("test_")) == ["test_score"]
    np.testing.assert_allclose(got["test_score"], expected["test_score"], rtol=1e-12)


def _simplest_within_a_point(results):
    # a rule of the user's: the smallest C whose mean is within 0.01 of the best
    means = results["mean_test_score"]
    return int(np.flatnonzero(means >= means.max() - 0.01)[0])


def test_a_search_with_a_callable_refit_equals_the_idiom():
    # GridSearchCV sets no best_score_ with a callable refit; the search is run whole and its
    # validation score is its winner's mean, as scikit-learn's cv_results_ has it
    search = GridSearchCV(PIPE, GRID, cv=KFold(3), refit=_simplest_within_a_point)
    expected = cross_validate(search, X, y, cv=OUTER, scoring="neg_log_loss",
                              return_estimator=True)  # fmt: skip
    got = nested_cross_validate(search, X, y, cv=OUTER, scoring="neg_log_loss", n_refits=1,
                                return_nested_info=True)  # fmt: skip
    np.testing.assert_allclose(got["test_score"], expected["test_score"], rtol=1e-12)
    searches = expected["estimator"]
    assert [dict(p) for p in got["best_params"]] == [s.best_params_ for s in searches]
    winners = [s.cv_results_["mean_test_score"][s.best_index_] for s in searches]
    np.testing.assert_allclose(got["validation_score"], winners, rtol=1e-12)


def test_the_search_scoring_is_what_selects_and_says_so():
    expected = cross_validate(_search("roc_auc"), X, y, cv=OUTER, scoring="neg_log_loss",
                              return_estimator=True)  # fmt: skip
    nested = NestedCV(_search("roc_auc"), outer_cv=OUTER, scoring="neg_log_loss", n_refits=1,
                      refit=False).fit(X, y)  # fmt: skip
    np.testing.assert_allclose(nested.outer_scores_, expected["test_score"], rtol=1e-12)
    searches = expected["estimator"]
    np.testing.assert_allclose(nested.validation_scores_, [s.best_score_ for s in searches])
    assert str(nested.selection_metric_) == "ROC AUC"
    assert str(nested.metrics_["score"]) == "log loss"
    # validation ROC AUC minus test log loss would be a meaningless number
    assert np.isnan(nested.optimism_)
    # the inner validation scores, as GridSearchCV's cv_results_ names them
    first = nested.cv_results_["outer_fold"] == 0
    np.testing.assert_allclose(
        nested.cv_results_["mean_test_score"][first], searches[0].cv_results_["mean_test_score"]
    )


def test_score_uses_the_outer_metric_not_the_searchs_own():
    from sklearn.metrics import log_loss

    nested = NestedCV(_search("roc_auc"), outer_cv=OUTER, scoring="neg_log_loss", n_refits=1,
                      random_state=0).fit(X, y)  # fmt: skip
    expected = -log_loss(y, nested.best_estimator_.predict_proba(X))
    assert nested.score(X, y) == pytest.approx(expected, rel=1e-12)


def test_same_scoring_inside_and_outside_scores_each_fit_once():
    # the search's scorer and the function's are one: each fit is scored once with it, and
    # optimism compares validation and test scores of that metric
    calls = []

    def accuracy(estimator, X_test, y_test):
        calls.append(len(y_test))
        return float(np.mean(estimator.predict(X_test) == y_test))

    search = GridSearchCV(PIPE, GRID, cv=KFold(3), scoring=accuracy)
    nested = NestedCV(search, outer_cv=OUTER, scoring=accuracy, n_refits=1, refit=False)
    nested.fit(X, y)
    assert len(calls) == 4 * len(GRID["logisticregression__C"]) * 3 + 4  # inner fits, refits
    assert sum(calls) == 4 * len(GRID["logisticregression__C"]) * len(y) * 3 // 4 + len(y)
    expected = np.mean(nested.validation_scores_) - np.mean(nested.outer_scores_)
    assert nested.optimism_ == pytest.approx(expected)
    assert str(nested.selection_metric_) == str(nested.metrics_["score"])


def test_a_run_that_selects_with_other_metrics_is_served_from_its_cache(tmp_path):
    import warnings

    def run():
        nested = NestedCV(_search("roc_auc"), outer_cv=OUTER, scoring="neg_log_loss",
                          n_refits=1, refit=False, random_state=0, cache_dir=tmp_path)  # fmt: skip
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no entry rejected, nothing else to say
            return nested.fit(X, y)

    first, second = run(), run()
    assert first.cache_info_["hits"] == 0
    assert second.cache_info_ == {"hits": first.cache_info_["computed"], "computed": 0}
    np.testing.assert_array_equal(second.outer_scores_, first.outer_scores_)
    np.testing.assert_array_equal(second.validation_scores_, first.validation_scores_)


class _CountingRows(LogisticRegression):
    """Records the number of rows of each fit (in this process: n_jobs=1)."""

    fitted_rows = []

    def fit(self, X, y, sample_weight=None):
        type(self).fitted_rows.append(len(X))
        return super().fit(X, y, sample_weight=sample_weight)


def test_a_search_run_whole_does_not_refit_a_model_that_is_thrown_away():
    from sklearn.experimental import enable_halving_search_cv  # noqa: F401
    from sklearn.model_selection import HalvingGridSearchCV

    search = HalvingGridSearchCV(
        _CountingRows(solver="liblinear"), {"C": [0.01, 0.1, 1.0, 10.0]}, cv=KFold(3),
        random_state=0,
    )  # fmt: skip
    _CountingRows.fitted_rows = []
    expected = cross_validate(search, X, y, cv=OUTER, return_estimator=True)
    n_train = [len(X) - len(test) for _, test in OUTER.split(X, y)]
    # scikit-learn's idiom: each fold's search refits its winner on the fold's training rows
    assert sorted(r for r in _CountingRows.fitted_rows if r in n_train) == sorted(n_train)
    _CountingRows.fitted_rows = []
    got = nested_cross_validate(search, X, y, cv=OUTER, n_refits=1, return_nested_info=True)
    # NestedCV refits the winner itself, once a fold: the search's own refit is left out
    assert sorted(r for r in _CountingRows.fitted_rows if r in n_train) == sorted(n_train)
    np.testing.assert_allclose(got["test_score"], expected["test_score"], rtol=1e-12)
    assert [dict(p) for p in got["best_params"]] == [s.best_params_ for s in expected["estimator"]]
