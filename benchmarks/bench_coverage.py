"""Coverage of sklearn-fair's intervals for a model's error, measured by simulation.

Each setting is a problem (data from a known distribution), a model, a metric and a
training size n. One replication draws a training set of n rows, computes every interval,
fits the model on all n rows, and scores it on a fixed independent sample of 100,000 rows
from the same distribution. Over the replications we count how often each interval contains:

- ``Err_XY``: the metric of the model fitted on the n rows at hand (on the 100,000 rows):
  what a user wants to know about the model they ship. **The rule for the default interval
  (below) is judged on this target.**
- ``Err``: the mean of ``Err_XY`` over the replications (the procedure's expected metric).

Problems, models and metrics (10 standard normal features each):

- *balanced classification*, ``P(y=1|x) = sigmoid(2 x_1)``, logistic regression, the error
  rate (1 - accuracy; the 0-1 loss);
- *imbalanced classification*, ``P(y=1|x) = sigmoid(2 x_1 - 2)`` (about 20% positives),
  logistic regression, ROC AUC (not a mean of pointwise losses: no NCV interval); a training
  set with fewer than 8 rows of a class is drawn again (its AUC could be undefined on a fold);
- *regression*, ``y = x . (1, 0.5, 0.25, 0, ...) + N(0, 1)``, OLS, the RMSE (intervals of the
  fold RMSEs; the NCV interval is that of the MSE, square-rooted).

Training sizes n = 50 and n = 1,000. The intervals (all at 90% and 95%), each from the
library's own functions:

- ``t``, ``normal``, ``bootstrap``: of the K = 5 fold scores of one 5-fold CV (the first
  repetition below) - what ``summarize`` prints by default (t);
- ``corrected t (5-fold)``: ``mean_interval(..., method="corrected_t")`` of the same 5 scores;
- ``t (5x5-fold)``: the t interval of the 25 scores of 5 times repeated 5-fold CV, which
  treats them as independent;
- ``corrected t (5x5-fold)``: the corrected resampled t of the same 25 scores;
- ``conservative Z``: ``method="conservative_z"`` centred on the 25-score mean, its variance
  from ``paired_subsampling_scores`` with J = 5 splits (test size n / 5) on each half of
  M = 5 pairs of halves (55 more fits);
- ``NCV (Bates et al.)``: ``nested_cv_interval`` with K = 5, R = 1 (error rate and MSE);
- ``naive pointwise (reference)``: Bates et al.'s naive CV interval, mean -/+ z sd(pointwise
  losses) / sqrt(n), not offered by the library.

Every interval of a bounded metric is clipped to its range by the library's rule
(``sklearn_fair.stats._bounds``: [0, 1] for an error rate and ROC AUC, [0, inf) for an
RMSE); the fraction of replications where that changed the interval is reported. Clipping
cannot change coverage (the truth lies in the range), only the width.

Cost: 25 + 55 + 25 + 1 fits per replication, about 0.6 CPU-seconds. ``--quick`` runs 40
replications per setting (a CI-sized run, about 2 CPU-minutes); the full run, 250 per setting,
about 15 CPU-minutes on one core. The coverage's Monte-Carlo standard error, sqrt(p (1 - p) /
250), is then about 1.4 points at 95% and 1.9 at 90%, given after every coverage: fewer
replications than the 500 of the earlier benchmark, to fit the CPU budget of a shared
machine.

Usage (from the repository root)::

    python benchmarks/bench_coverage.py             # writes benchmarks/results/coverage.json
    python benchmarks/bench_coverage.py --quick     # prints only, unless --output is given
    python benchmarks/bench_coverage.py --table benchmarks/results/coverage.json
    # in two processes: --settings 0,1,2 --output a.json and --settings 3,4,5 --output b.json,
    # then --merge a.json b.json (writes benchmarks/results/coverage.json)
"""

import argparse
import json
import math
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed
from scipy import stats
from sklearn.base import clone
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import RepeatedKFold, RepeatedStratifiedKFold

