"""The candidates of the inner model selection, and the configured estimator of each fit.

Every fit starts from a fresh clone of the estimator with the candidate's values (cloned too, as
scikit-learn's searches do), and seeds go only to the ``random_state`` parameters of the object
actually in place: a pipeline step swapped for ``"passthrough"`` or another estimator in the
grid has the parameters of its replacement.
"""

import copy
import inspect
import numbers
import warnings
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from sklearn import get_config
from sklearn.base import clone, is_classifier
from sklearn.model_selection import (
    GridSearchCV,
    ParameterGrid,
    ParameterSampler,
    RandomizedSearchCV,
    check_cv,
)
from sklearn.model_selection._search import BaseSearchCV
from sklearn.utils._param_validation import InvalidParameterError

from ...exceptions import SklearnFairWarning
from ...utils._stacklevel import external_stacklevel
from .._saved_splits import SavedSplits

__all__ = [
    "SearchSpace",
    "configure",
    "holds_estimator",
    "is_search",
    "search_for_folds",
    "search_space",
    "search_with_cv",
    "seedable_models",
    "space_candidates",
    "warn_inner_cv_replaces_search_cv",
]


def is_search(estimator):
    """Whether ``estimator`` is a scikit-learn hyper-parameter search."""
    return isinstance(estimator, BaseSearchCV)


def make_candidates(param_grid, param_distributions, n_iter, random_state, owner):
    """The list of candidate parameter dicts; ``[{}]`` (the estimator as given) without a space."""
    if param_grid is not None and param_distributions is not None:
        raise ValueError(f"Give either 'param_grid' or 'param_distributions' to {owner}, not both.")
    if param_distributions is not None:
        if not isinstance(n_iter, numbers.Integral) or isinstance(n_iter, bool) or n_iter < 1:
            raise ValueError(
                f"The 'n_iter' parameter of {owner} must be an int >= 1. Got {n_iter!r} instead."
            )
        # the only space of no candidate (an empty list of values is refused by the sampler),
        # checked before sampling, which would warn that it runs 0 iterations
        if isinstance(param_distributions, (list, tuple)) and not param_distributions:
            raise ValueError(
                f"The 'param_distributions' parameter of {owner} is empty (got "
                f"{param_distributions!r}); give at least one distribution or list of values, "
                "e.g. {'C': scipy.stats.loguniform(1e-3, 1e3)}."
            )
        try:
            return list(ParameterSampler(param_distributions, n_iter, random_state=random_state))
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"Invalid 'param_distributions' for {owner}: {exc}") from exc
    if param_grid is None:
        return [{}]
    try:
        candidates = list(ParameterGrid(param_grid))
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"Invalid 'param_grid' for {owner}: {exc}") from exc
    if not candidates:
        raise ValueError(
            f"The 'param_grid' parameter of {owner} is empty (got {param_grid!r}); "
            "give at least one candidate, e.g. {'C': [0.1, 1, 10]}."
        )
    return candidates


def check_candidate_names(estimator, candidates, owner):
    """Raise a ValueError naming any parameter of a candidate that cannot be set (on a clone,
    so that a step the candidate puts in place may be configured too; a name that ``set_params``
    takes is accepted even if missing from ``get_params``, as skorch's ``module__*``). An
    estimator or a grid value that cannot be cloned (a lock, a generator) raises as in
    scikit-learn's searches: it is no parameter's name that is wrong."""
    clone(estimator)
    for candidate in candidates:
        values = _cloned_values(candidate)
        try:
            _set_params(clone(estimator), values)
        except (ValueError, TypeError, AttributeError) as exc:
            if not candidate:
                raise
            valid = sorted(estimator.get_params(deep=True))
            bad = sorted(set(candidate) - set(valid)) or sorted(candidate)
            said = str(exc).rstrip(".")
            # scikit-learn's set_params lists them itself, the step's own where the estimator
            # nests others: listed again only where the names the grid takes are more
            shallow = set(valid) == set(estimator.get_params(deep=False))
            if "Valid parameters are" not in said:
                listed = f". Valid parameters are: {valid}"
            elif shallow:
                listed = ""
            else:
                listed = f". The names a grid can set are: {valid}"
            raise ValueError(
                f"Invalid parameter {bad[0]!r} in the search space of {owner} for estimator "
                f"{type(estimator).__name__}: {said}{listed}."
            ) from None


