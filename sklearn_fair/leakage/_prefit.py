"""Steps of an estimator that were already fitted when it was handed in."""

from dataclasses import dataclass

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


def _children(estimator):
    """Named sub-estimators of the containers scikit-learn and imbalanced-learn ship: the
    named lists (a pipeline's steps, an ensemble's estimators) and the single ones (a
    search's estimator, a stacking ensemble's final_estimator, a target transformer's
    regressor and transformer)."""
    children = []
    for attribute in ("steps", "transformer_list", "transformers", "estimators"):
        items = getattr(estimator, attribute, None)
        if isinstance(items, list) and all(isinstance(i, tuple) for i in items):
            children += [(item[0], item[1]) for item in items]
            break
    for attribute in ("estimator", "final_estimator", "regressor", "transformer"):
        inner = getattr(estimator, attribute, None)
        if inner is not None and hasattr(inner, "fit"):
            children.append((attribute, inner))
    return children


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
    and voting ensembles and meta-estimators with an ``estimator`` are searched recursively; one
    that is fitted with no fitted part in it (it fitted clones of its parts, as
    ColumnTransformer, SelectFromModel and GridSearchCV do) is listed itself. Stateless steps
    (``requires_fit=False``) and ``"passthrough"`` are skipped.

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
    # a container fitted as a whole fits clones of its parts (SelectFromModel's estimator_,
    # ColumnTransformer's transformers_): its parts look unfitted, itself is listed
    if not found and _is_fitted(estimator):
        return [PrefitStep(name, type(estimator).__name__, False)]
    return found
