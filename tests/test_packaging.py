"""Package metadata: PEP 639 license fields, and extras that keep developer tools apart."""

import re
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    tomllib = pytest.importorskip("tomli")

PYPROJECT = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())
PROJECT = PYPROJECT["project"]
DEV_TOOLS = {"pytest", "pytest-timeout", "hypothesis", "ruff", "sphinx", "numpydoc"}


def _names(requirements):
    return {re.split(r"[\s<>=!~;\[]", r, maxsplit=1)[0].lower() for r in requirements}


def _expand(extra, seen=()):
    """The distributions an extra installs, its self-references (sklearn-fair[a,b]) followed."""
    names = set()
    for requirement in PROJECT["optional-dependencies"][extra]:
        inner = re.fullmatch(r"sklearn-fair\[([^\]]+)\]", requirement)
        if inner:
            for other in inner.group(1).split(","):
                if other not in seen:
                    names |= _expand(other.strip(), (*seen, extra))
        else:
            names |= _names([requirement])
    return names


def test_license_is_a_pep_639_expression_with_its_file():
    # a table ({text = ...}) and a License classifier make setuptools warn at every install
    assert PROJECT["license"] == "BSD-3-Clause"
    assert PROJECT["license-files"] == ["LICENSE"]
    assert not [c for c in PROJECT.get("classifiers", []) if c.startswith("License ::")]
    backend = " ".join(PYPROJECT["build-system"]["requires"])
    version = re.search(r"setuptools>=(\d+)", backend)
    assert version and int(version.group(1)) >= 77  # the first setuptools that reads PEP 639


def test_the_all_extra_has_no_developer_tools():
    assert _expand("all") & DEV_TOOLS == set()
    assert {"matplotlib", "torch-geometric", "skorch", "dask"} <= _expand("all")
    assert {"pytest", "hypothesis", "sphinx", "statsmodels"} <= _expand("test")
    assert _expand("test") | {"ruff"} <= _expand("dev")


def test_the_test_command_installs_what_the_tests_need():
    script = (Path(__file__).resolve().parents[1] / "tools" / "test.sh").read_text()
    assert '-e ".[all,dev]"' in script
    assert "apt-get install -y -qq chromium" in script and "[ ! -x /usr/bin/chromium ]" in script
    assert "export SKLEARN_FAIR_REQUIRE_BROWSER=1" in script


def test_a_plain_install_has_what_reports_of_several_models_and_the_runner_need():
    # without pandas, `pip install sklearn-fair` printed no report of two models (ImportError
    # naming BenchmarkResult) and `sklearn-fair run` of two models exited 1 after every fit,
    # writing no report.md, report.html or reproducibility.json
    assert "pandas" in _names(PROJECT["dependencies"])
    assert "torch" not in _names(PROJECT["dependencies"])
