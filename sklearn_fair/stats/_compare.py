"""Pairwise comparison of several nested cross-validation results on shared outer splits."""

from collections.abc import Mapping
from itertools import combinations

import numpy as np
from sklearn.utils._param_validation import StrOptions, validate_params

from ..exceptions import SplitsMismatchError
from ._checks import CONFIDENCE
from ._paired import corrected_resampled_ttest, holm, paired_ttest

NOT_DEMONSTRATED = "difference not demonstrated"
_COLUMNS = (
    "model_a",
    "model_b",
    "mean_a",
    "mean_b",
    "mean_difference",
    "ci_low",
    "ci_high",
    "statistic",
    "pvalue",
    "pvalue_holm",
    "verdict",
)


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
    return result[key], indices["train"], indices["test"]


def _scores_from_fitted(name, result, scoring):
    scores = result.outer_scores_
    if isinstance(scores, Mapping):
        if scoring is None or scoring not in scores:
            raise ValueError(
                f"The result {name!r} holds several metrics ({sorted(scores)}); pass one of "
                f"them as the 'scoring' parameter. Got {scoring!r}."
            )
        scores = scores[scoring]
    elif scoring is not None:
        per_metric = [fold.get("test_scores_per_metric") for fold in result.outer_results_]
        if all(isinstance(p, Mapping) and scoring in p for p in per_metric):
            scores = [np.mean(p[scoring]) for p in per_metric]  # the mean over the refits
        else:
            refit = getattr(result, "refit", None)
            if isinstance(refit, str) and refit != scoring:
                raise ValueError(
                    f"The 'scoring' parameter is {scoring!r}, but the outer scores of {name!r} "
                    f"are those of its refit metric {refit!r}."
                )
    folds = result.outer_results_
    return (
        scores,
        [fold["train_indices"] for fold in folds],
        [fold["test_indices"] for fold in folds],
    )


def _metric_of_fitted(result):
    """The printed name of the metric of a fitted NestedCV's outer scores, or None if unknown.

    With several metrics its outer scores are those of ``refit_metric_``.
    """
    metrics = getattr(result, "metrics_", None)
    if not metrics:
        return None
    return metrics[getattr(result, "refit_metric_", "score")].name


def _check_same_metric(results, scoring):
    """Refuse fitted results whose outer scores are of different metrics."""
    if scoring is not None:
        return
    metrics = {
        name: _metric_of_fitted(result)
        for name, result in results.items()
        if not isinstance(result, Mapping)
    }
    if len(set(metrics.values()) - {None}) > 1:
        described = ", ".join(f"{name!r}: {metric}" for name, metric in metrics.items())
        raise ValueError(
            "compare() needs every result scored with the same metric; their outer scores are "
            f"of different metrics ({described}). Pass the 'scoring' parameter to choose one "
            "they all hold."
        )


def _extract(name, result, scoring):
    """Return (scores, train index arrays, test index arrays) of one result."""
    if isinstance(result, Mapping):
        scores, train, test = _scores_from_dict(name, result, scoring)
    elif hasattr(result, "outer_scores_") and hasattr(result, "outer_results_"):
        scores, train, test = _scores_from_fitted(name, result, scoring)
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
    return scores, train, test


def _check_same_splits(name_a, splits_a, name_b, splits_b):
    train_a, test_a = splits_a
    train_b, test_b = splits_b
    if len(test_a) != len(test_b):
        raise SplitsMismatchError(
            f"The results {name_a!r} and {name_b!r} have different numbers of outer folds "
            f"({len(test_a)} and {len(test_b)}); compare() needs the same outer splits."
        )
    for fold, (ta, tb, ra, rb) in enumerate(zip(test_a, test_b, train_a, train_b)):
        if not np.array_equal(ta, tb):
            part = "test"
        elif not np.array_equal(ra, rb):
            part = "training"
        else:
            continue
        raise SplitsMismatchError(
            f"The outer splits of {name_a!r} and {name_b!r} differ: outer fold {fold} has "
            f"different {part} indices. compare() needs models scored on the same outer "
            "splits; run them with the same outer cv (saved splits or the same random_state)."
        )


