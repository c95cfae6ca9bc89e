"""What each model of an experiment will fit: its splits, candidates and number of fits.

The count follows NestedCV's protocol: in every outer fold, each candidate is fitted on
each inner split (selection fits); the selected one is then refitted ``n_refits`` times on
the outer training fold (once if the estimator has no ``random_state`` anywhere, since
the refits would be identical; and when the first fold's two refits with different seeds
give identical results, the other folds are refitted once: NestedCV learns that only while it
runs, so the count of refits is then a range); with ``refit``, a final selection on all the
data and one final fit follow. It is computed here from the splits and the grid, not by
NestedCV, so a test can hold the two against each other.
"""

from dataclasses import dataclass

import numpy as np
from sklearn.base import clone, is_classifier
from sklearn.model_selection import (
    GridSearchCV,
    ParameterGrid,
    ParameterSampler,
    RandomizedSearchCV,
    check_cv,
)
from sklearn.utils import _safe_indexing

from ..model_selection import HoldoutSplit, NestedCV

__all__ = ["ModelPlan", "plan_model"]


@dataclass
class ModelPlan:
    """The fits of one model; sizes are ``None`` where the data are not available.

    Attributes
    ----------
    name : str
        The model.
    candidates : list of dict
        The hyper-parameter candidates.
    outer : list of (int or None, int or None)
        Per outer fold, the sizes of its training and test parts.
    inner : list of list of (int or None, int or None)
        Per outer fold, the sizes of its inner splits' training and validation parts.
    final_inner : list of (int, int) or None
        With ``refit``: the inner splits of the final selection on all the data.
    n_refits : int
        Refits per outer fold.
    """

    name: str
    candidates: list
    outer: list
    inner: list
    final_inner: object
    n_refits: int

    @property
    def n_candidates(self):
        return len(self.candidates)

    @property
    def selection_fits(self):
        return self.n_candidates * sum(len(splits) for splits in self.inner)

    @property
    def refits(self):
        return len(self.outer) * self.n_refits

    @property
    def min_refits(self):
        """Refits when a seed turns out to change nothing: two on the first fold, then one."""
        if self.n_refits < 2:
            return self.refits
        return len(self.outer) + 1

    @property
    def final_fits(self):
        if self.final_inner is None:
            return 0
        return self.n_candidates * len(self.final_inner) + 1

    @property
    def total_fits(self):
        """The most fits the model can need."""
        return self.selection_fits + self.refits + self.final_fits

    @property
    def min_total_fits(self):
        """The fits when a seed changes nothing (see the module docstring)."""
        return self.selection_fits + self.min_refits + self.final_fits


def _search_parts(estimator, grid, inner_cv):
    """Candidates, inner splitter and base estimator; a search given as the model is unwrapped
    as NestedCV does (its space and ``cv`` become the inner selection)."""
    if grid is None and isinstance(estimator, (GridSearchCV, RandomizedSearchCV)):
        if isinstance(estimator, GridSearchCV):
            candidates = list(ParameterGrid(estimator.param_grid))
        else:
            candidates = list(
                ParameterSampler(estimator.param_distributions, estimator.n_iter, random_state=0)
            )
        cv = estimator.cv if inner_cv is None else inner_cv
        return candidates, 5 if cv is None else cv, estimator.estimator
    return (list(ParameterGrid(grid)) if grid else [{}]), inner_cv, estimator


def _seeded(estimator):
    return any(name.split("__")[-1] == "random_state" for name in estimator.get_params(deep=True))


def _inner_sizes(inner_cv, classifier, X, y, groups, train):
    if inner_cv is None:
        # NestedCV's default: one hold-out of 10%, stratified for classifiers
        cv = HoldoutSplit(test_size=0.1, stratify=classifier, random_state=0)
    else:
        cv = check_cv(inner_cv, None if y is None else y[train], classifier=classifier)
    if X is None:
        return [(None, None)] * cv.get_n_splits()
    X_train = _safe_indexing(X, train)
    y_train = None if y is None else y[train]
    g_train = None if groups is None else np.asarray(groups)[train]
    return [(len(tr), len(te)) for tr, te in cv.split(X_train, y_train, g_train)]


def plan_model(config, spec, data):
    """The :class:`ModelPlan` of ``spec``; ``data`` is None when the data cannot be read."""
    protocol = config.protocol
    defaults = NestedCV(None).get_params(deep=False)
    candidates, inner_cv, estimator = _search_parts(
        spec.estimator, spec.grid, protocol.get("inner_cv", defaults["inner_cv"])
    )
    classifier = is_classifier(estimator)
    X, y, groups = (None, None, None) if data is None else (data.X, data.y, data.groups)
    y = None if y is None else np.asarray(y)
    outer_cv = check_cv(protocol.get("outer_cv", defaults["outer_cv"]), y, classifier=classifier)
    stored = hasattr(outer_cv, "get_inner_splits")
    if X is None:
        if stored:
            folds = list(outer_cv.split())
            outer = [(len(train), len(test)) for train, test in folds]
        else:
            folds = [None] * outer_cv.get_n_splits()
            outer = [(None, None)] * len(folds)
    else:
        folds = list(outer_cv.split(X, y, groups))
        outer = [(len(train), len(test)) for train, test in folds]
    inner = []
    for fold, split in enumerate(folds):
        saved = outer_cv.get_inner_splits(fold) if stored else None
        if saved is not None:
            inner.append([(len(train), len(test)) for train, test in saved])
        else:
            inner.append(
                _inner_sizes(
                    inner_cv, classifier, X, y, groups, None if split is None else split[0]
                )
            )
    final_inner = None
    if protocol.get("refit", False):
        everything = None if X is None else np.arange(len(y))
        final_inner = _inner_sizes(inner_cv, classifier, X, y, groups, everything)
    n_refits = protocol.get("n_refits", defaults["n_refits"]) if _seeded(estimator) else 1
    return ModelPlan(spec.name, candidates, outer, inner, final_inner, n_refits)


def candidate_estimator(spec, candidate):
    """A fresh copy of the model with ``candidate`` set (checked before any fit)."""
    return clone(spec.estimator).set_params(**candidate)
