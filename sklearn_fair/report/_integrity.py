"""Results read back are checked against what their writer guaranteed: :func:`verify_result`.

A saved result may come from elsewhere (a committed results folder, a colleague's file, a
hand edit), so every reader (``as_result``, hence everything that reads results) checks it
first. The formats sklearn-fair writes:

- ``"sklearn-fair-result"`` (:func:`~sklearn_fair.report.result_to_dict`): version 1 (no
  metrics), 2 (the metrics), 3 (always a checksum);
- ``"sklearn-fair-experiment-model"`` (the runner's ``models/<name>.json``): a checksum over
  the whole file (none before the runner wrote one), the result under ``"result"``;
- ``"sklearn-fair-benchmark"`` (``BenchmarkResult.save``): version 1, a checksum, a result
  per cell.

What cannot be read (a field of the wrong type) is refused. What fails a check (format and
version, the checksum, each fold's score the mean of its refits' and the mean the mean of the
folds', every score in its metric's range) is refused, or read with a warning with
``verify="warn"`` (see :func:`verify_result`). The checksum catches edits and damage, not a
forger, who can recompute it.
"""

import math
import numbers
import warnings
from collections.abc import Mapping
from types import SimpleNamespace

import numpy as np

from ..exceptions import InvalidResultError, SplitLeakageWarning, UncheckedResultWarning
from ..metrics import MetricName
from ..metrics._names import score_range_problem
from ..model_selection._engine import kept_score_arrays
from ..model_selection._nested._task_warnings import MAX_MESSAGE
from ..stats._bounds import metric_range, range_text
from ..utils._provenance import checksum, with_checksum  # noqa: F401 (the runner uses them too)
from ..utils._stacklevel import external_stacklevel

RESULT_FORMAT = "sklearn-fair-result"
# 2 added the selecting metric, the task and each fold's test scores per metric
RESULT_VERSION = 3
_RESULT_VERSIONS = (1, 2, 3)
RUNNER_FORMAT = "sklearn-fair-experiment-model"  # written by experiment/_running/_runner.py
BENCHMARK_FORMAT = "sklearn-fair-benchmark"
BENCHMARK_VERSION = 1
VERIFY = ("raise", "warn")
# How close a fold's test score must be to the mean of its refits' scores (they are equal
# as written; JSON keeps floats exactly).
_RTOL = 1e-9
_METRIC_FIELDS = {"name", "scoring", "sign", "note"}
#: The tuning budget's counts a saved result records (``budget``): its folds do not say them.
BUDGET_COUNTS = ("n_candidates", "n_inner_fits", "n_searches", "n_hidden_searches")


def _is_number(value):
    """A real number that is not a bool, and one a float holds (JSON reads 1e400 as inf but
    10**400 as an int that float() refuses)."""
    if not isinstance(value, numbers.Real) or isinstance(value, (bool, np.bool_)):
        return False
    try:
        float(value)
    except OverflowError:
        return False
    return True


def _is_index(value):
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def _is_list(value):
    return isinstance(value, (list, tuple, np.ndarray))


def _values_are(mapping, accepted):
    return isinstance(mapping, Mapping) and all(map(accepted, mapping.values()))


def _number(value):
    """``value`` as a float (None is NaN, a failed fit)."""
    return math.nan if value is None else float(value)


