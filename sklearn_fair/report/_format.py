"""How a report prints names and verdict numbers: ties, p-values, short parameter names,
selected values (the digits of a metric's numbers: ``utils._printing``)."""

import numbers
import re
from collections import Counter
from dataclasses import replace

import numpy as np

from ..stats._checks import tie_levels
from ..utils._printing import decimals_for, missing, number, significant_decimals


def direction(metric):
    """What follows a metric's name where its direction is said (the plots' axes, the
    verdict): " (lower is better)" for an error, "" for a score."""
    return "" if metric.greater_is_better else " (lower is better)"


def printed_decimals(rows):
    """Decimals of one metric's printed numbers (the report's tables' and plot_optimism's),
    from its rows of the report's ``rows`` (``dataset``, ``test_mean``, ``test_std``,
    ``greater_is_better``): enough for the fold scores' spread, more where a data set's best
    mean would print as another not tied with it."""
    d = decimals_for([row["test_mean"] for row in rows], [row["test_std"] for row in rows])
    for name in dict.fromkeys(row["dataset"] for row in rows):
        group = [row for row in rows if row["dataset"] == name]
        d = best_apart([row["test_mean"] for row in group], d, group[0]["greater_is_better"])
    return d


def best_apart(means, decimals, greater_is_better=True):
    """At least ``decimals``, and more while the best of ``means`` (one data set's, in printed
    units) prints as the same number as a mean that is not tied with it: the one marked best
    is then visibly ahead. Ties as the marks and ranks decide them
    (:func:`~sklearn_fair.stats._checks.tie_level`, 12 significant digits); for each pair, up
    to the decimals of 12 significant digits of the larger of the two, where means not tied
    print apart.

    Examples
    --------
    >>> best_apart([0.96, 0.96004, 0.922], 4), best_apart([0.96, 0.96004], 4, False)
    (5, 5)
    >>> best_apart([0.96, 0.96, 0.92], 4), best_apart([0.961, 0.96, 0.9601], 4)
    (4, 4)
    >>> best_apart([0.0108, 0.01077, 2.6e26], 4, False)
    5
    >>> best_apart([1.0771106e26, 1.0771041e26], 0, False)
    7
    """
    means = np.asarray(list(means), dtype=float)
    means = means[np.isfinite(means)]
    if means.size < 2:
        return decimals
    tied = tie_levels(means)
    top = tied.max() if greater_is_better else tied.min()
    best, others = means[tied == top], means[tied != top]
    # a pair's own limit: a diverged model's 1e26 leaves the other pairs theirs
    pairs = [(b, o, significant_decimals(max(abs(b), abs(o)), 12)) for b in best for o in others]
    while any(
        decimals < limit and number(b, decimals) == number(o, decimals) for b, o, limit in pairs
    ):
        decimals += 1
    return decimals


def failed_folds(n_failed, n_folds):
    """What a table prints for a cell whose folds failed: no mean, and how many folds failed
    (:meth:`BenchmarkResult.table <sklearn_fair.BenchmarkResult.table>` and the report's Test
    performance section say it alike).

    Examples
    --------
    >>> failed_folds(1, 3)
    'failed (1 of 3 folds)'
    """
    return f"failed ({n_failed} of {n_folds} folds)"


def probability(value, decimals=3):
    """A probability with ``decimals`` decimals; one strictly between 0 and 1 that would print
    as 0 or 1 prints as "< 0.001" or "> 0.999".

    Examples
    --------
    >>> probability(0.99986), probability(0.00014), probability(1.0), probability(0.5, 2)
    ('> 0.999', '< 0.001', '1.000', '0.50')
    """
    if missing(value):
        return "n/a"
    value, step = float(value), 10.0**-decimals
    if 0 < value < 1 and round(value, decimals) in (0, 1):
        return f"< {step:.{decimals}f}" if value < 0.5 else f"> {1 - step:.{decimals}f}"
    return f"{value:.{decimals}f}"