from sklearn_fair.model_selection import nested_cv_interval
from sklearn_fair.stats import bootstrap_ci, mean_interval, paired_subsampling_scores
from sklearn_fair.stats._bounds import clip_to_range, metric_range

sys.path.insert(0, str(Path(__file__).resolve().parent))  # _machine, when a test imports this
from _machine import Load, loaded_note, run_fields  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results" / "coverage.json"
ROOT_SEED = 20261201
N_TRUTH = 100_000
N_FEATURES = 10
N_FOLDS = 5
N_REPEATS = 5
N_HALF_SPLITS = 5
N_PAIRS = 5
N_BOOTSTRAP = 2_000
LEVELS = (0.90, 0.95)
SIZES = (50, 1000)
FULL_REPLICATIONS = 250
QUICK_REPLICATIONS = 40


# -- the problems ------------------------------------------------------------------------------


def balanced_classification(rng, n):
    """P(y=1|x) = sigmoid(2 x_1), 10 standard normal features (Bates et al.'s setting)."""
    X = rng.standard_normal((n, N_FEATURES))
    return X, (rng.random(n) < 1 / (1 + np.exp(-2.0 * X[:, 0]))).astype(int)


#: A training set of the imbalanced problem with fewer rows of a class is drawn again: with
#: fewer, a stratified test fold (or a test set of a half) can miss the class and its AUC is
#: undefined. At n = 50 that conditions on at least 8 positives (about 10 expected).
MIN_CLASS_ROWS = 8


