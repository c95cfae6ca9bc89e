"""Running an experiment: one benchmark, and its results folder.

``run_experiment`` runs every model on every data set as one :func:`~sklearn_fair.benchmark`
over NestedCV's task cache (``_runner.py``), which records the experiment file that wrote
the cache (``_manifest.py``, for ``sklearn-fair cache verify``); every output file is made
from the BenchmarkResult (``_outputs.py``) and written by the one writer (``_resultfile.py``).
Reads through ``_reading`` and plans through ``_counting``.
"""
