"""``sklearn-fair run --dry-run``: fit counts checked against the fits a real run makes."""

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.model_selection import KFold, StratifiedKFold

from sklearn_fair.cli import main
from sklearn_fair.experiment import dry_run, run_experiment
from sklearn_fair.model_selection import save_splits

BASE = """\
[experiment]
progress = false
output_dir = "out"

[data]
dataset = "sklearn:iris"

[protocol]
PROTOCOL

[models.model]
ESTIMATOR
"""
FOREST = (
    "sklearn.ensemble.RandomForestClassifier",
    'estimator = "sklearn.ensemble.RandomForestClassifier"\n'
    "params = { n_estimators = 5 }\ngrid = { max_depth = [2, 4, 6] }",
)
# a random_state that changes nothing (lbfgs): each fold's first two refits show it
LOGREG = (
    "sklearn.linear_model.LogisticRegression",
    'estimator = "sklearn.linear_model.LogisticRegression"\n'
    "params = { max_iter = 200 }\ngrid = { C = [0.1, 1.0, 10.0] }",
)
# no random_state anywhere: NestedCV trains the selected candidate once per fold
KNN = (
    "sklearn.neighbors.KNeighborsClassifier",
    'estimator = "sklearn.neighbors.KNeighborsClassifier"\ngrid = { n_neighbors = [3, 5] }',
)


def _splits_with_two_inner_splits(path):
    X, y = load_iris(return_X_y=True)
    folds = []
    for train, test in StratifiedKFold(4, shuffle=True, random_state=0).split(X, y):
        inner = [
            (train[a], train[b]) for a, b in KFold(2, shuffle=True, random_state=1).split(train)
        ]
        folds.append((train, test, inner))
    save_splits(folds, path, y=y)
    return 'splits_file = "splits.json"\nn_refits = 2'


PROTOCOLS = {
    "kfold": lambda path: "outer_cv = 3\ninner_cv = 2\nn_refits = 2",
    "default inner hold-out": lambda path: "outer_cv = 4\nn_refits = 3",
    "multi-metric": lambda path: (
        'outer_cv = 3\ninner_cv = 3\nn_refits = 2\nscoring = ["accuracy", "f1_macro"]\n'
        'refit = "f1_macro"'
    ),
    "stored inner splits": _splits_with_two_inner_splits,
    "splitter tables": lambda path: (
        'outer_cv = { splitter = "sklearn.model_selection.ShuffleSplit", params = '
        "{ n_splits = 3, test_size = 0.2, random_state = 0 } }\n"
        'inner_cv = { splitter = "sklearn.model_selection.RepeatedKFold", params = '
        "{ n_splits = 2, n_repeats = 2, random_state = 0 } }\nn_refits = 2"
    ),
}


@pytest.mark.parametrize("protocol", sorted(PROTOCOLS))
@pytest.mark.parametrize(
    "model", [FOREST, LOGREG, KNN], ids=["seed-matters", "seed-inert", "deterministic"]
)
def test_counts_match_the_fits_of_a_real_run(tmp_path, monkeypatch, protocol, model):
    dotted, table = model
    text = BASE.replace("PROTOCOL", PROTOCOLS[protocol](tmp_path / "splits.json"))
    path = tmp_path / "e.toml"
    path.write_text(text.replace("ESTIMATOR", table))
    plan = dry_run(path, timing=False).plans["model"]

    # an independent count: every fit the estimator class receives in a real run
    module_name, _, name = dotted.rpartition(".")
    cls = getattr(__import__(module_name, fromlist=[name]), name)
    fits = []
    real_fit = cls.fit

    def recording_fit(self, X, y=None, **kwargs):
        fits.append(len(X))
        return real_fit(self, X, y, **kwargs)

    monkeypatch.setattr(cls, "fit", recording_fit)
    run_experiment(path, n_jobs=1)
    inert = model is LOGREG and plan.n_refits > 1
    # each fold's first two refits agree (lbfgs ignores its seed): it keeps those two
    assert len(fits) == (plan.min_total_fits if inert else plan.total_fits)
    assert plan.min_total_fits <= len(fits) <= plan.total_fits
    # and the fits are of the sizes the plan says
    refit_sizes = [n for n, _ in plan.outer] * (2 if inert else plan.n_refits)
    expected = sorted(
        [n for inner in plan.inner for n, _ in inner] * plan.n_candidates + refit_sizes
    )
    assert sorted(fits) == expected


def test_the_runner_fits_no_final_model(tmp_path):
    from sklearn_fair.exceptions import ExperimentConfigError

    path = tmp_path / "e.toml"
    path.write_text(BASE.replace("PROTOCOL", "refit = true").replace("ESTIMATOR", KNN[1]))
    with pytest.raises(ExperimentConfigError, match="key 'protocol.refit': the runner fits no"):
        dry_run(path, timing=False)


