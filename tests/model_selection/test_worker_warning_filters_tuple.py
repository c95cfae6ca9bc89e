"""A warning filter of a tuple of categories, ``simplefilter(action, (A, B))``, which Python
honours and scikit-learn's ``ignore_warnings(category=(A, B))`` installs (so
``check_estimator`` runs fits under it), holds in the worker processes of ``n_jobs=2`` as in
the caller's. Hunt PKL: ``NestedCV(n_jobs=2).fit`` crashed under it with ``AttributeError:
'tuple' object has no attribute '__module__'``."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold

from sklearn_fair import NestedCV

X, Y = make_classification(n_samples=60, n_features=4, random_state=0)
# max_iter=1 stops lbfgs early: a ConvergenceWarning, a UserWarning
GRID = {"max_iter": [1, 100]}


def nested(n_jobs):
    return NestedCV(
        LogisticRegression(), GRID, outer_cv=3, inner_cv=2, n_refits=1, refit=False,
        random_state=0, n_jobs=n_jobs,
    )  # fmt: skip


def test_an_error_filter_of_a_tuple_fails_the_fits_that_warn_in_workers():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        warnings.simplefilter("error", (FutureWarning, UserWarning))
        # in this process, the filter turns the fit's ConvergenceWarning into an error
        with pytest.raises(ConvergenceWarning):
            LogisticRegression(max_iter=1).fit(X, Y)
        model = nested(n_jobs=2).fit(X, Y)
    # every selection fit of max_iter=1 failed: 3 outer folds, 2 inner splits each
    assert len(model.failed_tasks_) == 3 * 2
    assert all("ConvergenceWarning" in task["error"] for task in model.failed_tasks_)
    assert model.best_params_per_fold_ == [{"max_iter": 100}] * 3
    # each fold's test score is that of max_iter=100 fitted on its training rows
    for fold in model.outer_results_:
        train, test = fold["train_indices"], fold["test_indices"]
        fitted = LogisticRegression(max_iter=100).fit(X[train], Y[train])
        assert fold["test_score"] == pytest.approx(fitted.score(X[test], Y[test]))
    folds = [test for _, test in StratifiedKFold(3).split(X, Y)]
    for fold, test in zip(model.outer_results_, folds):
        np.testing.assert_array_equal(np.sort(fold["test_indices"]), test)


def test_an_ignore_filter_of_a_tuple_lets_the_fits_run_and_shows_nothing_of_its_categories():
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        warnings.simplefilter("ignore", (FutureWarning, UserWarning))
        model = nested(n_jobs=2).fit(X, Y)
    assert not model.failed_tasks_
    assert np.isfinite(model.outer_scores_).all()
    assert not [w for w in shown if issubclass(w.category, (FutureWarning, UserWarning))]
    # without the filter, the fits' ConvergenceWarning is shown
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        nested(n_jobs=2).fit(X, Y)
    assert [w for w in shown if w.category is ConvergenceWarning]
