"""NestedResult, the one shape of a nested result whatever it came from (a fitted NestedCV,
a saved dict), and result_to_dict."""

import datetime
import decimal
import functools
import math
import numbers
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
from sklearn.utils._param_validation import StrOptions

from ..exceptions import InvalidResultError, NoSplitsError
from ..metrics import MetricName
from ..metrics._names import describe_metric, same_metric
from ..model_selection._engine import fit_settings
from ..stats import compare
from ..stats._bounds import outside_range, range_text
from ..stats._checks import PastLargestFloatError, mean_difference
from ..stats._interval import corrected_t_notes, fold_sizes, times_tested
from ..stats._summary import summary_of_resamples
from ..utils._provenance import qualified_name
from ..utils._random import named_generator, seed_root
from ..utils._scaling import mean_of
from ._format import param_text
from ._integrity import (
    BENCHMARK_FORMAT,
    BUDGET_COUNTS,
    RESULT_FORMAT,
    RESULT_VERSION,
    _scorer_range,
    failed_metrics_of,
    verify_result,
    with_checksum,
)

UNRECORDED = MetricName(
    name="score",
    scoring=None,
    sign=1,
    note="the metric was not saved with this result (saved before sklearn-fair recorded it)",
)


#: The intervals of the mean a report and its plots offer (the ``interval`` of DOCS).
REPORT_INTERVALS = StrOptions({"corrected_t", "t", "normal"})

#: Parameter texts that several signatures share (:func:`~sklearn_fair.utils.fill_doc`).
DOCS = {
    "results": """results : NestedCV, dict, or dict of str to NestedCV or dict
    A fitted :class:`~sklearn_fair.NestedCV` (or its :func:`result_to_dict`), or several
    by name.""",
    "card": """X, y : array-like, default=None
    The data, to fingerprint it and check that the outer folds are stratified: the data the
    results were run on (refused when ``X`` and ``y`` differ in length or are shorter than
    the outer splits' largest index). Without ``y``, the labels of graph data are read from
    its graphs; those of tabular data are not (a column named ``y`` is a feature).
splits_file : str or path-like, default=None
    The saved splits file the outer folds came from.
stratified : bool or None, default=None
    Whether the splits are stratified; None checks the folds against ``y`` ("unknown"
    without it; "not applicable" for a regression).""",
    "interval": """interval : {"corrected_t", "t", "normal"}, default="corrected_t"
    The interval of the mean (see :func:`sklearn_fair.stats.mean_interval`): the
    corrected resampled t of Nadeau and Bengio by default, with the outer folds' sizes
    (it reached its nominal level in the coverage benchmark, where Student's t
    under-covered); Student's t for results that do not record their splits.""",
    "bootstrap": """n_resamples : int, default=10_000
    Bootstrap resamples of the IQM's interval.
random_state : int, RandomState instance, Generator or None, default=None
    Root of the bootstrap's seeds: each cell's generator is derived from it by the cell's
    data set's and model's names, so that a cell's interval does not change when a model
    is added; None: the benchmark's ``random_state`` (the NestedCV's for
    :func:`nested_cv_report`) when it is an int, else 0 (a RandomState or Generator the
    result holds is not drawn from). With the defaults a cell's IQM
    interval is the one :meth:`BenchmarkResult.table(statistic="iqm")
    <sklearn_fair.BenchmarkResult.table>` prints.""",
    "ax": """ax : matplotlib Axes, default=None
    Where to draw; None makes a new figure.""",
    "path": """path : str, path-like or list of them, default=None
    Files to save the figure to; the suffix (``.png``, ``.svg``) sets the format.""",
    "verify": """verify : {"raise", "warn"}, default="raise"
    A saved result that fails a check is refused (``InvalidResultError``), or, with
    ``"warn"``, read with an ``UncheckedResultWarning`` that names it and what failed.""",
    "report": """Returns
-------
report : NestedCVReport
    ``str(report)`` is text; ``to_markdown()``, ``to_html()``, ``to_dataframe()`` and
    ``save(path)`` give the other forms.""",
}


