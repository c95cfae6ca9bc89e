"""Failed fits are visible in every report form, in BenchmarkResult, and in saved results."""

import warnings

import pytest
from sklearn.datasets import load_iris
from sklearn.dummy import DummyClassifier
from sklearn.exceptions import FitFailedWarning
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV, benchmark
from sklearn_fair.report import nested_cv_report, result_to_dict

# "None" as TOML spells it without a null: a string the tree refuses, so that one of the two
# candidates fails in every fit and the grid reads as if it had been {4}
GRID = {"max_depth": ["None", 4]}


@pytest.fixture(scope="module")
def fitted():
    X, y = load_iris(return_X_y=True)
    with pytest.warns(FitFailedWarning):
        return NestedCV(
            DecisionTreeClassifier(random_state=0), GRID, outer_cv=3, n_refits=1, refit=False,
            random_state=0,
        ).fit(X, y)  # fmt: skip


def test_the_report_lists_the_failed_fits_per_fold_with_the_first_error(fitted):
    failed = fitted.failed_tasks_
    # the candidate max_depth="None" fails once per outer fold: its one fit on the default
    # inner hold-out, in each of the 3 folds
    assert len(failed) == 3
    report = nested_cv_report({"tree": fitted}, n_resamples=200)
    assert report.rows[0]["n_failed_fits"] == len(failed)
    assert f"{len(failed)} of tree" in report.verdict()
    # the failed candidate was not selected: every fold has its test score, none error_score
    assert all(fold["test_score"] > 0.5 for fold in fitted.outer_results_)
    assert report.verdict().endswith('"Failed fits"; every outer fold has a test accuracy score.')
    for text in (report.to_text(), report.to_markdown(), report.to_html(plots=False)):
        assert "Failed fits" in text and "max_depth" in text
    section = next(s for s in report.sections() if s.title == "Failed fits")
    per_fold = {}
    for task in failed:
        per_fold[task["key"]["outer_fold"]] = per_fold.get(task["key"]["outer_fold"], 0) + 1
    assert per_fold == {0: 1, 1: 1, 2: 1}
    assert {int(str(row[1])): int(str(row[2])) for row in section.rows} == per_fold


def test_saved_results_keep_their_failures(fitted):
    saved = result_to_dict(fitted)
    assert sum(entry["count"] for entry in saved["failures"].values()) == len(fitted.failed_tasks_)
    report = nested_cv_report({"tree": saved}, n_resamples=200)
    assert report.rows[0]["n_failed_fits"] == len(fitted.failed_tasks_)


