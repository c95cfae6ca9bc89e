"""Cache entries are checked before they are served (issue 28, item 6).

Entries are files from elsewhere, and whoever writes one can recompute its checksum. Each crafted
entry below is recomputed (never served), with one warning naming the cache folder and the count.
"""

import json
import os
import re
import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.metrics import make_scorer
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import CacheWarning
from sklearn_fair.metrics import get_scorer, score_range
from sklearn_fair.model_selection._nested._cache import MAX_ENTRY_BYTES, _checksum

X, y = make_classification(n_samples=60, n_features=5, random_state=0)


def run(cache, **kwargs):
    params = dict(outer_cv=3, inner_cv=2, n_refits=2, random_state=0, refit=False)
    params.update(kwargs)
    return NestedCV(
        DecisionTreeClassifier(),  # seeded by the run, so its refits record their predictions
        {"max_depth": [1, 2]},
        scoring="accuracy",
        cache_dir=cache,
        **params,
    ).fit(X, y)


def entries(directory):
    return sorted(Path(directory).glob("*/*.json"))


def refit_entry(directory):
    """A refit's entry: it records scores, timings and the fingerprint of its predictions."""
    for path in entries(directory):
        entry = json.loads(path.read_text())
        if entry["key"]["phase"] == "refit" and entry["payload"]["predictions"]:
            return path, entry
    raise AssertionError("no refit entry")


def forge(path, entry, change):
    """Change the payload and recompute the checksum, as a forger can."""
    change(entry["payload"])
    entry["checksum"] = _checksum(entry["payload"], entry["key"])
    path.write_text(json.dumps(entry))


def score(value):
    def change(payload):
        payload["scores"]["score"] = value

    return change


def field(name, value=None, delete=False):
    def change(payload):
        if delete:
            del payload[name]
        else:
            payload[name] = value

    return change


def _replace_with_link(path, target, hard):
    path.unlink()
    if hard:
        try:
            os.link(target, path)
            return
        except OSError:  # another file system, or protected hard links: a file of our own
            copy = path.parent.parent.parent / "garbage"
            copy.write_text("root:x:0:0:root:/root:/bin/sh\n")
            os.link(copy, path)
            return
    os.symlink(target, path)


def _outside_forgery(path, entry, tmp_path):
    outside = tmp_path / "forged.json"
    entry["payload"]["scores"]["score"] = 0.5
    entry["checksum"] = _checksum(entry["payload"], entry["key"])
    outside.write_text(json.dumps(entry))
    path.unlink()
    os.symlink(outside, path)


def _raw_1e400(path, entry):
    forge(path, entry, score(float("inf")))
    path.write_text(path.read_text().replace("Infinity", "1e400"))


def _other_task(path, entry, directory):
    other = next(p for p in entries(directory) if p != path)
    path.write_text(other.read_text())


