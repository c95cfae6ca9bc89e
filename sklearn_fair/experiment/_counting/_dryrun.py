"""``sklearn-fair run --dry-run``: what a run would fit, and about how long, before it runs."""

import numbers
import os
import warnings
from dataclasses import dataclass, field

import joblib
from sklearn.utils._param_validation import validate_params

from ...utils import N_JOBS_CONSTRAINTS, IntervalNotBool
from ...utils._printing import text_table
from .._reading._config import LIMITS, load_config
from .._reading._data import cache_folder, load_datasets
from .._reading._text import neutral
from .._running._inputs import check_backend, check_outputs
from . import _shared
from ._cached import cached_fits
from ._checks import check_before_fit
from ._estimate import estimate_compute, format_seconds
from ._shared import SharedFits, shared_fits

__all__ = ["DryRun", "dry_run", "dry_run_benchmark"]


@dataclass
class DryRun:
    """What :func:`dry_run` found.

    Attributes
    ----------
    config : ExperimentConfig
        The checked file.
    plans : dict
        Model name -> :class:`ModelPlan` (its fits); ``(data set, model)`` -> ModelPlan in a
        file with several data sets.
    estimates : dict
        The same keys -> :class:`Estimate`, for the models that were timed.
    data_problem : str or None
        Why data cannot be read (then they are not counted, and a run would stop).
    shared : SharedFits
        The fits that tasks identical across models spare (a run fits each task once).
    cached : dict
        The same keys -> :class:`CachedFits`, the fits already in the task cache, for the
        models whose tasks can be looked up there.
    text : str
        The printed report.
    """

    config: object
    plans: dict
    estimates: dict = field(default_factory=dict)
    data_problem: object = None
    shared: SharedFits = field(default_factory=SharedFits)
    cached: dict = field(default_factory=dict)
    text: str = ""

    def _sum(self, what):
        counts = [getattr(plan, what) for plan in self.plans.values()]
        if self.data_problem or any(count is None for count in counts):
            return None
        return sum(counts)

    @property
    def total_fits(self):
        """The most fits of the run; None when some cannot be counted (data that cannot be
        read, a search run whole)."""
        return self._sum("total_fits")

    @property
    def min_total_fits(self):
        """The fewest fits of the run: when no model's seeds change anything (see
        ModelPlan.min_total_fits), the tasks that models share succeed (a failed one is fitted
        again) and their winners coincide; None where those tasks were not counted."""
        total = self._sum("min_total_fits")
        if total is None or self.shared.not_counted:
            return None
        return total - self.shared.selection - self.shared.refits

    @property
    def cached_fits(self):
        """The fits of :attr:`total_fits` already in the task cache (the run computes them
        again only where an entry fails its checks), whichever candidate each fold selects;
        None where the cache cannot be looked up for every model."""
        if self.total_fits is None or len(self.cached) < len(self.plans):
            return None
        return sum(found.n_fits for found in self.cached.values())


def _spread(counts):
    low, high = min(counts), max(counts)
    return str(low) if low == high else f"{low}-{high}"


def _outer_text(dataset, plan):
    n_outer = len(plan.outer)
    if dataset.splits:
        inner = dataset.splits["splits"].inner_splits or []
        stored = "each with its stored inner split(s)" if any(s is not None for s in inner) else ""
        return (
            f"{n_outer} outer folds replayed from {dataset.splits['path'].name} "
            f"({dataset.splits['format']}) {stored}".rstrip()
        )
    outer_cv = dataset.protocol.get("outer_cv", "NestedCV's default")
    return f"{n_outer} outer folds (outer_cv={outer_cv!r})"


def _inert(plan):
    """When ``plan`` makes its fewest refits."""
    if plan.seeded_candidate:
        return "each fold selects a candidate whose seed is the user's"
    return "seeds are inert"


def _row(plan):
    refits = f"{plan.refits} ({len(plan.outer)} x {plan.n_refits})"
    if plan.min_refits < plan.refits:
        refits += f", at least {plan.min_refits} if {_inert(plan)}"
    if plan.whole_search:
        candidates = inner = "its own"
        selection = f"its own ({len(plan.outer)} searches)"
        total = f"{plan.refits} + the searches' own"
    else:
        selection, candidates = str(plan.selection_fits), str(plan.n_candidates)
        inner = _spread([len(splits) for splits in plan.inner] or [0])
        if plan.searches_inside:
            total = f"{plan.model_fits}, each with a search"
        elif plan.min_total_fits < plan.total_fits:
            total = f"{plan.total_fits} (>= {plan.min_total_fits})"
        else:
            total = str(plan.total_fits)
    return (neutral(plan.name), candidates, inner, selection, refits, total)


