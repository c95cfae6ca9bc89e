"""A run whose folds' winners were picked by select="one_se" says so: a reader of the report
sees each fold's selected hyper-parameters beside its validation score and assumes the best
mean won, where the rule took the first candidate within one standard error of the best. The
rule is recorded in words in ``resampling_["selection"]``, kept by a saved result, and printed
by every form of the report; a run that selects the best says nothing more."""

import html
import json
import warnings

import pandas as pd
import pytest
from sklearn.datasets import load_wine
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_fair import NestedCV
from sklearn_fair.report import BenchmarkResult, nested_cv_report, result_to_dict

RULE = (
    "one standard error rule (select='one_se'): in each search, the first candidate (in the "
    "order of the candidates) whose mean validation score is within one standard error of "
    "the best mean (not necessarily the best)"
)
GRID = {"logisticregression__C": [0.01, 0.1, 1, 10, 100]}


def _fit(select):
    X, y = load_wine(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return NestedCV(
            make_pipeline(StandardScaler(), LogisticRegression()), GRID, outer_cv=3,
            inner_cv=4, select=select, refit=False, n_refits=1, random_state=0,
        ).fit(X, y)  # fmt: skip


@pytest.fixture(scope="module")
def one_se():
    return _fit("one_se")


def _forms(results):
    report = nested_cv_report(results, n_resamples=100)
    return {
        "text": report.to_text(),
        "markdown": report.to_markdown(),
        "html": html.unescape(report.to_html(plots=False)),
    }


def _says_the_rule(text):
    assert "How the folds were made and the candidates selected: " in text
    assert f"; selection: {RULE}." in text
    assert f"Selected by the {RULE}." in text


def test_one_se_run_names_its_rule_in_every_form(one_se):
    # what the rule did: fold 0's best mean is not the candidate selected
    rows = pd.DataFrame(one_se.cv_results_).query("outer_fold == 0")
    best = rows.loc[rows["mean_test_score"].idxmax(), "params"]
    assert one_se.outer_results_[0]["best_params"] != best
    for text in _forms({"lr": one_se}).values():
        _says_the_rule(text)
    assert one_se.resampling_["selection"] == RULE


def test_best_run_says_nothing_of_a_rule():
    best = _fit("best")
    assert "selection" not in best.resampling_
    for kind, text in _forms({"lr": best}).items():
        assert "How the folds were made: " in text, kind
        assert "candidates selected" not in text and "one standard error" not in text, kind
        assert "select=" not in text, kind


def test_saved_result_names_its_rule(one_se, tmp_path):
    saved = result_to_dict(one_se)
    path = tmp_path / "lr.json"
    path.write_text(json.dumps(saved))
    read = BenchmarkResult.from_results({("data", "lr"): path})
    _says_the_rule(str(read.report(n_resamples=100)))
    assert saved["resampling"]["selection"] == RULE
    # and through a saved benchmark
    read.save(tmp_path / "benchmark.json")
    loaded = BenchmarkResult.load(tmp_path / "benchmark.json")
    _says_the_rule(str(loaded.report(n_resamples=100)))
