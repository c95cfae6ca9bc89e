import json
import re

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    KFold,
    RepeatedStratifiedKFold,
    StratifiedKFold,
    StratifiedShuffleSplit,
)

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import UncheckedResultWarning
from sklearn_fair.report import (
    comparison_text,
    nested_cv_report,
    reproducibility_card,
    result_to_dict,
)
from sklearn_fair.report._integrity import with_checksum
from sklearn_fair.stats import compare


def _corrected_t(nested, values, confidence=0.95):
    """Nadeau and Bengio's corrected resampled t interval of the mean of ``values``, from
    scipy's t: ``mean -/+ t(n - 1) * sqrt(1 / n + n_test / n_train) * sd``."""
    folds = nested.outer_results_
    n_train = np.mean([len(f["train_indices"]) for f in folds])
    n_test = np.mean([len(f["test_indices"]) for f in folds])
    n = len(values)
    scale = np.sqrt(1 / n + n_test / n_train) * np.std(values, ddof=1)
    return stats.t.interval(confidence, n - 1, loc=np.mean(values), scale=scale)


def test_summary_rows_match_the_fitted_results(fitted, data):
    X, y = data
    report = nested_cv_report(fitted, X=X, y=y, n_resamples=500)
    for row in report.rows:
        nested = fitted[row["model"]]
        assert (row["metric"], row["scoring"], row["selects"]) == ("accuracy", "score", True)
        assert row["test_mean"] == pytest.approx(nested.score_mean_)
        assert row["test_std"] == pytest.approx(nested.score_std_)
        assert row["optimism"] == pytest.approx(nested.optimism_)
        assert row["validation_mean"] == pytest.approx(nested.validation_scores_.mean())
        # the corrected resampled t by default (issue 33.6: one interval everywhere)
        low, high = _corrected_t(nested, nested.outer_scores_)
        # An accuracy interval stays in [0, 1] (issue 25.3), and says when it was clipped.
        assert (row["ci_low"], row["ci_high"]) == pytest.approx((max(low, 0), min(high, 1)))
        clipped = ", clipped to the range [0, 1] of accuracy" if high > 1 or low < 0 else ""
        assert row["ci_method"] == (
            "corrected resampled t (Nadeau & Bengio), 3 df, of the mean of 4 scores, "
            "test/train size 15/45" + clipped
        )
        assert row["iqm_ci_low"] <= row["iqm"] <= row["iqm_ci_high"]
    ranks = sorted(row["rank_test"] for row in report.rows)
    assert ranks == [1, 2]
    best = min(report.rows, key=lambda row: row["rank_test"])
    assert best["test_mean"] == max(row["test_mean"] for row in report.rows)


def test_normal_interval_on_request(fitted):
    report = nested_cv_report(fitted, n_resamples=200, interval="normal")
    scores = fitted["knn"].outer_scores_
    expected = stats.norm.interval(0.95, loc=scores.mean(), scale=stats.sem(scores))
    assert (report.rows[1]["ci_low"], report.rows[1]["ci_high"]) == pytest.approx(expected)
    text = report.to_text()
    assert "95% interval of the mean (normal)" in text
    assert "Interval of the mean: normal (z), of the mean of 4 scores." in text


def test_median_of_numeric_selected_params(fitted):
    report = nested_cv_report(fitted, n_resamples=200)
    chosen = [p["n_neighbors"] for p in fitted["knn"].best_params_per_fold_]
    assert report.median_params["knn"] == {"n_neighbors": float(np.median(chosen))}
    assert report.rows[1]["median_n_neighbors"] == float(np.median(chosen))
    assert report.selected_params["knn"] == fitted["knn"].best_params_per_fold_


def test_every_format_holds_every_section(fitted, data, tmp_path):
    X, y = data
    report = nested_cv_report(fitted, X=X, y=y, n_resamples=200)
    for text in (report.to_text(), report.to_markdown(), report.to_html(), str(report)):
        for needle in (
            "Test performance",
            "Selected hyper-parameters: knn",
            "Pairwise comparison",
            "Reproducibility card",
            "n_neighbors",
            "scikit-learn",
            "rank by validation",
            "accuracy",
            "95% interval of the mean (corrected t)",
            "Bengio), 3 df, of the mean of 4 scores",  # "&" is escaped in HTML
            "percentile bootstrap of the IQM, 200 resamples",
            "validation accuracy",
            "mean accuracy A - B",
        ):
            assert needle in text
        assert text.rindex("Reproducibility card") > text.rindex("Selected hyper-parameters")
    # The card comes last.
    markdown = report.to_markdown()
    assert markdown.index("Reproducibility card") > markdown.index("Pairwise comparison")
    assert markdown.startswith("# Nested cross-validation report")
    assert "| logistic |" in markdown
    assert report.to_html().startswith("<!DOCTYPE html>")
    for suffix in (".md", ".html", ".txt"):
        path = report.save(tmp_path / f"report{suffix}")
        assert "Reproducibility card" in path.read_text()
    with pytest.raises(ValueError, match="'path' parameter.*'.md'"):
        report.save(tmp_path / "report.docx")


