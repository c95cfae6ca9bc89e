"""NestedCVReport: the one report of nested cross-validation results, whatever their shape.

One model or several, on one data set or many (a NestedCV report is the report of a
benchmark of one data set); the sections follow from the shape (see
:meth:`NestedCVReport.sections`), rendered as text, Markdown or HTML by ``_html.render``.
"""

import importlib.util
import numbers
import os
import warnings
from functools import cached_property
from types import SimpleNamespace

import numpy as np
from scipy.stats import rankdata

from ..exceptions import SplitsMismatchError, UnequalBudgetWarning
from ..model_selection._nested._results import undefined_score_note
from ..model_selection._nested._tasks import distinct_count
from ..stats._checks import tie_level
from ..utils._printing import (
    number,
    pvalue,
    signed,
    signed_difference,
)
from ..utils._scaling import mean_of
from ._format import (
    failed_folds,
    param_columns,
    param_text,
    printed_decimals,
    printed_metrics,
    probability,
    scoring_label,
    selection_counts,
    short_names,
)
from ._html import render
from ._integrity import _is_number
from ._plots import INTERVAL_NAMES, matplotlib_missing
from ._results import (
    NoSplitsError,
    bootstrap_root,
    compare_results,
    corrected_t_caveats,
    describe_metrics,
    printed_pairs,
    shared_metric,
)
from ._tables import Cell, Section, num
from ._verdict import (
    _names,
    against_the_best,
    benchmark_verdict,
    emphasis,
    holm_family,
    metric_of_tables,
    table_caption,
    verdict_sentence,
)

_KINDS = {".md": "markdown", ".markdown": "markdown", ".html": "html", ".txt": "text"}


def median_params(best_params):
    """Median over the folds of each numeric hyper-parameter selected in every fold."""
    return {
        name: float(np.median(np.asarray(values, dtype=float)))
        for name, values in param_columns(best_params).items()
        if all(map(_is_number, values))
    }


def _param_headers(best_params):
    """``(headers, renamed)``: each hyper-parameter selected in ``best_params`` (sorted) ->
    its column's :class:`Cell` (the name without its pipeline step, the full name on hover),
    and the sentence that says which names are shortened ("" when none is)."""
    names = list(param_columns(best_params))
    short = short_names(names)
    headers = {n: Cell(short[n], title=n if short[n] != n else None) for n in names}
    shortened = "; ".join(f"{short[n]} is {n}" for n in names if short[n] != n)
    return headers, shortened and f"Parameters are named without their pipeline step: {shortened}."


