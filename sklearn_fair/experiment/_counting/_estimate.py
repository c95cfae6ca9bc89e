"""An estimate of an experiment's compute, measured by timing a few short fits.

A few candidates are fitted as a task of the run does it (its rows taken by ``take``, a
fresh copy with the candidate set, the fit, the run's scorers), on samples growing towards
the plan's largest training size (``epochs`` of them for estimators trained for epochs), at
least two sizes each; a fixed cost and a cost per sample (or sample-epoch) from the two
largest sizes are extrapolated to every fit of the plan, as if none stopped early. For an
estimator trained for epochs the fixed cost is counted per epoch (divided by ``epochs``,
times the fit's ``max_epochs``): a part of each epoch does not grow with the rows
(validation, callbacks, a fixed number of batches): counted once per fit, it put a model
whose epochs cost the same on 100 rows as on 500 at 2 epochs' cost per fit whatever its
``max_epochs``. A one-off set-up is counted per epoch too: the estimate is an upper bound,
with early stopping or without. A short fit is timed several times and the *mean* kept, not the
best: a run pays every fit on the machine as it is, and on two shared cores Ridge's best fit
took a fifth of its mean (the estimate came out at 0.4 of the run). At least two sizes,
growing: HistGradientBoosting's 300 trees cost as much on 128 rows as on 512, and timed on
128 rows only its estimate came out at 2.6 times the run. The planning, which the run
repeats, is counted at the time the dry run's took.
"""

import os
import sys
import time
from contextlib import suppress
from dataclasses import dataclass

import numpy as np
from sklearn.base import is_classifier
from sklearn.model_selection import train_test_split

from ...model_selection._engine import take
from ._plan import candidate_estimator

__all__ = ["Estimate", "estimate_compute", "format_seconds"]

#: A timing fit shorter than this (seconds) is repeated: one timing of a few milliseconds on
#: a busy machine is mostly the scheduler's noise, and five of them cost a quarter second.
SHORT_FIT = 0.05


@dataclass
class Estimate:
    """Estimated compute of one model, in seconds of one worker.

    Attributes
    ----------
    seconds, low, high : float or None
        The estimate from the mean cost of the timed candidates, and from the cheapest and
        the dearest; None when no timing fit succeeded.
    basis : str
        What the estimate rests on.
    """

    seconds: object
    low: object
    high: object
    basis: str


