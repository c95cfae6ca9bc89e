"""Hunt CLI2-3: Ctrl-C in the first seconds of ``sklearn-fair run``, while the command
imports scipy and scikit-learn, gave a Python traceback of 44 lines (exit status 130) where
later it gives one line."""

import sys
import types

import pytest

from sklearn_fair.cli import main


class _ImportedWhenInterrupted(types.ModuleType):
    """A module whose import Ctrl-C stops: importing a name from it raises KeyboardInterrupt."""

    def __getattr__(self, name):
        if name.startswith("__"):  # what the import system and a repr look for
            raise AttributeError(name)
        raise KeyboardInterrupt


def _main(argv):
    try:
        return main(argv)
    except KeyboardInterrupt:
        pytest.fail("the interrupt left the command: Python printed its traceback")


@pytest.mark.parametrize(
    "argv",
    [["run", "experiment.toml"], ["run", "--dry-run", "--no-timing", "experiment.toml"]],
)
def test_ctrl_c_while_the_run_imports_is_the_one_line_message(monkeypatch, capsys, argv):
    # the first import of the run command, before it reads the file
    name = "sklearn_fair.exceptions"
    monkeypatch.setitem(sys.modules, name, _ImportedWhenInterrupted(name))
    assert _main(argv) == 130
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "sklearn-fair run: interrupted; no fit of the run was cached.\n"


def test_ctrl_c_in_another_command_is_one_line_too(monkeypatch, capsys):
    name = "sklearn_fair._cache_verify"  # imported to build the command line's parser
    monkeypatch.setitem(sys.modules, name, _ImportedWhenInterrupted(name))
    assert _main(["cache", "verify", "cache"]) == 130
    assert capsys.readouterr().err == "sklearn-fair: interrupted.\n"
