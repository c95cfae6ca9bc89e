"""Reports and plots of nested cross-validation results.

:func:`nested_cv_report` turns fitted :class:`~sklearn_fair.NestedCV` objects (or their saved
:func:`result_to_dict`, checked by :func:`verify_result`) into a report that starts with the
verdict in one sentence and ends with a :class:`ReproducibilityCard`: text, Markdown, a
self-contained HTML page and a DataFrame. :func:`comparison_text` says in words which model
is better. The plots need matplotlib (the ``plot`` extra).
"""

from ._benchmark_result import BenchmarkResult  # noqa: F401 - for sklearn_fair.benchmarking
from ._card import ReproducibilityCard, reproducibility_card
from ._integrity import verify_result
from ._nested_report import nested_cv_report
from ._plots import plot_comparison, plot_fold_scores, plot_optimism
from ._report import NestedCVReport
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
    "verify_result",
]

# the page template was public; it is the reports' own plumbing now
_TEMPLATE = {
    "Cell": "_tables",
    "Figure": "_tables",
    "Section": "_tables",
    "html_page": "_html",
    "figure_from_matplotlib": "_html",
}


def __getattr__(name):
    if name not in _TEMPLATE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib
    import warnings

    warnings.warn(
        f"sklearn_fair.report.{name} is deprecated: the HTML template is private now; use "
        "a report's to_html() or save().",
        FutureWarning,
        stacklevel=2,
    )
    return getattr(importlib.import_module(f"{__name__}.{_TEMPLATE[name]}"), name)
