import sys
from types import SimpleNamespace

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold, cross_validate
from sklearn.tree import DecisionTreeClassifier
from statsmodels.stats.multitest import multipletests

from sklearn_fair.exceptions import SplitsMismatchError
from sklearn_fair.stats import PairedTestResult, compare
from sklearn_fair.stats import _compare as compare_module

N_SAMPLES = 50
N_FOLDS = 5


def _splits(seed=0):
    folds = list(KFold(N_FOLDS, shuffle=True, random_state=seed).split(np.zeros(N_SAMPLES)))
    return [train for train, _ in folds], [test for _, test in folds]


def _as_dict(scores, seed=0, **extra):
    train, test = _splits(seed)
    return {"test_score": np.asarray(scores), "indices": {"train": train, "test": test}, **extra}


def _as_fitted(scores, seed=0):
    train, test = _splits(seed)
    folds = [
        {"train_indices": tr, "test_indices": te, "test_scores": np.array([s])}
        for tr, te, s in zip(train, test, scores)
    ]
    return SimpleNamespace(outer_scores_=np.asarray(scores), outer_results_=folds, refit=True)


A = [0.80, 0.84, 0.79, 0.86, 0.83]
B = [0.78, 0.80, 0.79, 0.83, 0.80]
C = [0.60, 0.62, 0.61, 0.63, 0.60]


def test_table_for_fitted_objects_and_dicts():
    table = compare({"a": _as_fitted(A), "b": _as_dict(B), "c": _as_fitted(C)})
    assert list(table["model_a"]) == ["a", "a", "b"]
    assert list(table["model_b"]) == ["b", "c", "c"]
    # Independent reference: the corrected t-test from its formula, then Holm by hand.
    pvalues = []
    for x, y in [(A, B), (A, C), (B, C)]:
        d = np.subtract(x, y)
        se = np.sqrt((1 / N_FOLDS + 10 / 40) * d.var(ddof=1))
        pvalues.append(2 * stats.t.sf(abs(d.mean() / se), N_FOLDS - 1))
    np.testing.assert_allclose(table["pvalue"], pvalues)
    order = np.argsort(pvalues)
    expected_holm = np.empty(3)
    expected_holm[order] = np.minimum(
        np.maximum.accumulate(np.array(pvalues)[order] * [3, 2, 1]), 1
    )
    np.testing.assert_allclose(table["pvalue_holm"], expected_holm)
    np.testing.assert_allclose(table["mean_difference"], [0.024, 0.212, 0.188])
    verdicts = list(table["verdict"])
    assert verdicts == ["difference not demonstrated", "a better", "b better"]


def test_verdict_follows_the_interval():
    table = compare({"a": _as_dict(A), "b": _as_dict(B)})
    row = {column: table[column][0] for column in ("ci_low", "ci_high", "verdict")}
    assert row["ci_low"] < 0 < row["ci_high"]
    assert row["verdict"] == "difference not demonstrated"
    reversed_table = compare({"c": _as_dict(C), "a": _as_dict(A)})
    assert reversed_table["verdict"][0] == "a better"
    assert reversed_table["ci_high"][0] < 0


def test_paired_test_option():
    table = compare({"a": _as_dict(A), "b": _as_dict(B)}, test="paired")
    assert table["pvalue"][0] == pytest.approx(stats.ttest_rel(A, B).pvalue)


def test_different_test_indices_are_refused():
    with pytest.raises(SplitsMismatchError, match="'a' and 'b'.*outer fold 0.*test"):
        compare({"a": _as_dict(A, seed=0), "b": _as_fitted(B, seed=1)})


def test_different_training_indices_are_refused():
    other = _as_dict(B)
    other["indices"]["train"] = [train[:-1] for train in other["indices"]["train"]]
    with pytest.raises(SplitsMismatchError, match="outer fold 0 has different training"):
        compare({"a": _as_dict(A), "b": other})


def test_different_fold_counts_are_refused():
    short = _as_dict(B)
    short["test_score"] = short["test_score"][:4]
    short["indices"] = {key: value[:4] for key, value in short["indices"].items()}
    with pytest.raises(SplitsMismatchError, match="numbers of outer folds \\(5 and 4\\)"):
        compare({"a": _as_dict(A), "b": short})


