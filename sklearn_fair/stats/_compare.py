"""Pairwise comparison of several nested cross-validation results on shared outer splits."""

import html
from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass
from functools import partial
from itertools import combinations

import numpy as np
from sklearn.utils._param_validation import StrOptions, validate_params

from ..utils._printing import decimals_for, number, pvalue, signed
from ..utils._scaling import mean_of, scaled_pair
from ._checks import CONFIDENCE, check_same_splits, equal_differences
from ._interval import (
    NOT_DATED_AFTER_NOTE,
    TIME_ORDERED_NOTE,
    corrected_t_notes,
    fold_sizes,
)
from ._paired import corrected_resampled_ttest, holm, paired_ttest
from ._power import repeats_for_power

NOT_DEMONSTRATED = "difference not demonstrated"
#: The power at which compare() says how many repeats would show a difference.
TARGET_POWER = 0.8
#: The most repeats of the outer cross-validation it considers.
MAX_REPEATS = 1000


@dataclass(eq=False)
class ComparisonResult:
    """What :func:`compare` returns: the table of pairwise comparisons, printable.

    Prints (``repr``, and ``_repr_html_`` in a notebook) one paragraph per pair. For code
    written when compare() returned the DataFrame, ``result["verdict"]``, iteration over the
    columns and the DataFrame's attributes (``result.shape``, ``result.iloc``) still work.

    Attributes
    ----------
    table : pandas.DataFrame or dict of ndarray
        One row per pair (see :func:`compare`); a dict of arrays without pandas.
    test : str
        "corrected" or "paired".
    confidence : float
        The level of the intervals; ``1 - confidence`` that of the verdicts.
    n_folds : int
        The number of shared outer folds.
    n_train, n_test : float
        Their mean numbers of distinct training and test rows.
    notes : tuple of str
        The caveats of the corrected t-test over these folds (time-ordered folds, training
        sets that repeat rows), printed after the pairs.
    time_ordered : bool
        Whether every fold tests rows after all those it trains on: repeated, such folds are
        the same folds, so no repeats are proposed.
    metric : MetricName or None
        The metric every result records (:func:`~sklearn_fair.metrics.metric_display_name`),
        or None. Of an error that the scorer negates (``"neg_root_mean_squared_error"``), the
        printed pairs show its printed values, as the report does: the positive RMSE (lower
        is better), the difference a - b and its interval in RMSE. The ``table`` keeps the
        scorer's values.
    """

    table: object
    _: KW_ONLY
    test: str
    confidence: float
    n_folds: int
    n_train: float
    n_test: float
    notes: tuple = ()
    time_ordered: bool = False
    metric: object = None

    def to_frame(self):
        """The table as a pandas DataFrame (pandas needed)."""
        import pandas as pd

        return self.table if isinstance(self.table, pd.DataFrame) else pd.DataFrame(self.table)

    def __getitem__(self, column):
        return self.table[column]

    def __iter__(self):
        return iter(self.table)

    def keys(self):
        """The table's column names."""
        return list(self.table.keys())

    def __len__(self):
        return len(self.table["model_a"])

    def __getattr__(self, name):
        # The DataFrame's own attributes (shape, iloc, to_dict, ...) for code that used
        # the table compare() returned before.
        if name.startswith("_") or name == "table":
            raise AttributeError(name)
        return getattr(self.table, name)

    def _paragraphs(self):
        """The two lines that print each pair."""
        columns = self.keys()
        return [self._lines({c: self.table[c][i] for c in columns}) for i in range(len(self))]

    def _header(self):
        test = (
            "corrected resampled t-test (Nadeau & Bengio)"
            if self.test == "corrected"
            else "paired t-test (fold scores as independent)"
        )
        return (
            f"compare(): {len(self)} pair(s) on {self.n_folds} shared outer folds; {test}, "
            f"p-values adjusted with Holm's method, decided at level {1 - self.confidence:.3g}"
        )

    def _error(self):
        """The metric when it is an error whose scores are negated (printed as the error), else
        None (the scores are printed as they are)."""
        return self.metric if self.metric is not None and self.metric.sign < 0 else None

    def _lines(self, row):
        level = f"{100 * self.confidence:g}%"
        shown = partial(pvalue, alpha=1 - self.confidence, digits=3, floor=None)
        error = self._error()
        columns = ("mean_a", "mean_b", "mean_difference", "ci_low", "ci_high")
        mean_a, mean_b, mean_difference, low, high = (row[column] for column in columns)
        if error is not None:  # its printed values (the positive RMSE): a - b, its interval
            mean_a, mean_b, mean_difference = error.values([mean_a, mean_b, mean_difference])
            low, high = np.sort(error.values([low, high]))
        decimals = decimals_for([mean_a, mean_b], minimum=4)
        difference = signed(mean_difference, decimals) + ("" if error is None else f" {error}")
        first = (
            f"{row['model_a']} - {row['model_b']}: {difference} "
            f"({number(mean_a, decimals)} vs {number(mean_b, decimals)}), "
            f"{level} interval [{signed(low, decimals)}, {signed(high, decimals)}], "
            f"p = {shown(row['pvalue'])}, Holm p = {shown(row['pvalue_holm'])}"
        )
        verdict = row["verdict"]
        if verdict != NOT_DEMONSTRATED:
            return first, f"-> {verdict}"
        repeats = row["repeats_for_power"]
        if row["mean_difference"] == 0:
            more = "the observed difference is 0"
        elif self.time_ordered:
            more = (
                f"repeating these {self.n_folds} time-ordered folds gives the same folds, so "
                "repeats cannot add power"
            )
        elif np.isnan(repeats):
            more = (
                f"no number of repeats (up to {MAX_REPEATS}) of these {self.n_folds} folds "
                f"guarantees {100 * TARGET_POWER:g}% power to show a difference of "
                f"{difference}: repeats on the same data cannot average away "
                "the part of the spread that the folds may share"
            )
        else:
            more = (
                f"{int(repeats)} repeat(s) of these {self.n_folds} folds would give the "
                f"corrected t-test at least {100 * TARGET_POWER:g}% power to show a difference "
                f"of {difference}, were it the true one (a lower bound on the "
                "power: one run cannot tell how correlated the fold differences are), "
                "repeats of a shuffled k-fold of this size (LeaveOneOut, LeaveOneGroupOut "
                "and an unshuffled KFold give the same folds each time)"
            )
        return first, f"-> {verdict}; {more}"

    def _metric_note(self):
        """Why an error prints as it does (the report's words), or None."""
        error = self._error()
        return f"({error.note}.)" if error is not None and error.note else None

    def __repr__(self):
        lines = [self._header()]
        note = self._metric_note()
        if note:
            lines.append(note)
        for first, second in self._paragraphs():
            lines += [f"  {first}", f"    {second}"]
        lines += [f"Note: {note}." for note in self.notes]
        lines.append("The full table: .table, or .to_frame().")
        return "\n".join(lines)

    __str__ = __repr__

    def _repr_html_(self):
        cells = [
            f"<li>{html.escape(first)}<br>{html.escape(second)}</li>"
            for first, second in self._paragraphs()
        ]
        notes = "".join(f"<p>Note: {html.escape(note)}.</p>" for note in self.notes)
        note = self._metric_note()
        note = f"<p>{html.escape(note)}</p>" if note else ""
        return (
            f"<div><p>{html.escape(self._header())}</p>{note}<ul>{''.join(cells)}</ul>{notes}"
            "<p>The full table: <code>.table</code>, or <code>.to_frame()</code>.</p></div>"
        )


