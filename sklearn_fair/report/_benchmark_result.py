"""BenchmarkResult: the scores of many models on many data sets, and what is read from them.

Each cell is a :class:`~._results.NestedResult`, the one result type of every report; a
NestedCV report is the report of a BenchmarkResult of one data set."""

import warnings

import numpy as np

from ..exceptions import SplitsMismatchError, UnequalBudgetWarning
from ..stats import (
    _aggregate,
    bootstrap_ci,
    corrected_resampled_ttest,
    holm,
    iqm,
    probability_of_improvement,
)
from ..stats import rank_comparison as _rank_comparison
from ..stats._aggregate import performance_profile
from ..utils import install_hint
from ..utils._random import named_generator, seed_root
from ..utils._stacklevel import external_stacklevel
from ._card import card_of
from ._format import decimals_for, param_text
from ._report import NestedCVReport
from ._results import NoSplitsError, as_result
from ._verdict import NOT_DEMONSTRATED

__all__ = ["BenchmarkResult"]

#: A baseline tuned with this many times fewer candidates or inner fits than the model it is
#: compared with had "a much smaller budget" (the unequal-tuning pitfall).
BUDGET_RATIO = 4


def _pandas():
    try:
        import pandas as pd
    except ImportError as exc:  # pragma: no cover - pandas is in the test extra
        raise ImportError(
            f"BenchmarkResult's tables are pandas DataFrames. {install_hint('benchmark')} "
            "(or pip install pandas)."
        ) from exc
    return pd


def _fmt(mean, std, decimals):
    return f"{mean:.{decimals}f} ± {std:.{decimals}f}"


