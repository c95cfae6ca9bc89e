"""A result's own ``error_score`` lets a score past the range check only on a failed fold."""

import copy
import json
import re
import warnings

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.model_selection import StratifiedKFold
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import BenchmarkResult, NestedCV, benchmark
from sklearn_fair.exceptions import InvalidResultError
from sklearn_fair.report import result_to_dict
from sklearn_fair.report._integrity import verify_result, with_checksum

OUT_OF_RANGE = re.escape("fold 0's test score: 5.0 is outside [0, 1], the range of accuracy's")


class _RefitFailsWithRowZero(DecisionTreeClassifier):
    """Fails the refits (100 rows of iris) whose training rows hold iris's row 0."""

    def fit(self, X, y, sample_weight=None):
        if len(X) == 100 and np.any(np.all(X == [5.1, 3.5, 1.4, 0.2], axis=1)):
            raise ValueError("a refit that fails")
        return super().fit(X, y, sample_weight=sample_weight)


def _options(error_score):
    return dict(outer_cv=StratifiedKFold(3), n_refits=1, random_state=0, error_score=error_score)


def _saved(estimator, error_score):
    X, y = load_iris(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nested = NestedCV(
            estimator, {"max_depth": [1, 3]}, refit=False, **_options(error_score)
        ).fit(X, y)
    return json.loads(json.dumps(result_to_dict(nested)))


def _forged(result, folds, value):
    """``result`` with its ``error_score`` and ``folds``' scores ``value``, and its checksum
    recomputed, as anyone can."""
    forged = copy.deepcopy(result)
    forged["error_score"] = value
    for fold in folds:
        forged["outer_results"][fold].update(
            test_score=value, test_scores=[value], test_scores_per_metric={"score": [value]}
        )
    return with_checksum(forged)


def test_error_score_does_not_let_an_impossible_score_through():
    # an accuracy of 5.0 passed the range check because error_score was set to 5.0 too
    result = _saved(DecisionTreeClassifier(random_state=0), 0.0)
    assert not any(fold.get("failed") for fold in result["outer_results"])
    with pytest.raises(InvalidResultError, match=OUT_OF_RANGE):
        verify_result(_forged(result, [0, 1, 2], 5.0), source="forged")
    # the same forgery without the error_score field was already refused, with that message
    plain = _forged(result, [0, 1, 2], 5.0)
    del plain["error_score"]
    with pytest.raises(InvalidResultError, match=OUT_OF_RANGE):
        verify_result(with_checksum(plain), source="forged")


def test_a_forged_benchmark_file_is_refused(tmp_path):
    X, y = load_iris(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tree = (DecisionTreeClassifier(random_state=0), {"max_depth": [1, 3]})
        result = benchmark({"tree": tree}, {"iris": (X, y)}, **_options(0.0))
    path = result.save(tmp_path / "benchmark.json")
    document = json.loads(path.read_text())
    cell = document["cells"][0]
    cell["result"] = _forged(cell["result"], [0, 1, 2], 5.0)
    del cell["result"]["checksum"]  # a benchmark file's cells have none: the file has one
    path.write_text(json.dumps(with_checksum(document)))
    with pytest.raises(InvalidResultError, match=OUT_OF_RANGE):
        BenchmarkResult.load(path)


@pytest.mark.parametrize("error_score", [-1.0, 0.0, np.nan])
def test_a_genuine_failed_fold_is_read_back(error_score):
    # the refits of folds 1 and 2 fail: those folds are marked failed and scored error_score
    result = _saved(_RefitFailsWithRowZero(), error_score)
    failed = [i for i, fold in enumerate(result["outer_results"]) if fold.get("failed")]
    assert failed == [1, 2] and sorted(result["failures"]) == ["1", "2"]
    verify_result(copy.deepcopy(result), source="as written")
    if np.isnan(error_score):
        return
    scores = [fold["test_score"] for fold in result["outer_results"]]
    assert scores[1:] == [error_score, error_score] and 0 < scores[0] <= 1


def test_error_score_out_of_range_only_on_the_failed_folds():
    result = _saved(_RefitFailsWithRowZero(), -1.0)
    verify_result(copy.deepcopy(result), source="as written")  # folds 1, 2: -1.0, marked
    forged = _forged(result, [0], -1.0)  # fold 0 scored -1.0 too, but not marked failed
    with pytest.raises(InvalidResultError, match=re.escape("fold 0's test score: -1.0 is out")):
        verify_result(forged, source="forged")


def test_an_older_file_without_failed_marks_relies_on_its_failures():
    # files written before folds were marked failed list the failures per fold only
    result = _saved(_RefitFailsWithRowZero(), -1.0)
    for fold in result["outer_results"]:
        fold.pop("failed", None)
        fold.pop("failed_metrics", None)
    verify_result(with_checksum(result), source="older")
    del result["failures"]["2"]  # fold 2's -1.0 is then not a failed fit's: refused
    with pytest.raises(InvalidResultError, match=re.escape("fold 2's test score: -1.0 is out")):
        verify_result(with_checksum(result), source="older")
