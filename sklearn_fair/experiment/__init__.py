"""Experiments described in a TOML file, run with ``sklearn-fair run EXPERIMENT.toml``.

:func:`load_config` reads and checks the file (every error names its line and
key); :func:`run_experiment` runs one :class:`~sklearn_fair.NestedCV` per model,
writes a results folder (per-model JSON, summary CSV, report, plots) and, when
run again, reads back the models already done.
"""

from ._build import ALLOWED_PREFIXES
from ._config import ExperimentConfig, load_config
from ._runner import ExperimentResult, run_experiment

__all__ = [
    "ALLOWED_PREFIXES",
    "ExperimentConfig",
    "ExperimentResult",
    "load_config",
    "run_experiment",
]