def _repeats_for_power(a, b, n_train, n_test, alpha):
    """Repeats of the outer CV for the corrected t-test to show ``mean(a - b)``, or NaN."""
    # the power is of delta / sd: of the scores scaled past 2**100 (their differences'
    # sums and squares would overflow), as the t-tests scale them
    scaled_a, scaled_b, _ = scaled_pair(a, b)
    differences = scaled_a - scaled_b
    delta, sd = float(differences.mean()), float(np.std(differences, ddof=1))
    if equal_differences(a, b) == 0.0:  # no difference but rounding's, as the t-tests say
        return float("nan")
    repeats = repeats_for_power(
        delta, sd, differences.shape[0], n_test / n_train, None, alpha, TARGET_POWER, MAX_REPEATS
    )
    return float("nan") if repeats is None else float(repeats)


def _scores_from_dict(name, result, scoring):
    metric_keys = sorted(key for key in result if key.startswith("test_"))
    if scoring is None:
        if "test_score" in result:
            key = "test_score"
        elif len(metric_keys) == 1:
            key = metric_keys[0]
        else:
            raise ValueError(
                f"The result {name!r} holds several metrics ({metric_keys}); pass the "
                "'scoring' parameter to choose one."
            )
    else:
        key = f"test_{scoring}"
        if key not in result:
            raise ValueError(
                f"The 'scoring' parameter is {scoring!r}, but the result {name!r} has no "
                f"{key!r} key; it has {metric_keys}."
            )
    indices = result.get("indices")
    if not isinstance(indices, Mapping) or "train" not in indices or "test" not in indices:
        raise ValueError(
            f"The result {name!r} has no 'indices' with 'train' and 'test' outer splits, so "
            "compare() cannot check that the models were scored on the same resamples "
            "(nested_cross_validate returns them with return_indices=True)."
        )
    # a numeric error_score reads as a score: the folds that had none say so
    failed = result.get("failed_metrics") or ()
    flagged = [i for i, names in enumerate(failed) if key[len("test_") :] in names]
    return result[key], indices["train"], indices["test"], flagged


