"""benchmark(..., previous=result): add models or data sets to a finished benchmark.

Only the cells ``previous`` lacks are computed, and they must be those the whole benchmark run
at once would give. So, before any fit: the seed is the previous one, every new cell has the
model and the data it needs, and a model or data set already in ``previous`` is the same one
(by the fingerprints each cell records); after planning, the new cells of a data set in
``previous`` have its outer splits and its metric.
"""

import dataclasses

from ..exceptions import NoSplitsError
from ..report import BenchmarkResult
from ..stats._checks import check_same_splits
from ..utils import UnhashableError, describe, digest, fingerprint

# NestedCV parameters that cannot change a cell's result (its outer splits are checked apart)
_NOT_FINGERPRINTED = ("outer_cv", "n_jobs", "verbose", "cache_dir")


def model_fingerprint(nested):
    """The digest of what a model's cells depend on (its NestedCV's parameters), or None."""
    params = nested.get_params(deep=False)
    try:
        return digest(describe({k: v for k, v in params.items() if k not in _NOT_FINGERPRINTED}))
    except UnhashableError:
        return None


def data_fingerprint(X, y, groups):
    # each part on its own: a list whose first item is a GraphCollection (it has a .y) would
    # be read as a list of graphs
    return fingerprint([fingerprint(X), fingerprint(y), fingerprint(groups)])


def _recorded(previous, what, name):
    """The fingerprint the cells of ``previous`` record for model or data set ``name``."""
    index = 1 if what == "model" else 0
    values = {c.fingerprints.get(what) for k, c in previous.cells.items() if k[index] == name}
    return values.pop() if len(values) == 1 else None


def check_previous(previous, models, datasets, random_state):
    """``(random_state, cells to compute)``: the checks that need no data, before any fit."""
    if not isinstance(previous, BenchmarkResult):
        raise TypeError(
            "The 'previous' parameter of benchmark must be a BenchmarkResult (from benchmark or "
            f"BenchmarkResult.load). Got {type(previous).__name__} instead."
        )
    if random_state is None:
        random_state = previous.random_state
    elif random_state != previous.random_state:
        raise ValueError(
            f"The 'random_state' parameter of benchmark is {random_state!r}, but the previous "
            f"benchmark ran with {previous.random_state!r}: new cells must share its seeds. "
            "Pass its random_state, or None."
        )
    all_models = list(dict.fromkeys([*previous.models, *models]))
    all_datasets = list(dict.fromkeys([*previous.datasets, *datasets]))
    todo = [(d, m) for d in all_datasets for m in all_models if (d, m) not in previous.cells]
    lacking = sorted({f"model {m!r}" for _, m in todo if m not in models})
    lacking += sorted({f"data set {d!r}" for d, _ in todo if d not in datasets})
    if lacking:
        raise ValueError(
            f"benchmark(..., previous=...) must compute the cells {todo[:4]}"
            f"{'...' * (len(todo) > 4)} and needs for them {', '.join(lacking)}: pass them in "
            "'models' and 'datasets' as in the previous run."
        )
    return random_state, set(todo)


def check_same(previous, what, name, value):
    """Refuse a model or data set of ``previous`` given again other than it was."""
    if previous is None or name not in (previous.models if what == "model" else previous.datasets):
        return
    recorded = _recorded(previous, what, name)
    if recorded is None or value is None or recorded != value:
        reason = (
            "is not the one the previous benchmark ran"
            if recorded is not None and value is not None
            else "cannot be checked to be the one the previous benchmark ran (no fingerprint)"
        )
        raise ValueError(
            f"The {what} {name!r} given to benchmark {reason}, so its new cells would not be "
            f"comparable with its previous ones; give it a new name, or run the benchmark anew."
        )


def check_previous_plans(previous, dataset, plans):
    """The new cells of a data set of ``previous`` have its outer splits (by the rule of every
    paired comparison, :func:`~sklearn_fair.stats._checks.check_same_splits`) and its metric."""
    if previous is None or dataset not in previous.datasets or not plans:
        return
    first = previous.models[0]
    old = previous.cells[dataset, first]
    if not old.has_splits:
        raise NoSplitsError(
            f"The previous benchmark's cells on data set {dataset!r} do not record their outer "
            "splits, so new cells cannot be checked to share them; run the benchmark anew."
        )
    for model, plan in plans.items():
        check_same_splits(
            first, (old.train_indices, old.test_indices), model, tuple(zip(*plan.outer_splits)),
            who=f"benchmark(..., previous=...) on data set {dataset!r}",
            fix="pass the previous benchmark's outer_cv",
        )  # fmt: skip
        metric = plan.metric_names().get(plan.refit_metric)
        if metric is not None and (metric.name, metric.sign) != (old.metric.name, old.metric.sign):
            raise ValueError(
                f"On data set {dataset!r}, model {model!r} would be scored with {metric} and "
                f"the previous benchmark's models with {old.metric}; pass the same scoring."
            )


def merged(previous, cells, fingerprints, *, baseline, baseline_floor, random_state):
    """The BenchmarkResult of ``previous``'s cells and the new ``cells``, each new cell with
    its ``fingerprints`` (``(dataset, model)`` -> dict), data sets and models in order."""
    cells = {k: dataclasses.replace(c, fingerprints=fingerprints[k]) for k, c in cells.items()}
    if previous is None:
        return BenchmarkResult(
            cells, baseline=baseline, baseline_floor=baseline_floor, random_state=random_state
        )
    everything = {**previous.cells, **cells}
    datasets = dict.fromkeys([*previous.datasets, *(d for d, _ in cells)])
    models = dict.fromkeys([*previous.models, *(m for _, m in cells)])
    return BenchmarkResult(
        {(d, m): everything[d, m] for d in datasets for m in models},
        baseline=baseline if baseline is not None else previous.baseline,
        baseline_floor=baseline_floor if baseline is not None else previous.baseline_floor,
        random_state=random_state,
    )
