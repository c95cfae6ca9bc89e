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
        import sklearn_fair.model_selection  # scipy and sklearn first: they probe for torch
        sys.modules['torch'] = None  # makes 'import torch' raise ImportError
        try:
            import sklearn_fair.graph
        except ImportError as exc:
            print(exc)
        else:
            raise SystemExit('no ImportError')
    """)
    assert result.returncode == 0, result.stderr
    assert "'torch' is missing" in result.stdout
    assert 'pip install -e ".[graph]"' in result.stdout  # the README's Set up block


def test_plain_import_is_light_and_names_load_on_first_use():
    """``import sklearn_fair`` loads no layer; each public name, and each sub-package the
    eager import used to load, arrives on first use."""
    result = run("""
        import sys, sklearn_fair
        assert 'sklearn' not in sys.modules and 'sklearn_fair.model_selection' not in sys.modules
        from sklearn_fair import NestedCV
        from sklearn_fair.model_selection import NestedCV as Direct
        assert NestedCV is Direct
        assert 'sklearn_fair.benchmarking' not in sys.modules
        assert sklearn_fair.benchmark is sys.modules['sklearn_fair.benchmarking'].benchmark
        assert sklearn_fair.exceptions.SearchSpaceEdgeWarning.__name__ == 'SearchSpaceEdgeWarning'
        assert set(sklearn_fair.__all__) <= set(dir(sklearn_fair))
        try:
            sklearn_fair.no_such_name
        except AttributeError as exc:
            assert 'no_such_name' in str(exc)
        else:
            raise SystemExit('no AttributeError')
        assert 'torch' not in sys.modules
    """)
    assert result.returncode == 0, result.stderr


def test_a_gnn_task_imports_what_it_needs_and_no_more():
    """What a worker imports to unpickle and run a GraphClassifier task (the task runner, the
    classifier, PyG's data): none of the benchmarking, audit, statistics or report layers,
    nor imbalanced-learn (whose import pulls in pytest), matplotlib or jinja2's reports."""
    result = run("""
        import sys
        import sklearn_fair.model_selection._nested._running
        import sklearn_fair.graph._classifier
        import sklearn_fair.graph.models._gin
        import torch_geometric.data
        unneeded = [
            'sklearn_fair.benchmarking', 'sklearn_fair.leakage', 'sklearn_fair.stats',
            'sklearn_fair.metrics', 'sklearn_fair.report', 'sklearn_fair.experiment',
            'imblearn', 'pytest', 'matplotlib',
        ]
        print([name for name in unneeded if name in sys.modules])
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
