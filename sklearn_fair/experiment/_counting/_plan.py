"""What each model of an experiment will fit: its splits, candidates and number of fits.

The counts come from NestedCV's own planner (:func:`make_plan`, the plan a run executes):
the same unwrapping of a search given as the estimator (only an exact GridSearchCV or
RandomizedSearchCV is flattened; a subclass or a halving search runs whole in each fold),
the same candidates (drawn with the run's seed), the same splits and the same refit seeds.
In every outer fold each candidate is fitted on each inner split (selection fits); the
selected one is then refitted ``n_refits`` times on the outer training fold (once if no
parameter takes a seed; and when the first fold's two refits with different seeds give
identical results, the other folds are refitted once: NestedCV learns that only while it
runs, so the count of refits is then a range); with ``refit``, a final selection on all the
data and one final fit follow. A search that runs whole makes its own fits in each fold
(its candidates times its splits, successive halving's rounds, and its own refit), counted
here from its parameters as scikit-learn runs them.

Only when the data cannot be read (graph data not loaded for a count) are the counts made
from the file alone: candidates and folds, without sizes.
"""

import math
import time
from dataclasses import dataclass

import numpy as np
from sklearn.base import clone, is_classifier
from sklearn.model_selection import ParameterGrid, check_cv

from ...model_selection import NestedCV
from ...model_selection._engine import make_plan

__all__ = ["ModelPlan", "nested_of", "plan_model"]


@dataclass
class ModelPlan:
    """The fits of one model; sizes are ``None`` where the data are not available.

    Attributes
    ----------
    name : str
        The model.
    candidates : list of dict
        The hyper-parameter candidates (of the search, for a search that runs whole).
    outer : list of (int or None, int or None)
        Per outer fold, the sizes of its training and test parts.
    inner : list of list of (int or None, int or None)
        Per outer fold, the sizes of its inner splits' training and validation parts.
    final_inner : list of (int, int) or None
        With ``refit``: the inner splits of the final selection on all the data.
    n_refits : int
        Refits per outer fold.
    probe : bool
        Whether the first fold's two refits decide if a seed changes anything.
    search_fits : list of int or None
        For a search that runs whole: its fits in each outer fold (then, with ``refit``,
        on all the data), its own refit included.
    estimator : estimator or None
        What the candidates are set on: the search's estimator for a search given as the
        model (None: the model itself).
    scorers : dict or None
        The run's scorers (metric key -> scorer), None without the data.
    planning_seconds : float
        Seconds the planner took (the run plans once more): 0 without the data.
    """

    name: str
    candidates: list
    outer: list
    inner: list
    final_inner: object
    n_refits: int
    probe: bool = False
    search_fits: object = None
    estimator: object = None
    scorers: object = None
    planning_seconds: float = 0.0

    @property
    def n_candidates(self):
        return len(self.candidates)

    @property
    def selection_fits(self):
        if self.search_fits is not None:
            return sum(self.search_fits[: len(self.outer)])
        return self.n_candidates * sum(len(splits) for splits in self.inner)

    @property
    def refits(self):
        return len(self.outer) * self.n_refits

    @property
    def min_refits(self):
        """Refits when a seed turns out to change nothing: two on the first fold, then one."""
        if not self.probe:
            return self.refits
        return len(self.outer) + 1

    @property
    def final_fits(self):
        if self.final_inner is None:
            return 0
        if self.search_fits is not None:
            return self.search_fits[len(self.outer)] + 1
        return self.n_candidates * len(self.final_inner) + 1

    @property
    def total_fits(self):
        """The most fits the model can need."""
        return self.selection_fits + self.refits + self.final_fits

    @property
    def min_total_fits(self):
        """The fits when a seed changes nothing (see the module docstring)."""
        return self.selection_fits + self.min_refits + self.final_fits


def nested_of(config, spec, n_jobs=1, cache_dir=None):
    """The model's NestedCV, as the file describes it (the run's and the dry run's)."""
    kwargs = dict(config.protocol)
    if cache_dir is not None:
        kwargs["cache_dir"] = cache_dir
    return NestedCV(
        spec.estimator,
        spec.grid,
        n_jobs=n_jobs,
        random_state=config.random_state,
        verbose=int(config.progress),
        **kwargs,
    )


def _sizes(splits):
    return [(len(train), len(test)) for train, test in splits]


