"""Coverage of sklearn-fair's intervals for the prediction error, measured by simulation.

Each setting is a problem (data from a known distribution), a model and a training size n.
One replication draws a training set of n rows, computes every interval, fits the model on
all n rows, and scores it on a fixed independent sample of 100,000 rows from the same
distribution. Over the replications we count how often each interval contains:

- ``Err_XY``: the error of the model fitted on the n rows at hand (its loss on the 100,000
  rows). This is what a user wants to know about the model they ship, and what Bates, Hastie
  & Tibshirani's nested CV interval targets;
- ``Err``: the expected error of the procedure trained on n rows, the mean of ``Err_XY``
  over the replications;
- ``Err_sub``: the expected error at the training size of the CV folds, n (K - 1) / K, the
  mean over replications of the loss of the model fitted on a random n (K - 1) / K of the
  rows. An interval around a mean of fold scores that is unbiased for anything is unbiased
  for this.

The intervals (all at 90% and 95%):

- ``t (fold scores)``: mean of the K fold losses -/+ t_{K-1} * sd / sqrt(K), the Student t
  interval that ``sklearn_fair.stats.summarize`` prints (computed here with scipy);
- ``normal (fold scores)``: the same with the normal quantile (summarize's former default);
- ``bootstrap (fold scores)``: ``sklearn_fair.stats.bootstrap_ci`` of the mean of the fold
  losses (percentile, its default; 2,000 resamples);
- ``NCV (Bates et al.)``: ``sklearn_fair.model_selection.nested_cv_interval``;
- ``naive pointwise (reference)``: Bates et al.'s naive CV interval, the CV estimate -/+ z *
  sd(pointwise losses) / sqrt(n). The library does not offer it; it is here to compare with
  the paper, where it undercovers.

For the regression problem the loss is the squared error, so the intervals are for the MSE;
``t (fold RMSE)`` is the t interval of the K fold RMSEs (what a user who scores folds by RMSE
gets), checked against sqrt(MSE_XY), and ``NCV sqrt`` is the NCV interval's square root
(same coverage as the MSE interval, the square root being increasing).

The fold scores are those of the first (here: only) repetition of the nested CV's outer
folds, an ordinary K-fold CV of the training set: every interval sees the same fits.

Cost. Nested CV with K folds and R repetitions takes R * K**2 fits per replication. The
default run uses K = 5 folds and R = 1 repetition (25 fits, +2 for the truth), far fewer
than the paper's K = 10 and R = 200; the NCV interval's coverage measured here is that of
this cheap configuration. Replications run in parallel (joblib, ``--n-jobs`` workers), and
within each, nested_cv_interval runs its fits on the task pool with n_jobs=1: a pool of
worker processes per replication costs more (~50 ms) than its 25 small fits.

Usage (from the repository root)::

    python benchmarks/bench_coverage.py             # 500 replications per setting
    python benchmarks/bench_coverage.py --quick     # 100 replications, a few minutes

The full run writes ``benchmarks/results/coverage.json`` (``--output`` to change it; the quick
run writes only when given ``--output``) and prints the tables of the user guide
(``--table benchmarks/results/coverage.json`` prints them again from the file).
"""

import argparse
import json
import math
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed
from scipy import stats
from sklearn.base import clone
from sklearn.linear_model import LinearRegression, LogisticRegression, RidgeCV
from sklearn.model_selection import GridSearchCV
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair.model_selection import nested_cv_interval
from sklearn_fair.stats import bootstrap_ci
from sklearn_fair.utils import package_versions

RESULTS = Path(__file__).resolve().parent / "results" / "coverage.json"
ROOT_SEED = 20240816
N_TRUTH = 100_000
N_FEATURES = 10
N_FOLDS = 5
N_REPETITIONS = 1
N_BOOTSTRAP = 2_000
LEVELS = (0.90, 0.95)
SIZES = (100, 500)


# -- the problems: a known distribution of (X, y) ----------------------------------------------


def linear_classification(rng, n):
    """Bates et al.'s low-dimensional logistic model: P(y=1|x) = sigmoid(2 x_1), 10 features."""
    X = rng.standard_normal((n, N_FEATURES))
    p = 1 / (1 + np.exp(-2.0 * X[:, 0]))
    return X, (rng.random(n) < p).astype(int)


def nonlinear_classification(rng, n):
    """A disc: P(y=1|x) = sigmoid(3 (x_1**2 + x_2**2 - 1.4)), 10 features, classes balanced."""
    X = rng.standard_normal((n, N_FEATURES))
    p = 1 / (1 + np.exp(-3.0 * (X[:, 0] ** 2 + X[:, 1] ** 2 - 1.4)))
    return X, (rng.random(n) < p).astype(int)


