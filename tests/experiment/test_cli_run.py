"""``sklearn-fair run`` (issue 33, items 2 and 7): failed fits change the exit status, the dry
run checks every candidate with its estimator's own constraints before timing anything, None is
written ``{ none = true }``, and Ctrl-C ends with one line that says how to resume."""

import json
import os
import shlex
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest
from sklearn.exceptions import FitFailedWarning
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair.cli import main

HEAD = """\
[experiment]
progress = false
output_dir = "out"

[data]
dataset = "sklearn:iris"

[protocol]
outer_cv = 3
n_refits = 1

[models.model]
"""


def write(tmp_path, model):
    path = tmp_path / "e.toml"
    path.write_text(HEAD + model)
    return path


def test_failed_fits_make_the_exit_status_1_unless_allowed(tmp_path, capsys):
    # one candidate's priors are of 2 classes: each of its fits fails on iris's 3
    model = (
        'estimator = "sklearn.naive_bayes.GaussianNB"\n'
        "grid = { priors = [[0.3, 0.3, 0.4], [0.5, 0.5]] }"
    )
    path = write(tmp_path, model)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert main(["run", str(path)]) == 1
    # said once, by the run: not also as FitFailedWarning's tracebacks
    assert not [w for w in caught if w.category is FitFailedWarning]
    err = capsys.readouterr().err
    assert "3 fit(s) failed in 1 model(s) on 1 data set(s)" in err
    assert "the first: model 'model'" in err
    assert "outer fold 0 (selection)" in err and "priors" in err
    assert "Pass --allow-failures" in err
    assert main(["run", str(path), "--allow-failures"]) == 0
    assert "3 fit(s) failed" in capsys.readouterr().err  # still said
    saved = json.loads((tmp_path / "out" / "models" / "model.json").read_text())
    assert [f["outer_fold"] for f in saved["failed_fits"]] == [0, 1, 2]


def test_the_failures_line_counts_models_and_data_sets_apart(tmp_path, capsys):
    # "6 fit(s) failed in 2 model(s)" for one model failing on two data sets
    model = (
        'estimator = "sklearn.naive_bayes.GaussianNB"\n'
        "grid = { priors = [[0.3, 0.3, 0.4], [0.5, 0.5]] }\n"
        '[models.prior]\nestimator = "sklearn.dummy.DummyClassifier"\n'
    )
    path = write(tmp_path, model)
    two = path.read_text().replace(
        '[data]\ndataset = "sklearn:iris"',
        '[data.iris]\ndataset = "sklearn:iris"\n[data.wine]\ndataset = "sklearn:wine"',
    )
    path.write_text(two)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(["run", str(path)]) == 1
    assert "6 fit(s) failed in 1 model(s) on 2 data set(s)" in capsys.readouterr().err


@pytest.mark.parametrize("working", [1, 0], ids=["one model complete", "none"])
def test_a_model_failing_in_every_fold_is_accepted_with_allow_failures(tmp_path, capsys, working):
    # the plots of the complete models were drawn whatever their number: with one, the
    # comparison plot failed (compare takes two results), with none, the fold scores and
    # optimism plots; each became "not written: plots/...", and the exit status 1
    failing = 'estimator = "sklearn.naive_bayes.GaussianNB"\nparams = { priors = [0.5, 0.5] }\n'
    prior = "[models.prior]\n" + (
        'estimator = "sklearn.dummy.DummyClassifier"\n' if working else failing
    )
    path = write(tmp_path, failing + prior)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(["run", str(path)]) == 1
        capsys.readouterr()
        assert main(["run", str(path), "--allow-failures"]) == 0
    err = capsys.readouterr().err
    assert "not written" not in err and "fit(s) failed in" in err
    plots = {p.name for p in (tmp_path / "out" / "plots").iterdir()}
    assert {f"{name}.png" for name in ("comparison", "fold_scores", "optimism")} <= plots


