"""Which model is better, in words: a report's verdict in one sentence, and comparison_text."""

from ..stats._compare import NOT_DEMONSTRATED  # compare()'s verdict when Holm does not reject
from ..utils._printing import decimals_for, p_is, signed_difference
from ..utils._scaling import mean_of, std_of
from ._format import direction
from ._results import (
    as_results,
    compare_results,
    describe_metrics,
    printed_pairs,
    shared_metric,
)


def comparison_text(results, *, confidence=0.95):
    """Say which model is better, as :func:`sklearn_fair.stats.compare` decides it.

    The models are compared on their paired outer-fold scores of the metric that selected their
    hyper-parameters, or of a search's test metric where the search selected with its own
    scoring (corrected resampled t-test, Holm's adjustment). Each pair's difference is
    printed in that metric's units with its interval and p-values, with the digits the report
    prints them with (the fold scores', or two significant digits of the interval's width where
    that needs more: an interval that straddles 0 visibly does), then the verdict: which model
    is better, or that the difference is not demonstrated (which does not show them equal).

    Parameters
    ----------
    results : dict of str to NestedCV or dict
        At least two results (fitted :class:`~sklearn_fair.NestedCV` or their
        :func:`result_to_dict`) on the same outer splits, scored with the same metric.
    confidence : float, default=0.95
        Level of the intervals; Holm's procedure decides at ``1 - confidence``.

    Returns
    -------
    text : str

    Raises
    ------
    ValueError
        When the results were scored with different metrics.
    SplitsMismatchError
        When their outer splits differ.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.dummy import DummyClassifier
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_fair import NestedCV
    >>> from sklearn_fair.report import comparison_text
    >>> X, y = load_iris(return_X_y=True)
    >>> results = {name: NestedCV(model, outer_cv=3, refit=False, random_state=0).fit(X, y)
    ...            for name, model in [("logistic", LogisticRegression(max_iter=500)),
    ...                                ("prior", DummyClassifier())]}
    >>> print(comparison_text(results))  # doctest: +ELLIPSIS
    Which model is better? compare() on the 3 paired outer-fold accuracy scores: ...
      logistic - prior: +0.6533 accuracy, 95% interval [+0.6080, +0.6987] (Student t, 2 df, ...
      -> logistic better: the difference is demonstrated at this level.
    """
    models = as_results(results)
    metric = shared_metric(models)
    if metric is None:
        raise ValueError(
            "comparison_text compares the metric that selected the hyper-parameters (a "
            "search's test metric where its own scoring selected), but the results were "
            f"scored with different metrics ({describe_metrics(models)})."
        )
    table = compare_results(models, confidence=confidence)
    n_folds = len(models[0].scores)
    level = f"{100 * confidence:g}%"
    lines = [
        f"Which model is better? compare() on the {n_folds} paired outer-fold {metric} "
        "scores: corrected resampled t-test (Nadeau and Bengio), p-values adjusted with "
        f"Holm's method, decided at level {1 - confidence:.3g}."
    ]
    if not metric.greater_is_better:
        lines.append(f"({metric.note}.)")
    # the report's digits: two significant digits of the smallest std of the fold scores
    d = decimals_for([mean_of(m.scores) for m in models], [std_of(m.scores) for m in models])
    for i, (a, b, difference, low, high) in enumerate(printed_pairs(table, metric)):
        printed, interval = signed_difference(difference, low, high, d)
        lines.append(
            f"  {a} - {b}: {printed} {metric}, "
            f"{level} interval {interval} (Student t, {n_folds - 1} "
            f"df, corrected), {p_is(table['pvalue'][i], 1 - confidence)}, Holm-adjusted "
            f"{p_is(table['pvalue_holm'][i], 1 - confidence)}"
        )
        verdict = table["verdict"][i]
        if verdict == NOT_DEMONSTRATED:
            lines.append(
                f"  -> difference not demonstrated: these {n_folds} folds do not show either "
                "model to be better (nor that they are equal)."
            )
        else:
            lines.append(f"  -> {verdict}: the difference is demonstrated at this level.")
    return "\n".join(lines)