def _as_table(rows):
    columns = {column: [row[column] for row in rows] for column in _COLUMNS}
    try:
        import pandas as pd
    except ImportError:
        return {
            column: np.asarray(
                values, dtype=object if column in ("model_a", "model_b", "verdict") else float
            )
            for column, values in columns.items()
        }
    return pd.DataFrame(columns, columns=list(_COLUMNS))


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

    For each pair of results (A, B) it tests the per-fold differences A - B,
    then adjusts the p-values of all pairs with Holm's method. It refuses
    results whose outer splits differ: a paired comparison of models scored
    on different test folds is not a comparison of the models.

    Parameters
    ----------
    results : dict of str to NestedCV or dict
        Named results: fitted :class:`~sklearn_fair.NestedCV` objects (their
        ``outer_scores_`` and ``outer_results_``) or the dicts that
        :func:`~sklearn_fair.nested_cross_validate` returns (``"test_score"``
        or ``"test_<name>"`` and ``"indices"``). At least two.
    scoring : str, default=None
        The metric to compare when a result holds several (the key
        ``"test_<scoring>"`` of a dict, a key of ``test_scores_per_metric`` of a
        fitted NestedCV); None compares each result's own scores, and refuses
        fitted results whose scores are of different metrics.
    test : {"corrected", "paired"}, default="corrected"
        "corrected" is Nadeau and Bengio's corrected resampled t-test
        (:func:`corrected_resampled_ttest`, with the mean training and test
        sizes of the outer folds), which allows for the overlap of training
        sets; "paired" is the plain paired t-test (:func:`paired_ttest`),
        which ignores it and is too liberal on cross-validation scores.
    confidence : float, default=0.95
        Level of the intervals; ``1 - confidence`` is the significance level
        of the Holm-adjusted p-values in the verdict.

    Returns
    -------
    pandas.DataFrame or dict of ndarray
        One row per pair: ``model_a``, ``model_b``, their mean scores, the
        ``mean_difference`` (a - b), its interval ``ci_low``, ``ci_high`` (not
        adjusted for multiplicity), the t ``statistic``, the ``pvalue``, the
        Holm-adjusted ``pvalue_holm`` and the ``verdict``: "<name> better"
        when Holm's procedure rejects equality at level ``1 - confidence``
        (``pvalue_holm <= 1 - confidence``, as statsmodels' ``multipletests``
        decides), else "difference not demonstrated". A dict of arrays with
        the same columns when pandas is not installed.

    Raises
    ------
    SplitsMismatchError
        When two results' outer splits differ, naming them and the first fold
        that differs.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_fair.stats import compare
    >>> indices = {"train": [np.arange(5, 20), np.r_[0:5, 10:20], np.arange(10)],
    ...            "test": [np.arange(5), np.arange(5, 10), np.arange(10, 20)]}
    >>> results = {
    ...     "forest": {"test_score": [0.81, 0.85, 0.83], "indices": indices},
    ...     "linear": {"test_score": [0.80, 0.83, 0.84], "indices": indices},
    ... }
    >>> table = compare(results)
    >>> table["verdict"][0]
    'difference not demonstrated'
    """
    if len(results) < 2:
        raise ValueError(
            "The 'results' parameter of compare must be a dict of at least two named results. "
            f"Got a {type(results).__name__} of {len(results)} entries instead."
        )
    confidence = float(confidence)
    _check_same_metric({str(name): result for name, result in results.items()}, scoring)
    extracted = {
        str(name): _extract(str(name), result, scoring) for name, result in results.items()
    }
    names = list(extracted)
    reference = names[0]
    for name in names[1:]:
        _check_same_splits(reference, extracted[reference][1:], name, extracted[name][1:])
    _, train, test_folds = extracted[reference]
    n_train = float(np.mean([fold.shape[0] for fold in train]))
    n_test = float(np.mean([fold.shape[0] for fold in test_folds]))

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
                "mean_a": float(a.mean()),
                "mean_b": float(b.mean()),
                "mean_difference": outcome.mean_difference,
                "ci_low": outcome.ci_low,
                "ci_high": outcome.ci_high,
                "statistic": outcome.statistic,
                "pvalue": outcome.pvalue,
            }
        )
    adjusted = holm([row["pvalue"] for row in rows])
    for row, pvalue_holm in zip(rows, adjusted):
        row["pvalue_holm"] = float(pvalue_holm)
        # Holm rejects at p <= alpha, as statsmodels' multipletests does. A rejection implies
        # that the unadjusted interval excludes 0 (touches it at p = alpha): no second test.
        if not pvalue_holm <= 1.0 - confidence:
            row["verdict"] = NOT_DEMONSTRATED
        else:
            better = row["model_a"] if row["mean_difference"] > 0 else row["model_b"]
            row["verdict"] = f"{better} better"
    return _as_table(rows)