def test_dataframe(fitted):
    pd = pytest.importorskip("pandas")
    frame = nested_cv_report(fitted, n_resamples=200).to_dataframe()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.index) == [("logistic", "accuracy"), ("knn", "accuracy")]
    assert {"test_mean", "test_std", "iqm_ci_low", "optimism", "rank_validation"} <= set(frame)
    assert {"ci_method", "iqm_ci_method", "scoring", "selects"} <= set(frame)


def test_comparison_matches_stats_compare(fitted):
    report = nested_cv_report(fitted, n_resamples=200)
    expected = compare(fitted)
    assert report.comparison["model_a"] == ["logistic"]
    assert report.comparison["pvalue_holm"][0] == pytest.approx(expected["pvalue_holm"][0])


def test_single_model_has_no_comparison(fitted):
    report = nested_cv_report(fitted["knn"], n_resamples=200)
    assert [row["model"] for row in report.rows] == ["model"]
    assert report.comparison is None and report.comparison_note is None
    assert "Pairwise comparison" not in report.to_text()


def test_different_splits_are_reported_not_compared(fitted, data):
    X, y = data
    other = NestedCV(LogisticRegression(max_iter=200), outer_cv=4, refit=False, random_state=1)
    results = {"knn": fitted["knn"], "shuffled": other.fit(X[::-1], y[::-1])}
    report = nested_cv_report(results, n_resamples=200)
    assert report.comparison is None
    assert "outer splits" in report.comparison_note
    assert "No pairwise comparison" in report.to_markdown()


@pytest.mark.parametrize("which", ["fitted", "fitted_regressors", "fitted_multimetric"])
def test_saved_dicts_report_like_fitted_objects(which, request):
    results = request.getfixturevalue(which)
    saved = {name: json.loads(json.dumps(result_to_dict(n))) for name, n in results.items()}
    assert (
        nested_cv_report(saved, n_resamples=200).rows
        == nested_cv_report(results, n_resamples=200).rows
    )


def test_results_saved_before_metrics_were_recorded(fitted):
    saved = {name: json.loads(json.dumps(result_to_dict(n))) for name, n in fitted.items()}
    for result in saved.values():
        result["version"] = 1
        for key in ("metrics", "refit_metric", "task", "checksum"):
            del result[key]
        for fold in result["outer_results"]:
            del fold["test_scores_per_metric"]
    with pytest.warns(UncheckedResultWarning, match="of data set 'data' has no checksum"):
        report = nested_cv_report(saved, n_resamples=200)
    assert [row["metric"] for row in report.rows] == ["score", "score"]
    assert "the metric was not saved with this result" in report.to_text()
    assert report.rows[0]["test_mean"] == pytest.approx(fitted["logistic"].score_mean_)


def test_regression_errors_are_printed_as_positive_rmse(fitted_regressors, regression_data):
    X, y = regression_data
    report = nested_cv_report(fitted_regressors, X=X, y=y, n_resamples=200)
    for row in report.rows:
        nested = fitted_regressors[row["model"]]
        rmse = -nested.outer_scores_
        assert row["metric"] == "RMSE" and row["greater_is_better"] is False
        assert row["test_mean"] == pytest.approx(rmse.mean()) and row["test_mean"] > 0
        assert row["validation_mean"] == pytest.approx(-nested.validation_scores_.mean())
        expected = _corrected_t(nested, rmse)
        assert (row["ci_low"], row["ci_high"]) == pytest.approx((max(expected[0], 0), expected[1]))
        assert 0 < row["iqm_ci_low"] <= row["iqm"] <= row["iqm_ci_high"]
        # optimism keeps the scorer's direction: positive when validation looked better
        assert row["optimism"] == pytest.approx(nested.optimism_)
    best = min(report.rows, key=lambda row: row["test_mean"])
    assert best["rank_test"] == 1  # the lower RMSE ranks first
    text = report.to_text()
    assert "validation RMSE" in text and "test RMSE" in text and "mean RMSE A - B" in text
    assert "'neg_root_mean_squared_error' is the RMSE negated so that higher is better" in text
    table = compare(fitted_regressors)
    difference = -table["mean_difference"][0]
    # two significant digits of the smallest std of the RMSE over the folds
    spread = min(np.std(-n.outer_scores_) for n in fitted_regressors.values())
    d = 1 - int(np.floor(np.log10(spread)))
    assert f"| {difference:+.{d}f} |" in report.to_markdown()
    low, high = sorted([-table["ci_low"][0], -table["ci_high"][0]])
    assert f"[{low:+.{d}f}, {high:+.{d}f}]" in text
    assert report.comparison["verdict"][0] == table["verdict"][0]


