"""Experiments described in a TOML file, run with ``sklearn-fair run EXPERIMENT.toml``.

:func:`load_config` reads and checks the file (every error names its line and key);
:func:`run_experiment` runs every model on its data set (or each of its data sets) as one
:func:`~sklearn_fair.benchmark` over NestedCV's task cache, so a re-run computes only what is
missing, and writes a results folder (per-model JSON, summary CSV, report, plots);
:func:`dry_run` counts the fits and estimates the compute before anything runs.
"""

from ._counting._dryrun import DryRun, dry_run, dry_run_benchmark
from ._reading._config import ExperimentConfig, load_config
from ._reading._imports import ALLOWED_PACKAGES
from ._reading._limits import Limits
from ._running._runner import BenchmarkRun, ExperimentResult, run_benchmark_file, run_experiment

__all__ = [
    "ALLOWED_PACKAGES",
    "BenchmarkRun",
    "DryRun",
    "ExperimentConfig",
    "ExperimentResult",
    "Limits",
    "dry_run",
    "dry_run_benchmark",
    "load_config",
    "run_benchmark_file",
    "run_experiment",
]
