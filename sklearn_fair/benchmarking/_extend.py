"""benchmark(..., previous=result): add models or data sets to a finished benchmark.

Only the cells ``previous`` lacks are computed, and they must be those the whole benchmark run
at once would give. So, before any fit: the seed is the previous one, every new cell has the
model and the data it needs, and a model or data set already in ``previous`` is the same one
(by the fingerprints each cell records), and the benchmark-wide settings are the previous
ones (each cell records a fingerprint of each of them, :data:`PROTOCOL`), as are scikit-learn's
global settings that change results (``transform_output``...: each cell records them too);
after planning, the new cells of a data set in ``previous`` have its outer splits and its
metric.
"""

import dataclasses
import itertools
import warnings

import numpy as np

from ..exceptions import NoSplitsError, ReproducibilityWarning, UncheckedResultWarning
from ..metrics._names import describe_metric, same_metric
from ..model_selection import NestedCV
from ..model_selection._engine import sklearn_config
from ..report import BenchmarkResult
from ..stats._checks import check_same_splits
from ..utils import UnhashableError, describe, digest, fingerprint, package_versions
from ..utils._stacklevel import external_stacklevel

# NestedCV parameters that cannot change a cell's result (its outer splits are checked apart)
_NOT_FINGERPRINTED = (
    "outer_cv", "n_jobs", "verbose", "cache_dir", "reuse_prefix", "keep_predictions",
)  # fmt: skip
# ... those that model fingerprints made before covered, bools: a model recorded then is the
# one given now if one of their values gives its fingerprint
_FORMERLY_FINGERPRINTED = ("reuse_prefix", "keep_predictions")

# the packages whose versions can change a cell's numbers (a saved result records them)
_KEY_PACKAGES = ("sklearn-fair", "scikit-learn", "numpy", "scipy")

#: benchmark's own settings that change the cells of the models that are not a NestedCV (and
#: some of a NestedCV's): a new model's cells must run under the previous ones. Not there: the
#: outer_cv and the random_state (checked apart), and what changes no result (reuse_prefix,
#: n_jobs, cache_dir, verbose, keep_predictions).
PROTOCOL = ("inner_cv", "n_refits", "scoring", "refit", "fit_timeout", "error_score", "select")

# a cell's fingerprints name each setting of PROTOCOL with this prefix
_PROTOCOL_KEY = "protocol."
# ... and each of scikit-learn's global settings that change results with this one
_SKLEARN_KEY = "sklearn."


def _digest(value):
    try:
        return digest(describe(value))
    except UnhashableError:
        return None


def model_fingerprint(nested):
    """The digest of what a model's cells depend on (its NestedCV's parameters), or None."""
    params = nested.get_params(deep=False)
    return _digest({k: v for k, v in params.items() if k not in _NOT_FINGERPRINTED})


def former_model_fingerprints(nested):
    """The digests :func:`model_fingerprint` gave ``nested`` before it left out
    :data:`_FORMERLY_FINGERPRINTED`, under each of their values (a saved result records them)."""
    params = nested.get_params(deep=False)
    kept = {k: v for k, v in params.items() if k not in _NOT_FINGERPRINTED}
    digests = set()
    for values in itertools.product((False, True), repeat=len(_FORMERLY_FINGERPRINTED)):
        former = {**params, **dict(zip(_FORMERLY_FINGERPRINTED, values))}
        # in get_params' order, as the digests were made
        digests.add(_digest({k: former[k] for k in params
                             if k in kept or k in _FORMERLY_FINGERPRINTED}))  # fmt: skip
    return digests - {None}


def protocol_fingerprints(settings):
    """What each cell records of benchmark's ``settings`` (name -> value): ``"protocol.<name>"``
    -> the digest of each setting of :data:`PROTOCOL` (None: it cannot be described)."""
    return {_PROTOCOL_KEY + key: _digest(settings[key]) for key in PROTOCOL}


def sklearn_fingerprints(*, defaults=False):
    """What each cell records of scikit-learn's global settings that change results (those
    the cache keys hold, :func:`~sklearn_fair.model_selection._nested._cache_key.sklearn_config`):
    ``"sklearn.<name>"`` -> the ``repr`` of its value now (of its default where ``defaults``)."""
    config = sklearn_config(defaults=defaults)
    return {_SKLEARN_KEY + name: repr(value) for name, value in config.items()}


def data_fingerprint(X, y, groups):
    # each part on its own: a list whose first item is a GraphCollection (it has a .y) would
    # be read as a list of graphs
    return fingerprint([fingerprint(X), fingerprint(y), fingerprint(groups)])