def test_multimetric_report_shows_every_metric(fitted_multimetric):
    report = nested_cv_report(fitted_multimetric, n_resamples=200)
    rows = {(row["model"], row["metric"]): row for row in report.rows}
    assert list(rows) == [
        ("logistic", "ROC AUC"),
        ("logistic", "accuracy"),
        ("logistic", "log loss"),
        ("knn", "accuracy"),
    ]
    logistic = fitted_multimetric["logistic"]
    for metric, key, sign in [
        ("ROC AUC", "roc_auc", 1),
        ("accuracy", "accuracy", 1),
        ("log loss", "neg_log_loss", -1),
    ]:
        per_fold = [
            np.mean(fold["test_scores_per_metric"][key]) for fold in logistic.outer_results_
        ]
        assert rows["logistic", metric]["test_mean"] == pytest.approx(sign * np.mean(per_fold))
        assert rows["logistic", metric]["selects"] == (key == "roc_auc")
    assert rows["logistic", "accuracy"]["validation_mean"] is None
    assert rows["logistic", "ROC AUC"]["test_mean"] == pytest.approx(logistic.score_mean_)
    assert rows["logistic", "log loss"]["test_mean"] > 0
    text = report.to_text()
    assert "ROC AUC (selects)" in text and "test log loss" in text
    # The two models selected with different metrics: no comparison of ROC AUC with accuracy.
    assert report.comparison is None
    assert "different metrics (logistic: ROC AUC, knn: accuracy)" in report.comparison_note


def test_bad_results_name_what_is_accepted():
    with pytest.raises(TypeError, match="'oops' must be a fitted NestedCV"):
        nested_cv_report({"oops": [0.1, 0.2]})
    with pytest.raises(ValueError, match="empty dict"):
        nested_cv_report({})
    with pytest.raises(TypeError, match="'nested' parameter of result_to_dict"):
        result_to_dict(object())


def test_card_checklist_seeds_fingerprints_versions(fitted, data, tmp_path):
    from sklearn_fair.model_selection import save_splits

    X, y = data
    # the folds of outer_cv=4 of a classifier, saved: the card checks the file holds them
    save_splits(StratifiedKFold(4).split(X, y), tmp_path / "splits.json", y=y)
    card = reproducibility_card(fitted, X=X, y=y, splits_file=tmp_path / "splits.json")
    answers = {item: answer for item, answer, _ in card.checklist}
    assert answers["data splits saved"] == "yes"
    assert answers["stratified splits"] == "yes"  # StratifiedKFold for a classifier
    assert answers["test (not validation) scores, mean and std over the outer folds"] == "yes"
    assert card.seeds["random_state"] == 0
    # the seeds that trained a model in some fold (the probe may have left some unused)
    trained = {s for fold in fitted["logistic"].outer_results_ for s in fold["refit_seeds"]}
    assert set(card.seeds["logistic refit seeds"]) == trained
    assert len(set(card.splits_fingerprint.values())) == 1
    assert card.data_fingerprint.startswith("sha256:")
    assert card.labels_fingerprint.startswith("sha256-ranks:")
    assert set(card.versions) >= {"Python", "scikit-learn", "torch", "PyG"}
    # the JSON card keeps the seeds' types: ints, lists of ints (not their text)
    saved = json.loads(json.dumps(card.to_dict()))["seeds"]
    assert saved["random_state"] == 0
    assert saved["logistic refit seeds"] == [int(s) for s in card.seeds["logistic refit seeds"]]
    # Changing one value of X changes the data fingerprint.
    X2 = X.copy()
    X2[0, 0] += 1
    assert reproducibility_card(fitted, X=X2).data_fingerprint != card.data_fingerprint