def _scores_from_fitted(name, result, scoring):
    scores = result.outer_scores_
    key = getattr(result, "refit_metric_", "score")
    if isinstance(scores, Mapping):
        if scoring is None or scoring not in scores:
            raise ValueError(
                f"The result {name!r} holds several metrics ({sorted(scores)}); pass one of "
                f"them as the 'scoring' parameter. Got {scoring!r}."
            )
        scores, key = scores[scoring], scoring
    elif scoring is not None:
        per_metric = [fold.get("test_scores_per_metric") for fold in result.outer_results_]
        if all(isinstance(p, Mapping) and scoring in p for p in per_metric):
            scores = [np.mean(p[scoring]) for p in per_metric]  # the mean over the refits
            key = scoring
        else:  # the outer scores only, which must be of the metric asked for
            recorded = (getattr(result, "metrics_", None) or {}).get(key)
            if not _is_metric(recorded, scoring):
                raise ValueError(
                    f"The 'scoring' parameter is {scoring!r}, but the result {name!r} holds no "
                    f"scores of it: its outer scores are of {recorded or key!s} "
                    f"(scoring={getattr(recorded, 'scoring', None)!r}). Pass scoring=None to "
                    "compare the metric the results were scored with, or score them with "
                    f"{scoring!r} (in their 'scoring')."
                )
    folds = result.outer_results_
    return (
        scores,
        [fold["train_indices"] for fold in folds],
        [fold["test_indices"] for fold in folds],
        [i for i, fold in enumerate(folds) if key in fold.get("failed_metrics", ())],
    )


def _is_metric(recorded, scoring):
    """Whether the ``recorded`` MetricName is the metric the scorer name ``scoring`` prints
    as: given as that name, or printed alike with its sign (an estimator's default score,
    accuracy, compared as "accuracy"; a ``make_scorer`` of a metric function)."""
    from ..metrics._names import metric_display_name

    if recorded is None:
        return False
    if recorded.scoring == scoring:
        return True
    try:
        asked = metric_display_name(scoring)
    except (TypeError, ValueError):
        return False
    return (asked.name, asked.sign) == (recorded.name, recorded.sign)


