"""The report of one or several nested cross-validation results."""

import numbers
import os

import numpy as np
from scipy.stats import rankdata

from ..exceptions import SplitsMismatchError
from ..stats import summarize
from ._card import reproducibility_card
from ._format import decimals_for, number, pvalue, short_names, signed
from ._plots import matplotlib_missing
from ._results import as_results, compare_results, describe_metrics, shared_metric
from ._tables import Cell, Section, num, render
from ._verdict import verdict_sentence

_KINDS = {".md": "markdown", ".markdown": "markdown", ".html": "html", ".txt": "text"}


def _is_number(value):
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def median_params(best_params):
    """Median over the folds of each numeric hyper-parameter selected in every fold."""
    names = sorted({name for params in best_params for name in params})
    medians = {}
    for name in names:
        values = [params.get(name) for params in best_params]
        if all(_is_number(value) for value in values):
            medians[name] = float(np.median(np.asarray(values, dtype=float)))
    return medians


_SHORT = {"t": "Student t", "normal": "normal"}


class NestedCVReport:
    """Tables of one or several nested cross-validation results, and their reproducibility card.

    Made by :func:`nested_cv_report`. ``str(report)`` is the text version.

    Attributes
    ----------
    title : str
        The report's heading.
    rows : list of dict
        One per model and metric (the metric that selected the hyper-parameters first):
        ``model``, ``metric`` (its printed name), ``scoring`` (its key), ``selects``
        (whether it selected the hyper-parameters), ``n_folds``, ``test_mean``,
        ``test_std``, ``ci_low``, ``ci_high`` and ``ci_method`` (the interval of the
        mean and how it was made), ``metric_range`` (the range of the metric's values
        the interval was kept in, "[0, 1]", or "unknown": not clipped), ``iqm``,
        ``iqm_ci_low``, ``iqm_ci_high`` and ``iqm_ci_method``, ``validation_mean``,
        ``optimism``, ``rank_test``, ``rank_validation``, ``greater_is_better`` and
        ``note`` (of the metric, see :func:`~sklearn_fair.metrics.metric_display_name`)
        and ``median_<param>`` for each numeric hyper-parameter.
        Values are in the metric's printed units: a negated scikit-learn error
        ("neg_root_mean_squared_error") is the positive error. ``optimism`` is the mean
        validation score minus the mean test score in the scorer's direction (positive:
        validation looked better than test); it, ``validation_mean`` and
        ``rank_validation`` are None for a metric that did not select.
    selected_params : dict
        Model name -> list of the hyper-parameters selected in each outer fold.
    median_params : dict
        Model name -> median over the folds of each numeric selected hyper-parameter.
    comparison : dict of list or None
        The pairwise comparison of :func:`sklearn_fair.stats.compare` on the selecting
        metric, column -> values, in the scorer's units (higher is better); None for one
        model, or when the models' outer splits or selecting metrics differ.
    comparison_metric : MetricName or None
        The metric compared.
    comparison_note : str or None
        Why there is no comparison, when there is none for several models.
    card : ReproducibilityCard
        The reproducibility card that ends the report.
    confidence : float
        Level of the intervals.
    interval : str
        The kind of interval of the mean ("t" or "normal").
    n_resamples : int
        Bootstrap resamples of the IQM's interval, in the tables and in the plots.
    random_state : int
        Seed of the bootstrap.

    Notes
    -----
    Every form starts with :meth:`verdict`, one sentence. The printed numbers have the
    decimals of :meth:`decimals` (two significant digits of the metric's spread over the
    folds); ``rows`` and ``to_dataframe()`` keep full precision.
    """

    def __init__(
        self,
        title,
        rows,
        models,
        comparison,
        comparison_note,
        card,
        confidence,
        interval,
        n_resamples=10_000,
        random_state=0,
    ):
        self.title = title
        self.rows = rows
        self.selected_params = {m.name: m.best_params for m in models}
        self.median_params = {m.name: median_params(m.best_params) for m in models}
        self.comparison = comparison
        self.comparison_metric = models[0].metric if comparison is not None else None
        self.comparison_note = comparison_note
        self.card = card
        self.confidence = confidence
        self.interval = interval
        self.n_resamples = n_resamples
        self.random_state = random_state
        self._models = models

    def to_dataframe(self):
        """The summary table as a pandas DataFrame, one row per model and metric (needs pandas)."""
        import pandas as pd

        return pd.DataFrame(self.rows).set_index(["model", "metric"])

    def decimals(self, metric_name):
        """Decimals of a metric's printed numbers: two significant digits of its spread.

        From the smallest positive standard deviation of the metric's fold scores over the
        models (see :func:`~sklearn_fair.report._format.decimals_for`).
        """
        rows = [row for row in self.rows if row["metric"] == metric_name]
        return decimals_for([row["test_mean"] for row in rows], [row["test_std"] for row in rows])

    def verdict(self):
        """The report's conclusion in one sentence: the comparison's verdict, or why none."""
        if self.comparison is not None:
            metric = self.comparison_metric
            return verdict_sentence(
                self.comparison,
                metric,
                n_folds=len(self._models[0].test_scores),
                confidence=self.confidence,
                decimals=self.decimals(metric.name),
            )
        if self.comparison_note is not None:
            return self.comparison_note
        row = self.rows[0]
        d = self.decimals(row["metric"])
        return (
            f"{row['model']}: test {row['metric']} {number(row['test_mean'], d)} over "
            f"{row['n_folds']} outer folds, {100 * self.confidence:g}% interval of the mean "
            f"[{number(row['ci_low'], d)}, {number(row['ci_high'], d)}]."
        )

    def sections(self, *, figures=False):
        """The report's sections, in order: summary, selection per model, plots (with
        ``figures``; they need matplotlib), comparison and reproducibility card."""
        return [
            section
            for section in [
                self._summary_section(),
                *(self._selection_section(model) for model in self._models),
                self._figures_section() if figures else None,
                self._comparison_section(),
                self.card.section(),
            ]
            if section is not None
        ]

    def _summary_section(self):
        level = f"{100 * self.confidence:g}%"
        kind = _SHORT.get(self.interval, self.interval)
        summary = Section(
            "Test performance",
            columns=[
                "model",
                "metric",
                "test mean ± std",
                Cell(f"{level} interval of the mean ({kind})", numeric=True),
                Cell(f"IQM [{level} interval (bootstrap)]", numeric=True),
                Cell("mean validation", numeric=True),
                Cell(
                    "optimism",
                    title="how much better the mean validation score looked than the mean "
                    "test score, in the metric's units; positive: validation was optimistic",
                    numeric=True,
                ),
                Cell("rank by test", numeric=True),
                Cell("rank by validation", numeric=True),
            ],
        )
        n_folds = sorted({row["n_folds"] for row in self.rows})
        methods = list(dict.fromkeys(row["ci_method"] for row in self.rows))
        summary.paragraphs += [
            f"Test scores over {' or '.join(map(str, n_folds))} outer folds (std as numpy's, "
            "ddof=0).",
            f"Interval of the mean: {'; '.join(methods)}. Interval of the IQM: "
            f"{self.rows[0]['iqm_ci_method']}. Both treat the outer folds as independent; "
            "their training sets overlap, so both are optimistic.",
            "Mean validation, optimism and the rank by validation are those of the metric "
            "that selected the hyper-parameters. Optimism is how much better the mean "
            "validation score looked than the mean test score, in the metric's printed units: "
            "validation minus test for a score, test minus validation for an error (lower is "
            "better); positive when validation was optimistic.",
            "Numbers are printed to two significant digits of the smallest standard deviation "
            "of their metric's fold scores.",
        ]
        summary.paragraphs += list(
            dict.fromkeys(f"{row['metric']}: {row['note']}." for row in self.rows if row["note"])
        )
        summary.paragraphs += list(
            dict.fromkeys(
                f"{row['metric']}: the range of its values is not known, so its interval of "
                "the mean is left as computed (not clipped to a range)."
                for row in self.rows
                if row.get("metric_range") == "unknown"
            )
        )
        for row in self.rows:
            d = self.decimals(row["metric"])
            metric = row["metric"]
            formula = (
                f"mean validation {metric} - mean test {metric}"
                if row["greater_is_better"]
                else f"mean test {metric} - mean validation {metric} (lower is better)"
            )
            summary.rows.append(
                [
                    row["model"],
                    metric + (" (selects)" if row["selects"] and self._multimetric else ""),
                    num(f"{number(row['test_mean'], d)} ± {number(row['test_std'], d)}"),
                    num(f"[{number(row['ci_low'], d)}, {number(row['ci_high'], d)}]",
                        title=row["ci_method"]),
                    num(f"{number(row['iqm'], d)} [{number(row['iqm_ci_low'], d)}, "
                        f"{number(row['iqm_ci_high'], d)}]", title=row["iqm_ci_method"]),
                    num(number(row["validation_mean"], d)),
                    num("n/a" if row["optimism"] is None else signed(row["optimism"], d),
                        title=None if row["optimism"] is None else formula),
                    num(row["rank_test"]),
                    num("n/a" if row["rank_validation"] is None else row["rank_validation"]),
                ]
            )  # fmt: skip
        selecting = [row for row in self.rows if row["selects"]]
        if (
            len(selecting) > 1
            and len({(r["metric"], r["greater_is_better"]) for r in selecting}) == 1
        ):
            agree = [r["rank_test"] for r in selecting] == [r["rank_validation"] for r in selecting]
            summary.paragraphs.append(
                "The ranking by validation score "
                + ("agrees with" if agree else "differs from")
                + " the ranking by test score."
            )
        return summary

    @property
    def _multimetric(self):
        return any(len(model.metrics) > 1 for model in self._models)

    def _selection_section(self, model):
        names = sorted({name for params in model.best_params for name in params})
        short = short_names(names)
        metric = model.metric
        others = [key for key in model.metrics if key != model.refit_metric]
        section = Section(
            f"Selected hyper-parameters: {model.name}",
            columns=[
                "outer fold",
                *(Cell(short[n], title=n if short[n] != n else None) for n in names),
                Cell(f"validation {metric}", numeric=True),
                Cell(f"test {metric}", numeric=True),
                *(Cell(f"test {model.metrics[key]}", numeric=True) for key in others),
            ],
        )
        validation = metric.values(model.validation_scores)
        tests = {
            key: model.metrics[key].values(model.test_scores_per_metric[key])
            for key in model.metrics
        }
        digits = {key: self.decimals(model.metrics[key].name) for key in model.metrics}
        for fold, params in enumerate(model.best_params):
            section.rows.append(
                [num(fold)]
                + [_param_cell(params.get(name, "")) for name in names]
                + [num(number(validation[fold], digits[model.refit_metric]))]
                + [num(number(tests[model.refit_metric][fold], digits[model.refit_metric]))]
                + [num(number(tests[key][fold], digits[key])) for key in others]
            )
        medians = self.median_params[model.name]
        if medians:
            section.rows.append(
                ["median"]
                + [num(f"{medians[n]:.4g}") if n in medians else "" for n in names]
                + [""] * (2 + len(others))
            )
        shortened = [f"{short[n]} is {n}" for n in names if short[n] != n]
        if shortened:
            section.paragraphs.append(
                "Parameters are named without their pipeline step: " + "; ".join(shortened) + "."
            )
        return section

    def _plot_results(self):
        return {model.name: model for model in self._models}

    def _figures_section(self):
        section = Section("Plots")
        missing = matplotlib_missing()
        if missing is not None:
            section.paragraphs.append(missing)
            return section
        if shared_metric(self._models) is None:
            section.paragraphs.append(
                "No plots: they draw the metric that selected the hyper-parameters on one "
                f"axis, and the models selected with different metrics "
                f"({describe_metrics(self._models)})."
            )
            return section
        from ._html import figure_from_matplotlib
        from ._plots import plot_comparison, plot_fold_scores, plot_optimism

        results = self._plot_results()
        metric = self._models[0].metric
        level = f"{100 * self.confidence:g}%"
        section.figures.append(
            figure_from_matplotlib(
                plot_fold_scores(
                    results,
                    confidence=self.confidence,
                    interval=self.interval,
                    n_resamples=self.n_resamples,
                    random_state=self.random_state,
                ),
                alt=f"Test {metric} of each outer fold, per model, with the mean and the IQM "
                f"and their {level} intervals",
                caption=f"Test {metric} per outer fold (dots), the mean with its {level} "
                "interval and the IQM with its bootstrap interval.",
            )
        )
        section.figures.append(
            figure_from_matplotlib(
                plot_optimism(results),
                alt=f"Validation against test {metric} per outer fold",
                caption="Each dot is one outer fold: the selected configuration's validation "
                "score against its test score. Dots on the better side of the diagonal are "
                "folds where validation was optimistic.",
            )
        )
        if self.comparison is not None:
            section.figures.append(
                figure_from_matplotlib(
                    plot_comparison(results, confidence=self.confidence),
                    alt=f"Pairwise differences of mean test {metric} with their intervals",
                    caption=f"Differences of the mean test {metric}, A - B, with their "
                    f"{level} corrected t intervals; red where Holm's procedure demonstrates "
                    "the difference.",
                )
            )
        return section

    def _comparison_section(self):
        if self.comparison is None:
            if self.comparison_note is None:
                return None
            return Section("Pairwise comparison", paragraphs=[self.comparison_note])
        level = f"{100 * self.confidence:g}%"
        table = self.comparison
        metric = self.comparison_metric
        d = self.decimals(metric.name)
        paragraphs = [
            f"Differences of the mean test {metric} (the metric that selected the "
            "hyper-parameters) over the shared outer folds: corrected resampled t-test "
            f"(Nadeau and Bengio), {level} Student t interval of each difference, p-values "
            "adjusted with Holm's method; a difference is demonstrated when Holm rejects "
            f"at level {1 - self.confidence:.3g}."
        ]
        if metric.sign < 0:
            paragraphs.append(
                f"{metric}: lower is better, so a negative difference favours A; {metric.note}."
            )
        section = Section(
            "Pairwise comparison",
            columns=[
                "A",
                "B",
                Cell(f"mean {metric} A - B", numeric=True),
                Cell(f"{level} interval (corrected t)", numeric=True),
                Cell("p", numeric=True),
                Cell("p (Holm)", numeric=True),
                "verdict",
            ],
            paragraphs=paragraphs,
        )
        for i in range(len(table["model_a"])):
            difference = metric.sign * table["mean_difference"][i]
            low, high = sorted(metric.sign * np.array([table["ci_low"][i], table["ci_high"][i]]))
            section.rows.append(
                [
                    table["model_a"][i],
                    table["model_b"][i],
                    num(signed(difference, d)),
                    num(f"[{signed(low, d)}, {signed(high, d)}]"),
                    num(pvalue(table["pvalue"][i])),
                    num(pvalue(table["pvalue_holm"][i])),
                    table["verdict"][i],
                ]
            )
        return section

    def to_text(self):
        """The report as plain text (the verdict first)."""
        return render(self.title, self.sections(), "text", lead=self.verdict())

    def to_markdown(self):
        """The report as Markdown (the verdict first)."""
        return render(self.title, self.sections(), "markdown", lead=self.verdict())

    def to_html(self, *, plots=True):
        """The report as one self-contained HTML page.

        The verdict and the test performance first, then each model's selection, the
        plots (embedded as PNG; with ``plots`` and matplotlib), the comparison and the
        reproducibility card. Inline style, nothing fetched; readable from a phone's width
        up. The page is :func:`~sklearn_fair.report._html.html_page`'s template.
        """
        return render(self.title, self.sections(figures=plots), "html", lead=self.verdict())

    def save(self, path):
        """Write the report to ``path``: Markdown (.md), HTML (.html) or text (.txt)."""
        suffix = os.path.splitext(os.fspath(path))[1].lower()
        if suffix not in _KINDS:
            raise ValueError(
                f"The 'path' parameter of save must end in one of {sorted(_KINDS)}. Got "
                f"{os.fspath(path)!r} instead."
            )
        kind = _KINDS[suffix]
        text = {"markdown": self.to_markdown, "html": self.to_html, "text": self.to_text}[kind]()
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
        return path

    def __str__(self):
        return self.to_text()

    def __repr__(self):
        return f"NestedCVReport(models={list(dict.fromkeys(row['model'] for row in self.rows))})"


