"""Guarded torch import: sklearn_fair never imports it; sklearn_fair.graph names the extra."""

import subprocess
import sys
import textwrap


def run(code):
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120
    )


def test_import_sklearn_fair_does_not_import_torch():
    result = run("""
        import sys, sklearn_fair
        assert 'torch' not in sys.modules, 'torch imported'
        assert 'torch_geometric' not in sys.modules
    """)
    assert result.returncode == 0, result.stderr


def test_graph_without_torch_says_which_extra_to_install():
    result = run("""
        import sys
        import sklearn_fair  # scipy and sklearn load first; they probe for torch themselves
        sys.modules['torch'] = None  # makes 'import torch' raise ImportError
        try:
            import sklearn_fair.graph
        except ImportError as exc:
            print(exc)
        else:
            raise SystemExit('no ImportError')
    """)
    assert result.returncode == 0, result.stderr
    assert "pip install sklearn-fair[graph]" in result.stdout
