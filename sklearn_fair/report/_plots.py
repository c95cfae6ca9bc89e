"""Plots of nested cross-validation results (matplotlib, imported only when a plot is made)."""

import os
import sys
import textwrap
import warnings

import numpy as np
from sklearn.utils._param_validation import HasMethods, validate_params

from ..model_selection._engine import is_per_label, refits_class, refits_combined_by
from ..stats._checks import CONFIDENCE, COUNT
from ..stats._compare import NOT_DEMONSTRATED
from ..utils import RANDOM_STATE_CONSTRAINTS, fill_doc, install_hint
from ..utils._printing import signed
from ..utils._scaling import mean_of, std_of
from ._format import direction, failed_folds, printed_decimals
from ._results import (
    DOCS,
    REPORT_INTERVALS,
    as_results,
    bootstrap_root,
    compare_results,
    describe_metrics,
    printed_pairs,
    shared_metric,
)


def _one_metric(models, plot):
    """The selecting metric all ``models`` share, or a ValueError naming theirs."""
    metric = shared_metric(models)
    if metric is None:
        raise ValueError(
            f"{plot} draws the metric that selected the hyper-parameters (a search's test "
            "metric where its own scoring selected) on one axis, but the results were scored "
            f"with different metrics ({describe_metrics(models)}). Plot them separately."
        )
    return metric


#: Each interval of the mean in a few words, for a legend or a column (the table names it whole).
INTERVAL_NAMES = {"corrected_t": "corrected t", "t": "Student t", "normal": "normal"}


def _short_method(kind, n):
    return INTERVAL_NAMES[kind] + ("" if kind == "normal" else f", {n - 1} df")


def plain(text):
    """``text`` as matplotlib draws it as written: each ``$`` escaped, so that a name with two
    (a model "a $x^2$", a budget "$1 and $2") is neither read as mathtext nor refused by its
    parser. Every user-provided string given to matplotlib goes through it (names of models,
    data sets, metrics and classes, in labels, titles, ticks and legends).

    Examples
    --------
    >>> print(plain("a $x^2$ model"))
    a \\$x^2\\$ model
    """
    return str(text).replace("$", r"\$")


def matplotlib_missing():
    """Why no plot can be drawn (and how to install matplotlib), or None."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return f"The plots need matplotlib. {install_hint('plot')} (or pip install matplotlib)."
    return None


class _Axes(HasMethods):
    """A matplotlib Axes, checked without importing matplotlib: where ``matplotlib.axes`` was
    never imported, no value can be one. (A ``HasMethods``, the kind of constraint
    ``validate_params`` takes, whose check is an ``isinstance``: an object with ``plot`` is
    not one.)"""

    def __init__(self):
        super().__init__(["plot"])

    def is_satisfied_by(self, val):
        axes = sys.modules.get("matplotlib.axes")
        return axes is not None and isinstance(val, axes.Axes)

    def __str__(self):
        return "a matplotlib Axes (matplotlib.axes.Axes)"


#: The constraints of every plot's ``ax``: where to draw, or None for a new figure.
AX_CONSTRAINTS = [_Axes(), None]


def _figure(ax, size, rows=1):
    """``(figure, axes)``: ``ax``'s figure and ``ax``, else a new figure of ``size`` inches
    with one axes, or ``rows`` of them one above the other (an array)."""
    missing = matplotlib_missing()
    if missing is not None:  # pragma: no cover - exercised without matplotlib
        raise ImportError(missing)
    from matplotlib.figure import Figure

    if ax is not None:
        return ax.figure, ax
    # A bare Figure, not pyplot: no global state and no GUI backend needed.
    figure = Figure(figsize=size, layout="constrained")
    return figure, figure.add_subplot() if rows == 1 else figure.subplots(rows, 1)


#: Each format's metadata that would make two saves of one figure differ: the date.
UNDATED = {"svg": {"Date": None}, "pdf": {"CreationDate": None}}


def save_figure(figure, path):
    """Save ``figure`` to each path (PNG, SVG, PDF by suffix); text stays text in SVG, and
    the same figure gives the same bytes (fixed ids, no date)."""
    from matplotlib import rc_context, rcParams

    paths = [path] if isinstance(path, (str, os.PathLike)) else list(path)
    with rc_context({"svg.fonttype": "none", "svg.hashsalt": "sklearn-fair"}):
        for target in paths:
            kind = os.path.splitext(os.fspath(target))[1][1:] or rcParams["savefig.format"]
            figure.savefig(target, dpi=120, metadata=UNDATED.get(kind.lower()))
    return paths


def _legend_outside(figure, ax, own, handles=None, labels=None):
    """The legend below the axes, where it covers no data: in the constrained layout's
    "outside" slot of our own figure, hanging below the caller's axes. ``handles`` and
    ``labels``: those of the axes unless given (matplotlib leaves out a label that starts with
    "_", a model's name too, unless it is given)."""
    if handles is None:
        handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return None
    if own:
        return figure.legend(handles, labels, loc="outside lower center", fontsize="small")
    return ax.legend(
        handles,
        labels,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.18),
        fontsize="small",
        frameon=False,
    )