def configure(estimator, params):
    """A fresh clone of ``estimator`` with ``params``, each value cloned too (so an object in a
    grid is never shared, and so never mutated, across fits); steps are set before their own
    parameters, so ``{"reduce": PCA(), "reduce__n_components": 2}`` works in any order."""
    return _set_params(clone(estimator), _cloned_values(params))


def _cloned_values(params):
    return {name: clone(value, safe=False) for name, value in params.items()}


def _set_params(model, values):
    depth = {name: name.count("__") for name in values}
    for level in sorted(set(depth.values())):
        model.set_params(**{name: v for name, v in values.items() if depth[name] == level})
    return model


# -- the search space of a run ---------------------------------------------------------------


def search_with_cv(search, cv):
    """A clone of ``search`` that splits with ``cv`` (the run's inner_cv, checked by
    :func:`~._resampling.resolve_splitters`: an int with groups keeps them apart, as for a
    search taken apart) in place of its own; ``search`` itself where ``cv`` is None."""
    return search if cv is None else clone(search).set_params(cv=cv)


def warn_inner_cv_replaces_search_cv(nested, owner, y=None, groups=None):
    """A SklearnFairWarning where ``nested`` (a NestedCV) got a search whose own cv is set and
    an ``inner_cv`` that differs: inner_cv is used, and the search's cv would be dropped
    without a word (the class's default, ``cv=None`` or a halving search's ``cv=5``, is not
    the user's choice). Where one of the two is an int and the other a splitter, the int is
    compared as the splitter it becomes for ``y`` (``check_cv``; not with ``groups``, which
    an int keeps apart)."""
    search, inner_cv = nested.estimator, nested.inner_cv
    own = getattr(search, "cv", None) if is_search(search) else None
    # the class's own default is not the user's choice either (a halving search's cv=5)
    default = inspect.signature(type(search).__init__).parameters.get("cv")
    unset = own is None or (default is not None and _same_cv(own, default.default))
    if y is not None and groups is None and own is not None and inner_cv is not None:
        ints = [isinstance(cv, numbers.Integral) for cv in (inner_cv, own)]
        if ints == [True, False]:
            inner_cv = check_cv(inner_cv, y, classifier=is_classifier(search))
        elif ints == [False, True]:
            own = check_cv(own, y, classifier=is_classifier(search))
    if nested.inner_cv is None or unset or _same_cv(inner_cv, own):
        return
    warnings.warn(
        f"{owner} got a {type(search).__name__} with its own cv={search.cv!r:.100} and "
        f"inner_cv={nested.inner_cv!r:.100}: the inner model selection splits with inner_cv, and "
        "the search's cv is not used. Pass inner_cv=None to keep the search's cv.",
        SklearnFairWarning,
        stacklevel=external_stacklevel(),
    )


def _same_cv(one, other):
    """Whether two cv values split alike: the same int, or splitters of one class with the
    same parameters (a list of splits only if the same object)."""
    if one is other:
        return True
    if isinstance(one, numbers.Integral) and isinstance(other, numbers.Integral):
        return int(one) == int(other)
    if isinstance(one, SavedSplits):  # its repr does not show its folds
        return False
    return type(one) is type(other) and hasattr(one, "split") and repr(one) == repr(other)


def search_for_folds(search, seeds):
    """The whole search of each fold (its cv already replaced where inner_cv is given: see
    :func:`search_with_cv`): its randomness seeded, and its own refit left out where one
    metric selects (NestedCV refits the winner itself: the search's model would be fitted on
    the fold's training rows and thrown away); with the values given of the estimators its
    space seeds (:meth:`~._seeds.Seeds.seed_search`)."""
    search = clone(search)
    if search.refit is True and (search.scoring is None or isinstance(search.scoring, str)):
        search.set_params(refit=False)  # best_index_ and best_params_ stay
    return seeds.seed_search(search)