def test_dry_run_fits_almost_nothing_and_states_its_basis(tmp_path, monkeypatch):
    from sklearn.linear_model import LogisticRegression

    text = BASE.replace("PROTOCOL", "outer_cv = 5\ninner_cv = 3\nn_refits = 2")
    path = tmp_path / "e.toml"
    path.write_text(text.replace("ESTIMATOR", LOGREG[1]))
    fits = []
    real_fit = LogisticRegression.fit
    monkeypatch.setattr(
        LogisticRegression,
        "fit",
        lambda self, X, y, **k: fits.append(len(X)) or real_fit(self, X, y),
    )
    report = dry_run(path, n_jobs=4)
    # one warm-up on 16 rows, then each of the 3 candidates on the largest training size
    # (120 rows, reached at once) and on a quarter of it (a fixed cost per fit apart from the
    # cost per row), each up to 5 times (short fits: the mean is kept); the run makes 55
    assert sorted(set(fits)) == [16, 30, 120] and fits.count(16) == 1
    assert 3 <= fits.count(120) <= 3 * 5 and 3 <= fits.count(30) <= 3 * 5
    assert report.total_fits == 5 * 3 * 3 + 5 * 2
    estimate = report.estimates["model"]
    assert 0 < estimate.low <= estimate.seconds <= estimate.high
    assert "timed 3 of 3 candidates" in estimate.basis
    assert "up to 120 rows" in estimate.basis and "extrapolated to the 55 fits" in estimate.basis
    row = [line for line in report.text.splitlines() if line.startswith("model ")][1]
    # each fold trains two refits before it knows whether its seed matters: with n_refits=2
    # an inert seed saves nothing, so there is one count, not a range
    assert row.split() == ["model", "3", "3", "45", "10", "(5", "x", "2)", "55"]
    assert "wall at n_jobs=4" in report.text
    assert not (tmp_path / "out" / "models").exists()


def test_the_wall_time_at_n_jobs_minus_one_divides_by_every_core(tmp_path, monkeypatch):
    # -1 was counted as one worker (max(n_jobs, 1)): the wall time of every core as that of one
    import joblib

    from sklearn_fair.experiment._counting import _dryrun
    from sklearn_fair.experiment._counting._estimate import Estimate

    path = tmp_path / "e.toml"
    path.write_text(
        BASE.replace("PROTOCOL", "outer_cv = 3\nn_refits = 1").replace("ESTIMATOR", KNN[1])
    )
    cores = {-1: 8}
    real = joblib.effective_n_jobs
    monkeypatch.setattr(joblib, "effective_n_jobs", lambda n=-1: cores.get(n) or real(n))
    # an hour of one worker's compute (the estimate itself is tested above)
    hour = Estimate(3600.0, 3000.0, 4000.0, "a stand-in")
    monkeypatch.setattr(_dryrun, "estimate_compute", lambda *args, **kwargs: hour)
    report = dry_run(path, n_jobs=-1)
    assert "all models: 60.0 min (1 core-hours); about 7.5 min wall at n_jobs=-1" in report.text
    with pytest.raises(ValueError, match="'n_jobs' parameter of dry_run must be a non-zero"):
        dry_run(path, n_jobs=0)


def test_cli_dry_run(tmp_path, capsys):
    text = BASE.replace("PROTOCOL", "outer_cv = 3\nn_refits = 1")
    path = tmp_path / "e.toml"
    path.write_text(text.replace("ESTIMATOR", KNN[1]))
    assert main(["run", "--dry-run", "--no-timing", str(path)]) == 0
    output = capsys.readouterr().out
    assert "Total: 9 fits." in output and "Estimated compute" not in output
    assert main(["run", "--dry-run", str(path)]) == 0
    output = capsys.readouterr().out
    assert "Estimated compute" in output and "based on: timed 2 of 2 candidates" in output
    assert not (tmp_path / "out").exists()


def test_a_dry_run_leaves_the_users_numpy_stream_as_it_was(tmp_path):
    # the timing fits of a forest left unseeded drew from numpy's global RandomState: after
    # np.random.seed(0), the next draw was 0.812 after a dry run, 0.549 without one
    text = BASE.replace("PROTOCOL", "outer_cv = 3\ninner_cv = 2\nn_refits = 1")
    path = tmp_path / "e.toml"
    path.write_text(text.replace("ESTIMATOR", FOREST[1]))
    np.random.seed(0)
    expected = np.random.rand()
    np.random.seed(0)
    report = dry_run(path, n_timed=1, sample_size=16)
    assert report.estimates["model"].seconds is not None  # fits were timed
    assert np.random.rand() == expected
