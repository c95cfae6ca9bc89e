"""The documentation builds without warnings (the command documented in docs/index.rst)."""

import subprocess
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"


@pytest.mark.timeout(300)
def test_docs_build_without_warnings(tmp_path):
    pytest.importorskip("sphinx")
    pytest.importorskip("numpydoc")
    out = tmp_path / "html"
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html"]
    process = subprocess.run(
        [*command, "-d", str(tmp_path / "doctrees"), str(DOCS), str(out)],
        capture_output=True,
        text=True,
    )
    assert process.returncode == 0, process.stdout + process.stderr
    for page in (
        "index",
        "getting_started",
        "api",
        "reproduction",
        "guide/index",
        "guide/nested_cv",
        "guide/reports",
        "guide/experiments",
    ):
        assert (out / f"{page}.html").is_file(), page
    api = (out / "api.html").read_text(encoding="utf-8")
    for name in ("NestedCV", "nested_cv_report", "run_experiment", "bootstrap_ci"):
        assert name in api
    guide = (out / "guide" / "index.html").read_text(encoding="utf-8")
    for page in sorted((DOCS / "guide").glob("*.rst")):
        assert f"{page.stem}.html" in guide, f"guide/{page.name} is not in the toctree"