def _recorded(previous, what, name):
    """The fingerprints the cells of ``previous`` record for model or data set ``name``."""
    index = 1 if what == "model" else 0
    return {c.fingerprints.get(what) for k, c in previous.cells.items() if k[index] == name}


def _previous_seed(previous, models):
    """``(seed, seeds)``: the one seed the cells of ``previous`` ran with (None: they do not
    say one), and every seed they record, but those of the models given again as a NestedCV
    with a random_state of its own (which keeps it)."""
    own = {name for name, spec in models.items()
           if isinstance(spec, NestedCV) and spec.random_state is not None}  # fmt: skip
    seeds = {c.random_state for (_, m), c in previous.cells.items() if m not in own}
    if len(seeds) == 1 and None not in seeds:
        return next(iter(seeds)), seeds
    # a model of its own seed not given again: the result says which seed is the benchmark's
    if previous.random_state is not None and previous.random_state in seeds:
        return previous.random_state, seeds
    return None, seeds


def check_previous(previous, models, datasets, random_state):
    """``(random_state, cells to compute)``: the checks that need no data, before any fit.
    The seed is the one the cells of ``previous`` ran with (a result made by hand from cells
    may not say it)."""
    if not isinstance(previous, BenchmarkResult):
        raise TypeError(
            "The 'previous' parameter of benchmark must be a BenchmarkResult (from benchmark or "
            f"BenchmarkResult.load). Got {type(previous).__name__} instead."
        )
    ran, seeds = _previous_seed(previous, models)
    shown = ", ".join(map(repr, sorted(seeds, key=repr)))
    if random_state is None and ran is None:
        raise ValueError(
            "The 'random_state' parameter of benchmark is None, and the cells of the 'previous' "
            f"benchmark do not record one seed (they record {shown}): new cells must share "
            "their seeds. Pass the random_state the previous benchmark ran with."
        )
    if random_state is None:
        random_state = ran
    elif (ran is not None and random_state != ran) or (ran is None and random_state not in seeds
                                                       and seeds != {None}):  # fmt: skip
        raise ValueError(
            f"The 'random_state' parameter of benchmark is {random_state!r}, but the 'previous' "
            f"benchmark's cells ran with {ran if ran is not None else shown}: new cells must "
            "share its seeds. Pass that random_state, or None."
        )
    _warn_other_versions(previous)
    _check_sklearn_config(previous)
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


def _warn_other_versions(previous):
    """A ReproducibilityWarning where cells of ``previous`` record other versions of the
    packages that compute the numbers than this run's (a file saved elsewhere or earlier)."""
    now = package_versions()
    other = {}
    for cell in previous.cells.values():
        for name in _KEY_PACKAGES:
            then = cell.versions.get(name)
            if then is not None and then != now.get(name):
                other.setdefault(name, set()).add(then)
    if other:
        shown = "; ".join(
            f"{name} {', '.join(sorted(then))} where this run has {now.get(name)}"
            for name, then in other.items()
        )
        warnings.warn(
            f"The previous benchmark ran under other package versions ({shown}): its new "
            "cells may differ from those the whole benchmark run at once under one set of "
            "versions would give (each cell keeps its own versions, as a saved result and its "
            "reproducibility card say). Run the benchmark anew to compare under one.",
            ReproducibilityWarning,
            stacklevel=external_stacklevel(),
        )


