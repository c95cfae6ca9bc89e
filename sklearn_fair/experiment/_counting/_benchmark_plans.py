"""Counting a multi-data-set file's fits (``sklearn-fair run --dry-run`` of a benchmark)."""

import os

from .._reading._benchmark_file import load_benchmark

__all__ = ["dry_run_benchmark", "load_benchmark_plans"]


def load_benchmark_plans(configs):
    """``(datasets, plans)``: per data set its ``(data, config)`` and its models' plans
    (checked before any fit)."""
    from .._reading._data import load_data, work_dir
    from ._checks import check_before_fit

    datasets, plans = {}, {}
    for name, config in configs.items():
        data = load_data(config, work_dir(config))
        plans[name] = check_before_fit(config, data)
        datasets[name] = (data, config)
    return datasets, plans


def dry_run_benchmark(path, *, timing=True, n_jobs=None, **options):
    """Count every fit of a multi-data-set file and estimate its compute, fitting (almost) nothing.

    Each data set is counted and timed as :func:`~sklearn_fair.experiment.dry_run` does one
    file's: the fits of every model from its splits and grid, and with ``timing`` a few short
    fits of each model on a small sample, extrapolated to all its fits.

    Parameters
    ----------
    path : str or path-like
        The experiment file, with ``[data.NAME]`` tables.
    timing : bool, default=True
        Time short fits to estimate the compute; False only counts.
    n_jobs : int, default=None
        Workers the wall time is divided by; None uses the file's ``n_jobs``.
    **options
        As in :func:`~sklearn_fair.experiment.run_benchmark_file`.

    Returns
    -------
    text : str
        The table of fits (and estimated seconds) per data set and model, and the totals.
    total : int
        The most fits the benchmark can need.
    """
    from ._estimate import estimate_compute, format_seconds

    configs, _ = load_benchmark(path, **options)
    loaded, plans = load_benchmark_plans(configs)
    first = next(iter(configs.values()))
    n_jobs = first.n_jobs if n_jobs is None else n_jobs
    header = ("data set", "model", "candidates", "selection fits", "refits", "total fits")
    rows = [header + (("estimated compute",) if timing else ())]
    total, seconds, unknown = 0, 0.0, []
    for dataset, model_plans in plans.items():
        data, config = loaded[dataset]
        for name, plan in model_plans.items():
            row = (dataset, name, str(plan.n_candidates), str(plan.selection_fits),
                   str(plan.refits), str(plan.total_fits))  # fmt: skip
            total += plan.total_fits
            if timing:
                estimate = estimate_compute(config.models[name], plan, data)
                if estimate.seconds is None:
                    unknown.append(f"{dataset}/{name}: {estimate.basis}")
                    row += ("?",)
                else:
                    seconds += estimate.seconds
                    row += (format_seconds(estimate.seconds),)
            rows.append(row)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [
        f"Dry run of the benchmark {first.name!r} ({os.fspath(first.path)}): "
        f"{len(configs)} data sets x {len(first.models)} models, nothing is fitted"
        + (" but a few short timing fits." if timing else "."),
        "",
        *("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows),
        "",
        f"At most {total} fits in all, in one task pool.",
    ]
    if timing:
        lines.append(
            f"Estimated compute: {format_seconds(seconds)} of one worker, about "
            f"{format_seconds(seconds / max(n_jobs, 1))} wall at n_jobs={n_jobs} if every "
            "worker is kept busy" + (f"; no estimate for {'; '.join(unknown)}." if unknown else ".")
        )
    return "\n".join(lines), total
