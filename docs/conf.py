"""Sphinx configuration of the sklearn-fair documentation.

Build it with ``python -m sphinx -W -b html docs docs/_build/html`` from the repository root.
"""

from pathlib import Path

import sklearn_fair

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "reproduce_fair_comparison" / "RESULTS.md"

project = "sklearn-fair"
author = "The sklearn-fair developers"
copyright = "the sklearn-fair developers"
release = version = sklearn_fair.__version__

extensions = ["sphinx.ext.autodoc", "sphinx.ext.autosummary", "numpydoc"]
exclude_patterns = ["_build"]
html_theme = "alabaster"
html_static_path = []
templates_path = []

autodoc_default_options = {"members": True, "member-order": "groupwise"}
autosummary_generate = False
# Methods are documented by autodoc's :members:; numpydoc's own member tables would need
# autosummary stub pages.
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False


def _reproduction_results(app, docname, source):
    """Append the reproduction's RESULTS.md to its page, when the benchmark has run."""
    if docname != "reproduction":
        return
    if RESULTS.is_file():
        lines = RESULTS.read_text(encoding="utf-8").splitlines()
        block = "\n".join("   " + line if line.strip() else "" for line in lines)
        source[0] += (
            "\nThe results\n===========\n\nThe content of "
            "``benchmarks/reproduce_fair_comparison/RESULTS.md``:\n\n"
            f".. code-block:: markdown\n\n{block}\n"
        )
    else:
        source[0] += (
            "\nThe results\n===========\n\n``benchmarks/reproduce_fair_comparison/RESULTS.md`` "
            "is not in this checkout yet; it is written when the reproduction has run.\n"
        )


def _skip_metadata_requests(app, what, name, obj, skip, options):
    """Skip the ``set_*_request`` methods scikit-learn generates; their docstrings link to
    scikit-learn's own glossary."""
    if name.startswith("set_") and name.endswith("_request"):
        return True
    return None


def setup(app):
    app.connect("source-read", _reproduction_results)
    app.connect("autodoc-skip-member", _skip_metadata_requests)