def _tidy_ticks(axis):
    """At most 6 ticks, plain numbers (no offset), so that their labels never collide."""
    from matplotlib.ticker import MaxNLocator, ScalarFormatter

    axis.set_major_locator(MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10]))
    formatter = ScalarFormatter(useOffset=False)
    formatter.set_scientific(False)
    axis.set_major_formatter(formatter)


def _width(labels, base=6.4):
    """Inches of a figure whose y axis carries ``labels``: wider for long ones (their longest
    line)."""
    longest = max((len(line) for label in labels for line in label.split("\n")), default=0)
    return base + max(0, longest - 18) * 0.075


#: Characters a line of a name drawn beside an axis wraps at (a data set's tick label, a model's
#: label in the critical-difference diagram): on one line, a long name takes the axes' width.
#: The tables keep it whole.
NAME_WIDTH = 25


def _wrapped(names):
    """``{name: drawn}``: each of ``names`` as :func:`plain` draws it, a longer one than
    :data:`NAME_WIDTH` on lines of that many characters; each as written where two would be
    drawn alike (names that differ in their spaces alone)."""
    drawn = {
        name: plain(textwrap.fill(str(name), NAME_WIDTH) if len(str(name)) > NAME_WIDTH else name)
        for name in names
    }
    if len(set(drawn.values())) < len(drawn):
        return {name: plain(name) for name in names}
    return drawn


def _lines(texts):
    """The most lines of ``texts``."""
    return max((text.count("\n") + 1 for text in texts), default=1)


def model_colours(models):
    """``{model: colour}``: each of ``models`` (a result's, in its order) in the colour of its
    place in matplotlib's cycle ("C0", "C1", ...), the one colour every plot of a benchmark
    gives it (the interval plot, the critical-difference diagram). The cycle has ten: more
    models take ``tab20``'s twenty, or as many evenly spaced along ``turbo``, never one
    colour twice."""
    import matplotlib

    models = list(models)
    if len(models) <= 10:
        return {model: f"C{index}" for index, model in enumerate(models)}
    if len(models) <= 20:
        palette = matplotlib.colormaps["tab20"]
        return {model: palette(index) for index, model in enumerate(models)}
    palette = matplotlib.colormaps["turbo"]
    return {model: palette(index / (len(models) - 1)) for index, model in enumerate(models)}


def _drawn_width(artists):
    """Inches the widest of ``artists`` (texts, a legend) takes where it is drawn."""
    return max(
        (a.get_window_extent().width / a.figure.dpi for a in artists),
        default=0.0,
    )


def _fit_texts(figure, ax):
    """Widen and heighten our own ``figure`` until the title and labels of ``ax`` lie within it
    (a long metric's name): each is centred on the axes, which grow by what the figure grows,
    so twice its overflow is added. Only along each text's own length: the y label's place
    across is the tick labels' width, which widening the figure does not shorten."""
    with warnings.catch_warnings():  # a layout that fails says so when the figure is drawn
        warnings.filterwarnings("ignore", "constrained_layout not applied", UserWarning)
        figure.get_layout_engine().execute(figure)
    width, height = figure.bbox.width, figure.bbox.height
    boxes = [t.get_window_extent() for t in (ax.title, ax.xaxis.label)]
    across = max(0, *(b.x1 - width for b in boxes), *(-b.x0 for b in boxes))
    box = ax.yaxis.label.get_window_extent()
    up = max(0, box.y1 - height, -box.y0)
    if across or up:
        pad = 0.05 * figure.dpi  # the constrained layout's own margin
        figure.set_size_inches(
            figure.get_figwidth() + (2 * across + pad) / figure.dpi * bool(across),
            figure.get_figheight() + (2 * up + pad) / figure.dpi * bool(up),
        )


def _finish(figure, path):
    if path is not None:
        save_figure(figure, path)
    return figure


