"""The report says how the folds were made (groups) and which metric selected (a search's own
scoring), in every form, and from saved results too."""

import re

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.exceptions import FitFailedWarning
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold

from sklearn_fair import NestedCV
from sklearn_fair.report import nested_cv_report, result_to_dict


def _data():
    X, y = make_classification(n_samples=90, n_features=5, random_state=0)
    patients = pd.Series(np.repeat(np.arange(18), 5), name="patient")
    return pd.DataFrame(X), pd.Series(y), patients


def test_the_report_says_how_grouped_folds_were_made():
    X, y, groups = _data()
    nested = NestedCV(
        LogisticRegression(), {"C": [0.1, 1.0]}, outer_cv=3, n_refits=1, refit=False,
        random_state=0,
    ).fit(X, y, groups=groups)  # fmt: skip
    for result in (nested, result_to_dict(nested)):
        text = nested_cv_report({"logistic": result}, n_resamples=200).to_text()
        assert f"How the folds were made: inner: {nested.resampling_['inner']}" in text
        assert f"outer: {nested.resampling_['outer']}" in text
        assert "StratifiedGroupKFold" in nested.resampling_["outer"]


def test_a_search_that_selects_with_its_own_scoring_is_said_and_has_no_optimism():
    X, y, _ = _data()
    search = GridSearchCV(LogisticRegression(), {"C": [0.01, 1.0]}, scoring="roc_auc", cv=3)
    nested = NestedCV(search, outer_cv=3, n_refits=1, refit=False, random_state=0,
                      scoring="accuracy").fit(X, y)  # fmt: skip
    assert nested.selection_metric_.name != nested.metrics_[nested.refit_metric_].name
    for result in (nested, result_to_dict(nested)):
        report = nested_cv_report({"search": result}, n_resamples=200)
        (row,) = report.rows
        assert row["metric"] == "accuracy" and row["validation_metric"] == "ROC AUC"
        assert row["validation_mean"] == np.mean(nested.validation_scores_)
        assert row["optimism"] is None and np.isnan(nested.optimism_)
        text = report.to_text()
        assert "Selected with another metric than the test scores: search (ROC AUC)" in text
        assert "validation ROC AUC" in text  # the per-fold table names the selecting metric


def test_a_metric_the_search_did_not_select_with_is_not_labelled_as_selecting():
    # the outer refit names one of two metrics; the search selected with a third (log loss)
    X, y, _ = _data()
    search = GridSearchCV(LogisticRegression(), {"C": [0.01, 1.0]}, scoring="neg_log_loss", cv=3)
    outer = StratifiedKFold(3)
    nested = NestedCV(search, outer_cv=outer, n_refits=1, refit="roc_auc", random_state=0,
                      scoring=["accuracy", "roc_auc"]).fit(X, y)  # fmt: skip
    # the validation scores are the search's own best scores: log losses, printed positive
    folds = [
        clone(search).fit(X.iloc[train], y.iloc[train]).best_score_
        for train, _ in outer.split(X, y)
    ]
    lines = nested_cv_report({"search": nested}, n_resamples=200).to_text().splitlines()
    (auc,) = [line for line in lines if line.startswith("search  ROC AUC")]
    assert "(selects)" not in auc
    printed = re.search(r"([0-9.]+) \(log loss\)", auc).group(1)
    assert float(printed) == pytest.approx(
        -np.mean(folds), abs=0.5 * 10 ** -len(printed.split(".")[1])
    )


