"""The report of one or several nested cross-validation results."""

import numbers
import os

import numpy as np
from scipy.stats import rankdata

from ..exceptions import SplitsMismatchError
from ..stats import compare, summarize
from ._card import reproducibility_card
from ._results import as_results
from ._tables import Section, fmt, render

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


class NestedCVReport:
    """Tables of one or several nested cross-validation results, and their reproducibility card.

    Made by :func:`nested_cv_report`. ``str(report)`` is the text version.

    Attributes
    ----------
    title : str
        The report's heading.
    rows : list of dict
        One per model: ``model``, ``n_folds``, ``test_mean``, ``test_std``, ``ci_low``,
        ``ci_high`` (normal interval of the mean), ``iqm``, ``iqm_ci_low``, ``iqm_ci_high``
        (bootstrap interval of the IQM), ``validation_mean``, ``optimism``, ``rank_test``,
        ``rank_validation`` and ``median_<param>`` for each numeric hyper-parameter.
    selected_params : dict
        Model name -> list of the hyper-parameters selected in each outer fold.
    median_params : dict
        Model name -> median over the folds of each numeric selected hyper-parameter.
    comparison : dict of list or None
        The pairwise comparison of :func:`sklearn_fair.stats.compare`, column -> values;
        None for one model or when the models' outer splits differ.
    comparison_note : str or None
        Why there is no comparison, when there is none for several models.
    card : ReproducibilityCard
        The reproducibility card that ends the report.
    confidence : float
        Level of the intervals.
    """

    def __init__(self, title, rows, models, comparison, comparison_note, card, confidence):
        self.title = title
        self.rows = rows
        self.selected_params = {m.name: m.best_params for m in models}
        self.median_params = {m.name: median_params(m.best_params) for m in models}
        self.comparison = comparison
        self.comparison_note = comparison_note
        self.card = card
        self.confidence = confidence
        self._models = models

    def to_dataframe(self):
        """The summary table as a pandas DataFrame, one row per model (needs pandas)."""
        import pandas as pd

        return pd.DataFrame(self.rows).set_index("model")

    def sections(self):
        """The report's sections, in order (summary, selection, comparison, card)."""
        level = f"{100 * self.confidence:g}%"
        summary = Section(
            "Test performance",
            columns=[
                "model",
                "test mean +/- std",
                f"{level} interval (normal)",
                f"IQM [{level} bootstrap]",
                "mean validation",
                "optimism",
                "rank by test",
                "rank by validation",
            ],
            paragraphs=[
                f"Test scores over {self.rows[0]['n_folds']} outer folds (std as numpy's, "
                "ddof=0). Optimism is mean validation minus mean test score.",
            ],
        )
        for row in self.rows:
            summary.rows.append(
                [
                    row["model"],
                    f"{fmt(row['test_mean'])} +/- {fmt(row['test_std'])}",
                    f"[{fmt(row['ci_low'])}, {fmt(row['ci_high'])}]",
                    f"{fmt(row['iqm'])} [{fmt(row['iqm_ci_low'])}, {fmt(row['iqm_ci_high'])}]",
                    fmt(row["validation_mean"]),
                    f"{row['optimism']:+.4f}",
                    row["rank_test"],
                    row["rank_validation"],
                ]
            )
        if len(self.rows) > 1:
            agree = [r["rank_test"] for r in self.rows] == [r["rank_validation"] for r in self.rows]
            summary.paragraphs.append(
                "The ranking by validation score "
                + ("agrees with" if agree else "differs from")
                + " the ranking by test score."
            )
        sections = [summary] + [self._selection_section(model) for model in self._models]
        sections.append(self._comparison_section())
        sections.append(self.card.section())
        return [section for section in sections if section is not None]

    def _selection_section(self, model):
        names = sorted({name for params in model.best_params for name in params})
        section = Section(
            f"Selected hyper-parameters: {model.name}",
            columns=["outer fold", *names, "validation", "test"],
        )
        for fold, params in enumerate(model.best_params):
            section.rows.append(
                [fold]
                + [params.get(name, "") for name in names]
                + [fmt(model.validation_scores[fold]), fmt(model.test_scores[fold])]
            )
        medians = self.median_params[model.name]
        if medians:
            section.rows.append(
                ["median"] + [fmt(medians[n], 4) if n in medians else "" for n in names] + ["", ""]
            )
        return section

    def _comparison_section(self):
        if self.comparison is None:
            if self.comparison_note is None:
                return None
            return Section("Pairwise comparison", paragraphs=[self.comparison_note])
        level = f"{100 * self.confidence:g}%"
        table = self.comparison
        section = Section(
            "Pairwise comparison",
            columns=["A", "B", "mean A - B", f"{level} interval", "p", "p (Holm)", "verdict"],
            paragraphs=[
                "Corrected resampled t-test (Nadeau and Bengio) on the per-fold test scores, "
                "p-values adjusted with Holm's method."
            ],
        )
        for i in range(len(table["model_a"])):
            section.rows.append(
                [
                    table["model_a"][i],
                    table["model_b"][i],
                    f"{table['mean_difference'][i]:+.4f}",
                    f"[{fmt(table['ci_low'][i])}, {fmt(table['ci_high'][i])}]",
                    fmt(table["pvalue"][i]),
                    fmt(table["pvalue_holm"][i]),
                    table["verdict"][i],
                ]
            )
        return section

    def to_text(self):
        """The report as plain text."""
        return render(self.title, self.sections(), "text")

    def to_markdown(self):
        """The report as Markdown."""
        return render(self.title, self.sections(), "markdown")

    def to_html(self):
        """The report as a standalone HTML page."""
        return render(self.title, self.sections(), "html")

    def save(self, path):
        """Write the report to ``path``: Markdown (.md), HTML (.html) or text (.txt)."""
        suffix = os.path.splitext(os.fspath(path))[1].lower()
        if suffix not in _KINDS:
            raise ValueError(
                f"The 'path' parameter of save must end in one of {sorted(_KINDS)}. Got "
                f"{os.fspath(path)!r} instead."
            )
        text = render(self.title, self.sections(), _KINDS[suffix])
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
        return path

    def __str__(self):
        return self.to_text()

    def __repr__(self):
        return f"NestedCVReport(models={[row['model'] for row in self.rows]})"