def _halving_fits(search, n_samples, n_splits, y):
    """The fits of a successive-halving search, as scikit-learn's ``_run_search`` makes them."""
    factor = search.factor
    if search.max_resources == "auto":
        max_resources = n_samples
    else:
        max_resources = search.max_resources
    if search.min_resources in ("smallest", "exhaust"):
        if search.resource == "n_samples":
            min_resources = n_splits * 2
            if is_classifier(search.estimator) and y is not None:
                min_resources *= np.unique(y).shape[0]
        else:
            min_resources = 1
    else:
        min_resources = search.min_resources
    if hasattr(search, "param_grid"):
        n_candidates = len(ParameterGrid(search.param_grid))
    elif search.n_candidates == "exhaust":
        n_candidates = max_resources // min_resources
    else:
        n_candidates = search.n_candidates
    required = 1 + math.floor(math.log(n_candidates, factor))
    if search.min_resources == "exhaust":
        min_resources = max(min_resources, max_resources // factor ** (required - 1))
    possible = 1 + math.floor(math.log(max_resources // min_resources, factor))
    n_iterations = required if search.aggressive_elimination else min(possible, required)
    fits = 0
    for _ in range(n_iterations):
        fits += n_candidates * n_splits
        n_candidates = math.ceil(n_candidates / factor)
    return fits


def _search_cv(search, y, groups, train):
    y_train = None if y is None else y[train]
    g_train = None if groups is None else np.asarray(groups)[train]
    cv = check_cv(search.cv, y_train, classifier=is_classifier(search.estimator))
    return cv, np.empty((len(train), 0)), y_train, g_train


def _search_splits(search, y, groups, train):
    """Sizes of the splits a search run whole makes on the rows ``train``."""
    cv, X, y_train, g_train = _search_cv(search, y, groups, train)
    return _sizes(cv.split(X, y_train, g_train))


def _search_fits(search, y, groups, train):
    """Fits of a search run whole on the rows ``train``: its candidates times its splits
    (or successive halving's rounds), and its own refit; None for a search we cannot count."""
    cv, X, y_train, g_train = _search_cv(search, y, groups, train)
    n_splits = cv.get_n_splits(X, y_train, g_train)
    refit = 1 if search.refit else 0
    if hasattr(search, "factor"):  # successive halving
        return _halving_fits(search, len(train), n_splits, y_train) + refit
    if hasattr(search, "param_grid"):
        return len(ParameterGrid(search.param_grid)) * n_splits + refit
    if hasattr(search, "n_iter"):
        return search.n_iter * n_splits + refit
    return None


def _search_candidates(search):
    if hasattr(search, "param_grid"):
        return list(ParameterGrid(search.param_grid))
    return [{}] * int(getattr(search, "n_iter", getattr(search, "n_candidates", 1)) or 1)


def plan_model(config, spec, data):
    """The :class:`ModelPlan` of ``spec``, from NestedCV's planner; ``data`` is None when the
    data cannot be read (then counts from the file alone)."""
    if data is None:
        return _plan_without_data(config, spec)
    nested = nested_of(config, spec)
    y = None if data.y is None else np.asarray(data.y)
    start = time.perf_counter()
    plan = make_plan(
        nested,
        data.X,
        y,
        data.groups,
        {},
        final=bool(config.protocol.get("refit", False)),
        return_estimator=False,
        owner="NestedCV",
    )
    planning_seconds = time.perf_counter() - start
    folds = range(plan.n_outer)
    y = plan.data.y  # the labels (read from graph data, for those)
    search_fits = None
    if plan.search is not None:
        rows = [train for train, _ in plan.outer_splits]
        if plan.final:
            rows.append(np.arange(len(plan.data.rows[("all",)])))
        search_fits = [_search_fits(plan.search, y, data.groups, r) for r in rows]
        if any(count is None for count in search_fits):
            search_fits = None
        candidates = _search_candidates(plan.search)
        splits = [_search_splits(plan.search, y, data.groups, r) for r in rows]
        inner = splits[: plan.n_outer]
        final_inner = splits[-1] if plan.final else None
    else:
        candidates = plan.candidates
        inner = [_sizes(plan.inner_splits_of(fold)) for fold in folds]
        final_inner = _sizes(plan.inner_splits_of(None)) if plan.final else None
    n_refits = 1 if plan.refit_seeds == [None] else len(plan.refit_seeds)
    return ModelPlan(
        spec.name,
        candidates,
        _sizes(plan.outer_splits),
        inner,
        final_inner,
        n_refits,
        probe=plan.probe,
        search_fits=search_fits,
        estimator=plan.estimator if plan.search is None else plan.search.estimator,
        scorers=plan.scorers,
        planning_seconds=planning_seconds,
    )


def _plan_without_data(config, spec):
    """Counts from the file alone: the outer folds of a splits file (or the splitter), the
    candidates of the grid; no sizes."""
    nested = nested_of(config, spec)
    outer_cv = check_cv(nested.outer_cv, None, classifier=is_classifier(spec.estimator))
    stored = hasattr(outer_cv, "get_inner_splits")
    if stored:
        outer = _sizes(outer_cv.split())
        inner = []
        for fold in range(len(outer)):
            saved = outer_cv.get_inner_splits(fold)
            inner.append(_sizes(saved) if saved is not None else _unknown_inner(nested))
    else:
        outer = [(None, None)] * outer_cv.get_n_splits()
        inner = [_unknown_inner(nested) for _ in outer]
    grid = spec.grid
    candidates = list(ParameterGrid(grid)) if grid else [{}]
    final_inner = _unknown_inner(nested) if config.protocol.get("refit", False) else None
    seeded = any(n.split("__")[-1] == "random_state" for n in spec.estimator.get_params(deep=True))
    n_refits = nested.n_refits if seeded else 1
    return ModelPlan(spec.name, candidates, outer, inner, final_inner, n_refits, probe=n_refits > 1)


def _unknown_inner(nested):
    inner_cv = nested.inner_cv
    if inner_cv is None:
        return [(None, None)]  # NestedCV's default: one hold-out
    return [(None, None)] * check_cv(inner_cv).get_n_splits()


def candidate_estimator(spec, candidate, plan=None):
    """A fresh copy of the model (of the estimator of its search, per ``plan``) with
    ``candidate`` set (checked before any fit)."""
    estimator = spec.estimator if plan is None or plan.estimator is None else plan.estimator
    return clone(estimator).set_params(**candidate)
