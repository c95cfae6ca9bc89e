"""The nested-run machinery that other sub-packages of sklearn_fair build on.

:func:`~sklearn_fair.benchmarking.benchmark` and the experiment runner's dry run need
NestedCV's plan, runner, cache and assembly of results, not just its public face. A sibling
sub-package imports them from here, never from the private ``_nested`` modules, so that
``_nested`` can be rearranged without breaking its users. Not public API.
"""

from ._bounded_json import read_json
from ._nested._batching import PREFETCH, AutoBatching
from ._nested._cache import entry_path
from ._nested._cache_key import UnhashableError, sklearn_config, task_names
from ._nested._candidates import is_search
from ._nested._data import RunData, take
from ._nested._data import _aligned as aligned_params
from ._nested._estimator import fit_settings, store_fitted
from ._nested._functions import is_per_label, refits_class, refits_combined_by
from ._nested._inputs import check_dense_y, check_labels, check_rows_line_up
from ._nested._planning import make_plan
from ._nested._protocol import run_protocol
from ._nested._resampling import _given_splits as given_splits
from ._nested._resampling import _straddling as straddling_groups
from ._nested._resampling import check_cv_with_groups, selecting_cv_params
from ._nested._running import PlansData, run_plan
from ._nested._scheduling import NestedSchedule
from ._nested._scoring import resolve_scorers, search_selecting_scoring
from ._nested._seeds import shared_root_seed
from ._nested._tasks import REFIT, SEARCH, SELECTION, kept_score_arrays
from ._nested._verify import check_entries

__all__ = [
    "AutoBatching",
    "NestedSchedule",
    "PREFETCH",
    "PlansData",
    "REFIT",
    "RunData",
    "SEARCH",
    "SELECTION",
    "UnhashableError",
    "aligned_params",
    "check_cv_with_groups",
    "check_entries",
    "fit_settings",
    "check_dense_y",
    "check_labels",
    "check_rows_line_up",
    "entry_path",
    "given_splits",
    "is_per_label",
    "is_search",
    "kept_score_arrays",
    "make_plan",
    "read_json",
    "refits_class",
    "refits_combined_by",
    "resolve_scorers",
    "run_plan",
    "run_protocol",
    "search_selecting_scoring",
    "selecting_cv_params",
    "shared_root_seed",
    "sklearn_config",
    "store_fitted",
    "straddling_groups",
    "take",
    "task_names",
]
