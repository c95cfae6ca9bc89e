"""The reports say which outer test scores are not measurements but the value a scorer sets
where its metric is undefined (recall on a test fold without positives: 0.0), as
NestedCV.summary() says it, from a fitted NestedCV and from its saved result; a saved file
whose ``undefined_metrics`` is forged is refused."""

import html
import json
import warnings

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import InvalidResultError
from sklearn_fair.report import BenchmarkResult, nested_cv_report, result_to_dict
from sklearn_fair.report._integrity import with_checksum

rng = np.random.RandomState(0)
X = rng.randn(60, 3)
y = (X[:, 0] > 0).astype(int)
order = np.argsort(y, kind="stable")  # the negatives first: outer fold 0 tests no positive
X, y = X[order], y[order]
RECALL_WARNING = "Recall is ill-defined and being set to 0.0 due to no true samples"
NOTE = "recall's test score on outer fold 0 (0.0) is not a measurement"


@pytest.fixture(scope="module")
def nested():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return NestedCV(
            LogisticRegression(), {"C": [1.0]}, outer_cv=KFold(3), inner_cv=3,
            scoring="recall", random_state=0,
        ).fit(X, y)  # fmt: skip


def _report(results):
    return nested_cv_report(results, n_resamples=100)


def _forms(report):
    return {
        "text": report.to_text(),
        "markdown": report.to_markdown(),
        "html": html.unescape(report.to_html(plots=False)),
    }


def test_every_form_names_the_fold_whose_score_is_undefined(nested):
    assert nested.outer_scores_[0] == 0.0  # what the report must say is not measured
    assert NOTE in str(nested.summary())
    for kind, text in _forms(_report(nested)).items():
        assert "Undefined test scores" in text, kind
        assert NOTE in text, kind
        assert RECALL_WARNING in text, kind
        assert "outer fold 1 (" not in text and "outer fold 2 (" not in text, kind


def test_saved_result_says_it_too(nested, tmp_path):
    saved = result_to_dict(nested)
    folds = saved["outer_results"]
    assert [set(f.get("undefined_metrics", {})) for f in folds] == [{"score"}, set(), set()]
    path = tmp_path / "model.json"
    path.write_text(json.dumps(saved))
    read = BenchmarkResult.from_results({("data", "model"): path})
    text, fitted = str(read.report(n_resamples=100)), str(_report(nested))
    section = fitted[fitted.index("Undefined test scores") : fitted.index("Reproducibility card")]
    assert NOTE in section and section in text
    assert "outer fold 1 (" not in text and "outer fold 2 (" not in text
    # and once more through BenchmarkResult.save and load
    read.save(tmp_path / "benchmark.json")
    again = BenchmarkResult.load(tmp_path / "benchmark.json")
    assert section in str(again.report(n_resamples=100))


@pytest.mark.parametrize(
    "forged",
    [
        ["score"],  # not a table
        {"roc_auc": RECALL_WARNING},  # not one of the fold's metrics
        {"score": 0},  # not a message
        {"score": "x" * 4001},  # past the longest message a run records
    ],
)
def test_forged_undefined_metrics_is_refused(nested, forged):
    saved = result_to_dict(nested)
    saved.pop("checksum")
    saved["outer_results"][1]["undefined_metrics"] = forged
    with pytest.raises(InvalidResultError, match="fold 1's undefined_metrics is not a table"):
        _report(with_checksum(saved))  # a forger recomputes the checksum


def test_forged_undefined_metrics_of_a_failed_metric_is_refused(nested):
    saved = result_to_dict(nested)
    saved.pop("checksum")
    saved["outer_results"][0]["failed_metrics"] = ["score"]
    saved["outer_results"][0]["failed"] = True
    with pytest.raises(InvalidResultError, match="fold 0's undefined_metrics is not a table"):
        _report(with_checksum(saved))


def test_the_tables_a_user_parses_mark_the_fold(nested, tmp_path):
    # hunt NEWOUT: scores.csv, summary.csv and BenchmarkResult.scores said nothing
    result = BenchmarkResult.from_results({("data", "model"): result_to_dict(nested)})
    scores = result.scores
    assert list(scores["undefined"] != "") == [True, False, False]
    assert scores["undefined"][0].startswith(RECALL_WARNING)
    assert scores["score"][0] == 0.0  # the value, kept
    (row,) = _report(nested).rows
    assert row["n_undefined_folds"] == 1
    # nothing undefined: no column, and no fold counted
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        measured = NestedCV(
            LogisticRegression(), {"C": [1.0]}, outer_cv=KFold(3), inner_cv=3,
            scoring="accuracy", random_state=0,
        ).fit(X, y)  # fmt: skip
    plain = BenchmarkResult.from_results({("data", "model"): result_to_dict(measured)})
    assert "undefined" not in plain.scores.columns
    assert _report(measured).rows[0]["n_undefined_folds"] == 0
