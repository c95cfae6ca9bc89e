"""plan → run → assemble: the one pipeline that NestedCV, its functional forms and
``benchmark()`` call. Each caller makes its plans with :func:`~._planning.make_plan`; the cache,
the run loop and the warnings about the results happen here once, the same way for every caller.
"""

import warnings
from dataclasses import dataclass

from ...exceptions import CacheWarning
from ...utils._stacklevel import external_stacklevel
from ._cache import TaskCache
from ._results import assemble, warn_or_raise_about_failures
from ._running import run_plans
from ._selection import warn_about_selection
from ._task_warnings import replay_warnings

__all__ = ["ProtocolRun", "run_protocol", "use_cache"]


@dataclass
class ProtocolRun:
    """One plan, run: its finished schedule and its assembled results (``assemble``'s dict,
    with ``cache_info``: the cache's hits and the tasks computed, or None without a cache)."""

    plan: object
    schedule: object
    results: dict


def use_cache(plan, cache_dir):
    """Give ``plan`` the task cache in ``cache_dir`` (None: no cache), warning when the run's
    seeds are drawn afresh, so that no entry of an earlier run can be reused."""
    if cache_dir is None:
        return
    plan.cache = TaskCache(cache_dir, plan.owner)
    if not plan.seeds.seeded:
        warnings.warn(
            f"{plan.owner} has random_state=None, so its seeds (inner hold-out, refits, "
            "estimators' random_state) differ on every run and cache entries of earlier runs "
            "cannot be reused. Pass an int random_state to resume runs.",
            CacheWarning,
            stacklevel=external_stacklevel(),
        )


def run_protocol(plans, *, cache_dir=None, n_jobs=None, verbose=0, label="NestedCV fits",
                 reuse_prefix=True, all_failed="raise"):  # fmt: skip
    """Run ``plans`` on one pool of workers; one :class:`ProtocolRun` per plan, in order.

    ``reuse_prefix``: a bool or one per plan. ``all_failed``: a plan whose every outer fold
    failed raises, as ``cross_validate`` does ("raise"), or is kept with its ``error_score``
    folds ("keep": one failed cell of a benchmark does not end the others).
    """
    for plan in plans:
        use_cache(plan, cache_dir)
    schedules = run_plans(
        plans, n_jobs=n_jobs, verbose=verbose, label=label, reuse_prefix=reuse_prefix
    )
    caches = [plan.cache for plan in plans if plan.cache is not None]
    for cache in caches[1:]:  # one warning for the run's entries that failed their checks
        caches[0].absorb_counts(cache)
    if caches:
        caches[0].warn_rejected()
    runs = []
    for plan, schedule in zip(plans, schedules):
        replay_warnings(schedule.results.values())  # the fits' own, computed or cached
        results = assemble(schedule)
        warn_or_raise_about_failures(
            plan.owner,
            plan.error_score,
            results["outer_results"],
            list(schedule.results.values()),
            raise_when_all_failed=all_failed == "raise",
            selection_error_score=plan.selection_error_score,
            placeholder_folds={f for f, s in schedule.selections.items() if s.get("placeholder")},
        )
        warn_about_selection(plan, results["outer_results"])  # ties, edges of the grid
        results["cache_info"] = None
        if plan.cache is not None:
            results["cache_info"] = {"hits": plan.cache.hits, "computed": schedule.computed}
        runs.append(ProtocolRun(plan, schedule, results))
    return runs