def test_card_gives_each_models_random_state_and_the_refit_seeds_that_trained(data):
    # the first model's random_state was given for all; the planned refit seeds for those
    # that trained a model
    X, y = data
    from sklearn.tree import DecisionTreeClassifier

    models = {
        name: NestedCV(
            DecisionTreeClassifier(), {"max_depth": [1, 3]}, outer_cv=3, inner_cv=2,
            refit=False, random_state=seed,
        ).fit(X, y)
        for name, seed in (("a", 0), ("b", 12345))
    }  # fmt: skip
    card = reproducibility_card(models, X=X, y=y)
    assert card.seeds["a random_state"] == 0 and card.seeds["b random_state"] == 12345
    for name, model in models.items():
        trained = [s for s in model.refit_seeds_ if any(s in f["refit_seeds"] for f in
                                                          model.outer_results_)]  # fmt: skip
        assert card.seeds[f"{name} refit seeds"] == trained


def test_card_json_says_unseeded_as_null_and_names_a_randomstate(data):
    X, y = data
    from sklearn.tree import DecisionTreeClassifier

    for state, expected in ((None, None), (np.random.RandomState(0), "RandomState(MT19937)")):
        model = NestedCV(
            DecisionTreeClassifier(), {"max_depth": [1, 3]}, outer_cv=3, inner_cv=2,
            refit=False, random_state=state,
        ).fit(X, y)  # fmt: skip
        saved = json.loads(json.dumps(reproducibility_card(model).to_dict()))["seeds"]
        assert saved["random_state"] == expected


def test_card_without_labels_or_splits_file(fitted):
    card = reproducibility_card(fitted)
    answers = {item: answer for item, answer, _ in card.checklist}
    # an int outer_cv of a classifier is a StratifiedKFold: stratified by construction (it
    # said "unknown" while the folds section named the StratifiedKFold)
    assert answers["stratified splits"] == "yes"
    assert (
        "by the splitter (StratifiedKFold)"
        in dict((i, w) for i, _, w in card.checklist)["stratified splits"]
    )
    assert answers["data splits saved"] == "no"


def test_card_without_labels_of_splits_that_do_not_stratify_is_unknown():
    X, y = make_classification(n_samples=40, random_state=0)
    nested = NestedCV(LogisticRegression(), outer_cv=KFold(4), refit=False).fit(X, y)
    answers = {item: answer for item, answer, _ in reproducibility_card(nested).checklist}
    assert answers["stratified splits"] == "unknown"


def test_card_detects_unstratified_folds():
    X, y = make_classification(n_samples=40, random_state=0)
    zeros, ones = np.flatnonzero(y == 0), np.flatnonzero(y == 1)
    first = np.r_[zeros[:15], ones[:5]]  # 15 of one class, 5 of the other
    second = np.setdiff1d(np.arange(40), first)
    folds = [(second, first), (first, second)]
    nested = NestedCV(LogisticRegression(), outer_cv=folds, refit=False).fit(X, y)
    card = reproducibility_card(nested, y=y)
    assert dict((i, a) for i, a, _ in card.checklist)["stratified splits"] == "no"


@pytest.mark.parametrize(
    "splitter",
    [
        StratifiedKFold(5, shuffle=True, random_state=0),
        RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0),
        StratifiedShuffleSplit(n_splits=3, test_size=0.25, random_state=0),
    ],
    ids=["StratifiedKFold", "RepeatedStratifiedKFold", "StratifiedShuffleSplit"],
)
def test_card_calls_scikit_learns_stratified_folds_stratified(splitter):
    """wine's 178 rows in 5 folds (of 36 and 35 rows): StratifiedKFold deals each class's
    71 rows 15, 14, 14, 14, 14, and a 35-row fold with 15 lies 1.04 rows past the class's
    share of the fold (13.96); the card said "the outer test folds are not stratified by
    class" of scikit-learn's own stratified folds."""
    from sklearn.datasets import load_wine

    X, y = load_wine(return_X_y=True)
    folds = list(splitter.split(X, y))
    nested = NestedCV(DummyClassifier(), outer_cv=folds, refit=False).fit(X, y)
    answer, how = {i: (a, h) for i, a, h in reproducibility_card(nested, y=y).checklist}[
        "stratified splits"
    ]
    assert (answer, how) == (
        "yes",
        "each outer test fold holds each class in proportion (within 1)",
    )
    # a fold of one class moved to another fold is not stratified
    train, test = folds[0]
    moved = test[y[test] == 0]
    folds[0] = (np.union1d(train, moved), np.setdiff1d(test, moved))
    folds[1] = (np.setdiff1d(folds[1][0], moved), np.union1d(folds[1][1], moved))
    nested = NestedCV(DummyClassifier(), outer_cv=folds, refit=False).fit(X, y)
    checklist = reproducibility_card(nested, y=y).checklist
    assert {i: a for i, a, _ in checklist}["stratified splits"] == "no"