class NestedCVReport:
    """The report of nested cross-validation results: tables, plots, verdict and card.

    Made by :func:`nested_cv_report` (models on one data set) or
    :meth:`BenchmarkResult.report <sklearn_fair.BenchmarkResult.report>` (on several).
    ``str(report)`` is the text version; every form starts with :meth:`verdict`. Printed numbers
    have the decimals of :meth:`decimals`; ``rows`` and ``to_dataframe()`` keep full precision.

    Attributes
    ----------
    title : str
        The report's heading.
    result : BenchmarkResult
        What is reported.
    rows : list of dict
        One per data set, model and metric (the selecting metric first): ``dataset``, ``model``,
        ``metric`` (its printed name; where two metrics of a model print alike, with the scoring
        key in parentheses: "F1 (scoring key 'F1')"), ``scoring`` (the key of a metric of
        several; of a single metric the scoring given (``"neg_root_mean_squared_error"``, a
        scorer's repr), or ``"score"`` for the estimator's own ``score``), ``selects`` (whether
        the metric
        selected the hyper-parameters: on no row of a search that selected with its own scoring),
        ``n_folds``, ``test_mean``, ``test_std``, ``ci_low``, ``ci_high`` and ``ci_method`` (the
        interval of the mean), ``ci_coverage`` (how that interval covered in the coverage
        benchmark over this resampling, as the cell's summary says it; "" where not computed or
        measured), ``metric_range`` (the range the interval was kept in, or "unknown": not
        clipped), ``iqm``, ``iqm_ci_low``, ``iqm_ci_high``, ``iqm_ci_method``,
        ``validation_mean`` (in ``validation_metric``: the selecting metric, or a search's own
        scoring), ``optimism``, ``rank_test``, ``rank_validation``, ``greater_is_better``, ``note``
        (see :func:`~sklearn_fair.metrics.metric_display_name`), ``n_failed_fits``,
        ``n_failed_folds`` (the outer folds without a finite test score of the metric: then its
        means, intervals and ranks are not computed), ``n_undefined_folds`` (the outer folds
        whose test score of the metric is the value its scorer sets where the metric is
        undefined: see the section "Undefined test scores") and ``median_<param>`` per numeric
        hyper-parameter. In printed units (a negated scikit-learn error is the positive error).
        ``optimism`` is the mean validation minus the mean test score in the scorer's direction
        (positive: validation looked better); it, ``validation_mean`` and ``rank_validation`` are
        None but on the row of the selecting metric (of the metric compared, where a search's own
        scoring selected), and ``optimism`` also where the validation score is of a search's own
        scoring (:attr:`~sklearn_fair.report._results.NestedResult.optimism`). Ranks are within a
        data set, 1 the best, ties averaged (1.5 for two models tied first), as the average ranks of
        :meth:`~sklearn_fair.BenchmarkResult.rank_comparison` average them; None on a data set where
        a model's folds failed (a rank needs every model's score: rank_comparison leaves such a data
        set out), and ``not_ranked`` says so in the report's words (None where ranked).
    selected_params : dict
        Model name -> the hyper-parameters selected in each outer fold (of the first data set).
    median_params : dict
        Model name -> the median of each numeric selected hyper-parameter (first data set).
    comparison : dict of list or None
        On one data set, :func:`sklearn_fair.stats.compare`'s pairwise table on the selecting
        metric (column -> values, scorer's units); None for one model, several data sets, or
        models whose outer splits or selecting metrics differ.
    comparison_metric : MetricName or None
        The metric compared.
    comparison_note : str or None
        Why there is no comparison, when several models on one data set have none; or, beside
        a comparison of the models whose every fold has a score, which models it leaves out.
    card : ReproducibilityCard
        The reproducibility card that ends the report.
    confidence : float
        Level of the intervals.
    alpha : float
        Level of the tests: ``1 - confidence``.
    interval : str
        The interval of the mean: "corrected_t" (Nadeau and Bengio's; Student's t for results
        that do not record their splits, and the table says so), "t" or "normal".
    n_resamples : int
        Bootstrap resamples of the IQM's interval, in the tables and in the plots.
    random_state : int, RandomState instance, Generator or None
        As given: the root of the bootstrap's seeds, each cell's derived by its names
        (None: the benchmark's ``random_state`` when it is an int, else 0).
    """

    def __init__(self, result, *, title, card, confidence=0.95, interval="corrected_t",
                 n_resamples=10_000, random_state=None, rope=None):  # fmt: skip
        self.result = result
        self.title = title
        self.card = card
        self.confidence = confidence
        self.alpha = 1 - confidence
        self.interval = interval
        self.n_resamples = n_resamples
        self.random_state = random_state
        self.rope = rope
        self._one = len(result.datasets) == 1
        first = result.datasets[0]
        self._models = [result.cells[first, m] for m in result.models]
        self.selected_params = {m.name: m.best_params for m in self._models}
        self.median_params = {m.name: median_params(m.best_params) for m in self._models}
        self._root = bootstrap_root(result.random_state, random_state)
        self._metrics = printed_metrics(self._cells())
        self.rows = _rows(self._cells(), self._metrics, confidence, interval, n_resamples,
                          self._root)  # fmt: skip
        self.comparison, self.comparison_note = None, None
        if self._one and len(self._models) > 1:
            self.comparison, self.comparison_note = _comparison(self._models, confidence)
        self.comparison_metric = (
            self._metric(self._models[0]) if self.comparison is not None else None
        )
        one_metric = all(
            shared_metric([result.cells[d, m] for m in result.models]) is not None
            for d in result.datasets
        )
        self._best = against_the_best(result) if len(result.models) > 1 and one_metric else None

    def _cells(self):
        return [self.result.cells[d, m] for d in self.result.datasets for m in self.result.models]

    def _metric(self, cell, key=None):
        """The MetricName of ``cell``'s metric ``key`` (None: the selecting one) as the report
        names it (:func:`~._format.printed_metrics`)."""
        return self._metrics[cell.dataset, cell.model, cell.refit_metric if key is None else key]

    @property
    def _level(self):
        return f"{100 * self.confidence:g}%"

    def to_dataframe(self):
        """The summary table (:attr:`rows`) as a pandas DataFrame."""
        import pandas as pd

        index = ["model", "metric"] if self._one else ["dataset", "model", "metric"]
        return pd.DataFrame(self.rows).set_index(index)

    def decimals(self, metric_name, dataset=None):
        """Decimals of a metric's printed numbers: two significant digits of the smallest
        standard deviation of its fold scores over the models (of ``dataset``, or of all), more
        where a data set's best mean would print as another not tied with it (as
        :meth:`BenchmarkResult.table <sklearn_fair.BenchmarkResult.table>` prints them)."""
        return printed_decimals(
            [
                row
                for row in self.rows
                if row["metric"] == metric_name and dataset in (None, row["dataset"])
            ]
        )

    def verdict(self):
        """The report's conclusion in one sentence (and one more when fits failed)."""
        sentence = self._verdict()
        failed = [c for c in self._cells() if c.n_failed]
        if failed:
            where = ", ".join(
                f"{c.n_failed} of {c.model}" + ("" if self._one else f" on {c.dataset}")
                for c in failed
            )
            sentence += f' Fits failed ({where}): see "Failed fits"; {self._failed_scores()}.'
        return sentence

    def _failed_scores(self):
        """What the failed fits left of each metric's test scores, in words (of :attr:`rows`):
        the verdict and the Failed fits section say it alike."""
        missing = self._not_available
        complete = [m for m in dict.fromkeys(r["metric"] for r in self.rows) if m not in missing]
        parts = [f"every outer fold has a test {_names(complete)} score"] if complete else []
        if missing:
            verb = "is" if len(missing) == 1 else "are"
            parts.append(f"{_names(missing)} {verb} n/a where folds failed")
        return "; ".join(parts)

    @cached_property
    def _not_available(self):
        """Metric -> data set -> the models whose folds of it failed (of :attr:`rows`): n/a in
        the tables, as the verdict, Test performance and Failed fits say."""
        failed = {}
        for row in self.rows:
            if row["n_failed_folds"]:
                where = failed.setdefault(row["metric"], {})
                where.setdefault(row["dataset"], []).append(row["model"])
        return failed

    @cached_property
    def _against_baseline(self):
        """``(compare_to's table or the ValueError that refused it, the warnings it raised)``:
        computed once per report, read by the verdict and by the baseline's section."""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", UnequalBudgetWarning)
            try:
                return self.result.compare_to(confidence=self.confidence), caught
            except ValueError as error:
                return error, caught

    @cached_property
    def _ranks(self):
        """``rank_comparison`` at the report's level: computed once per report, read by the
        ranks section and the critical-difference diagram."""
        return self.result.rank_comparison(alpha=self.alpha)

    def _verdict(self):
        if self.result.baseline is not None or not self._one:
            against = self._against_baseline[0] if self.result.baseline is not None else None
            if isinstance(against, ValueError):
                against = None
            return benchmark_verdict(
                self.result, alpha=self.alpha, tests=self._best, against=against
            )
        if self.comparison is not None:
            metric = self.comparison_metric
            sentence = verdict_sentence(
                self.comparison,
                metric,
                n_folds=len(self._models[0].scores),
                confidence=self.confidence,
                decimals=self.decimals(metric.name),
            )
            return (
                sentence if self.comparison_note is None else f"{sentence} {self.comparison_note}"
            )
        if self.comparison_note is not None:
            return self.comparison_note
        row = self.rows[0]
        d = self.decimals(row["metric"])
        if row["n_failed_folds"]:  # as the Test performance section prints it
            failed = failed_folds(row["n_failed_folds"], row["n_folds"])
            return f"{row['model']}: test {row['metric']} {failed}."
        return (
            f"{row['model']}: test {row['metric']} {number(row['test_mean'], d)} over "
            f"{row['n_folds']} outer folds, {100 * self.confidence:g}% interval of the mean "
            f"[{number(row['ci_low'], d)}, {number(row['ci_high'], d)}]."
        )

    def sections(self, *, figures=False):
        """The report's sections, in order.

        Test performance; the paper's table (several data sets); the comparison with the baseline
        (on several data sets also the Bayesian signed-rank test and the win/tie/loss counts); the
        pairwise comparison (one data set); the ranks (three models or more on two data sets or
        more, of which those where folds failed are left out; from five data sets ranked, the
        test autorank would choose, in a paragraph); the plots (with
        ``figures``, which need matplotlib); the selected hyper-parameters; the tuning budgets
        (several models); the failed fits; the test scores set where their metric is
        undefined; the reproducibility card.
        """
        result = self.result
        with_ranks = len(result.models) >= 3 and len(result.datasets) >= 2
        ranked = with_ranks and len(result.datasets) - len(self._failed) >= 2
        sections = [
            self._summary_section(),
            None if self._one else self._paper_table(),
            self._baseline_section() if result.baseline is not None else None,
            self._across_section() if result.baseline is not None and not self._one else None,
            self._comparison_section() if self._one else None,
            self._ranks_section(ranked) if with_ranks else None,
            self._figures_section(ranked) if figures else None,
            self._predictions_section() if figures else None,
            *(
                [self._selection_section(m) for m in self._models]
                if self._one
                else [self._selection_counts()]
            ),
            self._budgets_section() if len(result.models) > 1 else None,
            self._failures_section(),
            self._undefined_section(),
            self.card.section(),
        ]
        return [section for section in sections if section is not None]

    # -- test performance ------------------------------------------------------------------

    @property
    def _multimetric(self):
        return any(len(cell.metrics) > 1 for cell in self._cells())

    @cached_property
    def _corrected_t_note(self):
        """ " <models>: <note>." for each caveat of the corrected t over some models' outer
        splits (time-ordered, or training sets that repeat rows), or ""."""
        return corrected_t_caveats(
            self._cells(), lambda c: c.model if self._one else f"{c.model} on {c.dataset}", _names
        )

    def _cells_of(self, column, *, by_metric=False):
        """Each distinct non-empty value of ``column`` of the :attr:`rows`, with the cells it
        is of in words (:meth:`_cells_in_words`), "" where every cell has it; with
        ``by_metric``, the cells of each metric, each followed by the metric's name
        (" on d1 (accuracy) and (roc_auc)")."""
        of = {}
        for row in self.rows:
            if row[column]:
                key = row["dataset"], row["model"]
                metric = row["metric"] if by_metric else None
                of.setdefault(row[column], {}).setdefault(metric, {})[key] = self.result.cells[key]
        every = len(self._cells())
        return {
            value: " and".join(
                ("" if len(cells) == every else self._cells_in_words(list(cells.values())))
                + (f" ({metric})" if by_metric else "")
                for metric, cells in metrics.items()
            )
            for value, metrics in of.items()
        }

    def _coverage_notes(self):
        """Each distinct coverage note of the rows' intervals of the mean (the cells' summaries'
        ``ci_coverage``), as "Coverage of the interval of the mean<cells>: <note>.", naming the
        cells it is of (:meth:`_cells_of`) where not every cell shares it."""
        return [
            f"Coverage of the interval of the mean{cells}: {note}."
            for note, cells in self._cells_of("ci_coverage").items()
        ]

    def _interval_methods(self):
        """How the rows' intervals of the mean were made: "Interval of the mean: <method>."
        where every row's is alike, else each method after the cells it is of (and their
        metrics, in a report of several: :meth:`_cells_of`), "Interval of the mean on d1:
        <method>; of m1 on d2: <method>."."""
        methods = self._cells_of("ci_method", by_metric=self._multimetric)
        if len(methods) == 1:
            return f"Interval of the mean: {next(iter(methods))}."
        return f"Interval of the mean{';'.join(f'{of}: {how}' for how, of in methods.items())}."

    def _folds_made(self):
        """Each distinct "<outer, inner or selection>: <how>" the cells recorded, naming the
        cells it is of where not every cell shares it ("inner of gs on short: 5-fold KFold");
        "selection" where a rule other than the best mean picked the winners."""
        cells = self._cells()
        described = {}
        for position, cell in enumerate(cells):
            for kind, how in cell.resampling.items():
                described.setdefault((kind, how), []).append((position, cell))
        texts = []
        for (kind, how), of in sorted(described.items(), key=lambda e: (e[0][0], e[1][0][0])):
            named = "" if len(of) == len(cells) else self._cells_in_words([c for _, c in of])
            texts.append(f"{kind}{named}: {how}")
        return texts

    def _cells_in_words(self, cells):
        """Some of the cells, in words: " on d1" (every model on some data sets), " of m1"
        (some models on every data set), else " of m1 on d1 and m2 on d2"."""
        result, keys = self.result, {(c.dataset, c.model) for c in cells}
        if self._one:
            return f" of {_names(c.model for c in cells)}"
        datasets = [d for d in result.datasets if all((d, m) in keys for m in result.models)]
        if len(keys) == len(datasets) * len(result.models):
            return f" on {_names(datasets)}"
        models = [m for m in result.models if all((d, m) in keys for d in result.datasets)]
        if len(keys) == len(models) * len(result.datasets):
            return f" of {_names(models)}"
        return f" of {_names(f'{c.model} on {c.dataset}' for c in cells)}"

    def _compared(self, row):
        """Whether ``row`` (of :attr:`rows`) is of the metric its model is compared and ranked
        on: the selecting one, or a search's test metric where its own scoring selected."""
        cell = self.result.cells[row["dataset"], row["model"]]
        # one metric: its row's scoring is the scoring given, not its key
        return len(cell.metrics) == 1 or row["scoring"] == cell.refit_metric

    def _standing(self, dataset, model):
        best, pvalues = self._best[dataset]
        if model in best:
            return Cell("best", emphasis="strong")
        if (dataset, model) in self.result.missing:
            return Cell("not tested (folds failed)")
        if self.comparison is not None:  # one decision per pair: the pairwise comparison's
            p, worse = self._pair_against(model, best[0])
        elif pvalues is None:
            return Cell(f"not tested ({self.result._untested_reason(dataset)})")
        else:
            p = pvalues[model]
            worse = p <= self.alpha
        p = pvalue(p, self.alpha)
        return Cell(f"{'worse' if worse else 'not shown worse'} (Holm p {p})")

    def _pair_against(self, model, best):
        """``(Holm-adjusted p, whether best is shown better)`` of the pair of ``model`` and
        ``best`` in :attr:`comparison` (Holm over all the pairs): the decision the pairwise
        comparison and the verdict print, read, not made again."""
        table = self.comparison
        for i, pair in enumerate(zip(table["model_a"], table["model_b"])):
            if set(pair) == {model, best}:
                return table["pvalue_holm"][i], table["verdict"][i] == f"{best} better"
        raise KeyError((model, best))  # pragma: no cover - compare() tests every pair

    def _summary_section(self):
        kind = INTERVAL_NAMES.get(self.interval, self.interval)
        if self.interval == "corrected_t":  # results without splits get Student's t (below)
            split = {cell.has_splits for cell in self._cells()}
            if split == {False}:
                kind = INTERVAL_NAMES["t"]
            elif split == {True, False}:
                kind = f"{kind} or {INTERVAL_NAMES['t']}"
        summary = Section(
            "Test performance",
            columns=[
                *([] if self._one else ["data set"]),
                "model",
                "metric",
                num("test mean ± std"),
                num(f"{self._level} interval of the mean ({kind})"),
                num(f"IQM [{self._level} interval (bootstrap)]"),
                num("mean validation"),
                num(
                    "optimism",
                    title="how much better the mean validation score looked than the mean "
                    "test score, in the metric's units; positive: validation was optimistic",
                ),
                num("rank by test"),
                num("rank by validation"),
                *(["against the data set's best"] if self._best is not None else []),
            ],
        )
        n_folds = sorted({row["n_folds"] for row in self.rows})
        summary.paragraphs += [
            f"Test scores over {' or '.join(map(str, n_folds))} outer folds"
            f"{'' if self._one else ' per data set'} (std as numpy's, ddof=0).",
            f"{self._interval_methods()} Interval of the IQM: "
            f"{self.rows[0]['iqm_ci_method']}. "
            + (
                "The corrected t widens the interval for the overlap of the outer training "
                "sets (Nadeau and Bengio); the IQM's interval treats the folds as independent, "
                "so it is optimistic."
                if self.interval == "corrected_t"
                else "Both treat the outer folds as independent; their training sets overlap, "
                "so both are optimistic."
            )
            + (self._corrected_t_note if self.interval == "corrected_t" else ""),
            *self._coverage_notes(),
            "Mean validation, optimism and the rank by validation are those of the metric "
            "that selected the hyper-parameters. Optimism is how much better the mean "
            "validation score looked than the mean test score, in the metric's printed units: "
            "validation minus test for a score, test minus validation for an error (lower is "
            "better); positive when validation was optimistic.",
        ]
        # how the folds were made, and a winner picked by a rule other than the best mean
        # (resampling "selection"), as the runs recorded it
        splits = self._folds_made()
        if splits:
            picked = any("selection" in cell.resampling for cell in self._cells())
            how = " and the candidates selected" if picked else ""
            summary.paragraphs.append(f"How the folds were made{how}: " + "; ".join(splits) + ".")
        own = sorted(
            {f"{c.model} ({c.selection_metric})" for c in self._cells() if c.selection_metric}
        )
        if own:
            summary.paragraphs.append(
                # a search's own scoring, or the scores weighted by sample_weight (unrouted)
                f"Selected with another metric than the test scores: {', '.join(own)}; their mean "
                "validation is of that metric, so no optimism is computed."
            )
        unsplit = sorted({c.model for c in self._cells() if not c.has_splits})
        if self.interval == "corrected_t" and unsplit:
            summary.paragraphs.append(
                f"{', '.join(unsplit)}: the results do not record their outer splits, so their "
                "interval of the mean is Student's t (the corrected t needs the folds' sizes)."
            )
        if self._best is not None and self.comparison is not None:
            summary.paragraphs.append(
                "Against the data set's best: each model's pair with the model with the best "
                "mean test score (the first of them when several tie: all of them are marked "
                "best) in the pairwise comparison below, its corrected resampled t-test (Nadeau "
                "and Bengio) with the p-value adjusted with Holm's method over all the pairs; "
                "worse where that comparison demonstrates the difference (adjusted p at most "
                f"{self.alpha:g})."
            )
        elif self._best is not None:
            summary.paragraphs.append(
                "Against the data set's best: the corrected resampled t-test (Nadeau and "
                "Bengio) of each model against the model with the best mean test score (the "
                "first of them when several tie: all of them are marked best, and not tested "
                "against each other), p-values adjusted with Holm's method over every pair of "
                "the data set's models (the family of a data set's pairwise comparison); worse "
                f"when the adjusted p is at most {self.alpha:g}."
            )
        summary.paragraphs += [
            "Numbers are printed to two significant digits of the smallest standard deviation "
            f"of their metric's fold scores{'' if self._one else ' on the data set'} (more "
            "where a mean whose folds all scored the same would round to a whole number, or "
            "the best mean would print as one not tied with it; a difference and its "
            "interval to two significant digits of the interval's width where that needs "
            "more, and a difference that is not zero never as a signed zero).",
            *dict.fromkeys(f"{row['metric']}: {row['note']}." for row in self.rows if row["note"]),
            *dict.fromkeys(
                f"{row['metric']}: the range of its values is not known, so its interval of "
                "the mean is left as computed (not clipped to a range)."
                for row in self.rows
                if row.get("metric_range") == "unknown"
            ),
        ]
        for row in self.rows:
            d = self.decimals(row["metric"], row["dataset"])
            metric = row["metric"]
            formula = (
                f"mean validation {metric} - mean test {metric}"
                if row["greater_is_better"]
                else f"mean test {metric} - mean validation {metric} (lower is better)"
            )
            # a search's own scoring selects: its validation scores are of another metric
            chosen = row["validation_metric"]
            own = chosen is None or chosen == metric
            selecting = row["selects"] and own
            standing = []
            if self._best is not None:
                compared = self._compared(row)
                standing = [self._standing(row["dataset"], row["model"]) if compared else ""]
            summary.rows.append(
                [
                    *([] if self._one else [row["dataset"]]),
                    row["model"],
                    metric + (" (selects)" if selecting and self._multimetric else ""),
                    *(
                        [num(failed_folds(row["n_failed_folds"], row["n_folds"])),
                         num("n/a", title=row["ci_method"]), num("n/a")]
                        if row["n_failed_folds"]  # as table() prints it; n/a: see paragraph
                        else [
                            num(f"{number(row['test_mean'], d)} ± {number(row['test_std'], d)}"),
                            num(f"[{number(row['ci_low'], d)}, {number(row['ci_high'], d)}]",
                                title=row["ci_method"]),
                            num(f"{number(row['iqm'], d)} [{number(row['iqm_ci_low'], d)}, "
                                f"{number(row['iqm_ci_high'], d)}]", title=row["iqm_ci_method"]),
                        ]
                    ),
                    num(number(row["validation_mean"], d) + ("" if own else f" ({chosen})")),
                    num("n/a" if row["optimism"] is None else signed(row["optimism"], d),
                        title=None if row["optimism"] is None else formula),
                    num("n/a" if row["rank_test"] is None else row["rank_test"]),
                    num("n/a" if row["rank_validation"] is None else row["rank_validation"]),
                    *standing,
                ]
            )  # fmt: skip
        for metric, where in self._not_available.items():
            summary.paragraphs.append(
                f"{f'{metric}: ' if self._multimetric else ''}n/a where folds failed (see "
                "Failed fits): a mean, its intervals and the IQM need every fold's score, and a "
                f"rank every model's score{'' if self._one else ' on the data set'}. "
                + (
                    f"Folds of {_names(next(iter(where.values())))} failed."
                    if self._one
                    else f"Left out: {_left_out(where)}."
                )
            )
        selecting = [row for row in self.rows if self._compared(row)]
        if (
            not self._failed
            and self._one
            and len(selecting) > 1
            and len({(r["metric"], r["greater_is_better"]) for r in selecting}) == 1
        ):
            # the models with a validation rank (none where a search's own scoring selected,
            # or the validation mean is NaN): their order by test against that by validation
            ranked = [r for r in selecting if r["rank_validation"] is not None]
            agree = list(rankdata([r["rank_test"] for r in ranked])) == list(
                rankdata([r["rank_validation"] for r in ranked])
            )
            if len(ranked) > 1:
                summary.paragraphs.append(
                    "The ranking by validation score "
                    + ("agrees with" if agree else "differs from")
                    + " the ranking by test score"
                    + ("" if len(ranked) == len(selecting) else " of the models that have one")
                    + "."
                )
        return summary

    # -- several data sets ------------------------------------------------------------------

    def _paper_table(self):
        result, alpha = self.result, self.alpha
        if self._best is None and len(result.models) > 1:
            return None  # the models' metrics differ: no table of one metric
        section = Section(
            "Scores as a paper prints them",
            columns=["model", *(num(d) for d in result.datasets)],
            paragraphs=[
                table_caption(result, None, None)
                if self._best is None
                else table_caption(result, alpha, self._best)
            ],
        )
        texts = result.table(confidence=self.confidence, mark=False)
        for model in result.models:
            row = [model]
            for dataset in result.datasets:  # one model (no _best): no best to mark
                mark = None if self._best is None else emphasis(model, *self._best[dataset], alpha)
                row.append(Cell(texts.loc[model, dataset], numeric=True, emphasis=mark))
            section.rows.append(row)
        return section

    def _baseline_section(self):
        result, alpha = self.result, self.alpha
        baseline = result.baseline
        section = Section(f"Against the baseline {baseline}")
        table, caught = self._against_baseline
        if isinstance(table, ValueError):
            section.paragraphs.append(f"No comparison: {table}")
            return section
        section.columns = [
            *([] if self._one else ["data set"]),
            "model",
            num("model - baseline", title="difference of the mean test scores, printed units"),
            *map(num, (f"{self._level} interval (corrected t)", "p", "p (Holm)")),
            num("P(model beats baseline)"),
            "verdict",
        ]
        for row in table.itertuples():
            metric = self._metric(result.cells[row.dataset, row.model])
            d = self.decimals(metric.name, row.dataset)
            if not np.isfinite(row.pvalue):  # a cell whose folds failed: not tested
                section.rows.append(
                    [*([] if self._one else [row.dataset]), row.model, *[""] * 5, row.verdict]
                )
                continue
            difference, interval = signed_difference(row.difference, row.ci_low, row.ci_high, d)
            section.rows.append(
                [
                    *([] if self._one else [row.dataset]),
                    row.model,
                    num(f"{difference} {metric.name}"),
                    num(interval),
                    num(pvalue(row.pvalue, alpha)),
                    num(pvalue(row.pvalue_holm, alpha)),
                    num(probability(row.probability_of_improvement, 2)),
                    Cell(row.verdict, emphasis="strong" if row.significant else None),
                ]
            )
        errors = sorted({self._metric(c).name for c in result.cells.values() if c.metric.sign < 0})
        section.paragraphs.append(
            f"Differences of the mean test score, model minus {baseline}, in the metric's "
            "printed units, on the shared outer folds: corrected resampled t-test (Nadeau and "
            f"Bengio), {self._level} corrected t interval, p-values adjusted with Holm's method "
            f"across all {holm_family(table)} comparisons; better or worse when Holm rejects at "
            f"level {alpha:g}. P(model beats baseline): the probability that a fold score of the "
            "model beats one of the baseline's."
        )
        if errors:
            section.paragraphs.append(
                f"{', '.join(errors)}: lower is better, so a negative difference favours the model."
            )
        section.paragraphs += [f"Warning: {w.message}" for w in caught]
        return section

    def _across_section(self):
        """The Bayesian signed-rank test and the win/tie/loss counts against the baseline."""
        result = self.result
        section = Section(f"Across the data sets, against {result.baseline}")
        rope = result._default_rope() if self.rope is None else self.rope
        if rope is None:
            section.paragraphs.append(
                "No Bayesian comparison: its region of practical equivalence is in the "
                "metric's units, which sklearn-fair knows only for metrics in [0, 1]; give it "
                "with BenchmarkResult.report(rope=...) or BenchmarkResult.to_html(rope=...) "
                "(of the files of sklearn-fair run: BenchmarkResult.from_results of its "
                "models/ files)."
            )
            return section
        against = self._against_baseline[0]  # the counts are its verdicts: one family
        try:
            if isinstance(against, ValueError):
                raise against
            datasets = result._pooled_datasets("compare_across")
            table = result._across(result.baseline, against, datasets, rope=rope)
        except ValueError as error:
            section.paragraphs.append(f"No comparison across the data sets: {error}")
            return section
        section.columns = ["model", *map(num, ("P(better)", "P(equivalent)", "P(worse)"))]
        section.columns.append(num("wins / ties / losses"))
        for row in table.itertuples():
            probabilities = (row.p_better, row.p_equivalent, row.p_worse)
            section.rows.append(
                [row.model, *(num(probability(p)) for p in probabilities)]
                + [num(f"{row.wins} / {row.ties} / {row.losses}")]
            )
        left_out = f" (left out: {_left_out(self._failed)})" if self._failed else ""
        section.paragraphs += [
            "The Bayesian signed-rank test (Benavoli, Corani, Demšar and Zaffalon, JMLR 2017) on "
            f"the {len(datasets)} data sets' mean test scores{left_out}: the posterior "
            f"probability that the model is better than {result.baseline} by more than {rope:g} "
            "(the region of practical equivalence, in the metric's units), within it, or worse.",
            "Wins, ties and losses: those of these data sets where the comparison with the "
            "baseline above (corrected resampled t-test, Holm across all its comparisons) finds "
            f"the model better or worse at level {self.alpha:g}; a tie is a difference not "
            "demonstrated.",
        ]
        return section

    @cached_property
    def _failed(self):
        """Data set -> the models whose folds failed on it: no model is ranked there."""
        return self.result._failed_models()

    def _ranks_section(self, ranked):
        left_out = _left_out(self._failed)
        why = "a rank test needs every model's score on every data set"
        if not ranked:
            return Section(
                "Ranks",
                paragraphs=[
                    f"No ranks across data sets: {why}, and fewer than 2 data sets have them. "
                    f"Left out: {left_out}."
                ],
            )
        ranks = self._ranks
        chosen = []
        if ranks.n_datasets >= 5:
            chosen = [str(self.result.multiple_comparison(alpha=self.alpha))]
        return Section(
            "Ranks",
            columns=["model", num("average rank")],
            rows=[
                [model, num(f"{rank:.2f}")]
                for model, rank in sorted(ranks.average_ranks.items(), key=lambda item: item[1])
            ],
            paragraphs=[
                f"Ranks of the mean {metric_of_tables(self.result)} over {ranks.n_datasets} "
                f"data sets (1 is the best).{f' Left out: {left_out}; {why}.' if left_out else ''}"
                f" Friedman's test: chi-square {ranks.statistic:.3g}, p "
                f"{pvalue(ranks.pvalue, self.alpha)}; Iman and Davenport's F "
                f"{ranks.iman_davenport_statistic:.3g}, p "
                f"{pvalue(ranks.iman_davenport_pvalue, self.alpha)} (both "
                f"{ranks.pvalue_method} permutation p-values). "
                f"Nemenyi's critical difference at level {self.alpha:g}: "
                f"{ranks.critical_difference:.2f}.",
                *chosen,
            ],
        )

    def _selection_counts(self):
        result = self.result
        headers, renamed = _param_headers([p for c in result.cells.values() for p in c.best_params])
        section = Section(
            "Selected hyper-parameters",
            columns=["data set", "model", "hyper-parameter", "selected (folds)"],
        )
        for (dataset, model), cell in result.cells.items():
            for name, counts in selection_counts(cell.best_params).items():
                counts = ", ".join(f"{v} ({n})" for v, n in counts.items())
                section.rows.append([dataset, model, headers[name], counts])
        if not section.rows:
            return None
        section.paragraphs.append(
            "Each value selected by the inner search, with the number of outer folds that "
            "selected it." + (f" {renamed}" if renamed else "")
        )
        for (dataset, model), cell in result.cells.items():
            ties = _tie_note(cell, _validation_metric(cell, self._metric(cell)))
            if ties:
                section.paragraphs.append(f"{model} on {dataset}: {ties}")
        return section

    def _budgets_section(self):
        budget = self.result.budget
        labels = {
            "n_candidates": "candidates",
            "n_inner_fits": "inner fits",
            "n_searches": "searches",
            "n_hidden_searches": "searches inside",
            "n_refit_fits": "refit fits",
        }
        keys = [k for k in labels if k in budget and not budget[k].isna().all()]
        section = Section(
            "Tuning budgets",
            columns=[
                *([] if self._one else ["data set"]),
                "model",
                *(num(labels[k]) for k in keys),
                num("fit time (s)"),
            ],
            paragraphs=[
                "What each cell's tuning cost: the candidates per search, the inner fits, whole "
                "searches and refits, and the seconds its fits took. A baseline tuned with a "
                "much smaller budget than the model it is compared with makes the model look "
                "better."
            ],
        )
        if "n_hidden_searches" in keys:
            section.paragraphs.append(
                "Searches inside: the model's steps that select by splits of their own "
                "(RidgeCV, a search in a pipeline), whose candidates and fits the other counts "
                "leave out: a baseline with one is not judged by its budget."
            )
        for values in budget.to_dict("records"):
            section.rows.append(
                [
                    *([] if self._one else [values["dataset"]]),
                    values["model"],
                    *(num("n/a" if np.isnan(values[k]) else int(values[k])) for k in keys),
                    num(number(values["fit_time"], 2)),
                ]
            )
        return section

    def _failures_section(self):
        cells = [c for c in self._cells() if c.failures]
        if not cells:
            return None
        section = Section(
            "Failed fits",
            columns=[*([] if self._one else ["data set"]), "model", "outer fold"]
            + [num("failed fits"), "first error"],
            paragraphs=[
                "A fit that raised was given the run's error_score for every metric, and a "
                "scorer that raised for its own; a NaN or infinite score was kept. Of several "
                "candidates, one whose mean validation score (of the selecting metric) is not "
                "finite cannot be selected; a model's only candidate is taken whatever its "
                "validation score (there is nothing to choose). A fold where every inner fit "
                "raised, or where no candidate of several has a finite mean validation score, "
                "has no selection. A fold without a selection, or with a failed refit, is a "
                f"failed fold, scored error_score. In the tables above, {self._failed_scores()}."
            ]
            + [_unvalidated_words(c, self._one) for c in self._cells() if _unvalidated(c)],
        )
        for cell in cells:
            for fold, failure in sorted(cell.failures.items(), key=lambda f: (f[0] is None, f[0])):
                section.rows.append(
                    [
                        *([] if self._one else [cell.dataset]),
                        cell.model,
                        "final model" if fold is None else num(fold),
                        num(failure["count"]),
                        failure["error"],
                    ]
                )
        return section

    def _undefined_section(self):
        """The test scores that are not measurements but the value a scorer sets where its
        metric is undefined, each in the sentence NestedCV's summary gives it
        (:func:`~sklearn_fair.model_selection._nested._results.undefined_score_note`)."""
        notes = []
        for cell in self._cells():
            where = "" if self._one else f" on {cell.dataset}"
            for key, folds in cell.undefined_metric_folds.items():
                for fold, message in sorted(folds.items()):
                    score = cell.scores_per_metric[key][fold]
                    note = undefined_score_note(self._metric(cell, key), fold, score, message)
                    notes.append(f"{cell.model}{where}: {note}.")
        if not notes:
            return None
        return Section(
            "Undefined test scores",
            paragraphs=[
                "Where a metric is undefined on an outer test fold (recall on a fold without "
                "positives), its scorer gives the value it is set to (scikit-learn's "
                "zero_division) with an UndefinedMetricWarning: kept, as cross_validate keeps "
                "it, in the tables above.",
                *notes,
            ],
        )

    # -- one data set -----------------------------------------------------------------------

    def _selection_section(self, model):
        headers, renamed = _param_headers(model.best_params)
        metric = self._metric(model)
        chosen_by = _validation_metric(model, metric)
        others = [key for key in model.metrics if key != model.refit_metric]
        section = Section(
            f"Selected hyper-parameters: {model.name}",
            columns=[
                "outer fold",
                *headers.values(),
                num(f"validation {chosen_by}"),
                num(f"test {metric}"),
                *(num(f"test {self._metric(model, key)}") for key in others),
            ],
        )
        validation = chosen_by.values(model.validation_scores)
        tests = {key: model.metrics[key].values(model.test_scores(key)) for key in model.metrics}
        digits = {key: self.decimals(self._metric(model, key).name) for key in model.metrics}
        for fold, params in enumerate(model.best_params):
            section.rows.append(
                [num(fold)]
                + [_param_cell((params or {}).get(name, "")) for name in headers]
                + [num(number(validation[fold], digits[model.refit_metric]))]
                + [num(number(tests[model.refit_metric][fold], digits[model.refit_metric]))]
                + [num(number(tests[key][fold], digits[key])) for key in others]
            )
        medians = self.median_params[model.name]
        if medians:
            selected = param_columns(model.best_params)
            # as the folds' rows print it: the median of integers, where whole, as one
            whole = {
                n: m.is_integer() and all(isinstance(v, numbers.Integral) for v in selected[n])
                for n, m in medians.items()
            }
            section.rows.append(
                ["median"]
                + [
                    _param_cell(int(medians[n]) if whole[n] else medians[n]) if n in medians else ""
                    for n in headers
                ]
                + [""] * (2 + len(others))
            )
        if renamed:
            section.paragraphs.append(renamed)
        ties = _tie_note(model, chosen_by)
        if ties:
            section.paragraphs.append(ties)
        if "selection" in model.resampling:  # the validation score is not the best one's
            section.paragraphs.append(f"Selected by the {model.resampling['selection']}.")
        if not np.all(np.isfinite([validation, *tests.values()])):
            where = "fits" if _unvalidated(model) else "folds"  # a fold tested, not validated
            section.paragraphs.append(f"n/a where {where} failed (see Failed fits).")
        return section

    def _comparison_section(self):
        if self.comparison is None:
            if self.comparison_note is None:
                return None
            return Section("Pairwise comparison", paragraphs=[self.comparison_note])
        table = self.comparison
        metric = self.comparison_metric
        d = self.decimals(metric.name)
        n_pairs = int(np.isfinite(np.asarray(table["pvalue"], dtype=float)).sum())
        paragraphs = [
            f"Differences of the mean test {metric} ({_selected_with(self._models, table)}) "
            "over the shared outer folds: corrected resampled t-test "
            f"(Nadeau and Bengio), {self._level} corrected resampled t interval of each "
            "difference, p-values "
            f"adjusted with Holm's method over the {n_pairs} pair{'' if n_pairs == 1 else 's'}; "
            "a difference is demonstrated when Holm rejects at level "
            f"{1 - self.confidence:.3g}.{self._corrected_t_note}"
        ]
        if self.result.baseline is not None:
            paragraphs.append(
                f"The comparison with the baseline {self.result.baseline} adjusts over its own "
                "family (the comparisons with it), so its verdict on a pair with the baseline "
                "can differ from this table's."
            )
        if metric.sign < 0:
            paragraphs.append(
                f"{metric}: lower is better, so a negative difference favours A; {metric.note}."
            )
        if self.comparison_note is not None:  # the models it leaves out
            paragraphs.append(self.comparison_note)
        section = Section(
            "Pairwise comparison",
            columns=["A", "B", num(f"mean {metric} A - B")]
            + [*map(num, (f"{self._level} interval (corrected t)", "p", "p (Holm)")), "verdict"],
            paragraphs=paragraphs,
        )
        for i, (a, b, difference, low, high) in enumerate(printed_pairs(table, metric)):
            printed, interval = signed_difference(difference, low, high, d)
            section.rows.append(
                [
                    a,
                    b,
                    num(printed),
                    num(interval),
                    num(pvalue(table["pvalue"][i], 1 - self.confidence)),
                    num(pvalue(table["pvalue_holm"][i], 1 - self.confidence)),
                    table["verdict"][i],
                ]
            )
        return section

    # -- plots ------------------------------------------------------------------------------

    def _figures_section(self, with_ranks):
        section = Section("Plots")
        missing = matplotlib_missing()
        if missing is not None:
            section.paragraphs.append(missing)
            return section
        from . import _plots
        from ._html import figure_from_matplotlib

        def add(figure, alt, caption):
            section.figures.append(figure_from_matplotlib(figure, alt=alt, caption=caption))

        result, level = self.result, self._level
        if not self._one:
            failed = [f"{c.model} on {c.dataset}" for c in self._cells() if c.n_failed_folds()]
            if failed:  # the figure says it at each one's place too
                section.paragraphs.append(_not_drawn(failed))
            add(
                result.plot_intervals(confidence=self.confidence, interval=self.interval),
                f"Mean test score of each model on each data set with its {level} interval",
                f"Mean test score of each model on each data set, with the {level} interval of "
                "the mean that the table gives.",
            )
            if with_ranks and importlib.util.find_spec("scikit_posthocs") is not None:
                add(
                    _plots.critical_difference_diagram(self._ranks, self.alpha, None),
                    "Critical-difference diagram of the models' average ranks",
                    "Average ranks; models joined by a bar are not significantly different "
                    f"(Nemenyi, level {self.alpha:g}).",
                )
            return section
        if shared_metric(self._models) is None:
            section.paragraphs.append(
                "No plots: they draw the metric that selected the hyper-parameters (a "
                "search's test metric where its own scoring selected) on one axis, and the "
                "models were scored with different metrics "
                f"({describe_metrics(self._models)})."
            )
            return section
        results = {m.name: m for m in self._models if not m.n_failed_folds()}
        if len(results) < len(self._models):
            section.paragraphs.append(
                _not_drawn(m.name for m in self._models if m.name not in results)
            )
        if not results:
            return section
        metric = self._metric(self._models[0])
        add(
            _plots.plot_fold_scores(
                results,
                confidence=self.confidence,
                interval=self.interval,
                n_resamples=self.n_resamples,
                random_state=self._root,
            ),
            f"Test {metric} of each outer fold, per model, with the mean and the IQM and their "
            f"{level} intervals",
            f"Test {metric} per outer fold (dots), the mean with its {level} interval and the "
            "IQM with its bootstrap interval.",
        )
        add(
            _plots.plot_optimism(results),
            f"Validation against test {metric} per outer fold",
            "Each dot is one outer fold: the selected configuration's validation score against "
            "its test score. Dots on the better side of the diagonal are folds where validation "
            "was optimistic.",
        )
        if self.comparison is not None:
            add(
                _plots.draw_comparison(self.comparison, self.comparison_metric, self.confidence),
                f"Pairwise differences of mean test {metric} with their intervals",
                f"Differences of the mean test {metric}, A - B, with their {level} corrected t "
                "intervals; red where Holm's procedure demonstrates the difference.",
            )
        return section

    def _predictions_section(self):
        """What each model predicted, one figure per model and data set (when kept)."""
        cells = [c for c in self._cells() if c.predictions is not None]
        if not cells:
            return None
        from ._html import figure_from_matplotlib
        from ._plots import (
            MAX_OUTPUT_PANELS,
            _figure,
            draw_panel,
            has_labels,
            nonfinite_note,
            prediction_panels,
        )

        section = Section(
            "Predictions",
            paragraphs=[
                "What each model predicted for the rows of its outer test folds, each row by "
                "the model tuned and refit without it (the refits combined: their mean "
                "probability and its class; the mean prediction of a regressor; the majority "
                "vote of an outlier detector). Drawn with "
                "scikit-learn's displays; the curves are one per outer fold, so their spread "
                "shows how much the folds differ."
            ],
        )
        for cell in cells:
            where = "" if self._one else f" on {cell.dataset}"
            if not has_labels(cell):
                section.paragraphs.append(
                    f"{cell.model}{where}: the data were given without labels (y=None): there "
                    "are none to draw its predictions against."
                )
                continue
            missing = [fold for fold, kept in enumerate(cell.predictions) if kept is None]
            if missing:
                section.paragraphs.append(
                    f"{cell.model}{where}: outer fold(s) {', '.join(map(str, missing))} kept no "
                    "predictions (a fold that failed keeps none) and are not drawn."
                )
            note = nonfinite_note(cell)
            if note is not None:
                section.paragraphs.append(note)
            panels = prediction_panels(cell)
            if not panels:  # a multi-output target of more columns than are drawn
                section.paragraphs.append(
                    f"{cell.model}{where}: the predictions of a target of more than "
                    f"{MAX_OUTPUT_PANELS} columns are not drawn; BenchmarkResult.predictions "
                    "lists them."
                )
            for panel in panels:
                figure, ax = _figure(None, (3.4, 3.2))
                draw_panel(panel, ax)
                alt = f"{cell.model}{where}: {panel[0]}"
                section.figures.append(figure_from_matplotlib(figure, alt=alt, caption=f"{alt}."))
        return section

    # -- forms ------------------------------------------------------------------------------

    def to_text(self):
        """The report as plain text (the verdict first)."""
        return render(self.title, self.sections(), "text", lead=self.verdict())

    def to_markdown(self):
        """The report as Markdown (the verdict first)."""
        return render(self.title, self.sections(), "markdown", lead=self.verdict())

    def to_html(self, *, plots=True):
        """The report as one self-contained HTML page (the verdict first, the plots embedded
        as PNG with ``plots`` and matplotlib; nothing fetched)."""
        return render(self.title, self.sections(figures=plots), "html", lead=self.verdict())

    def save(self, path):
        """Write the report to ``path``: Markdown (.md), HTML (.html) or text (.txt)."""
        suffix = os.path.splitext(os.fspath(path))[1].lower()
        if suffix not in _KINDS:
            raise ValueError(
                f"The 'path' parameter of save must end in one of {sorted(_KINDS)}. Got "
                f"{os.fspath(path)!r} instead."
            )
        text = getattr(self, f"to_{_KINDS[suffix]}")()
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
        return path

    def __str__(self):
        return self.to_text()

    def __repr__(self):
        models = list(dict.fromkeys(row["model"] for row in self.rows))
        if self._one:
            return f"NestedCVReport(models={models})"
        return f"NestedCVReport(models={models}, datasets={self.result.datasets})"