def verdict_sentence(comparison, metric, *, n_folds, confidence, decimals):
    """The verdict of :func:`~._results.compare_results`' ``comparison`` in one sentence, in
    the metric's printed units with ``decimals`` (or two significant digits of the interval's
    width where that needs more, as the pairwise table prints it)."""
    n = len(comparison["model_a"])
    shown = [v != NOT_DEMONSTRATED for v in comparison["verdict"]]
    ranked = [
        (a, b) if difference > 0 else (b, a)
        for a, b, difference in zip(
            comparison["model_a"], comparison["model_b"], comparison["mean_difference"]
        )
    ]
    where = f"on test {metric}{direction(metric)} over {n_folds} paired outer folds"
    method = f"(corrected t-tests, Holm-adjusted at level {1 - confidence:.3g})"
    if n == 1:
        ((a, b, difference, low, high),) = printed_pairs(comparison, metric)
        printed, interval = signed_difference(difference, low, high, decimals)
        numbers = (
            f"{a} - {b} = {printed} {metric}, {100 * confidence:g}% "
            f"interval {interval}, Holm-adjusted "
            f"{p_is(comparison['pvalue_holm'][0], 1 - confidence)}"
        )
        if shown[0]:
            return f"{ranked[0][0]} is better than {ranked[0][1]} {where} ({numbers})."
        return (
            f"Neither {a} nor {b} is shown to be better {where} ({numbers}); this does not "
            "show that they are equal."
        )
    pairs = [f"{better} better than {worse}" for (better, worse), s in zip(ranked, shown) if s]
    if not pairs:
        return (
            f"No difference between the {n} pairs of models is demonstrated {where} {method}; "
            "this does not show that they are equal."
        )
    rest = {0: ".", 1: "; the other is not."}.get(n - len(pairs), "; the others are not.")
    verb = "is" if len(pairs) == 1 else "are"
    return (
        f"{len(pairs)} of the {n} pairwise differences {verb} demonstrated {where}: "
        + "; ".join(pairs)
        + f" {method}{rest}"
    )


def _names(items):
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _metric_words(result):
    names = {result.cells[d, m].metric.name for d in result.datasets for m in result.models}
    return f"test {next(iter(names))}" if len(names) == 1 else "test score"


def metric_of_tables(result):
    """What a benchmark's tables of one number per model and data set are of (``table()``,
    ``to_latex()``, the report's paper table and ranks), in the report's words: "test
    balanced accuracy", "test RMSE (lower is better)"; where the data sets' metrics differ,
    "test score (accuracy on a; RMSE on b, lower is better)"."""
    named = {}
    for dataset in result.datasets:
        metric = result.cells[dataset, result.models[0]].metric
        named.setdefault((metric.name, direction(metric)), []).append(dataset)
    if len(named) == 1:
        ((name, lower),) = named
        return f"test {name}{lower}"
    parts = [
        f"{name} on {_names(sets)}{', lower is better' if lower else ''}"
        for (name, lower), sets in named.items()
    ]
    return f"test score ({'; '.join(parts)})"


def table_caption(result, alpha=None, tests=None):
    """What :meth:`BenchmarkResult.table <sklearn_fair.BenchmarkResult.table>`'s mean ± std
    cells are, and with ``alpha`` (the level of its marks) what its bold and italics mean:
    where no test ran (``tests``: :func:`against_the_best`'s, computed when None), that no
    model there is in italics, and why."""
    caption = f"Mean ± std of the {metric_of_tables(result)} over the outer folds."
    if alpha is None:
        return caption
    bold = f"{caption} Bold: the best model of the data set (all of them when tied)"
    untested = untested_reasons(result, against_the_best(result) if tests is None else tests)
    if len(untested) == len(result.datasets):
        return (
            f"{bold}. No test against it ran {_where(untested)}, so a model without bold is not "
            "shown to be worse."
        )
    italics = (
        f"{bold}; italics: not shown to be worse than it (corrected resampled t-test, Holm over "
        f"the data set's pairs, level {alpha:g})."
    )
    if not untested:
        return italics
    return (
        f"{italics} No test ran {_where(untested)}: no model there is in italics, and one "
        "without italics is not shown to be worse."
    )


def against_the_best(result):
    """Per data set: :meth:`BenchmarkResult._against_the_best`, None for the p-values where
    the results do not record their outer splits, or do not share them."""
    return {d: result._against_the_best(d) for d in result.datasets}


def untested_reasons(result, tests):
    """Data set -> why no test against its best ran (``tests``: :func:`against_the_best`'s),
    for the data sets whose p-values are None, in the benchmark's order."""
    return {d: result._untested_reason(d) for d in result.datasets if tests[d][1] is None}


def _where(reasons):
    """Data set -> reason as words: "on d0 (the outer splits of a and b differ) or on d1 and
    d2 (the results do not record their outer splits)"."""
    grouped = {}
    for dataset, reason in reasons.items():
        grouped.setdefault(reason, []).append(dataset)
    return " or ".join(f"on {_names(sets)} ({reason})" for reason, sets in grouped.items())


def _mixed_metrics(result):
    """ "on d0 (a: accuracy, b: balanced accuracy)" for the data sets whose models were scored
    with different metrics, else None."""
    mixed = {}
    for dataset in result.datasets:
        cells = [result.cells[dataset, m] for m in result.models]
        if shared_metric(cells) is None:
            mixed[dataset] = describe_metrics(cells)
    return "; ".join(f"on {d} ({described})" for d, described in mixed.items()) or None


def emphasis(model, best, pvalues, alpha):
    """The emphasis of ``model`` on a data set: "strong" for the best (one of ``best``, the
    tied best models), "em" for a model not shown to be worse than the best (its Holm-adjusted p
    above ``alpha``), else None."""
    if model in best:
        return "strong"
    if pvalues is not None and pvalues.get(model, 0.0) > alpha:
        return "em"
    return None


