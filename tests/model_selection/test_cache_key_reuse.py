"""What a run's keys reuse from task to task, and what they must read again for each: the
description of a candidate (once per run, not once per fold), the installed versions (once
per state of the search path) and the entries written without fsync (torn ones recomputed)."""

import json
import os
import sys

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import get_scorer
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer, StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import CacheWarning
from sklearn_fair.model_selection._nested import _cache, _cache_key, _candidates
from sklearn_fair.model_selection._nested._data import RunData
from sklearn_fair.model_selection._nested._tasks import SELECTION, FitTask, TaskKey
from sklearn_fair.utils import _provenance, package_versions

GRID = {"logisticregression__C": [0.1, 1.0, 10.0]}


@pytest.fixture
def data():
    return make_classification(n_samples=80, n_features=5, random_state=0)


def builder(data):
    X, y = data
    rows = {(name, fold): np.arange(fold, 80, 4) for name in ("train", "test") for fold in range(4)}
    return _cache_key.KeyBuilder(RunData(X, y, rows=rows), {"score": get_scorer("accuracy")})


def tasks():
    """Every candidate's task in each of 4 folds, as a run asks for their keys."""
    return [
        FitTask(TaskKey(SELECTION, fold, c, 0), {"logisticregression__C": C}, ("train", fold))
        for fold in range(4)
        for c, C in enumerate(GRID["logisticregression__C"])
    ]


def test_a_candidate_is_described_once_per_run_with_the_keys_of_each_task(data, monkeypatch):
    # a candidate was cloned, configured and described in full for every fold: most of a warm
    # run's time (805 tasks of 32 candidates)
    estimator = make_pipeline(StandardScaler(), LogisticRegression())
    # each key as a builder that describes everything anew computes it
    expected = [builder(data).key(task, estimator) for task in tasks()]
    real, configured = _candidates.configure, []

    def counted(estimator, params):
        configured.append(params)
        return real(estimator, params)

    monkeypatch.setattr(_candidates, "configure", counted)
    keys = builder(data)
    found = [keys.key(task, estimator) for task in tasks()]
    # once per candidate, and once more for the first: its first description met the code
    # of the run's classes, which the later ones reuse
    assert len(configured) == len(GRID["logisticregression__C"]) + 1
    assert [name for name, _ in found] == [name for name, _ in expected]
    assert [description for _, description in found] == [d for _, d in expected]
    # another estimator object of the same parameters is described for itself
    other = make_pipeline(StandardScaler(), DecisionTreeClassifier())
    task = FitTask(TaskKey(SELECTION, 0, 0, 0), {}, ("train", 0))
    assert keys.key(task, other)[0] == builder(data).key(task, other)[0]
    assert keys.key(task, other)[0] != keys.key(task, estimator)[0]


class Offset:
    """Not an estimator: described by its state as it is, which a fit may change."""

    def __init__(self, value):
        self.value = value

    def __call__(self, X):
        return X + self.value


def test_a_description_that_reads_state_as_it_is_is_read_for_every_task(data):
    offset = Offset(0.0)
    estimator = make_pipeline(FunctionTransformer(offset), LogisticRegression())
    keys = builder(data)
    task = tasks()[0]
    first = keys.key(task, estimator)[0]
    assert keys.key(task, estimator)[0] == first
    offset.value = 1.0  # changed between two tasks of the candidate (by a fit, say)
    second = keys.key(task, estimator)[0]
    assert second != first
    assert second == builder(data).key(task, estimator)[0]


def test_a_run_names_its_entries_as_without_the_reuse(data, tmp_path, monkeypatch):
    X, y = data

    def fit(folder):
        estimator = make_pipeline(StandardScaler(), LogisticRegression())
        kwargs = dict(outer_cv=3, inner_cv=2, n_refits=2, random_state=0, refit=False)
        kwargs["cache_dir"] = folder
        return NestedCV(estimator, GRID, **kwargs).fit(X, y)

    reused = fit(tmp_path / "reused")
    real = _cache_key.KeyBuilder._estimator

    def anew(self, estimator, params):
        self._estimators.clear()
        return real(self, estimator, params)

    monkeypatch.setattr(_cache_key.KeyBuilder, "_estimator", anew)
    described = fit(tmp_path / "anew")
    names = [{p.name for p in (tmp_path / d).rglob("*.json")} for d in ("reused", "anew")]
    assert names[0] == names[1] and len(names[0]) > 20
    np.testing.assert_array_equal(reused.outer_scores_, described.outer_scores_)
    monkeypatch.undo()
    assert fit(tmp_path / "anew").cache_info_["computed"] == 0