def test_card_reports_missing_packages(monkeypatch):
    from importlib import metadata

    from sklearn_fair.report import _card

    real = metadata.version

    def fake(name):
        if name == "torch":
            raise metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(_card.metadata, "version", fake)
    assert _card.package_versions()["torch"] == "not installed"


def test_card_for_a_regression_says_what_applies(fitted_regressors, regression_data):
    X, y = regression_data
    card = reproducibility_card(fitted_regressors, X=X, y=y)
    item = {i: (a, how) for i, a, how in card.checklist}["stratified splits"]
    assert item[0] == "not applicable"
    assert "regression" in item[1] and "stratified by class" not in item[1]
    means = [y[fold["test_indices"]].mean() for fold in fitted_regressors["ridge"].outer_results_]
    # four significant digits of the largest, without an exponent
    largest = max(abs(min(means)), abs(max(means)), abs(y.mean()))
    d = max(0, 3 - int(np.floor(np.log10(largest))))
    assert f"from {min(means):.{d}f} to {max(means):.{d}f}" in item[1]
    assert "e+" not in item[1]
    assert card.task == "regression" and card.to_dict()["task"] == "regression"
    # The values of the target, not their ranks: a monotone transform is another data set.
    assert card.labels_fingerprint.startswith("sha256:")
    assert (
        card.labels_fingerprint
        != reproducibility_card(fitted_regressors, y=y**3).labels_fingerprint
    )
    assert "target fingerprint" in card.to_text() and "labels fingerprint" not in card.to_text()
    assert (
        "stratified by class"
        not in nested_cv_report(fitted_regressors, X=X, y=y, n_resamples=100).to_text()
    )


def test_card_task_from_the_target_when_results_do_not_say(fitted_regressors, regression_data):
    _, y = regression_data
    saved = {name: result_to_dict(n) for name, n in fitted_regressors.items()}
    for name, result in saved.items():
        del result["task"]
        saved[name] = with_checksum(result)
    card = reproducibility_card(saved, y=y)
    assert card.task == "regression"
    assert dict((i, a) for i, a, _ in card.checklist)["stratified splits"] == "not applicable"


def test_card_says_when_stratification_is_stated_not_checked(fitted):
    card = reproducibility_card(fitted, stratified=True)
    answer, how = {i: (a, h) for i, a, h in card.checklist}["stratified splits"]
    assert answer == "yes" and "as stated by the caller" in how
    assert card.task == "classification"


def test_comparison_text_decides_with_compare(fitted_regressors):
    text = comparison_text(fitted_regressors)
    table = compare(fitted_regressors)
    assert "outer-fold RMSE scores" in text and "positive RMSE, lower is better" in text
    low, high = sorted([-table["ci_low"][0], -table["ci_high"][0]])
    # to two significant digits of the smallest standard deviation of the fold scores
    std = min(np.std(result.outer_scores_) for result in fitted_regressors.values())
    d = 1 - int(np.floor(np.log10(std)))
    assert (
        f"ridge - knn: {-table['mean_difference'][0]:+.{d}f} RMSE, 95% interval "
        f"[{low:+.{d}f}, {high:+.{d}f}] (Student t, 3 df, corrected)" in text
    )
    assert f"-> {table['verdict'][0]}" in text


def test_comparison_text_says_when_the_difference_is_not_demonstrated(fitted):
    saved = {name: result_to_dict(n) for name, n in fitted.items()}
    twin = json.loads(json.dumps(saved["logistic"]))
    for fold, shift in zip(twin["outer_results"], [0.01, -0.02, 0.01, -0.01]):
        fold["test_score"] += shift
        fold["test_scores"] = [fold["test_score"]]
        fold["test_scores_per_metric"] = {"score": [fold["test_score"]]}
    twin = with_checksum({k: v for k, v in twin.items() if k not in ("score_mean", "score_std")})
    text = comparison_text({"logistic": saved["logistic"], "twin": twin})
    # the shifts average -0.0025, printed to 3 decimals (two digits of the folds' std, 0.04)
    assert "logistic - twin: +0.003 accuracy" in text
    assert "-> difference not demonstrated: these 4 folds do not show either model" in text


