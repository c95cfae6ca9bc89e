"""What each model of an experiment will fit on each data set, from NestedCV's own planner.

The counts are :func:`make_plan`'s, with the run's NestedCV: the same candidates (drawn with
the run's seed), splits and refit seeds. When a fold's first two refits with different seeds
give identical results, that fold keeps those two: NestedCV learns that only while it runs,
so the refits are then a range. Without the data (at least the labels) nothing is counted: a
count from the file alone would be a guess.
"""

import time
from dataclasses import dataclass, field

import numpy as np
from sklearn.base import clone

from ...model_selection import NestedCV
from ...model_selection._engine import make_plan
from .._reading._config import search_space

__all__ = ["ModelPlan", "candidate_estimator", "nested_of", "plan_model"]


@dataclass
class ModelPlan:
    """The fits of one model on one data set, as NestedCV's planner made them.

    Attributes
    ----------
    name : str
        The model (a plan serves every data set of the same data and protocol).
    candidates : list of dict
        The hyper-parameter candidates (empty for a search that runs whole).
    outer : list of (int, int)
        Per outer fold, the sizes of its training and test parts.
    inner : list of list of (int, int)
        Per outer fold, the sizes of its inner splits (empty for a search run whole).
    n_refits : int
        Refits per outer fold.
    probe : bool
        Whether each fold's first two refits decide if a seed changes anything there.
    seeded_candidate : bool
        Whether a candidate leaves no ``random_state`` unset (its own, or a fixed one from
        the grid): its refits on a fold are one task, fitted once.
    whole_search : bool
        Whether the model is a search run whole in each outer fold (its fits its own).
    searches_inside : tuple of str
        The parameters that hold a search, which runs whole (its fits its own) at each fit.
    estimator, scorers : estimator, dict
        What the candidates are set on, and the run's scorers (metric key -> scorer).
    planning_seconds : float
        Seconds the planner took (the run plans once more).
    nested_plan : Plan
        NestedCV's plan itself (its tasks, as the run names them).
    """

    name: str
    candidates: list
    outer: list
    inner: list
    n_refits: int
    probe: bool = False
    seeded_candidate: bool = False
    whole_search: bool = False
    searches_inside: tuple = ()
    estimator: object = None
    scorers: object = None
    planning_seconds: float = 0.0
    nested_plan: object = field(default=None, repr=False)

    @property
    def n_candidates(self):
        return len(self.candidates)

    @property
    def selection_fits(self):
        """Candidates x inner splits over the outer folds; None for a search run whole."""
        if self.whole_search:
            return None
        return self.n_candidates * sum(len(splits) for splits in self.inner)

    @property
    def refits(self):
        return len(self.outer) * self.n_refits

    @property
    def min_refits(self):
        """Refits when a seed turns out to change nothing (two on each fold), or when each
        fold selects a candidate that no refit seed reaches (one on each fold)."""
        if self.seeded_candidate:
            return len(self.outer)
        return 2 * len(self.outer) if self.probe else self.refits

    @property
    def model_fits(self):
        """Selection fits and refits of the model itself, at most; None for a search run
        whole (its fits its own)."""
        return None if self.whole_search else self.selection_fits + self.refits

    @property
    def total_fits(self):
        """The most fits the model can need; None when a search decides some of them."""
        return None if self.searches_inside else self.model_fits

    @property
    def min_total_fits(self):
        """The fits when a seed changes nothing."""
        if self.whole_search or self.searches_inside:
            return None
        return self.selection_fits + self.min_refits


def nested_of(config, spec, dataset, n_jobs=1):
    """The model's NestedCV on ``dataset``, for the run and the dry run."""
    return NestedCV(
        spec.estimator,
        spec.grid,
        n_jobs=n_jobs,
        random_state=config.random_state,
        verbose=0,
        **dataset.protocol,
    )


def _sizes(splits):
    return [(len(train), len(test)) for train, test in splits]


def plan_model(config, dataset, spec, data):
    """The :class:`ModelPlan` of ``spec`` on ``dataset`` (its ``data`` read, or its labels)."""
    nested = nested_of(config, spec, dataset)
    y = None if data.y is None else np.asarray(data.y)
    start = time.perf_counter()
    plan = make_plan(
        nested, data.X, y, data.groups, {}, final=False, return_estimator=False, owner="NestedCV"
    )
    whole = plan.search is not None
    estimator = plan.search.estimator if whole else plan.estimator
    n_refits = 1 if plan.refit_seeds == [None] else len(plan.refit_seeds)
    # a candidate that the refit seeds do not reach has n_refits identical refit tasks on a
    # fold: the run fits them once (the seed probe finds them agreeing)
    seeded_candidate = (
        not whole
        and n_refits > 1
        and any(
            not plan.seeds.refit_values(candidate_estimator(spec, c, plan), plan.refit_seeds[0])
            for c in plan.candidates
        )
    )
    return ModelPlan(
        spec.name,
        list(plan.candidates),
        _sizes(plan.outer_splits),
        [] if whole else [_sizes(plan.inner_splits_of(f)) for f in range(plan.n_outer)],
        n_refits,
        probe=plan.probe,
        seeded_candidate=seeded_candidate,
        whole_search=whole,
        searches_inside=tuple(
            name
            for name, value in estimator.get_params(deep=True).items()
            if search_space(value) is not None
        ),
        estimator=estimator,
        scorers=plan.scorers,
        planning_seconds=time.perf_counter() - start,
        nested_plan=plan,
    )


def candidate_estimator(spec, candidate, plan=None):
    """A fresh copy of the model (of its search's estimator, per ``plan``), ``candidate`` set."""
    estimator = spec.estimator if plan is None or plan.estimator is None else plan.estimator
    return clone(estimator).set_params(**candidate)