_BETA = np.array([1.0, 0.5, 0.25] + [0.0] * (N_FEATURES - 3))


def linear_regression(rng, n):
    """y = x . beta + N(0, 1) noise, beta = (1, 0.5, 0.25, 0, ...), 10 features."""
    X = rng.standard_normal((n, N_FEATURES))
    return X, X @ _BETA + rng.standard_normal(n)


PROBLEMS = {
    "linear classification": (linear_classification, "zero_one"),
    "non-linear classification": (nonlinear_classification, "zero_one"),
    "linear regression": (linear_regression, "squared_error"),
}

MODELS = {
    "logistic regression": lambda: LogisticRegression(),
    # a tuned model: the procedure is the search, which tunes itself inside every fit
    "tuned tree": lambda: GridSearchCV(
        DecisionTreeClassifier(random_state=0), {"max_depth": [2, 4]}, cv=2
    ),
    "OLS": lambda: LinearRegression(),
    "tuned ridge": lambda: RidgeCV(alphas=np.logspace(-2, 3, 6)),
}

MODEL_DESCRIPTIONS = {
    "logistic regression": "LogisticRegression() (C=1)",
    "tuned tree": "GridSearchCV(DecisionTreeClassifier(random_state=0), "
    "{'max_depth': [2, 4]}, cv=2)",
    "OLS": "LinearRegression()",
    "tuned ridge": "RidgeCV(alphas=logspace(-2, 3, 6)) (efficient leave-one-out over 6 penalties)",
}

SETTINGS = [
    (problem, model, n)
    for problem, models in (
        ("linear classification", ("logistic regression", "tuned tree")),
        ("non-linear classification", ("logistic regression", "tuned tree")),
        ("linear regression", ("OLS", "tuned ridge")),
    )
    for model in models
    for n in SIZES
]


def _loss(name, y_true, y_pred):
    if name == "zero_one":
        return np.mean(y_true != y_pred)
    return np.mean((y_true - y_pred) ** 2)


# -- one replication ---------------------------------------------------------------------------


def _t_interval(scores, level):
    k = len(scores)
    half = stats.t.ppf(0.5 + level / 2, k - 1) * np.std(scores, ddof=1) / math.sqrt(k)
    return float(np.mean(scores) - half), float(np.mean(scores) + half)


def _normal_interval(scores, level):
    half = stats.norm.ppf(0.5 + level / 2) * np.std(scores, ddof=1) / math.sqrt(len(scores))
    return float(np.mean(scores) - half), float(np.mean(scores) + half)