def test_benchmark_results_list_failures_and_a_clean_run_lists_none():
    X, y = load_iris(return_X_y=True)
    models = {"prior": DummyClassifier(), "tree": (DecisionTreeClassifier(random_state=0), GRID)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = benchmark(models, {"iris": (X, y)}, outer_cv=3, n_refits=1, random_state=0)
    failures = result.failures
    assert set(failures.model) == {"tree"} and failures.failed_fits.sum() == 3
    assert failures.first_error.str.contains("max_depth").all()
    page = result.to_html(plots=False, n_resamples=200)
    assert "Failed fits" in page
    clean = benchmark({"prior": DummyClassifier()}, {"iris": (X, y)}, outer_cv=3, random_state=0)
    assert clean.failures.empty and "Failed fits" not in clean.to_html(plots=False)


def test_a_data_set_where_every_model_failed_leaves_the_others_tests_in_the_verdict():
    import numpy as np
    from scipy import stats as scipy_stats
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import FunctionTransformer
    from sklearn.utils import check_array
    from statsmodels.stats.multitest import multipletests

    from sklearn_fair.exceptions import SklearnFairWarning

    X, y = load_breast_cancer(return_X_y=True)
    X, y = X[:150], y[:150]
    broken = X.copy()
    broken[::10, 0] = np.nan  # a NaN row in every fold: every fit fails
    models = {
        "logistic": (LogisticRegression(max_iter=300), {"C": [0.1, 1.0]}),
        "knn": (KNeighborsClassifier(), {"n_neighbors": [3, 15]}),
        "prior": make_pipeline(FunctionTransformer(check_array), DummyClassifier()),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FitFailedWarning)
        result = benchmark(
            models, {"clean": (X, y), "broken": (broken, y)}, outer_cv=3, inner_cv=2,
            n_refits=1, random_state=0,
        )  # fmt: skip
    # the corrected resampled t-test (Nadeau and Bengio) against the best, by hand; Holm by
    # statsmodels
    scores = {m: np.asarray(result.cells["clean", m].scores) for m in models}
    best = max(scores, key=lambda m: scores[m].mean())
    others = [m for m in models if m != best]
    pvalues = []
    for model in others:
        d = scores[model] - scores[best]
        t = d.mean() / np.sqrt((1 / 3 + 50 / 100) * d.var(ddof=1))
        pvalues.append(2 * scipy_stats.t.sf(abs(t), 2))
    worse = [m for m, r in zip(others, multipletests(pvalues, method="holm")[0]) if r]
    assert worse  # the prior is worse than the best on clean
    with warnings.catch_warnings():
        warnings.simplefilter("error", SklearnFairWarning)  # no "splits not recorded" warning
        result.table()
    verdict = result.report(n_resamples=100).verdict()
    assert "do not record their outer splits" not in verdict
    assert f"Best mean test accuracy over the 2 data sets: {best} on clean" in verdict
    assert "every model's folds failed on broken" in verdict
    assert "shown to be worse than the best" in verdict
    for model in others:
        assert (f"{model} on clean" in verdict) == (model in worse)


def test_where_every_model_failed_on_every_data_set_the_verdict_names_no_best():
    import numpy as np
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression

    X, y = load_breast_cancer(return_X_y=True)
    X = X[:120].copy()
    X[::10, 0] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FitFailedWarning)
        result = benchmark(
            {"a": LogisticRegression(), "b": (LogisticRegression(), {"C": [1, 2]})},
            {"d1": (X, y[:120]), "d2": (X[:90], y[:90])}, outer_cv=3, inner_cv=2, n_refits=1,
            random_state=0,
        )  # fmt: skip
    verdict = result.report(n_resamples=50).verdict()
    assert verdict.startswith(
        "No model has a mean test accuracy on the 2 data sets: every model's folds failed on "
        "d1 and d2."
    )


class _FailsWithRowZero(DecisionTreeClassifier):
    """Fails to fit where the row whose first column is 0 is among its training rows; logs the
    size of every fit (n_jobs=1: in this process)."""

    sizes = []

    def fit(self, X, y, sample_weight=None):
        type(self).sizes.append(len(X))
        if (X[:, 0] == 0).any():
            raise ValueError("row 0 in the training rows")
        return super().fit(X, y, sample_weight=sample_weight)


def test_the_budget_counts_the_refits_that_ran_not_those_of_failed_folds():
    import numpy as np
    from sklearn.datasets import make_classification

    from sklearn_fair.report._results import as_result

    X, y = make_classification(60, 4, random_state=0)
    X = np.column_stack([np.arange(60), X])
    _FailsWithRowZero.sizes = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FitFailedWarning)
        nested = NestedCV(
            _FailsWithRowZero(), {"max_depth": [1, 2]}, outer_cv=3, inner_cv=2, n_refits=2,
            random_state=0, refit=False,
        ).fit(X, y)  # fmt: skip
    refits = sum(1 for size in _FailsWithRowZero.sizes if size == 40)  # an outer training fold
    assert refits == 2  # the one fold without row 0 in its training rows; the others failed
    assert as_result("m", nested).budget["n_refit_fits"] == refits