def _rows(models, *, confidence, interval, n_resamples, random_state):
    rows = []
    for model in models:
        for key, metric in model.metrics.items():
            scores = model.test_scores_per_metric[key]
            summary = summarize(
                scores,
                metric=metric,
                confidence=confidence,
                interval=interval,
                n_resamples=n_resamples,
                random_state=random_state,
            )
            selects = key == model.refit_metric
            validation = float(np.mean(model.validation_scores))
            row = {
                "model": model.name,
                "metric": metric.name,
                "scoring": key,
                "selects": selects,
                "n_folds": int(scores.size),
                "test_mean": summary.mean,
                "test_std": float(np.std(scores)),
                "ci_low": summary.ci_low,
                "ci_high": summary.ci_high,
                "ci_method": summary.ci_method,
                "metric_range": summary.metric_range,
                "iqm": summary.iqm,
                "iqm_ci_low": summary.iqm_ci_low,
                "iqm_ci_high": summary.iqm_ci_high,
                "iqm_ci_method": summary.iqm_ci_method,
                "validation_mean": metric.sign * validation if selects else None,
                "optimism": validation - float(np.mean(scores)) if selects else None,
                "greater_is_better": metric.greater_is_better,
                "note": metric.note,
            }
            row.update({f"median_{k}": v for k, v in median_params(model.best_params).items()})
            rows.append(row)
    _rank(rows)
    return rows