@dataclass
class SearchSpace:
    """What to tune and how, after a scikit-learn search given as the estimator is unwrapped."""

    estimator: object
    search: object  # a search that cannot be flattened, run whole in each fold; or None
    param_grid: object
    param_distributions: object
    n_iter: object
    inner_cv: object
    scoring: object  # what scores the outer test folds (and selects, without a search)
    refit: object
    sampler_random_state: object  # a RandomizedSearchCV's own random_state
    space_owner: object = None  # "the GridSearchCV given to NestedCV": whose space it is
    search_scoring: object = None  # (scoring, refit) of a search given: it selects with them
    search_error_score: object = None  # a search given: its error_score scores its inner fits

    @property
    def base_estimator(self):
        return self.search.estimator if self.search is not None else self.estimator


def search_space(nested, owner):
    """What ``nested`` (a NestedCV) tunes: its space, or that of the search it was given, its cv
    used where ``inner_cv`` is unset. A GridSearchCV or RandomizedSearchCV is taken apart; any
    other search (a subclass, successive halving: it decides its next fits from earlier ones) or
    one with a callable ``refit`` (a winner by a rule of its own) runs whole. A search selects
    with its own ``scoring`` and ``refit``, as in ``cross_validate(search, scoring=...)``."""
    space = SearchSpace(
        nested.estimator, None, nested.param_grid, nested.param_distributions, nested.n_iter,
        nested.inner_cv, nested.scoring, nested.refit, None,
    )  # fmt: skip
    own_space = space.param_grid is not None or space.param_distributions is not None
    if own_space and is_search(space.estimator):
        given = "param_grid" if space.param_grid is not None else "param_distributions"
        raise ValueError(
            f"{owner} got a search ({type(space.estimator).__name__}) as "
            f"'estimator' and a '{given}': pass one or the other. Either the search, whose own "
            f"space and cv become the inner selection, or its estimator "
            f"({type(space.estimator.estimator).__name__}) with '{given}'."
        )
    _check_n_iter(nested, owner)
    if own_space or not is_search(space.estimator):
        return space
    search = space.estimator
    if isinstance(search.scoring, (set, frozenset)):
        # as the search's own fit refuses it: a set's order, which decides the metric that
        # selects and the order of the results, changes from one Python process to the next
        raise InvalidParameterError(
            f"The 'scoring' parameter of the {type(search).__name__} given to {owner} must be "
            "a str, a callable, a list, tuple or dict of metrics or None, not a set, whose "
            f"order changes from one Python process to the next: pass a list or a dict. Got "
            f"{search.scoring!r} instead."
        )
    if not get_config()["skip_parameter_validation"]:
        # as the search's own fit refuses its parameters, but its scoring, which the protocol
        # resolves itself (sklearn-fair's names too: "kappa", "sensitivity")
        checked = copy.copy(search)
        if isinstance(search.scoring, (str, list, tuple, dict)):
            checked.scoring = None  # names, which scikit-learn's check does not all know
        try:
            checked._validate_params()
        except InvalidParameterError as exc:
            # scikit-learn's message, the search named as given (a function's validate_params
            # would put its own name in place of a bare class name)
            name = type(search).__name__
            raise InvalidParameterError(
                str(exc).replace(
                    f"parameter of {name} must", f"parameter of the {name} given to {owner} must"
                )
            ) from None
    space.search_scoring = (search.scoring, search.refit)
    space.search_error_score = search.error_score
    if type(search) not in (GridSearchCV, RandomizedSearchCV) or callable(search.refit):
        space.search = search
        return space
    if type(search) is RandomizedSearchCV:
        space.param_distributions, space.n_iter = search.param_distributions, search.n_iter
        # a copy, as the search's clone in each fold of cross_validate: drawing from the
        # user's RandomState would move it, and the next fit would sample other candidates
        space.sampler_random_state = copy.deepcopy(search.random_state)
    else:
        space.param_grid = search.param_grid
    space.space_owner = f"the {type(search).__name__} given to {owner}"
    if space.inner_cv is None:
        # the search's own cv; None there means scikit-learn's default 5-fold
        space.inner_cv = 5 if search.cv is None else search.cv
    space.estimator = search.estimator
    return space


