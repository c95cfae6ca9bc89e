"""The plots of a BenchmarkResult: the critical-difference diagram, per-data-set intervals."""

import numpy as np

from ..stats import mean_interval
from ..stats._bounds import clip_to_range, metric_range
from ..utils import install_hint

__all__ = ["critical_difference_diagram", "interval_plot"]


def _figure(ax, size):
    """``(figure, ax)``: the given axes' figure, or a bare Figure (no pyplot, no GUI)."""
    try:
        from matplotlib.figure import Figure
    except ImportError as exc:  # pragma: no cover - in the plot extra
        raise ImportError(f"Plots need matplotlib. {install_hint('plot')}.") from exc
    if ax is not None:
        return ax.figure, ax
    figure = Figure(figsize=size, layout="constrained")
    return figure, figure.add_subplot()


def critical_difference_diagram(result, alpha, ax):
    """See :meth:`BenchmarkResult.plot_critical_difference`."""
    try:
        import scikit_posthocs as sp
    except ImportError as exc:  # pragma: no cover - in the plot extra
        raise ImportError(
            f"The critical-difference diagram needs scikit-posthocs. {install_hint('plot')}."
        ) from exc
    import pandas as pd

    ranks = result.rank_comparison(alpha=alpha)
    figure, ax = _figure(ax, (6, 1.2 + 0.25 * len(result.models)))
    sp.critical_difference_diagram(
        pd.Series(ranks.average_ranks), ranks.pairwise_table(), ax=ax, alpha=alpha
    )
    ax.set_title(
        f"Average ranks over {ranks.n_datasets} data sets (Nemenyi CD = "
        f"{ranks.critical_difference:.2f} at alpha = {alpha})",
        fontsize="small",
    )
    return figure


def interval_plot(result, confidence, ax):
    """See :meth:`BenchmarkResult.plot_intervals`."""
    own = ax is None
    figure, ax = _figure(ax, (6, 1.3 + 0.45 * len(result.datasets) * len(result.models) ** 0.5))
    offsets = np.linspace(-0.3, 0.3, len(result.models)) if len(result.models) > 1 else [0.0]
    for j, model in enumerate(result.models):
        means, lows, highs = [], [], []
        for dataset in result.datasets:
            cell = result.cells[dataset, model]
            values = cell.sign * cell.scores
            interval = mean_interval(values, confidence=confidence)
            # kept in the metric's range, as the report's table (stats.summarize) keeps it
            low, high, _ = clip_to_range(
                interval.low, interval.high, metric_range(cell.printed_metric)
            )
            means.append(np.mean(values))
            lows.append(low)
            highs.append(high)
        y = np.arange(len(result.datasets)) + offsets[j]
        means = np.asarray(means)
        ax.errorbar(
            means, y, xerr=[means - np.asarray(lows), np.asarray(highs) - means],
            fmt="o", capsize=3, label=model,
        )  # fmt: skip
    ax.set_yticks(np.arange(len(result.datasets)), result.datasets)
    metrics = sorted({result.cells[d, result.models[0]].metric for d in result.datasets})
    ax.set_xlabel(f"{', '.join(metrics)}: mean and {100 * confidence:g}% t interval")
    if own:  # below the axes, in room the constrained layout makes: it covers no point
        longest = max(len(str(model)) for model in result.models)
        figure.legend(
            loc="outside lower center", fontsize="small", frameon=False,
            ncol=max(1, min(len(result.models), 66 // (longest + 6))),
        )  # fmt: skip
    else:
        ax.legend(fontsize="small")
    return figure