def test_no_output_subtracts_a_search_own_scoring_from_the_test_score():
    """The report's table, selection_summary and plot_optimism agree: no optimism where the
    validation scores are of the search's own scoring, validation minus test where they are of
    the test's metric."""
    import matplotlib

    matplotlib.use("Agg")
    from sklearn_fair import BenchmarkResult
    from sklearn_fair.report import plot_optimism

    X, y, _ = _data()
    fitted = {
        name: NestedCV(
            GridSearchCV(LogisticRegression(), {"C": [0.01, 1.0]}, scoring=scoring, cv=3),
            outer_cv=3, n_refits=1, refit=False, random_state=0, scoring="accuracy",
        ).fit(X, y)
        for name, scoring in (("own", "neg_log_loss"), ("same", "accuracy"))
    }  # fmt: skip
    own, same = fitted["own"], fitted["same"]
    expected = float(np.mean(same.validation_scores_) - np.mean(same.outer_scores_))
    result = BenchmarkResult.from_results({("d", name): r for name, r in fitted.items()})
    rows = {row["model"]: row for row in result.report(n_resamples=200).rows}
    summary = result.selection_summary().set_index("model")
    assert rows["own"]["optimism"] is None and np.isnan(summary.loc["own", "optimism"])
    assert rows["same"]["optimism"] == pytest.approx(expected)
    assert summary.loc["same", "optimism"] == pytest.approx(expected)
    # the validation score printed in its own metric's units (log loss, positive) by both
    assert summary.loc["own", "validation_metric"] == rows["own"]["validation_metric"]
    assert summary.loc["own", "validation_mean"] == pytest.approx(-np.mean(own.validation_scores_))
    assert rows["own"]["validation_mean"] == pytest.approx(-np.mean(own.validation_scores_))
    per_fold = result.scores.set_index("model").loc["own", "validation_score"]
    np.testing.assert_allclose(per_fold, -own.validation_scores_)
    labels = plot_optimism(fitted).axes[0].get_legend_handles_labels()[1]
    (own_label,) = [label for label in labels if label.startswith("own")]
    (same_label,) = [label for label in labels if label.startswith("same")]
    assert "optimism" not in own_label and "not drawn" in own_label
    printed = re.search(r"optimism ([^)]+)\)", same_label).group(1).replace("\u2212", "-")
    decimals = len(printed.partition(".")[2])
    assert float(printed) == pytest.approx(expected, abs=0.5 * 10**-decimals)


def test_a_saved_result_without_optimism_is_valid_json():
    import json

    X, y, _ = _data()
    search = GridSearchCV(LogisticRegression(), {"C": [0.01, 1.0]}, scoring="roc_auc", cv=3)
    nested = NestedCV(search, outer_cv=3, n_refits=1, refit=False, random_state=0,
                      scoring="accuracy").fit(X, y)  # fmt: skip
    saved = result_to_dict(nested)
    assert saved["optimism"] is None  # NestedCV's optimism_ is NaN: no number of two metrics
    assert json.loads(json.dumps(saved, allow_nan=False)) == saved  # strict JSON, no NaN
    report = nested_cv_report({"search": saved}, n_resamples=200)
    assert report.rows[0]["optimism"] is None


def _custom(function):
    """A scorer of ``function`` under one name whatever it computes: two such scorers print
    alike (their saved names and reprs are equal)."""
    from sklearn.metrics import make_scorer

    def score(y_true, y_pred):
        return function(y_true, y_pred)

    return make_scorer(score)


def _readings(nested, tmp_path):
    """The NestedResult of ``nested`` as a user gets it: in memory, from result_to_dict through
    JSON, and from a saved BenchmarkResult."""
    import json

    from sklearn_fair import BenchmarkResult
    from sklearn_fair.report._results import as_result

    path = BenchmarkResult.from_results({("data", "m"): nested}).save(tmp_path / "b.json")
    return {
        "memory": as_result("m", nested),
        "json": as_result("m", json.loads(json.dumps(result_to_dict(nested)))),
        "benchmark": BenchmarkResult.load(path).cells["data", "m"],
    }


def test_two_custom_scorers_that_print_alike_are_not_subtracted_after_a_reload(tmp_path):
    # the search selects with balanced accuracy, the test scores are accuracy: both scorers
    # print as "custom scorer score", so a reloaded result must not read them as one metric
    from sklearn.metrics import accuracy_score, balanced_accuracy_score

    from sklearn_fair import BenchmarkResult

    X, y = make_classification(n_samples=120, weights=[0.8], random_state=0)
    search = GridSearchCV(LogisticRegression(max_iter=300), {"C": [0.01, 1.0]},
                          scoring=_custom(balanced_accuracy_score), cv=3)  # fmt: skip
    nested = NestedCV(search, outer_cv=3, scoring=_custom(accuracy_score), random_state=0,
                      refit=False).fit(X, y)  # fmt: skip
    assert np.isnan(nested.optimism_)  # the engine: validation and test are of two metrics
    for how, result in _readings(nested, tmp_path).items():
        assert result.optimism is None, how
        assert result.selection_metric is not None, how
        (row,) = BenchmarkResult({("data", "m"): result}).report(n_resamples=200).rows
        assert row["optimism"] is None and row["rank_validation"] is None, how
        assert row["rank_test"] == 1, how