def _rank(rows):
    """Rank the models by test score within each metric, and by validation score."""
    groups = {}
    for row in rows:
        groups.setdefault((row["metric"], row["greater_is_better"]), []).append(row)
    for (_, greater_is_better), group in groups.items():
        sign = 1 if greater_is_better else -1
        for key, rank in (("test_mean", "rank_test"), ("validation_mean", "rank_validation")):
            ranked = [row for row in group if row[key] is not None]
            values = rankdata([-sign * row[key] for row in ranked], method="min")
            for row in group:
                row[rank] = None
            for row, value in zip(ranked, values):
                row[rank] = int(value)


def _comparison(models, confidence):
    """compare()'s table on the selecting metric, or (None, why not)."""
    if shared_metric(models) is None:
        return None, (
            "No pairwise comparison: the models selected their hyper-parameters with "
            f"different metrics ({describe_metrics(models)})."
        )
    try:
        table = compare_results(models, confidence=confidence)
    except SplitsMismatchError as error:
        return None, f"No pairwise comparison: {error}"
    return {column: list(table[column]) for column in table}, None


def nested_cv_report(
    results,
    *,
    X=None,
    y=None,
    splits_file=None,
    stratified=None,
    title="Nested cross-validation report",
    confidence=0.95,
    interval="t",
    n_resamples=10_000,
    random_state=0,
):
    """Report one nested cross-validation result, or several compared on the same splits.

    For each model and each of its metrics: the test mean +/- std over the outer folds,
    the interval of the mean (Student t by default) and the bootstrap interval of the
    IQM, each with its method; for the metric that selected the hyper-parameters also
    the mean validation score, the optimism gap (validation minus test) and the ranking
    by validation score beside the ranking by test score. Then each fold's selected
    hyper-parameters with the median of each numeric one. Several models are compared
    pairwise on the selecting metric with :func:`sklearn_fair.stats.compare`. Every
    number is printed with the name of its metric, and scikit-learn's negated errors
    ("neg_root_mean_squared_error") as positive errors ("RMSE"), with a note saying so.
    The report ends with a :class:`ReproducibilityCard`.

    Parameters
    ----------
    results : NestedCV, dict, or dict of str to NestedCV or dict
        A fitted :class:`~sklearn_fair.NestedCV` (or its :func:`result_to_dict`),
        or several by name.
    X, y : array-like, default=None
        The data, to fingerprint it and check stratification (see
        :func:`reproducibility_card`).
    splits_file : str or path-like, default=None
        The saved splits file the outer folds came from.
    stratified : bool, default=None
        Whether the splits are stratified; None checks them against ``y``.
    title : str, default="Nested cross-validation report"
        Heading of the report.
    confidence : float, default=0.95
        Level of the intervals and of the comparison.
    interval : {"t", "normal"}, default="t"
        The interval of the mean (see :func:`sklearn_fair.stats.mean_interval`).
    n_resamples : int, default=10_000
        Bootstrap resamples of the IQM's interval.
    random_state : int, default=0
        Seed of the bootstrap.

    Returns
    -------
    report : NestedCVReport
        ``str(report)`` is text; ``to_markdown()``, ``to_html()``, ``to_dataframe()``
        and ``save(path)`` give the other forms.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> from sklearn_fair import NestedCV
    >>> from sklearn_fair.report import nested_cv_report
    >>> X, y = load_iris(return_X_y=True)
    >>> models = {
    ...     "logistic": NestedCV(LogisticRegression(max_iter=500), {"C": [0.1, 1.0]},
    ...                          outer_cv=3, refit=False, random_state=0),
    ...     "knn": NestedCV(KNeighborsClassifier(), {"n_neighbors": [3, 9]},
    ...                     outer_cv=3, refit=False, random_state=0),
    ... }
    >>> results = {name: model.fit(X, y) for name, model in models.items()}
    >>> report = nested_cv_report(results, X=X, y=y, n_resamples=1000)
    >>> [(row["model"], row["metric"]) for row in report.rows]
    [('logistic', 'accuracy'), ('knn', 'accuracy')]
    >>> report.rows[0]["ci_method"]  # the interval passed 1: clipped, and said so
    'Student t, 2 df, of the mean of 3 scores, clipped to the range [0, 1] of accuracy'
    >>> report.median_params["knn"]
    {'n_neighbors': 3.0}
    >>> print(report.to_markdown())  # doctest: +ELLIPSIS
    # Nested cross-validation report
    <BLANKLINE>
    **Neither logistic nor knn is shown to be better on test accuracy over 3 paired ...**
    <BLANKLINE>
    ## Test performance
    ...
    ## Pairwise comparison
    ...
    ## Reproducibility card
    ...
    """
    models = as_results(results)
    rows = _rows(
        models,
        confidence=confidence,
        interval=interval,
        n_resamples=n_resamples,
        random_state=random_state,
    )
    comparison, note = _comparison(models, confidence) if len(models) > 1 else (None, None)
    card = reproducibility_card(results, X=X, y=y, splits_file=splits_file, stratified=stratified)
    return NestedCVReport(
        title,
        rows,
        models,
        comparison,
        note,
        card,
        confidence,
        interval,
        n_resamples=n_resamples,
        random_state=random_state,
    )


def _param_cell(value):
    """A selected hyper-parameter's value: numbers right-aligned, floats to 6 digits."""
    if isinstance(value, (bool, np.bool_)) or value is None:
        return str(value)
    if _is_number(value):
        if isinstance(value, numbers.Integral):
            return num(int(value))
        return num(f"{float(value):.6g}")
    return str(value)