def verify_result(document, *, source, verify="raise", from_file=False):
    """Check a saved result against what its writer guaranteed; refuse or warn.

    Parameters
    ----------
    document : dict
        A result read back: a :func:`~sklearn_fair.report.result_to_dict` dict, the
        experiment runner's ``models/<name>.json`` content, a :meth:`BenchmarkResult.save`
        file's content, or a dict of the caller's own per-fold numbers (no ``format``).
    source : str
        What to call it in messages: the file's path, or the result's name.
    verify : {"raise", "warn"}, default="raise"
        What to do with a result that fails a check: refuse it, or read it with a warning.
    from_file : bool, default=False
        Whether ``document`` was read from a file: a result with ``outer_results`` but
        without the ``format`` and ``checksum`` that :func:`result_to_dict` writes is then
        read unchecked, with a warning (one kept in memory may lack them).

    Raises
    ------
    InvalidResultError
        The result cannot be read, or it failed a check and ``verify="raise"``.

    Warns
    -----
    UncheckedResultWarning
        It has no checksum (an older format), or it failed a check and ``verify="warn"``.
    SplitLeakageWarning
        Its outer splits train on rows they test (lagged time-series splits do; a run on them
        warned too).

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.dummy import DummyClassifier
    >>> from sklearn_fair import NestedCV
    >>> from sklearn_fair.report import result_to_dict, verify_result
    >>> X, y = load_iris(return_X_y=True)
    >>> saved = result_to_dict(NestedCV(DummyClassifier(), outer_cv=3, n_refits=1,
    ...                                 random_state=0).fit(X, y))
    >>> verify_result(saved, source="prior")
    >>> saved["outer_results"][0]["test_score"] = 0.999
    >>> verify_result(saved, source="prior")
    Traceback (most recent call last):
    ...
    sklearn_fair.exceptions.InvalidResultError: The result prior is refused: does not match its ...
    """
    if verify not in VERIFY:
        raise ValueError(f"The 'verify' parameter must be one of {VERIFY}. Got {verify!r} instead.")
    # what cannot be read, what failed a check, what has no checksum to check
    findings = SimpleNamespace(
        broken=[], failed=[], unchecked=[], shared=[], from_file=from_file, error_score=None
    )
    try:
        _check_document(document, findings, covered=False)
    except RecursionError:
        findings.broken.append("is nested too deeply")
    _conclude(findings, source, verify)


def _conclude(findings, source, verify):
    def listed(problems):
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        return "; ".join(problems[:3]) + more

    if findings.broken:
        raise InvalidResultError(f"The result {source} cannot be read: {listed(findings.broken)}.")
    if findings.shared:  # as a run on such splits warns, and a splits file that allows them
        warnings.warn(
            f"The outer splits of the result {source} train on rows they test: "
            f"{listed(findings.shared)}. Their scores are not scores of unseen rows, and a "
            "corrected t counts those rows as training rows. That is intended for lagged "
            "time-series splits (RollingOrigin with lag > 0); if the result was not made so, "
            "do not use it.",
            SplitLeakageWarning,
            stacklevel=external_stacklevel(),
        )
    if findings.failed and verify == "raise":
        raise InvalidResultError(
            f"The result {source} is refused: {listed(findings.failed)}. verify='warn' (of "
            "BenchmarkResult.from_results or load) reads it anyway, with a warning."
        )
    if findings.failed:
        message = f"The result {source} fails its checks: {listed(findings.failed)}; it is read "
        message += "anyway because verify='warn'."
    elif findings.unchecked:
        message = f"The result {source} {findings.unchecked[0]}; it is read unchecked."
    else:
        return
    warnings.warn(message, UncheckedResultWarning, stacklevel=external_stacklevel())


def _check_document(document, findings, *, covered, where=""):
    """Dispatch on the document's format; ``covered``: an enclosing checksum matched."""
    if not isinstance(document, Mapping):
        findings.broken.append(f"{where}is {type(document).__name__}, not a JSON object")
        return
    kind = document.get("format")
    if kind is None:  # the caller's own numbers, or result_to_dict's shape without a format
        if "outer_results" in document and findings.from_file and not covered:
            # result_to_dict writes both: a file without them was stripped of its seal
            findings.unchecked.append(
                f"{where}has no format and no checksum, so an edit or damage cannot be detected"
            )
        _check_fields(document, findings, where)
    elif kind == RESULT_FORMAT:
        _check_seal(document, findings, _RESULT_VERSIONS, sealed_from=3, covered=covered,
                    where=where)  # fmt: skip
        _check_fields(document, findings, where)
    elif kind == RUNNER_FORMAT:
        covered = _check_seal(document, findings, None, sealed_from=None, covered=covered,
                              where=where)  # fmt: skip
        _check_document(document.get("result"), findings, covered=covered,
                        where=f"{where}its 'result' ")  # fmt: skip
    elif kind == BENCHMARK_FORMAT:
        _check_seal(document, findings, (BENCHMARK_VERSION,), sealed_from=1, covered=covered,
                    where=where)  # fmt: skip
        for key, expected in (
            ("baseline", str), ("random_state", numbers.Integral), ("baseline_floor", bool)
        ):  # fmt: skip
            if document.get(key) is not None and not isinstance(document[key], expected):
                findings.broken.append(f"has a {key} {document[key]!r:.40} of the wrong type")
        _check_cells(document.get("cells"), _check_splits(document, findings), findings)
    else:
        findings.broken.append(f"{where}is of format {kind!r:.80}, not one sklearn-fair writes")