def imbalanced_classification(rng, n):
    """P(y=1|x) = sigmoid(2 x_1 - 2): about 20% positives, 10 features."""
    while True:
        X = rng.standard_normal((n, N_FEATURES))
        y = (rng.random(n) < 1 / (1 + np.exp(-(2.0 * X[:, 0] - 2.0)))).astype(int)
        if min(np.bincount(y, minlength=2)) >= min(MIN_CLASS_ROWS, n // 2):
            return X, y


_BETA = np.array([1.0, 0.5, 0.25] + [0.0] * (N_FEATURES - 3))


def regression(rng, n):
    """y = x . (1, 0.5, 0.25, 0, ...) + N(0, 1), 10 features."""
    X = rng.standard_normal((n, N_FEATURES))
    return X, X @ _BETA + rng.standard_normal(n)


def error_rate(model, X, y):
    return float(np.mean(model.predict(X) != y))


def auc(model, X, y):
    return float(roc_auc_score(y, model.decision_function(X)))


def rmse(model, X, y):
    return float(np.sqrt(np.mean((model.predict(X) - y) ** 2)))


# name: (draw, model, metric function, printed metric name for its range, sklearn scoring and
# the sign that turns its scores into the metric, NCV loss or None)
PROBLEMS = {
    "balanced classification": (
        balanced_classification,
        lambda: LogisticRegression(),
        error_rate,
        "error rate",
        ("accuracy", lambda s: 1.0 - s),
        "zero_one",
    ),
    "imbalanced classification": (
        imbalanced_classification,
        lambda: LogisticRegression(),
        auc,
        "ROC AUC",
        ("roc_auc", lambda s: s),
        None,
    ),
    "regression": (
        regression,
        lambda: LinearRegression(),
        rmse,
        "RMSE",
        ("neg_root_mean_squared_error", lambda s: -s),
        "squared_error",
    ),
}
MODEL_NAMES = {
    "balanced classification": "LogisticRegression()",
    "imbalanced classification": "LogisticRegression()",
    "regression": "LinearRegression()",
}
METRIC_NAMES = {
    "balanced classification": "error rate (0-1 loss)",
    "imbalanced classification": "ROC AUC",
    "regression": "RMSE",
}
SETTINGS = [(problem, n) for problem in PROBLEMS for n in SIZES]
#: The range of each metric, by the library's rule (an error rate is 1 - accuracy).
RANGES = {
    "balanced classification": metric_range("accuracy"),
    "imbalanced classification": metric_range("ROC AUC"),
    "regression": metric_range("RMSE"),
}
#: The methods a user gets from the fold scores alone (summarize's candidates for a default).
FOLD_SCORE_METHODS = ("t", "normal", "bootstrap", "corrected t (5-fold)")


# -- one replication ---------------------------------------------------------------------------


def _t(scores, level):
    return tuple(mean_interval(scores, confidence=level))


def replicate(problem, n, seed, X_truth, y_truth):
    """Every interval, and the truth, for one training set; a dict of plain numbers."""
    draw, make_model, metric, _, (scoring, to_metric), ncv_loss = PROBLEMS[problem]
    data_seed, cv_seed, half_seed, ncv_seed, boot_seed = np.random.SeedSequence(seed).spawn(5)
    X, y = draw(np.random.default_rng(data_seed), n)
    model = make_model()
    splitter = RepeatedStratifiedKFold if problem != "regression" else RepeatedKFold
    cv = splitter(
        n_splits=N_FOLDS,
        n_repeats=N_REPEATS,
        random_state=np.random.RandomState(np.random.default_rng(cv_seed).integers(2**31 - 1)),
    )
    scores, n_train, n_test = [], [], []
    for train, test in cv.split(X, y):
        fitted = clone(model).fit(X[train], y[train])
        scores.append(metric(fitted, X[test], y[test]))
        n_train.append(len(train))
        n_test.append(len(test))
    scores = np.array(scores)
    first = scores[:N_FOLDS]
    sizes = {"n_train": float(np.mean(n_train)), "n_test": float(np.mean(n_test))}
    halves = paired_subsampling_scores(
        model,
        X,
        y,
        scoring=scoring,
        n_splits=N_HALF_SPLITS,
        n_pairs=N_PAIRS,
        test_size=n // N_FOLDS,
        random_state=np.random.default_rng(half_seed),
    )
    half_scores = to_metric(halves.half_scores)
    ncv = None
    if ncv_loss is not None:
        ncv = nested_cv_interval(
            model,
            X,
            y,
            loss=ncv_loss,
            n_folds=N_FOLDS,
            n_repetitions=1,
            n_jobs=1,
            random_state=np.random.default_rng(ncv_seed),
        )
    intervals = {}
    for level in LEVELS:
        key = f"{level:.2f}"
        z = stats.norm.ppf(0.5 + level / 2)
        boot = bootstrap_ci(
            first,
            np.mean,
            n_resamples=N_BOOTSTRAP,
            confidence=level,
            random_state=np.random.default_rng(boot_seed),
        )
        found = {
            "t": _t(first, level),
            "normal": tuple(mean_interval(first, confidence=level, method="normal")),
            "bootstrap": (boot.low, boot.high),
            "corrected t (5-fold)": tuple(
                mean_interval(first, confidence=level, method="corrected_t", **sizes)
            ),
            "t (5x5-fold)": _t(scores, level),
            "corrected t (5x5-fold)": tuple(
                mean_interval(scores, confidence=level, method="corrected_t", **sizes)
            ),
            "conservative Z": tuple(
                mean_interval(
                    scores, confidence=level, method="conservative_z", half_scores=half_scores
                )
            ),
        }
        if ncv is not None:
            # at this level, around the estimate before the library keeps it in the loss's
            # range (ncv.estimate is that clipped, NaN where the whole interval overshoots),
            # clipped below as every other interval is
            raw = ncv.ncv_estimate - ncv.bias
            low, high = raw - z * ncv.standard_error, raw + z * ncv.standard_error
            naive = (
                ncv.cv_estimate - z * ncv.cv_standard_error,
                ncv.cv_estimate + z * ncv.cv_standard_error,
            )
            if problem == "regression":  # an MSE interval, square-rooted for the RMSE
                low, high = math.sqrt(max(low, 0.0)), math.sqrt(max(high, 0.0))
                naive = tuple(math.sqrt(max(b, 0.0)) for b in naive)
            found["NCV (Bates et al.)"] = (low, high)
            found["naive pointwise (reference)"] = naive
        for name, (low, high) in found.items():
            clipped_low, clipped_high, clipped = clip_to_range(low, high, RANGES[problem])
            intervals.setdefault(name, {})[key] = (clipped_low, clipped_high, clipped)
    final = clone(model).fit(X, y)
    return {
        "err_xy": metric(final, X_truth, y_truth),
        "intervals": intervals,
    }


# -- summaries ---------------------------------------------------------------------------------


def _rate(hits, nominal=None):
    p = float(np.mean(hits))
    out = {"coverage": p, "mc_se": math.sqrt(p * (1 - p) / len(hits))}
    if nominal is not None:
        # Within Monte-Carlo error of nominal: at most two standard errors (at the nominal
        # rate) below it; covering more often is no failure.
        out["reaches_nominal"] = bool(
            p >= nominal - 2 * math.sqrt(nominal * (1 - nominal) / len(hits))
        )
    return out


def summarise(rows):
    err_xy = np.array([r["err_xy"] for r in rows])
    truths = {"Err_XY": err_xy, "Err": np.full_like(err_xy, err_xy.mean())}
    summary = {
        "truth": {
            "Err": float(err_xy.mean()),
            "Err_mc_se": float(err_xy.std(ddof=1) / math.sqrt(len(rows))),
            "Err_XY_sd": float(err_xy.std(ddof=1)),
        },
        "intervals": {},
    }
    for name in rows[0]["intervals"]:
        entry = {}
        for key in rows[0]["intervals"][name]:
            bounds = np.array([r["intervals"][name][key][:2] for r in rows])
            clipped = np.array([r["intervals"][name][key][2] for r in rows])
            entry[key] = {
                "mean_width": float(np.mean(bounds[:, 1] - bounds[:, 0])),
                "clipped": float(np.mean(clipped)),
            }
            for target, truth in truths.items():
                hits = (bounds[:, 0] <= truth) & (truth <= bounds[:, 1])
                entry[key][target] = _rate(hits, float(key) if target == "Err_XY" else None)
        summary["intervals"][name] = entry
    return summary


def default_rule(results):
    """The narrowest fold-score interval that reaches nominal everywhere, or how t falls short.

    A method qualifies when its coverage of Err_XY is within Monte-Carlo error of nominal
    at 90% and at 95% in every setting; among those, the narrowest is the one with the
    smallest mean width relative to the t interval's, averaged over settings and levels.
    """

    def ranges(method):
        out = {}
        for key in ("0.90", "0.95"):
            values = [
                s["summary"]["intervals"][method][key]["Err_XY"]["coverage"]
                for s in results
                if method in s["summary"]["intervals"]
            ]
            out[key] = (min(values), max(values))
        return out

    methods = list(results[0]["summary"]["intervals"])
    qualifying = {}
    for method in methods:
        entries = [s["summary"]["intervals"].get(method) for s in results]
        if any(e is None for e in entries):
            continue  # not defined in every setting
        if all(e[k]["Err_XY"]["reaches_nominal"] for e in entries for k in ("0.90", "0.95")):
            ratios = [
                e[k]["mean_width"] / s["summary"]["intervals"]["t"][k]["mean_width"]
                for e, s in zip(entries, results)
                for k in ("0.90", "0.95")
            ]
            qualifying[method] = float(np.mean(ratios))
    narrowest = min(qualifying, key=qualifying.get) if qualifying else None
    from_fold_scores = [m for m in qualifying if m in FOLD_SCORE_METHODS]
    return {
        "qualifying": qualifying,
        "narrowest": narrowest,
        "narrowest_from_fold_scores": (
            min(from_fold_scores, key=qualifying.get) if from_fold_scores else None
        ),
        "coverage_ranges": {method: ranges(method) for method in methods},
    }


def _percent(rate):
    return f"{100 * rate['coverage']:.1f} ± {100 * rate['mc_se']:.1f}"


def table(results):
    """The tables of the user guide (reStructuredText): one per setting."""
    header = ("interval", "Err_XY 90%", "Err_XY 95%", "Err 95%", "width 90%", "width 95%",
              "clipped 95%")  # fmt: skip
    out = []
    for setting in results:
        truth = setting["summary"]["truth"]
        out += [
            f"**{setting['problem']}, {setting['model']}, {setting['metric']}, "
            f"n = {setting['n']}** (Err = {truth['Err']:.4f}, sd of Err_XY = "
            f"{truth['Err_XY_sd']:.4f})",
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
                    f"{entry['0.90']['mean_width']:.3f}",
                    f"{entry['0.95']['mean_width']:.3f}",
                    f"{100 * entry['0.95']['clipped']:.0f}%",
                )
            )
        widths = [max(len(c) for c in column) for column in zip(header, *rows)]
        rule = "  ".join("=" * w for w in widths)
        out += [rule, "  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip(), rule]
        out += ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows]
        out += [rule, ""]
    return "\n".join(out)