@dataclass(frozen=True)
class NestedResult:
    """The per-fold numbers of one nested cross-validation: one model on one data set.

    ``metrics`` maps each metric's key (``"score"`` for a single metric, else the keys of
    ``scoring``) to its :class:`~sklearn_fair.metrics.MetricName`, the selecting metric first;
    ``scores_per_metric`` holds each fold's test score (mean over the refits) per key, in the
    scorer's units (higher is better), as the run recorded it: a failed fold's is the run's
    ``error_score``, which :meth:`test_scores` (and :attr:`scores`) read as NaN, so that every
    output sees the same failed folds whatever number ``error_score`` is. ``best_params`` is
    None for a fold whose selection
    failed; ``train_indices`` and ``test_indices`` are None when the outer splits were not
    recorded (no paired test is then possible).
    """

    dataset: str
    model: str
    metrics: dict
    refit_metric: str
    scores_per_metric: dict
    refit_scores: list  # per fold, the selecting metric's score of each refit
    validation_scores: np.ndarray
    best_params: list
    train_indices: object
    test_indices: object
    refit_seeds: list
    random_state: object
    fit_time: np.ndarray
    task: object
    budget: dict = field(default_factory=dict)
    estimator: object = None  # the fitted NestedCV, when there is one
    # outer fold (None: the final selection) -> {"count": failed fits, "error": the first}
    failures: dict = field(default_factory=dict)
    # how the splits were made, in words: {"outer": ..., "inner": ...} ({} when not recorded)
    resampling: dict = field(default_factory=dict)
    # the metric that selected, when a search given as the estimator selected with its own
    # scoring (its validation scores are of that metric); None: the selecting metric. Set by
    # as_result from the engine's decision (_own_selection), never by comparing names
    selection_metric: object = None
    # per outer fold, its out-of-fold predictions (y_true, each refit's predict, proba or
    # decision, classes) when they were kept (keep_predictions), else None
    predictions: object = None
    # what the cell was computed from ("data", "model": their fingerprints), when recorded
    fingerprints: dict = field(default_factory=dict)
    # the refit seeds that trained a model in some outer fold (the seed probe may have left
    # some of refit_seeds unused), when the folds record theirs; else None
    used_refit_seeds: object = None
    # the score given to failed fits where it is a number (it may lie outside the range)
    error_score: object = None
    # per metric key, the outer folds scored error_score in that metric (no candidate
    # selected, a refit or that metric's scorer failed): failed folds, whatever the number
    # error_score is
    failed_metric_folds: dict = field(default_factory=dict)
    # per metric key, outer fold -> the message of the UndefinedMetricWarning of its test
    # score where that score is not a measurement but the value its scorer sets where the
    # metric is undefined (recall's zero_division on a test fold without positives)
    undefined_metric_folds: dict = field(default_factory=dict)
    # the package versions recorded with the result (a saved benchmark's "versions"), {} when
    # it records none: then the card can only say which versions printed it
    versions: dict = field(default_factory=dict)
    # the int root the run drew where its random_state was None or a RandomState or Generator
    # (passing it as random_state reproduces the run); None where it was an int, or unrecorded
    random_state_root: object = None
    # whether the cell is the caller's own per-fold test_scores (not a NestedCV's result, nor
    # a saved one): nothing then says how they were computed
    own_scores: bool = False
    # the fit parameters the run was given (sample_weight...), name -> fingerprint ({} for
    # none); None where not recorded (saved, or fitted, before sklearn-fair recorded them)
    fit_metadata: object = None

    @property
    def n_failed(self):
        """How many fits failed (error_score) anywhere in the run."""
        return sum(f["count"] for f in self.failures.values())

    @property
    def name(self):
        return self.model

    @property
    def metric(self):
        """The :class:`~sklearn_fair.metrics.MetricName` of the selecting metric."""
        return self.metrics[self.refit_metric]

    @property
    def sign(self):
        return self.metric.sign

    @property
    def scores(self):
        """Each fold's test score of the selecting metric (scorer's units), NaN where the fold
        failed (:meth:`test_scores`)."""
        return self.test_scores()

    def test_scores(self, key=None):
        """Each fold's test score of a metric (None: the selecting metric's), in the scorer's
        units, NaN where the fold was scored ``error_score`` in it (:attr:`failed_metric_folds`)
        or its score is infinite.

        The one reading of the fold scores that every output (tables, verdicts, comparisons,
        plots, DataFrames) computes from: a numeric ``error_score`` (0.0, 1.0) is a placeholder,
        never a test score, and reads as the failed fold that ``error_score=NaN`` gives; so does
        an infinite score (a regressor's overflowing prediction), which no mean can hold.
        """
        key = self.refit_metric if key is None else key
        scores = np.array(self.scores_per_metric[key], dtype=float)
        scores[list(self.failed_metric_folds.get(key, ()))] = np.nan
        scores[np.isinf(scores)] = np.nan
        return scores

    @property
    def validation_metric(self):
        """The :class:`~sklearn_fair.metrics.MetricName` of :attr:`validation_scores`: the
        selecting metric, or the scoring a search given as the estimator selected with."""
        return self.metric if self.selection_metric is None else self.selection_metric

    @property
    def optimism(self):
        """Mean validation minus mean test score of the selecting metric, in the scorer's
        direction (positive: validation looked better), 0 where the two means are equal at
        :func:`~sklearn_fair.stats._checks.tie_level` (as ties and ranks compare means: the
        same scores averaged in another order); None when the validation scores are of a
        search's own scoring, another metric than the test scores'; NaN where a fold failed
        (:meth:`test_scores`).

        The one rule of every output (the report's table, ``selection_summary``,
        ``plot_optimism``) on whether the two scores can be subtracted.
        """
        if self.selection_metric is not None:
            return None
        # each mean of scores past 2**100 scaled (their sum overflowed: NaN)
        with np.errstate(over="ignore"):
            return mean_difference(mean_of(self.validation_scores), mean_of(self.scores))

    @property
    def failed_folds(self):
        """The outer folds scored ``error_score`` in the selecting metric."""
        return self.failed_metric_folds.get(self.refit_metric, ())

    def n_failed_folds(self, key=None):
        """How many outer folds have no finite test score of a metric (None: the selecting
        metric's) or were scored ``error_score`` in it (:attr:`failed_metric_folds`): where
        folds failed, nothing that needs every fold's score is computed."""
        key = self.refit_metric if key is None else key
        return int(np.sum(~np.isfinite(self.test_scores(key))))

    @property
    def has_splits(self):
        return self.test_indices is not None and self.train_indices is not None

    def interval_sizes(self, interval):
        """``(interval, keywords)`` of the interval of the mean: the corrected resampled t
        needs the outer folds' sizes, so a result without its splits gets Student's t."""
        if interval != "corrected_t":
            return interval, {}
        return (interval, self.sizes) if self.has_splits else ("t", {})

    def summary(self, key=None, *, root, confidence, interval, n_resamples):
        """:func:`~sklearn_fair.stats.summarize` of a metric's fold scores (None: the selecting
        metric's), with :meth:`interval_sizes`; the IQM's bootstrap draws from the generator of
        this cell's names (data set, model) under the int ``root``.

        The one computation of a cell's intervals: the report's table, its plot and
        :meth:`BenchmarkResult.table <sklearn_fair.BenchmarkResult.table>` print it, so a cell
        shows one interval everywhere, and adding a model changes no other cell's.
        """
        key = self.refit_metric if key is None else key
        kind, sizes = self.interval_sizes(interval)
        try:
            return summary_of_resamples(
                self.test_scores(key),
                metric=self.metrics[key],
                confidence=confidence,
                interval=kind,
                n_resamples=n_resamples,
                random_state=named_generator(root, self.dataset, self.model),
                times_tested=(
                    times_tested(self.train_indices, self.test_indices)
                    if self.has_splits
                    else "not recorded"
                ),
                **sizes,
            )
        except PastLargestFloatError as error:  # it named summarize's 'scores', not yours
            raise PastLargestFloatError(
                f"The {self.metrics[key]} test scores of model {self.model!r} on data set "
                f"{self.dataset!r} are so large that {error.what} lies past the largest float "
                f"({np.finfo(float).max:.3g}). Divide them by a power of 10 first (for a "
                "regression, the target).",
                error.what,
            ) from None

    @property
    def sizes(self):
        """The outer folds' mean numbers of distinct training and test rows, ``n_train`` and
        ``n_test`` (the corrected resampled t's keywords, :func:`fold_sizes`); the splits must
        be recorded."""
        return fold_sizes(self.train_indices, self.test_indices)

    @property
    def corrected_t_notes(self):
        """The caveats of the corrected resampled t over the outer splits
        (:func:`corrected_t_notes`); none where the splits are not recorded."""
        if not self.has_splits:
            return ()
        outer = self.resampling.get("outer", "")
        return corrected_t_notes(self.train_indices, self.test_indices, outer)


