"""On CI every test runs: with SKLEARN_FAIR_NO_SKIPS=1 (``.ci/run``), a skipped test fails the
run, named with its reason (tests/conftest.py), whatever made it skip."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

CONFTEST = Path(__file__).with_name("conftest.py")
PROBE = """
import pytest

def test_runs():
    assert True

def test_needs_a_missing_package():
    pytest.importorskip("a_package_that_is_not_installed")
"""


def _run(tmp_path, no_skips, body=PROBE):
    # the probe's conftest takes the hook from this repository's conftest, by path
    (tmp_path / "conftest.py").write_text(
        "import importlib.util\n"
        f"spec = importlib.util.spec_from_file_location('repo_conftest', {str(CONFTEST)!r})\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(module)\n"
        "pytest_sessionfinish = module.pytest_sessionfinish\n"
    )
    (tmp_path / "test_probe.py").write_text(body)
    env = {k: v for k, v in os.environ.items() if k != "SKLEARN_FAIR_NO_SKIPS"}
    if no_skips:
        env["SKLEARN_FAIR_NO_SKIPS"] = "1"
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-c", os.devnull,
               "--rootdir", str(tmp_path), str(tmp_path / "test_probe.py")]  # fmt: skip
    return subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True)


@pytest.mark.parametrize("no_skips", [False, True])
def test_a_skipped_test_fails_the_run_only_where_every_test_must_run(tmp_path, no_skips):
    done = _run(tmp_path, no_skips)
    assert "1 passed, 1 skipped" in done.stdout, done.stdout
    assert done.returncode == (1 if no_skips else 0), done.stdout
    named = [
        line
        for line in done.stdout.splitlines()
        if line.startswith("skipped where every test must run: ")
    ]
    assert len(named) == (1 if no_skips else 0), done.stdout
    if no_skips:  # the test, and why it skipped
        assert "test_probe.py::test_needs_a_missing_package: " in named[0]
        assert "could not import 'a_package_that_is_not_installed'" in named[0]


def test_a_run_without_skips_passes_where_every_test_must_run(tmp_path):
    done = _run(tmp_path, True, body="def test_runs():\n    assert True\n")
    assert done.returncode == 0, done.stdout
    assert "skipped where every test must run" not in done.stdout