def rule_text(rule):
    lines = []
    for method, r in rule["coverage_ranges"].items():
        lines.append(
            f"{method}: covered Err_XY {100 * r['0.90'][0]:.1f}-{100 * r['0.90'][1]:.1f}% at "
            f"nominal 90%, {100 * r['0.95'][0]:.1f}-{100 * r['0.95'][1]:.1f}% at 95%"
        )
    lines.append(
        "reach nominal (within 2 MC SE) at 90% and 95% in every setting: "
        + (", ".join(f"{m} (width {w:.2f}x t)" for m, w in rule["qualifying"].items()) or "none")
    )
    lines.append(f"narrowest: {rule['narrowest']}; of the fold-score methods: "
                 f"{rule['narrowest_from_fold_scores']}")  # fmt: skip
    return "\n".join(lines)


# -- the run -----------------------------------------------------------------------------------


def seed_of(setting_index, replication):
    sequence = np.random.SeedSequence(ROOT_SEED, spawn_key=(setting_index, replication))
    return int(sequence.generate_state(1)[0] % np.iinfo(np.int32).max)


def truth_sample(problem):
    index = list(PROBLEMS).index(problem)
    rng = np.random.default_rng(np.random.SeedSequence(ROOT_SEED, spawn_key=(1000 + index,)))
    return PROBLEMS[problem][0](rng, N_TRUTH)