CASES = {
    "garbage": lambda p, e, t: p.write_bytes(b"\x00\xff\xfe garbage"),
    "empty file": lambda p, e, t: p.write_text(""),
    "a JSON list": lambda p, e, t: p.write_text("[1, 2]"),
    "a JSON string": lambda p, e, t: p.write_text('"entry"'),
    "JSON null": lambda p, e, t: p.write_text("null"),
    "payload a list": lambda p, e, t: forge(p, e, lambda pl: pl.update(scores=[0.9])),
    "over-size": lambda p, e, t: p.write_text(json.dumps(e) + " " * MAX_ENTRY_BYTES),
    "over-deep": lambda p, e, t: p.write_text("[" * 200_000 + "]" * 200_000),
    "symlink to /etc/passwd": lambda p, e, t: _replace_with_link(p, "/etc/passwd", False),
    "hard link to /etc/passwd": lambda p, e, t: _replace_with_link(p, "/etc/passwd", True),
    "symlink to a forgery outside": lambda p, e, t: _outside_forgery(p, e, t),
    "another task's key": lambda p, e, t: _other_task(p, e, t / "cache"),
    "raw 1e400": lambda p, e, t: _raw_1e400(p, e),
    "NaN": lambda p, e, t: forge(p, e, score(float("nan"))),
    "Infinity": lambda p, e, t: forge(p, e, score(float("inf"))),
    "-Infinity": lambda p, e, t: forge(p, e, score(float("-inf"))),
    "1e308": lambda p, e, t: forge(p, e, score(1e308)),
    "an int of 401 digits": lambda p, e, t: forge(p, e, score(10**400)),
    "fit_time an int of 401 digits": lambda p, e, t: forge(p, e, field("fit_time", 10**400)),
    "1.5 for accuracy": lambda p, e, t: forge(p, e, score(1.5)),
    "-3 for accuracy": lambda p, e, t: forge(p, e, score(-3)),
    "the string 0.99": lambda p, e, t: forge(p, e, score("0.99")),
    "the boolean true": lambda p, e, t: forge(p, e, score(True)),
    "a score of null": lambda p, e, t: forge(p, e, score(None)),
    "missing score field": lambda p, e, t: forge(p, e, field("scores", {})),
    "another metric": lambda p, e, t: forge(p, e, field("scores", {"other": 0.9})),
    "an extra metric": lambda p, e, t: forge(p, e, field("scores", {"score": 0.9, "x": 0.5})),
    "missing fit_time": lambda p, e, t: forge(p, e, field("fit_time", delete=True)),
    "missing predictions": lambda p, e, t: forge(p, e, field("predictions", delete=True)),
    "negative fit_time": lambda p, e, t: forge(p, e, field("fit_time", -1.0)),
    "NaN score_time": lambda p, e, t: forge(p, e, field("score_time", float("nan"))),
    "predictions of the wrong shape": lambda p, e, t: forge(p, e, field("predictions", [0, 1])),
    "predictions not a SHA-256": lambda p, e, t: forge(p, e, field("predictions", "sha256:xyz")),
    "warnings a string": lambda p, e, t: forge(p, e, field("warnings", "ConvergenceWarning")),
    "a warning of another shape": lambda p, e, t: forge(p, e, field("warnings", [["x", 1]])),
    "another format": lambda p, e, t: forge(p, e, lambda pl: None) or _set(p, "format", "x/9"),
    "checksum not recomputed": lambda p, e, t: p.write_text(
        json.dumps({**e, "payload": {**e["payload"], "fit_time": 1.0}})
    ),
}


def _set(path, name, value):
    entry = json.loads(path.read_text())
    entry[name] = value
    path.write_text(json.dumps(entry))


@pytest.fixture(scope="module")
def cold_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cold")
    return folder / "cache", run(folder / "cache")


@pytest.mark.parametrize("case", list(CASES))
def test_a_crafted_entry_is_recomputed_with_one_warning(case, cold_run, tmp_path):
    import shutil

    source, cold = cold_run
    cache = tmp_path / "cache"
    shutil.copytree(source, cache)
    path, entry = refit_entry(cache)
    CASES[case](path, entry, tmp_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rerun = run(cache)
    cache_warnings = [w for w in caught if issubclass(w.category, CacheWarning)]
    assert len(cache_warnings) == 1, [str(w.message) for w in caught]
    message = str(cache_warnings[0].message)
    assert repr(os.fspath(cache)) in message and "1 entry" in message
    assert rerun.cache_info_["computed"] == 1  # the crafted one, and nothing else
    np.testing.assert_array_equal(rerun.outer_scores_, cold.outer_scores_)
    for fold, cold_fold in zip(rerun.outer_results_, cold.outer_results_):
        np.testing.assert_array_equal(fold["test_scores"], cold_fold["test_scores"])
    # rewritten whole: the next run serves it without a word
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheWarning)
        assert run(cache).cache_info_["computed"] == 0
    if case == "hard link to /etc/passwd" and Path("/etc/passwd").exists():
        assert Path("/etc/passwd").read_text().startswith("root")  # never written through