def test_a_reloaded_result_of_one_metric_keeps_its_optimism(tmp_path):
    X, y, _ = _data()
    search = GridSearchCV(LogisticRegression(), {"C": [0.01, 1.0]}, scoring="accuracy", cv=3)
    nested = NestedCV(search, outer_cv=3, n_refits=1, refit=False, random_state=0,
                      scoring="accuracy").fit(X, y)  # fmt: skip
    expected = np.mean(nested.validation_scores_) - np.mean(nested.outer_scores_)
    assert expected != 0
    for how, result in _readings(nested, tmp_path).items():
        assert result.selection_metric is None, how
        assert result.optimism == pytest.approx(expected), how


class _FailsOnOneOuterFold(LogisticRegression):
    """Refuses the one training set of 66 rows: the refit of outer fold 0 of 100 rows in 3."""

    def fit(self, X, y, **kwargs):
        if len(X) == 66:
            raise ValueError("no fit on 66 rows")
        return super().fit(X, y, **kwargs)


def test_a_failed_outer_fold_does_not_make_a_search_own_scoring_the_test_metric(tmp_path):
    # optimism_ is NaN both for a failed fold and for two metrics: the engine's own decision
    # (validation_comparable_) says which, so a failed fold does not relabel balanced accuracy
    # as accuracy in any reading of the result
    X, y = make_classification(n_samples=100, weights=[0.8], random_state=0)
    search = GridSearchCV(_FailsOnOneOuterFold(max_iter=300), {"C": [0.01, 1.0]},
                          scoring="balanced_accuracy", cv=3)  # fmt: skip
    # 3 outer folds x 2 candidates x 3 inner splits, then 3 refits in outer fold 0 (its first
    # two fail: every seed) and 2 in each other fold (its two agree): 18 + 3 + 2 + 2 fits
    with pytest.warns(FitFailedWarning, match="3 of the 25 fits of NestedCV failed"):
        nested = NestedCV(search, outer_cv=3, scoring="accuracy", random_state=0,
                          refit=False).fit(X, y)  # fmt: skip
    assert np.isnan(nested.outer_scores_).sum() == 1 and not nested.validation_comparable_
    for how, result in _readings(nested, tmp_path).items():
        assert result.optimism is None, how
        assert result.validation_metric.name == "balanced accuracy", how
    markdown = nested_cv_report({"m": nested}, n_resamples=100).to_markdown()
    assert "| outer fold | C | validation balanced accuracy | test accuracy |" in markdown


def test_the_interval_column_names_the_interval_its_numbers_are():
    # results that do not record their outer splits get Student's t (the paragraph said so);
    # the column's header still said "corrected t"
    import warnings

    from scipy import stats

    from sklearn_fair import BenchmarkResult

    scores = [0.90, 0.92, 0.94]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = BenchmarkResult.from_results(
            {("iris", "a"): {"test_scores": scores}, ("iris", "b"): {"test_scores": scores}},
            metric="accuracy",
        )
        markdown = result.report(n_resamples=100).to_markdown()
    low, high = stats.t.interval(0.95, 2, loc=np.mean(scores), scale=stats.sem(scores))
    header = next(line for line in markdown.splitlines() if line.startswith("| model |"))
    assert "95% interval of the mean (Student t) |" in header
    assert f"[{low:.3f}, {high:.3f}]" in markdown


def test_a_holdout_that_stratifies_by_default_is_said_to_be_stratified():
    # HoldoutSplit(stratify=None) stratifies class labels (its splits are
    # StratifiedShuffleSplit's), yet was described as a "random hold-out"
    from sklearn.datasets import load_iris
    from sklearn.model_selection import StratifiedShuffleSplit
    from sklearn.tree import DecisionTreeClassifier

    from sklearn_fair.model_selection import HoldoutSplit

    X, y = load_iris(return_X_y=True)
    holdout = HoldoutSplit(test_size=0.2, random_state=0)
    reference = StratifiedShuffleSplit(n_splits=1, test_size=0.2, random_state=0)
    ((train, test),) = holdout.split(X, y)
    ((train_ref, test_ref),) = reference.split(X, y)
    assert sorted(test) == sorted(test_ref)
    nested = NestedCV(
        DecisionTreeClassifier(), {"max_depth": [1, 2]}, outer_cv=3, inner_cv=holdout,
        n_refits=1, refit=False, random_state=0,
    ).fit(X, y)  # fmt: skip
    assert nested.resampling_["inner"].startswith("one 80%/20% stratified hold-out")