def corrected_t_caveats(cells, label, names):
    """The sentences ``" <cells>: <note>."``, one for each caveat of the corrected resampled t
    (:attr:`NestedResult.corrected_t_notes`) of some of ``cells``, each cell named by
    ``label(cell)`` and the cells listed by ``names(labels)``; "" for none."""
    labels = {}
    for cell in cells:
        for note in cell.corrected_t_notes:
            labels.setdefault(note, []).append(label(cell))
    return "".join(f" {names(named)}: {note}." for note, named in labels.items())


def _integer_or_none(value):
    return int(value) if isinstance(value, numbers.Integral) else None


def bootstrap_root(own, random_state=None):
    """The int root of the cells' bootstrap generators (drawn once per table, report or plot):
    ``random_state`` when given (one draw from a RandomState or Generator), else ``own`` when
    it is an int, else 0: a RandomState or Generator the result holds is never drawn from, so
    the same result gives the same intervals on every call."""
    if random_state is not None:
        return seed_root(random_state)
    return int(own) if isinstance(own, numbers.Integral) else 0


def _jsonable(value, name=repr):
    """A JSON-safe copy of ``value``: numpy numbers as Python's, a Decimal as a float (as
    scikit-learn reads a regression's Decimals), objects as ``name(object)``."""
    if isinstance(value, Mapping):
        return {str(key): _jsonable(item, name) for key, item in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [_jsonable(item, name) for item in value]
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, (numbers.Real, decimal.Decimal)):
        value = float(value)
        return value if np.isfinite(value) else None
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, type):
        return qualified_name(value)
    return name(value)


def _dated_labels():
    """``(tag, type, read)`` of each type of date a kept label may be, the first type a label
    is an instance of giving its tag (pandas' Timestamp is a datetime, which is a date): saved
    as ``{tag: str(label)}``, read back by ``read``."""
    import pandas as pd  # a dependency, imported only when a label is a date

    return (
        ("Timestamp", pd.Timestamp, pd.Timestamp),
        ("datetime", datetime.datetime, datetime.datetime.fromisoformat),
        ("date", datetime.date, datetime.date.fromisoformat),
        ("datetime64", np.datetime64, np.datetime64),
    )


#: The longest text of a saved date label (a date of numpy's ``as`` unit has 38 characters).
_MAX_DATE_TEXT = 64


def _saved_date(tag, text):
    """The date label saved as ``{tag: text}``; None where ``text`` is not how
    :func:`_saved_label` writes a date of type ``tag`` (never a guess: ``"now"`` is not one)."""
    known = tag in {name for name, _, _ in _dated_labels()}
    return _read_date(tag, text) if known and len(text) <= _MAX_DATE_TEXT else None


@functools.lru_cache(maxsize=256)  # labels are a few classes: each text is parsed once
def _read_date(tag, text):
    read = {name: reader for name, _, reader in _dated_labels()}[tag]
    try:
        value = read(text)
    except (TypeError, ValueError, OverflowError):
        return None
    # NaT (refused when saved) is no label: its text reads back as itself
    return value if str(value) == text and value == value else None


def _saved_label(value):
    """A kept label that JSON has no type for, as saved: a date (datetime, date, pandas
    Timestamp, numpy datetime64) as ``{tag: its text}``, which :func:`read_predictions` reads
    back as the date it was. Any other is refused: read back, the text of its ``repr`` would
    be a str, equal to no label."""
    for tag, kind, _ in _dated_labels():
        if isinstance(value, kind):
            text = str(value)
            if _saved_date(tag, text) is not None:
                return {tag: text}
            break  # NaT: a datetime that no text reads back as
    raise TypeError(
        f"The kept predictions cannot be saved: the label {value!r} is a "
        f"{qualified_name(type(value))}, which JSON cannot hold (it would be read back as the "
        "str of its repr). Labels are saved as str, int, float, bool or None, and dates as "
        "datetime.datetime, datetime.date, pandas.Timestamp or numpy.datetime64 (not NaT). "
        "Recode y as one of these (e.g. y.astype(str)) or run with keep_predictions=False."
    )


def saved_predictions(kept):
    """A fold's kept predictions (``keep_predictions``) as saved: :func:`_jsonable`, each
    date label as :func:`_saved_label` writes it; raises TypeError for a label of another
    type JSON cannot hold."""
    return _jsonable(kept, name=_saved_label)