def _check_seal(document, findings, versions, *, sealed_from, covered, where):
    """Check the version and the checksum; return whether a checksum now covers the content."""
    version = document.get("version")
    if not _is_index(version):
        findings.broken.append(f"{where}has version {version!r:.40}, not an integer")
        return covered
    if versions is not None and version not in versions:
        newer = version > max(versions)
        findings.failed.append(
            f"{where}is version {version} of {document['format']!r}, "
            + (f"newer than this sklearn-fair reads ({max(versions)})" if newer else
               "a version sklearn-fair never wrote")
        )  # fmt: skip
    stored = document.get("checksum")
    if stored is None:
        if sealed_from is not None and version >= sealed_from:
            findings.failed.append(
                f"{where}has no checksum, although version {version} always carries one"
            )
        elif not covered:
            findings.unchecked.append(
                f"{where}has no checksum (it was written before sklearn-fair wrote one), so "
                "an edit or damage cannot be detected"
            )
        return covered
    actual = checksum(document) if isinstance(stored, str) else None
    if stored != actual:
        findings.failed.append(
            f"{where}does not match its checksum (it records {stored!r:.80}, its content hashes "
            f"to {actual!r}): it was edited or damaged after it was written"
        )
        return covered
    return True


def _check_splits(document, findings):
    """``{dataset: number of folds}`` of a benchmark file's shared splits (None: none)."""
    splits = document.get("splits")
    if not isinstance(splits, Mapping):
        findings.broken.append("has no 'splits' object")
        return {}
    folds = {}
    for dataset, pairs in splits.items():
        where = f"the splits of {dataset!r:.40}"
        if pairs is None:
            folds[dataset] = None
        elif _is_list(pairs) and all(
            isinstance(p, Mapping) and set(p) == {"train", "test"} for p in pairs
        ):
            for number, pair in enumerate(pairs):
                _check_split(pair, ("train", "test"), f"{where}, fold {number}'s", findings)
            folds[dataset] = len(pairs)
        else:
            findings.broken.append(f"{where} are not a list of train and test indices")
    return folds


def _check_cells(cells, shared, findings):
    if not isinstance(cells, list) or not cells:
        findings.broken.append("has no list of cells")
        return
    seen = set()
    for number, cell in enumerate(cells):
        if not isinstance(cell, Mapping) or not all(
            isinstance(cell.get(key), str) for key in ("dataset", "model")
        ):
            findings.broken.append(f"cell {number} has no 'dataset' and 'model' names")
            continue
        key = (cell["dataset"], cell["model"])
        where = f"cell ({key[0]!r:.40}, {key[1]!r:.40}) "
        if key in seen:
            findings.broken.append(f"{where}appears twice")
        seen.add(key)
        if not _values_are(cell.get("budget", {}), lambda v: v is None or _is_number(v)):
            findings.broken.append(f"{where}has a budget that is not numbers")
        if not _values_are(cell.get("fingerprints", {}), lambda v: v is None or isinstance(v, str)):
            findings.broken.append(f"{where}has fingerprints that are not strings")
        result = cell.get("result")
        if not isinstance(result, Mapping):
            findings.broken.append(f"{where}has no result")
            continue
        _check_fields(result, findings, where)
        folds = result.get("outer_results")
        if (
            not findings.broken
            and any("test_indices" not in fold for fold in folds)
            and shared.get(key[0], 0) not in (None, len(folds))  # None: its data set has none
        ):
            findings.broken.append(f"{where}has folds without splits, and its data set's "
                                   "splits are not one per fold")  # fmt: skip


