"""The nested-run machinery that other sub-packages of sklearn_fair build on.

:func:`~sklearn_fair.benchmarking.benchmark` runs many NestedCV plans in one pool of workers,
and the experiment runner's dry run counts and times a plan's fits; they need the plan, the
runner, the cache and the assembly of results, not just NestedCV's public face. This module is
where ``model_selection`` offers them: a sibling sub-package imports from here, never from the
private ``_nested`` modules, so that ``_nested`` can be rearranged without breaking its
users, and what it exposes stays visible in one list. Not public API: no stability promise to
users, only to the package itself.
"""

from ._bounded_json import read_json
from ._nested._batching import PREFETCH, AutoBatching
from ._nested._candidates import is_search
from ._nested._data import RunData, take
from ._nested._docs import PARAMETER_DOCS, fill_parameter_docs
from ._nested._estimator import store_fitted
from ._nested._planning import make_plan
from ._nested._protocol import ProtocolRun, run_protocol, use_cache
from ._nested._resampling import check_cv_with_groups
from ._nested._running import PlansData, run_plan, run_plans
from ._nested._scheduling import NestedSchedule
from ._nested._seeds import shared_root_seed
from ._nested._tasks import FINAL, REFIT, SEARCH, SELECTION, Phase

__all__ = [
    "AutoBatching",
    "FINAL",
    "NestedSchedule",
    "PARAMETER_DOCS",
    "PREFETCH",
    "Phase",
    "PlansData",
    "REFIT",
    "RunData",
    "SEARCH",
    "SELECTION",
    "ProtocolRun",
    "check_cv_with_groups",
    "fill_parameter_docs",
    "is_search",
    "make_plan",
    "read_json",
    "run_plan",
    "run_plans",
    "run_protocol",
    "shared_root_seed",
    "store_fitted",
    "take",
    "use_cache",
]
