"""``sklearn-fair run --dry-run``: what a run would fit, and about how long, before it runs."""

import os
from dataclasses import dataclass, field

from ...exceptions import ExperimentConfigError
from .._reading._config import open_experiment
from .._reading._data import load_data, tu_folder_problem, work_dir
from ._checks import check_before_fit
from ._estimate import estimate_compute, format_seconds

__all__ = ["DryRun", "dry_run"]


@dataclass
class DryRun:
    """What :func:`dry_run` found.

    Attributes
    ----------
    config : ExperimentConfig
        The checked file.
    plans : dict
        Model name -> :class:`ModelPlan` (its fits).
    estimates : dict
        Model name -> :class:`Estimate`, for the models that were timed.
    data_problem : str or None
        Why the data cannot be read (then nothing was timed and a run would stop).
    text : str
        The printed report.
    """

    config: object
    plans: dict
    estimates: dict = field(default_factory=dict)
    data_problem: object = None
    text: str = ""

    @property
    def total_fits(self):
        return sum(plan.total_fits for plan in self.plans.values())

    @property
    def min_total_fits(self):
        """The fits when no model's seeds change anything (see ModelPlan.min_total_fits)."""
        return sum(plan.min_total_fits for plan in self.plans.values())


def _spread(counts):
    low, high = min(counts), max(counts)
    return str(low) if low == high else f"{low}-{high}"


def _outer_text(config, plan):
    n_outer = len(plan.outer)
    if config.splits:
        inner = config.splits["splits"].inner_splits or []
        has_inner = any(splits is not None for splits in inner)
        stored = "each with its stored inner split(s)" if has_inner else ""
        return (
            f"{n_outer} outer folds replayed from {config.splits['path'].name} "
            f"({config.splits['format']}) {stored}".rstrip()
        )
    outer_cv = config.protocol.get("outer_cv", "NestedCV's default")
    return f"{n_outer} outer folds (outer_cv={outer_cv!r})"