def _check_n_iter(nested, owner):
    """Refuse an ``n_iter`` other than its default where no ``param_distributions`` is given:
    it would change nothing (a grid tries all its points; a search given draws its own)."""
    default = inspect.signature(type(nested).__init__).parameters["n_iter"].default
    if nested.param_distributions is not None or nested.n_iter == default:
        return
    search = nested.estimator
    if is_search(search) and hasattr(search, "n_iter"):
        instead = (
            f"the {type(search).__name__} given as estimator draws its own n_iter="
            f"{search.n_iter!r} candidates (set n_iter on it)"
        )
    elif is_search(search):
        instead = f"the {type(search).__name__} given as estimator decides its own candidates"
    elif nested.param_grid is not None:
        instead = (
            "every point of 'param_grid' is tried (pass the values as 'param_distributions' "
            "to sample n_iter of them)"
        )
    else:
        instead = (
            "the estimator as given is the one candidate (give 'param_distributions' to "
            "sample n_iter candidates)"
        )
    raise ValueError(
        f"The 'n_iter' parameter of {owner} is {nested.n_iter!r}, but it applies only with "
        f"'param_distributions', which is None: {instead}. Leave n_iter at its default "
        f"({default})."
    )


def space_candidates(space, seeds, owner):
    """The candidates of ``space`` (``[]`` for a search run whole), their names checked."""
    if space.search is not None:
        return []
    sampler_seed = seeds.sampler_seed(space.sampler_random_state)
    candidates = make_candidates(
        space.param_grid, space.param_distributions, space.n_iter, sampler_seed,
        space.space_owner or owner,
    )  # fmt: skip
    check_candidate_names(space.estimator, candidates, owner)
    return candidates


def seedable_models(space, candidates):
    """The models whose unset ``random_state`` parameters the refits vary; for a search run
    whole, the user's estimator (not the search's copy that the protocol seeded) with each point
    of the search's space that the refits may get (a distribution's draws are left out)."""
    if space.search is None:
        return [configure(space.estimator, c) for c in candidates]
    own = space.search.get_params(deep=False)
    grid = own.get("param_grid")
    if grid is None:
        grid = own.get("param_distributions")
    if grid is None:
        return [space.base_estimator]
    models = [space.base_estimator]
    for point in _points(grid):
        try:
            models.append(configure(space.base_estimator, point))
        except (ValueError, TypeError, AttributeError):
            pass  # a name the search itself refuses when it fits
    return models


def _points(grid):
    """The points of a search's ``param_grid``, or of the lists of its
    ``param_distributions``, over the parameters that put an estimator in place (only those
    bring ``random_state`` parameters of their own: a space of 10**5 numbers is one point)."""
    spaces = grid if isinstance(grid, (list, tuple)) else [grid]
    listed = [
        {
            name: values
            for name, values in space.items()
            if not hasattr(values, "rvs")
            and isinstance(values, (list, tuple, np.ndarray))
            and any(holds_estimator(value) for value in values)
        }
        for space in spaces
        if isinstance(space, Mapping)
    ]
    try:
        return list(ParameterGrid(listed))
    except (TypeError, ValueError):
        return []


def holds_estimator(value):
    """Whether ``value`` is an estimator or holds one (a VotingClassifier's ``estimators``, a
    Pipeline's ``steps``: lists of ``(name, estimator)``)."""
    if hasattr(value, "get_params"):
        return True
    if isinstance(value, dict):
        return any(holds_estimator(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(holds_estimator(v) for v in value)
    return False