def _check_same_metric(results, scoring):
    """Refuse fitted results whose compared scores are of different metrics: those of
    ``scoring``, or of each one's ``refit_metric_`` (a NestedCV's outer scores with several
    metrics). Two metrics printed alike, the same key of two ``scoring`` dicts or the "score"
    of two estimators' own score methods, may be different metrics.

    Returns the metric (MetricName) when every result records it, else None."""
    from ..metrics._names import describe_metric, how_to_score_alike, same_metric

    metrics = {}
    for name, result in results.items():
        recorded = None if isinstance(result, Mapping) else getattr(result, "metrics_", None)
        if recorded:
            key = scoring if scoring is not None else getattr(result, "refit_metric_", "score")
            if key in recorded:
                metrics[name] = recorded[key]
    if not same_metric(metrics.values()):
        advice = how_to_score_alike(list(metrics.values()))
        described = ", ".join(
            f"{name!r}: {metric if advice is None else describe_metric(metric)}"
            for name, metric in metrics.items()
        )
        advice = advice or "pass the 'scoring' parameter to choose one they all hold"
        raise ValueError(
            "compare() needs every result scored with the same metric; their scores are "
            f"of different metrics ({described}). {advice[0].upper()}{advice[1:]}, and compare "
            "again."
        )
    return next(iter(metrics.values())) if len(metrics) == len(results) else None


def _outer_resampling(result):
    """The words of a result's outer resampling (``resampling_["outer"]`` of a NestedCV, the
    ``resampling`` of a saved one; what its run found about its splits), or ""."""
    resampling = result.get("resampling") if isinstance(result, Mapping) else None
    resampling = getattr(result, "resampling_", None) if resampling is None else resampling
    outer = (resampling or {}).get("outer", "") if isinstance(resampling, Mapping) else ""
    return outer if isinstance(outer, str) else ""


