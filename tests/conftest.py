"""Shared fixtures: where the real data sets live, temp copies of them, and scikit-learn's
metadata routing switched on for one test.

The data directory is ``$SKLEARN_FAIR_DATA``; by default ``../shared/data``
beside the repository root (the layout of the developers' machines and CI).
Tests that need it skip, with a reason naming ``SKLEARN_FAIR_DATA``, when it is missing, so
that a fresh clone passes its tests; with ``SKLEARN_FAIR_REQUIRE_DATA=1`` (``.ci/run`` sets it)
they fail instead: on CI every one of them runs. With ``SKLEARN_FAIR_NO_SKIPS=1`` (``.ci/run``
sets it too) a test that skips for any other reason fails the run.
"""

import faulthandler
import os
import shutil
import sys
import threading
import time
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]


def shared_data_dir():
    return Path(os.environ.get("SKLEARN_FAIR_DATA", REPO_ROOT.parent / "shared" / "data"))


@pytest.fixture(scope="session")
def data_dir():
    """The read-only folder of real data sets (TUDataset, split files, tabular)."""
    path = shared_data_dir()
    if not path.is_dir():
        message = (
            f"Data folder {path} not found; set SKLEARN_FAIR_DATA to the folder that holds "
            "TUDataset/, gnn_comparison_splits/ and tabular/"
        )
        if os.environ.get("SKLEARN_FAIR_REQUIRE_DATA") == "1":
            pytest.fail(f"{message} (SKLEARN_FAIR_REQUIRE_DATA=1: required, as on CI).")
        pytest.skip(f"{message}.")
    return path


@pytest.fixture(scope="session")
def tu_root(data_dir, tmp_path_factory):
    """Return a function ``name -> root`` giving a writable copy of TUDataset/NAME.

    PyG's TUDataset writes a ``processed/`` folder beside ``raw/``, so tests
    never point it at the read-only shared folder. Copies are made once per
    session and reused.
    """
    root = tmp_path_factory.mktemp("TUDataset")

    def copy(name):
        target = root / name
        if not target.exists():
            shutil.copytree(data_dir / "TUDataset" / name, target)
        return root

    return copy


# -- a run that ends -------------------------------------------------------------------------
# Once the last test has reported, the interpreter still joins what the tests left behind
# (non-daemon threads, executors' threads and worker processes) before it exits. Should any of
# them never end, the run would hang after its summary (CI's time limit would then end it, with
# no word of why): past EXIT_GRACE_S seconds, this prints every thread's stack and the
# processes still alive, and exits with the run's status.
EXIT_GRACE_S = 120
_exit_status = {"value": 1}


@pytest.fixture
def routing():
    """scikit-learn's metadata routing on for the test, off again after it."""
    import sklearn

    with sklearn.config_context(enable_metadata_routing=True):
        yield


def pytest_sessionfinish(session, exitstatus):
    # on CI (.ci/run sets SKLEARN_FAIR_NO_SKIPS=1) every test runs: one that skipped, for a
    # package missing from the test extra or any other reason, fails the run, named
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter is not None else []
    if os.environ.get("SKLEARN_FAIR_NO_SKIPS") == "1" and skipped and exitstatus == 0:
        named = {}  # a module skipped at collection is reported twice with --doctest-modules
        for report in skipped:
            reason = report.longrepr[-1] if isinstance(report.longrepr, tuple) else ""
            named.setdefault(report.nodeid, reason)
        for nodeid, reason in named.items():
            reporter.write_line(f"skipped where every test must run: {nodeid}: {reason}")
        session.exitstatus = exitstatus = pytest.ExitCode.TESTS_FAILED
    _exit_status["value"] = int(exitstatus)


def pytest_unconfigure(config):
    def end_a_hung_exit():
        time.sleep(EXIT_GRACE_S)
        sys.stderr.write(
            f"\ntests/conftest.py: the test process had not exited {EXIT_GRACE_S} s after its "
            "last test; its threads and child processes, then an exit with the run's status:\n"
        )
        faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
        for child in _child_processes(os.getpid()):
            sys.stderr.write(f"  child process {child}\n")
        sys.stderr.flush()
        os._exit(_exit_status["value"])

    threading.Thread(target=end_a_hung_exit, name="exit-watchdog", daemon=True).start()


def _child_processes(pid):
    """``pid: command line`` of the live children of ``pid`` (Linux; none elsewhere)."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []
    lines = []
    for child in children:
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        lines.append(f"{child}: {command.decode(errors='replace')[:200]}")
    return lines
