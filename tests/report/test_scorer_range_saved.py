"""A metric given as a scorer object keeps its range through a saved result: its intervals
are clipped as in memory (a recall's to [0, 1]), and a forged range is refused."""

import copy
import json
import math
import warnings

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_diabetes
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import get_scorer, make_scorer, mean_absolute_error, recall_score

from sklearn_fair import BenchmarkResult, NestedCV, benchmark
from sklearn_fair.exceptions import InvalidResultError
from sklearn_fair.metrics import MetricName, metric_display_name
from sklearn_fair.report import nested_cv_report, result_to_dict
from sklearn_fair.report._integrity import verify_result, with_checksum
from sklearn_fair.stats._bounds import metric_range

COLUMNS = ["test_mean", "ci_low", "ci_high", "metric_range"]


def _classification():
    X, y = load_breast_cancer(return_X_y=True)
    return X[:120, :5], y[:120]  # a recall whose unclipped interval passes 1


def _fit(estimator, X, y, scoring, refit):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return NestedCV(estimator, {}, outer_cv=4, n_refits=1, random_state=0,
                        scoring=scoring, refit=refit).fit(X, y)  # fmt: skip


def _rows(result):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nested_cv_report({"m": result}).to_dataframe()[COLUMNS]


def _saved(nested):
    return json.loads(json.dumps(result_to_dict(nested)))


@pytest.fixture(scope="module")
def recall():
    scoring = {"acc": "accuracy", "rec": make_scorer(recall_score), "auc": get_scorer("roc_auc")}
    return _fit(LogisticRegression(max_iter=500), *_classification(), scoring, "acc")


def test_a_saved_scorer_object_keeps_its_range(recall):
    # before: the reloaded recall's interval was [0.713, 1.085], its range "unknown"
    memory, loaded = _rows(recall), _rows(_saved(recall))
    for key in ("rec", "auc"):  # a recall and a ROC AUC lie in [0, 1]
        assert memory.loc[("m", key), "metric_range"] == "[0, 1]"
        assert loaded.loc[("m", key), "metric_range"] == "[0, 1]"
    # clipped in memory (unclipped it passes 1): the reloaded one must be clipped too
    assert memory.loc[("m", "rec"), "ci_high"] == 1.0
    assert loaded.loc[("m", "rec"), "ci_high"] <= 1.0
    np.testing.assert_allclose(
        loaded[["test_mean", "ci_low", "ci_high"]].to_numpy(dtype=float),
        memory[["test_mean", "ci_low", "ci_high"]].to_numpy(dtype=float),
    )


def test_a_saved_negated_error_keeps_its_range_and_direction():
    X, y = load_diabetes(return_X_y=True)
    mae = make_scorer(mean_absolute_error, greater_is_better=False)
    nested = _fit(Ridge(), X[:60], y[:60], {"mae": mae}, "mae")
    saved = _saved(nested)
    # an MAE is at least 0, lower is better; scikit-learn's scorer negates it
    assert saved["metrics"]["mae"]["score_range"] == [None, 0.0]  # strict JSON: no -inf
    assert json.loads(json.dumps(saved, allow_nan=False)) == saved
    loaded = MetricName(**saved["metrics"]["mae"])
    assert loaded.sign == -1 and not loaded.greater_is_better
    assert metric_range(loaded) == (0.0, math.inf)
    assert _rows(saved).loc[("m", "mae"), "metric_range"] == "[0, inf)"
    assert _rows(nested).loc[("m", "mae"), "metric_range"] == "[0, inf)"


def test_a_saved_benchmark_keeps_the_range(tmp_path):
    X, y = _classification()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scoring = {"acc": "accuracy", "rec": make_scorer(recall_score)}
        result = benchmark({"lr": LogisticRegression(max_iter=500)}, {"bc": (X, y)},
                           outer_cv=4, n_refits=1, random_state=0, refit="acc",
                           scoring=scoring)  # fmt: skip
        result.save(tmp_path / "r.json")
        loaded = BenchmarkResult.load(tmp_path / "r.json").report().to_dataframe()
    row = loaded.loc[("lr", "rec"), COLUMNS]
    assert row["metric_range"] == "[0, 1]" and row["ci_high"] <= 1.0


def test_a_file_saved_without_the_range_reads_as_before(recall):
    saved = _saved(recall)
    del saved["metrics"]["rec"]["score_range"]
    # a key the name tables do not know: of unknown range, as sklearn-fair read it before
    assert _rows(with_checksum(saved)).loc[("m", "rec"), "metric_range"] == "unknown"


@pytest.mark.parametrize(
    "forged",
    [[1.0, 0.0], [0.0], [0.0, 1.0, 2.0], ["0", 1.0], [math.nan, 1.0], [True, 1.0], "[0, 1]", None],
)
def test_a_forged_range_is_refused(recall, forged):
    saved = copy.deepcopy(_saved(recall))
    saved["metrics"]["rec"]["score_range"] = forged
    with pytest.raises(InvalidResultError, match="describes metric 'rec' in other fields"):
        verify_result(with_checksum(saved), source="forged")


def test_a_score_outside_the_saved_range_is_refused(recall):
    # a recall of 1.5 passed a reloaded file's check: its range was not known
    saved = copy.deepcopy(_saved(recall))
    for fold in saved["outer_results"]:
        fold["test_scores_per_metric"]["rec"] = [1.5]
    with pytest.raises(InvalidResultError, match=r"1\.5 is outside \[0, 1\]"):
        verify_result(with_checksum(saved), source="forged")


def test_to_dict_round_trip():
    metric = metric_display_name(make_scorer(recall_score), name="rec")
    again = MetricName(**json.loads(json.dumps(metric.to_dict())))
    assert again.score_range == (0.0, 1.0) and hash(again) == hash(again)
    assert metric_range(again) == metric_range(metric) == (0.0, 1.0)
    # a scorer name saves no range: its file is as before
    assert set(metric_display_name("accuracy").to_dict()) == {"name", "scoring", "sign", "note"}


def test_a_range_beside_a_scorer_name_is_refused(recall):
    # (review43b REV-1) only a scorer object's saved repr records a range: one beside a scorer
    # name, or the estimator's default score, let scores outside [0, 1] through
    saved = copy.deepcopy(_saved(recall))
    saved["metrics"]["acc"]["score_range"] = [-100.0, 100.0]
    for fold in saved["outer_results"]:
        fold["test_scores_per_metric"]["acc"] = [5.0]
    with pytest.raises(InvalidResultError, match="describes metric 'acc' in other fields"):
        verify_result(with_checksum(saved), source="forged")


@pytest.mark.parametrize(
    "scoring, bounds, words",
    [
        (None, [-100.0, 100.0], "must be None but for a saved scorer object"),
        ("accuracy", [0.0, 1.0], "must be None but for a saved scorer object"),
        ("make_scorer(f)", [1.0, 0.0], "must be low first"),
        ("make_scorer(f)", [math.nan, 1.0], "must be two numbers"),
        ("make_scorer(f)", [0.0, 1.0, 2.0], "must be two numbers"),
    ],
)
def test_metric_name_refuses_a_range_it_cannot_have(scoring, bounds, words):
    # (review43b REV-2) [1, 0] was kept and clipped to; [0, 1, 2] failed to unpack
    with pytest.raises(ValueError, match=f"'score_range' parameter of MetricName {words}"):
        MetricName("r", scoring, 1, "", bounds)
