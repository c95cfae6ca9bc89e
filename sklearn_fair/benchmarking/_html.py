"""The HTML page of a BenchmarkResult: the two-model report's template (report.html_page).

At the top the verdict in one sentence and the table with intervals (one row per data set
and model); then the table as a paper prints it, the comparison with the baseline, the ranks,
the plots, what each cell selected, the tuning budgets and what reproduces the run. Every
number is in the metric's printed units (a positive RMSE), with the decimals its spread
needs; optimism is positive when validation was optimistic; every name is escaped by the
template.
"""

import json
import warnings

import numpy as np

from ..exceptions import UnequalBudgetWarning
from ..report import Cell, Section, figure_from_matplotlib, html_page
from ..report._format import decimals_for, number, pvalue, short_names, signed
from ..report._plots import matplotlib_missing
from ..stats import summarize
from ._verdict import against_the_best, benchmark_verdict

__all__ = ["benchmark_html"]


def num(text, **kwargs):
    return Cell(str(text), numeric=True, **kwargs)


def _decimals(result, dataset):
    """Two significant digits of the smallest spread of the data set's fold scores."""
    cells = [result.cells[dataset, m] for m in result.models]
    return decimals_for([np.mean(c.scores) for c in cells], [np.std(c.scores) for c in cells])


def _summaries(result, confidence, n_resamples, random_state):
    return {
        key: summarize(
            cell.scores,
            metric=cell.printed_metric,
            confidence=confidence,
            n_resamples=n_resamples,
            random_state=random_state,
        )
        for key, cell in result.cells.items()
    }


def _standing(model, best, pvalues, alpha):
    if model == best:
        return "best"
    if pvalues is None:
        return "not tested (splits not recorded)"
    p = pvalues[model]
    return f"{'worse' if p <= alpha else 'not shown worse'} (Holm p {pvalue(p)})"


def _performance(result, summaries, tests, confidence, alpha):
    level = f"{100 * confidence:g}%"
    section = Section(
        "Test performance",
        columns=[
            "data set",
            "model",
            "metric",
            num("test mean ± std"),
            num(f"{level} interval of the mean (Student t)"),
            num(f"IQM [{level} interval (bootstrap)]"),
            num("mean validation"),
            num(
                "optimism",
                title="how much better the mean validation score looked than the mean test "
                "score, in the metric's units; positive: validation was optimistic",
            ),
            num("rank on the data set"),
            "against the data set's best",
        ],
    )
    methods, notes = {}, {}
    for dataset in result.datasets:
        d = _decimals(result, dataset)
        best, pvalues = tests[dataset]
        means = {m: float(np.mean(result.cells[dataset, m].scores)) for m in result.models}
        order = sorted(result.models, key=lambda m: -means[m])
        for model in result.models:
            cell, summary = result.cells[dataset, model], summaries[dataset, model]
            metric = cell.printed_metric
            validation = metric.values(cell.validation_scores)
            optimism = float(np.mean(cell.validation_scores) - np.mean(cell.scores))
            spread = float(np.std(cell.scores))  # numpy's, ddof=0, as the two-model report
            methods.setdefault(summary.ci_method.split(", of the mean")[0], None)
            if summary.ci_method != summary.ci_method.split(", clipped")[0]:
                methods.setdefault("clipped to the metric's range where it passed it", None)
            if metric.note:
                notes.setdefault(f"{metric.name}: {metric.note}.", None)
            if summary.metric_range == "unknown":
                notes.setdefault(
                    f"{metric.name}: the range of its values is not known, so its interval of "
                    "the mean is left as computed (not clipped to a range).",
                    None,
                )
            section.rows.append(
                [
                    dataset,
                    model,
                    metric.name,
                    num(f"{number(summary.mean, d)} ± {number(spread, d)}"),
                    num(f"[{number(summary.ci_low, d)}, {number(summary.ci_high, d)}]",
                        title=summary.ci_method),
                    num(f"{number(summary.iqm, d)} [{number(summary.iqm_ci_low, d)}, "
                        f"{number(summary.iqm_ci_high, d)}]", title=summary.iqm_ci_method),
                    num(number(np.mean(validation), d)),
                    num(signed(optimism, d)),
                    num(order.index(model) + 1),
                    Cell(_standing(model, best, pvalues, alpha),
                         emphasis="strong" if model == best else None),
                ]
            )  # fmt: skip
    folds = sorted({len(c.scores) for c in result.cells.values()})
    section.paragraphs += [
        f"Test scores over {' or '.join(map(str, folds))} outer folds per data set (std as "
        "numpy's, ddof=0). Interval of the mean: " + "; ".join(methods) + ". Interval of the "
        "IQM: percentile bootstrap. Both treat the outer folds as independent; their training "
        "sets overlap, so both are optimistic.",
        "Optimism is how much better the mean validation score looked than the mean test "
        "score, in the metric's printed units (validation minus test for a score, test minus "
        "validation for an error); positive when validation was optimistic.",
        "Against the data set's best: the corrected resampled t-test (Nadeau and Bengio) of "
        "each model against the model with the best mean test score, p-values adjusted with "
        f"Holm's method within the data set; worse when the adjusted p is at most {alpha:g}.",
        "Numbers are printed to two significant digits of the smallest standard deviation of "
        "the data set's fold scores.",
        *notes,
    ]
    return section


