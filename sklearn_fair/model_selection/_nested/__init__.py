"""The nested cross-validation protocol.

A newcomer's map, one module per decision:

- ``_estimator.py``: :class:`NestedCV`, its parameters (validated by scikit-learn's
  ``_parameter_constraints``) and fitted attributes; ``_functions.py``: the functional forms,
  which build a NestedCV so that every parameter has one owner.
- ``_planning.py``: ``make_plan`` and the checked, materialised plan with every task.
- ``_inputs.py``: the data checked once, the target's kind, the early-stopping policy.
- ``_resampling.py``: every split of a run, materialised once; the default inner split, shaped
  by the outer one, and the checks that inner splits respect groups and time.
- ``_candidates.py``: search spaces, a search given as the estimator unwrapped, and the
  configured clone of each fit.
- ``_seeds.py``: the seed policy: which parameters get a seed (only those left unset), which
  task gets which, whether seeds matter, and the one bound; ``_scoring.py``: the scorers,
  metadata routing, scoring a model.
- ``_tasks.py``: what one task does (fit, score, fingerprint predictions) and its key.
- ``_scheduling.py``: which task runs next (dependencies, critical path first) and how many refits a
  fold needs.
- ``_reuse.py``: a pipeline step fitted on the same rows with the same parameters is fitted
  once per worker and reused (``reuse_prefix``).
- ``_running.py``: the executors (in-process, loky, threads, Dask), fault isolation and time
  limits; ``_data.py``: how the data reach the workers once; ``_timeout.py``; ``_progress.py``.
- ``_selection.py``: how a winner is picked and candidates are ranked.
- ``_results.py``: the per-fold results and ``cv_results_``.
- ``_cache_key.py``: what a cache key covers; ``_cache.py``: how entries are stored and read;
  ``_verify.py``: auditing a cache by recomputing a sample of its entries.
"""

from ._estimator import NestedCV
from ._functions import nested_cross_val_predict, nested_cross_val_score, nested_cross_validate
from ._verify import verify_cache

__all__ = [
    "NestedCV",
    "nested_cross_val_predict",
    "nested_cross_val_score",
    "nested_cross_validate",
    "verify_cache",
]