@validate_params(
    {
        "results": "no_validation",
        "confidence": [CONFIDENCE],
        "interval": [REPORT_INTERVALS],
        "n_resamples": [COUNT],
        "ax": AX_CONSTRAINTS,
        "path": "no_validation",
        "random_state": RANDOM_STATE_CONSTRAINTS,
    },
    prefer_skip_nested_validation=True,
)
@fill_doc(DOCS)
def plot_fold_scores(
    results,
    *,
    confidence=0.95,
    interval="corrected_t",
    n_resamples=10_000,
    ax=None,
    path=None,
    random_state=None,
):
    """Plot each model's per-fold test scores with its mean and intervals.

    One row per model: the outer folds' test scores as dots, the mean with its interval (thick
    bar) and the IQM with its percentile bootstrap interval (thin bar), in the metric that
    selected the hyper-parameters (a negated scikit-learn error as the positive error); the
    legend names each interval's method. A model whose outer folds failed (no finite test score,
    or ``error_score`` in its place) has no mean and no interval, as the report's table prints
    n/a: its row draws the folds that scored, and its label says how many of its folds failed.

    Parameters
    ----------
    {results}
        They must have selected with the same metric.
    confidence : float, default=0.95
        Level of the intervals.
    {interval}
    n_resamples : int, default=10_000
        Bootstrap resamples of the IQM's interval.
    {ax}
    {path}
    random_state : int, RandomState instance, Generator or None, default=None
        Root of the bootstrap's seeds: each model's generator is derived from it by its data
        set's and model's names, as in the report (whose interval of each model this draws);
        None: the first result's ``random_state`` (0 when it is not an int), as
        :func:`nested_cv_report` takes it.

    Returns
    -------
    figure : matplotlib.figure.Figure

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_fair import NestedCV
    >>> from sklearn_fair.report import plot_fold_scores
    >>> X, y = load_iris(return_X_y=True)
    >>> nested = NestedCV(LogisticRegression(max_iter=500), outer_cv=3, refit=False).fit(X, y)
    >>> figure = plot_fold_scores({"logistic": nested})
    >>> [label.get_text() for label in figure.axes[0].get_yticklabels()]
    ['logistic']
    >>> figure.axes[0].get_xlabel()
    'test accuracy per outer fold'
    """
    models = as_results(results)
    metric = _one_metric(models, "plot_fold_scores")
    level = f"{100 * confidence:g}%"
    own = ax is None
    names = [
        f"{m.name} (n/a: {m.n_failed_folds()} of {len(m.scores)} folds failed)"
        if m.n_failed_folds()
        else m.name
        for m in models
    ]
    figure, ax = _figure(ax, (_width(names), 2.0 + 0.6 * len(models)))
    root = bootstrap_root(models[0].random_state, random_state)
    dots_named = mean_named = False  # each legend entry once, from the first row that draws it
    for position, model in enumerate(models):
        values = metric.values(model.scores)
        scored = np.isfinite(values)
        jitter = np.linspace(-0.15, 0.15, values.size)
        ax.scatter(
            values[scored],
            position + jitter[scored],
            s=14,
            color="0.55",
            zorder=2,
            label=None if dots_named or not scored.any() else "outer folds",
        )
        dots_named = dots_named or bool(scored.any())
        if model.n_failed_folds():  # no mean, no interval: as the report's table, n/a
            continue
        kind = model.interval_sizes(interval)[0]
        summary = model.summary(  # the report's table's numbers, clipped to the metric's range
            root=root, confidence=confidence, interval=interval, n_resamples=n_resamples
        )
        ax.errorbar(
            summary.mean,
            position,
            xerr=[[summary.mean - summary.ci_low], [summary.ci_high - summary.mean]],
            fmt="o",
            color="C0",
            capsize=4,
            lw=2,
            label=None
            if mean_named
            else f"mean, {level} interval ({_short_method(kind, values.size)})",
            zorder=3,
        )
        ax.errorbar(
            summary.iqm,
            position - 0.3,
            xerr=[[summary.iqm - summary.iqm_ci_low], [summary.iqm_ci_high - summary.iqm]],
            fmt="s",
            color="C1",
            capsize=3,
            lw=1,
            label=None if mean_named else f"IQM, {level} interval ({summary.iqm_ci_method})",
            zorder=3,
        )
        mean_named = True
    ax.set_yticks(range(len(models)), [plain(name) for name in names])
    ax.set_ylim(-0.7, len(models) - 0.3)
    ax.invert_yaxis()
    ax.set_xlabel(plain(f"test {metric} per outer fold{direction(metric)}"))
    ax.set_title(plain(f"Test {metric} over the outer folds"))
    _tidy_ticks(ax.xaxis)
    _legend_outside(figure, ax, own)
    return _finish(figure, path)


