"""Running an experiment: NestedCV per model, the results folder, and resuming.

``run_experiment`` fits one NestedCV per model and writes the results folder
(``_runner.py``); result files are written atomically with a checksum and read back as
hostile files (``_resultfile.py``); the hash of what a model's result depends on decides
whether a re-run reads it back (``_hashing.py``); a multi-data-set file runs as one benchmark,
and the command line of such files (``_benchmark_run.py``). Reads through ``_reading`` and
plans through ``_counting``.
"""
