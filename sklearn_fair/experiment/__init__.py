"""Experiments described in a TOML file, run with ``sklearn-fair run EXPERIMENT.toml``.

:func:`load_config` reads and checks the file (every error names its line and
key); :func:`run_experiment` runs one :class:`~sklearn_fair.NestedCV` per model,
writes a results folder (per-model JSON, summary CSV, report, plots) and, when
run again, reads back the models whose result would not change;
:func:`dry_run` counts the fits and estimates the compute before anything runs.
"""

from ._counting._benchmark_plans import dry_run_benchmark
from ._counting._dryrun import DryRun, dry_run
from ._reading._config import ExperimentConfig, load_config
from ._reading._imports import ALLOWED_PACKAGES
from ._reading._limits import Limits
from ._running._benchmark_run import BenchmarkRun, run_benchmark_file
from ._running._runner import ExperimentResult, run_experiment

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