@validate_params(
    {"results": "no_validation", "ax": AX_CONSTRAINTS, "path": "no_validation"},
    prefer_skip_nested_validation=True,
)
@fill_doc(DOCS)
def plot_optimism(results, *, ax=None, path=None):
    """Plot validation against test score per outer fold: the optimism picture.

    Each dot is one outer fold of one model: the selected configuration's mean inner validation
    score against its test score, in the metric that selected it. Dots on the better side of
    the diagonal (the legend says which) are folds where validation overstated the test score.
    A model whose search selected with its own scoring has validation scores of another metric:
    it is not drawn, and the legend says so (no optimism, as in the report's table).

    Parameters
    ----------
    {results}
    {ax}
    {path}

    Returns
    -------
    figure : matplotlib.figure.Figure

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_fair import NestedCV
    >>> from sklearn_fair.report import plot_optimism
    >>> X, y = load_iris(return_X_y=True)
    >>> nested = NestedCV(LogisticRegression(max_iter=500), outer_cv=3, refit=False).fit(X, y)
    >>> figure = plot_optimism({"logistic": nested})
    >>> figure.axes[0].get_xlabel()
    'test accuracy (outer fold)'
    """
    models = as_results(results)
    metric = _one_metric(models, "plot_optimism")
    own = ax is None
    figure, ax = _figure(ax, (4.8, 5.4))
    printed = [metric.values(m.scores) for m in models]
    decimals = printed_decimals(
        [
            {"dataset": m.dataset, "test_mean": mean_of(v), "test_std": std_of(v),
             "greater_is_better": metric.greater_is_better}
            for m, v in zip(models, printed)
        ]
    )  # fmt: skip
    drawn = [m for m in models if m.optimism is not None]
    handles, labels = [], []
    for index, model in enumerate(models):
        if model.optimism is None:  # a legend entry without a marker: the note
            label = plain(f"{model.name}: not drawn, validation in {model.validation_metric}")
            (handle,) = ax.plot([], [], " ", label=label)
        else:
            label = plain(f"{model.name} (optimism {signed(model.optimism, decimals)})")
            handle = ax.scatter(
                metric.values(model.scores),
                metric.values(model.validation_scores),
                color=f"C{index}",
                label=label,
                zorder=2,
            )
        handles.append(handle)
        labels.append(label)
    values = np.concatenate(
        [metric.values(np.r_[m.scores, m.validation_scores]) for m in drawn]
        or [metric.values(m.scores) for m in models]
    )
    low, high = np.nanmin(values), np.nanmax(values)
    margin = 0.05 * (high - low) or 0.01
    side = "above" if metric.greater_is_better else "below"
    labels.append(f"validation = test (validation looked better {side} it)")
    (diagonal,) = ax.plot(
        [low - margin, high + margin], [low - margin, high + margin], ls="--", color="0.5",
        lw=1, label=labels[-1], zorder=1,
    )  # fmt: skip
    handles.append(diagonal)
    ax.set_xlabel(plain(f"test {metric} (outer fold)"))
    # the y axis is the figure's height whatever the metric's name: a long label wraps
    ax.set_ylabel(plain(textwrap.fill(f"validation {metric} of the selected configuration", 50)))
    ax.set_title(plain(f"Validation versus test {metric} per fold"))
    ax.set_aspect("equal", adjustable="datalim")
    _tidy_ticks(ax.xaxis)
    _tidy_ticks(ax.yaxis)
    legend = _legend_outside(figure, ax, own, handles, labels)
    if own:  # the legend, below the axes, as wide as its longest label
        figure.set_figwidth(max(4.8, _drawn_width([legend]) + 0.2))
        _fit_texts(figure, ax)
    return _finish(figure, path)


@validate_params(
    {
        "results": "no_validation",
        "confidence": [CONFIDENCE],
        "ax": AX_CONSTRAINTS,
        "path": "no_validation",
    },
    prefer_skip_nested_validation=True,
)
@fill_doc(DOCS)
def plot_comparison(results, *, confidence=0.95, ax=None, path=None):
    """Forest plot of the pairwise differences between models, with their intervals.

    The differences and intervals of :func:`sklearn_fair.stats.compare` (corrected resampled
    t-test) on the metric that selected the hyper-parameters (a search's test metric where its
    own scoring selected), in its printed units. Red marks a difference that Holm's procedure
    demonstrates.

    Parameters
    ----------
    results : dict of str to NestedCV or dict
        At least two results scored on the same outer splits.
    confidence : float, default=0.95
        Level of the intervals.
    {ax}
    {path}

    Returns
    -------
    figure : matplotlib.figure.Figure

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> from sklearn_fair import NestedCV
    >>> from sklearn_fair.report import plot_comparison
    >>> X, y = load_iris(return_X_y=True)
    >>> results = {name: NestedCV(model, outer_cv=3, refit=False, random_state=0).fit(X, y)
    ...            for name, model in [("logistic", LogisticRegression(max_iter=500)),
    ...                                ("knn", KNeighborsClassifier())]}
    >>> figure = plot_comparison(results)
    >>> [label.get_text() for label in figure.axes[0].get_yticklabels()]
    ['logistic - knn']
    """
    models = as_results(results)
    metric = _one_metric(models, "plot_comparison")
    table = compare_results(models, confidence=confidence)
    return draw_comparison(table, metric, confidence, ax=ax, path=path)


def draw_comparison(table, metric, confidence, *, ax=None, path=None):
    """:func:`plot_comparison`'s figure of ``table`` (:func:`~._results.compare_results`' at
    ``confidence``, in ``metric``): the report draws the table it prints."""
    n_pairs = len(table["model_a"])
    pairs = [plain(f"{a} - {b}") for a, b in zip(table["model_a"], table["model_b"])]
    figure, ax = _figure(ax, (_width(pairs), 1.6 + 0.5 * n_pairs))
    for row, (_, _, mean, low, high) in enumerate(printed_pairs(table, metric)):
        demonstrated = table["verdict"][row] != NOT_DEMONSTRATED
        ax.errorbar(
            mean,
            row,
            xerr=[[mean - low], [high - mean]],
            fmt="o",
            capsize=4,
            color="C3" if demonstrated else "C0",
        )
    ax.axvline(0.0, ls="--", color="0.5", lw=1)
    ax.set_yticks(range(n_pairs), pairs)
    ax.set_ylim(-0.7, n_pairs - 0.3)
    ax.invert_yaxis()
    ax.set_xlabel(
        plain(
            f"difference of mean test {metric}, A - B{direction(metric)}\n"
            f"({100 * confidence:g}% interval, corrected resampled t-test)"
        )
    )
    ax.set_title("Pairwise differences")
    _tidy_ticks(ax.xaxis)
    return _finish(figure, path)