def _rows(cells, metrics, confidence, interval, n_resamples, root):
    """:attr:`NestedCVReport.rows` of ``cells``, each metric named as ``metrics``
    (:func:`~._format.printed_metrics`) names it."""
    rows = []
    for cell in cells:
        selecting = metrics[cell.dataset, cell.model, cell.refit_metric]
        for key in cell.metrics:
            metric = metrics[cell.dataset, cell.model, key]
            scores = cell.test_scores(key)
            failed = cell.n_failed_folds(key)
            if failed:  # folds failed: nothing computed, and said why
                summary = SimpleNamespace(
                    **dict.fromkeys(("mean", "ci_low", "ci_high", "iqm", "iqm_ci_low"), np.nan),
                    iqm_ci_high=np.nan,
                    ci_method=f"not computed: {failed} of {scores.size} folds failed (see Failed "
                    "fits)",
                    ci_coverage="",
                    metric_range=None,
                    iqm_ci_method="not computed",
                )
            else:
                summary = cell.summary(
                    key, root=root, confidence=confidence, interval=interval,
                    n_resamples=n_resamples,
                )  # fmt: skip
            compared = key == cell.refit_metric
            validated = compared and not failed
            # a search's own scoring: no optimism
            chosen_by = _validation_metric(cell, selecting)
            row = {
                "dataset": cell.dataset,
                "model": cell.model,
                "metric": metric.name,
                "scoring": scoring_label(cell, key, metric),
                # False where a search's own scoring, not this metric, selected
                "selects": compared and cell.selection_metric is None,
                "n_folds": int(scores.size),
                "test_mean": summary.mean,
                "test_std": np.nan if failed else summary.std,  # summarize's, scaled: no overflow
                "ci_low": summary.ci_low,
                "ci_high": summary.ci_high,
                "ci_method": summary.ci_method,
                "ci_coverage": summary.ci_coverage,
                "metric_range": summary.metric_range,
                "iqm": summary.iqm,
                "iqm_ci_low": summary.iqm_ci_low,
                "iqm_ci_high": summary.iqm_ci_high,
                "iqm_ci_method": summary.iqm_ci_method,
                "validation_mean": chosen_by.sign * float(mean_of(cell.validation_scores))
                if validated
                else None,
                "validation_metric": chosen_by.name if validated else None,
                "optimism": cell.optimism if validated else None,
                "greater_is_better": metric.greater_is_better,
                "note": metric.note,
                "n_failed_fits": cell.n_failed,
                "n_failed_folds": failed,
                # folds scored the value the scorer sets where the metric is undefined
                "n_undefined_folds": len(cell.undefined_metric_folds.get(key, {})),
            }
            if not failed:
                row.update({f"median_{k}": v for k, v in median_params(cell.best_params).items()})
            rows.append(row)
    _rank(rows)
    return rows