def replicate(problem, model, n, seed, X_truth, y_truth, n_folds, n_repetitions):
    """Every interval, and the truths, for one training set; a dict of plain numbers."""
    draw, loss = PROBLEMS[problem]
    data_seed, cv_seed, bootstrap_seed = np.random.SeedSequence(seed).spawn(3)
    rng = np.random.default_rng(data_seed)
    X, y = draw(rng, n)
    estimator = MODELS[model]()
    ncv = nested_cv_interval(
        estimator,
        X,
        y,
        loss=loss,
        n_folds=n_folds,
        n_repetitions=n_repetitions,
        n_jobs=1,
        random_state=np.random.default_rng(cv_seed),
    )
    folds = ncv.fold_losses[0]
    intervals = {}
    for level in LEVELS:
        z = stats.norm.ppf(0.5 + level / 2)
        key = f"{level:.2f}"
        boot = bootstrap_ci(
            folds,
            np.mean,
            n_resamples=N_BOOTSTRAP,
            confidence=level,
            random_state=np.random.default_rng(bootstrap_seed),
        )
        intervals.setdefault("t (fold scores)", {})[key] = _t_interval(folds, level)
        intervals.setdefault("normal (fold scores)", {})[key] = _normal_interval(folds, level)
        intervals.setdefault("bootstrap (fold scores)", {})[key] = (boot.low, boot.high)
        intervals.setdefault("NCV (Bates et al.)", {})[key] = (
            ncv.estimate - z * ncv.standard_error,
            ncv.estimate + z * ncv.standard_error,
        )
        intervals.setdefault("naive pointwise (reference)", {})[key] = (
            ncv.cv_estimate - z * ncv.cv_standard_error,
            ncv.cv_estimate + z * ncv.cv_standard_error,
        )
        if loss == "squared_error":
            intervals.setdefault("t (fold RMSE)", {})[key] = _t_interval(np.sqrt(folds), level)
            low, high = intervals["NCV (Bates et al.)"][key]
            intervals.setdefault("NCV sqrt", {})[key] = (
                math.sqrt(max(low, 0.0)),
                math.sqrt(high),
            )
    final = clone(estimator).fit(X, y)
    err_xy = _loss(loss, y_truth, final.predict(X_truth))
    subset = rng.permutation(n)[: n - n // n_folds]
    small = clone(estimator).fit(X[subset], y[subset])
    err_sub = _loss(loss, y_truth, small.predict(X_truth))
    return {
        "err_xy": float(err_xy),
        "err_sub": float(err_sub),
        "intervals": intervals,
        "ncv_clamped": ncv.clamped,
        "ncv_bias": ncv.bias,
        "ncv_estimate": ncv.estimate,
        "cv_estimate": ncv.cv_estimate,
    }


# -- summaries ---------------------------------------------------------------------------------


def _rate(hits):
    p = float(np.mean(hits))
    return {"coverage": p, "mc_se": math.sqrt(p * (1 - p) / len(hits))}


def summarise(rows):
    """Coverage of every interval for every target, and mean widths."""
    err_xy = np.array([r["err_xy"] for r in rows])
    err_sub = np.array([r["err_sub"] for r in rows])
    truths = {"Err_XY": err_xy, "Err": np.full_like(err_xy, err_xy.mean())}
    truths["Err_sub"] = np.full_like(err_xy, err_sub.mean())
    summary = {
        "truth": {
            "Err": float(err_xy.mean()),
            "Err_mc_se": float(err_xy.std(ddof=1) / math.sqrt(len(rows))),
            "Err_XY_sd": float(err_xy.std(ddof=1)),
            "Err_sub": float(err_sub.mean()),
            "Err_sub_mc_se": float(err_sub.std(ddof=1) / math.sqrt(len(rows))),
        },
        "mean_cv_estimate": float(np.mean([r["cv_estimate"] for r in rows])),
        "mean_ncv_estimate": float(np.mean([r["ncv_estimate"] for r in rows])),
        "mean_ncv_bias": float(np.mean([r["ncv_bias"] for r in rows])),
        "ncv_clamped": {
            side: float(np.mean([r["ncv_clamped"] == side for r in rows]))
            for side in ("lower", "none", "upper")
        },
        "intervals": {},
    }
    for name in rows[0]["intervals"]:
        entry = {}
        for key in rows[0]["intervals"][name]:
            bounds = np.array([r["intervals"][name][key] for r in rows])
            entry[key] = {"mean_width": float(np.mean(bounds[:, 1] - bounds[:, 0]))}
            for target, truth in truths.items():
                if "RMSE" in name or "sqrt" in name:
                    truth = np.sqrt(truth)
                hits = (bounds[:, 0] <= truth) & (truth <= bounds[:, 1])
                entry[key][target] = _rate(hits)
        summary["intervals"][name] = entry
    return summary


def _percent(rate):
    return f"{100 * rate['coverage']:.1f} ± {100 * rate['mc_se']:.1f}"


def table(results):
    """The tables of the user guide (reStructuredText): one per setting."""
    header = (
        "interval",
        "Err_XY 90%",
        "Err_XY 95%",
        "Err 95%",
        "Err_sub 95%",
        "width 90%",
        "width 95%",
    )
    out = []
    for setting in results:
        truth = setting["summary"]["truth"]
        out += [
            f"**{setting['problem']}, {setting['model']}, n = {setting['n']}** "
            f"(Err = {truth['Err']:.4f}, sd of Err_XY = {truth['Err_XY_sd']:.4f}, "
            f"Err_sub = {truth['Err_sub']:.4f})",
            "",
        ]
        rows = []
        for interval, entry in setting["summary"]["intervals"].items():
            rows.append(
                (
                    interval,
                    _percent(entry["0.90"]["Err_XY"]),
                    _percent(entry["0.95"]["Err_XY"]),
                    _percent(entry["0.95"]["Err"]),
                    _percent(entry["0.95"]["Err_sub"]),
                    f"{entry['0.90']['mean_width']:.3f}",
                    f"{entry['0.95']['mean_width']:.3f}",
                )
            )
        widths = [max(len(c) for c in column) for column in zip(header, *rows)]
        rule = "  ".join("=" * w for w in widths)
        out += [rule, "  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip(), rule]
        out += ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows]
        out += [rule, ""]
    return "\n".join(out)


# -- the run -----------------------------------------------------------------------------------


def seed_of(setting_index, replication):
    sequence = np.random.SeedSequence(ROOT_SEED, spawn_key=(setting_index, replication))
    return int(sequence.generate_state(1)[0] % np.iinfo(np.int32).max)


def truth_sample(problem):
    index = list(PROBLEMS).index(problem)
    rng = np.random.default_rng(np.random.SeedSequence(ROOT_SEED, spawn_key=(1000 + index,)))
    return PROBLEMS[problem][0](rng, N_TRUTH)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="100 replications per setting")
    parser.add_argument("--replications", type=int, default=None)
    parser.add_argument("--n-jobs", type=int, default=2, help="parallel replications")
    parser.add_argument("--folds", type=int, default=N_FOLDS, help="K of every interval")
    parser.add_argument(
        "--repetitions", type=int, default=N_REPETITIONS, help="R of the nested CV interval"
    )
    parser.add_argument("--output", type=Path, default=None)
    parser.add_argument(
        "--table", type=Path, default=None, help="only print the tables of a results file"
    )
    args = parser.parse_args()
    if args.table is not None:
        print(table(json.loads(args.table.read_text())["results"]))
        return
    replications = args.replications or (100 if args.quick else 500)
    output = args.output or (None if args.quick else RESULTS)
    load_before = os.getloadavg()
    start = time.perf_counter()
    truths = {problem: truth_sample(problem) for problem in PROBLEMS}
    design = (args.folds, args.repetitions)
    results = []
    with Parallel(n_jobs=args.n_jobs) as parallel:
        for index, (problem, model, n) in enumerate(SETTINGS):
            setting_start = time.perf_counter()
            X_truth, y_truth = truths[problem]
            rows = parallel(
                delayed(replicate)(problem, model, n, seed_of(index, i), X_truth, y_truth, *design)
                for i in range(replications)
            )
            summary = summarise(rows)
            seconds = time.perf_counter() - setting_start
            results.append(
                {
                    "problem": problem,
                    "problem_description": PROBLEMS[problem][0].__doc__,
                    "loss": PROBLEMS[problem][1],
                    "model": model,
                    "model_description": MODEL_DESCRIPTIONS[model],
                    "n": n,
                    "setting_index": index,
                    "seconds": seconds,
                    "summary": summary,
                }
            )
            ncv = summary["intervals"]["NCV (Bates et al.)"]["0.95"]["Err_XY"]["coverage"]
            t = summary["intervals"]["t (fold scores)"]["0.95"]["Err_XY"]["coverage"]
            print(
                f"[{index + 1}/{len(SETTINGS)}] {problem}, {model}, n={n}: "
                f"Err={summary['truth']['Err']:.4f}, 95% coverage of Err_XY: t {t:.3f}, "
                f"NCV {ncv:.3f} ({seconds:.0f} s)",
                flush=True,
            )
    wall = time.perf_counter() - start
    report = {
        "command": "python " + " ".join(sys.argv),
        "wall_seconds": wall,
        "load_average_before": load_before,
        "load_average_after": os.getloadavg(),
        "cpu_count": os.cpu_count(),
        "n_jobs": args.n_jobs,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "versions": package_versions(),
        "root_seed": ROOT_SEED,
        "seeds": "replication i of setting s: seed = SeedSequence(root_seed, spawn_key=(s, i)) "
        "drawn as an int, then SeedSequence(seed).spawn(3) for the data, the folds and the "
        "bootstrap; truth sample of problem p: SeedSequence(root_seed, spawn_key=(1000 + p,))",
        "replications": replications,
        "n_truth": N_TRUTH,
        "n_folds": args.folds,
        "n_repetitions": args.repetitions,
        "n_bootstrap": N_BOOTSTRAP,
        "levels": list(LEVELS),
        "targets": {
            "Err_XY": "loss on the 100,000-row sample of the model fitted on the n training rows",
            "Err": "mean of Err_XY over the replications: the expected error at training size n",
            "Err_sub": "mean over the replications of the loss of a model fitted on a random "
            "n (K - 1) / K of the training rows: the expected error at the size of a CV fold's "
            "training set",
        },
        "results": results,
    }
    print(f"wall time {wall:.0f} s, load average before {load_before}, after {os.getloadavg()}")
    print(table(results))
    if output is not None:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(json.dumps(report, indent=2) + "\n")
        print(f"written to {output}")


if __name__ == "__main__":
    main()