def test_several_crafted_entries_give_one_warning_with_their_count(cold_run, tmp_path):
    import shutil

    source, _ = cold_run
    cache = tmp_path / "cache"
    shutil.copytree(source, cache)
    for path in entries(cache)[:3]:
        path.write_text("{")
    with pytest.warns(CacheWarning, match=r"^3 entries of the cache folder") as record:
        rerun = run(cache)
    warned = [w for w in record if issubclass(w.category, CacheWarning)]
    assert len(warned) == 1
    assert warned[0].filename == __file__  # the line that called fit, not the library's
    assert rerun.cache_info_["computed"] == 3


def test_a_missing_entry_is_no_warning(cold_run, tmp_path):
    import shutil

    source, _ = cold_run
    cache = tmp_path / "cache"
    shutil.copytree(source, cache)
    entries(cache)[0].unlink()
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheWarning)
        assert run(cache).cache_info_["computed"] == 1


def test_a_users_metric_of_unknown_range_accepts_any_finite_score(tmp_path):
    scorer = make_scorer(lambda t, p: 10.0 * float(np.mean(t == p)))
    kwargs = dict(outer_cv=3, inner_cv=2, n_refits=1, random_state=0, refit=False)

    def fit():
        return NestedCV(
            DecisionTreeClassifier(random_state=0),
            {"max_depth": [1, 2]},
            scoring=scorer,
            cache_dir=tmp_path,
            **kwargs,
        ).fit(X, y)

    cold = fit()
    assert cold.outer_scores_.max() > 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheWarning)
        assert fit().cache_info_["computed"] == 0


def _two_metrics(estimator, X, y):
    predicted = estimator.predict(X)
    return {"acc": float(np.mean(predicted == y)), "ones": float(np.mean(predicted == 1))}


@pytest.mark.parametrize("scoring", [None, "accuracy"])
def test_a_search_whose_callable_scoring_returns_a_dict_is_served_from_the_cache(tmp_path, scoring):
    # its selection entries hold the callable's keys ('acc', 'ones'), which the check
    # compared with the task's ('selection:score'): every one was refused, with a warning
    from sklearn.model_selection import GridSearchCV

    def fit():
        search = GridSearchCV(
            DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2]}, cv=2,
            scoring=_two_metrics, refit="acc",
        )  # fmt: skip
        return NestedCV(search, outer_cv=3, n_refits=1, scoring=scoring, refit=False,
                        cache_dir=tmp_path, random_state=0).fit(X, y)  # fmt: skip

    cold = fit()
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheWarning)
        warm = fit()
    assert warm.cache_info_["computed"] == 0
    np.testing.assert_array_equal(warm.outer_scores_, cold.outer_scores_)


@pytest.mark.parametrize(
    "name",
    [
        "accuracy",
        "balanced_accuracy",
        "f1",
        "roc_auc",
        "neg_log_loss",
        "neg_brier_score",
        "matthews_corrcoef",
        "kappa",
        "ppv",
        "sensitivity",
        "r2",
        "neg_mean_squared_error",
    ],
)
def test_score_ranges_hold_what_scikit_learn_computes(name):
    # the values scikit-learn's scorers give on many random problems lie within the range
    from sklearn.dummy import DummyClassifier, DummyRegressor
    from sklearn.linear_model import LinearRegression, LogisticRegression

    scorer = get_scorer(name)
    low, high = score_range(scorer)
    rng = np.random.default_rng(0)
    regression = name in ("r2", "neg_mean_squared_error")
    for trial in range(20):
        Xr = rng.normal(size=(30, 3))
        if regression:
            yr = rng.normal(size=30) * 10.0 ** rng.integers(-2, 3)
            models = [LinearRegression(), DummyRegressor()]
        else:
            yr = (rng.random(30) < 0.5).astype(int)
            models = [LogisticRegression(C=10.0**trial), DummyClassifier(strategy="stratified")]
        for model in models:
            model.fit(Xr[:20], yr[:20])
            value = scorer(model, Xr[20:], yr[20:])
            assert low <= value <= high, (name, value)