def short_names(names):
    """Full parameter name -> its shortest unambiguous name, the pipeline step dropped.

    ``logisticregression__C`` becomes ``C``, unless another name also ends in ``__C``; then as
    many trailing parts are kept as make it unique.

    Examples
    --------
    >>> short_names(["svc__C", "logisticregression__C", "svc__gamma"])
    {'svc__C': 'svc__C', 'logisticregression__C': 'logisticregression__C', 'svc__gamma': 'gamma'}
    >>> short_names(["histgradientboostingregressor__learning_rate", "max_depth"])
    {'histgradientboostingregressor__learning_rate': 'learning_rate', 'max_depth': 'max_depth'}
    """
    names = list(dict.fromkeys(map(str, names)))
    parts = {name: name.split("__") for name in names}
    short = {}
    for name in names:
        for keep in range(1, len(parts[name]) + 1):
            candidate = "__".join(parts[name][-keep:])
            clashes = [
                other
                for other in names
                if other != name and "__".join(parts[other][-keep:]) == candidate
            ]
            if not clashes and candidate not in short.values():
                short[name] = candidate
                break
        else:
            short[name] = name
    return short


def param_text(value):
    """A selected hyper-parameter's value as Python prints it (``None``, ``sqrt``, ``0.1``),
    not as JSON (``null``, ``"sqrt"``), on one line: an estimator's repr as its lines joined
    by one space (a table's cell, a count's key), as a saved result reads back its repr.

    Examples
    --------
    >>> from sklearn.ensemble import VotingClassifier
    >>> from sklearn.linear_model import LogisticRegression
    >>> vote = VotingClassifier([("a", LogisticRegression()), ("b", LogisticRegression(C=0.5))])
    >>> print(repr(vote))
    VotingClassifier(estimators=[('a', LogisticRegression()),
                                 ('b', LogisticRegression(C=0.5))])
    >>> print(param_text(vote))
    VotingClassifier(estimators=[('a', LogisticRegression()), ('b', LogisticRegression(C=0.5))])
    >>> param_text(None), param_text(2), param_text("sqrt")
    ('None', '2', 'sqrt')
    """
    if isinstance(value, (bool, np.bool_)) or value is None:
        return str(value)
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return str(float(value))
    # a repr breaks its lines only between items (a string's newline prints as \n)
    return re.sub(r"\s*\n\s*", " ", value if isinstance(value, str) else repr(value))


def scoring_label(cell, key, metric):
    """The ``scoring`` of a row of the report's rows: the key of a metric of
    several, the scoring given for a single metric (its key is "score"), as a saved result
    records it, or "score" for an estimator's own ``score``."""
    if len(cell.metrics) > 1 or metric.scoring is None:
        return key
    return metric.to_dict()["scoring"]


def printed_metrics(cells):
    """``(data set, model, key)`` -> the :class:`~sklearn_fair.metrics.MetricName` of each
    metric of ``cells`` (NestedResult) as the report names it: its printed name, and where
    two metrics of one model print alike, the scoring key in parentheses, on that name's every
    model's metric of several (``{"f1": "f1", "F1": make_scorer(f1_score, pos_label=0)}``:
    "F1 (scoring key 'f1')" and "F1 (scoring key 'F1')"). The one name of a metric in the
    report's tables, headers, ranks and decimals.
    """
    alike = {
        name
        for cell in cells
        for name, count in Counter(m.name for m in cell.metrics.values()).items()
        if count > 1
    }
    return {
        (cell.dataset, cell.model, key): (
            replace(metric, name=f"{metric.name} (scoring key {label!r})")
            if metric.name in alike  # a model's lone metric too: it ranks with its key's
            else metric
        )
        for cell in cells
        for key, metric in cell.metrics.items()
        for label in [scoring_label(cell, key, metric)]
    }


def param_columns(best_params):
    """Each hyper-parameter selected in a fold (sorted by name) -> its value in every fold
    (None where the fold selected none): the one reading of ``best_params`` per parameter."""
    params = [p or {} for p in best_params]
    return {n: [p.get(n) for p in params] for n in sorted({n for p in params for n in p}, key=str)}


def selection_counts(best_params):
    """Hyper-parameter -> {value (:func:`param_text`): the number of folds that selected it}.
    A fold that did not tune a parameter (a grid of several dicts, or no selection) counts for
    none of its values: ``None`` is counted only where a fold selected ``None``."""
    params = [p or {} for p in best_params]
    counts = {}
    for name in param_columns(best_params):
        chosen = [param_text(p[name]) for p in params if name in p]
        counts[name] = {value: chosen.count(value) for value in sorted(set(chosen))}
    return counts