def test_order_within_a_fold_does_not_matter():
    shuffled = _as_dict(B)
    shuffled["indices"]["test"] = [test[::-1] for test in shuffled["indices"]["test"]]
    shuffled["indices"]["train"] = [train[::-1] for train in shuffled["indices"]["train"]]
    table = compare({"a": _as_dict(A), "b": shuffled})
    reference = compare({"a": _as_dict(A), "b": _as_dict(B)})
    for column in ("mean_difference", "ci_low", "ci_high", "pvalue", "pvalue_holm"):
        assert table[column][0] == reference[column][0]


def test_multimetric_dicts_need_scoring():
    train, test = _splits()
    multi = {
        "test_accuracy": np.array(A),
        "test_kappa": np.array(C),
        "indices": {"train": train, "test": test},
    }
    other = dict(multi, test_kappa=np.array(B))
    with pytest.raises(ValueError, match="several metrics.*'scoring'"):
        compare({"x": multi, "y": other})
    table = compare({"x": multi, "y": other}, scoring="kappa")
    assert table["mean_difference"][0] == pytest.approx(np.mean(C) - np.mean(B))
    with pytest.raises(ValueError, match="no 'test_f1' key"):
        compare({"x": multi, "y": other}, scoring="f1")


def test_refit_metric_mismatch_is_refused():
    fitted = _as_fitted(A)
    fitted.refit = "accuracy"
    with pytest.raises(ValueError, match="'scoring' parameter is 'kappa'.*holds no scores"):
        compare({"a": fitted, "b": _as_fitted(B)}, scoring="kappa")


def test_bad_results():
    with pytest.raises(ValueError, match="at least two"):
        compare({"a": _as_dict(A)})
    with pytest.raises(ValueError, match="no 'indices'"):
        compare({"a": {"test_score": A}, "b": _as_dict(B)})
    with pytest.raises(TypeError, match="fitted NestedCV"):
        compare({"a": object(), "b": _as_dict(B)})
    with pytest.raises(ValueError, match="'test' parameter of compare"):
        compare({"a": _as_dict(A), "b": _as_dict(B)}, test="wilcoxon")
    with pytest.raises(ValueError, match="'confidence' parameter of compare .*Got True"):
        compare({"a": _as_dict(A), "b": _as_dict(B)}, confidence=True)
    with pytest.raises(ValueError, match="'results' parameter of compare .*Got \\[\\]"):
        compare([])
    with pytest.raises(ValueError, match="'b'.*NaN"):
        compare({"a": _as_dict(A), "b": _as_dict([0.8, np.nan, 0.7, 0.7, 0.7])})
    with pytest.raises(ValueError, match="one score per outer fold"):
        compare({"a": _as_dict(A), "b": _as_dict(B[:3])})


@pytest.mark.parametrize("as_result", [_as_dict, _as_fitted], ids=["dict", "fitted"])
@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_a_failed_fold_is_refused_naming_the_result_and_the_fold(as_result, bad):
    # a fold whose fits failed is scored error_score (NaN): the error named a parameter 'a'
    # that compare() does not have ("The 'a' parameter contains NaN; remove it or impute it
    # first."), not the result nor the fold, nor why
    forest = [0.81, bad, 0.83, 0.80, 0.79]
    results = {"linear": as_result(B), "forest": as_result(forest)}
    match = r"The result 'forest' has no finite test score on outer fold\(s\) 1 \((nan|inf)\)"
    with pytest.raises(ValueError, match=match) as error:
        compare(results)
    assert "error_score" in str(error.value) and "'a' parameter" not in str(error.value)
    results["forest"] = as_result([bad, 0.8, bad, 0.8, 0.8])
    with pytest.raises(ValueError, match=r"outer fold\(s\) 0, 2 "):
        compare(results)


def test_dict_of_arrays_without_pandas(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)  # makes `import pandas` fail
    result = compare({"a": _as_dict(A), "b": _as_dict(B)})
    assert isinstance(result.table, dict)
    assert result["verdict"].tolist() == ["difference not demonstrated"]
    assert result["pvalue_holm"].dtype == float
    assert "a - b: +0.0240" in repr(result)


def test_with_pandas_returns_a_dataframe():
    pd = pytest.importorskip("pandas")
    result = compare({"a": _as_dict(A), "b": _as_dict(B)})
    assert isinstance(result.table, pd.DataFrame) and result.table.shape == (1, 12)
    assert result.to_frame() is result.table
    assert result.shape == (1, 12)  # the DataFrame's attributes, for older code
    assert list(result) == list(result.table.columns) == result.keys()