def _fifo(path):
    path.unlink()
    os.mkfifo(path)


def _folder_link(path, tmp_path):
    # the entry's two-letter folder replaced by a link to a folder elsewhere holding a copy
    elsewhere = tmp_path / "elsewhere"
    folder = path.parent
    folder.rename(elsewhere)
    os.symlink(elsewhere, folder)


@pytest.mark.parametrize("case", ["fifo", "folder", "folder link"])
def test_special_files_are_refused_without_blocking(case, cold_run, tmp_path):
    import shutil

    source, cold = cold_run
    cache = tmp_path / "cache"
    shutil.copytree(source, cache)
    path, _ = refit_entry(cache)
    if case == "fifo":
        _fifo(path)  # opening it for reading would wait for a writer forever
    elif case == "folder":
        path.unlink()
        path.mkdir()
    else:
        _folder_link(path, tmp_path)
    with pytest.warns(CacheWarning, match="failed their checks") as record:
        rerun = run(cache)
    np.testing.assert_array_equal(rerun.outer_scores_, cold.outer_scores_)
    assert rerun.cache_info_["computed"] >= 1
    if case == "folder link":  # nothing written through the link
        assert sorted(p.name for p in (tmp_path / "elsewhere").iterdir()) == sorted(
            p.name for p in (source / path.parent.name).iterdir()
        )
        assert any("symbolic link" in str(w.message) for w in record)


def _nan_on_some_splits(y_true, y_pred):
    """Accuracy, undefined (NaN, no error) on some validation splits, as kappa or MCC can be."""
    if len(y_true) == 20 and int(np.sum(y_pred)) % 3 == 0:
        return float("nan")
    return float(np.mean(y_true == y_pred))


