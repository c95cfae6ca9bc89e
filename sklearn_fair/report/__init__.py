"""Reports and plots of nested cross-validation results.

:func:`nested_cv_report` turns one fitted :class:`~sklearn_fair.NestedCV`, or
several compared on the same outer splits, into a report (text, Markdown, a
self-contained HTML page with its plots embedded, and a pandas DataFrame) that
starts with the verdict in one sentence and ends with a :class:`ReproducibilityCard`.
The plots need matplotlib (the ``plot`` extra), imported only when a plot is made.
:func:`comparison_text` says in words which model is better, as
:func:`~sklearn_fair.stats.compare` decides it. Every saved result they are given is first
checked against what its writer guaranteed (:func:`verify_result`).

The HTML page is :func:`html_page`'s template: :class:`Section` objects in (a title,
paragraphs, a table of strings or :class:`Cell` objects, :class:`Figure` objects), one
self-contained HTML string out; other reports (a benchmark's) reuse it.
"""

from ._benchmark_result import BenchmarkResult  # noqa: F401 - for sklearn_fair.benchmarking
from ._card import ReproducibilityCard, reproducibility_card
from ._html import figure_from_matplotlib, html_page
from ._integrity import verify_result
from ._nested_report import nested_cv_report
from ._plots import plot_comparison, plot_fold_scores, plot_optimism
from ._report import NestedCVReport
from ._results import result_to_dict
from ._tables import Cell, Figure, Section
from ._verdict import comparison_text

__all__ = [
    "Cell",
    "Figure",
    "NestedCVReport",
    "ReproducibilityCard",
    "Section",
    "comparison_text",
    "figure_from_matplotlib",
    "html_page",
    "nested_cv_report",
    "plot_comparison",
    "plot_fold_scores",
    "plot_optimism",
    "reproducibility_card",
    "result_to_dict",
    "verify_result",
]
