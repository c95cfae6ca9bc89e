import json

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression

from sklearn_fair import NestedCV
from sklearn_fair.report import nested_cv_report, reproducibility_card, result_to_dict


def test_summary_rows_match_the_fitted_results(fitted, data):
    X, y = data
    report = nested_cv_report(fitted, X=X, y=y, n_resamples=500)
    for row in report.rows:
        nested = fitted[row["model"]]
        assert row["test_mean"] == pytest.approx(nested.score_mean_)
        assert row["test_std"] == pytest.approx(nested.score_std_)
        assert row["optimism"] == pytest.approx(nested.optimism_)
        assert row["validation_mean"] == pytest.approx(nested.validation_scores_.mean())
        assert row["ci_low"] < row["test_mean"] < row["ci_high"]
        assert row["iqm_ci_low"] <= row["iqm"] <= row["iqm_ci_high"]
    ranks = sorted(row["rank_test"] for row in report.rows)
    assert ranks == [1, 2]
    best = min(report.rows, key=lambda row: row["rank_test"])
    assert best["test_mean"] == max(row["test_mean"] for row in report.rows)


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
    assert list(frame.index) == ["logistic", "knn"]
    assert {"test_mean", "test_std", "iqm_ci_low", "optimism", "rank_validation"} <= set(frame)


def test_comparison_matches_stats_compare(fitted):
    from sklearn_fair.stats import compare

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


def test_saved_dicts_report_like_fitted_objects(fitted):
    saved = {name: json.loads(json.dumps(result_to_dict(n))) for name, n in fitted.items()}
    assert (
        nested_cv_report(saved, n_resamples=200).rows
        == nested_cv_report(fitted, n_resamples=200).rows
    )


def test_bad_results_name_what_is_accepted():
    with pytest.raises(TypeError, match="'oops' must be a fitted NestedCV"):
        nested_cv_report({"oops": [0.1, 0.2]})
    with pytest.raises(ValueError, match="empty dict"):
        nested_cv_report({})
    with pytest.raises(TypeError, match="'nested' parameter of result_to_dict"):
        result_to_dict(object())


def test_card_checklist_seeds_fingerprints_versions(fitted, data, tmp_path):
    X, y = data
    card = reproducibility_card(fitted, X=X, y=y, splits_file=tmp_path / "splits.json")
    answers = {item: answer for item, answer, _ in card.checklist}
    assert answers["data splits saved"] == "yes"
    assert answers["stratified splits"] == "yes"  # StratifiedKFold for a classifier
    assert answers["test (not validation) scores, mean and std over the outer folds"] == "yes"
    assert card.seeds["random_state"] == 0
    assert card.seeds["logistic refit seeds"] == fitted["logistic"].refit_seeds_
    assert len(set(card.splits_fingerprint.values())) == 1
    assert card.data_fingerprint.startswith("sha256:")
    assert card.labels_fingerprint.startswith("sha256-ranks:")
    assert set(card.versions) >= {"Python", "scikit-learn", "torch", "PyG"}
    json.dumps(card.to_dict())
    # Changing one value of X changes the data fingerprint.
    X2 = X.copy()
    X2[0, 0] += 1
    assert reproducibility_card(fitted, X=X2).data_fingerprint != card.data_fingerprint


def test_card_without_labels_or_splits_file(fitted):
    card = reproducibility_card(fitted)
    answers = {item: answer for item, answer, _ in card.checklist}
    assert answers["stratified splits"] == "unknown"
    assert answers["data splits saved"] == "no"


def test_card_detects_unstratified_folds():
    X, y = make_classification(n_samples=40, random_state=0)
    zeros, ones = np.flatnonzero(y == 0), np.flatnonzero(y == 1)
    first = np.r_[zeros[:15], ones[:5]]  # 15 of one class, 5 of the other
    second = np.setdiff1d(np.arange(40), first)
    folds = [(second, first), (first, second)]
    nested = NestedCV(LogisticRegression(), outer_cv=folds, refit=False).fit(X, y)
    card = reproducibility_card(nested, y=y)
    assert dict((i, a) for i, a, _ in card.checklist)["stratified splits"] == "no"


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
