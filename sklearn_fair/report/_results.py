"""One shape for every result a report accepts: fitted NestedCV objects or their saved dicts."""

import numbers
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

RESULT_FORMAT = "sklearn-fair-result"
RESULT_VERSION = 1


@dataclass(frozen=True)
class _Result:
    """The per-fold numbers of one nested cross-validation, whatever it came from."""

    name: str
    test_scores: np.ndarray
    validation_scores: np.ndarray
    best_params: list
    train_indices: list
    test_indices: list
    refit_seeds: list
    random_state: object
    fit_time: np.ndarray


def _jsonable(value):
    """A JSON-safe copy of ``value``: numpy numbers become Python ones, objects their repr."""
    if isinstance(value, Mapping):
        return {str(key): _jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [_jsonable(item) for item in value]
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        value = float(value)
        return value if np.isfinite(value) else None
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, type):
        return f"{value.__module__}.{value.__qualname__}"
    return repr(value)


def result_to_dict(nested):
    """Return a fitted NestedCV's per-fold results as a JSON-safe dict.

    The dict holds what a report needs and nothing that would need pickle:
    each outer fold's selected hyper-parameters (objects such as estimators
    become their ``repr``), validation score, test scores of the refits,
    refit seeds, train and test indices and fit time. Reports and plots accept
    it in place of the fitted object, so results saved as JSON can be reported
    again later.

    Parameters
    ----------
    nested : NestedCV
        A fitted :class:`~sklearn_fair.NestedCV`.

    Returns
    -------
    result : dict
        ``format``, ``version``, ``random_state``, ``refit_seeds``, ``score_mean``,
        ``score_std``, ``optimism`` and ``outer_results`` (a list of per-fold dicts).

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
        "refit_seeds",
        "train_indices",
        "test_indices",
        "fit_time",
        "score_time",
    )
    folds = [{key: _jsonable(fold.get(key)) for key in keys} for fold in nested.outer_results_]
    random_state = nested.get_params().get("random_state")
    return {
        "format": RESULT_FORMAT,
        "version": RESULT_VERSION,
        "random_state": random_state if isinstance(random_state, numbers.Integral) else None,
        "refit_seeds": _jsonable(nested.refit_seeds_),
        "score_mean": float(nested.score_mean_),
        "score_std": float(nested.score_std_),
        "optimism": float(nested.optimism_),
        "outer_results": folds,
    }


def as_result(name, result):
    """Return ``result`` (a fitted NestedCV or a :func:`result_to_dict` dict) as a _Result."""
    if hasattr(result, "outer_results_"):
        folds = result.outer_results_
        random_state = result.get_params().get("random_state")
        refit_seeds = list(result.refit_seeds_)
    elif isinstance(result, Mapping) and isinstance(result.get("outer_results"), list):
        folds = result["outer_results"]
        random_state = result.get("random_state")
        refit_seeds = list(result.get("refit_seeds") or [])
    else:
        raise TypeError(
            f"The result {name!r} must be a fitted NestedCV or the dict of result_to_dict "
            f"(with an 'outer_results' list). Got {type(result).__name__} instead."
        )
    if len(folds) < 2:
        raise ValueError(
            f"The result {name!r} has {len(folds)} outer fold(s); a report needs at least 2 "
            "to estimate a spread."
        )
    return _Result(
        name=str(name),
        test_scores=np.array([f["test_score"] for f in folds], dtype=float),
        validation_scores=np.array([f["validation_score"] for f in folds], dtype=float),
        best_params=[dict(f.get("best_params") or {}) for f in folds],
        train_indices=[np.asarray(f["train_indices"], dtype=np.int64) for f in folds],
        test_indices=[np.asarray(f["test_indices"], dtype=np.int64) for f in folds],
        refit_seeds=refit_seeds,
        random_state=random_state,
        fit_time=np.array([f.get("fit_time") or np.nan for f in folds], dtype=float),
    )


def as_results(results):
    """Normalise one result or a dict of named results to a list of _Result."""
    if isinstance(results, Mapping) and not isinstance(results.get("outer_results"), list):
        if not results:
            raise ValueError("The 'results' parameter is an empty dict; give at least one result.")
        return [as_result(name, result) for name, result in results.items()]
    return [as_result("model", results)]
