"""The dry run tells what the run does: its fewest fits where a candidate's seed is the
user's, the task cache it finds, and what the run refuses before its first fit.

Each fit is recorded where it happens, by an estimator of a module written for the test (a
name of its own) that appends a line to a log file; the expected counts are worked out by
hand (outer folds x candidates x inner splits, plus the refits).
"""

import pytest

from sklearn_fair.cli import main
from sklearn_fair.exceptions import ExperimentConfigError
from sklearn_fair.experiment import dry_run, run_experiment

from ._fit_log import counted_experiment

COUNTER = """\
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.tree import DecisionTreeClassifier

LOG = LOG_PATH


class Counted(ClassifierMixin, BaseEstimator):
    # a tree that records each fit in LOG; its random_state changes its trees

    def __init__(self, max_depth=None, random_state=None):
        self.max_depth = max_depth
        self.random_state = random_state

    def fit(self, X, y):
        with open(LOG, "a") as f:
            f.write(str(len(X)) + chr(10))
        self.tree_ = DecisionTreeClassifier(
            max_depth=self.max_depth, max_features=0.5, random_state=self.random_state
        ).fit(X, y)
        self.classes_ = self.tree_.classes_
        return self

    def predict(self, X):
        return self.tree_.predict(X)


class Unseeded(Counted):
    # Counted without a random_state: nothing of it is seeded

    def __init__(self, max_depth=None):
        super().__init__(max_depth, random_state=0)

    def get_params(self, deep=True):
        return {"max_depth": self.max_depth}
"""

PROTOCOL = "outer_cv = 3\ninner_cv = 2\nn_refits = 3"


def _experiment(tmp_path, monkeypatch, models, experiment=""):
    """The experiment file, the fit log and the options that allow the counting module."""
    path, log, module = counted_experiment(
        tmp_path,
        monkeypatch,
        COUNTER,
        f'[experiment]\nprogress = false\noutput_dir = "out"\nrandom_state = 0\n{experiment}\n'
        f'[data]\ndataset = "sklearn:iris"\n\n[protocol]\n{PROTOCOL}\n\n{models}',
    )
    return path, log, {"allowed_packages": (module,)}


def _fits(log):
    return len(log.read_text().splitlines()) if log.exists() else 0


# a candidate seeded by the user (depth 3: it wins every fold of iris) and one left unseeded
# (depth 1: a stump, which loses)
MIXED = (
    'estimator = "MODULE.Counted"\n'
    "grid = [ { max_depth = [3], random_state = [7] }, { max_depth = [1] } ]\n"
)


def test_a_candidate_with_the_users_seed_refits_once_per_fold(tmp_path, monkeypatch):
    path, log, options = _experiment(tmp_path, monkeypatch, "[models.tree]\n" + MIXED)
    report = dry_run(path, timing=False, **options)
    run_experiment(path, **options)
    # by hand: 3 folds x 2 candidates x 2 inner splits, and the seeded winner's refits, one
    # task per fold (its three seeds set nothing), or 3 x 3 where the stump wins
    assert (report.min_total_fits, report.total_fits) == (12 + 3, 12 + 9)
    assert report.plans["tree"].min_refits == 3
    assert _fits(log) == 12 + 3


def test_two_models_sharing_the_seeded_candidate_count_its_refits_once(tmp_path, monkeypatch):
    models = "[models.tree]\n" + MIXED + "\n[models.same]\n" + MIXED
    path, log, options = _experiment(tmp_path, monkeypatch, models)
    report = dry_run(path, timing=False, **options)
    run_experiment(path, **options)
    # the second model's tasks are the first's: 12 selection fits and one refit per fold
    assert report.min_total_fits == _fits(log) == 12 + 3