def test_the_versions_are_read_again_when_a_distribution_is_installed(tmp_path, monkeypatch):
    from importlib import metadata

    real, read = metadata.version, []

    def counted(name):
        read.append(name)
        return real(name)

    monkeypatch.setattr(metadata, "version", counted)
    monkeypatch.setattr(sys, "path", [*sys.path, str(tmp_path)])
    name = "sklearn-fair-test-distribution"
    assert package_versions([name])[name] == "not installed"
    assert len(read) == 5  # the 4 core libraries and this one
    assert package_versions([name]) == package_versions([name])
    assert len(read) == 5  # read once
    info = tmp_path / "sklearn_fair_test_distribution-1.2.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.2\n")
    # the folder's time changes with the install (set, as two writes may share a clock tick)
    stamp = os.stat(tmp_path).st_mtime_ns + 10**9
    os.utime(tmp_path, ns=(stamp, stamp))
    assert package_versions([name])[name] == "1.2"
    assert len(read) == 10


def entries(folder):
    return sorted(folder.rglob("*.json"))


@pytest.mark.parametrize("torn", ["empty", "zeroed", "cut"])
def test_an_entry_a_crash_left_torn_is_recomputed(data, tmp_path, torn):
    # entries are not fsynced: after a crash (power lost) a renamed entry may be empty, hold
    # zeros or part of its text; each fails its JSON or its checksum and is recomputed
    X, y = data
    kwargs = dict(outer_cv=3, inner_cv=2, random_state=0, refit=False, cache_dir=tmp_path)
    cold = NestedCV(make_pipeline(StandardScaler(), LogisticRegression()), GRID, **kwargs)
    cold.fit(X, y)
    path = entries(tmp_path)[0]
    size = path.stat().st_size
    contents = {"empty": b"", "zeroed": bytes(size), "cut": path.read_bytes()[: size // 2]}
    path.write_bytes(contents[torn])
    rerun = NestedCV(make_pipeline(StandardScaler(), LogisticRegression()), GRID, **kwargs)
    with pytest.warns(CacheWarning, match="1 entry .* was recomputed"):
        rerun.fit(X, y)
    assert rerun.cache_info_["computed"] == 1
    np.testing.assert_array_equal(rerun.outer_scores_, cold.outer_scores_)
    assert json.loads(path.read_text())["payload"]  # rewritten whole


def test_an_entry_is_written_as_its_json_text(tmp_path):
    result = {
        "scores": {"score": 0.1 + 0.2, "é": -1e-320},
        "fit_time": 1.5,
        "score_time": 0.0,
        "predictions": None,
        "warnings": [["UserWarning", "a line\u2028and \x00 more"]],
    }
    description = {"key": [1, 2.5, "x"], "nested": {"b": None, "a": True}}
    assert _cache.write_entry(tmp_path, "ab" * 32, description, result) is None
    text = _cache.entry_path(tmp_path, "ab" * 32).read_text()
    entry = json.loads(text)
    assert text == json.dumps(entry)
    assert entry["key"] == description and entry["payload"]["scores"] == result["scores"]


def test_the_versions_are_those_of_the_reader_in_place(monkeypatch):
    # a reader put in its place (a simulated upgrade) is asked, not the versions read before
    from importlib import metadata

    package_versions()
    monkeypatch.setattr(metadata, "version", lambda name: "0.0.1")
    assert package_versions()["numpy"] == "0.0.1"
    monkeypatch.undo()
    assert package_versions()["numpy"] == np.__version__
    assert _provenance._installed_version.cache_info().hits > 0