def _check_metrics(result, findings, where):
    """``{key: (low, high) in the scorer's units}`` of the result's recorded metrics."""
    metrics = result.get("metrics")
    if metrics is None:
        return {}
    if not isinstance(metrics, Mapping) or not metrics:
        findings.broken.append(f"{where}has 'metrics' that are not a non-empty object")
        return {}
    ranges = {}
    for key, fields in metrics.items():
        if not _is_metric(fields):
            findings.broken.append(f"{where}describes metric {key!r:.40} in other fields")
            return {}
        ranges[key] = _scorer_range(MetricName(**fields))
    if result.get("refit_metric", next(iter(metrics))) not in metrics:
        findings.broken.append(f"{where}selects with {result.get('refit_metric')!r:.40}, "
                               "which is not one of its metrics")  # fmt: skip
    return ranges


def _is_metric(fields):
    """Whether ``fields`` are a :class:`~sklearn_fair.metrics.MetricName`'s as
    ``MetricName.to_dict`` writes them: a scorer object's ``score_range`` two numbers, low
    first, None for an unbounded end (the bounds its intervals are clipped to), none in a
    file written before."""
    return (
        isinstance(fields, Mapping)
        and _METRIC_FIELDS <= set(fields) <= _METRIC_FIELDS | {"score_range"}
        and isinstance(fields["name"], str)
        and isinstance(fields["note"], str)
        and (fields["scoring"] is None or isinstance(fields["scoring"], str))
        and fields["sign"] in (1, -1)
        and not isinstance(fields["sign"], bool)
        and (
            "score_range" not in fields
            or (
                _is_list(fields["score_range"])
                and score_range_problem(fields["scoring"], fields["score_range"]) is None
            )
        )
    )


def _check_scores(values, bounds, what, findings, failed=False):
    """Each score a number (None and NaN: a failed fit) within ``bounds`` = (range, name);
    ``failed``: the scores are of a fold marked failed in their metric, which the result's
    error_score may score outside the range."""
    if not _is_list(values) or not all(v is None or _is_number(v) for v in values):
        findings.broken.append(f"{what}: {values!r:.60} is not a list of numbers")
        return False
    for value in values:
        if value is None or math.isnan(value) or (failed and value == findings.error_score):
            continue  # a failed fit's score
        if math.isinf(value):
            findings.failed.append(f"{what}: {value} is not a finite number")
            return False
        if bounds is not None and bounds[0] is not None:
            (low, high), name = bounds
            if not low <= value <= high:
                findings.failed.append(
                    f"{what}: {value!r} is outside {range_text((low, high))}, the range of "
                    f"{name}'s scores"
                )
                return False
    return True


def _check_indices(indices, what, findings):
    if indices is None:
        return
    if isinstance(indices, np.ndarray):
        if indices.dtype.kind in "iu" and (indices.size == 0 or indices.min() >= 0):
            return
    elif _is_list(indices) and all(_is_index(i) and i >= 0 for i in indices):
        return
    findings.broken.append(f"{what} are not non-negative integers")