def _logreg_and_ridge_on_iris(**kwargs):
    from sklearn.linear_model import LogisticRegression, RidgeClassifier

    X, y = load_iris(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return benchmark(
            {
                "logreg": (LogisticRegression(max_iter=300), {"C": [0.1, 1.0]}),
                "ridge": (RidgeClassifier(), {"alpha": [1.0, 10.0]}),
            },
            {"iris": (X, y)},
            outer_cv=3, n_refits=1, error_score=0.0, random_state=0, **kwargs,
        )  # fmt: skip


def test_folds_scored_by_a_numeric_error_score_are_failed_folds_in_every_output(tmp_path):
    # RidgeClassifier has no predict_proba: not one log loss of it could be computed, and
    # error_score=0.0 is a perfect log loss. It was printed as the best model.
    from sklearn_fair import BenchmarkResult

    result = _logreg_and_ridge_on_iris(scoring="neg_log_loss")
    ridge = result.estimators["iris", "ridge"]
    assert list(ridge.outer_scores_) == [0.0, 0.0, 0.0]  # the number given, as asked
    # as GridSearchCV, the selection went on with error_score; each refit's scorer raised
    assert all(fold["refit_scores_failed"] == 1 for fold in ridge.outer_results_)
    assert result.missing == {("iris", "ridge"): 3}
    loaded = BenchmarkResult.load(result.save(tmp_path / "result.json"))
    for each in (result, loaded):
        table = each.table()
        # failed, and not the best (0.0 was the lowest log loss)
        assert table.loc["ridge", "iris"] == "failed (3 of 3 folds)"
        assert table.loc["logreg", "iris"].startswith("**")
    report = nested_cv_report(
        {"logreg": result.estimators["iris", "logreg"], "ridge": result_to_dict(ridge)},
        n_resamples=200,
    )
    row = {r["model"]: r for r in report.rows}
    assert row["ridge"]["n_failed_folds"] == 3 and row["logreg"]["n_failed_folds"] == 0
    assert "every outer fold has a test" not in report.verdict()


def test_a_secondary_metric_scored_by_a_numeric_error_score_is_failed_in_that_metric(tmp_path):
    # accuracy selects; the log loss of RidgeClassifier (no predict_proba) cannot be computed
    # and error_score=0.0 is a perfect log loss: reports, tables and compare() read it as one
    from sklearn_fair import BenchmarkResult
    from sklearn_fair.stats import compare

    scoring = {"acc": "accuracy", "logloss": "neg_log_loss"}
    result = _logreg_and_ridge_on_iris(scoring=scoring, refit="acc")
    ridge, logreg = result.estimators["iris", "ridge"], result.estimators["iris", "logreg"]
    assert [f["test_scores_per_metric"]["logloss"].tolist() for f in ridge.outer_results_] == [
        [0.0]
    ] * 3  # the number given, as scikit-learn's cross_validate gives it
    assert all(f["failed_metrics"] == ["logloss"] for f in ridge.outer_results_)
    assert all(f["failed_metrics"] == [] for f in logreg.outer_results_)
    # the selecting metric is not failed: its scores are real
    assert result.missing == {} and min(ridge.outer_scores_) > 0.5
    with pytest.raises(ValueError, match=r"'ridge' has no test score on outer fold\(s\) 0, 1, 2"):
        compare({"logreg": logreg, "ridge": ridge}, scoring="logloss")
    assert compare({"logreg": logreg, "ridge": ridge}, scoring="acc").table.shape[0] == 1
    loaded = BenchmarkResult.load(result.save(tmp_path / "result.json"))
    saved = result_to_dict(ridge)
    folds = saved["outer_results"]
    assert all(f["failed_metrics"] == ["logloss"] and "failed" not in f for f in folds)
    for each in (result, loaded):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            report = each.report(n_resamples=200)
        rows = {(r["model"], r["scoring"]): r["n_failed_folds"] for r in report.rows}
        assert rows == {
            ("logreg", "acc"): 0, ("ridge", "acc"): 0, ("logreg", "logloss"): 0,
            ("ridge", "logloss"): 3,
        }  # fmt: skip
    report = nested_cv_report({"logreg": logreg, "ridge": saved}, n_resamples=200)
    rows = {(r["model"], r["scoring"]): r["n_failed_folds"] for r in report.rows}
    assert rows[("ridge", "logloss")] == 3 and rows[("ridge", "acc")] == 0