def format_seconds(seconds):
    """``"42 s"``, ``"3.5 min"``, ``"12 h"`` or ``"3.2 days"``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.1f} min"
    if seconds < 3 * 86400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def _named(estimator, name):
    """``{key: value}`` of the parameters ``name`` of ``estimator`` and its parts."""
    params = estimator.get_params(deep=True).items()
    return {key: value for key, value in params if key.split("__")[-1] == name}


def _sample(data, size, classifier, random_state):
    indices = np.arange(data.n_samples)
    if size >= data.n_samples:
        return indices
    stratify = np.asarray(data.y) if classifier else None
    try:
        sample, _ = train_test_split(
            indices, train_size=size, stratify=stratify, random_state=random_state
        )
    except ValueError:  # a class too small to stratify
        sample, _ = train_test_split(indices, train_size=size, random_state=random_state)
    return np.sort(sample)


def _machine(estimator):
    parts = [f"{os.cpu_count()} CPUs"]
    if "torch" in sys.modules:
        parts.append(f"torch threads {sys.modules['torch'].get_num_threads()}")
    devices = set(_named(estimator, "device").values())
    if devices:
        parts.append(f"device {', '.join(map(str, sorted(devices, key=str)))}")
    return ", ".join(parts)


def _work(plan, epochs, cached=None):
    """``(per_candidate, shared)`` work of the plan's selection fits per candidate and of its
    refits (the most it can need), each ``[fit-epochs, sample-epochs, scorings, samples
    scored]`` (one epoch a fit for an estimator not trained for epochs); less the fits that
    ``cached`` (a CachedFits) finds in the task cache."""
    inner = np.array([split for splits in plan.inner for split in splits], float).reshape(-1, 2)
    n_inner, (train, valid) = len(inner), inner.sum(axis=0)
    n_refits = plan.n_refits * len(plan.outer)
    refit_train, refit_test = plan.n_refits * np.array(plan.outer, float).sum(axis=0)
    per_candidate = np.array(
        [[n_inner * n_epochs, train * n_epochs, n_inner, valid] for n_epochs in epochs], float
    ).reshape(-1, 4)
    mean_epochs = np.mean(epochs)
    shared = np.array(
        [n_refits * mean_epochs, refit_train * mean_epochs, n_refits, refit_test], float
    )
    if cached is not None:
        for fold, candidate, split in cached.selection:
            fit_rows, scored_rows = plan.inner[fold][split]
            n_epochs = epochs[candidate]
            per_candidate[candidate] -= [n_epochs, fit_rows * n_epochs, 1, scored_rows]
        for fold, _ in cached.refits:
            fit_rows, scored_rows = plan.outer[fold]
            shared -= [mean_epochs, fit_rows * mean_epochs, 1, scored_rows]
    return list(per_candidate), shared


def _not_found(cached):
    """How an estimate's basis names the fits it is extrapolated to, where ``cached`` (a
    CachedFits, or None) found some in the task cache: those not there, and the refits cached
    for some of the candidates their fold may select (which one it selects is not known
    before the run)."""
    if cached is None or not (cached.n_fits or cached.maybe_refits):
        return ""
    maybe = cached.maybe_refits
    return " not in the task cache" + (
        f" or that the dry run cannot confirm are cached ({maybe} refits, each cached for "
        "some of the candidates its fold may select, not all)"
        if maybe
        else ""
    )


def _affine(sizes, seconds):
    """``(fixed, per_unit)`` seconds of a cost measured at two sizes (both >= 0)."""
    (n1, t1), (n2, t2) = sorted(zip(sizes, seconds))
    if n2 <= n1:
        return 0.0, t2 / n2
    per_unit = max(0.0, (t2 - t1) / (n2 - n1))
    return max(0.0, t2 - per_unit * n2), per_unit


def _score(plan, estimator, X, y):
    """What a task does after its fit: every scorer of the run (else ``predict``)."""
    if plan.scorers:
        for scorer in plan.scorers.values():
            scorer(estimator, X, y)
    elif hasattr(estimator, "predict"):
        estimator.predict(X)


def _mean_of(repeats, call):
    """Mean seconds of ``repeats`` calls (the mean, not the best: see the module docstring)."""
    total = 0.0
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        total += time.perf_counter() - start
    return total / repeats


def _timed_task(spec, candidate, plan, data, rows, epoch_keys, epochs):
    """A task of the run before its scoring, as a call; and the fitted model once it ran."""
    fitted = []

    def task():
        X, y = take(data.X, rows), take(data.y, rows)
        estimator = candidate_estimator(spec, candidate, plan)
        estimator.set_params(**dict.fromkeys(epoch_keys, epochs))
        # an estimator whose random_state is left unset draws from numpy's global stream:
        # a dry run must not move the user's (np.random.seed(0) before it, after it)
        state = np.random.get_state()
        try:
            estimator.fit(X, y)
        finally:
            np.random.set_state(state)
        fitted[:] = [estimator]

    return task, fitted


def estimate_compute(
    spec,
    plan,
    data,
    *,
    n_timed=3,
    sample_size=128,
    epochs=2,
    budget=60.0,
    n_repeats=5,
    random_state=0,
    cached=None,
):
    """The :class:`Estimate` of ``plan`` from a few short fits of ``spec`` on ``data``.

    ``n_timed`` candidates (spread over the grid) are timed, each on ``sample_size`` rows,
    then four times as many up to the largest training size while the next fit (at the last
    one's cost per row) fits in its share of ``budget`` seconds (a quarter of the size is
    timed too when only one was); no further candidate once ``budget`` is spent. A fit
    shorter than ``SHORT_FIT`` is repeated ``n_repeats`` times; ``random_state`` seeds the
    samples. The fits that ``cached`` (a CachedFits) finds in the task cache are left out.
    """
    if plan.whole_search:
        return Estimate(None, None, None, "a search that runs whole decides its own fits")
    if cached is not None and cached.n_fits == plan.total_fits:
        seconds = plan.planning_seconds
        return Estimate(seconds, seconds, seconds, "every fit is in the task cache; planning")
    candidates = plan.candidates
    spread = np.linspace(0, len(candidates) - 1, min(n_timed, len(candidates)))
    chosen = sorted(set(spread.round().astype(int).tolist()))
    epoch_keys = [_named(candidate_estimator(spec, c, plan), "max_epochs") for c in candidates]
    full_epochs = [int(next(iter(keys.values()), 1)) or 1 for keys in epoch_keys]
    classifier = is_classifier(spec.estimator)
    # the largest fit of the plan: timing fits grow towards it, so that the extrapolation is
    # short (a cost measured on 128 rows says little about 3000: fixed costs and noise)
    largest = max(min(max(n for n, _ in plan.outer), data.n_samples), 1)
    rows, first = _sample(data, 16, classifier, random_state), chosen[0]
    warm_up, _ = _timed_task(spec, candidates[first], plan, data, rows, epoch_keys[first], 1)
    # one untimed fit, for first-call costs (imports, caches); the timed fits report errors
    with suppress(Exception):
        warm_up()
    costs, epoch_based, timed_sizes = {}, False, []
    started = time.perf_counter()
    for index in chosen:
        if costs and time.perf_counter() - started > budget:
            break
        keys = epoch_keys[index]
        used = min(epochs, full_epochs[index]) if keys else 1
        epoch_based = epoch_based or bool(keys)

        def timed(size, index=index, keys=keys, used=used):
            rows = _sample(data, size, classifier, random_state)
            task, fitted = _timed_task(spec, candidates[index], plan, data, rows, keys, used)
            start = time.perf_counter()
            task()
            seconds = time.perf_counter() - start
            repeats = n_repeats if not keys and seconds < SHORT_FIT else 1
            if repeats > 1:  # the first fit counts too: its model was fitted once, as a run's
                seconds = (seconds + (repeats - 1) * _mean_of(repeats - 1, task)) / repeats
            X, y = take(data.X, rows), take(data.y, rows)
            scoring = _mean_of(repeats, lambda e=fitted[0]: _score(plan, e, X, y))
            return len(rows), seconds, scoring

        timings = []  # (rows, fit seconds, scoring seconds)
        size = min(sample_size, largest)
        # the candidate's share of the budget: the sample grows while the next fit (at the
        # last one's cost per row, an upper bound for a cost with a fixed part) fits in it
        share, begun = budget / len(chosen), time.perf_counter()
        try:
            while True:
                timings.append(timed(size))
                n, seconds, _ = timings[-1]
                following = min(4 * n, largest)
                spent = time.perf_counter() - begun
                if n >= largest or spent + seconds * following / n > share:
                    break
                size = following
        except Exception as error:  # a timing fit that fails tells the user before the run
            return Estimate(
                None,
                None,
                None,
                f"the timing fit of candidate {index} ({candidates[index]!r}) failed: "
                f"{type(error).__name__}: {error}",
            )
        if len(timings) == 1 and timings[0][0] >= 8:
            # a second, smaller sample, so that a fixed cost per fit is not taken for a cost
            # per row (HistGradientBoosting's 300 trees cost the same on 128 rows as on 32)
            try:
                timings.insert(0, timed(timings[0][0] // 4))
            except Exception:  # too few rows to fit: the one size alone, as if no fixed cost
                timings.insert(0, (0, 0.0, 0.0))
        timed_sizes.append(timings[-1][0])
        # the two largest sizes: a fixed part per fit-epoch and a part per row (sample-epoch)
        (n1, fit1, score1), (n2, fit2, score2) = timings[-2:]
        per_fit, per_unit = _affine([n1 * used, n2 * used], [fit1, fit2])
        costs[index] = (per_fit / used, per_unit, *_affine([n1, n2], [score1, score2]))
    per_candidate, shared = _work(plan, full_epochs, cached)
    mean_cost = np.mean(list(costs.values()), axis=0)
    planning = plan.planning_seconds
    # each timed candidate's selection fits at its own cost, the others' at the mean; the
    # refits' winner is not known: the mean
    seconds = planning + float(np.dot(mean_cost, shared))
    for index, work in enumerate(per_candidate):
        seconds += float(np.dot(costs.get(index, mean_cost), work))
    whole = np.sum([*per_candidate, shared], axis=0)  # whole[2]: the fits, each scored once
    totals = [planning + float(np.dot(cost, whole)) for cost in costs.values()]
    per = "sample-epoch" if epoch_based else "training sample"
    units = [cost[1] for cost in costs.values()]
    fixed = float(mean_cost[0])
    basis = (
        f"timed {len(costs)} of {len(candidates)} candidates, each fitted on growing "
        f"samples of up to {max(timed_sizes)} rows"
        + (f" for {epochs} epochs (max_epochs lowered)" if per == "sample-epoch" else "")
        + f", on this machine as it is now ({_machine(spec.estimator)}; the mean of repeated "
        f"short fits): {fixed:.3g} s per {'epoch' if epoch_based else 'fit'} and "
        f"{np.mean(units):.3g} s per {per} (range "
        f"{min(units):.3g}-{max(units):.3g}), from the two largest samples, and "
        f"{planning:.3g} s of planning; extrapolated to the {int(whole[2])} fits"
        + _not_found(cached)
        + " at their training sizes"
        + (
            " and their candidate's max_epochs, as if no fit stopped early, the part that "
            "does not grow with the rows counted for every epoch (a one-off set-up too): "
            "an upper bound"
            if per == "sample-epoch"
            else " (fit times that grow faster than the sample size make it an underestimate)"
        )
    )
    return Estimate(seconds, min(seconds, *totals), max(seconds, *totals), basis)