def _check_sklearn_config(previous):
    """Refuse to extend ``previous`` where its cells record other values of scikit-learn's
    global settings that change results than this run's (:func:`sklearn_fingerprints`); warn
    where some record none (saved before sklearn-fair recorded them) and this run's are not
    the defaults, under which such a result most likely ran."""
    now, defaults = sklearn_fingerprints(), sklearn_fingerprints(defaults=True)
    recorded = [c.fingerprints for c in previous.cells.values()
                if any(key.startswith(_SKLEARN_KEY) for key in c.fingerprints)]  # fmt: skip
    differ = {}
    for key, value in now.items():
        values = {fingerprints[key] for fingerprints in recorded if key in fingerprints}
        if values - {value}:
            differ[key.removeprefix(_SKLEARN_KEY)] = sorted(values)
    if differ:
        shown = ", ".join(f"{name}={now[_SKLEARN_KEY + name]}" for name in differ)
        then = ", ".join(f"{name}={' or '.join(values)}" for name, values in differ.items())
        same = all(len(values) == 1 for values in differ.values())
        fix = (
            "Run it under the previous configuration (inside `with sklearn.config_context("
            f"{then}):`), or run the benchmark anew."
            if same  # a result merged by hand may record several: no one configuration fits
            else "Run the benchmark anew."
        )
        raise ValueError(
            f"benchmark(..., previous=...) runs under scikit-learn's {shown}, and the previous "
            f"benchmark's cells ran under {then}: its new cells would not be those of the whole "
            f"benchmark run at once. {fix}"
        )
    changed = {key: value for key, value in now.items() if value != defaults[key]}
    if len(recorded) < len(previous.cells) and changed:
        shown = ", ".join(f"{key.removeprefix(_SKLEARN_KEY)}={v}" for key, v in changed.items())
        warnings.warn(
            "The previous benchmark does not record scikit-learn's global configuration it ran "
            "under (it was saved before sklearn-fair recorded it, or made by "
            f"BenchmarkResult.from_results), and this run has {shown}: its new cells cannot be "
            "checked to run under the previous configuration. Run it under the configuration "
            "the previous benchmark ran under (scikit-learn's defaults, unless you set others), "
            "or run the benchmark anew.",
            UncheckedResultWarning,
            stacklevel=external_stacklevel(),
        )


def recorded_sizes(previous):
    """Data set of ``previous`` -> the rows its cells' recorded outer splits reach (the
    largest index + 1: its size when the splits use every row, as a k-fold's do, else at
    most it); data sets without recorded splits are left out."""
    sizes = {}
    for (dataset, _), cell in previous.cells.items():
        if cell.has_splits:
            indices = [*cell.train_indices, *cell.test_indices]
            reach = 1 + max(int(np.max(part, initial=-1)) for part in indices)
            sizes[dataset] = max(sizes.get(dataset, 0), reach)
    return sizes


def _why_model_differs(previous, name, nested, protocol, settings):
    """What differs between model ``name`` and the one its previous cells ran, in words, or "":
    its NestedCV's parameters where the previous cells hold their NestedCV (not loaded from a
    file), else benchmark's ``settings`` whose ``protocol`` fingerprints differ."""
    ran = next((c.estimator for (_, m), c in previous.cells.items() if m == name), None)
    if hasattr(ran, "get_params") and nested is not None:
        old, new = ran.get_params(deep=False), nested.get_params(deep=False)
        shown = [
            f"{key}={new[key]!r:.80} where the previous run had {old.get(key)!r:.80}"
            for key in new
            if key not in _NOT_FINGERPRINTED
            and (_digest(new[key]) is None or _digest(new[key]) != _digest(old.get(key)))
        ]
        return f"its NestedCV's {'; '.join(shown)}" if shown else ""
    recorded = [c.fingerprints for (_, m), c in previous.cells.items() if m == name]
    keys = _protocol_differences(recorded, protocol)[0] if protocol is not None else []
    # only the settings the model takes (a NestedCV keeps its own inner_cv, n_refits...)
    params = nested.get_params(deep=False) if nested is not None else {}
    keys = [k for k in keys if k in params and _digest(params[k]) == protocol[_PROTOCOL_KEY + k]]
    if not keys:
        return ""
    shown = ", ".join(f"{key}={settings[key]!r:.80}" for key in keys)
    return f"benchmark's {shown}, where the previous run had other values"


def check_same(previous, what, name, value, *, nested=None, protocol=None, settings=None,
               former=()):  # fmt: skip
    """Refuse a model (its NestedCV ``nested``) or data set of ``previous`` given again other
    than it was, naming what differs where it is known (:func:`_why_model_differs`); a
    model's cells may record a fingerprint made the former way
    (:func:`former_model_fingerprints`), a data set's one of ``former``."""
    if previous is None or name not in (previous.models if what == "model" else previous.datasets):
        return
    recorded = _recorded(previous, what, name)
    accepted = {value, *former}
    if what == "model" and nested is not None and value is not None:
        accepted |= former_model_fingerprints(nested)
    if None in recorded or value is None or not recorded <= accepted:
        if None not in recorded and value is not None:
            why = ""
            if what == "model":
                why = _why_model_differs(previous, name, nested, protocol, settings)
            reason = "is not the one the previous benchmark ran" + (f" ({why})" if why else "")
        else:
            reason = "cannot be checked to be the one the previous benchmark ran (no fingerprint)"
        raise ValueError(
            f"The {what} {name!r} given to benchmark {reason}, so its new cells would not be "
            f"comparable with its previous ones; give it a new name, or run the benchmark anew."
        )


