"""Plots of nested cross-validation results (matplotlib, imported only when a plot is made)."""

import os

import numpy as np

from ..stats import compare, summarize
from ._results import as_results


def _figure(ax, size):
    try:
        from matplotlib.figure import Figure
    except ImportError as exc:  # pragma: no cover - exercised without matplotlib
        raise ImportError(
            "Plots need matplotlib. Install it with: pip install sklearn-fair[plot]"
        ) from exc
    if ax is not None:
        return ax.figure, ax
    # A bare Figure, not pyplot: no global state and no GUI backend needed.
    figure = Figure(figsize=size, layout="constrained")
    return figure, figure.add_subplot()


def save_figure(figure, path):
    """Save ``figure`` to each path (PNG, SVG, PDF by suffix); text stays text in SVG."""
    from matplotlib import rc_context

    paths = [path] if isinstance(path, (str, os.PathLike)) else list(path)
    with rc_context({"svg.fonttype": "none", "svg.hashsalt": "sklearn-fair"}):
        for target in paths:
            figure.savefig(target, dpi=120)
    return paths


def _finish(figure, path):
    if path is not None:
        save_figure(figure, path)
    return figure


def plot_fold_scores(results, *, confidence=0.95, ax=None, path=None, random_state=0):
    """Plot each model's per-fold test scores with its mean and intervals.

    One row per model: the outer folds' test scores as dots, the mean with its
    normal interval (thick bar) and the IQM with its bootstrap interval (thin bar).

    Parameters
    ----------
    results : NestedCV, dict, or dict of str to NestedCV or dict
        One result or several by name (see :func:`nested_cv_report`).
    confidence : float, default=0.95
        Level of the intervals.
    ax : matplotlib Axes, default=None
        Where to draw; a new figure when None.
    path : str, path-like or list of them, default=None
        Files to save the figure to; the suffix (``.png``, ``.svg``) sets the format.
    random_state : int, default=0
        Seed of the bootstrap.

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
    """
    models = as_results(results)
    figure, ax = _figure(ax, (6.4, 1.2 + 0.6 * len(models)))
    for position, model in enumerate(models):
        summary = summarize(
            model.test_scores, confidence=confidence, n_resamples=2000, random_state=random_state
        )
        jitter = np.linspace(-0.15, 0.15, model.test_scores.size)
        ax.scatter(
            model.test_scores,
            position + jitter,
            s=14,
            color="0.55",
            zorder=2,
            label="outer folds" if position == 0 else None,
        )
        ax.errorbar(
            summary.mean,
            position,
            xerr=[[summary.mean - summary.ci_low], [summary.ci_high - summary.mean]],
            fmt="o",
            color="C0",
            capsize=4,
            lw=2,
            label="mean, normal interval" if position == 0 else None,
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
            label="IQM, bootstrap interval" if position == 0 else None,
            zorder=3,
        )
    ax.set_yticks(range(len(models)), [model.name for model in models])
    ax.set_ylim(-0.7, len(models) - 0.3)
    ax.invert_yaxis()
    ax.set_xlabel(f"test score per outer fold ({100 * confidence:g}% intervals)")
    ax.set_title("Test scores over the outer folds")
    ax.legend(loc="best", fontsize="small")
    return _finish(figure, path)


def plot_optimism(results, *, ax=None, path=None):
    """Plot validation against test score per outer fold: the optimism picture.

    Each dot is one outer fold of one model: the selected configuration's mean
    inner validation score against its test score. Dots above the diagonal are
    folds where the validation score overstated the test score.

    Parameters
    ----------
    results : NestedCV, dict, or dict of str to NestedCV or dict
        One result or several by name.
    ax : matplotlib Axes, default=None
        Where to draw; a new figure when None.
    path : str, path-like or list of them, default=None
        Files to save the figure to.

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
    'test score (outer fold)'
    """
    models = as_results(results)
    figure, ax = _figure(ax, (5.0, 5.0))
    for index, model in enumerate(models):
        gap = float(np.mean(model.validation_scores) - np.mean(model.test_scores))
        ax.scatter(
            model.test_scores,
            model.validation_scores,
            color=f"C{index}",
            label=f"{model.name} (optimism {gap:+.3f})",
            zorder=2,
        )
    values = np.concatenate([np.r_[m.test_scores, m.validation_scores] for m in models])
    low, high = np.nanmin(values), np.nanmax(values)
    margin = 0.05 * (high - low) or 0.01
    ax.plot(
        [low - margin, high + margin],
        [low - margin, high + margin],
        ls="--",
        color="0.5",
        lw=1,
        label="validation = test",
        zorder=1,
    )
    ax.set_xlabel("test score (outer fold)")
    ax.set_ylabel("validation score of the selected configuration")
    ax.set_title("Validation versus test score per fold")
    ax.legend(loc="best", fontsize="small")
    return _finish(figure, path)


def plot_comparison(results, *, confidence=0.95, ax=None, path=None):
    """Forest plot of the pairwise differences between models, with their intervals.

    The differences and intervals are those of :func:`sklearn_fair.stats.compare`
    (corrected resampled t-test); an interval that crosses the dashed line at 0
    is a difference not demonstrated.

    Parameters
    ----------
    results : dict of str to NestedCV or dict
        At least two results scored on the same outer splits.
    confidence : float, default=0.95
        Level of the intervals.
    ax : matplotlib Axes, default=None
        Where to draw; a new figure when None.
    path : str, path-like or list of them, default=None
        Files to save the figure to.

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
    shared = {
        m.name: {
            "test_score": m.test_scores,
            "indices": {"train": m.train_indices, "test": m.test_indices},
        }
        for m in models
    }
    table = compare(shared, confidence=confidence)
    table = {column: list(table[column]) for column in table}
    n_pairs = len(table["model_a"])
    figure, ax = _figure(ax, (6.4, 1.2 + 0.5 * n_pairs))
    for row in range(n_pairs):
        mean = table["mean_difference"][row]
        demonstrated = not table["verdict"][row].startswith("difference not")
        ax.errorbar(
            mean,
            row,
            xerr=[[mean - table["ci_low"][row]], [table["ci_high"][row] - mean]],
            fmt="o",
            capsize=4,
            color="C3" if demonstrated else "C0",
        )
    ax.axvline(0.0, ls="--", color="0.5", lw=1)
    ax.set_yticks(
        range(n_pairs), [f"{a} - {b}" for a, b in zip(table["model_a"], table["model_b"])]
    )
    ax.set_ylim(-0.7, n_pairs - 0.3)
    ax.invert_yaxis()
    ax.set_xlabel(f"difference of mean test scores ({100 * confidence:g}% interval, corrected)")
    ax.set_title("Pairwise differences")
    return _finish(figure, path)
