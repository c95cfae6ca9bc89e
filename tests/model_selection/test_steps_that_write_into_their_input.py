"""A step that writes into its input (``StandardScaler(copy=False)`` scales in place) must not
change what the next consumer of the same rows reads: every scorer, the predictions
fingerprint, the kept predictions, each refit of ``nested_cross_val_predict``, the check of a
fit that draws from numpy's global random state, and a fit parameter given whole to every
task (``X_val``). Each is checked against scikit-learn scoring or predicting by hand on a
fresh copy of the rows (``X[test].copy()``)."""

import warnings

import numpy as np
import pytest
import sklearn
from sklearn.datasets import make_classification, make_regression
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression, SGDClassifier
from sklearn.metrics import get_scorer
from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold, cross_validate
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVR

from sklearn_fair import NestedCV, nested_cross_val_predict, nested_cross_validate
from sklearn_fair.exceptions import ReproducibilityWarning
from sklearn_fair.model_selection._nested import _tasks
from sklearn_fair.model_selection._nested._data import _aligned

GRID = {"lr__C": [0.01, 1.0]}
OUTER = StratifiedKFold(4, shuffle=True, random_state=0)
INNER = StratifiedKFold(3, shuffle=True, random_state=1)


def _in_place_pipeline(copy=False):
    return Pipeline([("sc", StandardScaler(copy=copy)), ("lr", LogisticRegression())])


@pytest.fixture(scope="module")
def data():
    X, y = make_classification(n_samples=200, n_features=6, random_state=0)
    return X * 10 + 5, y  # far from standardised: scaling twice changes the predictions


def _by_hand(X, y, metric, refit_scoring="accuracy"):
    """scikit-learn's nested run, each outer test fold scored with ``metric`` alone on a fresh
    copy of its rows."""
    search = GridSearchCV(_in_place_pipeline(), GRID, cv=INNER, scoring=refit_scoring)
    ref = cross_validate(
        search, X, y, cv=OUTER, return_estimator=True, return_indices=True, scoring="accuracy"
    )
    return ref, [
        get_scorer(metric)(est.best_estimator_, X[test].copy(), y[test])
        for est, test in zip(ref["estimator"], ref["indices"]["test"])
    ]


def test_every_scorer_scores_the_test_rows_as_given(data):
    X, y = data
    X_before = X.copy()
    scoring = ["accuracy", "balanced_accuracy", "neg_log_loss"]
    result = nested_cross_validate(
        _in_place_pipeline(), X, y, param_grid=GRID, cv=OUTER, inner_cv=INNER,
        scoring=scoring, n_refits=1, n_jobs=1,
    )  # fmt: skip
    for metric in scoring:
        expected = _by_hand(X, y, metric)[1]
        np.testing.assert_allclose(result[f"test_{metric}"], expected, rtol=1e-10)
    np.testing.assert_array_equal(X, X_before)


def test_the_inner_selection_scores_every_metric_on_the_rows_as_given(data):
    X, y = data
    grid = {"lr__C": [0.001, 0.01, 0.1, 1.0]}
    result = nested_cross_validate(
        _in_place_pipeline(), X, y, param_grid=grid, cv=OUTER, inner_cv=INNER,
        scoring=["accuracy", "balanced_accuracy"], refit="balanced_accuracy", n_refits=1,
        return_nested_info=True,
    )  # fmt: skip
    # a search with one metric scores its validation folds once each, as given
    search = GridSearchCV(_in_place_pipeline(), grid, cv=INNER, scoring="balanced_accuracy")
    ref = cross_validate(search, X, y, cv=OUTER, return_estimator=True)
    np.testing.assert_allclose(
        result["validation_balanced_accuracy"], [e.best_score_ for e in ref["estimator"]],
        rtol=1e-10,
    )  # fmt: skip


