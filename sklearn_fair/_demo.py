"""The demo behind ``sklearn-fair demo``: the fair protocol on scikit-learn's breast cancer data."""

import re
import sys
import time

import numpy as np

# The README's "What the demo prints" block lies between these lines; tools/update_readme.py
# writes the output of `sklearn-fair demo` there, and tests/test_demo.py checks that it is.
README_BEGIN = "<!-- begin: output of `sklearn-fair demo` (tools/update_readme.py writes it) -->"
README_END = "<!-- end: output of `sklearn-fair demo` -->"
_TIME = re.compile(r"\((\d+(\.\d+)?) s\)")


def demo_models():
    """The models the demo compares, each with its hyper-parameter grid."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return {
        "logistic regression": (
            make_pipeline(StandardScaler(), LogisticRegression(max_iter=5000)),
            {"logisticregression__C": [0.001, 0.01, 0.1, 1.0, 10.0, 100.0]},
        ),
        "k-nearest neighbours": (
            make_pipeline(StandardScaler(), KNeighborsClassifier()),
            {"kneighborsclassifier__n_neighbors": [1, 3, 5, 9, 15, 25, 45]},
        ),
    }


def format_result(name, nested):
    """A short text block for one fitted NestedCV: estimate, interval, optimism, choices."""
    from .metrics import metric_display_name

    metric = metric_display_name(nested.scoring, estimator=nested.estimator)
    summary = nested.summary()  # the corrected resampled t of the outer folds' sizes
    refits = _refits_that_ran(nested)
    validation = float(np.mean(metric.values(nested.validation_scores_)))
    # the interval as its label names it ("95% corrected-t interval")
    kind = {"t": "Student-t", "normal": "normal (z)"}.get(summary.interval)
    kind = kind or summary.interval.replace("_", "-")
    fields = [
        (
            f"test {metric}",
            f"{summary.mean:.4f} +/- {nested.score_std_:.4f} (mean +/- std over "
            f"{nested.n_splits_} outer folds)",
        ),
        (
            f"{100 * summary.confidence:g}% {kind} interval",
            f"[{summary.ci_low:.4f}, {summary.ci_high:.4f}] ({summary.ci_method})",
        ),
        (
            f"validation {metric}",
            f"{validation:.4f} (the selected configuration's inner score, mean over the folds)",
        ),
        ("optimism gap", f"{nested.optimism_:+.4f} (how much better validation looked than test)"),
        ("refits per fold", refits),
    ]
    width = max(len(label) for label, _ in fields) + 2
    lines = [name] + [f"  {label:<{width}}{text}" for label, text in fields]
    if summary.metric_note and metric.sign < 0:
        lines.append(f"  ({summary.metric_note})")
    lines.append(f"  selected per fold (test {metric}):")
    test_scores = metric.values(nested.outer_scores_)
    for fold, (params, score) in enumerate(zip(nested.best_params_per_fold_, test_scores)):
        shown = ", ".join(f"{key.split('__')[-1]}={value}" for key, value in params.items())
        lines.append(f"    fold {fold:2d}: {shown:<22s} test {score:.4f}")
    return "\n".join(lines)


def _refits_that_ran(nested):
    """The refits each outer fold trained, in words: the seed probe may have left planned
    seeds unused (``refit_seeds_`` lists what was planned)."""
    from .report._results import refits_of

    ran = [refits_of(fold) for fold in nested.outer_results_]
    if nested.refit_seeds_ == [None]:
        return "1 (no random_state: the estimator is deterministic)"
    if len(set(ran)) == 1:
        return str(ran[0])
    counts = ", ".join(f"{n} on {ran.count(n)} folds" for n in sorted(set(ran), reverse=True))
    return f"{counts} ({' / '.join(map(str, ran))} per fold)"


def run_demo(*, n_jobs=None, random_state=0, outer_cv=10, file=None):
    """Run NestedCV for each demo model on the breast cancer data and print the results.

    Each model's estimate comes with its corrected resampled t interval, named; which model is
    better is decided by :func:`sklearn_fair.stats.compare` on the paired outer-fold
    scores, which says when the difference is not demonstrated.

    Parameters
    ----------
    n_jobs : int, default=None
        Parallel jobs for NestedCV.
    random_state : int, default=0
        Seed of the whole run.
    outer_cv : int, default=10
        Number of outer folds.
    file : file-like, default=None
        Where to print (standard output by default).

    Returns
    -------
    results : dict
        Model name -> fitted NestedCV.
    """
    from sklearn.datasets import load_breast_cancer

    from .model_selection import NestedCV
    from .report import comparison_text

    file = sys.stdout if file is None else file
    X, y = load_breast_cancer(return_X_y=True)
    print(
        f"sklearn-fair demo: nested cross-validation on breast cancer ({X.shape[0]} samples, "
        f"{X.shape[1]} features)\nouter {outer_cv}-fold stratified CV; inner 90%/10% "
        "stratified hold-out selects the hyper-parameters; the winner is retrained with "
        "different seeds and scored once on the outer test fold.\n",
        file=file,
    )
    results = {}
    options = dict(outer_cv=outer_cv, n_refits=3, n_jobs=n_jobs, random_state=random_state)
    for name, (estimator, grid) in demo_models().items():
        start = time.perf_counter()
        nested = NestedCV(estimator, grid, refit=False, **options).fit(X, y)
        results[name] = nested
        print(format_result(name, nested), file=file)
        print(f"  ({time.perf_counter() - start:.1f} s)\n", file=file)
    print(comparison_text(results), file=file)
    return results


def mask_times(text):
    """``text`` with the demo's timings ("(0.7 s)") replaced by "(... s)": they vary by run."""
    return _TIME.sub("(... s)", text)


def readme_block(output):
    """The README's block for the demo's ``output``: a fenced code block between the markers."""
    return f"{README_BEGIN}\n```\n{output.rstrip()}\n```\n{README_END}"


def split_readme(readme):
    """``(before, block, after)`` of the README's text around the demo's block."""
    try:
        start = readme.index(README_BEGIN)
        end = readme.index(README_END, start) + len(README_END)
    except ValueError:
        raise ValueError(
            f"The README has no demo block between {README_BEGIN!r} and {README_END!r}."
        ) from None
    return readme[:start], readme[start:end], readme[end:]