def _extract(name, result, scoring):
    """Return (scores, train index arrays, test index arrays, the words of its outer
    resampling (:func:`_outer_resampling`)) of one result."""
    if isinstance(result, Mapping):
        scores, train, test, flagged = _scores_from_dict(name, result, scoring)
    elif hasattr(result, "outer_scores_") and hasattr(result, "outer_results_"):
        scores, train, test, flagged = _scores_from_fitted(name, result, scoring)
    else:
        raise TypeError(
            f"The result {name!r} must be a fitted NestedCV (with outer_scores_ and "
            f"outer_results_) or a nested_cross_validate dict. Got {type(result).__name__}."
        )
    try:
        scores = np.asarray(scores, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(
            f"The result {name!r} must hold numeric test scores. Got {scores!r} instead."
        ) from None
    train = [np.sort(np.asarray(fold)) for fold in train]
    test = [np.sort(np.asarray(fold)) for fold in test]
    if not (scores.ndim == 1 and scores.shape[0] == len(test) == len(train)):
        raise ValueError(
            f"The result {name!r} has {np.size(scores)} scores for {len(test)} outer test folds "
            f"and {len(train)} training folds; expected one score per outer fold."
        )
    # a fold flagged failed was scored error_score, whatever number it is
    failed = sorted(set(np.flatnonzero(~np.isfinite(scores)).tolist()) | set(flagged))
    if failed:
        folds = ", ".join(str(int(i)) for i in failed)
        values = ", ".join(str(float(scores[i])) for i in failed)
        raise ValueError(
            f"The result {name!r} has no {'' if flagged else 'finite '}test score on outer "
            f"fold(s) {folds} ({values}); compare() needs every model's score on every shared "
            "outer fold. A fold whose fits (or scorer) failed is scored error_score (NaN by "
            "default): see why in the result's "
            "FitFailedWarning or a NestedCV's failed_tasks_ (or rerun with error_score="
            "'raise'), fix it and run that result again."
        )
    return scores, train, test, _outer_resampling(result)


def _as_table(rows):
    columns = {column: [row[column] for row in rows] for column in rows[0]}
    try:
        import pandas as pd
    except ImportError:
        return {
            column: np.asarray(
                values, dtype=object if column in ("model_a", "model_b", "verdict") else float
            )
            for column, values in columns.items()
        }
    return pd.DataFrame(columns)


@validate_params(
    {
        "results": [Mapping],
        "scoring": [str, None],
        "test": [StrOptions({"corrected", "paired"})],
        "confidence": [CONFIDENCE],
    },
    prefer_skip_nested_validation=True,
)
def compare(results, *, scoring=None, test="corrected", confidence=0.95):
    """Compare several nested cross-validation results pairwise, on their shared outer splits.

    For each pair of results (A, B) it tests the per-fold differences A - B, then adjusts the
    p-values of all pairs with Holm's method. It refuses results whose outer splits differ: a
    paired comparison of models scored on different test folds is not a comparison of them.

    Parameters
    ----------
    results : dict of str to NestedCV or dict
        At least two named results: fitted :class:`~sklearn_fair.NestedCV` objects or the
        dicts that :func:`~sklearn_fair.nested_cross_validate` returns (``"test_score"`` or
        ``"test_<name>"``, and ``"indices"``).
    scoring : str, default=None
        The metric to compare when a result holds several (the key ``"test_<scoring>"`` of a
        dict, a key of ``test_scores_per_metric`` of a fitted NestedCV); None compares each
        result's own scores, and refuses fitted results of different metrics.
    test : {"corrected", "paired"}, default="corrected"
        "corrected" is Nadeau and Bengio's corrected resampled t-test
        (:func:`corrected_resampled_ttest`, with the outer folds' mean numbers of distinct
        training and test rows), which allows for the overlap of training sets; "paired"
        (:func:`paired_ttest`) ignores it and is too liberal on cross-validation scores.
    confidence : float, default=0.95
        Level of the intervals; ``1 - confidence`` is the significance level of the verdicts.

    Returns
    -------
    ComparisonResult
        Prints one paragraph per pair (where every result records its metric, a fitted
        NestedCV, an error that the scorer negates prints as the report prints it: the positive
        RMSE, lower is better, the difference and its interval in RMSE); its ``table``, in the
        scorer's values, has one row per pair: ``model_a``,
        ``model_b``, their mean scores, the ``mean_difference`` (a - b), its interval
        ``ci_low``, ``ci_high`` (not adjusted for multiplicity), the t ``statistic``, the
        ``pvalue``, the Holm-adjusted ``pvalue_holm``, the ``verdict`` ("<name> better" when
        ``pvalue_holm <= 1 - confidence``, as statsmodels' ``multipletests`` decides, else
        "difference not demonstrated"), and ``repeats_for_power``: for a difference not
        demonstrated, how many repeats of these outer folds the corrected t-test would need
        to show it, were it the true one, with 80% power at Holm's strictest level ``(1 -
        confidence) / n_pairs`` (:func:`corrected_ttest_repeats` with ``rho=None``, a
        conservative count); NaN when demonstrated, when no number up to 1000 would do, or
        for time-ordered folds (each testing rows after all those it trains on), which repeat
        as the same folds. With the corrected test it notes, after the pairs, the caveats of
        its correction for time-ordered folds and for training sets that repeat rows (it
        counts their distinct rows).

    Raises
    ------
    SplitsMismatchError
        When two results' outer splits differ, naming them and the first fold that differs.
    ValueError
        When a result has no finite score on an outer fold (a failed fold, scored
        ``error_score``), naming the result and the fold.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_fair.stats import compare
    >>> indices = {"train": [np.arange(5, 20), np.r_[0:5, 10:20], np.arange(10)],
    ...            "test": [np.arange(5), np.arange(5, 10), np.arange(10, 20)]}
    >>> results = {
    ...     "forest": {"test_score": [0.81, 0.85, 0.83], "indices": indices},
    ...     "linear": {"test_score": [0.78, 0.84, 0.80], "indices": indices},
    ... }
    >>> result = compare(results)
    >>> result["verdict"][0]
    'difference not demonstrated'
    >>> result  # doctest: +NORMALIZE_WHITESPACE
    compare(): 1 pair(s) on 3 shared outer folds; corrected resampled t-test (Nadeau &
    Bengio), p-values adjusted with Holm's method, decided at level 0.05
      forest - linear: +0.0233 (0.8300 vs 0.8067), 95% interval [-0.0220, +0.0687],
      p = 0.157, Holm p = 0.157
        -> difference not demonstrated; 34 repeat(s) of these 3 folds would give the
        corrected t-test at least 80% power to show a difference of +0.0233, were it the
        true one (a lower bound on the power: one run cannot tell how correlated the fold
        differences are), repeats of a shuffled k-fold of this size (LeaveOneOut,
        LeaveOneGroupOut and an unshuffled KFold give the same folds each time)
    The full table: .table, or .to_frame().
    """
    if len(results) < 2:
        raise ValueError(
            "The 'results' parameter of compare must be a dict of at least two named results. "
            f"Got a {type(results).__name__} of {len(results)} entries instead."
        )
    confidence = float(confidence)
    metric = _check_same_metric({str(name): result for name, result in results.items()}, scoring)
    extracted = {
        str(name): _extract(str(name), result, scoring) for name, result in results.items()
    }
    names = list(extracted)
    reference = names[0]
    for name in names[1:]:
        check_same_splits(reference, extracted[reference][1:3], name, extracted[name][1:3])
    _, train, test_folds, outer = extracted[reference]
    sizes = fold_sizes(train, test_folds)
    n_train, n_test = sizes["n_train"], sizes["n_test"]
    notes = corrected_t_notes(train, test_folds, outer)
    time_ordered = TIME_ORDERED_NOTE in notes or NOT_DATED_AFTER_NOTE in notes  # by position

    rows = []
    for name_a, name_b in combinations(names, 2):
        a, b = extracted[name_a][0], extracted[name_b][0]
        if test == "corrected":
            outcome = corrected_resampled_ttest(
                a, b, n_train=n_train, n_test=n_test, confidence=confidence
            )
        else:
            outcome = paired_ttest(a, b, confidence=confidence)
        rows.append(
            {
                "model_a": name_a,
                "model_b": name_b,
                "mean_a": float(mean_of(a)),
                "mean_b": float(mean_of(b)),
                "mean_difference": outcome.mean_difference,
                "ci_low": outcome.ci_low,
                "ci_high": outcome.ci_high,
                "statistic": outcome.statistic,
                "pvalue": outcome.pvalue,
            }
        )
    adjusted = holm([row["pvalue"] for row in rows])
    # The repeats are planned at Holm's first and strictest level, alpha / m.
    planning_alpha = (1.0 - confidence) / len(rows)
    for row, pvalue_holm in zip(rows, adjusted):
        row["pvalue_holm"] = float(pvalue_holm)
        # Holm rejects at p <= alpha, as statsmodels' multipletests does. A rejection implies
        # that the unadjusted interval excludes 0 (touches it at p = alpha): no second test.
        better = row["model_a"] if row["mean_difference"] > 0 else row["model_b"]
        demonstrated = pvalue_holm <= 1.0 - confidence
        row["verdict"] = f"{better} better" if demonstrated else NOT_DEMONSTRATED
        a, b = extracted[row["model_a"]][0], extracted[row["model_b"]][0]
        row["repeats_for_power"] = (
            float("nan")
            if demonstrated or time_ordered
            else _repeats_for_power(a, b, n_train, n_test, planning_alpha)
        )
    return ComparisonResult(
        _as_table(rows),
        test=test,
        confidence=confidence,
        n_folds=len(test_folds),
        n_train=n_train,
        n_test=n_test,
        notes=notes if test == "corrected" else (),
        time_ordered=time_ordered,
        metric=metric,
    )
