"""The candidates of the inner model selection, and the checks of the search space."""

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import (
    GridSearchCV,
    ParameterGrid,
    ParameterSampler,
    RandomizedSearchCV,
)
from sklearn.model_selection._search import BaseSearchCV

__all__ = ["check_candidate_names", "make_candidates", "unwrap_search"]


def unwrap_search(estimator):
    """Split a scikit-learn search into (estimator, param_grid, param_distributions, n_iter, cv,
    scoring, refit), or return None when it cannot be flattened into independent fits.

    Only GridSearchCV and RandomizedSearchCV themselves are flattened: a subclass or another
    search (successive halving, for instance) decides its next fits from earlier ones, so it
    runs as a whole inside each outer training fold instead.
    """
    if type(estimator) is GridSearchCV:
        return dict(
            estimator=estimator.estimator,
            param_grid=estimator.param_grid,
            param_distributions=None,
            n_iter=None,
            cv=estimator.cv,
            scoring=estimator.scoring,
            refit=estimator.refit,
            random_state=None,
        )
    if type(estimator) is RandomizedSearchCV:
        return dict(
            estimator=estimator.estimator,
            param_grid=None,
            param_distributions=estimator.param_distributions,
            n_iter=estimator.n_iter,
            cv=estimator.cv,
            scoring=estimator.scoring,
            refit=estimator.refit,
            random_state=estimator.random_state,
        )
    return None


def is_search(estimator):
    return isinstance(estimator, BaseSearchCV)


def make_candidates(param_grid, param_distributions, n_iter, random_state):
    """List the candidate parameter dicts of a grid or of sampled distributions.

    With neither a grid nor distributions there is one candidate, ``{}``: the estimator as given.
    """
    if param_grid is not None and param_distributions is not None:
        raise ValueError("Give either 'param_grid' or 'param_distributions' to NestedCV, not both.")
    if param_distributions is not None:
        if not isinstance(n_iter, (int, np.integer)) or isinstance(n_iter, bool) or n_iter < 1:
            raise ValueError(
                f"The 'n_iter' parameter of NestedCV must be an int >= 1. Got {n_iter!r} instead."
            )
        try:
            sampler = ParameterSampler(param_distributions, n_iter, random_state=random_state)
            return list(sampler)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"Invalid 'param_distributions' for NestedCV: {exc}") from exc
    if param_grid is None:
        return [{}]
    try:
        candidates = list(ParameterGrid(param_grid))
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"Invalid 'param_grid' for NestedCV: {exc}") from exc
    if not candidates:
        raise ValueError(
            f"The 'param_grid' parameter of NestedCV is empty (got {param_grid!r}); "
            "give at least one candidate, e.g. {'C': [0.1, 1, 10]}."
        )
    return candidates


def check_candidate_names(estimator, candidates):
    """Raise a ValueError naming any parameter that ``estimator`` does not have.

    A name missing from ``get_params`` is still accepted when ``set_params`` takes it: skorch
    estimators list a ``module__*`` parameter only once it has been set.
    """
    valid = set(estimator.get_params(deep=True))
    for candidate in candidates:
        for name in sorted(set(candidate) - valid):
            try:
                clone(estimator).set_params(**{name: candidate[name]})
            except (ValueError, TypeError, AttributeError):
                raise ValueError(
                    f"Invalid parameter {name!r} in the search space of NestedCV for estimator "
                    f"{type(estimator).__name__}. Valid parameters are: {sorted(valid)}."
                ) from None
            valid.add(name)
