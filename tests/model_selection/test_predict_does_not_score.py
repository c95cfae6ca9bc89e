"""nested_cross_val_predict returns no test score, as cross_val_predict computes none: a scorer
that cannot score an outer test fold (a metric undefined on the one row of a LeaveOneOut
fold) neither raises nor warns; the inner selection's scoring is as before, so an inner
failure with error_score="raise" raises as GridSearchCV(error_score="raise") does.

Hunt DROP-2.
"""

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, KFold, LeaveOneOut, cross_val_predict

from sklearn_fair import nested_cross_val_predict
from sklearn_fair.model_selection._nested import _functions

X, y = make_classification(40, 4, random_state=0)
GRID = {"C": [0.1, 1]}


@pytest.mark.parametrize(
    "scoring, error_score",
    [("neg_log_loss", "raise"), ("neg_log_loss", np.nan), ("roc_auc", np.nan)],
)
def test_one_row_test_folds_are_predicted_without_errors_or_warnings(scoring, error_score):
    search = GridSearchCV(LogisticRegression(), GRID, cv=3, scoring=scoring, error_score="raise")
    with warnings.catch_warnings(record=True) as expected:
        warnings.simplefilter("always")
        reference = cross_val_predict(search, X, y, cv=LeaveOneOut(), method="predict_proba")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        predictions = nested_cross_val_predict(
            LogisticRegression(), X, y, cv=LeaveOneOut(), param_grid=GRID, inner_cv=3,
            scoring=scoring, error_score=error_score, method="predict_proba", n_refits=1,
        )  # fmt: skip
    np.testing.assert_allclose(predictions, reference)
    assert [str(w.message)[:80] for w in caught] == [str(w.message)[:80] for w in expected] == []


def _raises_on_validation(estimator, X_, y_):
    if len(X_) < 16:  # inner validation folds (outer test folds have 20 rows)
        raise RuntimeError("inner scoring failed")
    return float(np.mean(estimator.predict(X_) == y_))


def test_an_inner_scorer_failure_still_raises_with_error_score_raise():
    search = GridSearchCV(
        LogisticRegression(), GRID, cv=3, scoring=_raises_on_validation, error_score="raise"
    )
    with pytest.raises(RuntimeError, match="inner scoring failed"):
        cross_val_predict(search, X, y, cv=KFold(2))
    with pytest.raises(RuntimeError, match="inner scoring failed"):
        nested_cross_val_predict(
            LogisticRegression(), X, y, cv=KFold(2), param_grid=GRID, inner_cv=3,
            scoring=_raises_on_validation, error_score="raise",
        )  # fmt: skip


def test_the_seed_probe_still_spares_refits_of_a_deterministic_model(monkeypatch):
    # the refits' quiet scores and predictions still show that a seed changes nothing, so no
    # fold trains all its n_refits=3
    runs = []
    run = _functions._run
    monkeypatch.setattr(_functions, "_run", lambda *a, **k: runs.append(run(*a, **k)) or runs[-1])
    predictions = nested_cross_val_predict(
        LogisticRegression(), X, y, cv=KFold(4), param_grid={"C": [1]}, inner_cv=3,
        scoring="accuracy", n_refits=3, method="predict_proba",
    )  # fmt: skip
    ((_, results),) = runs
    assert all(len(f["refit_seeds"]) < 3 for f in results["outer_results"])
    reference = cross_val_predict(LogisticRegression(), X, y, cv=KFold(4), method="predict_proba")
    np.testing.assert_allclose(predictions, reference)