def _read_labels(values, where):
    """Labels saved by :func:`saved_predictions` (lists of them, nested), each date read back."""
    if isinstance(values, list):
        return [_read_labels(value, where) for value in values]
    if not isinstance(values, Mapping):
        return values
    date = None
    if len(values) == 1:
        [(tag, text)] = values.items()
        date = _saved_date(tag, text) if isinstance(tag, str) and isinstance(text, str) else None
    if date is None:
        raise InvalidResultError(
            f"The kept predictions of {where} hold the label {str(values)[:80]}, which is not "
            'a saved date ({"datetime": "2020-01-01 00:00:00"}, or of "date", "Timestamp" or '
            '"datetime64"); nothing was read.'
        )
    return date


def read_predictions(kept, where):
    """A fold's kept predictions as :func:`saved_predictions` saved them, each date label read
    back as the date it was (``where``: the result, for errors); a label of an older file,
    saved as the text of its ``repr``, stays that str."""
    if not isinstance(kept, Mapping):
        return kept
    labels = ("y_true", "classes", "predict")
    try:
        return {**kept, **{key: _read_labels(kept[key], where) for key in labels if key in kept}}
    except RecursionError:  # a file's lists nested past any labels' depth
        raise InvalidResultError(
            f"The kept predictions of {where} are nested too deeply to be labels; nothing was read."
        ) from None


def _json_holds(value):
    """Whether JSON reads :func:`_jsonable`'s copy of ``value`` back as ``value``: no tuple,
    array, dict key that is not a str, non-finite float or object in it."""
    if isinstance(value, Mapping):
        return all(isinstance(key, str) and _json_holds(item) for key, item in value.items())
    if isinstance(value, list):
        return all(map(_json_holds, value))
    if value is None or isinstance(value, (str, bool, np.bool_)):
        return True
    return isinstance(value, numbers.Real) and math.isfinite(value)


def saved_params(params):
    """A fold's selected hyper-parameters (``best_params``) as saved: each value JSON cannot
    hold as it is (a tuple ``(4,)``, a dict with int keys ``{0: 1, 1: 2}``, ``inf``) as the text
    a report prints for it (:func:`~._format.param_text`), as an estimator is saved as its
    ``repr``: read back, it prints as the fitted result's does."""
    if not isinstance(params, Mapping):
        return _jsonable(params)
    kept = (Mapping, list, tuple, np.ndarray, numbers.Real)  # else an object: its repr, as before
    return {
        str(key): param_text(value)
        if isinstance(value, kept) and not _json_holds(value)
        else _jsonable(value)
        for key, value in params.items()
    }


def result_to_dict(nested):
    """Return a fitted NestedCV's per-fold results as a JSON-safe dict.

    What a report needs and nothing that would need pickle: each outer fold's selected
    hyper-parameters (objects, and values JSON would change such as a tuple, as the text a
    report prints), validation score, refits' test scores (per metric), refit seeds, train and
    test indices and fit time, the metrics, and a checksum; and each fold's ``predictions``
    where they were kept (``keep_predictions``), a date label as
    ``{"datetime": "2020-01-01 00:00:00"}`` (or of ``"date"``, ``"Timestamp"``,
    ``"datetime64"``), which a report reads back as that date (a label of another type JSON
    cannot hold is refused: TypeError).
    Reports and plots accept it in place of the fitted object, after checking it (checksum,
    types, ranges: an edited or damaged result is refused, see
    :meth:`~sklearn_fair.BenchmarkResult.from_results`).

    Parameters
    ----------
    nested : NestedCV
        A fitted :class:`~sklearn_fair.NestedCV`.

    Returns
    -------
    result : dict
        ``format``, ``version``, ``random_state`` (None where it was not an int, with then
        ``random_state_root``: the int root the run drew, which reproduces it),
        ``refit_seeds``, ``score_mean``, ``score_std`` (None where an outer fold failed),
        ``optimism`` (None where a search selected with its own scoring), ``metrics`` (each
        metric's printed name and sign, see
        :func:`~sklearn_fair.metrics.metric_display_name`, and a scorer object's range of
        values, ``score_range``: :class:`~sklearn_fair.metrics.MetricName`),
        ``refit_metric`` (the key of the selecting metric), ``task`` ("classification",
        "regression" or None), ``budget``
        (the tuning's ``n_candidates``, ``n_inner_fits`` and ``n_searches``, which the folds do
        not say), ``outer_results`` (a list of per-fold dicts; ``"failed": True`` in a fold scored
        ``error_score``: no selection, or a failed refit; ``undefined_metrics`` where a test
        score is the value its scorer sets where the metric is undefined, as in
        ``outer_results_``), ``failures`` (outer fold, or "final" ->
        the number of fits that failed there and the first error), ``resampling``,
        ``fit_metadata`` (each fit parameter the fit was given, ``sample_weight``, by name ->
        the fingerprint of its numbers) and ``checksum`` (the
        :func:`~sklearn_fair.utils.digest` of the rest).

    Examples
    --------
    >>> import json
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_fair import NestedCV
    >>> from sklearn_fair.report import result_to_dict
    >>> X, y = load_iris(return_X_y=True)
    >>> nested = NestedCV(LogisticRegression(max_iter=500), {"C": [0.1, 1.0]}, outer_cv=3,
    ...                   refit=False, random_state=0).fit(X, y)
    >>> result = result_to_dict(nested)
    >>> len(result["outer_results"]), sorted(result["outer_results"][0])[:3]
    (3, ['best_params', 'fit_time', 'refit_seeds'])
    >>> json.loads(json.dumps(result)) == result
    True
    """
    if not (hasattr(nested, "outer_results_") and hasattr(nested, "outer_scores_")):
        raise TypeError(
            "The 'nested' parameter of result_to_dict must be a fitted NestedCV (with "
            f"outer_results_). Got {type(nested).__name__} instead."
        )
    keys = (
        "best_params",
        "validation_score",
        "test_score",
        "test_scores",
        "test_scores_per_metric",
        "refit_seeds",
        "train_indices",
        "test_indices",
        "fit_time",
        "score_time",
    )
    folds = [{key: _jsonable(fold.get(key)) for key in keys} for fold in nested.outer_results_]
    metrics, refit_metric = nested_metrics(nested)
    budget = _budget_of(nested, nested.outer_results_)
    for fold, original in zip(folds, nested.outer_results_):
        fold["best_params"] = saved_params(original.get("best_params"))
        fold.update(failed_fields(original.get("failed_metrics", []), refit_metric))
        if original.get("undefined_metrics"):
            fold["undefined_metrics"] = dict(original["undefined_metrics"])
        if original.get("predictions") is not None:  # kept when asked (keep_predictions)
            fold["predictions"] = saved_predictions(original["predictions"])
    settings = fit_settings(nested)
    document = {
        "format": RESULT_FORMAT,
        "version": RESULT_VERSION,
        "random_state": _integer_or_none(settings["random_state"]),
        **_drawn_root(nested),
        "refit_seeds": _jsonable(nested.refit_seeds_),
        "score_mean": _jsonable(nested.score_mean_),
        "score_std": _jsonable(nested.score_std_),
        "optimism": _jsonable(nested.optimism_),  # NaN (own scoring): None, as JSON has it
        "metrics": {key: metric.to_dict() for key, metric in metrics.items()},
        "refit_metric": refit_metric,
        "task": settings["task"],
        "outer_results": folds,
        # what the tuning cost that the folds do not say (the Tuning budgets' columns)
        "budget": {key: budget[key] for key in BUDGET_COUNTS if key in budget},
        # a number given to failed fits may lie outside the metric's range: the checks of
        # a saved result allow it (NaN, the default, and "raise" need no room)
        **error_score_field(_numeric_error_score(settings["error_score"])),
        **saved_fields(
            failures_of(getattr(nested, "failed_tasks_", [])),
            getattr(nested, "resampling_", {}),
            _own_selection(nested),
            settings.get("fit_metadata"),
        ),
    }
    return with_checksum(document)


