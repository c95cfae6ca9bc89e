"""BenchmarkResult: the outer-fold scores of many models on many data sets, and what is read
from them."""

import dataclasses
import math
import numbers
import os
import warnings
from itertools import combinations

import numpy as np
from sklearn.utils._param_validation import StrOptions, validate_params

from ..exceptions import (
    MissingCellsWarning,
    SklearnFairWarning,
    SplitsMismatchError,
    UnequalBudgetWarning,
)
from ..metrics._names import describe_metric, how_to_score_alike, same_metric
from ..stats import (
    _aggregate,
    bayesian_signed_rank,
    corrected_resampled_ttest,
    holm,
    probability_of_improvement,
)
from ..stats import multiple_comparison as _multiple_comparison
from ..stats import rank_comparison as _rank_comparison
from ..stats._aggregate import performance_profile
from ..stats._bounds import metric_range, outside_range, range_text
from ..stats._checks import (
    AT_LEAST_TWO,
    CONFIDENCE,
    COUNT,
    NON_NEGATIVE,
    POSITIVE,
    check_same_splits,
    equal_differences,
    tie_level,
)
from ..stats._normalize import normalize_scores
from ..utils import RANDOM_STATE_CONSTRAINTS, IntervalNotBool, fill_doc, install_hint
from ..utils._printing import decimals_for, name_list, number
from ..utils._random import check_random_state_param, named_generator, seed_root
from ..utils._scaling import mean_of, scaled_pair, std_of
from ..utils._stacklevel import external_stacklevel
from ._artefact import latex_escape, load_cells, read_document, save_document, to_latex
from ._card import card_of
from ._format import best_apart, failed_folds, selection_counts
from ._plots import AX_CONSTRAINTS
from ._report import NestedCVReport, _left_out
from ._results import (
    DOCS,
    REPORT_INTERVALS,
    NoSplitsError,
    as_result,
    bootstrap_root,
    check_recorded_keys,
)
from ._verdict import NOT_DEMONSTRATED, _names, emphasis, metric_of_tables

#: A baseline tuned with this many times fewer candidates or inner fits than the model it is
#: compared with had "a much smaller budget" (the unequal-tuning pitfall).
BUDGET_RATIO = 4


def _tied_best(values):
    """The models of ``values`` (model -> a statistic of its scores in the scorer's direction,
    higher is better) tied at :func:`~sklearn_fair.stats._checks.tie_level` with the highest,
    in their order: the best of a data set, as the marks and ranks tie them."""
    levels = {model: tie_level(value) for model, value in values.items()}
    top = max(levels.values(), default=None)
    return tuple(model for model, level in levels.items() if level == top)


def _pandas():
    try:
        import pandas as pd
    except ImportError as exc:  # pragma: no cover - pandas is in the test extra
        raise ImportError(
            f"BenchmarkResult's tables are pandas DataFrames. {install_hint('benchmark')} "
            "(or pip install pandas)."
        ) from exc
    return pd


def _level(confidence, alpha, owner):
    """``confidence``, or ``1 - alpha`` (the former parameter) with a FutureWarning."""
    if alpha is None:
        return confidence
    warnings.warn(
        f"The 'alpha' parameter of {owner} is deprecated: every comparison of sklearn-fair takes "
        f"its level as 'confidence' (intervals at that level, tests at 1 - confidence). Pass "
        f"confidence={1 - alpha:g} instead.",
        FutureWarning,
        stacklevel=external_stacklevel(),
    )
    return 1 - alpha