def _check_split(pair, keys, where, findings):
    """Check the outer split ``pair[keys[0]]``, ``pair[keys[1]]`` as a run checks its splits:
    non-negative integer indices, no empty set, no test row listed twice; a test row also
    trained on is a finding to warn of (lagged time-series splits do so)."""
    broken = len(findings.broken)
    for key in keys:
        _check_indices(pair.get(key), f"{where} {key}", findings)
    train, test = (pair.get(key) for key in keys)
    if train is None or test is None or len(findings.broken) > broken:
        return
    try:
        train, test = np.asarray(train, dtype=np.int64), np.asarray(test, dtype=np.int64)
    except OverflowError:
        findings.broken.append(f"{where} indices are beyond any data set's rows")
        return
    if not train.size or not test.size:
        findings.failed.append(f"{where} {'training' if not train.size else 'test'} set is empty")
        return
    tested = np.unique(test)
    if tested.size < test.size:
        findings.failed.append(f"{where} test indices list a row more than once")
        return
    shared = np.intersect1d(train, tested).size
    if shared:
        findings.shared.append(f"{where} {shared} of its {tested.size} test rows")


def _same(value, mean):
    return bool(np.isclose(_number(value), mean, rtol=_RTOL, atol=1e-12, equal_nan=True))


def _check_fields(result, findings, where):
    """The fields a reader uses, their types, the folds' consistency and the scores' ranges."""
    if "outer_results" not in result:
        _check_own_numbers(result, findings, where)
        return
    folds = result["outer_results"]
    if not isinstance(folds, list) or not folds or not all(isinstance(f, Mapping) for f in folds):
        findings.broken.append(f"{where}has 'outer_results' that are not a list of objects")
        return
    ranges = _check_metrics(result, findings, where)
    refit_metric = result.get("refit_metric", next(iter(ranges), "score"))
    error_score = result.get("error_score")
    if error_score is not None and not (_is_number(error_score) and math.isfinite(error_score)):
        findings.broken.append(f"{where}has an error_score {error_score!r:.40}, not a number")
    findings.error_score = error_score
    for key, kinds in (("random_state", _is_index), ("task", lambda v: v in (
            "classification", "regression"))):  # fmt: skip
        if result.get(key) is not None and not kinds(result[key]):
            findings.broken.append(f"{where}has a {key} {result[key]!r:.40} of the wrong type")
    failures = result.get("failures") or {}
    if not isinstance(failures, Mapping) or not all(
        (key == "final" or str(key).isdigit())
        and isinstance(entry, Mapping)
        and _is_index(entry.get("count"))
        and isinstance(entry.get("error"), str)
        for key, entry in failures.items()
    ):
        findings.broken.append(f"{where}has failures that are not counts and errors per fold")
    budget = result.get("budget")
    if budget is not None and not (
        isinstance(budget, Mapping)
        and set(budget) <= set(BUDGET_COUNTS)
        and all(_is_index(value) and value >= 0 for value in budget.values())
    ):
        findings.broken.append(f"{where}has a budget that is not counts of candidates and fits")
    if not _values_are(result.get("resampling") or {}, lambda v: isinstance(v, str)):
        findings.broken.append(f"{where}has a resampling that is not text per split level")
    metadata = result.get("fit_metadata")
    if metadata is not None and not _values_are(metadata, lambda v: isinstance(v, str)):
        findings.broken.append(f"{where}has fit_metadata that is not text per fit parameter")
    # the validation scores are of the selecting metric, or of the one a search selected with
    validation, selection = ranges.get(refit_metric), result.get("selection_metric")
    if _is_metric(selection):
        validation = _scorer_range(MetricName(**selection))
    elif selection is not None:
        findings.broken.append(f"{where}has a selection_metric that is not a metric's name")
    seeds = result.get("refit_seeds")
    if seeds is not None and not (
        _is_list(seeds) and all(s is None or _is_index(s) for s in seeds)
    ):  # None: an estimator without a random_state
        findings.broken.append(f"{where}has refit_seeds that are not integers")
    for number, fold in enumerate(folds):
        listed = isinstance(failures, Mapping) and str(number) in failures
        _check_fold(fold, f"{where}fold {number}'s", ranges, refit_metric, validation, findings,
                    listed)  # fmt: skip
    if findings.broken:
        return
    means = [_number(f.get("test_score")) for f in folds]
    # a failed fold's test score is error_score: no mean (NaN), or, as written before
    # sklearn-fair said so, the mean with error_score in it
    failed = any(f.get("failed") is True for f in folds)
    for key, statistic in (("score_mean", np.mean), ("score_std", np.std)):
        value = result.get(key)
        if value is not None and not _is_number(value):
            findings.broken.append(f"{where}has a {key} that is not a number")
        elif failed and math.isnan(float(value if value is not None else 0.0)):
            continue
        elif value is not None and not _same(value, statistic(means)):
            findings.failed.append(
                f"{where}records {key} {value!r} but its folds' test scores give "
                f"{float(statistic(means))!r}"
            )


