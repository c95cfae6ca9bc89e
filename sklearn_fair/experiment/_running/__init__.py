"""Running an experiment: NestedCV per model, the results folder, and resuming.

A multi-data-set file run as one benchmark, and the command line of such files
(``_benchmark_run.py``). Reads through ``_reading`` and plans through ``_counting``.
"""