def _drawn_root(nested):
    """``{"random_state_root": root}`` where a fitted NestedCV drew its seeds' root (its
    random_state was not an int), else ``{}``."""
    root = getattr(nested, "random_state_root_", None)
    if _integer_or_none(fit_settings(nested)["random_state"]) is not None or root is None:
        return {}
    return {"random_state_root": int(root)}


def _own_selection(nested):
    """The metric a search given as the estimator selected with, else None: the engine's
    decision (``validation_comparable_``), never a comparison of the metrics' names, which two
    custom scorers can share."""
    return None if nested.validation_comparable_ else nested.selection_metric_


def _saved_selection(saved):
    """:func:`_own_selection` of a saved result: its ``selection_metric``, written only where
    the validation scores are of a search's own scoring (and no ``optimism`` was saved)."""
    selection = saved.get("selection_metric")
    if isinstance(selection, Mapping) and saved.get("optimism") is None:
        return MetricName(**selection)
    return None


def saved_fields(failures, resampling, selection, fit_metadata):
    """The last fields of a saved result: ``failures`` (fold numbers as text, "final"),
    ``resampling``, the metric a search selected with, if any (``selection_metric``), and the
    fit parameters the run was given, where recorded (``fit_metadata``: name ->
    fingerprint)."""
    fields = {
        "failures": {"final" if f is None else str(f): entry for f, entry in failures.items()},
        "resampling": dict(resampling),
    }
    if selection is not None:
        fields["selection_metric"] = selection.to_dict()
    if fit_metadata is not None:
        fields["fit_metadata"] = dict(fit_metadata)
    return fields


def _saved_fit_metadata(saved):
    """The ``fit_metadata`` of a saved result (:func:`saved_fields`) as text by name; None in a
    file written before sklearn-fair recorded it."""
    recorded = saved.get("fit_metadata")
    if not isinstance(recorded, Mapping):
        return None
    return {str(name): str(value) for name, value in recorded.items()}


def nested_metrics(nested):
    """``(metrics, refit_metric)`` of a fitted NestedCV: key -> MetricName, the selecting first."""
    refit_metric = getattr(nested, "refit_metric_", "score")
    return {refit_metric: nested.metrics_[refit_metric], **nested.metrics_}, refit_metric


def _per_metric(folds, refit_metric, test_scores):
    """Each fold's test score (mean over its refits) per metric key."""
    per_fold = [f.get("test_scores_per_metric") or {} for f in folds]
    keys = list(dict.fromkeys(key for scores in per_fold for key in scores))
    per_metric = {}
    if keys and all(set(scores) == set(keys) for scores in per_fold):
        per_metric = {
            key: np.array([np.mean(np.asarray(s[key], dtype=float)) for s in per_fold])
            for key in keys
        }
    per_metric[refit_metric] = test_scores
    return per_metric


def _first_line(error, limit=200):
    line = str(error).strip().splitlines()[-1] if str(error).strip() else "unknown error"
    return line if len(line) <= limit else line[: limit - 3] + "..."


def failures_of(failed_tasks):
    """Per outer fold (None: the final selection) of NestedCV's ``failed_tasks_``: how many
    fits failed, and the last line of the first error."""
    failures = {}
    for task in failed_tasks:
        fold = task["key"].get("outer_fold")
        entry = failures.setdefault(fold, {"count": 0, "error": _first_line(task["error"])})
        entry["count"] += 1
    return failures


def _saved_failures(saved):
    """``failures`` as result_to_dict writes them (fold numbers as text, "final")."""
    return {
        (None if key == "final" else int(key)): {"count": int(v["count"]), "error": str(v["error"])}
        for key, v in (saved or {}).items()
    }