def _scorer_range(metric):
    """``(range of the scores in the scorer's units, the metric's name)``."""
    bounds = metric_range(metric)
    if bounds is not None and metric.sign < 0:
        bounds = (-bounds[1] + 0.0, -bounds[0] + 0.0)  # + 0.0: no negative zero
    return (bounds, metric.name)


def _check_predictions(kept, where, findings):
    """A fold's kept predictions: the true values, and one row per test row of each refit's
    predictions (probabilities in [0, 1], scores finite)."""
    if not isinstance(kept, Mapping) or not {"y_true", "predict"} <= set(kept):
        findings.broken.append(f"{where} predictions are not y_true and predict")
        return
    n = len(kept["y_true"]) if _is_list(kept["y_true"]) else None
    if (
        n is None
        or not _is_list(kept["predict"])
        or not all(_is_list(p) and len(p) == n for p in kept["predict"])
    ):
        findings.broken.append(f"{where} predictions are not one per test row")
        return
    classes = kept.get("classes")
    for field in ("proba", "decision"):
        values = kept.get(field)
        if values is None:
            continue
        if not _is_list(values) or len(values) != len(kept["predict"]):
            findings.broken.append(f"{where} predicted {field} are not one per refit")
            continue
        try:  # one array a label of a multi-output model (one owner with the cache's check)
            groups = [group for refit in values for group in kept_score_arrays(refit, classes)]
        except ValueError:
            findings.broken.append(f"{where} predicted {field} are not one array a label")
            continue
        for group, width in groups:
            try:
                array = np.asarray(group, dtype=float)
            except (TypeError, ValueError):
                findings.broken.append(f"{where} predicted {field} are not numbers")
                break
            if (
                array.ndim < 1
                or array.shape[0] != n
                or (width is not None and array.shape[1:] != (width,))
                or not np.all(np.isfinite(array))
            ):
                findings.broken.append(f"{where} predicted {field} are not one finite row per row")
                break
            if field == "proba" and (np.any(array < 0) or np.any(array > 1)):
                findings.failed.append(f"{where} predicted probabilities are outside [0, 1]")
                break


def failed_metrics_of(fold, keys, refit_metric):
    """The metric keys (of ``keys``) an outer fold (of ``outer_results_`` or a saved result)
    was scored error_score in: no candidate could be selected, a refit or that metric's scorer
    failed. A saved fold marked ``failed`` without ``failed_metrics`` (an older file) failed in
    every metric."""
    names = fold.get("failed_metrics")
    failed = fold.get("failed") is True
    if not isinstance(names, list):
        return list(keys) if failed else []
    return [key for key in keys if key in names or (failed and key == refit_metric)]


def _failed_in(fold, key, refit_metric, listed):
    """Whether the fold was scored error_score in metric ``key``: it is marked failed in it
    (:func:`failed_metrics_of`), or, in an older file without
    these marks, the result's failures list the fold (``listed``)."""
    if listed and "failed" not in fold and "failed_metrics" not in fold:
        return True
    return bool(failed_metrics_of(fold, [key], refit_metric))