def _validation_metric(cell, metric):
    """The MetricName of ``cell``'s validation scores: its selecting ``metric`` as the report
    names it, or a search's own scoring."""
    return metric if cell.selection_metric is None else cell.selection_metric


def _tie_note(cell, metric):
    """In which outer folds of ``cell`` several distinct candidates tied for the best mean
    validation ``metric``, in the words of SelectionTieWarning; "" where none did, or where
    the result does not record it (a saved one: only a fitted NestedCV's ``outer_results_``
    and ``cv_results_`` hold each fold's ``tied_candidates`` and their parameters). Copies of
    one candidate (a grid listing a value twice, a sampler drawing with replacement) tie
    whatever the data: counted once, as the warning counts them."""
    folds = getattr(cell.estimator, "outer_results_", None) or ()
    rows = getattr(cell.estimator, "cv_results_", None) or {}
    params = {
        (int(fold), int(candidate)): given
        for fold, candidate, given in zip(
            rows.get("outer_fold", ()), rows.get("candidate", ()), rows.get("params", ())
        )
    }
    tied = []
    for i, fold in enumerate(folds):
        indices = fold.get("tied_candidates") or ()
        if any((i, c) not in params for c in indices):
            return ""  # the parameters of the tied candidates are not known
        tied.append((i, distinct_count([params[i, c] for c in indices])))
    tied = [(i, n) for i, n in tied if n > 1]
    if not tied:
        return ""
    total = cell.budget.get("n_candidates")
    of = f" of the {int(total)}" if _is_number(total) and total >= max(n for _, n in tied) else ""
    each = _names([f"{n}{of} in outer fold {i}" for i, n in tied])
    return (
        f"In {len(tied)} of the {len(folds)} outer folds the validation data could not "
        f"separate the best candidates: {each} tie for the best mean validation {metric}. "
        "Which one wins then says nothing about the candidates."
    )