class BenchmarkResult:
    """The outer-fold scores of every model on every data set, and what to read from them.

    Made by :func:`~sklearn_fair.benchmark`, or from saved results with :meth:`from_results`.
    Every table speaks the metric's printed units and direction (see
    :class:`~sklearn_fair.metrics.MetricName`): a negated scikit-learn error
    (``neg_root_mean_squared_error``) is the positive error (RMSE), a difference is model minus
    baseline in those units, and a smaller RMSE is better. Standard deviations are numpy's
    (``ddof=0``), as in scikit-learn's ``cv_results_``.

    Attributes
    ----------
    datasets, models : list of str
        In the order given.
    baseline : str or None
        The default model of :meth:`compare_to`.
    baseline_floor : bool
        Whether the baseline is a chance-level floor (a ``DummyClassifier``), whose small tuning
        budget raises no :class:`~sklearn_fair.exceptions.UnequalBudgetWarning`.
    random_state : int or None
        The one seed of every cell.
    cells : dict
        ``(dataset, model)`` -> :class:`~sklearn_fair.report._results.NestedResult` (per-fold
        scores in the scorer's units, splits, selections, budget, the fitted NestedCV if any).
    """

    def __init__(self, cells, *, baseline=None, baseline_floor=False, random_state=None):
        self.cells = dict(cells)
        self.datasets = list(dict.fromkeys(d for d, _ in self.cells))
        self.models = list(dict.fromkeys(m for _, m in self.cells))
        missing = [(d, m) for d in self.datasets for m in self.models if (d, m) not in self.cells]
        if missing:
            raise ValueError(
                f"A benchmark needs every model on every data set; missing: {missing[:5]}."
            )
        if baseline is not None and baseline not in self.models:
            raise ValueError(
                f"The 'baseline' parameter of BenchmarkResult must be one of {self.models} or "
                f"None. Got {baseline!r} instead."
            )
        self.baseline = baseline
        self.baseline_floor = bool(baseline_floor)
        check_random_state_param(random_state, "BenchmarkResult")
        self.random_state = random_state

    def _check_one_metric(self):
        """Refuse a data set whose models were scored with different metrics (two printed
        alike may be: see :func:`~sklearn_fair.metrics._names.same_metric`)."""
        for dataset in self.datasets:
            cells = [self.cells[dataset, m] for m in self.models]
            if same_metric(cell.metric for cell in cells):
                continue
            metrics = {(cell.metric.name, cell.sign) for cell in cells}
            advice = how_to_score_alike([cell.metric for cell in cells])
            if len(metrics) > 1:
                # one metric weighted and not, or by other weights: the advice says so
                raise ValueError(
                    f"The models on data set {dataset!r} were scored with different metrics "
                    f"{sorted(metrics)}; a comparison needs one metric per data set"
                    + ("." if advice is None else f": {advice}.")
                )
            described = ", ".join(
                f"{m}: {describe_metric(cell.metric)}" for m, cell in zip(self.models, cells)
            )
            raise ValueError(
                f"The models on data set {dataset!r} were scored with different metrics under "
                f"one name ({described}); a comparison needs one metric per data set: "
                f"{advice}."
            )

    @classmethod
    @fill_doc(DOCS)
    def from_results(cls, results, *, baseline=None, baseline_floor=False, metric=None,
                     budgets=None, verify="raise"):  # fmt: skip
        """A BenchmarkResult from results saved or fitted elsewhere.

        A saved result is checked first (:func:`~sklearn_fair.report.verify_result`: format,
        version, checksum, types, and that its scores agree and lie in their metric's range) and
        refused, naming it and what failed, when a check fails. One without a checksum (an older
        sklearn-fair) is read with an :class:`~sklearn_fair.exceptions.UncheckedResultWarning`; a
        dict without a ``format`` (your own per-fold numbers) is checked for its types only; a
        fitted NestedCV is trusted.

        Parameters
        ----------
        results : dict
            ``(dataset, model)`` (str names) -> a fitted NestedCV, a
            :func:`~sklearn_fair.report.result_to_dict` dict, the experiment runner's
            ``models/<name>.json`` content or the path of that file (read with a size cap;
            refused under the key of another runner file given with it, which it records), or a
            dict with per-fold ``test_scores`` (and optionally ``validation_scores``,
            ``best_params``).
        baseline : str, default=None
            The default model of :meth:`compare_to`.
        baseline_floor : bool, default=False
            Whether the baseline is a chance-level floor (no budget warning).
        metric : str, default=None
            The metric's printed name, or a scorer's name, where the results do not say; a
            result that records another metric (by its printed name or its scoring) is
            refused, as is a saved benchmark file (read it with :meth:`load`). Scores are
            higher-is-better unless ``metric`` is a scorer that negates an error
            (``"neg_root_mean_squared_error"``: the scores are the negated errors, printed as
            the RMSE); the printed name of such an error ("RMSE") is refused, since it does
            not say whether the scores are the errors or their negation.
        budgets : dict, default=None
            ``(dataset, model)`` -> budget dict (``n_candidates``, ``n_inner_fits``,
            ``fit_time``...), where the results do not say.
        {verify}

        Returns
        -------
        BenchmarkResult
            Its ``random_state`` is the one int seed every result records (the cells of one
            benchmark), else None; its tables' bootstrap intervals are then the benchmark's.
        """
        budgets = budgets or {}
        for key in results:  # names as benchmark takes them (a saved file records str names)
            names = key if isinstance(key, tuple) and len(key) == 2 else (None,)
            if not all(isinstance(name, str) for name in names):
                raise ValueError(
                    "The 'results' parameter of BenchmarkResult.from_results must have "
                    f"(dataset, model) keys of str names. Got {key!r} instead."
                )
        documents, sources = {}, {}
        for key, r in results.items():
            if isinstance(r, (str, os.PathLike)):
                sources[key], r = f"file {os.fspath(r)}", read_document(r)
            documents[key] = r
        check_recorded_keys(documents, sources)
        cells = {}
        for (d, m), r in documents.items():
            cells[d, m] = as_result(m, r, dataset=d, metric=metric, budget=budgets.get((d, m)),
                                    verify=verify, source=sources.get((d, m)))  # fmt: skip
        # the one seed every cell records (a benchmark's), as the benchmark's own result holds
        # it: the tables' bootstrap intervals are then those of that result
        seeds = {cell.random_state for cell in cells.values()}
        seed = seeds.pop() if len(seeds) == 1 else None
        seed = int(seed) if isinstance(seed, numbers.Integral) else None
        return cls(cells, baseline=baseline, baseline_floor=baseline_floor, random_state=seed)

    def save(self, path):
        """Write the benchmark to ``path`` as a versioned JSON file with a checksum.

        Every cell's per-fold scores (every metric, every refit), selected hyper-parameters (objects
        as their ``repr``), validation scores, outer splits, tuning budget, seeds and fingerprints
        of its data and model, and the package versions (the format: ``report/_artefact.py``).
        Never a pickle, so no fitted model: :attr:`estimators` is None after :meth:`load`.

        Parameters
        ----------
        path : str or path-like
            Written atomically (a temporary file renamed over it).

        Returns
        -------
        pathlib.Path
        """
        return save_document(self, path)

    @classmethod
    @fill_doc(DOCS)
    def load(cls, path, *, verify="raise"):
        """Read a benchmark written by :meth:`save`, checked.

        A file that is not a regular file, larger than 512 MiB, nested too deeply, of another
        format or version, or whose checksum, types or score ranges fail is refused.

        Parameters
        ----------
        path : str or path-like
        {verify}

        Returns
        -------
        BenchmarkResult
        """
        cells, settings = load_cells(path, verify=verify)
        return cls(cells, **settings)

    def __repr__(self):
        return (
            f"BenchmarkResult({len(self.models)} models on {len(self.datasets)} data sets, "
            f"baseline={self.baseline!r})"
        )

    # -- the data ---------------------------------------------------------------------------

    @property
    def estimators(self):
        """``(dataset, model)`` -> the fitted NestedCV of that cell (None for saved results)."""
        return {key: cell.estimator for key, cell in self.cells.items()}

    def _per_dataset(self, model, printed=False, datasets=None):
        """The model's fold scores on each data set (of ``datasets``), the scorer's values
        or with ``printed`` the metric's."""
        cells = [self.cells[d, model] for d in (self.datasets if datasets is None else datasets)]
        return [c.metric.values(c.scores) if printed else c.scores for c in cells]

    @property
    def missing(self):
        """The cells where folds failed: ``(dataset, model)`` -> how many.

        The tables print them as failed, the paired tests leave them out, and whatever pools data
        sets (ranks, aggregates, profiles, comparisons across data sets) keeps the data sets where
        every model is complete, with a :class:`~sklearn_fair.exceptions.MissingCellsWarning`.
        The report ranks no model on such a data set (a rank needs every model's score).
        """
        return {key: n for key, cell in self.cells.items() if (n := cell.n_failed_folds())}

    def _failed_models(self):
        """Data set -> the models whose folds failed on it: the data sets that whatever pools
        data sets (and every rank, per data set too) leaves out."""
        missing = self.missing
        failed = {d: [m for m in self.models if (d, m) in missing] for d in self.datasets}
        return {d: models for d, models in failed.items() if models}

    def _pooled_datasets(self, what):
        """The data sets where every model is complete, warning about the others; each data
        set's models must share one metric (what pools them compares them)."""
        self._check_one_metric()
        missing, left_out = self.missing, list(self._failed_models())
        if left_out:
            cells = ", ".join(f"{m!r} on {d!r} ({n} folds)" for (d, m), n in missing.items())
            warnings.warn(
                f"{what} leaves out the data sets {left_out}, where folds failed: {cells}. It "
                "pools the data sets where every model has every fold's score.",
                MissingCellsWarning,
                stacklevel=external_stacklevel(),
            )
        kept = [d for d in self.datasets if d not in left_out]
        if not kept:
            raise ValueError(
                f"{what} needs a data set where every model has every fold's score; folds "
                "failed on every data set (see failures)."
            )
        return kept

    def _sign(self, what):
        """The one sign of every cell: ``what`` pools data sets, which needs one direction."""
        signs = {cell.sign for cell in self.cells.values()}
        if len(signs) > 1:
            raise ValueError(
                f"{what} pools the scores of every data set, but some are scored with a metric "
                "where higher is better and others with an error where lower is better; pool "
                "data sets scored alike."
            )
        return signs.pop()

    @property
    def scores(self):
        """Tidy DataFrame: ``dataset``, ``model``, ``outer_fold``, ``score``, ``validation_score``.

        One row per outer fold of each cell (the mean over its refits, printed units; NaN where
        the fold failed, whatever number ``error_score`` gave it); with several
        metrics, a ``metric`` column (the printed name: "log loss", whose scores are the positive
        losses), a ``scoring`` column (the key of ``scoring``: "neg_log_loss") and one row per
        metric (the validation score only for the selecting one). A search that selected with
        its own scoring has its validation score in that metric's printed units, as the
        report's table and :meth:`selection_summary` print it. Where some fold's score is the
        value its scorer sets where the metric is undefined (recall on a test fold without
        positives), an ``undefined`` column holds that fold's ``UndefinedMetricWarning``
        message ("" for the folds scored as measured).
        """
        pd = _pandas()
        multi = any(len(c.scores_per_metric) > 1 for c in self.cells.values())
        undefined = any(c.undefined_metric_folds for c in self.cells.values())
        rows = []
        for (dataset, model), cell in self.cells.items():
            validation = cell.validation_metric.values(cell.validation_scores)
            for key in cell.scores_per_metric:
                selecting = key == cell.refit_metric
                for fold, value in enumerate(cell.metrics[key].values(cell.test_scores(key))):
                    row = {"dataset": dataset, "model": model}
                    if multi:
                        row.update(metric=cell.metrics[key].name, scoring=key)
                    row.update(outer_fold=fold, score=float(value))
                    row["validation_score"] = float(validation[fold]) if selecting else np.nan
                    if undefined:
                        row["undefined"] = cell.undefined_metric_folds.get(key, {}).get(fold, "")
                    rows.append(row)
        return pd.DataFrame(rows)

    @property
    def refit_scores(self):
        """Tidy DataFrame of every refit's test score: ``dataset``, ``model``, ``outer_fold``,
        ``refit``, ``score`` (the selecting metric, printed units; NaN in a fold that failed,
        whatever number ``error_score`` gave it)."""
        pd = _pandas()
        rows = [
            {"dataset": d, "model": m, "outer_fold": fold, "refit": r, "score": float(s)}
            for (d, m), cell in self.cells.items()
            for fold, refits in enumerate(cell.refit_scores)
            for r, s in enumerate(
                np.full(len(refits), np.nan)
                if not np.isfinite(cell.scores[fold])  # failed (test_scores): no refit's score
                else cell.metric.values(refits)
            )
        ]
        return pd.DataFrame(rows)

    @property
    def budget(self):
        """Each cell's tuning budget: candidates, inner fits, whole searches, refits, and the
        seconds its fits took (``fit_time``)."""
        pd = _pandas()
        keys = ("n_candidates", "n_inner_fits", "n_searches", "n_refit_fits", "fit_time")
        if any(cell.budget.get("n_hidden_searches") for cell in self.cells.values()):
            keys = keys[:3] + ("n_hidden_searches",) + keys[3:]
        if any("score_time" in cell.budget for cell in self.cells.values()):
            keys += ("score_time",)
        rows = [
            # a cell records n_hidden_searches where it has any
            {
                "dataset": d,
                "model": m,
                **{k: cell.budget.get(k, 0 if k == "n_hidden_searches" else np.nan) for k in keys},
            }
            for (d, m), cell in self.cells.items()
        ]
        return pd.DataFrame(rows)

    @property
    def failures(self):
        """Tidy DataFrame of the fits that failed: ``dataset``, ``model``, ``outer_fold``
        (None: the final selection), ``failed_fits`` and ``first_error``; empty when none did.
        """
        pd = _pandas()
        rows = [
            {"dataset": d, "model": m, "outer_fold": fold, "failed_fits": f["count"],
             "first_error": f["error"]}
            for (d, m), cell in self.cells.items()
            for fold, f in cell.failures.items()
        ]  # fmt: skip
        columns = ["dataset", "model", "outer_fold", "failed_fits", "first_error"]
        return pd.DataFrame(rows, columns=columns)

    @property
    def predictions(self):
        """Tidy DataFrame of the out-of-fold predictions kept with ``keep_predictions=True``.

        ``dataset``, ``model``, ``outer_fold``, ``row`` (the row's position in the data set,
        counted from 0 as ``iloc`` does: not a DataFrame's index label),
        ``y_true``, ``y_pred`` (the refits combined, as ``nested_cross_val_predict`` combines them)
        and, for a binary classifier, ``score`` (the refits' mean probability or decision value
        of one class, as scikit-learn's ``predict_proba(X)[:, 1]`` is: the second of the two
        classes in sorted order, ``np.unique(y)[1]``, which for text labels "10" and "9" is
        "9") and ``score_class`` (that class). A multioutput target's ``y_true`` and
        ``y_pred`` are a tuple a row. Empty when no cell kept them.
        """
        from ._plots import binary_classes, fold_predictions

        pd = _pandas()
        frames = []
        for (dataset, model), cell in self.cells.items():
            if cell.predictions is None:
                continue
            kept = [k for k in range(len(cell.predictions)) if cell.predictions[k] is not None]
            binary = binary_classes(cell)  # a binary classifier's score is of its second class
            for fold, (y_true, y_pred, score) in zip(kept, fold_predictions(cell)):
                if np.ndim(y_true) == 2:  # multioutput: one tuple a row, in one column
                    y_true, y_pred = list(map(tuple, y_true)), list(map(tuple, y_pred))
                frame = {
                    "dataset": dataset, "model": model, "outer_fold": fold,
                    "row": cell.test_indices[fold], "y_true": y_true, "y_pred": y_pred,
                }  # fmt: skip
                if score is not None:
                    frame["score"], frame["score_class"] = score, binary[1]
                frames.append(pd.DataFrame(frame))
        columns = ["dataset", "model", "outer_fold", "row", "y_true", "y_pred"]
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=columns)

    @validate_params(
        {"dataset": [str], "model": [str], "path": "no_validation"},
        prefer_skip_nested_validation=True,
    )
    @fill_doc(DOCS)
    def plot_predictions(self, dataset, model, *, path=None):
        """What ``model`` predicted on ``dataset``'s outer test folds, with scikit-learn's
        displays.

        For a classifier the confusion matrix, and for a binary target the ROC and precision-recall
        curves of each outer fold and the calibration curve; for a regressor predicted against
        actual values and the residuals. Needs ``keep_predictions=True`` and matplotlib.

        Parameters
        ----------
        dataset, model : str
        {path}

        Returns
        -------
        matplotlib Figure

        Raises
        ------
        ValueError
            Where ``dataset`` and ``model`` name no cell of the benchmark (swapped, misspelt),
            listing the names.
        """
        from ._plots import plot_predictions

        if (dataset, model) not in self.cells:
            raise ValueError(
                "The 'dataset' and 'model' parameters of BenchmarkResult.plot_predictions must "
                f"name a cell of the benchmark. Got {self._unknown_keys([(dataset, model)])} "
                f"instead. {self._cell_names_accepted()}"
            )
        return plot_predictions(self.cells[dataset, model], path=path)

    def selection_summary(self):
        """What each cell selected, and how far its validation scores overstate its test scores.

        Returns
        -------
        DataFrame
            One row per cell: ``dataset``, ``model``, ``validation_mean`` (the winners' mean inner
            validation score) in ``validation_metric`` (the selecting metric, or a search's own
            scoring), ``test_mean`` (NaN where a fold failed: :attr:`missing`), ``optimism``
            (validation minus test in the metric's direction, positive when validation was
            optimistic; printed units; NaN when the validation score is of a search's own
            scoring, as in the report, or where a fold failed) and ``selected``:
            hyper-parameter -> {value (as printed): number of outer folds that selected it}.
        """
        pd = _pandas()
        rows = []
        for (dataset, model), cell in self.cells.items():
            validation = cell.validation_metric
            rows.append(
                {
                    "dataset": dataset, "model": model,
                    "validation_mean": float(validation.sign * mean_of(cell.validation_scores)),
                    "validation_metric": validation.name,
                    "test_mean": float(cell.sign * mean_of(cell.scores)),
                    "optimism": np.nan if cell.optimism is None else cell.optimism,
                    "selected": selection_counts(cell.best_params),
                }
            )  # fmt: skip
        return pd.DataFrame(rows)

    # -- tables and tests -------------------------------------------------------------------

    def mean_scores(self, *, printed=True):
        """DataFrame of data sets by models: the mean outer score, in printed units
        (``printed=False``: the scorer's); NaN where a fold failed (:attr:`missing`)."""
        self._check_one_metric()
        pd = _pandas()
        return pd.DataFrame(
            {m: [float(mean_of(v)) for v in self._per_dataset(m, printed)] for m in self.models},
            index=pd.Index(self.datasets, name="dataset"),
        )

    def _paired(self, dataset, model, other, confidence=0.95):
        self._check_one_metric()
        a, b = self.cells[dataset, model], self.cells[dataset, other]
        if not (a.has_splits and b.has_splits):
            raise NoSplitsError(
                f"The results of {model!r} and {other!r} on {dataset!r} do not record their "
                "outer splits, so a paired test cannot check that they share them."
            )
        check_same_splits(
            model, (a.train_indices, a.test_indices), other, (b.train_indices, b.test_indices),
            who=f"A paired comparison on data set {dataset!r}",
        )  # fmt: skip
        return corrected_resampled_ttest(a.scores, b.scores, confidence=confidence, **a.sizes)

    @validate_params(
        {
            "statistic": [StrOptions({"mean", "iqm"})],
            "scale": [POSITIVE],
            "decimals": [IntervalNotBool(numbers.Integral, 0, 12, closed="both"), None],
            "confidence": [CONFIDENCE],
            "mark": ["boolean"],
            "alpha": [CONFIDENCE, None],
            "n_resamples": [COUNT],
        },
        prefer_skip_nested_validation=True,
    )
    def table(self, *, statistic="mean", scale=1.0, decimals=None, confidence=0.95, mark=True,
              alpha=None, n_resamples=10_000):  # fmt: skip
        """Models (rows) by data sets (columns), as papers print them.

        Parameters
        ----------
        statistic : {"mean", "iqm"}, default="mean"
            ``"mean"``: mean ± std over the outer folds; ``"iqm"``: the IQM and its percentile
            bootstrap interval at ``confidence`` over the folds, as :meth:`report` prints it
            (each cell's generator derived by its data set's and model's names from the
            benchmark's ``random_state`` when it is an int, else 0).
        scale : float, default=1.0
            Multiplies the printed values (100 for percentages).
        decimals : int, default=None
            Digits after the point; None: two significant digits of the smallest standard deviation
            of the data set's fold scores (so that a perfect model does not print as ``1.0 ± 0.0``),
            more where a mean whose folds all scored the same would round to a whole number
            (0.9996 is not printed as 1.000), and where the best of the printed statistic (the
            mean, or the IQM) would print as another that is not tied with it, until it prints
            apart.
        confidence : float, default=0.95
            Level of the IQM's interval; "demonstrably worse" is decided at level
            ``1 - confidence``.
        mark : bool, default=True
            Bold (``**...**``) the best model of each data set (every model whose mean test
            score equals the highest: tied models are all bold) and italicise (``*...*``) those
            not demonstrably worse than it: the corrected resampled t-test against it (Nadeau &
            Bengio; against the first of tied best models), Holm-adjusted within the data set
            over every pair of its models (the family of a report's pairwise comparison, so
            that a data set's report and this table decide alike), has
            ``p > 1 - confidence``. Results that do not record their outer splits, or do not
            share them, get only the bold
            (as in :meth:`report`), with a :class:`~sklearn_fair.exceptions.SklearnFairWarning`
            naming those data sets. With ``statistic="iqm"`` the bold is the best IQM, the
            number printed (every model tied at it), and the italics stay those of the t-tests
            of the mean test scores (no test of the IQM is made): every model not in bold whose
            mean is not demonstrably worse than the best mean, that of the best mean included;
            ``columns.name`` says so.
        alpha : float, default=None
            Deprecated: pass ``confidence=1 - alpha``.
        n_resamples : int, default=10_000
            Bootstrap resamples of the IQM's interval (``statistic="iqm"``).

        Returns
        -------
        DataFrame of str
            Its ``columns.name`` names the metric, as the report does ("test balanced
            accuracy", "test RMSE (lower is better)"), and with ``statistic="iqm"`` and
            ``mark`` what the marks are by ("test accuracy; bold: the best IQM, italics: mean
            not shown worse than the best mean"); ``to_string()`` prints it.
        """
        pd = _pandas()
        confidence = _level(confidence, alpha, "table")
        alpha = 1 - confidence
        self._check_one_metric()
        columns, root, untested = {}, bootstrap_root(self.random_state), []
        for dataset in self.datasets:
            cells = [self.cells[dataset, m] for m in self.models]
            printed = [cell.metric.values(cell.scores) * scale for cell in cells]
            means, stds = [mean_of(v) for v in printed], [std_of(v) for v in printed]
            iqms = {}  # model -> its IQM and interval, printed units (none where folds failed)
            for model, cell in zip(self.models, cells):
                if statistic == "iqm" and not cell.n_failed_folds():
                    summary = cell.summary(
                        root=root, confidence=confidence, interval="t", n_resamples=n_resamples
                    )
                    iqms[model] = [scale * v for v in (summary.iqm, *summary.iqm_ci)]
            # the statistic each cell prints, by which the best is marked and printed apart
            shown = means
            if statistic == "iqm":
                shown = [iqms[m][0] if m in iqms else np.nan for m in self.models]
            d = decimals
            if d is None:
                d = decimals_for(shown, stds)
                d = best_apart(shown, d, cells[0].metric.greater_is_better)
            texts = []
            for model, values, mean, std in zip(self.models, printed, means, stds):
                failed = self.cells[dataset, model].n_failed_folds()
                if failed:
                    texts.append(failed_folds(failed, values.size))
                elif statistic == "mean":
                    texts.append(f"{number(mean, d)} ± {number(std, d)}")
                else:
                    centre, low, high = iqms[model]
                    texts.append(f"{number(centre, d)} [{number(low, d)}, {number(high, d)}]")
            if mark:
                best, pvalues = self._against_the_best(dataset)
                if pvalues is None and any(
                    m not in best and np.isfinite(mean_of(self.cells[dataset, m].scores))
                    for m in self.models
                ):
                    untested.append(dataset)
                # bold: the best of what is printed; italics: the tests of the means, where
                # they ran (the best mean is not worse than itself)
                bold = best
                if statistic == "iqm":
                    signs = {m: cell.sign for m, cell in zip(self.models, cells)}
                    bold = _tied_best({m: signs[m] * iqm for m, (iqm, _, _) in iqms.items()})
                for j, model in enumerate(self.models):
                    tested = pvalues is not None and emphasis(model, best, pvalues, alpha)
                    m = "**" if model in bold else "*" if tested else ""
                    texts[j] = f"{m}{texts[j]}{m}"
            columns[dataset] = texts
        if untested:
            warnings.warn(
                f"No model of data set(s) {untested} is marked as not demonstrably worse than "
                "the best (italics): their results do not record their outer splits, or the "
                "models' differ, so no paired test ran. A model without italics there is not "
                "shown worse.",
                SklearnFairWarning,
                stacklevel=external_stacklevel(),
            )
        frame = pd.DataFrame(columns, index=pd.Index(self.models, name="model"))
        frame.columns.name = metric_of_tables(self)
        if mark and statistic == "iqm":
            frame.columns.name += (
                "; bold: the best IQM, italics: mean not shown worse than the best mean"
            )
        return frame

    def _against_the_best(self, dataset):
        """``(best, {other: Holm-adjusted p against the best})`` on ``dataset``: the one rule of
        :meth:`table`'s marks and of the report's.

        ``best``: the models tied (``tie_level``) at the highest mean score, none when every
        model's folds failed. Each other complete model is tested against the first of them
        (corrected resampled t-test, Holm within the data set over every pair of its models,
        as a report's pairwise comparison, so that the table, the benchmark's report and each
        data set's report decide alike); the dict is None when no paired test can run (outer
        splits not recorded, or not shared: :meth:`_untested_reason` says which).
        """
        return self._tests_against_the_best(dataset)[:2]

    def _untested_reason(self, dataset):
        """Why no paired test against the best runs on ``dataset``, in words ("the outer splits
        of 'a' and 'b' differ"); None where :meth:`_against_the_best` tests."""
        return self._tests_against_the_best(dataset)[2]

    def _tests_against_the_best(self, dataset):
        means = {m: mean_of(self.cells[dataset, m].scores) for m in self.models}
        complete = [
            m
            for m in self.models
            if np.isfinite(means[m]) and not self.cells[dataset, m].n_failed_folds()
        ]
        if not complete:
            return (), {}, None
        best = _tied_best({m: means[m] for m in complete})
        others = [m for m in complete if m not in best]
        pairs = list(combinations(complete, 2))
        pvalues = []
        for a, b in pairs:
            try:
                pvalues.append(self._paired(dataset, a, b).pvalue)
            except NoSplitsError:
                unrecorded = [m for m in complete if not self.cells[dataset, m].has_splits]
                whose = "" if len(unrecorded) == len(complete) else f" of {_names(unrecorded)}"
                return best, None, f"the results{whose} do not record their outer splits"
            except SplitsMismatchError:
                return best, None, f"the outer splits of {a} and {b} differ"
        adjusted = {frozenset(pair): p for pair, p in zip(pairs, holm(pvalues) if pairs else [])}
        return best, {m: adjusted[frozenset((m, best[0]))] for m in others}, None

    def to_latex(self, **table_options):
        """:meth:`table` as a booktabs LaTeX ``tabular`` (``\\usepackage{booktabs}``).

        The marks as ``\\textbf{}`` and ``\\textit{}``, ``±`` as ``$\\pm$``, names escaped; a
        header row above the data sets names the metric (the table's ``columns.name``).

        Parameters
        ----------
        **table_options
            ``statistic``, ``scale``, ``decimals``, ``confidence``, ``mark``, ``n_resamples``:
            as :meth:`table`.

        Returns
        -------
        str
        """
        table = self.table(**table_options)
        latex = to_latex(table)
        n, caption = len(table.columns), latex_escape(table.columns.name)
        metric = [rf" & \multicolumn{{{n}}}{{c}}{{{caption}}} \\", rf"\cmidrule(lr){{2-{n + 1}}}"]
        lines = latex.split("\n")
        top = lines.index(r"\toprule") + 1
        return "\n".join(lines[:top] + metric + lines[top:])

    @validate_params(
        {"baseline": [str, None], "confidence": [CONFIDENCE], "alpha": [CONFIDENCE, None]},
        prefer_skip_nested_validation=True,
    )
    def compare_to(self, baseline=None, *, confidence=0.95, alpha=None):
        """Every model against ``baseline`` on every data set, Holm across the whole family.

        On each data set the corrected resampled t-test (Nadeau & Bengio) of the paired outer-fold
        scores (the same folds: checked), Holm across all data sets and models at once. Warns
        (:class:`~sklearn_fair.exceptions.UnequalBudgetWarning`) when the baseline was tuned with a
        much smaller budget than a model it is compared with (not for a baseline that tunes
        itself, such as ``RidgeCV``: its own search is not counted), and
        (``SklearnFairWarning``) where the outer folds are time-ordered or their training sets
        repeat rows (a bootstrap's): the test's correction is derived for neither.

        Parameters
        ----------
        baseline : str, default=None
            A model's name; None is the benchmark's ``baseline``.
        confidence : float, default=0.95
            Level of the interval; ``significant`` is ``pvalue_holm <= 1 - confidence``.
        alpha : float, default=None
            Deprecated: pass ``confidence=1 - alpha``.

        Returns
        -------
        DataFrame
            One row per data set and model: ``dataset``, ``model``, ``baseline``, ``mean``,
            ``baseline_mean``, ``difference`` (model minus baseline) with ``ci_low``, ``ci_high``,
            ``statistic`` (signed as the difference), ``pvalue``, ``pvalue_holm``, ``significant``,
            ``verdict`` ("better", "worse" or "difference not demonstrated", in the metric's
            direction), ``effect_size`` (Cohen's d_z) and ``probability_of_improvement`` (that a
            fold score of the model beats one of the baseline's). In printed units: a model with a
            smaller RMSE than the baseline has a negative difference.
        """
        confidence = _level(confidence, alpha, "compare_to")
        baseline = self._baseline_of(baseline, "compare_to")
        self._warn_budget(baseline)
        self._warn_interval_caveats(baseline)
        return self._against(baseline, confidence)

    def _warn_interval_caveats(self, baseline):
        """One warning per caveat of the corrected resampled t (time-ordered folds, training
        sets that repeat rows) naming the data sets whose tests it applies to, as the report and
        :func:`~sklearn_fair.stats.compare` note it."""
        caveats = {}
        for dataset in self.datasets:
            if (dataset, baseline) in self.missing:
                continue
            for note in self.cells[dataset, baseline].corrected_t_notes:
                caveats.setdefault(note, []).append(repr(dataset))
        for note, datasets in caveats.items():
            warnings.warn(
                f"compare_to's intervals and p-values on {', '.join(datasets)}: {note}.",
                SklearnFairWarning,
                stacklevel=external_stacklevel(),
            )

    def _against(self, baseline, confidence):
        """:meth:`compare_to`'s table, without its budget warning: the one family of tests
        against ``baseline`` that the verdict, the report and :meth:`compare_across` read."""
        pd = _pandas()
        alpha = 1 - confidence
        rows = []
        for dataset in self.datasets:
            for model in self.models:
                if model == baseline:
                    continue
                failed = [m for m in (model, baseline) if (dataset, m) in self.missing]
                if failed:
                    rows.append(
                        {"dataset": dataset, "model": model, "baseline": baseline,
                         "significant": False,
                         "verdict": f"not tested: folds of {' and '.join(failed)} failed"}
                    )  # fmt: skip
                    continue
                test = self._paired(dataset, model, baseline, confidence)
                cell = self.cells[dataset, model]
                sign = cell.sign  # the printed units' direction
                a, b = cell.scores, self.cells[dataset, baseline].scores
                # d_z is scale-free: of the scores scaled by a power of 2 past 2**100, whose
                # differences, sums and squares would overflow (a NaN effect size)
                scaled_a, scaled_b, _ = scaled_pair(a, b)
                differences = sign * (scaled_a - scaled_b)
                shift, spread = float(np.mean(differences)), float(np.std(differences, ddof=1))
                equal = equal_differences(scaled_a, scaled_b)
                if equal is not None:  # equal up to rounding, as the t-test has them
                    shift, spread = float(sign * equal), 0.0
                effect = math.copysign(math.inf, shift) if shift else 0.0  # no spread: d_z is ±inf
                if spread > 0:
                    effect = shift / spread
                rows.append(
                    {
                        "dataset": dataset,
                        "model": model,
                        "baseline": baseline,
                        "mean": float(sign * mean_of(a)),
                        "baseline_mean": float(sign * mean_of(b)),
                        "difference": float(sign * test.mean_difference),
                        "ci_low": float(min(sign * test.ci_low, sign * test.ci_high)),
                        "ci_high": float(max(sign * test.ci_low, sign * test.ci_high)),
                        "statistic": float(sign * test.statistic),
                        "pvalue": test.pvalue,
                        "better": bool(test.mean_difference > 0),
                        "effect_size": effect,
                        "probability_of_improvement": probability_of_improvement(a, b),
                    }
                )
        tested = [r for r in rows if "pvalue" in r]
        adjusted = holm([r["pvalue"] for r in tested]) if tested else []
        for row, p in zip(tested, adjusted):
            row["pvalue_holm"] = float(p)
            row["significant"] = bool(p <= alpha)
            better = row.pop("better")
            row["verdict"] = (
                ("better" if better else "worse") if row["significant"] else NOT_DEMONSTRATED
            )
        order = [
            "dataset", "model", "baseline", "mean", "baseline_mean", "difference", "ci_low",
            "ci_high", "statistic", "pvalue", "pvalue_holm", "significant", "verdict",
            "effect_size", "probability_of_improvement",
        ]  # fmt: skip
        return pd.DataFrame(rows, columns=order)

    def _baseline_of(self, baseline, owner):
        """``baseline``, or the benchmark's; refused when it is not a model's name."""
        baseline = baseline if baseline is not None else self.baseline
        if baseline not in self.models:
            raise ValueError(
                f"The 'baseline' parameter of {owner} must be one of {self.models}. Got "
                f"{baseline!r} instead."
            )
        return baseline

    def _warn_budget(self, baseline):
        """One warning naming the cells whose baseline had a much smaller tuning budget."""
        if self.baseline_floor and baseline == self.baseline:
            return
        cells = []
        for dataset in self.datasets:
            if self.cells[dataset, baseline].budget.get("n_hidden_searches"):
                continue  # its own search (LogisticRegressionCV's Cs) is not in its budget
            base = self.cells[dataset, baseline].budget
            for model in self.models:
                if model == baseline:
                    continue
                budget = self.cells[dataset, model].budget
                for key, what in (("n_candidates", "candidates"), ("n_inner_fits", "inner fits")):
                    theirs, ours = budget.get(key), base.get(key)
                    if theirs and ours and theirs >= BUDGET_RATIO * ours:
                        cells.append(f"{model!r} on {dataset!r} ({theirs} {what} against {ours})")
                        break
        if cells:
            warnings.warn(
                f"The baseline {baseline!r} was tuned with a much smaller budget than the models "
                f"it is compared with: {'; '.join(cells)}. A baseline given a much smaller tuning "
                "budget makes the models look better than they are (unequal tuning): give it a "
                "comparable search, or, for a chance-level floor such as a DummyClassifier, "
                "declare it one (baseline_floor=True).",
                UnequalBudgetWarning,
                stacklevel=external_stacklevel(),
            )

    @validate_params(
        {"reference": [dict], "scale": [POSITIVE], "n_folds": [AT_LEAST_TWO]},
        prefer_skip_nested_validation=True,
    )
    def compare_to_reference(self, reference, *, scale=1.0, n_folds=10):
        """Our means against published ones, in standard errors of the published mean.

        Parameters
        ----------
        reference : dict
            ``(dataset, model)`` -> published ``(mean, std)``, two real numbers (printed units
            after ``scale``, the std at least 0) over ``n_folds`` folds; either NaN where not
            verified. Cells without one are left out, and so are keys that name no cell (a
            paper's models that were not run), with a warning.
        scale : float, default=1.0
            Multiplies our scores (100 when the reference is in percent); greater than 0.
        n_folds : int, default=10
            Folds behind each published mean, at least 2: its standard error is
            ``std / sqrt(n_folds)``.

        Returns
        -------
        DataFrame
            ``dataset``, ``model``, ``mean``, ``std`` (NaN where a fold failed:
            :attr:`missing`), ``reference_mean``, ``reference_std``, ``reference_se``,
            ``difference`` and ``in_reference_se`` (``difference / reference_se``; NaN where
            the published std is NaN, or 0: a standard error of 0 is no unit to count a
            difference in, where dividing by it gave inf, or NaN for equal means).

        Raises
        ------
        ValueError
            Where no key of ``reference`` names a cell of the benchmark (keys swapped to
            ``(model, dataset)``, misspelt names, an empty ``reference``); where a value of a
            cell's key is not such a pair, or its mean lies outside the range of the metric's
            printed values times ``scale`` (a reference in percent with ``scale=1``).

        Warns
        -----
        SklearnFairWarning
            Where some keys of ``reference`` name no cell: they are named, and left out.
        """
        pd = _pandas()
        self._check_reference_keys(reference)
        rows = []
        for (dataset, model), cell in self.cells.items():
            if (dataset, model) not in reference:
                continue
            ref_mean, ref_std = self._reference_pair(reference, (dataset, model), scale)
            values = cell.sign * cell.scores * scale
            mean, std = float(mean_of(values)), float(std_of(values))
            se = ref_std / np.sqrt(n_folds)
            rows.append(
                {
                    "dataset": dataset, "model": model, "mean": mean, "std": std,
                    "reference_mean": ref_mean, "reference_std": ref_std, "reference_se": se,
                    "difference": mean - ref_mean,
                    "in_reference_se": (mean - ref_mean) / se if se > 0 else math.nan,
                }
            )  # fmt: skip
        columns = [
            "dataset", "model", "mean", "std", "reference_mean", "reference_std", "reference_se",
            "difference", "in_reference_se",
        ]  # fmt: skip
        return pd.DataFrame(rows, columns=columns)

    def _reference_pair(self, reference, key, scale):
        """``(mean, std)``, as floats, of the cell ``key`` in ``reference`` of
        :meth:`compare_to_reference`; refused, naming the key, where it is not a pair of real
        numbers with a std of at least 0 (either NaN: not verified), or where its mean lies
        outside the range of the cell's metric times ``scale``."""
        value = reference[key]
        pair = list(value) if isinstance(value, (tuple, list, np.ndarray)) else []
        reals = len(pair) == 2 and all(
            isinstance(v, numbers.Real) and not isinstance(v, bool) for v in pair
        )
        mean, std = (float(v) for v in pair) if reals else (math.nan, math.nan)
        if not reals or math.isinf(mean) or math.isinf(std) or std < 0:
            raise ValueError(
                "The 'reference' parameter of compare_to_reference must map each cell to a "
                "published (mean, std) pair of real numbers, the std at least 0 (either NaN "
                f"where not verified). Got {value!r} for {key!r} instead."
            )
        metric = self.cells[key].metric
        bounds = metric_range(metric)
        scaled = None if bounds is None else (bounds[0] * scale, bounds[1] * scale)
        if scaled is not None and outside_range([mean], scaled).size:
            percent = " (a reference in percent needs scale=100)" if scale == 1 else ""
            raise ValueError(
                "The 'reference' parameter of compare_to_reference must hold means in the range "
                f"of the {metric.name} scores, {range_text(bounds)}, times scale={scale!r}: "
                f"{range_text(scaled)}{percent}. Got a mean of {mean!r} for {key!r} instead."
            )
        return mean, std

    def _check_reference_keys(self, reference):
        """Refuse a ``reference`` of :meth:`compare_to_reference` none of whose keys names a
        cell; warn of (and name) the keys that name none where others do."""
        unknown = [key for key in reference if key not in self.cells]
        if reference and len(unknown) < len(reference):
            if unknown:
                warnings.warn(
                    f"The 'reference' parameter of compare_to_reference has keys that name no "
                    f"cell of the benchmark: {self._unknown_keys(unknown)}; they are left out. "
                    f"{self._cell_names_accepted()}",
                    SklearnFairWarning,
                    stacklevel=external_stacklevel(),
                )
            return
        got = f"keys that name none: {self._unknown_keys(unknown)}" if unknown else "an empty dict"
        raise ValueError(
            "The 'reference' parameter of compare_to_reference must name at least one cell of "
            f"the benchmark by a key. Got {got}. {self._cell_names_accepted()}"
        )

    def _unknown_keys(self, keys):
        """The first few of ``keys`` (of a reference, or the names given to a method) that
        name no cell, each said to look swapped where ``(model, dataset)`` would name one."""
        shown = [
            f"{key!r} (it looks swapped: {key[::-1]!r} is a cell)"
            if isinstance(key, tuple) and key[::-1] in self.cells
            else repr(key)
            for key in keys[:3]
        ]
        more = f" (and {len(keys) - 3} more)" if len(keys) > 3 else ""
        return ", ".join(shown) + more

    def _cell_names_accepted(self):
        """What names a cell (a key of a reference, the names given to a method), with some
        of the benchmark's names."""

        def some(names):
            return ", ".join(map(repr, names[:5])) + (", ..." if len(names) > 5 else "")

        return (
            "A cell is named by a (dataset, model) pair, with dataset one of "
            f"{some(self.datasets)} and model one of {some(self.models)}."
        )

    def rank_comparison(self, *, alpha=0.05, control=None, control_test="z"):
        """Friedman's test and its post-hoc comparisons on each data set's mean scores
        (:func:`sklearn_fair.stats.rank_comparison`; no control by default).

        Returns
        -------
        RankComparison
        """
        # ranked on the scorers' values, so that a smaller error ranks first on its data set
        means = self.mean_scores(printed=False).loc[self._pooled_datasets("rank_comparison")]
        return _rank_comparison(
            means.apply(lambda column: column.map(tie_level)),  # ties as the tables tie them
            alpha=alpha, control=control, control_test=control_test,
        )  # fmt: skip

    def multiple_comparison(self, *, test="auto", alpha=0.05):
        """Every model across the data sets with the test their mean scores allow.

        :func:`sklearn_fair.stats.multiple_comparison` on each data set's mean score, in printed
        units: with ``test="auto"`` autorank's checks (normality, equal variances) choose the
        parametric or the rank family, and ``str(result)`` says which and why, for a methods
        section. The scores of a metric that is not bounded can spread differently from one
        data set to another (an RMSE in each data set's units, an R^2 or a log-loss unbounded
        on one side): the parametric family's checks and its ANOVA would read those spreads
        (an error in dollars or in thousands of dollars could change the verdict), so
        ``test="auto"`` takes the rank family there, which reads only the order of the models
        on each data set (``chosen_by="units"``). Needs 5 data sets or more.

        Parameters
        ----------
        test : {"auto", "parametric", "nonparametric"}, default="auto"
            The family of tests, as :func:`sklearn_fair.stats.multiple_comparison`'s; "auto"
            lets autorank's checks choose, but for a metric that is not bounded (above).
        alpha : float, default=0.05
            Level of the tests.

        Returns
        -------
        MultipleComparison

        Raises
        ------
        ValueError
            With fewer than 5 data sets, too few for autorank to check the tests'
            assumptions (:func:`sklearn_fair.stats.multiple_comparison` refuses them).
        """
        sign = self._sign("multiple_comparison")
        own_units = test == "auto" and self._in_own_units()
        result = _multiple_comparison(
            self.mean_scores().loc[self._pooled_datasets("multiple_comparison")],
            test="nonparametric" if own_units else test,
            alpha=alpha,
            greater_is_better=sign > 0,
        )
        return dataclasses.replace(result, chosen_by="units") if own_units else result

    @validate_params(
        {
            "baseline": [str, None],
            "rope": [NON_NEGATIVE, None],
            "alpha": [CONFIDENCE],
            "prior": [POSITIVE],
            "n_samples": [COUNT],
            "random_state": RANDOM_STATE_CONSTRAINTS,
        },
        prefer_skip_nested_validation=True,
    )
    def compare_across(self, baseline=None, *, rope=None, alpha=0.05, prior=0.5,
                       n_samples=50_000, random_state=0):  # fmt: skip
        """Every model against ``baseline`` across the data sets, the Bayesian way and by counts.

        The Bayesian signed-rank test with a region of practical equivalence (Benavoli, Corani,
        Demšar and Zaffalon, JMLR 2017; :func:`sklearn_fair.stats.bayesian_signed_rank`) on the
        data sets' mean scores, and the win/tie/loss counts of :meth:`compare_to`'s verdicts at
        level ``alpha``: the corrected resampled t-test on each data set, Holm across all the
        models and data sets at once, so that a count never contradicts :meth:`compare_to`'s
        verdict on the same pair (a win is "better", a loss "worse", a tie "difference not
        demonstrated").

        Parameters
        ----------
        baseline : str, default=None
            A model's name; None is the benchmark's ``baseline``.
        rope : float, default=None
            Half-width of the region of practical equivalence, in printed units (0.01: one point
            of accuracy; for an RMSE, choose it in the target's units). None is 0.01 for a
            metric in [0, 1], as the report takes it; for any other metric (an RMSE, a log loss)
            it must be given: a ValueError says so.
        alpha : float, default=0.05
            Level of the tests of the counts (:meth:`compare_to` at ``confidence=1 - alpha``).
        prior : float, default=0.5
            Strength of the signed-rank test's prior pseudo-observation at 0 (baycomp's).
        n_samples : int, default=50_000
            Posterior samples.
        random_state : int, RandomState instance, Generator or None, default=0
            Root of the posterior draws: each model's generator is derived from it by the names
            ``("compare_across", model, baseline)``, so that adding a model or reordering the
            models changes no other model's numbers.

        Returns
        -------
        DataFrame
            One row per model: ``model``, ``baseline``, ``p_better``, ``p_equivalent``,
            ``p_worse`` (in the metric's direction), ``wins``, ``ties``, ``losses`` (data sets),
            ``rope``.
        """
        baseline = self._baseline_of(baseline, "compare_across")
        datasets = self._pooled_datasets("compare_across")
        if rope is None:
            rope = self._default_rope()
            if rope is None:
                names = ", ".join(sorted({describe_metric(c.metric) for c in self.cells.values()}))
                raise ValueError(
                    "compare_across's region of practical equivalence is in the metric's units, "
                    f"which sklearn-fair knows only for metrics in [0, 1], not for {names}: "
                    "pass rope=, the difference in those units that does not matter (e.g. "
                    "rope=0.5 for an RMSE in dollars where half a dollar is negligible)."
                )
        return self._across(
            baseline, self._against(baseline, 1 - alpha), datasets, rope=rope, prior=prior,
            n_samples=n_samples, random_state=random_state,
        )  # fmt: skip

    def _in_own_units(self):
        """Whether the metric is not known to be bounded, so that its scores may be on each
        data set's own scale (an RMSE in dollars, an R^2 unbounded below): not poolable as
        they are. A bounded score (accuracy, kappa, MCC) is."""
        ranges = {metric_range(cell.metric) for cell in self.cells.values()}
        return any(r is None or not (np.isfinite(r[0]) and np.isfinite(r[1])) for r in ranges)

    def _default_rope(self):
        """The region of practical equivalence of ``rope=None``: 0.01 for a metric in [0, 1]
        (a point of accuracy), None (unknown) for any other."""
        ranges = {metric_range(cell.metric) for cell in self.cells.values()}
        return 0.01 if ranges == {(0.0, 1.0)} else None

    def _across(self, baseline, against, datasets, *, rope, random_state=0, **posterior):
        """:meth:`compare_across`'s table on ``datasets``, its counts read from ``against``
        (:meth:`compare_to`'s table at the counts' level); ``posterior``: ``prior``, ``n_samples``
        of :func:`~sklearn_fair.stats.bayesian_signed_rank` (defaults: compare_across's)."""
        if len(datasets) < 2:  # else the signed-rank test's own error names its parameter 'a'
            failed = self._failed_models()
            raise ValueError(
                "compare_across needs at least 2 data sets where every model has every fold's "
                f"score (a signed-rank test over the data sets); only {', '.join(datasets)} "
                + (
                    f"has them. Left out: {_left_out(failed)} (see failures)."
                    if failed
                    else "is in the benchmark."
                )
            )
        pd = _pandas()
        root = seed_root(random_state)
        greater = self._sign("compare_across") > 0
        means = self.mean_scores().loc[datasets]
        verdicts = against[against.dataset.isin(datasets)].groupby("model").verdict
        rows = []
        for model in self.models:
            if model == baseline:
                continue
            probabilities = bayesian_signed_rank(
                means[model], means[baseline], rope=rope, greater_is_better=greater,
                random_state=named_generator(root, "compare_across", model, baseline), **posterior,
            )  # fmt: skip
            counts = verdicts.get_group(model).value_counts()
            wins, losses = int(counts.get("better", 0)), int(counts.get("worse", 0))
            rows.append(
                {
                    "model": model, "baseline": baseline, "p_better": probabilities.p_a_better,
                    "p_equivalent": probabilities.p_equivalent,
                    "p_worse": probabilities.p_b_better,
                    "wins": wins, "ties": len(datasets) - wins - losses, "losses": losses,
                    "rope": float(rope),
                }
            )  # fmt: skip
        return pd.DataFrame(rows)

    @validate_params(
        {
            "n_resamples": [COUNT],
            "confidence": [CONFIDENCE],
            "random_state": RANDOM_STATE_CONSTRAINTS,
            "normalize": "no_validation",  # checked with the data sets and models it names
        },
        prefer_skip_nested_validation=True,
    )
    def aggregate(self, *, n_resamples=2000, confidence=0.95, random_state=0, normalize=None):
        """Each model across all data sets, with rliable's estimators and intervals.

        Parameters
        ----------
        n_resamples : int, default=2000
            Draws of the bootstrap stratified over the data sets.
        confidence : float, default=0.95
            Level of the percentile intervals.
        random_state : int, RandomState instance, Generator or None, default=0
            The root of each model's generator, derived by the model's name.
        normalize : None, "minmax", (str, str) or dict, default=None
            Scores are pooled as they are by default, with a ``SklearnFairWarning`` for several
            data sets scored with a metric that is not bounded (an RMSE is in each data set's
            own units). To pool data sets of different scales, each
            data set's scores are first put on rliable's min-max scale between two anchors, the
            scores that become 0 and 1 (:func:`~sklearn_fair.stats.normalize_scores`):
            ``"minmax"``, the worst and the best model's mean score on it; ``(zero_model,
            one_model)``, these two models' mean scores (``("prior", "logistic")``); a dict
            ``{dataset: (zero, one)}`` of scores in printed units (the chance level and a
            published score; for an error, the larger error first).

        Returns
        -------
        DataFrame
            One row per model: ``iqm``, ``iqm_ci_low``, ``iqm_ci_high``, ``mean``,
            ``mean_ci_low``, ``mean_ci_high``, and with a baseline ``probability_of_improvement``
            over it (averaged over the data sets) with ``poi_ci_low``, ``poi_ci_high``; and
            ``datasets``, the data sets pooled (those where every model has every fold's
            score, see :attr:`missing`), joined by ``", "``, each name quoted as its
            ``repr`` where any holds a comma or a quote, starts or ends with white space or
            is empty (``"'iris, wine', 'digits'"``: two data sets, not three). In printed
            units, or normalised (1 the better anchor); every data set weighs the same,
            whatever its number of folds.
        """
        _pandas()
        sign = self._sign("aggregate")
        datasets = self._pooled_datasets("aggregate")
        if normalize is None and len(datasets) > 1 and self._in_own_units():
            names = ", ".join(sorted({describe_metric(c.metric) for c in self.cells.values()}))
            warnings.warn(
                f"aggregate pools the scores of {names} of {len(datasets)} data sets as they "
                f"are (normalize=None), but {names} is not a bounded metric: its scores may be "
                "on each data set's own scale (an RMSE in its units, an R^2 unbounded below), "
                "and the pooled IQM, mean and their intervals mix them, led by the data sets "
                "of the largest scale. Pass "
                "normalize='minmax' (each data set between its worst and best model's mean) "
                "or normalize=(zero_model, one_model) to pool them on one scale.",
                SklearnFairWarning,
                stacklevel=external_stacklevel(),
            )
        frame = _aggregate.aggregate(
            self._normalized(normalize, sign, _in_name_order(datasets)), baseline=self.baseline,
            n_resamples=n_resamples, confidence=confidence, random_state=random_state,
        )  # fmt: skip
        if sign < 0 and normalize is None:  # negated errors: print the errors
            for name in ("iqm", "mean"):
                low, high = frame[f"{name}_ci_low"].copy(), frame[f"{name}_ci_high"].copy()
                frame[name] = -frame[name]
                frame[f"{name}_ci_low"], frame[f"{name}_ci_high"] = -high, -low
        # what was pooled, in the frame (and aggregate.csv) too, not only in the warning
        frame["datasets"] = name_list(datasets)
        return frame

    def _normalized(self, normalize, sign, datasets):
        """Model -> its scores per data set of ``datasets`` (scorer's units), normalised as
        :meth:`aggregate` says (``sign`` turns printed anchors into the scorer's)."""
        raw = {model: self._per_dataset(model, datasets=datasets) for model in self.models}
        if normalize is None:
            return raw
        means = {m: [float(mean_of(s)) for s in scores] for m, scores in raw.items()}
        if isinstance(normalize, dict) and set(normalize) == set(self.datasets):
            anchors = [(sign * normalize[d][0], sign * normalize[d][1]) for d in datasets]
        elif normalize == "minmax":
            anchors = [(min(c), max(c)) for c in zip(*means.values())]
        elif (
            isinstance(normalize, tuple)
            and len(normalize) == 2
            and all(m in self.models for m in normalize)
        ):
            anchors = list(zip(means[normalize[0]], means[normalize[1]]))
        else:
            raise ValueError(
                "The 'normalize' parameter of aggregate must be None, 'minmax', a pair of "
                f"models' names among {self.models}, or a dict of (zero, one) for every data "
                f"set {self.datasets}. Got {normalize!r:.200} instead."
            )
        for dataset, (zero, one) in zip(datasets, anchors):
            if normalize == "minmax" and not tie_level(one) > tie_level(zero):
                raise ValueError(
                    f"On data set {dataset!r} every model's mean score is {sign * one!r}: "
                    "normalize='minmax' maps the worst model's mean to 0 and the best's to 1, "
                    "which is undefined where they are equal. Pass normalize=(zero_model, "
                    "one_model) or a dict of (zero, one) anchors for every data set, or leave "
                    f"data set {dataset!r} out of the results."
                )
            if not one > zero:
                raise ValueError(
                    f"On data set {dataset!r} the anchors of 'normalize' are {sign * zero!r} "
                    f"(0) and {sign * one!r} (1); the score that becomes 1 must be the better."
                )
        return {
            m: [normalize_scores(s, zero, one) for s, (zero, one) in zip(scores, anchors)]
            for m, scores in raw.items()
        }

    @validate_params(
        {
            "model": [str],
            "other": [str],
            "n_resamples": [COUNT],
            "confidence": [CONFIDENCE],
            "random_state": RANDOM_STATE_CONSTRAINTS,
        },
        prefer_skip_nested_validation=True,
    )
    def probability_of_improvement(self, model, other, *, n_resamples=2000, confidence=0.95,
                                   random_state=0):  # fmt: skip
        """rliable's probability that ``model`` beats ``other``, averaged over the data sets.

        Returns
        -------
        dict
            ``estimate``, ``ci_low``, ``ci_high`` (percentile, stratified bootstrap).
        """
        for name, given in (("model", model), ("other", other)):
            if not isinstance(given, str) or given not in self.models:
                raise ValueError(
                    f"The '{name}' parameter of BenchmarkResult.probability_of_improvement must "
                    f"be one of {self.models}. Got {given!r} instead."
                )
        datasets = _in_name_order(self._pooled_datasets("probability_of_improvement"))
        return _aggregate.probability_of_improvement(
            self._per_dataset(model, datasets=datasets),
            self._per_dataset(other, datasets=datasets),
            names=(model, other),
            n_resamples=n_resamples, confidence=confidence, random_state=random_state,
        )  # fmt: skip

    @validate_params({"thresholds": ["array-like", None]}, prefer_skip_nested_validation=True)
    def performance_profiles(self, thresholds=None):
        """rliable's performance profiles: the fraction of scores better than each threshold.

        Parameters
        ----------
        thresholds : array-like, default=None
            In printed units; None: 101 points from the lowest to the highest score.

        Returns
        -------
        DataFrame
            Thresholds (index) by models: the fraction of each data set's outer scores better than
            the threshold (below it for an error), averaged over the data sets.
        """
        pd = _pandas()
        sign = self._sign("performance_profiles")
        datasets = _in_name_order(self._pooled_datasets("performance_profiles"))
        if thresholds is None:
            printed = np.concatenate(
                [c.metric.values(c.scores) for (d, _), c in self.cells.items() if d in datasets]
            )
            thresholds = np.linspace(printed.min(), printed.max(), 101)
        thresholds = np.asarray(thresholds, dtype=float)
        return pd.DataFrame(
            {
                m: performance_profile(self._per_dataset(m, datasets=datasets), sign * thresholds)
                for m in self.models
            },
            index=pd.Index(thresholds, name="threshold"),
        )

    # -- plots and report -------------------------------------------------------------------

    @validate_params(
        {"alpha": "no_validation", "ax": AX_CONSTRAINTS}, prefer_skip_nested_validation=True
    )
    @fill_doc(DOCS)
    def plot_critical_difference(self, *, alpha=0.05, ax=None):
        """The critical-difference diagram of the average ranks (scikit-posthocs').

        Models joined by a bar are not significantly different by Nemenyi's test at ``alpha``.
        Each model is drawn in its colour in :meth:`plot_intervals` (that of its place in
        ``models``), and a name longer than 25 characters on lines of at most 25 (the
        tables print it whole). Needs matplotlib and scikit-posthocs (the ``plot`` extra).

        Parameters
        ----------
        alpha : float, default=0.05
            Level of Nemenyi's test.
        {ax}

        Returns
        -------
        matplotlib Figure
        """
        from ._plots import critical_difference_diagram

        return critical_difference_diagram(self.rank_comparison(alpha=alpha), alpha, ax)

    @validate_params(
        {"confidence": [CONFIDENCE], "interval": [REPORT_INTERVALS], "ax": AX_CONSTRAINTS},
        prefer_skip_nested_validation=True,
    )
    @fill_doc(DOCS)
    def plot_intervals(self, *, confidence=0.95, interval="corrected_t", ax=None):
        """Each model's mean outer score on each data set with its interval, as the report's
        table.

        A cell whose outer folds failed has no mean and no interval, as the table prints it:
        where its point would be, the plot says how many of its folds failed. For a metric
        that is not bounded (an RMSE, an R^2), whose scores can spread differently from one
        data set to another, each data set gets a panel with an x axis of its own (on one
        axis, differences the table calls significant could be a fraction of a percent of
        its width); a bounded one shares one axis, and a given ``ax`` holds them all. Each
        model is drawn in the colour of its place in ``models``, as in
        :meth:`plot_critical_difference`; a data set's name longer than 25 characters is on
        lines of at most 25 (the tables print it whole).

        Parameters
        ----------
        confidence : float, default=0.95
            Level of the intervals.
        {interval}
        {ax}

        Returns
        -------
        matplotlib Figure
        """
        from ._plots import interval_plot

        return interval_plot(self, confidence, interval, ax)

    @validate_params(
        {
            "title": [str],
            "confidence": [CONFIDENCE],
            "interval": [REPORT_INTERVALS],
            "n_resamples": [COUNT],
            "random_state": RANDOM_STATE_CONSTRAINTS,
            "X": "no_validation",
            "y": "no_validation",
            "splits_file": "no_validation",
            "stratified": ["boolean", None],
            "rope": [POSITIVE, None],
        },
        prefer_skip_nested_validation=True,
    )
    @fill_doc(DOCS)
    def report(self, *, title="Benchmark report", confidence=0.95,
               interval="corrected_t",
               n_resamples=10_000, random_state=None, X=None, y=None, splits_file=None,
               stratified=None, rope=None):  # fmt: skip
        """The report of the benchmark: the one report of sklearn-fair's results.

        First the verdict in one sentence (against the baseline when there is one, else each data
        set's best model and who is shown to be worse; on one data set without a baseline, the
        pairwise comparison) and the table of intervals, one row per data set, model and metric;
        then, as the result's shape calls for them, the paper's table, the comparison with the
        baseline, the pairwise comparison, the ranks, the plots, the selections, the tuning
        budgets and the reproducibility card (see
        :meth:`~sklearn_fair.report.NestedCVReport.sections`). In printed units.

        Parameters
        ----------
        title : str, default="Benchmark report"
            The report's heading.
        confidence : float, default=0.95
            Level of the intervals; every test decides at ``1 - confidence``.
        {interval}
        {bootstrap}
        {card}
        rope : float, default=None
            The region of practical equivalence of :meth:`compare_across`, in printed units; None
            is 0.01 for a metric in [0, 1] (and no Bayesian comparison for other metrics).

        {report}

        Raises
        ------
        ValueError
            When ``X``, ``y`` or ``splits_file`` is given for a benchmark of several data
            sets: they are one data set's, and the card would check every data set's folds
            against them.
        """
        card = card_of(
            list(self.cells.values()), X=X, y=y, splits_file=splits_file,
            stratified=stratified, owner="report",
        )  # fmt: skip
        return NestedCVReport(
            self, title=title, card=card, confidence=confidence, interval=interval,
            n_resamples=n_resamples, random_state=random_state, rope=rope,
        )  # fmt: skip

    @validate_params(
        {
            "title": [str],
            "confidence": [CONFIDENCE],
            "alpha": [CONFIDENCE, None],
            "interval": [REPORT_INTERVALS],
            "n_resamples": [COUNT],
            "random_state": RANDOM_STATE_CONSTRAINTS,
            "rope": [POSITIVE, None],
            "plots": ["boolean"],
        },
        prefer_skip_nested_validation=True,
    )
    @fill_doc(DOCS)
    def to_html(self, *, title="Benchmark report", confidence=0.95, alpha=None,
                interval="corrected_t", n_resamples=10_000, random_state=None, rope=None,
                plots=True):  # fmt: skip
        """The benchmark's :meth:`report` as one self-contained HTML page.

        Parameters
        ----------
        title : str, default="Benchmark report"
            The page's heading.
        confidence : float, default=0.95
            Level of the intervals.
        alpha : float, default=None
            Deprecated: pass ``confidence=1 - alpha``.
        {interval}
        {bootstrap}
        rope : float, default=None
            As :meth:`report`'s: the region of practical equivalence of the Bayesian comparison
            across the data sets, in printed units (needed for a metric not in [0, 1]).
        plots : bool, default=True
            Embed the plots (they need matplotlib).

        Returns
        -------
        str

        Examples
        --------
        >>> from sklearn.datasets import make_classification
        >>> from sklearn.dummy import DummyClassifier
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn_fair import benchmark
        >>> datasets = {name: make_classification(n_samples=60, random_state=seed)
        ...             for name, seed in (("a", 0), ("b", 1))}
        >>> models = {"prior": DummyClassifier(),
        ...           "logistic": (LogisticRegression(), {"C": [0.1, 1.0]})}
        >>> result = benchmark(models, datasets, outer_cv=3, baseline="prior", random_state=0)
        >>> page = result.to_html(plots=False, n_resamples=200)
        >>> page.startswith("<!DOCTYPE html>") and '<p class="lead">Against the baseline' in page
        True
        """
        report = self.report(
            title=title, confidence=_level(confidence, alpha, "to_html"), interval=interval,
            n_resamples=n_resamples, random_state=random_state, rope=rope,
        )  # fmt: skip
        return report.to_html(plots=plots)

    def save_html(self, path, **kwargs):
        """Write :meth:`to_html` to ``path``; returns the path.

        Parameters
        ----------
        path : str or path-like
            The file to write.
        **kwargs
            ``title``, ``confidence``, ``interval``, ``n_resamples``, ``random_state``,
            ``rope``, ``plots``: as :meth:`to_html`.

        Returns
        -------
        Path
        """
        from pathlib import Path

        path = Path(path)
        path.write_text(self.to_html(**kwargs), encoding="utf-8")
        return path


def _in_name_order(datasets):
    """``datasets`` in the order of their names: a bootstrap draws each data set's resamples
    by its place, so that pooled intervals are the same whatever order the data sets were
    given or added in (a file's tables, ``previous=``)."""
    return sorted(datasets, key=str)