def _paper_table(result, tests, alpha):
    section = Section(
        "Scores as a paper prints them",
        columns=["model", *(num(d) for d in result.datasets)],
        paragraphs=[
            "Mean ± std of the test scores over the outer folds. Bold: the best model of the "
            "data set; italics: not shown to be worse than it (corrected resampled t-test, "
            f"Holm within the data set, level {alpha:g})."
        ],
    )
    digits = {d: _decimals(result, d) for d in result.datasets}
    for model in result.models:
        row = [model]
        for dataset in result.datasets:
            cell, d = result.cells[dataset, model], digits[dataset]
            values = cell.printed_metric.values(cell.scores)
            best, pvalues = tests[dataset]
            emphasis = None
            if model == best:
                emphasis = "strong"
            elif pvalues is not None and pvalues[model] > alpha:
                emphasis = "em"
            text = f"{number(np.mean(values), d)} ± {number(np.std(values), d)}"
            row.append(num(text, emphasis=emphasis))
        section.rows.append(row)
    return section


def _baseline(result, confidence, alpha):
    baseline = result.baseline
    level = f"{100 * confidence:g}%"
    section = Section(f"Against the baseline {baseline}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UnequalBudgetWarning)
        try:
            table = result.compare_to(alpha=alpha, confidence=confidence)
        except ValueError as error:
            section.paragraphs.append(f"No comparison: {error}")
            return section
    section.columns = [
        "data set",
        "model",
        num("model - baseline", title="difference of the mean test scores, printed units"),
        num(f"{level} interval (corrected t)"),
        num("p"),
        num("p (Holm)"),
        num("P(model beats baseline)"),
        "verdict",
    ]
    for row in table.itertuples():
        metric = result.cells[row.dataset, row.model].printed_metric
        d = _decimals(result, row.dataset)
        low, high = sorted(metric.sign * np.array([row.ci_low, row.ci_high]))
        verdict = "difference not demonstrated"
        if row.significant:
            verdict = "better" if row.difference > 0 else "worse"
        section.rows.append(
            [
                row.dataset,
                row.model,
                num(f"{signed(metric.sign * row.difference, d)} {metric.name}"),
                num(f"[{signed(low, d)}, {signed(high, d)}]"),
                num(pvalue(row.pvalue)),
                num(pvalue(row.pvalue_holm)),
                num(f"{row.probability_of_improvement:.2f}"),
                Cell(verdict, emphasis="strong" if row.significant else None),
            ]
        )
    errors = sorted(
        {m.name for m in (c.printed_metric for c in result.cells.values()) if m.sign < 0}
    )
    section.paragraphs.append(
        f"Differences of the mean test score, model minus {baseline}, in the metric's printed "
        f"units, on the shared outer folds: corrected resampled t-test (Nadeau and Bengio), "
        f"{level} corrected t interval, p-values adjusted with Holm's method across all "
        f"{len(table)} comparisons; better or worse when Holm rejects at level {alpha:g}. "
        "P(model beats baseline): the probability that a fold score of the model beats one "
        "of the baseline's."
    )
    if errors:
        section.paragraphs.append(
            f"{', '.join(errors)}: lower is better, so a negative difference favours the model."
        )
    section.paragraphs += [f"Warning: {w.message}" for w in caught]
    return section


def _ranks(result, alpha):
    ranks = result.rank_comparison(alpha=alpha)
    section = Section(
        "Ranks",
        columns=["model", num("average rank")],
        rows=[
            [model, num(f"{rank:.2f}")]
            for model, rank in sorted(ranks.average_ranks.items(), key=lambda item: item[1])
        ],
        paragraphs=[
            f"Ranks of the mean test scores over {ranks.n_datasets} data sets (1 is the best). "
            f"Friedman's test: chi-square {ranks.statistic:.3g}, p {pvalue(ranks.pvalue)}; "
            f"Iman and Davenport's F {ranks.iman_davenport_statistic:.3g}, p "
            f"{pvalue(ranks.iman_davenport_pvalue)}. Nemenyi's critical difference at level "
            f"{alpha:g}: {ranks.critical_difference:.2f}."
        ],
    )
    return section


def _plots(result, confidence, alpha, with_ranks):
    section = Section("Plots")
    missing = matplotlib_missing()
    if missing is not None:
        section.paragraphs.append(missing)
        return section
    level = f"{100 * confidence:g}%"
    section.figures.append(
        figure_from_matplotlib(
            result.plot_intervals(confidence=confidence),
            alt=f"Mean test score of each model on each data set with its {level} interval",
            caption=f"Mean test score of each model on each data set, with its {level} "
            "Student t interval.",
        )
    )
    if with_ranks:
        try:
            import scikit_posthocs  # noqa: F401
        except ImportError:
            return section
        section.figures.append(
            figure_from_matplotlib(
                result.plot_critical_difference(alpha=alpha),
                alt="Critical-difference diagram of the models' average ranks",
                caption="Average ranks; models joined by a bar are not significantly "
                f"different (Nemenyi, level {alpha:g}).",
            )
        )
    return section


def _selection(result):
    names = sorted(
        {n for c in result.cells.values() for p in c.best_params if p for n in p}, key=str
    )
    short = short_names(names)
    section = Section(
        "Selected hyper-parameters",
        columns=["data set", "model", "hyper-parameter", "selected (folds)"],
    )
    for (dataset, model), cell in result.cells.items():
        params = [p or {} for p in cell.best_params]
        for name in sorted({n for p in params for n in p}, key=str):
            chosen = [json.dumps(p.get(name), sort_keys=True, default=repr) for p in params]
            counts = ", ".join(f"{v} ({chosen.count(v)})" for v in sorted(set(chosen)))
            title = name if short[name] != name else None
            section.rows.append([dataset, model, Cell(short[name], title=title), counts])
    if not section.rows:
        return None
    shortened = [f"{short[n]} is {n}" for n in names if short[n] != n]
    section.paragraphs.append(
        "Each value selected by the inner search, with the number of outer folds that "
        "selected it."
        + (" Parameters are named without their pipeline step: " + "; ".join(shortened) + "."
           if shortened else "")
    )  # fmt: skip
    return section


def _budgets(result):
    budget = result.budget
    keys = [k for k in ("n_candidates", "n_inner_fits", "n_searches", "n_refit_fits")
            if k in budget]  # fmt: skip
    labels = {
        "n_candidates": "candidates",
        "n_inner_fits": "inner fits",
        "n_searches": "searches",
        "n_refit_fits": "refit fits",
    }
    section = Section(
        "Tuning budgets",
        columns=["data set", "model", *(num(labels[k]) for k in keys), num("fit time (s)")],
        paragraphs=[
            "What each cell's tuning cost: the candidates per search, the inner fits, whole "
            "searches and refits, and the seconds its fits took. A baseline tuned with a much "
            "smaller budget than the model it is compared with makes the model look better."
        ],
    )
    for row in budget.itertuples(index=False):
        values = row._asdict()
        section.rows.append(
            [
                values["dataset"],
                values["model"],
                *(num("n/a" if np.isnan(values[k]) else int(values[k])) for k in keys),
                num(number(values["fit_time"], 2)),
            ]
        )
    return section


def _reproducibility(result):
    from ..report._card import package_versions, splits_fingerprint

    section = Section(
        "Reproducibility",
        columns=["data set", num("outer folds"), "splits fingerprint"],
    )
    for dataset in result.datasets:
        cell = result.cells[dataset, result.models[0]]
        fingerprint = "not recorded"
        if cell.test_indices is not None and cell.estimator is not None:
            folds = cell.estimator.outer_results_
            fingerprint = splits_fingerprint(
                [f["train_indices"] for f in folds], [f["test_indices"] for f in folds]
            )
        section.rows.append([dataset, num(len(cell.scores)), fingerprint])
    seed = "not recorded" if result.random_state is None else str(result.random_state)
    versions = ", ".join(f"{k} {v}" for k, v in package_versions().items())
    section.paragraphs += [
        f"Seed of every cell: {seed}. Every model of a data set is assessed on the same outer "
        "splits (checked before each paired test).",
        f"Versions: {versions}.",
    ]
    return section


def benchmark_sections(result, *, confidence=0.95, alpha=0.05, n_resamples=10_000,
                       random_state=0, plots=True):  # fmt: skip
    """``(verdict, sections)`` of the benchmark's page."""
    tests = against_the_best(result, alpha)
    summaries = _summaries(result, confidence, n_resamples, random_state)
    with_ranks = len(result.models) >= 3 and len(result.datasets) >= 2
    sections = [
        _performance(result, summaries, tests, confidence, alpha),
        _paper_table(result, tests, alpha),
        _baseline(result, confidence, alpha) if result.baseline is not None else None,
        _ranks(result, alpha) if with_ranks else None,
        _plots(result, confidence, alpha, with_ranks) if plots else None,
        _selection(result),
        _budgets(result),
        _reproducibility(result),
    ]
    verdict = benchmark_verdict(result, alpha=alpha, tests=tests)
    return verdict, [s for s in sections if s is not None]


def benchmark_html(result, title, **kwargs):
    """See :meth:`BenchmarkResult.to_html`."""
    verdict, sections = benchmark_sections(result, **kwargs)
    return html_page(title, sections, lead=verdict)
