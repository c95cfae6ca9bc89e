"""Planning and counting an experiment's work before anything runs.

Each model's plan on each data set from NestedCV's own planner, with the run's seed
(``_plan.py``); every check before the first fit (``_checks.py``); the compute estimate from
a few timed fits (``_estimate.py``); and the dry run's report (``_dryrun.py``). Reads through
``_reading``; never imports ``_running``.
"""
