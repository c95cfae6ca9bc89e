"""Steps of an estimator that were already fitted when it was handed in."""

import itertools
import numbers
from dataclasses import dataclass

import numpy as np
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.frozen import FrozenEstimator
from sklearn.utils import get_tags
from sklearn.utils.validation import check_is_fitted

from ..exceptions import UnhashableError
from ..utils._provenance import Describer


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
_PLAIN = (str, bytes, numbers.Number, type(None))


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
        # scikit-learn takes a tuple of steps, and each step as a list ([name, estimator])
        if isinstance(items, (list, tuple)) and all(
            isinstance(i, (list, tuple)) and len(i) >= 2 and isinstance(i[0], str) for i in items
        ):
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


#: How many cells of an object array are walked for fitted estimators: a model held past
#: them is missed, but a large array of strings (a column of text) costs no more than this.
_MAX_OBJECT_CELLS = 10_000
_OBJECT = np.dtype(object)


def _object_cells(value):
    """The cells of an object-dtype numpy array or pandas Series, or of a DataFrame's object
    columns, which ``clone`` deep-copies with what they hold; None for any other value."""
    if isinstance(value, np.ndarray):
        return value.flat if value.dtype == _OBJECT else None
    dtypes = getattr(value, "dtypes", None)
    if not hasattr(value, "iloc") or dtypes is None:  # not pandas
        return None
    if getattr(value, "ndim", None) == 1:
        return value.to_numpy() if dtypes == _OBJECT else None
    return itertools.chain.from_iterable(
        value.iloc[:, i].to_numpy() for i, dtype in enumerate(dtypes) if dtype == _OBJECT
    )


class _HeldFinder(Describer):
    """The walk of :class:`~sklearn_fair.utils._provenance.Describer` (the cache keys' rule of
    what a value holds and uses as it is: a bound method's object, a ``functools.partial``'s
    arguments, a function's closure, defaults and the globals it reads, the helper functions
    among them and the code nested in it, a callable object's state, containers), stopping at
    each estimator that is fitted and collecting it instead of describing it."""

    def __init__(self):
        super().__init__()
        self.found = []
        self._visited = {}  # id -> value (kept alive, so its id is not reused): walked once

    def describe(self, value, _seen=frozenset(), _depth=0):
        if value is None or isinstance(value, (str, bytes, numbers.Number)):
            return None
        if id(value) in self._visited:
            return None
        self._visited[id(value)] = value
        if isinstance(value, FrozenEstimator):
            self.found.append(type(value.estimator).__name__)
            return None
        if _is_estimator(value) and _is_fitted(value):
            self.found.append(type(value).__name__)
            return None
        cells = _object_cells(value)
        if cells is not None:  # the walk would read it as data, blind to the objects in it
            for cell in itertools.islice(cells, _MAX_OBJECT_CELLS):
                self.describe(cell, _seen, _depth + 1)
            return None
        try:
            return super().describe(value, _seen, _depth)
        except UnhashableError:  # what cannot be described: the rest is still walked
            return None


def _fitted_in_value(value, path):
    """The fitted estimators that ``value``, a parameter that is not an estimator or a
    candidate value of a search, holds and that stay fitted through ``clone``, which
    deep-copies such a value: every resample uses them as fitted. ``clone`` clones an
    estimator held directly in a dict or list; that one is refitted, not listed."""
    if _is_estimator(value) or isinstance(value, _PLAIN):
        return []
    try:
        copied = clone(value, safe=False)  # what every resample gets
    except (TypeError, RuntimeError):  # cloning fails: no resample runs with it
        return []
    finder = _HeldFinder()
    finder.describe(copied)
    return [PrefitStep(path, name, True) for name in finder.found]


def _fitted_in_params(estimator, prefix):
    """Fitted estimators that a parameter which is not an estimator holds (a fitted scaler's
    ``transform`` given to FunctionTransformer), by :func:`_fitted_in_value`."""
    found = []
    for name, value in _params(estimator).items():
        if name not in _NAMED_LISTS:
            found += _fitted_in_value(value, f"{prefix}/{name}")
    return found


def fitted_in_candidates(param_grid, name="param_grid"):
    """The fitted estimators that the candidate values of a search's ``param_grid`` (a dict
    or a list of dicts) keep through ``clone``, as :func:`find_prefit_steps` finds them in a
    search's own ``param_grid``: every candidate's resample uses them as fitted. A step is
    named ``"param_grid/<parameter>"``."""
    grids = [param_grid] if isinstance(param_grid, dict) else list(param_grid or [])
    found = []
    for grid in grids:
        for parameter, values in grid.items():
            for step in _fitted_in_value(values, f"{name}/{parameter}"):
                if step not in found:
                    found.append(step)
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
    method, a ``functools.partial``, a callable object's state, a function's closure, defaults
    and the globals it reads, through the helper functions it calls, the containers among them
    and the code nested in it, by the rule NestedCV's cache keys follow; every fitted model in
    a dict, object array or object it reads) is listed as frozen
    when it stays fitted through :func:`~sklearn.base.clone`, as every resample then uses it;
    so are those held by the candidates of a search's ``param_grid`` (or
    ``param_distributions``).

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
