"""The graph demo: the fair protocol on the bundled MUTAG, a baseline against GIN."""

import sys
import time

import numpy as np
import torch

from ..metrics import metric_display_name
from ..model_selection import NestedCV, StratifiedGraphKFold
from ..report import comparison_text
from ._classifier import GraphClassifier
from ._datasets import load_mutag
from ._grids import SMALL_GRIDS
from .models import GIN, MolecularFingerprint

__all__ = ["run_graph_demo"]


def _nested(module, *, quick, n_jobs):
    grid = dict(SMALL_GRIDS[module.__name__])
    if quick:
        grid.update(max_epochs=[5], patience=[3])
    # Start from the grid's first module__* values, so that the names NestedCV checks
    # against get_params() exist (skorch accepts any module__* name only in set_params).
    first = {name: values[0] for name, values in grid.items() if name.startswith("module__")}
    return NestedCV(
        GraphClassifier(module, **first),
        grid,
        outer_cv=StratifiedGraphKFold(n_splits=3 if quick else 10, random_state=0),
        n_refits=1 if quick else 3,
        n_jobs=n_jobs,
        random_state=0,
    )


def run_graph_demo(n_jobs=1, quick=False, file=sys.stdout):
    """Assess a structure-agnostic baseline and GIN on MUTAG with the fair protocol.

    Runs :class:`~sklearn_fair.NestedCV` (outer stratified 10-fold via
    :class:`~sklearn_fair.model_selection.StratifiedGraphKFold`, inner stratified
    90/10 hold-out, three refits of the selected configuration per fold) on the
    bundled MUTAG for :class:`~sklearn_fair.graph.MolecularFingerprint` and
    :class:`~sklearn_fair.graph.GIN`, each with its two-candidate
    :data:`~sklearn_fair.graph.SMALL_GRIDS` grid, and prints the mean test accuracy
    of each with its 95% corrected resampled t interval over the outer folds. Both models see the
    same outer folds, and :func:`sklearn_fair.stats.compare` decides on the paired
    fold scores whether one is better, or says that the difference is not
    demonstrated. It takes a few minutes on two CPU cores.

    Parameters
    ----------
    n_jobs : int, default=1
        Parallel fits (joblib); each fit then uses one torch thread.
    quick : bool, default=False
        A smoke run: 3 outer folds, one refit, at most 5 epochs (seconds, not minutes).
    file : file-like, default=sys.stdout
        Where to print.

    Returns
    -------
    results : dict
        Per model name, its fitted :class:`~sklearn_fair.NestedCV`.
    """
    threads = torch.get_num_threads()
    if n_jobs is not None and n_jobs != 1:
        torch.set_num_threads(1)  # n_jobs processes share the cores
    try:
        graphs = load_mutag()
        print(
            f"MUTAG: {len(graphs)} graphs, {graphs.num_node_features} node features "
            f"(one-hot atom labels), class counts {np.bincount(graphs.y).tolist()}",
            file=file,
        )
        protocol = "3-fold, 1 refit (quick)" if quick else "10-fold, 3 refits"
        print(f"Fair protocol: outer stratified {protocol}, inner 90/10 hold-out", file=file)
        results, rows = {}, []
        for module in (MolecularFingerprint, GIN):
            start = time.perf_counter()
            nested = _nested(module, quick=quick, n_jobs=n_jobs).fit(graphs)
            elapsed = time.perf_counter() - start
            metric = metric_display_name(nested.scoring, estimator=nested.estimator)
            summary = nested.summary()  # the corrected resampled t of the outer folds' sizes
            results[module.__name__] = nested
            rows.append((module.__name__, summary, nested.score_std_, elapsed))
        methods = list(dict.fromkeys(summary.ci_method for _, summary, _, _ in rows))
        print(
            f"\n{'model':<22}{'test ' + metric.name:>14}{'std':>8}{'95% interval':>20}{'time':>9}",
            file=file,
        )
        for name, summary, std, elapsed in rows:
            interval = f"[{summary.ci_low:.3f}, {summary.ci_high:.3f}]"
            print(
                f"{name:<22}{summary.mean:>14.3f}{std:>8.3f}{interval:>20}{elapsed:>8.0f}s",
                file=file,
            )
        if len(methods) == 1:
            print(f"(interval: {methods[0]}; std over the outer folds, ddof=0)", file=file)
        else:  # one clipped to the metric's range, say: each row's own
            for name, summary, _, _ in rows:
                print(f"({name}'s interval: {summary.ci_method})", file=file)
            print("(std over the outer folds, ddof=0)", file=file)
        print(
            "\nThe baseline ignores the edges, GIN uses them.\n" + comparison_text(results),
            file=file,
        )
        return results
    finally:
        torch.set_num_threads(threads)
