"""Steps of an estimator that were already fitted when it was handed in."""

import numbers
from dataclasses import dataclass
from functools import partial
from types import FunctionType, MethodType

from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.frozen import FrozenEstimator
from sklearn.utils import get_tags
from sklearn.utils.validation import check_is_fitted


@dataclass(frozen=True)
class PrefitStep:
    """One fitted step found in an estimator.

    Attributes
    ----------
    name : str
        Its path in the estimator, e.g. ``"selectkbest"`` or ``"columntransformer/scale"``.
    estimator : str
        Its class name.
    frozen : bool
        Whether it survives cloning (:class:`~sklearn.frozen.FrozenEstimator`): then every
        resample uses it as fitted, with what it learnt from the test folds. An unfrozen fitted
        step is refitted after ``clone``, but leaks wherever the fitted object is used as is.
    """

    name: str
    estimator: str
    frozen: bool


#: The parameters that list named sub-estimators.
_NAMED_LISTS = ("steps", "transformer_list", "transformers", "estimators")


def _is_estimator(value):
    return hasattr(value, "fit") and not isinstance(value, (str, type))


def _params(estimator):
    try:
        return estimator.get_params(deep=False)
    except (AttributeError, TypeError):  # a step that is not a scikit-learn estimator
        return {}


def _children(estimator):
    """Named sub-estimators of the containers scikit-learn and imbalanced-learn ship: the
    named lists (a pipeline's steps, an ensemble's estimators) and the single ones (a
    search's estimator, a stacking ensemble's final_estimator, a target transformer's
    regressor and transformer, and any other parameter that is an estimator: a
    ColumnTransformer's remainder, a chain's base_estimator, ...)."""
    children = []
    for attribute in _NAMED_LISTS:
        items = getattr(estimator, attribute, None)
        if isinstance(items, list) and all(isinstance(i, tuple) for i in items):
            children += [(item[0], item[1]) for item in items]
            break
    for attribute in ("estimator", "final_estimator", "regressor", "transformer"):
        inner = getattr(estimator, attribute, None)
        if inner is not None and hasattr(inner, "fit"):
            children.append((attribute, inner))
    for name, value in _params(estimator).items():
        if _is_estimator(value) and all(value is not child for _, child in children):
            children.append((name, value))
    return children


def _held(value, seen):
    """The estimators that ``value`` holds without being one: through a bound method, a
    ``functools.partial``, a function's closure, defaults and the estimators among the
    globals it names, and containers."""
    if id(value) in seen:
        return []
    seen.add(id(value))
    if _is_estimator(value):
        return [value]
    if isinstance(value, dict):
        parts = list(value.values())
    elif isinstance(value, (list, tuple, set, frozenset)):
        parts = list(value)
    elif isinstance(value, MethodType):
        parts = [value.__self__]
    elif isinstance(value, partial):
        parts = [value.func, *value.args, *value.keywords.values()]
    elif isinstance(value, FunctionType):
        defaults = [*(value.__defaults__ or ()), *(value.__kwdefaults__ or {}).values()]
        # the estimators among the globals it names (a model fitted at the top of a script)
        read = [value.__globals__[n] for n in value.__code__.co_names if n in value.__globals__]
        parts = [*_closure(value), *defaults, *filter(_is_estimator, read)]
    else:
        return []
    return [held for part in parts for held in _held(part, seen)]


def _closure(function):
    contents = []
    for cell in function.__closure__ or ():
        try:
            contents.append(cell.cell_contents)
        except ValueError:  # a closure variable not yet assigned
            pass
    return contents


_PLAIN = (str, bytes, numbers.Number, type(None))


def _fitted_in_params(estimator, prefix):
    """Fitted estimators that a parameter which is not an estimator holds (a fitted scaler's
    ``transform`` given to FunctionTransformer) and that stay fitted through ``clone``, which
    deep-copies such a parameter: every resample uses them as fitted. ``clone`` clones an
    estimator held directly in a dict or list parameter; that one is refitted, not listed."""
    found = []
    for name, value in _params(estimator).items():
        if name in _NAMED_LISTS or _is_estimator(value) or isinstance(value, _PLAIN):
            continue
        try:
            copied = clone(value, safe=False)  # what every resample gets
        except (TypeError, RuntimeError):  # cloning fails: no resample runs with it
            continue
        for held in _held(copied, set()):
            if isinstance(held, FrozenEstimator):
                found.append(PrefitStep(f"{prefix}/{name}", type(held.estimator).__name__, True))
            elif _is_fitted(held):
                found.append(PrefitStep(f"{prefix}/{name}", type(held).__name__, True))
    return found


def _is_fitted(estimator):
    if not hasattr(estimator, "fit") or isinstance(estimator, str):
        return False
    try:
        if not get_tags(estimator).requires_fit:
            return False
    except (AttributeError, TypeError, ValueError):
        pass
    try:
        check_is_fitted(estimator)
    except (NotFittedError, TypeError, AttributeError):
        return False
    return True


def find_prefit_steps(estimator, _prefix=""):
    """List the steps of ``estimator`` (and itself) that are already fitted.

    Pipelines (scikit-learn's and imbalanced-learn's), FeatureUnion, ColumnTransformer, stacking
    and voting ensembles and meta-estimators with an ``estimator`` (or any other parameter that
    is an estimator, as ColumnTransformer's ``remainder``) are searched recursively; one
    that is fitted with no fitted part in it (it fitted clones of its parts, as
    ColumnTransformer, SelectFromModel and GridSearchCV do) is listed itself. Stateless steps
    (``requires_fit=False``) and ``"passthrough"`` are skipped. A fitted estimator held by a
    parameter that is not an estimator (``FunctionTransformer(scaler.transform)``: a bound
    method, a ``functools.partial``, a function's closure, defaults or globals) is listed as frozen
    when it stays fitted through :func:`~sklearn.base.clone`, as every resample then uses it.

    Parameters
    ----------
    estimator : estimator object
        The estimator or pipeline as the user would hand it to cross-validation.

    Returns
    -------
    steps : list of PrefitStep

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.feature_selection import SelectKBest
    >>> from sklearn.frozen import FrozenEstimator
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn_fair.leakage import find_prefit_steps
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(20, 5)), np.tile([0, 1], 10)
    >>> selector = SelectKBest(k=2).fit(X, y)
    >>> find_prefit_steps(make_pipeline(FrozenEstimator(selector), LogisticRegression()))
    [PrefitStep(name='frozenestimator', estimator='SelectKBest', frozen=True)]
    """
    name = _prefix or type(estimator).__name__
    if isinstance(estimator, FrozenEstimator):
        return [PrefitStep(name, type(estimator.estimator).__name__, True)]
    found = []
    for child_name, child in _children(estimator):
        if child is not None and not isinstance(child, str):
            found += find_prefit_steps(child, f"{_prefix}/{child_name}" if _prefix else child_name)
    found += _fitted_in_params(estimator, name)
    # a container fitted as a whole fits clones of its parts (SelectFromModel's estimator_,
    # ColumnTransformer's transformers_): its parts look unfitted, itself is listed
    if not found and _is_fitted(estimator):
        return [PrefitStep(name, type(estimator).__name__, False)]
    return found