def test_the_dry_run_finds_the_fits_in_the_task_cache(tmp_path, monkeypatch):
    models = '[models.tree]\nestimator = "MODULE.Unseeded"\ngrid = { max_depth = GRID }\n'
    path, log, options = _experiment(tmp_path, monkeypatch, models.replace("GRID", "[1, 2]"))
    run_experiment(path, **options)
    path.write_text(path.read_text().replace("[1, 2]", "[1, 2, 3]"))
    report = dry_run(path, timing=True, n_timed=1, sample_size=16, **options)
    log.unlink()
    run_experiment(path, **options)
    # 3 x 3 x 2 + 3 (nothing seeded: one refit per fold), of which the 3 x 2 x 2 selection
    # fits of depths 1 and 2; a fold's refit is cached where it selects one of them again
    maybe = sum(found.maybe_refits for found in report.cached.values())
    assert (report.total_fits, report.cached_fits, maybe) == (21, 12, 3)
    assert 21 - 12 - 3 <= _fits(log) <= 21 - 12
    assert "12 of them already in the cache at" in report.text
    basis = report.estimates["tree"].basis
    assert "extrapolated to the 9 fits not in the task cache" in basis

    # every fit of the run now cached: the run fits nothing, and the dry run says that every
    # selection fit and at most the refits are left
    report = dry_run(path, timing=False, **options)
    log.unlink(missing_ok=True)
    run_experiment(path, **options)
    maybe = sum(found.maybe_refits for found in report.cached.values())
    assert _fits(log) == 0
    assert report.cached_fits == 18 and report.cached_fits + maybe == 21


@pytest.mark.parametrize("cache_dir", ["cachefile", "cachefile/below"])
def test_a_cache_dir_in_the_way_stops_the_dry_run_as_the_run(tmp_path, monkeypatch, cache_dir):
    models = '[models.tree]\nestimator = "MODULE.Unseeded"\ngrid = { max_depth = [1, 2] }\n'
    experiment = f'cache_dir = "{cache_dir}"\n'
    path, log, options = _experiment(tmp_path, monkeypatch, models, experiment)
    (tmp_path / "cachefile").write_text("not a folder")
    with pytest.raises(ExperimentConfigError, match="cannot be written") as dry:
        dry_run(path, timing=False, **options)
    with pytest.raises(ExperimentConfigError, match="cannot be written") as run:
        run_experiment(path, **options)
    assert str(dry.value) == str(run.value)
    assert "cachefile" in str(dry.value) and "a regular file" in str(dry.value)
    assert _fits(log) == 0


def test_a_cache_dir_under_a_folder_that_cannot_be_searched_is_refused(tmp_path, monkeypatch):
    # a PermissionError on the way (a folder of mode 700 of another user) was a traceback
    import os

    from sklearn_fair.experiment._running import _inputs

    models = '[models.tree]\nestimator = "MODULE.Unseeded"\ngrid = { max_depth = [1, 2] }\n'
    path, log, options = _experiment(tmp_path, monkeypatch, models, 'cache_dir = "locked/c"\n')
    real_stat = os.stat

    def stat(where, *args, **kwargs):
        if "locked" in os.fspath(where):
            raise PermissionError(13, "Permission denied", os.fspath(where))
        return real_stat(where, *args, **kwargs)

    monkeypatch.setattr(_inputs.os, "stat", stat)
    refused = r"cannot be written: .*locked.* cannot be read"
    with pytest.raises(ExperimentConfigError, match=refused):
        dry_run(path, timing=False, **options)
    with pytest.raises(ExperimentConfigError, match="cannot be read"):
        run_experiment(path, **options)
    assert _fits(log) == 0


def test_a_cache_dir_still_to_make_is_taken(tmp_path, monkeypatch):
    models = '[models.tree]\nestimator = "MODULE.Unseeded"\ngrid = { max_depth = [1, 2] }\n'
    path, log, options = _experiment(tmp_path, monkeypatch, models, 'cache_dir = "a/b"\n')
    assert dry_run(path, timing=False, **options).total_fits == 3 * 2 * 2 + 3
    assert not (tmp_path / "a").exists()  # the dry run writes nothing


def test_a_dask_scheduler_without_dask_stops_the_dry_run_as_the_run(tmp_path, monkeypatch, capsys):
    models = '[models.tree]\nestimator = "MODULE.Unseeded"\ngrid = { max_depth = [1, 2] }\n'
    path, log, options = _experiment(tmp_path, monkeypatch, models)
    package = options["allowed_packages"][0]
    command = ["run", str(path), "--allow-package", package]
    scheduler = ["--dask-scheduler", "tcp://127.0.0.1:1"]
    assert main([*command, "--dry-run", "--no-timing", *scheduler]) == 2
    dry = capsys.readouterr().err
    assert main([*command, *scheduler]) == 2
    assert capsys.readouterr().err == dry
    assert "is for the dask backend, and the backend is 'loky'" in dry
    assert _fits(log) == 0