def _uncounted(plans):
    """The total line where searches decide some fits: what is counted, and which searches."""
    whole, inside = [], []
    for (_, model), plan in plans.items():
        name = neutral(model)
        if plan.whole_search and name not in whole:
            whole.append(name)
        elif plan.searches_inside and name not in [n for n, _ in inside]:
            inside.append((name, ", ".join(neutral(p) for p in plan.searches_inside)))
    if not inside:
        refits = sum(plan.refits for plan in plans.values())
        return f"Total: {refits} refits and the fits that the whole searches decide."
    counted = sum(
        plan.refits if plan.model_fits is None else plan.model_fits for plan in plans.values()
    )
    searches = [f"{name} runs the search in {where} at each of its fits" for name, where in inside]
    if whole:
        searches.append(f"{', '.join(whole)}: a search run whole in each outer fold")
    return (
        f"Total: {counted} fits of the models themselves, and the fits that their searches "
        f"decide, not counted ({'; '.join(searches)})."
    )


_CONSTRAINTS = {
    "timing": ["boolean"],
    "n_jobs": N_JOBS_CONSTRAINTS,
    "n_timed": [IntervalNotBool(numbers.Integral, 1, None, closed="left")],
    "sample_size": [IntervalNotBool(numbers.Integral, 1, None, closed="left")],
    "limits": LIMITS,
}