@pytest.mark.parametrize("which", ["fitted", "fitted_regressors"])
def test_comparison_text_prints_the_numbers_the_report_prints(which, request):
    results = request.getfixturevalue(which)
    text = comparison_text(results)
    (line,) = [line for line in text.splitlines() if " - " in line and "interval" in line]
    found = re.search(
        r": (\S+) .*interval \[(\S+), (\S+)\].* p = (.+), Holm-adjusted p = (.+)$", line
    )
    section = next(
        s for s in nested_cv_report(results, n_resamples=200).sections()
        if s.title == "Pairwise comparison"
    )  # fmt: skip
    ((_, _, difference, interval, p, p_holm, _),) = section.rows
    low, high = interval.text.strip("[]").split(", ")
    assert found.groups() == (difference.text, low, high, p.text, p_holm.text)
    # and they are compare()'s numbers
    table = compare(results)
    sign = -1 if which == "fitted_regressors" else 1
    decimals = len(found[1].partition(".")[2])
    assert float(found[1]) == pytest.approx(
        sign * table["mean_difference"][0], abs=0.5 * 10**-decimals
    )


def test_comparison_text_refuses_different_metrics(fitted, fitted_multimetric):
    mixed = {"logistic": fitted_multimetric["logistic"], "knn": fitted["knn"]}
    with pytest.raises(ValueError, match="different metrics.*logistic: ROC AUC, knn: accuracy"):
        comparison_text(mixed)


def _agreement(y_true, y_pred):
    return float(np.mean(y_true == y_pred))


def test_a_metric_of_unknown_range_is_said_and_its_interval_left_alone(data):
    """The user's own metric function: no range known, so the report says it did not clip."""
    from sklearn.metrics import make_scorer

    X, y = data
    nested = NestedCV(
        LogisticRegression(max_iter=200), {"C": [0.1, 1.0]}, outer_cv=4, refit=False,
        scoring=make_scorer(_agreement), random_state=0,
    ).fit(X, y)  # fmt: skip
    report = nested_cv_report(nested, n_resamples=200)
    row = report.rows[0]
    scores = nested.outer_scores_
    assert row["metric_range"] == "unknown"
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(_corrected_t(nested, scores))
    assert "clipped" not in row["ci_method"]
    assert (
        f"{row['metric']}: the range of its values is not known, so its interval of the mean "
        "is left as computed" in report.to_text()
    )


def _state(random_state):
    """A comparable copy of a RandomState's or Generator's state (an int as it is)."""
    if isinstance(random_state, np.random.RandomState):
        return json.dumps([v.tolist() if hasattr(v, "tolist") else v
                           for v in random_state.get_state()])  # fmt: skip
    if isinstance(random_state, np.random.Generator):
        return json.dumps(random_state.bit_generator.state)
    return random_state


@pytest.mark.parametrize("kind", ["RandomState", "Generator", "int"])
def test_a_nested_cv_random_state_seeds_the_bootstrap_only_as_an_int(kind):
    # The IQM interval hangs on the NestedCV's random_state only when it is an int (else on
    # 0): the report neither draws from the user's RandomState or Generator (its state is
    # unchanged) nor changes from one call to the next.
    from sklearn_fair.report import plot_fold_scores
    from sklearn_fair.stats import bootstrap_ci, iqm
    from sklearn_fair.utils._random import named_generator

    X, y = make_classification(n_samples=100, random_state=0)
    given = {
        "RandomState": np.random.RandomState(0),
        "Generator": np.random.default_rng(0),
        "int": 3,
    }[kind]
    nested = NestedCV(LogisticRegression(), {"C": [0.1, 1.0]}, outer_cv=10, refit=False,
                      random_state=given).fit(X, y)  # fmt: skip
    state = _state(given)
    intervals = [
        (row["iqm_ci_low"], row["iqm_ci_high"])
        for row in (nested_cv_report({"m": nested}, n_resamples=300).rows[0] for _ in range(3))
    ]
    plot_fold_scores({"m": nested}, n_resamples=300)
    assert _state(given) == state
    assert intervals[0] == intervals[1] == intervals[2]
    root = 3 if kind == "int" else 0
    expected = bootstrap_ci(nested.outer_scores_, iqm, n_resamples=300,
                            random_state=named_generator(root, "data", "m"))  # fmt: skip
    assert intervals[0] == pytest.approx((expected.low, expected.high))