def test_kept_predictions_are_those_on_the_test_rows_as_given(data):
    X, y = data
    ncv = NestedCV(
        _in_place_pipeline(), param_grid=GRID, outer_cv=OUTER, inner_cv=INNER, n_refits=1,
        keep_predictions=True, refit=False, scoring="accuracy",
    ).fit(X, y)  # fmt: skip
    ref, accuracies = _by_hand(X, y, "accuracy")
    np.testing.assert_allclose(ncv.outer_scores_, accuracies, rtol=1e-10)
    for fold, (est, test) in enumerate(zip(ref["estimator"], ref["indices"]["test"])):
        kept = ncv.outer_results_[fold]["predictions"]
        model = est.best_estimator_
        np.testing.assert_array_equal(kept["predict"][0], model.predict(X[test].copy()))
        np.testing.assert_allclose(kept["proba"][0], model.predict_proba(X[test].copy()))
        assert np.mean(np.asarray(kept["predict"][0]) == y[test]) == pytest.approx(accuracies[fold])


def test_each_refit_predicts_on_the_test_rows_as_given(data):
    X, y = data
    pipe = Pipeline(
        [("sc", StandardScaler(copy=False)),
         ("lr", SGDClassifier(loss="log_loss", max_iter=5, tol=None))]
    )  # fmt: skip
    kw = dict(
        param_grid={"lr__alpha": [1e-4, 1e-2]}, cv=OUTER, inner_cv=INNER, n_refits=3,
        random_state=0,
    )  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SGD's ConvergenceWarning with max_iter=5
        proba = nested_cross_val_predict(pipe, X, y, method="predict_proba", **kw)
        labels = nested_cross_val_predict(pipe, X, y, method="predict", **kw)
        fitted = nested_cross_validate(pipe, X, y, return_estimator=True, **kw)
    expected = np.empty((len(y), 2))
    for models, (_, test) in zip(fitted["estimator"], OUTER.split(X, y)):
        assert len(models) == 3
        expected[test] = np.mean([m.predict_proba(X[test].copy()) for m in models], axis=0)
    assert np.ptp(expected[:, 1]) > 0.5  # the refits' predictions vary, so do their averages
    np.testing.assert_allclose(proba, expected, rtol=1e-10)
    np.testing.assert_array_equal(labels, expected.argmax(axis=1))


def _early_stopping_pipeline(copy):
    hgb = HistGradientBoostingClassifier(
        early_stopping=True, max_iter=200, random_state=0, n_iter_no_change=3
    ).set_fit_request(X_val=True, y_val=True)
    return Pipeline([("sc", StandardScaler(copy=copy)), ("hgb", hgb)], transform_input=["X_val"])


def test_a_fit_parameter_given_whole_is_each_fits_own():
    X, y = make_classification(n_samples=300, n_features=6, random_state=0, flip_y=0.1)
    X = X * 10 + 5
    X_val, y_val = X[:60].copy(), y[:60].copy()
    X_val_before = X_val.copy()
    grid = {"hgb__learning_rate": [0.05, 0.3]}
    outer = StratifiedKFold(3, shuffle=True, random_state=0)
    kw = dict(
        param_grid=grid, cv=outer, inner_cv=INNER, n_refits=1, early_stopping_split="estimator",
        params={"X_val": X_val, "y_val": y_val},
    )  # fmt: skip
    with sklearn.config_context(enable_metadata_routing=True), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scores = {
            n_jobs: nested_cross_validate(
                _early_stopping_pipeline(False), X, y, n_jobs=n_jobs, **kw
            )["test_score"]  # fmt: skip
            for n_jobs in (1, 2)
        }
        np.testing.assert_array_equal(X_val, X_val_before)
        # the same pipeline that scales a copy, in scikit-learn's own nested run
        search = GridSearchCV(_early_stopping_pipeline(True), grid, cv=INNER)
        ref = cross_validate(search, X, y, cv=outer, params={"X_val": X_val, "y_val": y_val})
    np.testing.assert_allclose(scores[1], ref["test_score"], rtol=1e-10)
    np.testing.assert_allclose(scores[2], ref["test_score"], rtol=1e-10)


