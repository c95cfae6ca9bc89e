"""A callable ``scoring`` that returns a dict of metrics and raises on one fit: that fit has
no score of any metric of the dict (``error_score`` for each), and every other fit keeps its
own, as scikit-learn's searches fill a failed fit's every metric with ``error_score``. A
nested_cross_val_score refuses a dict, as cross_val_score does.

Hunt DROP-1 (the failed fit's record under the callable's own name, ``score``, replaced the
dict's keys and emptied every fold) and DROP-3 (a dict with a ``score`` key was taken).
"""

import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, KFold, cross_val_score

from sklearn_fair import NestedCV, nested_cross_val_score, nested_cross_validate

X, y = make_classification(120, 5, random_state=0)
OUTER = KFold(3)  # test folds of 40 rows, starting at rows 0, 40 and 80
SEARCH = GridSearchCV(LogisticRegression(), {"C": [0.01, 1]}, cv=3)  # validation folds < 40


def _raising_on(first_row, n_rows=40, C=None):
    """A callable returning two metrics that raises on the ``n_rows`` rows starting with
    ``X[first_row]`` (with ``C``: only for the model of that C)."""

    def scorer(estimator, X_, y_):
        if len(X_) == n_rows and np.array_equal(X_[0], X[first_row]):
            if C is None or estimator.C == C:
                raise RuntimeError("the scorer failed here")
        return {"acc": float(np.mean(estimator.predict(X_) == y_)), "one": 1.0}

    return scorer


def _tuned_accuracy(train, test):
    """scikit-learn's own: the search fitted on ``train``, its accuracy on ``test``."""
    return clone(SEARCH).fit(X[train], y[train]).score(X[test], y[test])


@pytest.mark.parametrize("fold", [0, 1])
def test_a_failure_on_one_outer_test_fold_costs_only_that_fold(fold):
    splits = list(OUTER.split(X))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = nested_cross_validate(
            SEARCH, X, y, cv=OUTER, scoring=_raising_on(splits[fold][1][0]), n_refits=1
        )
    assert sorted(k for k in results if k.startswith("test_")) == ["test_acc", "test_one"]
    expected = [np.nan if k == fold else _tuned_accuracy(*splits[k]) for k in range(3)]
    np.testing.assert_allclose(results["test_acc"], expected)
    np.testing.assert_allclose(
        results["test_one"], [np.nan if k == fold else 1.0 for k in range(3)]
    )
    assert results["failed_metrics"] == [["acc", "one"] if k == fold else [] for k in range(3)]


def test_a_number_given_as_error_score_stands_for_every_metric_of_the_dict():
    splits = list(OUTER.split(X))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = nested_cross_validate(
            SEARCH, X, y, cv=OUTER, scoring=_raising_on(40), n_refits=1, error_score=-1
        )
    expected = [_tuned_accuracy(*splits[0]), -1.0, _tuned_accuracy(*splits[2])]
    np.testing.assert_allclose(results["test_acc"], expected)
    np.testing.assert_allclose(results["test_one"], [1.0, -1.0, 1.0])
    # stats.compare reads these to refuse the fold, whatever number error_score is
    assert results["failed_metrics"] == [[], ["acc", "one"], []]


def _inner_failure():
    """The scorer raising on C=0.01's first inner validation split of outer fold 0 only
    (KFold(4) inside: 20 validation rows), and C=1's accuracy per outer fold and its mean
    inner accuracy in fold 0, by scikit-learn."""
    train, _ = next(OUTER.split(X))
    _, validation = next(KFold(4).split(train))
    scorer = _raising_on(train[validation[0]], n_rows=20, C=0.01)
    tested = [
        LogisticRegression(C=1).fit(X[tr], y[tr]).score(X[te], y[te]) for tr, te in OUTER.split(X)
    ]
    inner = cross_val_score(LogisticRegression(C=1), X[train], y[train], cv=KFold(4)).mean()
    return scorer, tested, inner


def test_a_failure_on_one_inner_fit_leaves_the_others_to_select():
    # C=0.01 has error_score (NaN) on one split, so a NaN mean: C=1 is selected in fold 0 too,
    # as GridSearchCV selects among the candidates whose fits did not fail
    scorer, tested, inner = _inner_failure()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = nested_cross_validate(
            LogisticRegression(), X, y, cv=OUTER, param_grid={"C": [0.01, 1]},
            inner_cv=KFold(4), scoring=scorer, n_refits=1, return_nested_info=True,
        )  # fmt: skip
    assert results["best_params"] == [{"C": 1}] * 3
    np.testing.assert_allclose(results["test_acc"], tested)
    np.testing.assert_allclose(results["test_one"], [1.0] * 3)
    assert results["validation_acc"][0] == pytest.approx(inner)
    assert "failed_metrics" not in results


def test_nested_cv_reads_a_dict_scorer_that_failed_the_same_way():
    scorer, tested, inner = _inner_failure()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nested = NestedCV(
            LogisticRegression(), {"C": [0.01, 1]}, outer_cv=OUTER, inner_cv=KFold(4),
            scoring=scorer, refit="acc", n_refits=1, random_state=0,
        ).fit(X, y)  # fmt: skip
    fold = nested.outer_results_[0]
    assert fold["best_params"] == {"C": 1}
    assert fold["validation_scores"]["acc"] == pytest.approx(inner)
    assert np.isnan(nested.cv_results_["mean_test_acc"][0])  # C=0.01 in outer fold 0
    np.testing.assert_allclose(nested.outer_scores_, tested)


def test_nested_cv_gives_a_failed_outer_fold_error_score_for_every_metric():
    _, test = list(OUTER.split(X))[1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nested = NestedCV(
            LogisticRegression(), {"C": [0.01, 1]}, outer_cv=OUTER, inner_cv=KFold(4),
            scoring=_raising_on(test[0]), refit="acc", n_refits=1, random_state=0,
        ).fit(X, y)  # fmt: skip
    for k, (train, test) in enumerate(OUTER.split(X)):
        fold = nested.outer_results_[k]
        if k == 1:
            assert fold["failed_metrics"] == ["acc", "one"]
            assert np.isnan(fold["test_scores_per_metric"]["acc"]).all()
            assert np.isnan(fold["test_scores_per_metric"]["one"]).all()
            continue
        model = LogisticRegression(**fold["best_params"]).fit(X[train], y[train])
        assert fold["failed_metrics"] == []
        assert fold["test_scores_per_metric"]["acc"][0] == pytest.approx(
            model.score(X[test], y[test])
        )


@pytest.mark.parametrize(
    "scoring",
    [
        lambda e, X_, y_: {"score": float(np.mean(e.predict(X_) == y_)), "other": 2.0},
        _raising_on(0),  # keys acc and one, but the first outer fold's raised
    ],
    ids=["a 'score' key among others", "a dict that raised on one fold"],
)
def test_nested_cross_val_score_refuses_a_dict_as_cross_val_score_does(scoring):
    with pytest.raises(ValueError, match="scoring must return a number"):
        cross_val_score(SEARCH, X, y, cv=OUTER, scoring=scoring)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match="must return a number; it returned a dict"):
            nested_cross_val_score(SEARCH, X, y, cv=OUTER, scoring=scoring, n_refits=1)
