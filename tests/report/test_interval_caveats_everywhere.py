"""The corrected resampled t's caveats (time-ordered folds, training sets that repeat rows)
are said wherever its interval is given: NestedCV.summary, stats.compare and the report did;
BenchmarkResult.compare_to and the experiment runner's summary.csv gave the interval alone."""

import csv
import warnings

import numpy as np
import pytest
from sklearn.dummy import DummyRegressor
from sklearn.linear_model import Ridge
from sklearn.model_selection import KFold

from sklearn_fair import benchmark
from sklearn_fair.exceptions import SklearnFairWarning
from sklearn_fair.model_selection import RollingOrigin
from sklearn_fair.stats._interval import TIME_ORDERED_NOTE

rng = np.random.default_rng(0)
X = rng.normal(size=(80, 3))
y = X @ np.array([1.0, -0.5, 0.2]) + rng.normal(scale=0.5, size=80)
MODELS = {"ridge": (Ridge(), {"alpha": [0.1, 10.0]}), "mean": DummyRegressor()}


def _benchmark(outer_cv):
    return benchmark(MODELS, {"series": (X, y)}, outer_cv=outer_cv, n_refits=1, random_state=0,
                     scoring="neg_mean_absolute_error", baseline="mean")  # fmt: skip


def test_compare_to_on_time_ordered_folds_says_what_its_interval_assumes():
    result = _benchmark(RollingOrigin(initial=40, assess=10, skip=9))
    with pytest.warns(SklearnFairWarning, match="time-ordered") as record:
        frame = result.compare_to()
    said = [str(w.message) for w in record if "time-ordered" in str(w.message)]
    assert said == [f"compare_to's intervals and p-values on 'series': {TIME_ORDERED_NOTE}."]
    assert np.isfinite(frame["ci_low"]).all()  # the interval is given, with its caveat
    with warnings.catch_warnings():
        warnings.simplefilter("error", SklearnFairWarning)
        _benchmark(KFold(4, shuffle=True, random_state=0)).compare_to()


def test_the_runners_summary_says_what_its_interval_assumes(tmp_path):
    from sklearn_fair.experiment import run_experiment

    (tmp_path / "ro.toml").write_text(
        '[experiment]\nname = "ro"\nrandom_state = 0\nprogress = false\noutput_dir = "out"\n\n'
        '[data]\ndataset = "sklearn:diabetes"\n\n[protocol]\nouter_cv = { splitter = '
        '"sklearn_fair.model_selection.RollingOrigin", params = { initial = 300, assess = 40, '
        'skip = 39 } }\nn_refits = 1\nscoring = "neg_mean_absolute_error"\n\n[models.ridge]\n'
        'estimator = "sklearn.linear_model.Ridge"\ngrid = { alpha = [0.1, 10.0] }\n'
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run_experiment(tmp_path / "ro.toml")
    with open(tmp_path / "out" / "summary.csv", newline="") as file:
        rows = list(csv.DictReader(file))
    assert [row["ci_method"][:22] for row in rows] == ["corrected resampled t "]
    assert rows[0]["ci_note"] == TIME_ORDERED_NOTE