def _replicate_quietly(*args):
    with warnings.catch_warnings():
        # LogisticRegression at n = 50 may stop at max_iter on a separable sample; the
        # interval is of the model as fitted, warning or not.
        warnings.simplefilter("ignore")
        return replicate(*args)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_REPLICATIONS} per setting")
    parser.add_argument("--replications", type=int, default=None)
    parser.add_argument("--n-jobs", type=int, default=1, help="parallel replications")
    parser.add_argument("--output", type=Path, default=None)
    parser.add_argument(
        "--settings",
        type=str,
        default=None,
        help="comma-separated setting indices to run (default: all); merge files with --merge",
    )
    parser.add_argument(
        "--merge", type=Path, nargs="+", default=None, help="merge results files of --settings"
    )
    parser.add_argument("--table", type=Path, default=None, help="print the tables of a file")
    args = parser.parse_args()
    if args.merge is not None:
        merged = merge([json.loads(path.read_text()) for path in args.merge])
        (args.output or RESULTS).write_text(json.dumps(merged, indent=2) + "\n")
        print(table(merged["results"]))
        print(rule_text(merged["default_rule"]))
        return
    if args.table is not None:
        report = json.loads(args.table.read_text())
        print(table(report["results"]))
        print(rule_text(report["default_rule"]))
        return
    replications = args.replications or (QUICK_REPLICATIONS if args.quick else FULL_REPLICATIONS)
    output = args.output or (None if args.quick else RESULTS)
    whole = Load(workers=args.n_jobs)  # coverage is no timing: the run's load, once
    start = time.perf_counter()
    cpu_start = time.process_time()
    truths = {problem: truth_sample(problem) for problem in PROBLEMS}
    results = []
    with Parallel(n_jobs=args.n_jobs) as parallel:
        chosen = (
            range(len(SETTINGS))
            if args.settings is None
            else [int(i) for i in args.settings.split(",")]
        )
        for index in chosen:
            problem, n = SETTINGS[index]
            setting_start = time.perf_counter()
            X_truth, y_truth = truths[problem]
            rows = parallel(
                delayed(_replicate_quietly)(problem, n, seed_of(index, i), X_truth, y_truth)
                for i in range(replications)
            )
            summary = summarise(rows)
            seconds = time.perf_counter() - setting_start
            results.append(
                {
                    "problem": problem,
                    "problem_description": PROBLEMS[problem][0].__doc__,
                    "model": MODEL_NAMES[problem],
                    "metric": METRIC_NAMES[problem],
                    "n": n,
                    "setting_index": index,
                    "seconds": seconds,
                    "summary": summary,
                }
            )
            cover = summary["intervals"]
            print(
                f"[setting {index + 1} of {len(SETTINGS)}] {problem}, n={n}: "
                f"Err={summary['truth']['Err']:.4f}"
                f", 95% coverage of Err_XY: t {cover['t']['0.95']['Err_XY']['coverage']:.3f}, "
                f"corrected t (5x5) "
                f"{cover['corrected t (5x5-fold)']['0.95']['Err_XY']['coverage']:.3f}, "
                f"conservative Z {cover['conservative Z']['0.95']['Err_XY']['coverage']:.3f} "
                f"({seconds:.0f} s)",
                flush=True,
            )
            if output is not None:  # after every setting: a killed run keeps what it did
                partial = _report(args, results, replications, start, cpu_start, whole)
                output.parent.mkdir(parents=True, exist_ok=True)
                output.write_text(json.dumps(partial, indent=2) + "\n")
    report = _report(args, results, replications, start, cpu_start, whole)
    print(f"wall time {report['wall_seconds']:.0f} s {whole}; {report['loaded_machine']}")
    print(table(results))
    print(rule_text(report["default_rule"]))
    if output is not None:
        print(f"written to {output}")


