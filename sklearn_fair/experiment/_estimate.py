"""An estimate of an experiment's compute, measured by timing a few short fits.

A few candidates of a model are fitted once each on a small sample of the data (estimators
trained for epochs run only ``epochs`` of them), and the time per sample (and per epoch) is
extrapolated to every fit of the plan: its training size and its candidate's ``max_epochs``.
No fit stops early in this count, so for estimators with early stopping it is an upper
bound. Nothing of these timing fits is kept.
"""

import os
import sys
import time
from dataclasses import dataclass

import numpy as np
from sklearn.base import is_classifier
from sklearn.model_selection import train_test_split
from sklearn.utils import _safe_indexing

from ._plan import candidate_estimator

__all__ = ["Estimate", "estimate_compute", "format_seconds"]


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


def _epoch_keys(estimator):
    return [k for k in estimator.get_params(deep=True) if k.split("__")[-1] == "max_epochs"]


def _max_epochs(estimator):
    keys = _epoch_keys(estimator)
    return int(estimator.get_params(deep=True)[keys[0]]) if keys else None


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
    devices = {
        v for k, v in estimator.get_params(deep=True).items() if k.split("__")[-1] == "device"
    }
    if devices:
        parts.append(f"device {', '.join(map(str, sorted(devices, key=str)))}")
    return ", ".join(parts)


def _work(plan, epochs, n_samples):
    """``(fits, sample-epochs of training, predictions, samples predicted)`` over every fit of
    the plan (the most refits it can need)."""
    mean_epochs = float(np.mean(epochs))
    n_candidates = len(epochs)
    fits = train = predicts = predict = 0.0
    for inner in [*plan.inner, *([plan.final_inner] if plan.final_inner is not None else [])]:
        for n_train, n_valid in inner:
            fits += n_candidates
            train += n_train * float(np.sum(epochs))
            predicts += n_candidates
            predict += n_valid * n_candidates
    for n_train, n_test in plan.outer:
        fits += plan.n_refits
        train += plan.n_refits * n_train * mean_epochs
        predicts += plan.n_refits
        predict += plan.n_refits * n_test
    if plan.final_inner is not None:
        fits += 1
        train += n_samples * mean_epochs
    return fits, train, predicts, predict


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


def _best_of(repeats, call):
    best = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best


def _warm_up(spec, candidate, data, classifier, random_state, plan=None):
    """One untimed fit of 1 epoch on a few samples, so that first-call costs (imports,
    caches) are not taken for the cost of a fit."""
    sample = _sample(data, 16, classifier, random_state)
    X, y = _safe_indexing(data.X, sample), np.asarray(data.y)[sample]
    estimator = candidate_estimator(spec, candidate, plan)
    keys = _epoch_keys(estimator)
    if keys:
        estimator.set_params(**{k: 1 for k in keys})
    try:
        estimator.fit(X, y)
    except Exception:  # the timed fit reports it
        pass