def failed_fields(names, refit_metric):
    """A saved fold's ``failed`` (true where the selecting metric was scored error_score) and
    ``failed_metrics`` (every metric that was) entries, present only where one failed."""
    fields = {"failed": True} if refit_metric in names else {}
    return {**fields, "failed_metrics": list(names)} if names else fields


def _splits(folds, key):
    if all(fold.get(key) is not None for fold in folds):
        return [np.asarray(fold[key], dtype=np.int64) for fold in folds]
    return None


def _budget_of(nested, folds):
    """What a fitted NestedCV's tuning cost: the counts its fit recorded (those of benchmark's
    cells too), else (a NestedCV fitted before it recorded them) read from its cv_results_."""
    spent = {
        "n_refit_fits": sum(refits_of(f) for f in folds),
        "fit_time": float(sum(f["fit_time"] for f in folds)),
    }
    counts = getattr(nested, "_tuning_counts", None)
    if counts is not None:
        return {**counts, **spent}
    cv = nested.cv_results_
    refit_metric = nested.refit_metric_
    n_inner = sum(1 for key in cv if key.startswith("split") and key.endswith("_test_score"))
    n_inner = n_inner or sum(
        1 for key in cv if key.startswith("split") and key.endswith(f"_test_{refit_metric}")
    )
    n_rows = int(np.sum(np.asarray(cv["outer_fold"]) >= 0))  # the final selection's: -1
    return {
        "n_candidates": n_rows // max(len(folds), 1),
        "n_inner_fits": n_rows * n_inner,
        "n_searches": 0,
        **spent,
    }


def refits_of(fold):
    """The refits an outer fold trained: one a seed it records (none where its selection
    failed, whose ``test_scores`` hold a placeholder), else one a test score."""
    seeds = fold.get("refit_seeds")
    return len(seeds) if isinstance(seeds, list) else len(fold.get("test_scores") or [0])


def _saved_budget(folds, recorded=None):
    """A saved result's tuning budget: what its folds say, and the counts it recorded (none in
    a file written before result_to_dict saved them)."""
    recorded = recorded if isinstance(recorded, Mapping) else {}

    def total(key):  # NaN where no fold records it (scores typed in by the caller): not 0 s
        if not any(f.get(key) is not None for f in folds):
            return float("nan")
        return float(sum(f.get(key) or 0.0 for f in folds))

    return {
        **{key: int(recorded[key]) for key in BUDGET_COUNTS if key in recorded},
        "n_refit_fits": sum(refits_of(f) for f in folds),
        "fit_time": total("fit_time"),
        "score_time": total("score_time"),
    }


