"""Reports and plots of nested cross-validation results.

:func:`nested_cv_report` turns one fitted :class:`~sklearn_fair.NestedCV`, or
several compared on the same outer splits, into tables (text, Markdown, HTML
and a pandas DataFrame) that end with a :class:`ReproducibilityCard`. The
plots need matplotlib (the ``plot`` extra), imported only when a plot is made.
:func:`comparison_text` says in words which model is better, as
:func:`~sklearn_fair.stats.compare` decides it.
"""

from ._card import ReproducibilityCard, reproducibility_card
from ._plots import plot_comparison, plot_fold_scores, plot_optimism
from ._report import NestedCVReport, nested_cv_report
from ._results import result_to_dict
from ._verdict import comparison_text

__all__ = [
    "NestedCVReport",
    "ReproducibilityCard",
    "comparison_text",
    "nested_cv_report",
    "plot_comparison",
    "plot_fold_scores",
    "plot_optimism",
    "reproducibility_card",
    "result_to_dict",
]