def test_the_tables_std_of_scores_near_1e200_is_their_std():
    # the row's std was np.std of the scores, whose squares overflowed to inf (with numpy's
    # RuntimeWarning) beside the finite mean and interval summarize scales for; the std of
    # the same scores in units of 1e200, times 1e200
    import warnings

    from sklearn_fair import BenchmarkResult

    scores = [1e200, 1.1e200, 1.05e200, 1.02e200]
    folds = {
        "outer_results": [
            {
                "test_score": s,
                "test_scores": [s],
                "validation_score": s,
                "best_params": {},
                "train_indices": [i for i in range(80) if i // 20 != f],
                "test_indices": list(range(f * 20, (f + 1) * 20)),
                "fit_time": 1.0,
            }
            for f, s in enumerate(scores)
        ]
    }
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        (row,) = BenchmarkResult.from_results({("d", "x"): folds}).report(n_resamples=10).rows
    assert row["test_std"] == pytest.approx(1e200 * np.std(np.array(scores) / 1e200), rel=1e-12)


def _huge_folds(scores, validation):
    return {
        "outer_results": [
            {
                "test_score": s,
                "test_scores": [s],
                "validation_score": v,
                "best_params": {},
                "train_indices": [i for i in range(80) if i // 20 != f],
                "test_indices": list(range(f * 20, (f + 1) * 20)),
                "fit_time": 1.0,
            }
            for f, (s, v) in enumerate(zip(scores, validation))
        ]
    }


def test_means_optimism_and_tests_of_scores_near_1e308_are_those_of_the_scores_scaled():
    """Fold scores near 1e308, whose sum overflows: the report's mean validation score,
    optimism and test against the best are computed in units of 1e308. np.mean gave inf, so the
    optimism was NaN and a model whose mean overflowed was left out as if its folds failed."""
    import warnings

    from scipy import stats

    from sklearn_fair import BenchmarkResult

    unit = 5e307  # four such scores sum past the largest float (1.8e308)
    x = np.array([1.5, 1.6, 1.55, 1.58])
    y = np.array([1.0, 1.62, 1.2, 1.3])
    x_val, y_val = np.array([1.7, 1.65, 1.6, 1.68]), np.array([1.1, 1.3, 1.25, 1.2])
    cells = {("d", "x"): _huge_folds(x * unit, x_val * unit)}
    cells["d", "y"] = _huge_folds(y * unit, y_val * unit)
    result = BenchmarkResult.from_results(cells)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        report = result.report(n_resamples=10)
        rows = {row["model"]: row for row in report.rows}
        text = " ".join(report.to_markdown().split())
        table = result.table(n_resamples=10)
        selection = result.selection_summary().set_index("model")
    for name, test, validation in (("x", x, x_val), ("y", y, y_val)):
        row = rows[name]
        assert row["validation_mean"] == pytest.approx(unit * np.mean(validation), rel=1e-12)
        assert row["optimism"] == pytest.approx(
            unit * (np.mean(validation) - np.mean(test)), rel=1e-9
        )
        assert selection.loc[name, "optimism"] == pytest.approx(row["optimism"], rel=1e-12)
        assert selection.loc[name, "test_mean"] == pytest.approx(unit * np.mean(test), rel=1e-12)
    # x is the best; y against it by the corrected resampled t (n_test/n_train = 20/60)
    d = y - x
    t = d.mean() / np.sqrt((1 / 4 + 20 / 60) * d.var(ddof=1))
    p = 2 * stats.t.sf(abs(t), 3)
    assert rows["x"]["rank_test"] == 1 and rows["y"]["rank_test"] == 2
    assert "| **best** |" in text and f"| not shown worse (Holm p {p:.2g}) |" in text
    # the paper's table (bold: the best); it printed inf ± inf
    mean, std = (float(v) for v in table.loc["x", "d"].strip("*").split(" ± "))
    assert mean == pytest.approx(unit * np.mean(x), rel=1e-4)
    assert std == pytest.approx(unit * np.std(x), rel=1e-4)
    # in five significant digits: fixed notation printed all 308 digits of each
    html = report.to_html()
    for printed in (text, html, " ".join(table.to_numpy().ravel())):
        assert f"{unit * np.mean(x):.4e}" in printed
        assert not re.search(r"\d{17}", printed)


def test_the_report_of_one_model_on_several_data_sets_prints_its_paper_table():
    """One model, two data sets: the paper's table has no best to mark (the report tests no
    model against another); it raised TypeError ('NoneType' object is not subscriptable), so
    to_html, to_markdown and an experiment's report.html of one model failed."""
    from sklearn_fair import BenchmarkResult

    a, b = [0.8, 0.9, 0.85, 0.82], [0.6, 0.7, 0.65, 0.5]
    cells = {("d1", "m"): _huge_folds(a, a), ("d2", "m"): _huge_folds(b, b)}
    report = BenchmarkResult.from_results(cells).report(n_resamples=10)
    (section,) = [s for s in report.sections() if s.title == "Scores as a paper prints them"]
    d = 3  # two significant digits of the smaller std: np.std(a) = 0.0377 is 0.038
    expected = [f"{np.mean(v):.{d}f} ± {np.std(v):.{d}f}" for v in (a, b)]
    assert [str(cell.text) for cell in section.rows[0][1:]] == expected
    assert "Bold" not in " ".join(section.paragraphs)
    assert "<td" in report.to_html(plots=False)


def test_an_interval_past_the_largest_float_names_the_model_and_data_set():
    # the corrected t interval of these scores reaches past 1.8e308: the report's error named
    # "The 'scores' parameter", which the report's caller never passed
    from sklearn_fair import BenchmarkResult

    x = np.array([1.5, 1.6, 1.55, 1.58]) * 1e308
    y = np.array([1.0, 1.62, 1.2, 1.3]) * 1e308
    result = BenchmarkResult.from_results(
        {("d", "x"): _huge_folds(x, x), ("d", "y"): _huge_folds(y, y)}
    )
    with pytest.raises(ValueError, match="past the largest float") as raised:
        result.report(n_resamples=10)
    message = str(raised.value)
    assert "model 'y' on data set 'd'" in message and "'scores' parameter" not in message
    assert "interval of their mean" in message


def test_scores_of_1e_8_print_their_digits_not_zeros():
    # an error metric in small units: every mean, std, interval and difference printed
    # 0.000000, so the table said two models scored the same and nothing else
    from sklearn_fair import BenchmarkResult

    x = np.array([1.5, 1.6, 1.55, 1.58]) * 1e-8
    y = np.array([1.0, 1.62, 1.2, 1.3]) * 1e-8
    result = BenchmarkResult.from_results(
        {("d", "x"): _huge_folds(x, x), ("d", "y"): _huge_folds(y, y)}
    )
    table = result.table(n_resamples=10)
    text = result.report(n_resamples=10).to_markdown()
    for model, scores in (("x", x), ("y", y)):
        mean, std = (float(v) for v in table.loc[model, "d"].strip("*").split(" ± "))
        assert mean == pytest.approx(np.mean(scores), rel=1e-4)
        assert std == pytest.approx(np.std(scores), rel=1e-4)
        assert f"| {model} | score | {np.mean(scores):.4e} ± " in text
    assert f"| x | y | {np.mean(x - y):+.4e} |" in text
    assert "0.000000 ±" not in text


def test_compare_to_of_scores_near_1e308_gives_their_means_and_effect_size():
    # the means overflowed to inf and the effect size d_z (mean over std of the differences)
    # was 0.0 (inf / inf taken as no spread) or NaN; both are those of the scores in units
    # of 5e307
    import warnings

    from sklearn_fair import BenchmarkResult

    unit = 5e307
    x, y = np.array([1.5, 1.6, 1.55, 1.58]), np.array([1.0, 1.62, 1.2, 1.3])
    for sign in (1, -1):
        cells = {("d", "x"): _huge_folds(sign * x * unit, x), ("d", "y"): _huge_folds(y * unit, y)}
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)
            (row,) = (
                BenchmarkResult.from_results(cells, baseline="y").compare_to().to_dict("records")
            )
        d = sign * x - y
        assert row["mean"] == pytest.approx(unit * np.mean(sign * x), rel=1e-12)
        assert row["baseline_mean"] == pytest.approx(unit * np.mean(y), rel=1e-12)
        assert row["effect_size"] == pytest.approx(d.mean() / d.std(ddof=1), rel=1e-9)


def test_compare_to_of_differences_equal_but_for_rounding_has_an_infinite_effect_size():
    # 40/50 - 5/50 and 41/50 - 6/50 are both 7/10 (fractions.Fraction says so), in floats
    # they differ by rounding: d_z was 1e16 beside the t-test's equal differences (t = inf)
    from fractions import Fraction

    from sklearn_fair import BenchmarkResult

    x, y = np.array([40, 41, 40, 41]) / 50, np.array([5, 6, 5, 6]) / 50
    exact = {Fraction(a).limit_denominator(50) - Fraction(b).limit_denominator(50)
             for a, b in zip(x, y)}  # fmt: skip
    assert exact == {Fraction(7, 10)} and np.std(x - y, ddof=1) > 0
    cells = {("d", "x"): _huge_folds(x, x), ("d", "y"): _huge_folds(y, y)}
    (row,) = BenchmarkResult.from_results(cells, baseline="y").compare_to().to_dict("records")
    assert row["statistic"] == np.inf and row["effect_size"] == np.inf
    assert row["difference"] == pytest.approx(0.7)