def test_a_nan_score_is_recomputed_not_written_then_refused_as_suspect(tmp_path):
    # a run's own NaN scores were written, then refused by every re-run with a CacheWarning that
    # asks to audit the cache for forgery, and verify_cache failed on the untouched cache
    from sklearn.linear_model import LogisticRegression

    from sklearn_fair.exceptions import NonFiniteScoreWarning
    from sklearn_fair.model_selection import verify_cache

    def nested():
        return NestedCV(
            LogisticRegression(), {"C": [0.001, 0.01, 0.1, 1]}, outer_cv=3, inner_cv=2,
            random_state=0, scoring=make_scorer(_nan_on_some_splits), cache_dir=tmp_path,
        )  # fmt: skip

    runs = []
    for _ in range(2):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            runs.append(nested().fit(X, y))
        assert not [w for w in caught if issubclass(w.category, CacheWarning)]
        assert [w for w in caught if issubclass(w.category, NonFiniteScoreWarning)]
    np.testing.assert_array_equal(runs[0].outer_scores_, runs[1].outer_scores_)
    assert np.isnan(runs[0].cv_results_["split0_test_score"]).any()  # the case is exercised
    assert not any("NaN" in path.read_text() for path in tmp_path.glob("*/*.json"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert verify_cache(nested(), X, y, sample=1.0).ok


@pytest.mark.parametrize("n_jobs", [None, 2])
def test_the_fits_warnings_are_shown_once_computed_in_a_worker_or_read_from_the_cache(
    tmp_path, n_jobs
):
    # a ConvergenceWarning raised in a loky worker was lost, and a run served from the cache
    # showed none
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import LogisticRegression

    X, y = make_classification(n_samples=200, n_features=20, random_state=0)
    with pytest.warns(ConvergenceWarning) as reference:  # scikit-learn's own, outside NestedCV
        LogisticRegression(max_iter=2).fit(X, y)

    def converging(cache):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            model = NestedCV(
                LogisticRegression(max_iter=2), {"C": [0.01, 100.0]}, outer_cv=3, n_refits=1,
                random_state=0, refit=False, cache_dir=cache, n_jobs=n_jobs,
            ).fit(X, y)  # fmt: skip
        return model, [w for w in caught if w.category is ConvergenceWarning]

    _, computed = converging(tmp_path)
    served, cached = converging(tmp_path)
    assert served.cache_info_["computed"] == 0
    for shown in (computed, cached):
        messages = [str(w.message) for w in shown]
        assert str(reference[0].message) in messages
        assert len(messages) == len(set(messages))  # each once per run, not once per fit
        assert {w.filename for w in shown} == {reference[0].filename}  # at scikit-learn's line
    # a filter on the module that raised it applies to what is shown
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.filterwarnings("ignore", category=ConvergenceWarning, module=r"sklearn\.")
        NestedCV(
            LogisticRegression(max_iter=2), {"C": [0.01, 100.0]}, outer_cv=3, n_refits=1,
            random_state=0, refit=False, cache_dir=tmp_path, n_jobs=n_jobs,
        ).fit(X, y)  # fmt: skip
    assert not [w for w in caught if w.category is ConvergenceWarning]
    # a filter that turns the warning into an error still applies to the fits
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        failing = NestedCV(
            LogisticRegression(max_iter=2), {"C": [0.01, 100.0]}, outer_cv=3, n_refits=1,
            random_state=0, refit=False, error_score=np.nan,
        )  # fmt: skip
        with pytest.raises(ValueError, match="ConvergenceWarning"):
            failing.fit(X, y)


def test_a_result_larger_than_a_load_reads_is_not_written_and_said_once(tmp_path, monkeypatch):
    # written, it was refused by every later load ("failed their checks ... audit it"), which
    # blamed the cache for what the run itself had stored
    from sklearn_fair.model_selection._nested import _cache

    monkeypatch.setattr(_cache, "MAX_PREDICTIONS_ENTRY_BYTES", 512)  # a refit keeping 20 rows
    counts = []
    for _ in range(2):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            model = run(tmp_path, keep_predictions=True)
        said = [str(w.message) for w in caught if issubclass(w.category, CacheWarning)]
        assert len(said) == 1, said
        found = re.match(r"(\d+) results of this run were not stored in the cache folder", said[0])
        assert found and "computed again on every run" in said[0], said[0]
        counts.append((int(found[1]), model.cache_info_["computed"]))
    refits = [p for p in entries(tmp_path) if json.loads(p.read_text())["key"]["phase"] == "refit"]
    assert refits == []  # the selection's entries are written and served
    assert counts[1] == (counts[0][0], counts[0][0]) and counts[0][1] > counts[0][0] > 0


def test_a_benchmark_warns_once_with_the_count_of_all_its_cells(tmp_path):
    # each model and data set had its own warning, each with its own count ("1 entry", four
    # times for four broken entries), and the run's total was said nowhere
    from sklearn.datasets import load_iris, load_wine
    from sklearn.linear_model import LogisticRegression

    from sklearn_fair import benchmark

    models = {
        "tree": NestedCV(DecisionTreeClassifier(), {"max_depth": [1, 3]}, n_refits=1, refit=False),
        "lr": NestedCV(LogisticRegression(max_iter=2000), {"C": [0.1, 1.0]}, n_refits=1,
                       refit=False),
    }  # fmt: skip
    data = {"iris": load_iris(return_X_y=True), "wine": load_wine(return_X_y=True)}
    cold = benchmark(models, data, outer_cv=3, random_state=0, cache_dir=tmp_path)
    cells = {}
    for path in entries(tmp_path):
        cells.setdefault(json.dumps(json.loads(path.read_text())["key"]["context"]), path)
    assert len(cells) == 4  # one entry of each model on each data set is broken
    for path in cells.values():
        path.write_text("{")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rerun = benchmark(models, data, outer_cv=3, random_state=0, cache_dir=tmp_path)
    said = [str(w.message) for w in caught if issubclass(w.category, CacheWarning)]
    assert len(said) == 1 and said[0].startswith("4 entries of the cache folder"), said
    np.testing.assert_array_equal(rerun.scores.to_numpy(), cold.scores.to_numpy())