def _check_fold(fold, where, ranges, refit_metric, validation, findings, listed=False):
    """A fold's fields; ``listed``: the result's failures list the fold."""
    selecting = ranges.get(refit_metric)
    failed = _failed_in(fold, refit_metric, refit_metric, listed)
    score = fold.get("test_score")
    if not _check_scores([score], selecting, f"{where} test score", findings, failed):
        return
    if fold.get("predictions") is not None:
        _check_predictions(fold["predictions"], where, findings)
    _check_split(fold, ("train_indices", "test_indices"), where, findings)
    for key in ("fit_time", "score_time"):
        value = fold.get(key)
        if value is not None and not (_is_number(value) and 0 <= value < math.inf):
            findings.broken.append(f"{where} {key} is not a non-negative number")
    params = fold.get("best_params")
    if params is not None and not isinstance(params, Mapping):
        findings.broken.append(f"{where} best_params are not an object")
    names = fold.get("failed_metrics")
    if names is not None and not (
        isinstance(names, list) and all(isinstance(name, str) for name in names)
    ):
        findings.broken.append(f"{where} failed_metrics is not a list of metric keys")
    if fold.get("validation_score") is not None:
        _check_scores([fold["validation_score"]], validation, f"{where} validation score",
                      findings, failed)  # fmt: skip
    refits = {}
    if fold.get("test_scores") is not None:
        refits["refits' test scores"] = fold["test_scores"]
    per_metric = fold.get("test_scores_per_metric")
    if "undefined_metrics" in fold:
        _check_undefined(fold, per_metric, where, findings)
    if per_metric is not None:
        if not isinstance(per_metric, Mapping):
            findings.broken.append(f"{where} test_scores_per_metric is not an object")
            return
        for key, values in per_metric.items():
            if not _check_scores(values, ranges.get(key), f"{where} {key} test scores", findings,
                                 _failed_in(fold, key, refit_metric, listed)):  # fmt: skip
                return
        if refit_metric in per_metric:
            refits[f"{refit_metric} test scores"] = per_metric[refit_metric]
    for what, values in refits.items():
        if not _check_scores(values, selecting, f"{where} {what}", findings, failed):
            return
        mean = float(np.mean([_number(v) for v in values])) if len(values) else math.nan
        if not _same(score, mean):
            findings.failed.append(
                f"{where} test score {score!r} is not the mean of its {what} {list(values)!r:.80}"
            )
            return


def _check_undefined(fold, per_metric, where, findings):
    """A fold's ``undefined_metrics``: metric keys of its ``test_scores_per_metric``, none
    of which it failed in, each to the message of its ``UndefinedMetricWarning`` (text of at
    most :data:`~sklearn_fair.model_selection._nested._task_warnings.MAX_MESSAGE` characters,
    as a run records it), which a report prints."""
    undefined, failed = fold["undefined_metrics"], fold.get("failed_metrics")
    if not (
        isinstance(undefined, Mapping)
        and isinstance(per_metric, Mapping)
        and set(undefined) <= set(per_metric)
        and not (isinstance(failed, list) and set(undefined) & set(failed))
        and all(isinstance(text, str) and len(text) <= MAX_MESSAGE for text in undefined.values())
    ):
        findings.broken.append(
            f"{where} undefined_metrics is not a table from the keys of its test scores (of "
            f"metrics it did not fail in) to messages of at most {MAX_MESSAGE} characters"
        )


def _check_own_numbers(result, findings, where):
    """A dict of per-fold ``test_scores`` (and ``validation_scores``, ``best_params``)."""
    scores = result.get("test_scores")
    if scores is None:
        findings.broken.append(
            f"{where}has neither 'outer_results' nor 'test_scores'; its keys are "
            f"{sorted(map(str, result))!r:.200}"
        )
        return
    if not _check_scores(scores, None, f"{where}'test_scores'", findings):
        return
    validation = result.get("validation_scores")
    if validation is not None and _is_list(validation) and len(validation) == len(scores):
        _check_scores(validation, None, f"{where}'validation_scores'", findings)
    elif validation is not None:
        findings.broken.append(f"{where}has not one validation score per test score")
    params = result.get("best_params")
    if params is not None and not (
        _is_list(params)
        and len(params) == len(scores)
        and all(p is None or isinstance(p, Mapping) for p in params)
    ):
        findings.broken.append(f"{where}has not one best_params object per test score")