def _table(plans):
    header = ("model", "candidates", "inner splits", "selection fits", "refits", "final", "total")
    rows = [header]
    for plan in plans.values():
        inner = [len(splits) for splits in plan.inner] or [0]
        rows.append(
            (
                plan.name,
                str(plan.n_candidates),
                _spread(inner),
                str(plan.selection_fits),
                f"{plan.refits} ({len(plan.outer)} x {plan.n_refits})"
                + (
                    f", {plan.min_refits} if seeds are inert"
                    if plan.min_refits < plan.refits
                    else ""
                ),
                str(plan.final_fits),
                str(plan.total_fits)
                + (f" (>= {plan.min_total_fits})" if plan.min_total_fits < plan.total_fits else ""),
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]


def dry_run(
    path,
    *,
    timing=True,
    n_jobs=None,
    n_timed=3,
    sample_size=128,
    data_dir=None,
    allow_outside_paths=False,
    allowed_packages=(),
    device=None,
    output_dir=None,
    limits=None,
):
    """Count the fits of an experiment file and estimate its compute, fitting (almost) nothing.

    The file is checked as :func:`run_experiment` checks it, and the same limits apply.
    For each model, NestedCV's own planner (the one a run executes, with the run's seed)
    gives the selection fits (outer folds x candidates x inner splits, or a search's own
    fits where it runs whole), the refits (outer folds x ``n_refits``; once per fold when
    no parameter takes a seed) and, with ``refit``, the final selection and fit. With
    ``timing``, a few candidates are fitted on samples growing towards the largest training
    size (estimators with ``max_epochs`` for 2 epochs), and the cost of a task (its rows,
    its fit, its scoring) is extrapolated to every fit (see the printed basis). When the
    data cannot be read (a missing TU folder), the counts come from the file alone and the
    report says so.

    Parameters
    ----------
    path : str or path-like
        The experiment file.
    timing : bool, default=True
        Time short fits to estimate the compute; False only counts (and does not read
        graph data).
    n_jobs : int, default=None
        Workers the wall time is divided by; None uses the file's ``n_jobs``.
    n_timed : int, default=3
        Candidates timed per model.
    sample_size : int, default=128
        Samples per timing fit.
    data_dir, allow_outside_paths, allowed_packages, device, output_dir, limits
        As in :func:`run_experiment`; the dry run refuses what the run would refuse.

    Returns
    -------
    dry_run : DryRun
        Its ``text`` is what ``sklearn-fair run --dry-run`` prints.

    Examples
    --------
    >>> import os, tempfile
    >>> from sklearn_fair.experiment import dry_run
    >>> path = os.path.join(tempfile.mkdtemp(), "iris.toml")
    >>> with open(path, "w") as f:
    ...     _ = f.write('''
    ... [data]
    ... dataset = "sklearn:iris"
    ... [protocol]
    ... outer_cv = 5
    ... inner_cv = 3
    ... n_refits = 2
    ... [models.logreg]
    ... estimator = "sklearn.linear_model.LogisticRegression"
    ... grid = { C = [0.1, 1.0, 10.0] }
    ... ''')
    >>> report = dry_run(path, timing=False)
    >>> plan = report.plans["logreg"]
    >>> plan.selection_fits, plan.refits, plan.total_fits  # 5 x 3 x 3, 5 x 2
    (45, 10, 55)
    """
    config = open_experiment(
        path,
        data_dir=data_dir,
        allow_outside_paths=allow_outside_paths,
        allowed_packages=allowed_packages,
        device=device,
        output_dir=output_dir,
        limits=limits,
    )
    n_jobs = config.n_jobs if n_jobs is None else n_jobs
    dataset = config.data["dataset"]
    data, problem = None, None
    if dataset.startswith("tu:"):
        problem = tu_folder_problem(config.data["root"], dataset[3:])
    if problem is None and (timing or not dataset.startswith("tu:")):
        try:
            data = load_data(config, work_dir(config))
        except ExperimentConfigError as error:
            problem = str(error)
    plans = check_before_fit(config, data)
    result = DryRun(config, plans, data_problem=problem)
    lines = [
        f"Dry run of experiment {config.name!r} ({os.fspath(config.path)}): nothing is fitted"
        + (" but a few short timing fits." if timing and data is not None else "."),
        "Data: "
        + (
            data.description
            if data is not None
            else f"{dataset}: NOT AVAILABLE, {problem}"
            if problem
            else f"{dataset} (not read: counting only)"
        ),
        "Outer resampling: " + _outer_text(config, next(iter(plans.values()))),
        "",
        *_table(plans),
        "",
        "selection fits = outer folds x candidates x inner splits; refits = outer folds x "
        "n_refits (1 for an estimator without random_state; outer folds + 1 when the first "
        "fold's two refits show that a seed changes nothing); final = candidates x inner "
        "splits + 1 with refit=true.",
        f"Total: {result.total_fits} fits"
        + (
            f" at most ({result.min_total_fits} if seeds are inert)."
            if result.min_total_fits < result.total_fits
            else "."
        ),
    ]
    if timing and data is not None:
        lines += ["", f"Estimated compute (seconds of one worker; wall time at n_jobs={n_jobs}):"]
        total = 0.0
        for spec in config.models.values():
            estimate = estimate_compute(
                spec, plans[spec.name], data, n_timed=n_timed, sample_size=sample_size
            )
            result.estimates[spec.name] = estimate
            if estimate.seconds is None:
                lines.append(f"  {spec.name}: no estimate: {estimate.basis}.")
                continue
            total += estimate.seconds
            lines.append(
                f"  {spec.name}: {format_seconds(estimate.seconds)} "
                f"(range {format_seconds(estimate.low)} to {format_seconds(estimate.high)}), "
                f"about {format_seconds(estimate.seconds / max(n_jobs, 1))} wall at "
                f"n_jobs={n_jobs}"
            )
            lines.append(f"    based on: {estimate.basis}.")
        lines.append(
            f"  all models: {format_seconds(total)} ({total / 3600:.3g} core-hours); "
            f"about {format_seconds(total / max(n_jobs, 1))} wall at n_jobs={n_jobs}, if "
            "every worker is kept busy."
        )
    elif problem:
        lines += ["", "No estimate of the compute: the data cannot be read; a run would stop."]
    result.text = "\n".join(lines)
    return result