def test_a_parameter_a_fold_did_not_tune_is_not_counted_as_none():
    # a grid of two dicts: each fold selects from one; "min_samples_leaf None (2)" was printed
    # for the two folds that did not tune it, one of which selected max_depth=None
    from sklearn_fair import BenchmarkResult

    best = [{"max_depth": 1}, {"min_samples_leaf": 3}, {"max_depth": None}]
    cell = {"test_scores": [0.8, 0.7, 0.75], "validation_scores": [0.8, 0.8, 0.8]}
    cells = {(d, "tree"): {**cell, "best_params": best} for d in ("d1", "d2")}
    result = BenchmarkResult.from_results(cells)
    for selected in result.selection_summary()["selected"]:
        assert selected == {"max_depth": {"1": 1, "None": 1}, "min_samples_leaf": {"3": 1}}
    text = " ".join(result.report(n_resamples=10).to_text().split())
    assert "None (2)" not in text
    assert "max_depth 1 (1), None (1)" in text and "min_samples_leaf 3 (1)" in text


def test_rankings_are_compared_among_the_models_that_have_a_validation_rank():
    # a search that selects with its own scoring has no validation rank: its None made the
    # two rankings "differ" where ridge and the dummy are in the same order in both
    from sklearn.datasets import load_diabetes
    from sklearn.dummy import DummyRegressor
    from sklearn.linear_model import Ridge

    X, y = load_diabetes(return_X_y=True)
    X, y = X[:150], y[:150]
    common = dict(outer_cv=3, n_refits=1, refit=False, random_state=0,
                  scoring="neg_mean_absolute_error")  # fmt: skip
    search = GridSearchCV(Ridge(), {"alpha": [0.1, 1.0]}, cv=3, scoring="neg_mean_squared_error")
    fitted = {
        "searched": NestedCV(search, **common).fit(X, y),
        "ridge": NestedCV(Ridge(), {"alpha": [0.1, 1.0]}, **common).fit(X, y),
        "dummy": NestedCV(DummyRegressor(), {"strategy": ["mean", "median"]}, **common).fit(X, y),
    }
    report = nested_cv_report(fitted, n_resamples=200)
    rows = {row["model"]: row for row in report.rows}
    assert rows["searched"]["rank_validation"] is None
    # the reference: the two models' mean errors, test and validation, in the same order
    ridge, dummy = fitted["ridge"], fitted["dummy"]
    assert (ridge.score_mean_ > dummy.score_mean_) == (
        np.mean(ridge.validation_scores_) > np.mean(dummy.validation_scores_)
    )
    text = report.to_text()
    assert "differs from the ranking" not in text
    assert "agrees with the ranking by test score of the models that have one." in text


def test_a_saved_result_with_a_failed_outer_fold_is_valid_json():
    import json
    import warnings

    from sklearn.metrics import accuracy_score
    from sklearn.model_selection import KFold

    from sklearn_fair.report import verify_result

    X, y, _ = _data()
    first = X[: len(X) // 3]

    def breaks_on_the_first_fold(estimator, X_test, y_test):
        if len(X_test) == len(first) and np.array_equal(X_test, first):
            raise RuntimeError("scorer broke on this fold")
        return accuracy_score(y_test, estimator.predict(X_test))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nested = NestedCV(LogisticRegression(), {"C": [0.1, 1.0]}, outer_cv=KFold(3),
                          inner_cv=3, scoring=breaks_on_the_first_fold, n_refits=1,
                          random_state=0, refit=False).fit(X, y)  # fmt: skip
    assert np.isnan(nested.score_mean_)
    saved = result_to_dict(nested)
    # before: "score_mean": NaN, a token strict JSON readers (JSON.parse, jq) refuse
    assert saved["score_mean"] is None and saved["score_std"] is None
    assert json.loads(json.dumps(saved, allow_nan=False)) == saved
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # read back as its writer wrote it: no finding
        verify_result(json.loads(json.dumps(saved)), source="saved", from_file=True)
    assert nested_cv_report({"failed": saved}, n_resamples=200).rows[0]["n_failed_folds"] == 1