def merge(reports):
    """One report of the settings of several, in setting order, with the rule recomputed."""
    results = sorted((r for report in reports for r in report["results"]),
                     key=lambda r: r["setting_index"])  # fmt: skip
    indices = [r["setting_index"] for r in results]
    if len(set(indices)) != len(indices):
        raise SystemExit(f"settings repeat across the files: {indices}")
    merged = dict(reports[0])
    merged["commands"] = [report["command"] for report in reports]
    merged["wall_seconds"] = [report["wall_seconds"] for report in reports]
    merged["cpu_seconds_main_process"] = sum(r["cpu_seconds_main_process"] for r in reports)
    merged["load"] = [report.get("load") for report in reports]
    merged["loaded_machine"] = loaded_note(merged["load"])
    merged["results"] = results
    merged["default_rule"] = default_rule(results)
    return merged


def _report(args, results, replications, start, cpu_start, whole):
    wall = time.perf_counter() - start
    rule = default_rule(results)
    return {
        **run_fields(),
        "wall_seconds": wall,
        "cpu_seconds_main_process": time.process_time() - cpu_start,
        "load": whole.stop().fields(),  # so far, in a partial report
        "loaded_machine": loaded_note([whole]),
        "n_jobs": args.n_jobs,
        "root_seed": ROOT_SEED,
        "seeds": "replication i of setting s: seed = SeedSequence(root_seed, spawn_key=(s, i)) "
        "drawn as an int, then SeedSequence(seed).spawn(5) for the data, the repeated CV, the "
        "halves, the NCV and the bootstrap; truth sample of problem p: "
        "SeedSequence(root_seed, spawn_key=(1000 + p,))",
        "replications": replications,
        "n_truth": N_TRUTH,
        "design": {
            "n_folds": N_FOLDS,
            "n_repeats": N_REPEATS,
            "conservative_z": {"n_splits": N_HALF_SPLITS, "n_pairs": N_PAIRS},
            "ncv": {"n_folds": N_FOLDS, "n_repetitions": 1},
            "n_bootstrap": N_BOOTSTRAP,
        },
        "levels": list(LEVELS),
        "targets": {
            "Err_XY": "the metric, on the 100,000-row sample, of the model fitted on the n rows",
            "Err": "mean of Err_XY over the replications",
        },
        "reaches_nominal": "coverage >= nominal - 2 sqrt(nominal (1 - nominal) / replications)",
        "default_rule": rule,
        "results": results,
    }


if __name__ == "__main__":
    main()