def estimate_compute(
    spec,
    plan,
    data,
    *,
    n_timed=3,
    sample_size=128,
    epochs=2,
    budget=60.0,
    fit_budget=0.5,
    random_state=0,
):
    """Time a few short fits of ``spec`` and extrapolate them to ``plan``.

    Parameters
    ----------
    spec : ModelSpec
        The model.
    plan : ModelPlan
        Its fits (with sizes: the data must be available).
    data : Data
        The data.
    n_timed : int, default=3
        Candidates timed (spread over the grid).
    sample_size : int, default=128
        Samples of the first timing fit of each candidate; the next fits take four times
        as many, up to the plan's largest training size, until one takes ``fit_budget``.
    epochs : int, default=2
        Epochs of each timing fit, for estimators with ``max_epochs``.
    budget : float, default=60.0
        Seconds after which no further candidate is timed (at least one is).
    fit_budget : float, default=0.5
        Seconds of a timing fit after which the sample grows no more.
    random_state : int, default=0
        Seed of the sample.

    Returns
    -------
    estimate : Estimate
    """
    candidates = plan.candidates
    spread = np.linspace(0, len(candidates) - 1, min(n_timed, len(candidates)))
    chosen = sorted(set(spread.round().astype(int).tolist()))
    full_epochs = [_max_epochs(candidate_estimator(spec, c, plan)) or 1 for c in candidates]
    classifier = is_classifier(spec.estimator)
    # the largest fit of the plan: timing fits grow towards it, so that the extrapolation is
    # short (a cost measured on 128 rows says little about 3000: fixed costs and noise)
    largest = max([n for n, _ in plan.outer if n] + [data.n_samples if plan.final_fits else 0])
    largest = max(min(largest or data.n_samples, data.n_samples), 1)
    _warm_up(spec, candidates[chosen[0]], data, classifier, random_state, plan)
    fit_costs, predict_costs, epoch_based, timed_sizes = [], [], False, []
    started = time.perf_counter()
    for index in chosen:
        if fit_costs and time.perf_counter() - started > budget:
            break
        keys = _epoch_keys(candidate_estimator(spec, candidates[index], plan))
        used = min(epochs, full_epochs[index]) if keys else 1
        epoch_based = epoch_based or bool(keys)
        sizes, fit_seconds, predict_seconds = [0], [0.0], [0.0]
        size = min(sample_size, largest)
        while True:
            rows = _sample(data, size, classifier, random_state)
            # a task takes its rows, fits, then scores with the run's scorers: all timed
            indexing = _best_of(
                3, lambda r=rows: (_safe_indexing(data.X, r), _safe_indexing(data.y, r))
            )
            X, y = _safe_indexing(data.X, rows), np.asarray(data.y)[rows]
            estimator = candidate_estimator(spec, candidates[index], plan)
            if keys:
                estimator.set_params(**{k: used for k in keys})
            try:
                repeats = 1 if keys or (fit_seconds[-1] > 0.05) else 3
                seconds = _best_of(repeats, lambda e=estimator, X=X, y=y: e.fit(X, y))
            except Exception as error:  # a timing fit that fails tells the user before the run
                return Estimate(
                    None,
                    None,
                    None,
                    f"the timing fit of candidate {index} ({candidates[index]!r}) failed: "
                    f"{type(error).__name__}: {error}",
                )
            sizes.append(len(rows))
            fit_seconds.append(seconds + indexing)
            predict_seconds.append(_best_of(3, lambda e=estimator, X=X, y=y: _score(plan, e, X, y)))
            if len(rows) >= largest or seconds > fit_budget:
                break
            size = min(4 * len(rows), largest)
        timed_sizes.append(sizes[-1])
        # the last two sizes: a fixed part per fit and a part per row (per sample-epoch)
        fit_costs.append(_affine([n * used for n in sizes[-2:]], fit_seconds[-2:]))
        predict_costs.append(_affine(sizes[-2:], predict_seconds[-2:]))
    fits, train, predicts, predict = _work(plan, full_epochs, data.n_samples)
    predict_fixed = float(np.mean([fixed for fixed, _ in predict_costs]))
    predict_unit = float(np.mean([unit for _, unit in predict_costs]))
    totals = [
        fits * fixed + train * unit + predicts * predict_fixed + predict * predict_unit
        for fixed, unit in fit_costs
    ]
    per = "sample-epoch" if epoch_based else "training sample"
    units = [unit for _, unit in fit_costs]
    fixed = float(np.mean([fixed for fixed, _ in fit_costs]))
    basis = (
        f"timed {len(fit_costs)} of {len(candidates)} candidates, each fitted on growing "
        f"samples of up to {max(timed_sizes)} rows"
        + (f" for {epochs} epochs (max_epochs lowered)" if per == "sample-epoch" else "")
        + f", on this machine ({_machine(spec.estimator)}): {fixed:.3g} s per fit and "
        f"{np.mean(units):.3g} s per {per} (range {min(units):.3g}-{max(units):.3g}), from "
        f"the two largest samples; extrapolated to the {int(fits)} fits at their training "
        "sizes"
        + (
            " and their candidate's max_epochs, as if no fit stopped early (early stopping "
            "usually ends fits sooner: an upper bound)"
            if per == "sample-epoch"
            else " (fit times that grow faster than the sample size make it an underestimate)"
        )
    )
    return Estimate(float(np.mean(totals)), min(totals), max(totals), basis)