def critical_difference_diagram(ranks, alpha, ax):
    """See :meth:`BenchmarkResult.plot_critical_difference` (``ranks``: its rank_comparison)."""
    try:
        import scikit_posthocs as sp
    except ImportError as exc:  # pragma: no cover - in the plot extra
        raise ImportError(
            f"The critical-difference diagram needs scikit-posthocs. {install_hint('plot')}."
        ) from exc
    import pandas as pd

    own = ax is None
    names = _wrapped(ranks.models)  # a label's lines as far apart as the labels
    height = 1.2 + 0.25 * len(ranks.models) * _lines(names.values())
    figure, ax = _figure(ax, (6, height))
    colours = model_colours(ranks.models)  # the interval plot's, not the ranks' order
    drawn = sp.critical_difference_diagram(
        pd.Series(ranks.average_ranks).rename(index=names),
        ranks.pairwise_table().rename(index=names, columns=names),
        ax=ax,
        alpha=alpha,
        color_palette={names[model]: colours[model] for model in ranks.models},
        # the Ranks table's 2 decimals, not scikit-posthocs' 2 significant digits (10.5: "10")
        label_fmt_left="{label} ({rank:.2f})",
        label_fmt_right="({rank:.2f}) {label}",
    )
    # each crossbar's points in rank order: scikit-posthocs gives them in a set's order, which
    # hash randomisation changes from run to run (the same diagram saved as other bytes)
    for line in (line for lines in drawn["crossbars"] for line in lines):
        x, y = (np.asarray(values) for values in line.get_data())
        order = np.argsort(x, kind="stable")
        line.set_data(x[order], y[order])
    ax.set_title(
        f"Average ranks over {ranks.n_datasets} data sets (Nemenyi CD = "
        f"{ranks.critical_difference:.2f} at alpha = {alpha:g})",
        fontsize="small",
    )
    if own:  # the names left and right of the ranks' axis, and 3 inches for the axis
        sides = [
            [t for t in ax.texts if t.get_horizontalalignment() == h] for h in ("right", "left")
        ]
        figure.set_figwidth(max(6, sum(map(_drawn_width, sides)) + 3))
    return figure