def _rank(rows):
    """Rank the models by test score within each data set and metric (as the report names it:
    two metrics of a model never one), and by validation; none where a model's folds failed,
    as rank_comparison leaves such a data set out."""
    groups = {}
    for row in rows:
        groups.setdefault((row["dataset"], row["metric"], row["greater_is_better"]), []).append(row)
    for (*_, greater_is_better), group in groups.items():
        sign = 1 if greater_is_better else -1
        failed = [row["model"] for row in group if not np.isfinite(row["test_mean"])]
        for row in group:  # a model's folds failed: a rank needs every model's score
            row["not_ranked"] = (
                f"a rank needs every model's score on the data set. Left out: "
                f"{_left_out({row['dataset']: failed})} (see Failed fits)."
                if failed
                else None
            )
        for key, rank in (("test_mean", "rank_test"), ("validation_mean", "rank_validation")):
            for row in group:
                row[rank] = None
            if failed:
                continue
            ranked = [
                row
                for row in group
                if row[key] is not None
                and np.isfinite(row[key])
                and (key == "test_mean" or row["optimism"] is not None)  # of one metric
            ]
            # ties averaged, as rank_comparison ranks them: the Ranks section's average rank
            # of a model is the mean of its ranks here
            values = rankdata([-sign * tie_level(row[key]) for row in ranked])
            for row, value in zip(ranked, values):
                row[rank] = int(value) if float(value).is_integer() else float(value)