def test_sklearn_cross_validate_results_with_indices():
    X, y = make_classification(n_samples=60, random_state=0)
    cv = KFold(5, shuffle=True, random_state=0)
    results = {
        name: cross_validate(model, X, y, cv=cv, return_indices=True)
        for name, model in [
            ("logistic", LogisticRegression()),
            ("tree", DecisionTreeClassifier(random_state=0)),
        ]
    }
    table = compare(results)
    assert table["model_a"][0] == "logistic"
    assert np.isfinite(table["pvalue"][0])


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("confidence", [0.9, 0.95])
def test_verdicts_are_statsmodels_holm_rejections(seed, confidence):
    rng = np.random.default_rng(seed)
    base = rng.uniform(0.6, 0.9, N_FOLDS)
    results = {
        name: _as_dict(base + shift + rng.normal(0, 0.01, N_FOLDS))
        for name, shift in [("a", 0.0), ("b", 0.02), ("c", 0.05), ("d", 0.06)]
    }
    table = compare(results, confidence=confidence)
    reject, corrected, _, _ = multipletests(
        np.asarray(table["pvalue"]), alpha=1 - confidence, method="holm"
    )
    np.testing.assert_allclose(table["pvalue_holm"], corrected, rtol=1e-12)
    demonstrated = np.array([v != "difference not demonstrated" for v in table["verdict"]])
    np.testing.assert_array_equal(demonstrated, reject)


def test_holm_rejects_at_p_equal_to_alpha(monkeypatch):
    # Holm at alpha = 0.25 on p = (0.0625, 0.125, 0.25): adjusted (0.1875, 0.25, 0.25), and
    # statsmodels rejects all three (p <= alpha); a strict "<" would keep two.
    pvalues = iter([0.0625, 0.125, 0.25])

    def fake_test(a, b, **kwargs):
        return PairedTestResult(
            mean_difference=0.03, ci_low=0.01, ci_high=0.05, statistic=3.0,
            pvalue=next(pvalues), df=N_FOLDS - 1, confidence=kwargs["confidence"],
        )  # fmt: skip

    monkeypatch.setattr(compare_module, "corrected_resampled_ttest", fake_test)
    table = compare({"a": _as_dict(A), "b": _as_dict(B), "c": _as_dict(C)}, confidence=0.75)
    reject = multipletests([0.0625, 0.125, 0.25], alpha=0.25, method="holm")[0]
    assert reject.tolist() == [True, True, True]
    assert list(table["pvalue_holm"]) == [0.1875, 0.25, 0.25]
    assert list(table["verdict"]) == ["a better", "a better", "b better"]


def _nested(scoring, **kwargs):
    from sklearn_fair import NestedCV

    X, y = make_classification(n_samples=60, random_state=0)
    return NestedCV(
        LogisticRegression(), outer_cv=3, scoring=scoring, refit=False, random_state=0, **kwargs
    ).fit(X, y)


def test_results_of_different_metrics_are_refused():
    accuracy, auc = _nested(None), _nested("roc_auc")
    with pytest.raises(ValueError, match="different metrics.*'a': accuracy, 'b': ROC AUC"):
        compare({"a": accuracy, "b": auc})
    # Same metric by name or by default: compared.
    assert compare({"a": accuracy, "b": _nested("accuracy")})["mean_difference"][0] == 0.0


def test_a_metric_of_a_multimetric_run_is_compared_by_name():
    from sklearn_fair import NestedCV

    X, y = make_classification(n_samples=60, random_state=0)
    multi = NestedCV(
        LogisticRegression(), outer_cv=3, scoring=["accuracy", "roc_auc"], refit="accuracy",
        random_state=0,
    ).fit(X, y)  # fmt: skip
    auc = _nested("roc_auc")
    table = compare({"multi": multi, "auc": auc}, scoring="roc_auc")
    per_fold = [np.mean(f["test_scores_per_metric"]["roc_auc"]) for f in multi.outer_results_]
    assert table["mean_a"][0] == pytest.approx(np.mean(per_fold))
    assert table["mean_difference"][0] == pytest.approx(0.0, abs=1e-12)
    with pytest.raises(ValueError, match="different metrics.*accuracy.*ROC AUC"):
        compare({"multi": multi, "auc": auc})