def test_a_model_failing_on_every_data_set_is_accepted_with_allow_failures(tmp_path, capsys):
    # no data set had every model's scores, so "not written: aggregate.csv: ValueError:
    # aggregate needs a data set where every model has every fold's score" made it exit 1
    failing = 'estimator = "sklearn.naive_bayes.GaussianNB"\nparams = { priors = [0.5, 0.5] }\n'
    path = write(
        tmp_path, failing + '[models.prior]\nestimator = "sklearn.dummy.DummyClassifier"\n'
    )
    path.write_text(
        path.read_text().replace(
            '[data]\ndataset = "sklearn:iris"',
            '[data.iris]\ndataset = "sklearn:iris"\n[data.wine]\ndataset = "sklearn:wine"',
        )
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(["run", str(path), "--allow-failures"]) == 0
    err = capsys.readouterr().err
    assert "not written" not in err and "6 fit(s) failed in 1 model(s) on 2 data set(s)" in err
    assert not (tmp_path / "out" / "aggregate.csv").exists()
    assert (tmp_path / "out" / "scores.csv").exists()


@pytest.mark.parametrize("spelling", ['"None"', '"none"'])
def test_the_dry_run_checks_every_candidate_before_timing_and_none_is_written(
    tmp_path, capsys, monkeypatch, spelling
):
    fits = []
    real = DecisionTreeClassifier.fit
    monkeypatch.setattr(
        DecisionTreeClassifier, "fit", lambda self, *a, **k: fits.append(1) or real(self, *a, **k)
    )
    tree = 'estimator = "sklearn.tree.DecisionTreeClassifier"\n'
    model = tree + f"grid = {{ max_depth = [{spelling}, 4] }}"
    path = write(tmp_path, model)
    assert main(["run", str(path), "--dry-run"]) == 2
    err = capsys.readouterr().err
    assert "key 'models.model.grid': candidate 0" in err
    assert "The 'max_depth' parameter of DecisionTreeClassifier must be" in err
    assert "TOML has no None: write it { none = true }" in err
    assert fits == []  # refused before any timing fit
    path.write_text(path.read_text().replace(spelling, "{ none = true }"))
    assert main(["run", str(path), "--dry-run", "--no-timing"]) == 0
    assert "Total: 9 fits." in capsys.readouterr().out  # 3 folds x 2 candidates, 3 refits
    assert main(["run", str(path)]) == 0
    saved = json.loads((tmp_path / "out" / "models" / "model.json").read_text())
    assert {f["best_params"]["max_depth"] for f in saved["result"]["outer_results"]} <= {None, 4}


SLOW = """\
import time
from pathlib import Path

from sklearn.dummy import DummyClassifier


class SlowClassifier(DummyClassifier):
    def fit(self, X, y, sample_weight=None):
        time.sleep(0.4)
        hold = Path(__file__).with_name("hold")  # names a cache folder: wait once it has 2
        while hold.exists() and len(list(Path(hold.read_text()).glob("*/*.json"))) >= 2:
            time.sleep(0.05)
        return super().fit(X, y, sample_weight)
"""


def _default_sigint():
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_ctrl_c_ends_with_one_line_and_the_same_command_resumes(tmp_path):
    (tmp_path / "slow.py").write_text(SLOW)
    path = write(
        tmp_path, 'estimator = "slow.SlowClassifier"\ngrid = { strategy = ["prior", "uniform"] }'
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    command = [sys.executable, "-m", "sklearn_fair", "run", str(path), "--allow-package", "slow"]
    cache = tmp_path / "out" / "cache"
    # the fits after the first two wait for the interrupt, however loaded the machine is (a
    # file the fit reads is not part of the cache key, as a global it reads would be)
    (tmp_path / "hold").write_text(str(cache))
    # Ctrl-C as a terminal delivers it: a shell's background job (CI run with '&') starts
    # with SIGINT ignored, which the child would inherit
    child = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, preexec_fn=_default_sigint)  # fmt: skip
    deadline = time.monotonic() + 120
    while len(list(cache.glob("*/*.json"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=120)
    assert child.returncode == 130, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    cached = len(list(cache.glob("*/*.json")))
    assert f"interrupted; {cache} holds {cached} fits cached since the run started" in lines[0]
    # the hint is the command, its options too (it dropped --allow-package slow)
    assert shlex.split(lines[0].partition("Resume with: ")[2]) == ["sklearn-fair", *command[3:]]
    # the same command resumes: only the missing fits are computed (9 in all)
    (tmp_path / "hold").unlink()
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert len(list(cache.glob("*/*.json"))) == 9
    saved = json.loads((tmp_path / "out" / "models" / "model.json").read_text())
    assert len(saved["result"]["outer_results"]) == 3 and Path(cache).is_dir()


def test_the_resume_hint_is_the_command_with_its_options(tmp_path, monkeypatch, capsys):
    # it was "sklearn-fair run FILE": following it after a run with --output-dir elsewhere
    # recomputed every fit in the file's own results folder
    from sklearn_fair import experiment
    from sklearn_fair.experiment._running._runner import Interrupted

    def interrupted(*args, **kwargs):
        raise Interrupted(tmp_path / "my results" / "cache", 7)

    monkeypatch.setattr(experiment, "run_experiment", interrupted)
    argv = ["run", str(tmp_path / "e.toml"), "--output-dir", str(tmp_path / "my results"),
            "--limit", "refits=200", "--n-jobs", "2"]  # fmt: skip
    assert main(argv) == 130
    err = capsys.readouterr().err
    assert "holds 7 fits cached since the run started" in err
    hint = err.strip().partition("Resume with: ")[2]
    assert shlex.split(hint) == ["sklearn-fair", *argv]


def test_a_warning_is_shown_without_the_location_of_the_commands_entry_point(tmp_path):
    # so little shrinkage that every candidate predicts the prior: the SelectionTieWarning
    # points at its caller, here runpy's frame ("<frozen runpy>:88: ..." before)
    path = write(tmp_path, 'estimator = "sklearn.linear_model.LogisticRegression"\n'
                           "grid = { C = [0.000001, 0.00001, 0.0001] }")  # fmt: skip
    command = [sys.executable, "-m", "sklearn_fair", "run", str(path)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("sklearn-fair: SelectionTieWarning: In 3 of the 3 outer folds")
    assert "runpy" not in done.stderr, done.stderr


def test_main_called_where_the_command_is_not_a_file_shows_its_warnings(tmp_path):
    # python -c (sys.argv[0] == "-c"), a REPL (""): the file of a warning raised in
    # scikit-learn (ConvergenceWarning) was compared with it by os.path.samefile, which raised
    # FileNotFoundError and ended the run
    path = write(tmp_path, 'estimator = "sklearn.linear_model.LogisticRegression"\n'
                           "params = { max_iter = 1 }")  # fmt: skip
    code = f"import sys; from sklearn_fair.cli import main; sys.exit(main(['run', {str(path)!r}]))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "ConvergenceWarning" in done.stderr
    assert (tmp_path / "out" / "report.md").is_file()