def check_protocol(previous, protocol, settings):
    """Refuse benchmark's ``settings`` (name -> value) other than those ``previous`` ran with
    (by the ``protocol`` fingerprints of :func:`protocol_fingerprints`, which its cells record);
    warn where its cells do not record theirs (a benchmark saved before sklearn-fair did)."""
    if previous is None:
        return
    cells = previous.cells.values()
    recorded = [c.fingerprints for c in cells if any(map(_is_protocol, c.fingerprints))]
    if len(recorded) < len(previous.cells):
        warnings.warn(
            "The previous benchmark does not record the settings it ran with (it was saved "
            "before sklearn-fair recorded them, or made by BenchmarkResult.from_results), so "
            "the new cells cannot be checked to run under "
            f"its {', '.join(PROTOCOL)}: pass those it ran with, or run the benchmark anew.",
            UncheckedResultWarning,
            stacklevel=external_stacklevel(),
        )
    differ, unknown = _protocol_differences(recorded, protocol)
    if differ:
        shown = ", ".join(f"{key}={settings[key]!r:.80}" for key in differ)
        raise ValueError(
            f"benchmark(..., previous=...) runs with {shown}, and the previous benchmark ran "
            f"with other {', '.join(repr(key) for key in differ)}: its new cells would not be "
            "those of the whole benchmark run at once. Pass the settings the previous benchmark "
            "ran with, or run the benchmark anew."
        )
    if unknown:
        raise ValueError(
            f"The {', '.join(repr(key) for key in unknown)} of benchmark cannot be checked to be "
            "those the previous benchmark ran with (no fingerprint: a value whose content cannot "
            "be described), so its new cells would not be comparable with its previous ones; "
            "pass a value that can (an int, a seeded splitter), or run the benchmark anew."
        )


def _is_protocol(key):
    return key.startswith(_PROTOCOL_KEY)


def _protocol_differences(recorded, protocol):
    """``(differ, unknown)``: the settings of :data:`PROTOCOL` whose fingerprint differs from a
    ``recorded`` cell's, and those without one on either side (none that no cell records)."""
    differ, unknown = [], []
    for key in PROTOCOL:
        values = {fingerprints[_PROTOCOL_KEY + key] for fingerprints in recorded
                  if _PROTOCOL_KEY + key in fingerprints}  # fmt: skip
        value = protocol[_PROTOCOL_KEY + key]
        if values and (value is None or None in values):
            unknown.append(key)
        elif values and values != {value}:
            differ.append(key)
    return differ, unknown


def check_previous_plans(previous, dataset, plans, outer_cv=None):
    """The new cells of a data set of ``previous`` have its outer splits (by the rule of every
    paired comparison, :func:`~sklearn_fair.stats._checks.check_same_splits`) and its metric;
    those of a new data set as many outer folds as the previous ones (one ``outer_cv`` for
    every data set, as a run at once has it), unless ``outer_cv`` is a dict of each's."""
    if previous is None or not plans:
        return
    if dataset not in previous.datasets:
        counts = {len(cell.scores) for cell in previous.cells.values()}
        count = len(next(iter(plans.values())).outer_splits)
        if not isinstance(outer_cv, dict) and len(counts) == 1 and counts != {count}:
            raise ValueError(
                f"benchmark(..., previous=...) would split the new data set {dataset!r} into "
                f"{count} outer folds (outer_cv={outer_cv!r:.80}), and the previous benchmark "
                f"split every data set into {counts.pop()}: the estimates pooled across the "
                "data sets would be of other training sizes. Pass the previous benchmark's "
                "outer_cv, or a dict giving each data set its own."
            )
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
        # by what it computes too, as a run at once compares them: two "perf" keys of f1 and
        # recall print alike
        if metric is not None and not same_metric([old.metric, metric]):
            # named alike, they are told apart by what computes them
            shown = describe_metric if metric.name == old.metric.name else str
            raise ValueError(
                f"On data set {dataset!r}, model {model!r} would be scored with "
                f"{shown(metric)} and the previous benchmark's models with "
                f"{shown(old.metric)}; pass the same scoring."
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
    if baseline is None:  # the previous baseline, a floor if it was one or is declared one now
        baseline, baseline_floor = previous.baseline, baseline_floor or previous.baseline_floor
    return BenchmarkResult(
        {(d, m): everything[d, m] for d in datasets for m in models},
        baseline=baseline,
        baseline_floor=baseline_floor,
        random_state=random_state,
    )