def as_result(name, result, *, dataset="data", metric=None, budget=None, verify="raise",
              source=None):  # fmt: skip
    """``result`` as the :class:`NestedResult` of model ``name`` on ``dataset``.

    ``result``: a fitted NestedCV (trusted), a :func:`result_to_dict` dict, the experiment
    runner's ``models/<name>.json`` content, or a dict of per-fold ``test_scores`` (and
    ``validation_scores``, ``best_params``). A dict is checked first (:func:`verify_result` with
    ``verify``; None: the caller checked it); ``source``: the file it was read from, if any.
    ``metric``, ``budget``: the selecting metric's printed name and the tuning budget where the
    result does not record them."""
    if isinstance(result, NestedResult):
        return result
    if isinstance(result, Mapping) and result.get("format") == BENCHMARK_FORMAT:
        raise InvalidResultError(
            f"The result {source or f'{name!r} of data set {dataset!r}'} is a saved benchmark "
            f"(format {BENCHMARK_FORMAT!r}: every model on every data set), not the result of "
            "one model on one data set; read it with BenchmarkResult.load."
        )
    if isinstance(result, Mapping) and verify is not None:
        from_file, source = source is not None, source or f"{name!r} of data set {dataset!r}"
        verify_result(result, source=source, verify=verify, from_file=from_file)
    estimator, task, failures, resampling, selection = None, None, {}, {}, None
    own_scores, fit_metadata = False, None
    if hasattr(result, "outer_results_"):
        folds, estimator = result.outer_results_, result
        failures = failures_of(getattr(result, "failed_tasks_", []))
        resampling = dict(getattr(result, "resampling_", {}))
        selection = _own_selection(result)
        settings = fit_settings(result)
        random_state = settings["random_state"]
        drawn = _drawn_root(result).get("random_state_root")
        error_score = _numeric_error_score(settings["error_score"])
        refit_seeds = list(result.refit_seeds_)
        metrics, refit_metric = nested_metrics(result)
        task = settings["task"]
        fit_metadata = settings.get("fit_metadata")  # none in one fitted before it was recorded
        budget = budget if budget is not None else _budget_of(result, folds)
    elif isinstance(result, Mapping):
        if "result" in result and "outer_results" not in result:
            result = result["result"]  # the experiment runner's file: the result is one key down
        if isinstance(result.get("outer_results"), list):
            folds = result["outer_results"]
            saved = result.get("metrics")
            if saved:
                metrics = {key: MetricName(**value) for key, value in saved.items()}
                refit_metric = result.get("refit_metric", next(iter(metrics)))
            else:
                metrics, refit_metric = {"score": UNRECORDED}, "score"
            task = result.get("task")
            # a saved cell of the caller's own: whatever the file says other than false, so
            # that an odd value never makes the caller's scores pass for NestedCV's
            own_scores = result.get("own_scores", False) is not False
            failures = _saved_failures(result.get("failures"))
            resampling = dict(result.get("resampling") or {})
            selection = _saved_selection(result)
            fit_metadata = _saved_fit_metadata(result)
        else:  # the caller's own per-fold test_scores (verify_result checked they are there)
            n_folds = len(result["test_scores"])
            folds = [
                {"test_score": s, "validation_score": v, "best_params": p}
                for s, v, p in zip(
                    result["test_scores"],
                    result.get("validation_scores") or [None] * n_folds,
                    result.get("best_params") or [None] * n_folds,
                )
            ]
            metrics, refit_metric = {"score": UNRECORDED}, "score"
            own_scores = True
        random_state = result.get("random_state")
        drawn = result.get("random_state_root") if random_state is None else None
        drawn = _integer_or_none(drawn)
        error_score = _numeric_error_score(result.get("error_score"))
        refit_seeds = list(result.get("refit_seeds") or [])
        budget = budget if budget is not None else _saved_budget(folds, result.get("budget"))
    else:
        raise TypeError(
            f"The result {name!r} must be a fitted NestedCV or the dict of result_to_dict "
            f"(with an 'outer_results' list). Got {type(result).__name__} instead."
        )
    if metric is not None:
        recorded = metrics[refit_metric]
        if recorded == UNRECORDED:
            metrics = {**metrics, refit_metric: _unrecorded_metric(metric)}
            _check_named_range(folds, metrics[refit_metric], metric, name, dataset)
        elif metric not in (recorded.name, recorded.scoring):
            scoring = f" (scoring {recorded.scoring!r})" if recorded.scoring is not None else ""
            raise ValueError(
                f"The 'metric' parameter of BenchmarkResult.from_results is {metric!r}, but "
                f"the result {name!r} of data set {dataset!r} records that it was scored with "
                f"{recorded.name}{scoring}. "
                "'metric' names the metric of results that do not record theirs, and does not "
                f"rename a recorded one: pass None, {recorded.name!r}, or results scored with "
                f"{metric!r}."
            )
    if len(folds) < 2:
        raise ValueError(
            f"The result {name!r} has {len(folds)} outer fold(s); a report needs at least 2 "
            "to estimate a spread."
        )
    test_scores = np.array([f["test_score"] for f in folds], dtype=float)
    per_metric = _per_metric(folds, refit_metric, test_scores)
    metrics = {key: value for key, value in metrics.items() if key in per_metric}
    # scores of a metric the result does not describe
    metrics.update({key: UNRECORDED for key in per_metric if key not in metrics})
    predictions = [f.get("predictions") for f in folds]
    if estimator is None:  # saved: its date labels read back as dates
        where = source or f"{name!r} of data set {dataset!r}"
        predictions = [read_predictions(kept, where) for kept in predictions]
    return NestedResult(
        dataset=str(dataset),
        model=str(name),
        metrics=metrics,
        refit_metric=refit_metric,
        scores_per_metric=per_metric,
        refit_scores=[
            np.asarray(f.get("test_scores", [f["test_score"]]), dtype=float) for f in folds
        ],
        validation_scores=np.array([f.get("validation_score") for f in folds], dtype=float),
        best_params=[f.get("best_params") for f in folds],
        train_indices=_splits(folds, "train_indices"),
        test_indices=_splits(folds, "test_indices"),
        refit_seeds=refit_seeds,
        random_state=random_state,
        random_state_root=drawn,
        fit_time=np.array([f.get("fit_time") or np.nan for f in folds], dtype=float),
        task=task,
        budget=dict(budget or {}),
        estimator=estimator,
        failures=failures,
        resampling={str(k): str(v) for k, v in resampling.items()},
        predictions=predictions if any(p is not None for p in predictions) else None,
        selection_metric=selection,
        used_refit_seeds=_used_refit_seeds(refit_seeds, folds),
        error_score=error_score,
        failed_metric_folds=_failed_metric_folds(folds, list(metrics), refit_metric),
        undefined_metric_folds=_undefined_metric_folds(folds, list(metrics)),
        own_scores=own_scores,
        fit_metadata=None if fit_metadata is None else dict(fit_metadata),
    )


def check_recorded_keys(documents, sources):
    """Refuse runner files (``models/*.json``, which record their data set and model) given
    under the key of another one given with them: two files swapped, read as each other's
    cells, silently. ``documents``: key -> the dict read; ``sources``: key -> its file, if any.
    A file keyed otherwise than it records is taken (its names may be a user's spelling, and
    older files record no data set)."""
    for (dataset, name), document in documents.items():
        if not isinstance(document, Mapping) or "result" not in document:
            continue
        model = document.get("name")
        recorded = (document.get("dataset", dataset), model)
        if model is None or recorded[0] is None:
            recorded = (dataset, model)
        if recorded != (dataset, name) and recorded in documents:
            raise InvalidResultError(
                f"The result {sources.get((dataset, name)) or 'given'} records model "
                f"{recorded[1]!r} on data set {recorded[0]!r}, but is given to "
                f"BenchmarkResult.from_results as ({dataset!r}, {name!r}), and another "
                f"result is given as {recorded!r}: key each file by the data set and model "
                "it records."
            )


def _failed_metric_folds(folds, keys, refit_metric):
    failed = [failed_metrics_of(fold, keys, refit_metric) for fold in folds]
    return {key: tuple(i for i, names in enumerate(failed) if key in names) for key in keys}


def _undefined_metric_folds(folds, keys):
    """Per metric key of ``keys`` that has some, outer fold -> the message of the
    ``UndefinedMetricWarning`` of its test score (the folds' ``undefined_metrics``, of a
    fitted NestedCV or a saved result)."""
    undefined = {}
    for number, fold in enumerate(folds):
        for key, message in (fold.get("undefined_metrics") or {}).items():
            if key in keys:
                undefined.setdefault(key, {})[number] = str(message)
    return undefined