def _not_drawn(names):
    """The Plots section's sentence on what its figures leave out, ``names`` (models, or
    "model on data set") whose folds failed."""
    return f"Not drawn: {', '.join(names)} (folds failed; see Failed fits)."


def _left_out(failed):
    """The data sets left out (of a rank, of what pools data sets) and why, in words, from data
    set -> the models whose folds failed there ("" when none)."""
    return "; ".join(f"{d}, where folds of {_names(models)} failed" for d, models in failed.items())


def _unvalidated(cell):
    """The outer folds of ``cell`` with a selection and a test score of the selecting metric
    but no finite validation score (an only candidate whose inner fits or scorer failed)."""
    if not cell.failures:  # none failed: a validation score the results do not record
        return []
    return [
        fold
        for fold, params in enumerate(cell.best_params)
        if params is not None
        and fold not in cell.failed_folds
        and not np.isfinite(cell.validation_scores[fold])
    ]


def _unvalidated_words(cell, one):
    """:func:`_unvalidated` in words, for the Failed fits section (of ``one`` data set)."""
    folds = [str(fold) for fold in _unvalidated(cell)]
    which = f"outer fold {folds[0]} has" if len(folds) == 1 else f"outer folds {_names(folds)} have"
    why = (
        ": its only candidate is taken whatever its validation score"
        if cell.budget.get("n_candidates") == 1
        else ""
    )
    where = "" if one else f" on {cell.dataset}"
    return (
        f"{cell.model}{where}: {which} a selection and a test score but no finite validation "
        f"score (n/a){why}."
    )