def nested_cv_report(
    results,
    *,
    X=None,
    y=None,
    splits_file=None,
    stratified=None,
    title="Nested cross-validation report",
    confidence=0.95,
    n_resamples=10_000,
    random_state=0,
):
    """Report one nested cross-validation result, or several compared on the same splits.

    For each model: the test mean +/- std over the outer folds, the normal
    interval of the mean and the bootstrap interval of the IQM, the mean
    validation score, the optimism gap (validation minus test), the ranking by
    test score beside the ranking by validation score, and each fold's selected
    hyper-parameters with the median of each numeric one. Several models are
    compared pairwise with :func:`sklearn_fair.stats.compare`. The report ends
    with a :class:`ReproducibilityCard`.

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
    >>> [row["model"] for row in report.rows]
    ['logistic', 'knn']
    >>> report.median_params["knn"]
    {'n_neighbors': 3.0}
    >>> print(report.to_markdown())  # doctest: +ELLIPSIS
    # Nested cross-validation report
    <BLANKLINE>
    ## Test performance
    ...
    ## Pairwise comparison
    ...
    ## Reproducibility card
    ...
    """
    models = as_results(results)
    rows = []
    for model in models:
        summary = summarize(
            model.test_scores,
            confidence=confidence,
            n_resamples=n_resamples,
            random_state=random_state,
        )
        row = {
            "model": model.name,
            "n_folds": int(model.test_scores.size),
            "test_mean": float(np.mean(model.test_scores)),
            "test_std": float(np.std(model.test_scores)),
            "ci_low": summary.ci_low,
            "ci_high": summary.ci_high,
            "iqm": summary.iqm,
            "iqm_ci_low": summary.iqm_ci_low,
            "iqm_ci_high": summary.iqm_ci_high,
            "validation_mean": float(np.mean(model.validation_scores)),
        }
        row["optimism"] = row["validation_mean"] - row["test_mean"]
        row.update({f"median_{k}": v for k, v in median_params(model.best_params).items()})
        rows.append(row)
    for key, rank in (("test_mean", "rank_test"), ("validation_mean", "rank_validation")):
        ranks = rankdata([-row[key] for row in rows], method="min")
        for row, value in zip(rows, ranks):
            row[rank] = int(value)
    comparison, note = None, None
    if len(models) > 1:
        shared = {
            m.name: {
                "test_score": m.test_scores,
                "indices": {"train": m.train_indices, "test": m.test_indices},
            }
            for m in models
        }
        try:
            table = compare(shared, confidence=confidence)
        except SplitsMismatchError as error:
            note = f"No pairwise comparison: {error}"
        else:
            comparison = {column: list(table[column]) for column in table}
    card = reproducibility_card(results, X=X, y=y, splits_file=splits_file, stratified=stratified)
    return NestedCVReport(title, rows, models, comparison, note, card, confidence)