def _unrecorded_metric(metric):
    """The metric of results that do not record theirs, which the user names ``metric``: a
    scorer name gives its printed name and sign (the scores are the scorer's, errors negated);
    the printed name of an error ("RMSE") is refused, as nothing says whether the scores are
    the errors or the scorer's negated errors: read the wrong way, every rank is inverted."""
    from ..metrics import get_scorer_names, metric_display_name

    if metric in get_scorer_names():
        return metric_display_name(metric)
    scorer = _negating_scorer(metric, [s for s in get_scorer_names() if s.startswith("neg_")])
    if scorer is not None:
        which = f"metric={scorer!r}" if scorer else "a scorer of yours that negates it"
        raise ValueError(
            f"The 'metric' parameter of BenchmarkResult.from_results is {metric!r}, an error "
            "(lower is better), for results that do not record their metric: pass the "
            f"scorer's name, {which}, with the scores as scikit-learn's scorer "
            "gives them (the errors negated, higher is better)."
        )
    return MetricName(metric, None, 1, "")


#: Other names of errors that a scorer negates, without separators.
_ERROR_ALIASES = {
    "nll": "neg_log_loss",
    "crossentropy": "neg_log_loss",
    "brier": "neg_brier_score",
    "medae": "neg_median_absolute_error",
}


def _negating_scorer(metric, errors):
    """The scorer of ``errors`` (``neg_...``) that negates the error ``metric`` names, in any
    case and with any separators (spaces, ``-``, ``_`` or none), by its printed name ("rmse"),
    scikit-learn's metric function ("log-loss", "brier_score_loss", "mean squared error") or
    a common other name ("nll", "cross-entropy"); "" for another error (a name holding loss,
    error, deviance or entropy, but for the D² scores, "d2_..." of an error, higher is
    better); None for a name of no error."""
    from ..metrics import metric_display_name

    def compact(text):
        return "".join(character for character in text.lower() if character.isalnum())

    name = compact(metric)
    if name.startswith("d2"):
        return None
    for scorer in errors:
        spellings = {compact(scorer[4:]), compact(metric_display_name(scorer).name)}
        if name in spellings or name.removesuffix("loss") in spellings:
            return scorer
    if name in _ERROR_ALIASES:
        return _ERROR_ALIASES[name]
    return "" if any(word in name for word in ("loss", "error", "deviance", "entropy")) else None


def _numeric_error_score(error_score):
    """``error_score`` where it is a finite number, else None (NaN, "raise")."""
    if isinstance(error_score, numbers.Real) and math.isfinite(error_score):
        return float(error_score)
    return None


def error_score_field(error_score):
    """The saved result's ``error_score`` entry: present only where it is a number."""
    return {} if error_score is None else {"error_score": error_score}


def _used_refit_seeds(refit_seeds, folds):
    per_fold = [f.get("refit_seeds") for f in folds]
    if any(not isinstance(seeds, list) for seeds in per_fold):
        return None
    used = {repr(seed) for seeds in per_fold for seed in seeds}
    return [seed for seed in refit_seeds if repr(seed) in used]


def shared_metric(models):
    """The selecting metric all ``models`` share (same name, sign and what was scored, see
    :func:`~sklearn_fair.metrics._names.same_metric`), or None."""
    return models[0].metric if same_metric(m.metric for m in models) else None


def describe_metrics(models):
    """Each model with its selecting metric ("a: accuracy, b: RMSE"), for messages; with
    what each scored where the names are alike ("a: error (scoring='neg_mean_squared_error'),
    b: error (scoring='neg_mean_absolute_error')")."""
    alike = len({m.metric.name for m in models}) == 1
    return ", ".join(
        f"{m.name}: {describe_metric(m.metric) if alike else m.metric}" for m in models
    )


def _check_named_range(folds, metric_name, metric, name, dataset):
    """Refuse the per-fold scores of a result that does not record its metric where they lie
    outside the range of the ``metric`` named for them (a positive RMSE named
    ``"neg_root_mean_squared_error"``): every table would rank them in that metric's
    direction."""
    bounds, printed = _scorer_range(metric_name)
    if bounds is None:
        return
    for key in ("test_score", "validation_score"):
        outside = outside_range([f.get(key) for f in folds if f.get(key) is not None], bounds)
        if outside.size:
            raise InvalidResultError(
                f"The result {name!r} of data set {dataset!r} has {key.replace('_', ' ')}s "
                f"outside {range_text(bounds)}, the range of the scores of {printed} "
                f"(metric={metric!r}): {outside.tolist()[:5]}. Give the scores as the scorer "
                "returns them (an error such as RMSE negated for 'neg_root_mean_squared_error'),"
                " or the metric they are of."
            )


def as_results(results):
    """One result, or a dict of named results, as a list of NestedResult."""
    if isinstance(results, Mapping) and not isinstance(results.get("outer_results"), list):
        if not results:
            raise ValueError("The 'results' parameter is an empty dict; give at least one result.")
        return [as_result(name, result) for name, result in results.items()]
    return [as_result("model", results)]


def compare_results(models, *, confidence):
    """:func:`sklearn_fair.stats.compare`'s table (column -> list, scorer's units) of the
    outer-fold test scores of ``models``, paired by their outer splits (SplitsMismatchError
    when they differ, NoSplitsError when a result does not record them)."""
    unrecorded = [m.name for m in models if not m.has_splits]
    if unrecorded:
        raise NoSplitsError(
            f"The results {unrecorded} do not record their outer splits, so a paired test "
            "cannot check that the models share them."
        )
    shared = {
        m.name: {
            "test_score": m.scores,
            "indices": {"train": m.train_indices, "test": m.test_indices},
        }
        for m in models
    }
    table = compare(shared, confidence=confidence)
    return {column: list(table[column]) for column in table}


def printed_pairs(table, metric):
    """Each pair of :func:`compare_results`' ``table`` in the metric's printed units:
    ``(a, b, difference, low, high)``."""
    for i, (a, b) in enumerate(zip(table["model_a"], table["model_b"])):
        low, high = sorted(metric.sign * np.array([table["ci_low"][i], table["ci_high"][i]]))
        yield a, b, metric.sign * table["mean_difference"][i], low, high