class BenchmarkResult:
    """The outer-fold scores of every model on every data set, and what to read from them.

    Made by :func:`~sklearn_fair.benchmark`, or from saved results with :meth:`from_results`.
    Every table speaks the metric's printed units and direction (see
    :class:`~sklearn_fair.metrics.MetricName`): scikit-learn's negated errors
    (``neg_root_mean_squared_error``) are the positive errors (RMSE), a difference is model
    minus baseline in those units, and "better" follows the metric's direction (a smaller
    RMSE is better). Standard deviations are numpy's (``ddof=0``), as scikit-learn's
    ``cv_results_``; the cells (:class:`~sklearn_fair.report._results.NestedResult`) keep the
    scorers' values.

    Attributes
    ----------
    datasets, models : list of str
        In the order given.
    baseline : str or None
        The default model of :meth:`compare_to`.
    baseline_floor : bool
        Whether the baseline is a chance-level floor (a ``DummyClassifier``, a majority vote):
        compared with, but not meant to be tuned like the models, so its small tuning budget
        raises no :class:`~sklearn_fair.exceptions.UnequalBudgetWarning`.
    random_state : int or None
        The one seed of every cell.
    cells : dict
        ``(dataset, model)`` -> NestedResult (per-fold scores, splits, selections, budget,
        and the fitted NestedCV when there is one).
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
        self.random_state = random_state

    def _check_one_metric(self):
        """Tables and tests compare the models of a data set on one metric."""
        for dataset in self.datasets:
            metrics = {
                (self.cells[dataset, m].metric.name, self.cells[dataset, m].sign)
                for m in self.models
            }
            if len(metrics) > 1:
                raise ValueError(
                    f"The models on data set {dataset!r} were scored with different metrics "
                    f"{sorted(metrics)}; a comparison needs one metric per data set."
                )

    @classmethod
    def from_results(cls, results, *, baseline=None, baseline_floor=False, metric=None,
                     budgets=None):  # fmt: skip
        """A BenchmarkResult from results saved or fitted elsewhere.

        Parameters
        ----------
        results : dict
            ``(dataset, model)`` -> a fitted NestedCV, a :func:`~sklearn_fair.report.result_to_dict`
            dict, the experiment runner's ``models/<name>.json`` content, or a dict with
            per-fold ``test_scores`` (and optionally ``validation_scores``, ``best_params``).
        baseline : str, default=None
            The default model of :meth:`compare_to`.
        baseline_floor : bool, default=False
            Whether the baseline is a chance-level floor (no budget warning).
        metric : str, default=None
            The metric's printed name, where the results do not say.
        budgets : dict, default=None
            ``(dataset, model)`` -> budget dict (``n_candidates``, ``n_inner_fits``,
            ``fit_time``...), where the results do not say.

        Returns
        -------
        BenchmarkResult
        """
        budgets = budgets or {}
        cells = {
            (d, m): as_result(m, r, dataset=d, metric=metric, budget=budgets.get((d, m)))
            for (d, m), r in results.items()
        }
        return cls(cells, baseline=baseline, baseline_floor=baseline_floor)

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

    def _per_dataset(self, model, printed=False):
        """The model's fold scores on each data set: the scorer's values (higher is better),
        or with ``printed`` the metric's values."""
        cells = [self.cells[d, model] for d in self.datasets]
        return [c.metric.values(c.scores) if printed else c.scores for c in cells]

    def _sign(self, what):
        """The one sign of every cell (1, or -1 for a negated error): ``what`` pools scores
        across data sets, which needs one direction."""
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

        One row per outer fold of each cell; the score is the mean over the refits, in the
        metric's printed units (a positive RMSE). With several metrics, a ``metric`` column
        and one row per metric (the validation score is that of the selecting metric, NaN for
        the others).
        """
        pd = _pandas()
        multi = any(len(c.scores_per_metric) > 1 for c in self.cells.values())
        rows = []
        for (dataset, model), cell in self.cells.items():
            validation = cell.metric.values(cell.validation_scores)
            for key, values in cell.scores_per_metric.items():
                for fold, value in enumerate(cell.metrics[key].values(values)):
                    row = {"dataset": dataset, "model": model}
                    if multi:
                        row["metric"] = key
                    row.update(outer_fold=fold, score=float(value))
                    selecting = key == cell.refit_metric
                    row["validation_score"] = float(validation[fold]) if selecting else np.nan
                    rows.append(row)
        return pd.DataFrame(rows)

    @property
    def refit_scores(self):
        """Tidy DataFrame of every refit's test score: ``dataset``, ``model``, ``outer_fold``,
        ``refit``, ``score`` (the selecting metric, printed units)."""
        pd = _pandas()
        rows = [
            {"dataset": d, "model": m, "outer_fold": fold, "refit": r, "score": float(s)}
            for (d, m), cell in self.cells.items()
            for fold, refits in enumerate(cell.refit_scores)
            for r, s in enumerate(cell.metric.values(refits))
        ]
        return pd.DataFrame(rows)

    @property
    def budget(self):
        """Each cell's tuning budget: candidates, inner fits, whole searches, refits, and the
        seconds its fits took (``fit_time``)."""
        pd = _pandas()
        keys = ("n_candidates", "n_inner_fits", "n_searches", "n_refit_fits", "fit_time")
        if any("score_time" in cell.budget for cell in self.cells.values()):
            keys += ("score_time",)
        rows = [
            {"dataset": d, "model": m, **{k: cell.budget.get(k, np.nan) for k in keys}}
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

    def selection_summary(self):
        """What each cell selected, and how far its validation scores overstate its test scores.

        Returns
        -------
        DataFrame
            One row per cell: ``dataset``, ``model``, ``validation_mean`` (the winners' mean
            inner validation score), ``test_mean``, ``optimism`` (validation minus test) and
            ``selected``: hyper-parameter -> {value (as printed): number of outer folds that
            selected it}, for every hyper-parameter of the selected configurations. Scores in
            the metric's printed units; optimism is positive when validation was optimistic.
        """
        pd = _pandas()
        rows = []
        for (dataset, model), cell in self.cells.items():
            params = [p or {} for p in cell.best_params]
            names = sorted({name for p in params for name in p})
            selected = {}
            for name in names:
                chosen = [param_text(p.get(name)) for p in params]
                selected[name] = {value: chosen.count(value) for value in sorted(set(chosen))}
            validation, test = np.mean(cell.validation_scores), np.mean(cell.scores)
            rows.append(
                {
                    "dataset": dataset, "model": model,
                    "validation_mean": float(cell.sign * validation),
                    "test_mean": float(cell.sign * test), "optimism": float(validation - test),
                    "selected": selected,
                }
            )  # fmt: skip
        return pd.DataFrame(rows)

    # -- tables and tests -------------------------------------------------------------------

    def mean_scores(self, *, printed=True):
        """DataFrame of data sets (rows) by models (columns): the mean outer score, in the
        metric's printed units (``printed=False``: the scorer's, where higher is better)."""
        self._check_one_metric()
        pd = _pandas()
        return pd.DataFrame(
            {m: [float(np.mean(v)) for v in self._per_dataset(m, printed)] for m in self.models},
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
        same = len(a.test_indices) == len(b.test_indices) and all(
            np.array_equal(np.sort(x), np.sort(y)) for x, y in zip(a.test_indices, b.test_indices)
        )
        if not same:
            raise SplitsMismatchError(
                f"{model!r} and {other!r} were not assessed on the same outer splits of "
                f"{dataset!r}; a paired comparison needs the same folds."
            )
        return corrected_resampled_ttest(
            a.scores,
            b.scores,
            n_train=float(np.mean(a.train_sizes)),
            n_test=float(np.mean(a.test_sizes)),
            confidence=confidence,
        )

    def table(self, *, statistic="mean", scale=1.0, decimals=None, alpha=0.05, mark=True):
        """Models (rows) by data sets (columns), as papers print them.

        Parameters
        ----------
        statistic : {"mean", "iqm"}, default="mean"
            ``"mean"``: mean ± std (numpy's, ``ddof=0``) over the outer folds; ``"iqm"``: the
            IQM and its 95% percentile bootstrap interval over the folds (seeded by the
            benchmark's ``random_state``), ``"iqm [low, high]"``.
        scale : float, default=1.0
            Multiplies the printed values (100 for percentages).
        decimals : int, default=None
            Digits after the point; None: two significant digits of the smallest standard
            deviation of the data set's fold scores (after ``scale``), so that a model that
            is right on every fold does not print as ``1.0 ± 0.0``.
        alpha : float, default=0.05
            Level of "demonstrably worse".
        mark : bool, default=True
            Bold (``**...**``) the best model of each data set, and italicise (``*...*``)
            the models not demonstrably worse than it: those whose corrected resampled
            t-test against it (Nadeau & Bengio), Holm-adjusted within the data set, has
            ``p > alpha``. Results that do not record their splits get only the bold.

        Returns
        -------
        DataFrame of str
        """
        pd = _pandas()
        self._check_one_metric()
        if statistic not in ("mean", "iqm"):
            raise ValueError(
                f"The 'statistic' parameter of table must be 'mean' or 'iqm'. Got {statistic!r}."
            )
        columns, root = {}, seed_root(0 if self.random_state is None else self.random_state)
        for dataset in self.datasets:
            cells = [self.cells[dataset, m] for m in self.models]
            printed = [cell.metric.values(cell.scores) * scale for cell in cells]
            d = decimals
            if d is None:
                d = decimals_for([np.mean(v) for v in printed], [np.std(v) for v in printed])
            texts = []
            for model, values in zip(self.models, printed):
                if statistic == "mean":
                    texts.append(_fmt(np.mean(values), np.std(values), d))
                else:
                    rng = named_generator(root, dataset, model)
                    low, high = bootstrap_ci(values, iqm, n_resamples=2000, random_state=rng)
                    texts.append(f"{iqm(values):.{d}f} [{low:.{d}f}, {high:.{d}f}]")
            if mark:
                texts = self._marked(dataset, texts, alpha)
            columns[dataset] = texts
        return pd.DataFrame(columns, index=pd.Index(self.models, name="model"))

    def _marked(self, dataset, texts, alpha):
        means = [float(np.mean(self.cells[dataset, m].scores)) for m in self.models]
        best = int(np.argmax(means))
        marked = list(texts)
        marked[best] = f"**{texts[best]}**"
        others = [j for j in range(len(self.models)) if j != best]
        try:
            pvalues = [
                self._paired(dataset, self.models[j], self.models[best]).pvalue for j in others
            ]
        except NoSplitsError:
            return marked
        if others:
            for j, p in zip(others, holm(pvalues)):
                if p > alpha:
                    marked[j] = f"*{texts[j]}*"
        return marked

    def compare_to(self, baseline=None, *, alpha=0.05, confidence=0.95):
        """Every model against ``baseline`` on every data set, Holm across the whole family.

        On each data set, the corrected resampled t-test (Nadeau & Bengio) of the paired
        outer-fold scores (the folds must be the same: checked); Holm's adjustment across all
        the data sets and models at once. Warns
        (:class:`~sklearn_fair.exceptions.UnequalBudgetWarning`) when the baseline was tuned
        with a much smaller budget than the model it is compared with.

        Parameters
        ----------
        baseline : str, default=None
            A model's name; None is the benchmark's ``baseline``.
        alpha : float, default=0.05
            Level of ``significant`` (``pvalue_holm <= alpha``).
        confidence : float, default=0.95
            Level of the interval of the mean difference.

        Returns
        -------
        DataFrame
            One row per data set and model: ``dataset``, ``model``, ``baseline``, ``mean``,
            ``baseline_mean``, ``difference`` (model minus baseline), ``ci_low``,
            ``ci_high``, ``statistic`` (its sign that of the difference), ``pvalue``,
            ``pvalue_holm``, ``significant``, ``verdict`` ("better", "worse" or "difference
            not demonstrated", in the metric's direction: a smaller RMSE is better),
            ``effect_size`` (Cohen's d_z: the mean paired difference over its standard
            deviation) and ``probability_of_improvement`` (that a fold score of the model
            beats one of the baseline's). Means, differences and their interval are in the
            metric's printed units (a positive RMSE; a model with a smaller RMSE than the
            baseline has a negative difference).
        """
        pd = _pandas()
        baseline = baseline if baseline is not None else self.baseline
        if baseline not in self.models:
            raise ValueError(
                f"The 'baseline' parameter of compare_to must be one of {self.models}. Got "
                f"{baseline!r} instead."
            )
        self._warn_budget(baseline)
        rows = []
        for dataset in self.datasets:
            for model in self.models:
                if model == baseline:
                    continue
                test = self._paired(dataset, model, baseline, confidence)
                cell = self.cells[dataset, model]
                sign = cell.sign  # the printed units' direction
                a, b = cell.scores, self.cells[dataset, baseline].scores
                differences = sign * (a - b)
                spread = float(np.std(differences, ddof=1))
                effect = (
                    float(np.mean(differences) / spread)
                    if spread > 0
                    else (
                        0.0
                        if np.mean(differences) == 0
                        else float(np.sign(np.mean(differences)) * np.inf)
                    )
                )
                rows.append(
                    {
                        "dataset": dataset,
                        "model": model,
                        "baseline": baseline,
                        "mean": float(sign * np.mean(a)),
                        "baseline_mean": float(sign * np.mean(b)),
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
        adjusted = holm([r["pvalue"] for r in rows]) if rows else []
        for row, p in zip(rows, adjusted):
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

    def _warn_budget(self, baseline):
        """One warning listing the cells whose baseline had a much smaller tuning budget; none
        for a baseline declared a chance-level floor (``baseline_floor``)."""
        if self.baseline_floor and baseline == self.baseline:
            return
        cells = []
        for dataset in self.datasets:
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

    def compare_to_reference(self, reference, *, scale=1.0, n_folds=10):
        """Our means against published ones, in standard errors of the published mean.

        Parameters
        ----------
        reference : dict
            ``(dataset, model)`` -> ``(mean, std)`` as published (in printed units after
            ``scale``), over ``n_folds`` folds; NaN for a number that could not be verified.
            Cells without a reference are left out.
        scale : float, default=1.0
            Multiplies our scores (100 when the reference is in percent).
        n_folds : int, default=10
            Folds behind each published mean: its standard error is ``std / sqrt(n_folds)``.

        Returns
        -------
        DataFrame
            ``dataset``, ``model``, ``mean``, ``std`` (``np.std``), ``reference_mean``,
            ``reference_std``, ``reference_se``, ``difference`` and ``in_reference_se``.
        """
        pd = _pandas()
        rows = []
        for (dataset, model), cell in self.cells.items():
            if (dataset, model) not in reference:
                continue
            ref_mean, ref_std = (float(v) for v in reference[dataset, model])
            values = cell.sign * cell.scores * scale
            mean, std = float(np.mean(values)), float(np.std(values))
            se = ref_std / np.sqrt(n_folds)
            rows.append(
                {
                    "dataset": dataset, "model": model, "mean": mean, "std": std,
                    "reference_mean": ref_mean, "reference_std": ref_std, "reference_se": se,
                    "difference": mean - ref_mean, "in_reference_se": (mean - ref_mean) / se,
                }
            )  # fmt: skip
        return pd.DataFrame(rows)

    def rank_comparison(self, *, alpha=0.05, control=None, control_test="z"):
        """Friedman's test and its post-hoc comparisons on the mean score of each data set.

        See :func:`sklearn_fair.stats.rank_comparison`; ``control`` defaults to no control.

        Returns
        -------
        RankComparison
        """
        # ranked on the scorers' values, so that a smaller error ranks first on its data set
        return _rank_comparison(
            self.mean_scores(printed=False), alpha=alpha, control=control,
            control_test=control_test,
        )  # fmt: skip

    def aggregate(self, *, n_resamples=2000, confidence=0.95, random_state=0):
        """Each model across all data sets, with rliable's estimators and intervals.

        Parameters
        ----------
        n_resamples : int, default=2000
            Draws of the bootstrap stratified over the data sets.
        confidence : float, default=0.95
            Level of the percentile intervals.
        random_state : int, RandomState instance, Generator or None, default=0
            The root of each model's generator, derived by the model's name.

        Returns
        -------
        DataFrame
            One row per model: ``iqm``, ``iqm_ci_low``, ``iqm_ci_high``, ``mean``,
            ``mean_ci_low``, ``mean_ci_high``, and with a baseline
            ``probability_of_improvement`` (over the baseline, averaged over the data sets)
            with ``poi_ci_low``, ``poi_ci_high``. The IQM and the mean are in the metric's
            printed units (a positive RMSE). Every data set weighs the same in every
            statistic, whatever its number of folds (``stats/_aggregate.py``). Scores of
            different data sets are taken as they are: on data sets of very different scales,
            normalise them first.
        """
        _pandas()
        sign = self._sign("aggregate")
        frame = _aggregate.aggregate(
            {m: self._per_dataset(m) for m in self.models}, baseline=self.baseline,
            n_resamples=n_resamples, confidence=confidence, random_state=random_state,
        )  # fmt: skip
        if sign < 0:  # the scorers' values were negated errors: print the errors
            for name in ("iqm", "mean"):
                low, high = frame[f"{name}_ci_low"].copy(), frame[f"{name}_ci_high"].copy()
                frame[name] = -frame[name]
                frame[f"{name}_ci_low"], frame[f"{name}_ci_high"] = -high, -low
        return frame

    def probability_of_improvement(self, model, other, *, n_resamples=2000, confidence=0.95,
                                   random_state=0):  # fmt: skip
        """rliable's probability that ``model`` beats ``other``, averaged over the data sets.

        Returns
        -------
        dict
            ``estimate``, ``ci_low``, ``ci_high`` (percentile, stratified bootstrap).
        """
        return _aggregate.probability_of_improvement(
            self._per_dataset(model), self._per_dataset(other), names=(model, other),
            n_resamples=n_resamples, confidence=confidence, random_state=random_state,
        )  # fmt: skip

    def performance_profiles(self, thresholds=None):
        """rliable's performance profiles: the fraction of scores better than each threshold.

        Parameters
        ----------
        thresholds : array-like, default=None
            In the metric's printed units; None: 101 points from the lowest to the highest
            score.

        Returns
        -------
        DataFrame
            Thresholds (index) by models: the fraction of each data set's outer scores better
            than the threshold (above it; below it for an error such as RMSE), averaged over
            the data sets.
        """
        pd = _pandas()
        sign = self._sign("performance_profiles")
        if thresholds is None:
            printed = np.concatenate([c.metric.values(c.scores) for c in self.cells.values()])
            thresholds = np.linspace(printed.min(), printed.max(), 101)
        thresholds = np.asarray(thresholds, dtype=float)
        return pd.DataFrame(
            {m: performance_profile(self._per_dataset(m), sign * thresholds) for m in self.models},
            index=pd.Index(thresholds, name="threshold"),
        )

    # -- plots and report -------------------------------------------------------------------

    def plot_critical_difference(self, *, alpha=0.05, ax=None):
        """The critical-difference diagram of the average ranks (scikit-posthocs').

        Models joined by a bar are not significantly different by Nemenyi's test at
        ``alpha``. Needs matplotlib and scikit-posthocs (the ``plot`` extra).

        Parameters
        ----------
        alpha : float, default=0.05
            Level of Nemenyi's test.
        ax : matplotlib Axes, default=None
            Where to draw; None makes a new figure.

        Returns
        -------
        matplotlib Figure
        """
        from ._plots import critical_difference_diagram

        return critical_difference_diagram(self, alpha, ax)

    def plot_intervals(self, *, confidence=0.95, ax=None):
        """Each model's mean outer score on each data set, with its corrected resampled t
        interval (Nadeau and Bengio; Student's t for results that do not record their splits),
        as the report's table.

        Parameters
        ----------
        confidence : float, default=0.95
            Level of the intervals.
        ax : matplotlib Axes, default=None
            Where to draw; None makes a new figure.

        Returns
        -------
        matplotlib Figure
        """
        from ._plots import interval_plot

        return interval_plot(self, confidence, ax)

    def report(self, *, title="Benchmark report", confidence=0.95, alpha=None,
               interval="corrected_t",
               n_resamples=10_000, random_state=0, X=None, y=None, splits_file=None,
               stratified=None):  # fmt: skip
        """The report of the benchmark: the one report of sklearn-fair's results.

        At the top the verdict in one sentence (against the baseline when there is one, else
        the best model of each data set and who is shown to be worse; on one data set without
        a baseline, the pairwise comparison) and the table with intervals, one row per data
        set, model and metric (mean ± std, the interval of the mean, clipped to the metric's
        range, the IQM and its bootstrap interval, validation, optimism, ranks, the test
        against the data set's best); then, as the result's shape calls for them, the table as
        a paper prints it, the comparison with the baseline, the pairwise comparison, the
        ranks, the plots, each cell's selected hyper-parameters, the tuning budgets and the
        reproducibility card. Numbers are in the metric's printed units (a positive RMSE).

        Parameters
        ----------
        title : str, default="Benchmark report"
            The report's heading.
        confidence : float, default=0.95
            Level of the intervals.
        alpha : float, default=None
            Level of the tests ("shown to be worse", the comparisons); None is
            ``1 - confidence``.
        interval : {"corrected_t", "t", "normal"}, default="corrected_t"
            The interval of the mean (see :func:`sklearn_fair.stats.mean_interval`): the
            corrected resampled t of Nadeau and Bengio by default, with the outer folds' sizes
            (it reached its nominal level in the coverage benchmark, where Student's t
            under-covered); Student's t for results that do not record their splits.
        n_resamples : int, default=10_000
            Bootstrap resamples of each IQM's interval.
        random_state : int, default=0
            Seed of the bootstrap.
        X, y, splits_file, stratified :
            For the reproducibility card (see :func:`~sklearn_fair.report.reproducibility_card`).

        Returns
        -------
        NestedCVReport
            ``str(report)`` is text; ``to_markdown()``, ``to_html()``, ``to_dataframe()``
            and ``save(path)`` give the other forms.
        """
        card = card_of(
            list(self.cells.values()), X=X, y=y, splits_file=splits_file, stratified=stratified
        )
        return NestedCVReport(
            self, title=title, card=card, confidence=confidence, alpha=alpha, interval=interval,
            n_resamples=n_resamples, random_state=random_state,
        )  # fmt: skip

    def to_html(self, *, title="Benchmark report", confidence=0.95, alpha=0.05,
                n_resamples=10_000, random_state=0, plots=True):  # fmt: skip
        """The benchmark's :meth:`report` as one self-contained HTML page.

        Parameters
        ----------
        title : str, default="Benchmark report"
            The page's heading.
        confidence : float, default=0.95
            Level of the intervals.
        alpha : float, default=0.05
            Level of "shown to be worse" and of the comparisons.
        n_resamples : int, default=10_000
            Bootstrap resamples of each IQM's interval.
        random_state : int, default=0
            Seed of the bootstrap.
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
            title=title, confidence=confidence, alpha=alpha, n_resamples=n_resamples,
            random_state=random_state,
        )  # fmt: skip
        return report.to_html(plots=plots)

    def save_html(self, path, **kwargs):
        """Write :meth:`to_html` to ``path``; returns the path."""
        from pathlib import Path

        path = Path(path)
        path.write_text(self.to_html(**kwargs), encoding="utf-8")
        return path
