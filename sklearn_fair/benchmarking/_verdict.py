"""The benchmark's conclusion in one sentence, and the per-data-set tests it rests on."""

import warnings

from ..exceptions import SplitsMismatchError, UnequalBudgetWarning
from ..stats import holm

__all__ = ["against_the_best", "benchmark_verdict"]


def _names(items):
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _metric_words(result):
    names = {result.cells[d, m].metric for d in result.datasets for m in result.models}
    return f"test {next(iter(names))}" if len(names) == 1 else "test score"


def against_the_best(result, alpha):
    """Per data set: ``(best model, {other model: Holm-adjusted p of it against the best})``.

    The corrected resampled t-test of each model against the data set's best (highest mean
    score), Holm within the data set, as :meth:`BenchmarkResult.table` marks it. The dict
    is None when the results do not record their outer splits.
    """
    from ._result import _NoSplits

    tests = {}
    for dataset in result.datasets:
        means = {m: float(result.cells[dataset, m].scores.mean()) for m in result.models}
        best = max(result.models, key=means.get)  # the first of equal means, as table()
        others = [m for m in result.models if m != best]
        try:
            pvalues = [result._paired(dataset, m, best).pvalue for m in others]
        except (_NoSplits, SplitsMismatchError):
            tests[dataset] = (best, None)
            continue
        tests[dataset] = (best, dict(zip(others, holm(pvalues) if others else [])))
    return tests


def _per_best(tests, datasets):
    winners = {}
    for dataset in datasets:
        winners.setdefault(tests[dataset][0], []).append(dataset)
    return "; ".join(f"{model} on {_names(sets)}" for model, sets in winners.items())


def benchmark_verdict(result, *, alpha=0.05, tests=None):
    """One sentence: against the baseline when there is one, else the best of each data set.

    Parameters
    ----------
    result : BenchmarkResult
    alpha : float, default=0.05
        Level of "demonstrated".
    tests : dict, default=None
        :func:`against_the_best`'s result, when already computed.

    Returns
    -------
    str
    """
    metric = _metric_words(result)
    n = len(result.datasets)
    sets = f"{n} data set" + ("s" if n != 1 else "")
    if result.baseline is not None:
        sentence = _baseline_verdict(result, alpha, metric, sets)
        if sentence is not None:
            return sentence
    tests = tests if tests is not None else against_the_best(result, alpha)
    head = f"Best mean {metric} over the {sets}: {_per_best(tests, result.datasets)}"
    if any(pvalues is None for _, pvalues in tests.values()):
        return f"{head}; the results do not record their outer splits, so no difference is tested."
    worse = {}
    for dataset in result.datasets:
        for model, p in tests[dataset][1].items():
            if p <= alpha:
                worse.setdefault(model, []).append(dataset)
    method = (
        f"(corrected resampled t-test against the best, Holm within each data set, level {alpha:g})"
    )
    if not worse:
        return f"{head}; no model is shown to be worse than the best on any data set {method}."
    shown = "; ".join(f"{model} on {_names(d)}" for model, d in worse.items())
    return f"{head}; shown to be worse than the best {method}: {shown}."


def _baseline_verdict(result, alpha, metric, sets):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnequalBudgetWarning)  # the report shows them
        try:
            table = result.compare_to(alpha=alpha)
        except ValueError:  # no splits recorded, or not the same: said in its section
            return None
    baseline = result.baseline
    method = (
        f"(corrected resampled t-test, Holm across the {len(table)} comparisons, level {alpha:g})"
    )
    better, worse = {}, {}
    for row in table.itertuples():
        if row.significant:
            side = better if row.difference > 0 else worse
            side.setdefault(row.model, []).append(row.dataset)
    if not better and not worse:
        return (
            f"No model is shown to differ from the baseline {baseline} in {metric} on any of "
            f"the {sets} {method}."
        )
    parts = [f"{m} is better than {baseline} on {_names(d)}" for m, d in better.items()]
    parts += [f"{m} is worse than {baseline} on {_names(d)}" for m, d in worse.items()]
    return (
        f"Against the baseline {baseline}, in {metric} {method}: " + "; ".join(parts) + "; no "
        "other difference is shown."
    )