def test_a_fit_parameter_given_whole_is_each_tasks_own_graphs_included():
    graph = pytest.importorskip("sklearn_fair.graph")
    X_val = np.arange(12.0).reshape(6, 2)
    graphs = graph.load_mutag()
    given = {
        "X_val": X_val, "graphs": graphs, "weights": np.ones(10),
        "shape": (2, 2), "drop": {1, 2}, "steps": range(3), "table": {"a": 1},
    }  # fmt: skip
    first, second = (_aligned(given, np.arange(4), 10) for _ in range(2))
    # an array: a copy each (a read-only view is no guard: SGDClassifier writes into its
    # coef_init through one), the user's untouched
    for copied in (first["X_val"], second["X_val"]):
        assert not np.shares_memory(copied, X_val) and copied.flags.writeable
        np.testing.assert_array_equal(copied, X_val)
    assert not np.shares_memory(first["X_val"], second["X_val"])
    # graphs: a copy each
    assert type(first["graphs"]) is type(graphs) and len(first["graphs"]) == len(graphs)
    assert not np.shares_memory(first["graphs"].x, graphs.x)
    np.testing.assert_array_equal(first["graphs"].x, graphs.x)
    np.testing.assert_array_equal(first["weights"], np.ones(4))  # aligned: its rows
    # anything else as given, its type kept (a tuple became a list, a set raised)
    for name in ("shape", "drop", "steps", "table"):
        assert first[name] is given[name]


def test_no_reproducibility_warning_for_a_fit_that_writes_into_its_input(monkeypatch):
    # verdicts are kept per process: a verdict found by another test must not answer
    monkeypatch.setattr(_tasks, "_GLOBAL_DRAWS_MATTER", {})
    X, y = make_regression(n_samples=120, n_features=5, random_state=0)
    X = X * 10 + 5
    scores = {}
    for copy in (True, False):
        pipe = Pipeline([("sc", StandardScaler(copy=copy)), ("svr", SVR())])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            scores[copy] = nested_cross_validate(
                pipe, X, y, param_grid={"svr__C": [1.0, 10.0]}, cv=KFold(3), inner_cv=KFold(3),
                n_refits=1,
            )["test_score"]  # fmt: skip
        assert [str(w.message) for w in caught if w.category is ReproducibilityWarning] == []
    np.testing.assert_array_equal(scores[False], scores[True])


def test_an_initial_coef_given_whole_starts_every_fit_as_given():
    """SGDClassifier writes its coef_init in place (its Cython ignores a read-only flag):
    handed the user's array, or a view of it, every fit started where the last one ended."""
    from sklearn.linear_model import SGDClassifier

    class OwnInit(SGDClassifier):  # the reference: each fit from its own copy
        def fit(self, X, y, coef_init=None, intercept_init=None, sample_weight=None):
            return super().fit(X, y, coef_init=np.array(coef_init),
                               intercept_init=np.array(intercept_init))  # fmt: skip

    X, y = make_classification(n_samples=120, n_features=5, random_state=0)
    grid, outer, inner = {"alpha": [1e-4, 1e-2]}, KFold(3), KFold(2)
    coef0, icpt0 = np.zeros((1, 5)), np.zeros(1)
    ref = cross_validate(GridSearchCV(OwnInit(random_state=0), grid, cv=inner), X, y, cv=outer,
                         params={"coef_init": coef0, "intercept_init": icpt0})  # fmt: skip
    for n_jobs in (1, 2):
        scores = nested_cross_validate(
            SGDClassifier(random_state=0), X, y, param_grid=grid, cv=outer, inner_cv=inner,
            n_refits=1, n_jobs=n_jobs, params={"coef_init": coef0, "intercept_init": icpt0},
        )["test_score"]  # fmt: skip
        np.testing.assert_array_equal(scores, ref["test_score"])
        assert not coef0.any() and not icpt0.any()  # the user's arrays as given
