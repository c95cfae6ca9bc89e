"""Scoring one fitted model, as scikit-learn's ``cross_validate`` does.

Each scorer is called on its own, so one that fails gives ``error_score`` for its metric only
(and its traceback, for scikit-learn's "Scoring failed" warning) while the others keep their
values; ``error_score="raise"`` re-raises. A callable that returns a dict gives one metric per
key, as in ``cross_validate``.
"""

import numbers
import traceback

__all__ = ["score_model"]


def _number(value, scorer):
    if isinstance(value, numbers.Number) or hasattr(value, "__float__"):
        try:
            return float(value)
        except (TypeError, ValueError):
            pass
    raise ValueError(
        f"scoring must return a number, got {value!s} ({type(value)}) instead. (scorer={scorer})"
    )


def score_model(scorers, model, X, y, score_params, error_score):
    """``(scores, errors)``: metric name -> float, and metric name -> traceback of a failure."""
    scores, errors = {}, {}
    raise_errors = isinstance(error_score, str) and error_score == "raise"
    for name, scorer in scorers.items():
        try:
            value = scorer(model, X, y, **score_params.get(name, {}))
        except Exception:
            if raise_errors:
                raise
            errors[name] = traceback.format_exc()
            scores[name] = float(error_score)
            continue
        # a scorer that returns something else than a number is a bug, raised as in sklearn
        values = value if isinstance(value, dict) else {name: value}
        scores.update({key: _number(v, key) for key, v in values.items()})
    return scores, errors