def interval_plot(result, confidence, interval, ax):
    """See :meth:`BenchmarkResult.plot_intervals`.

    A metric not known to be bounded (an RMSE, an R^2) is on each data set's own scale: on one
    shared axis the data sets of the smaller scales shrink to a point, their intervals and the
    differences the table shows with them. Our own figure then gives each data set an axis of
    its own, one above the other; a bounded metric (accuracy), and a given ``ax``, keep every
    data set on one axis.
    """
    own = ax is None
    datasets = _wrapped(result.datasets)
    apart = own and len(datasets) > 1 and result._in_own_units()
    # a row as high as its models' points and its data set's name's lines
    per_row = max(0.45 * len(result.models) ** 0.5, 0.2 * _lines(datasets.values()))
    height = 1.3 + per_row * len(datasets) + 0.4 * apart * (len(datasets) - 1)  # ticks' room
    figure, axes = _figure(
        ax, (_width(datasets.values(), base=6), height), rows=len(datasets) if apart else 1
    )
    axes = list(axes) if apart else [axes]
    rows = [[dataset] for dataset in result.datasets] if apart else [list(result.datasets)]
    offsets = np.linspace(-0.3, 0.3, len(result.models)) if len(result.models) > 1 else [0.0]
    kinds = set()
    # given to the legend with their handles: it leaves out a label that starts with "_"
    labels = [plain(model) for model in result.models]
    colours = model_colours(result.models)  # alike in each panel and in the diagram
    for panel, drawn in zip(axes, rows):
        handles = _draw_intervals(
            panel, result, drawn, offsets, confidence, interval, kinds, colours
        )
        panel.set_yticks(np.arange(len(drawn)), [datasets[d] for d in drawn])
        panel.set_ylim(-0.5, len(drawn) - 0.5)  # a failed cell's words too
    metrics = {}  # name -> direction, as the tables say it
    for dataset in result.datasets:
        metric = result.cells[dataset, result.models[0]].metric
        metrics[metric.name] = direction(metric)
    names = ", ".join(INTERVAL_NAMES[kind] for kind in sorted(kinds)) or "no"
    one = len(set(metrics.values())) == 1  # one direction: said once, at the end
    axes[-1].set_xlabel(
        plain(
            ", ".join(name + ("" if one else said) for name, said in sorted(metrics.items()))
            + f": mean and {100 * confidence:g}% {names} interval"
            + (next(iter(metrics.values())) if one else "")
            + ("\n(each data set on an axis of its own: its own scale)" if apart else "")
        )
    )
    if own:  # below the axes, in room the constrained layout makes: it covers no point
        longest = max(len(str(model)) for model in result.models)
        legend = figure.legend(
            handles, labels, loc="outside lower center", fontsize="small", frameon=False,
            ncol=max(1, min(len(result.models), 66 // (longest + 6))),
        )  # fmt: skip
        figure.set_figwidth(max(figure.get_figwidth(), _drawn_width([legend]) + 0.2))
    else:
        ax.legend(handles, labels, fontsize="small")
    return figure


def _draw_intervals(ax, result, datasets, offsets, confidence, interval, kinds, colours):
    """Draw on ``ax`` each model's mean and interval on each of ``datasets`` (one row each, the
    models at ``offsets`` about it, in their ``colours``); add the intervals' kinds to
    ``kinds``. Returns the models' error bars, for the legend."""
    handles = []
    failed = []  # (y, model's index, words): no point, no interval, as in the table
    for j, model in enumerate(result.models):
        points = []
        for i, dataset in enumerate(datasets):
            cell = result.cells[dataset, model]
            if cell.n_failed_folds():
                points.append((np.nan, np.nan, np.nan))
                words = failed_folds(cell.n_failed_folds(), len(cell.scores))
                failed.append((i + offsets[j], j, f"{model}: {words}"))
                continue
            # the report's table's mean and interval (NestedResult.summary, the one owner:
            # kept in the metric's range, printed units); its IQM interval is not drawn
            summary = cell.summary(root=0, confidence=confidence, interval=interval, n_resamples=1)
            kinds.add(summary.interval)
            points.append((summary.mean, summary.ci_low, summary.ci_high))
        means, lows, highs = (np.asarray(column) for column in zip(*points))
        y = np.arange(len(datasets)) + offsets[j]
        handles.append(
            ax.errorbar(
                means,
                y,
                xerr=[means - lows, highs - means],
                fmt="o",
                capsize=3,
                color=colours[model],
                label=plain(model),
            )  # fmt: skip
        )
    for y, j, words in failed:  # where its point would be, in its colour, at the axes' left
        ax.text(
            0.01, y, plain(words), transform=ax.get_yaxis_transform(),
            color=handles[j].lines[0].get_color(), fontsize="small", ha="left", va="center",
        )  # fmt: skip
    return handles


def fold_predictions(cell):
    """``(y_true, y_pred, score)`` per outer fold that kept its predictions, the refits combined
    as nested_cross_val_predict combines them; ``score``: a binary classifier's positive-class
    probability or decision value (of :func:`binary_classes`' second class, in the folds whose
    model learned both), else None."""
    folds = []
    binary = binary_classes(cell)
    for kept in cell.predictions:
        if kept is None:
            continue
        y_true = None if kept["y_true"] is None else np.asarray(kept["y_true"])  # y=None
        scores = kept["proba"] if kept["proba"] is not None else kept["decision"]
        classes = kept["classes"]
        score = None
        if scores is not None and binary is not None and list(classes) == binary:
            score = np.mean(np.asarray(scores, dtype=float), axis=0)
            if score.ndim == 2:
                score = score[:, 1] if score.shape[1] == 2 else None
        if classes is None:
            y_pred = _combined_without_classes(cell, kept)
        else:
            y_pred = refits_class(
                kept["predict"],
                None if kept.get("votes") else scores,
                classes,
                proba=kept["proba"] is not None,
            )
        folds.append((y_true, y_pred, score))
    return folds


def _finite(values):
    """Whether ``values`` (a fold's predictions or scores; None: none) are all finite: labels
    are, NaN and infinity are not."""
    return (
        values is None
        or not np.issubdtype(np.asarray(values).dtype, np.number)
        or bool(np.isfinite(values).all())
    )


def _finite_folds(folds):
    """Whether each of ``folds`` (:func:`fold_predictions`) kept finite predictions and scores:
    scikit-learn's displays refuse NaN and infinity (a classifier's NaN probabilities, the
    overflowing mean of a regressor's refits)."""
    return [_finite(y_pred) and _finite(score) for _, y_pred, score in folds]


def nonfinite_note(cell):
    """The sentence saying which outer folds of ``cell`` kept predictions that are not finite
    and are left out of :func:`prediction_panels`' plots, naming the model and data set; None
    where every fold's are finite.

    A binary classifier's probabilities or decision values are left out of its curves (its
    confusion matrix counts the classes it predicted, as its score does); a regressor's
    predictions of its plots.
    """
    kept = [fold for fold, predictions in enumerate(cell.predictions) if predictions is not None]
    finite = _finite_folds(fold_predictions(cell))
    left_out = [fold for fold, drawn in zip(kept, finite) if not drawn]
    if not left_out:
        return None
    first = cell.predictions[kept[0]]
    if _is_regressor(first):
        what, plots = "predictions", "actual against predicted and residuals plots"
    elif first["proba"] is not None:
        what, plots = "probabilities", "ROC, precision-recall and calibration curves"
    else:
        what, plots = "decision values", "ROC and precision-recall curves"
    return (
        f"{cell.model} on {cell.dataset}: the {what} kept by outer fold(s) "
        f"{', '.join(map(str, left_out))} are not finite (NaN or infinite) and are left out "
        f"of its {plots}."
    )


def _estimator_type(kept):
    """The ``estimator_type`` tag of the model of kept predictions without classes; those kept
    before it was recorded were a regressor's."""
    return kept.get("estimator_type", "regressor")


def _is_regressor(kept):
    """Whether kept predictions are drawn as a regressor's (an untagged model's too); an outlier
    detector's and a clusterer's labels are drawn as a classifier's."""
    return kept["classes"] is None and _estimator_type(kept) in ("regressor", None)


def _combined_without_classes(cell, kept):
    """The refits' predictions of a model without ``classes_`` combined as
    nested_cross_val_predict combines them: a regressor's mean, an outlier detector's vote,
    else (a clusterer's labels, an untagged model's) the first refit's, with a warning where
    they differ."""
    predictions = kept["predict"]
    combined_by = refits_combined_by(_estimator_type(kept))
    if combined_by == "mean":
        return np.mean(np.asarray(predictions, dtype=float), axis=0)
    if combined_by == "vote":
        return refits_class(predictions, None, None)
    if any(not np.array_equal(p, predictions[0]) for p in predictions[1:]):
        warnings.warn(
            f"The {len(predictions)} refits of {cell.model!r} on {cell.dataset!r} predict "
            f"differently, and a {_estimator_type(kept) or 'untagged model'}'s predictions "
            "(a clusterer numbers its clusters each refit its own way) cannot be combined: "
            "the first refit's are shown. Run it with n_refits=1 for predictions that are "
            "those of the fold's one model.",
            UserWarning,
            stacklevel=2,
        )
    return np.asarray(predictions[0])


def has_labels(cell):
    """Whether the kept predictions of ``cell`` have true values to be drawn against (none
    where the model was fitted with ``y=None``)."""
    return any(k is not None and k["y_true"] is not None for k in cell.predictions)


def binary_classes(cell):
    """The two classes of a binary classifier's kept predictions, else None: of a 1-D target
    whose folds' true values and models' classes are two classes in all (a fold's model may
    lack a class of a three-class target, or its test rows hold one)."""
    kept = [k for k in cell.predictions if k is not None]
    if not kept or any(
        k["classes"] is None or is_per_label(k["classes"]) or np.ndim(k["y_true"]) != 1
        for k in kept
    ):
        return None
    seen = np.concatenate([np.asarray(k[field]) for k in kept for field in ("classes", "y_true")])
    classes = np.unique(seen).tolist()
    return classes if len(classes) == 2 else None


#: The most columns of a multi-output target whose predictions are drawn (a panel or two each).
MAX_OUTPUT_PANELS = 10


def prediction_panels(cell):
    """``[(title, draw)]`` of :func:`plot_predictions`, ``draw(ax)`` drawing one panel (the
    report gives each its own small figure, so that they wrap on a narrow screen); of a
    multi-output target, the panels of each column, titled "column k: ...", and none for more
    than :data:`MAX_OUTPUT_PANELS` columns. The folds whose kept predictions or scores are not
    finite are left out of the panels that draw them (:func:`nonfinite_note` says which); a
    binary classifier's curves are not drawn where no fold's scores are finite."""
    from sklearn.calibration import CalibrationDisplay
    from sklearn.metrics import (
        ConfusionMatrixDisplay,
        PrecisionRecallDisplay,
        PredictionErrorDisplay,
        RocCurveDisplay,
    )
    from sklearn.utils.multiclass import type_of_target, unique_labels

    if cell.predictions is None:
        failed = cell.n_failed_folds()
        why = (
            f"each of its {failed} outer folds failed (a failed fold keeps none: see "
            "BenchmarkResult.failures)"
            if failed and failed == len(cell.scores)
            else "run the benchmark with keep_predictions=True"
        )
        raise ValueError(
            f"The predictions of {cell.model!r} on {cell.dataset!r} were not kept: {why}."
        )
    if not has_labels(cell):
        raise ValueError(
            f"The predictions of {cell.model!r} on {cell.dataset!r} have no labels to be drawn "
            f"against: the data set {cell.dataset!r} was given without them (y=None). Read "
            "what the model predicted from BenchmarkResult.predictions instead."
        )

    def prediction_error(truth, predicted, kind):
        def draw(ax):
            if truth.size:  # else no fold's predictions are finite: the panel's frame alone
                PredictionErrorDisplay.from_predictions(truth, predicted, kind=kind, ax=ax)

        return draw

    folds = fold_predictions(cell)
    finite = _finite_folds(folds)  # the others are left out: nonfinite_note says which
    rows = np.concatenate([np.full(len(f[0]), drawn) for f, drawn in zip(folds, finite)])
    y_true = np.concatenate([f[0] for f in folds])
    y_pred = np.concatenate([f[1] for f in folds])
    first = next(k for k in cell.predictions if k is not None)
    if _is_regressor(first):
        columns = [("", y_true[rows], y_pred[rows])]
        if y_true.ndim == 2:  # a multi-output target: a pair of panels a column, on its scale
            if y_true.shape[1] > MAX_OUTPUT_PANELS:
                return []
            columns = [
                (f"column {k}: ", y_true[rows, k], y_pred[rows, k]) for k in range(len(y_true.T))
            ]
        return [
            (prefix + title, prediction_error(truth, predicted, kind))
            for prefix, truth, predicted in columns
            for title, kind in (("actual against predicted", "actual_vs_predicted"),
                                ("residuals", "residual_vs_predicted"))
        ]  # fmt: skip

    def confusion(truth, predicted):
        def draw(ax):
            ConfusionMatrixDisplay.from_predictions(
                truth, predicted, normalize="true", ax=ax, colorbar=False, values_format=".2f",
                display_labels=[plain(label) for label in unique_labels(truth, predicted)],
            )  # fmt: skip

        return draw

    if y_true.ndim == 2:  # a multi-output target: a matrix a column (a label's: 0 absent)
        if y_true.shape[1] > MAX_OUTPUT_PANELS:
            return []
        name = "label" if type_of_target(y_true) == "multilabel-indicator" else "column"
        return [
            (f"{name} {k}: confusion matrix (rows sum to 1)", confusion(y_true[:, k], y_pred[:, k]))
            for k in range(y_true.shape[1])
        ]
    panels = [("confusion matrix (rows sum to 1)", confusion(y_true, y_pred))]
    # several classes, or no fold's scores finite: the matrix alone
    if not all(f[2] is not None for f in folds) or not any(finite):
        return panels
    positive = binary_classes(cell)[1]

    def per_fold(display):
        def draw(ax):
            for k, (truth, _, score) in enumerate(folds):
                if finite[k]:
                    display.from_predictions(
                        truth, score, pos_label=positive, ax=ax, name=f"fold {k}"
                    )
            for line in ax.get_lines():
                line.set_alpha(0.7)  # the folds' curves, one over the other
            if ax.get_legend() is not None:
                ax.get_legend().remove()

        return draw

    panels += [
        ("ROC curve of each outer fold", per_fold(RocCurveDisplay)),
        ("precision-recall of each outer fold", per_fold(PrecisionRecallDisplay)),
    ]
    if first["proba"] is not None:
        scores = np.concatenate([f[2] for f in folds])[rows]
        panels.append(
            ("calibration, every fold", lambda ax: CalibrationDisplay.from_predictions(
                y_true[rows], scores, n_bins=10, pos_label=positive, ax=ax, name=cell.model))
        )  # fmt: skip
    return panels


def draw_panel(panel, ax):
    """Draw one of :func:`prediction_panels` on ``ax``, small text throughout."""
    title, draw = panel
    draw(ax)
    # scikit-learn's displays put the names of the model and the positive class in the labels
    ax.set_xlabel(plain(ax.get_xlabel()))
    ax.set_ylabel(plain(ax.get_ylabel()))
    ax.set_title(title, fontsize="small")
    ax.tick_params(labelsize="small")
    ax.xaxis.label.set_size("small")
    ax.yaxis.label.set_size("small")
    legend = ax.get_legend()
    if legend is not None:
        for text in legend.get_texts():
            text.set_text(plain(text.get_text()))
            text.set_fontsize("small")


def plot_predictions(cell, *, path=None):
    """See :meth:`BenchmarkResult.plot_predictions`; ``cell`` is a NestedResult. Below the
    panels, :func:`nonfinite_note` where folds are left out."""
    panels = prediction_panels(cell)
    if not panels:
        n_columns = np.shape(next(k for k in cell.predictions if k is not None)["y_true"])[1]
        raise ValueError(
            f"The predictions of {cell.model!r} on {cell.dataset!r} are of a target of "
            f"{n_columns} columns: plot_predictions draws the predictions of each column for "
            f"at most {MAX_OUTPUT_PANELS}. Read them from BenchmarkResult.predictions instead."
        )
    columns = 2 if len(panels) > 1 else 1
    rows = (len(panels) + 1) // 2
    figure, _ = _figure(None, (3.4 * columns, 3.2 * rows))
    figure.clear()
    axes = figure.subplots(rows, columns, squeeze=False).ravel()
    for panel, ax in zip(panels, axes):
        draw_panel(panel, ax)
    for ax in axes[len(panels) :]:
        ax.set_visible(False)
    figure.suptitle(plain(f"{cell.model} on {cell.dataset}"), fontsize="medium")
    note = nonfinite_note(cell)
    if note is not None:  # below the panels, in room the constrained layout makes
        figure.supxlabel(plain(textwrap.fill(note, 48 * columns)), fontsize="small")
    return _finish(figure, path)
