"""The install instructions that errors give are the README's "Set up" block, and they work.

sklearn-fair is not on PyPI: an error that said ``pip install sklearn-fair[graph]`` would send
the user to a package that does not exist, and one that skipped "PyTorch first" would let pip
pull a multi-GB CUDA build.
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from sklearn_fair.exceptions import ExperimentConfigError
from sklearn_fair.utils import install_hint
from sklearn_fair.utils._install import TORCH_CPU_INDEX, TORCH_INSTALL, extra_install

ROOT = Path(__file__).resolve().parents[1]


def _set_up_block():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Set up") :]
    return section[: section.index("```", section.index("```bash") + 3)]


def _extras():
    """pyproject.toml's extras: name -> requirements (read by regex: no tomllib on 3.10)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    table = text[text.index("[project.optional-dependencies]") :]
    table = table[: table.index("\n[", 1)]
    return {
        name: re.findall(r'"([^"]+)"', body)
        for name, body in re.findall(r"(?m)^(\w+) = \[(.*?)\]$", table, flags=re.S)
    }


def test_the_hints_are_the_readme_commands():
    block = _set_up_block()
    assert f".venv/bin/{TORCH_INSTALL}" in block
    assert TORCH_CPU_INDEX in block
    for extra in ("plot", "graph", "dask", "all"):
        assert f".venv/bin/{extra_install(extra)}" in block, extra
    # torch comes before the extra that needs it, in the README and in the hint
    assert block.index(TORCH_INSTALL) < block.index(extra_install("graph"))
    hint = install_hint("graph")
    assert hint.index(TORCH_INSTALL) < hint.index(extra_install("graph"))
    assert TORCH_CPU_INDEX in hint
    assert TORCH_INSTALL not in install_hint("plot")


def test_every_hinted_extra_exists_and_the_torch_pin_satisfies_the_graph_extra():
    from packaging.requirements import Requirement

    extras = _extras()
    for extra in ("graph", "plot", "dask", "benchmark", "stats", "all"):
        assert extra in extras
        assert f'".[{extra}]"' in install_hint(extra)
    torch = next(Requirement(r) for r in extras["graph"] if r.startswith("torch>"))
    pinned = re.search(r'torch==([\d.]+)"', TORCH_INSTALL).group(1)
    assert torch.specifier.contains(pinned)


def test_the_graph_package_without_torch_says_how_to_install_it():
    code = (  # a finder that has no torch (sys.modules['torch'] = None trips up scipy)
        "import sys\n"
        "class NoTorch:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] == 'torch':\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "sys.meta_path.insert(0, NoTorch())\n"
        "import sklearn_fair\n"
        "import sklearn_fair.graph\n"
    )
    process = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert process.returncode != 0
    last = process.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: sklearn_fair.graph needs PyTorch")
    assert "'torch' is missing" in last
    assert TORCH_INSTALL in last and TORCH_CPU_INDEX in last
    assert last.index(TORCH_INSTALL) < last.index('pip install -e ".[graph]"')
    assert "pip install sklearn-fair" not in last


def test_the_runner_without_dask_says_how_to_install_it(monkeypatch):
    from sklearn_fair.experiment._running._runner import _backend

    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(ExperimentConfigError, match="dask.distributed") as error:
        with _backend("dask", 1, None):
            pass
    assert 'pip install -e ".[dask]"' in str(error.value)
    assert "pip install sklearn-fair" not in str(error.value)


def test_no_message_names_the_unpublished_package():
    offending = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path in sorted((ROOT / "sklearn_fair").rglob("*.py"))
        for match in re.finditer(
            r"pip\s+install\s+[\"']?sklearn-fair\S*|sklearn-fair\[", path.read_text("utf-8")
        )
    ]
    assert offending == []


def test_a_report_without_matplotlib_says_how_to_install_it(monkeypatch):
    from sklearn_fair.report._plots import matplotlib_missing

    assert matplotlib_missing() is None  # the `plot` extra is installed on CI
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    missing = matplotlib_missing()
    assert 'pip install -e ".[plot]"' in missing and "pip install sklearn-fair" not in missing