def _per_best(tests, datasets):
    """The best of each data set, grouped: "lr on d0; lr and tree (tied) on d1"."""
    winners = {}
    for dataset in datasets:
        if tests[dataset][0]:
            winners.setdefault(tests[dataset][0], []).append(dataset)
    return "; ".join(
        f"{_names(best)}{' (tied)' if len(best) > 1 else ''} on {_names(sets)}"
        for best, sets in winners.items()
    )


def benchmark_verdict(result, *, alpha=0.05, tests=None, against=None):
    """One sentence at level ``alpha``: against the baseline when there is one (``against``:
    ``result.compare_to``'s table at that level, None when it refused), else the best of each
    data set (``tests``: :func:`against_the_best`'s, when computed)."""
    mixed = _mixed_metrics(result)
    if mixed is not None:
        return (
            f"No verdict: the models were scored with different metrics {mixed}; a comparison "
            "needs one metric per data set."
        )
    metric = _metric_words(result)
    n = len(result.datasets)
    sets = f"{n} data set" + ("s" if n != 1 else "")
    if against is not None:
        return _baseline_verdict(against, result.baseline, alpha, metric, sets)
    tests = tests if tests is not None else against_the_best(result)
    best = _per_best(tests, result.datasets)
    failed = [dataset for dataset in result.datasets if not tests[dataset][0]]
    failed = f"every model's folds failed on {_names(failed)}" if failed else ""
    if not best:
        return f"No model has a mean {metric} on the {sets}: {failed}."
    head = f"Best mean {metric} over the {sets}: {best}" + (f" ({failed})" if failed else "")
    untested = untested_reasons(result, tests)
    if len(untested) == n:
        return f"{head}; no difference is tested {_where(untested)}."
    not_tested = f"; no difference is tested {_where(untested)}" if untested else ""
    tested = [dataset for dataset in result.datasets if dataset not in untested]
    worse = {}
    for dataset in tested:
        for model, p in tests[dataset][1].items():
            if p <= alpha:
                worse.setdefault(model, []).append(dataset)
    method = (
        f"(corrected resampled t-test against the best, Holm over each data set's pairs, level "
        f"{alpha:g})"
    )
    if not worse:
        on = f"on {_names(tested)}" if untested else "on any data set"
        return f"{head}; no model is shown to be worse than the best {on} {method}{not_tested}."
    shown = "; ".join(f"{model} on {_names(d)}" for model, d in worse.items())
    return f"{head}; shown to be worse than the best {method}: {shown}{not_tested}."


def holm_family(table):
    """How many of ``compare_to``'s comparisons (its ``table``) Holm adjusted over: the tested
    ones (a cell whose folds failed is not tested)."""
    return int(table["pvalue"].notna().sum())


def _not_tested(table):
    """compare_to's untested cells (``table``'s rows without a p-value) in words: "lr on d1
    (folds of lr failed); on d2 (folds of base failed)" (a data set whose every comparison
    is untested, for one reason, is named alone), else None."""
    untested = table[table["pvalue"].isna()]
    if untested.empty:
        return None
    others = table["model"].nunique()
    grouped = {}
    for row in untested.itertuples():
        reason = row.verdict.removeprefix("not tested: ")
        grouped.setdefault((row.dataset, reason), []).append(row.model)
    parts = []
    for (dataset, reason), models in grouped.items():
        whole = len(models) == others
        parts.append(f"{'' if whole else _names(models) + ' '}on {dataset} ({reason})")
    return "; ".join(parts)


def _baseline_verdict(table, baseline, alpha, metric, sets):
    method = (
        f"(corrected resampled t-test, Holm across the {holm_family(table)} comparisons, level "
        f"{alpha:g})"
    )
    not_tested = _not_tested(table)
    tested = list(dict.fromkeys(table.loc[table["pvalue"].notna(), "dataset"]))
    if not tested and not_tested:
        return f"No model is tested against the baseline {baseline} in {metric}: {not_tested}."
    better, worse = {}, {}
    for row in table.itertuples():
        if row.significant:
            side = better if row.verdict == "better" else worse
            side.setdefault(row.model, []).append(row.dataset)
    untested = f"; not tested: {not_tested}" if not_tested else ""
    if not better and not worse:
        k = len(tested)
        on = (
            f"on {_names(tested)}, the {k} data set{'s' if k != 1 else ''} tested"
            if untested
            else f"on any of the {sets}"
        )
        return (
            f"No model is shown to differ from the baseline {baseline} in {metric} {on} "
            f"{method}{untested}."
        )
    parts = [f"{m} is better than {baseline} on {_names(d)}" for m, d in better.items()]
    parts += [f"{m} is worse than {baseline} on {_names(d)}" for m, d in worse.items()]
    return (
        f"Against the baseline {baseline}, in {metric} {method}: " + "; ".join(parts) + "; no "
        f"other difference is shown{untested}."
    )
