"""Planning and counting an experiment's work before anything runs.

Each model's plan from NestedCV's own planner, with the run's seed (``_plan.py``); every
check that needs the data, before the first fit (``_checks.py``); the compute estimate from
a few timed fits (``_estimate.py``); and the dry run's report, of one file (``_dryrun.py``)
or of a multi-data-set file (``_benchmark_plans.py``). Reads through ``_reading``; never
imports ``_running``.
"""