def _selected_with(models, table):
    """Whether the metric of compare()'s ``table`` selected the hyper-parameters of the
    ``models`` it compares, in words: not for a search that selected with its own scoring."""
    compared = set(table["model_a"]) | set(table["model_b"])
    own = [m for m in models if m.name in compared and m.selection_metric is not None]
    if not own:
        return "the metric that selected the hyper-parameters"
    # a search's own scoring, or weighted selection scores: the metric each is named with
    named = ", ".join(f"{m.name} ({m.selection_metric})" for m in own)
    if len(own) == len(compared):
        return (
            f"not the metric that selected the hyper-parameters: {named} selected with the "
            "metric in parentheses"
        )
    return (
        f"the metric that selected the hyper-parameters, but for {named}, selected with the "
        "metric in parentheses"
    )


def _comparison(models, confidence):
    """compare()'s table on the selecting metric of the models whose every fold has a score,
    and which it leaves out (None: none); or (None, why not)."""
    if shared_metric(models) is None:
        return None, (
            "No pairwise comparison: the models selected their hyper-parameters with "
            f"different metrics ({describe_metrics(models)})."
        )
    failed = [m.name for m in models if m.n_failed_folds()]
    complete = [m for m in models if not m.n_failed_folds()]
    why = (
        f"folds of {', '.join(failed)} failed (see Failed fits), and a paired test needs every "
        "fold's score"
    )
    if len(complete) < 2:
        return None, f"No pairwise comparison: {why}."
    try:
        table = compare_results(complete, confidence=confidence)
    except (SplitsMismatchError, NoSplitsError) as error:
        return None, f"No pairwise comparison: {error}"
    return table, (f"Not compared: {', '.join(failed)}, as {why}." if failed else None)


def _param_cell(value):
    """A selected hyper-parameter's value: numbers right-aligned, floats to 6 digits; others
    as :func:`~._format.param_text` prints them, on one line."""
    if not _is_number(value):  # bools and None too
        return param_text(value)
    return num(int(value) if isinstance(value, numbers.Integral) else f"{float(value):.6g}")