@validate_params(_CONSTRAINTS, prefer_skip_nested_validation=False)
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
    backend=None,
    dask_scheduler=None,
):
    """Count the fits of an experiment file and estimate its compute, fitting (almost) nothing.

    The file is checked as :func:`run_experiment` checks it (every candidate by its
    estimator's own constraints, the same limits). NestedCV's own planner, with the run's
    seed, gives each model's selection fits (outer folds x candidates x inner splits) and
    refits (outer folds x ``n_refits``; once per fold when no parameter takes a seed); a
    search that NestedCV runs whole decides its own fits, which are not counted, as are those
    of a search inside a parameter, run whole at each fit of the model. With
    ``timing``, a few candidates are fitted on growing samples and the cost of a task is
    extrapolated to every fit (the report states its basis). A data set that cannot be read
    is not counted, and the report says why.

    Parameters
    ----------
    path : str or path-like
        The experiment file (one ``[data]`` table, or ``[data.NAME]`` tables).
    timing : bool, default=True
        Time short fits to estimate the compute; False only counts (and reads only the
        labels of graph data).
    n_jobs : int, default=None
        Workers the wall time is divided by, not 0 (negative as joblib counts them: -1 every
        core); None uses the file's ``n_jobs``.
    n_timed : int, default=3
        Candidates timed per model.
    sample_size : int, default=128
        Samples per timing fit.
    data_dir, allow_outside_paths, allowed_packages, device, output_dir, limits
        As in :func:`load_config`; the dry run refuses what the run would refuse.
    backend, dask_scheduler : str, default=None
        As in :func:`run_experiment`: a ``dask_scheduler`` with a backend other than dask is
        refused, as the run refuses it.

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
    config = load_config(
        path,
        data_dir=data_dir,
        allow_outside_paths=allow_outside_paths,
        allowed_packages=allowed_packages,
        device=device,
        output_dir=output_dir,
        limits=limits,
        n_jobs=n_jobs,
    )
    n_jobs = config.n_jobs
    check_backend(config, backend, dask_scheduler)
    check_outputs(config)  # what is in the way of a file the run writes, as the run checks it
    problems = {}
    loaded = load_datasets(config, labels_only=not timing, problems=problems)
    plans = check_before_fit(config, loaded)
    problem = "; ".join(f"{neutral(d)}: {p}" for d, p in problems.items()) or None
    result = DryRun(config, plans, data_problem=problem, shared=shared_fits(plans, loaded))
    cache, looked_up = cache_folder(config), {}
    for (dataset, model), plan in plans.items():
        if id(plan) not in looked_up:  # data sets of the same data and protocol share one
            data = loaded.get(dataset)
            looked_up[id(plan)] = None if data is None else cached_fits(plan, data, cache)
        if looked_up[id(plan)] is not None:
            result.cached[(dataset, model) if config.several else model] = looked_up[id(plan)]
    several = config.several
    timed = timing and bool(loaded)
    lines = [
        f"Dry run of experiment {neutral(config.name)!r} ({neutral(os.fspath(config.path))}): "
        "nothing is fitted" + (" but a few short timing fits." if timed else "."),
    ]
    header = ("model", "candidates", "inner splits", "selection fits", "refits", "total")
    if several:
        lines.append(
            f"{len(config.datasets)} data sets x {len(config.models)} models, in one task pool."
        )
        rows = [(neutral(d), *_row(plan)) for (d, _), plan in plans.items()]
        lines += ["", *text_table([("data set", *header), *rows])]
    else:
        ((name, dataset),) = config.datasets.items()
        if name in loaded:
            lines.append(f"Data: {loaded[name].description}")
        else:
            lines.append(f"Data: {dataset.data['dataset']}: NOT AVAILABLE, {problems[name]}")
        if plans:
            lines.append("Outer resampling: " + _outer_text(dataset, next(iter(plans.values()))))
        lines += ["", *text_table([header, *(_row(plan) for plan in plans.values())])]
    if several:
        lines += [f"{neutral(d)}: NOT AVAILABLE, not counted: {p}" for d, p in problems.items()]
    lines += [
        "",
        "selection fits = outer folds x candidates x inner splits; refits = outer folds x "
        "n_refits (1 for an estimator without random_state, or whose seed is the user's; 2 on "
        "each fold whose first two refits show that a seed changes nothing there).",
    ]
    shared = result.shared
    identical = (
        "Identical tasks (the same candidate on the same data and splits: of several models, "
        "or of outer folds whose inner splits repeat, as cumulative time-ordered folds do) are "
        "fitted once"
    )
    if shared.not_counted:
        lines.append(
            f"{identical}: the fits they spare are not counted (that would name "
            f"{shared.not_counted} tasks, more than {_shared.MAX_NAMED}); the run may make "
            "fewer fits than counted here."
        )
    if shared.selection or shared.refits:
        spared = [
            *([f"{shared.selection} selection fits fewer"] if shared.selection else []),
            *(
                [f"up to {shared.refits} refits fewer where the models' winners coincide"]
                if shared.refits
                else []
            ),
        ]
        lines.append(f"{identical}: {', and '.join(spared)}.")
    if problems:
        lines.append("Total: not counted: the data cannot be read; a run would stop.")
    elif result.total_fits is None:
        lines.append(_uncounted(plans))
    elif shared.not_counted:
        lines.append(f"Total: {result.total_fits} fits at most (identical tasks not counted).")
    elif result.min_total_fits < result.total_fits:
        conditions = [
            *dict.fromkeys(_inert(p) for p in plans.values() if p.min_refits < p.refits),
            *(["the shared tasks succeed"] if shared.selection else []),
            *(["their winners coincide"] if shared.refits else []),
        ]
        lines.append(
            f"Total: {result.total_fits} fits at most (at least {result.min_total_fits} if "
            f"{', '.join(conditions[:-1])}{' and ' if len(conditions) > 1 else ''}"
            f"{conditions[-1]})."
        )
    else:
        lines.append(f"Total: {result.total_fits} fits.")
    n_cached = sum(found.n_fits for found in result.cached.values())
    maybe = sum(found.maybe_refits for found in result.cached.values())
    if not problems and (n_cached or maybe):
        lines.append(
            f"{n_cached} of them already in the cache at {neutral(os.fspath(cache))} (computed "
            "again only if they fail their checks)"
            + (
                f", and up to {maybe} refits more where a fold selects a candidate whose "
                "refit is cached"
                if maybe
                else ""
            )
            + (
                "; the models whose tasks cannot be looked up there are counted as computed."
                if len(result.cached) < len(plans)
                else "."
            )
        )
    if timed:
        # n_jobs=-1 is every core, as joblib counts it: the wall time divides by that
        workers = max(1, joblib.effective_n_jobs(n_jobs))
        lines += ["", f"Estimated compute (seconds of one worker; wall time at n_jobs={n_jobs}):"]
        total, estimated = 0.0, {}
        for (dataset, model), plan in plans.items():
            if id(plan) not in estimated:  # data sets of the same data and protocol share one
                spec = config.models[model]
                estimated[id(plan)] = estimate_compute(
                    spec,
                    plan,
                    loaded[dataset],
                    n_timed=n_timed,
                    sample_size=sample_size,
                    cached=looked_up[id(plan)],
                )
            estimate = estimated[id(plan)]
            label = f"{neutral(dataset)}/{neutral(model)}" if several else neutral(model)
            result.estimates[(dataset, model) if several else model] = estimate
            if estimate.seconds is None:
                lines.append(f"  {label}: no estimate: {neutral(estimate.basis)}.")
                continue
            total += estimate.seconds
            lines.append(
                f"  {label}: {format_seconds(estimate.seconds)} "
                f"(range {format_seconds(estimate.low)} to {format_seconds(estimate.high)}), "
                f"about {format_seconds(estimate.seconds / workers)} wall at "
                f"n_jobs={n_jobs}"
            )
            lines.append(f"    based on: {neutral(estimate.basis)}.")
        missing = [k for k, e in result.estimates.items() if e.seconds is None]
        lines.append(
            f"  all models: {format_seconds(total)} ({total / 3600:.3g} core-hours); "
            f"about {format_seconds(total / workers)} wall at n_jobs={n_jobs}, if "
            "every worker is kept busy"
            + (f"; {len(missing)} model(s) without an estimate are not in it." if missing else ".")
        )
    elif problems and timing:
        lines += ["", "No estimate of the compute: the data cannot be read; a run would stop."]
    if not several:
        plans = {model: plan for (_, model), plan in plans.items()}
    result.plans = plans
    result.text = "\n".join(lines)
    return result


@validate_params(_CONSTRAINTS, prefer_skip_nested_validation=False)
def dry_run_benchmark(path, *, timing=True, n_jobs=None, **options):
    """Deprecated: :func:`dry_run` counts a file with several data sets too.

    Returns
    -------
    text : str
        The report.
    total : int or None
        The most fits the benchmark can need.
    """
    warnings.warn(
        "dry_run_benchmark is deprecated; dry_run counts a file with several data sets too "
        "(dry_run(path).text, dry_run(path).total_fits).",
        FutureWarning,
        stacklevel=2,
    )
    report = dry_run(path, timing=timing, n_jobs=n_jobs, **options)
    return report.text, report.total_fits