def test_prints_a_readable_summary():
    result = compare({"a": _as_dict(A), "b": _as_dict(B), "c": _as_dict(C)})
    text = repr(result)
    lines = text.splitlines()
    assert lines[0].startswith("compare(): 3 pair(s) on 5 shared outer folds; corrected")
    assert "decided at level 0.05" in lines[0]
    assert lines[1].startswith("  a - b: +0.0240 (0.8240 vs 0.8000), 95% interval [")
    assert lines[2].startswith("    -> difference not demonstrated; ")
    assert lines[4] == "    -> a better" and lines[6] == "    -> b better"
    assert str(result) == text
    assert len(result) == 3


def test_html_is_escaped():
    result = compare({"<b>x</b>": _as_dict(A), "y & z": _as_dict(B)})
    page = result._repr_html_()
    assert "&lt;b&gt;x&lt;/b&gt; - y &amp; z" in page and "<b>x</b>" not in page


def test_repeats_for_power_of_a_difference_not_demonstrated():
    from sklearn_fair.stats import corrected_ttest_power, corrected_ttest_repeats

    d = np.subtract(A, B)
    # 5-fold splits of 50 rows: n_test / n_train = 10 / 40 = 1 / (k - 1) with k = 5.
    result = compare({"a": _as_dict(A), "b": _as_dict(B)})
    expected = corrected_ttest_repeats(d.mean(), np.std(d, ddof=1), n_folds=5, power=0.8)
    assert expected is not None and expected > 1
    assert result["repeats_for_power"][0] == expected
    power = corrected_ttest_power(d.mean(), np.std(d, ddof=1), n_folds=5, n_repeats=expected)
    assert power >= 0.8
    text = repr(result)
    assert f"{expected} repeat(s) of these 5 folds would give the corrected t-test at least" in text
    assert "a lower bound on the power" in text
    # hunt BOOT-1: repeats of folds that come out the same each time (LeaveOneGroupOut's, an
    # unshuffled KFold's) add nothing: the advice says which repeats it means
    assert "repeats of a shuffled k-fold of this size (LeaveOneOut, LeaveOneGroupOut" in text
    # With three pairs the repeats are planned at Holm's first level, 0.05 / 3: this
    # difference then lies below what any number of repeats can show.
    three = compare({"a": _as_dict(A), "b": _as_dict(B), "c": _as_dict(C)})
    assert corrected_ttest_repeats(d.mean(), np.std(d, ddof=1), n_folds=5, alpha=0.05 / 3) is None
    assert np.isnan(three["repeats_for_power"][0])
    assert np.isnan(three["repeats_for_power"][1])  # demonstrated: nothing to plan


def test_repeats_cannot_show_a_tiny_difference():
    tiny = [a + 0.0004 * (-1) ** i for i, a in enumerate(A)]
    result = compare({"a": _as_dict(A), "b": _as_dict(tiny)})
    assert np.isnan(result["repeats_for_power"][0])
    assert "no number of repeats (up to 1000)" in repr(result)


def test_means_and_repeats_of_scores_near_1e308_are_those_of_the_scores_scaled():
    # five scores near 7e307 sum past the largest float: mean_a and mean_b were inf and the
    # repeats for power NaN (the differences' mean and std unscaled); the same comparison of
    # the scores in units of 7e307, its means times 7e307, as the t-test scales them
    import warnings

    unit = 7e307
    a = np.array([1.5, 1.6, 1.2, 1.7, 1.4])
    b = a - np.array([0.05, 0.03, 0.04, 0.06, 0.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        table = compare({"a": _as_dict(a * unit), "b": _as_dict(b * unit)})
    reference = compare({"a": _as_dict(a), "b": _as_dict(b)})
    columns = ("mean_a", "mean_b", "mean_difference", "pvalue", "repeats_for_power")
    row, reference = ({c: t[c][0] for c in columns} for t in (table, reference))
    assert row["mean_a"] == pytest.approx(unit * np.mean(a), rel=1e-12)
    assert row["mean_b"] == pytest.approx(unit * np.mean(b), rel=1e-12)
    assert row["mean_difference"] == pytest.approx(unit * np.mean(a - b), rel=1e-9)
    assert row["pvalue"] == pytest.approx(reference["pvalue"], rel=1e-9)
    assert np.isfinite(reference["repeats_for_power"])
    assert row["repeats_for_power"] == reference["repeats_for_power"]
