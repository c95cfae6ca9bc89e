"""The HTML page of a BenchmarkResult, built on the report module's public helpers."""

import html
import warnings

from ..exceptions import UnequalBudgetWarning

__all__ = ["benchmark_html"]


def _html_marks(text):
    """A table cell's Markdown marks (``**best**``, ``*not worse*``) as escaped HTML."""
    if text.startswith("**"):
        return f"<strong>{html.escape(text[2:-2])}</strong>"
    if text.startswith("*"):
        return f"<em>{html.escape(text[1:-1])}</em>"
    return html.escape(text)


def benchmark_html(result, title):
    """See :meth:`BenchmarkResult.to_html`."""
    from ..report import nested_cv_report

    parts = [
        f"<h1>{html.escape(title)}</h1>",
        "<h2>Scores (mean ± std over the outer folds)</h2>",
    ]
    table = result.table(decimals=3).apply(lambda column: column.map(_html_marks))
    parts.append(table.to_html(escape=False))
    parts.append(
        "<p>Bold: the best model of the data set; italics: not demonstrably worse than it "
        "(corrected resampled t-test, Holm within the data set).</p>"
    )
    if result.baseline is not None:
        parts.append(f"<h2>Against the baseline {html.escape(result.baseline)}</h2>")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", UnequalBudgetWarning)
            try:
                parts.append(result.compare_to().to_html(index=False, float_format="%.4g"))
            except ValueError as exc:
                parts.append(f"<p>{html.escape(str(exc))}</p>")
        parts += [f"<p><strong>Warning:</strong> {html.escape(str(w.message))}</p>" for w in caught]
    if len(result.models) >= 3 and len(result.datasets) >= 2:
        parts.append(f"<h2>Ranks</h2><p>{html.escape(str(result.rank_comparison()))}</p>")
    parts.append("<h2>Tuning budgets</h2>")
    parts.append(result.budget.to_html(index=False, float_format="%.4g"))
    for dataset in result.datasets:
        fitted = {m: result.cells[dataset, m].estimator for m in result.models}
        if all(e is not None for e in fitted.values()):
            parts.append(f"<h2>{html.escape(dataset)}</h2>")
            report = nested_cv_report(fitted, title=f"{dataset}: nested cross-validation")
            parts.append(report.to_html())
    return "\n".join(parts)
