"""The demo behind ``sklearn-fair demo``: the fair protocol on scikit-learn's breast cancer data."""

import sys
import time

__all__ = ["demo_models", "format_result", "run_demo"]


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
    summary = nested.summary()
    low, high = summary.ci
    lines = [
        f"{name}",
        f"  test accuracy      {nested.score_mean_:.4f} +/- {nested.score_std_:.4f} "
        f"(mean +/- std over {nested.n_splits_} outer folds)",
        f"  95% interval       [{low:.4f}, {high:.4f}] (normal, of the mean)",
        f"  mean validation    {nested.validation_scores_.mean():.4f}",
        f"  optimism gap       {nested.optimism_:+.4f} (validation - test)",
        "  refits per fold    "
        + (
            "1 (no random_state: the estimator is deterministic)"
            if nested.refit_seeds_ == [None]
            else str(len(nested.refit_seeds_))
        ),
        "  selected per fold:",
    ]
    for fold, (params, score) in enumerate(zip(nested.best_params_per_fold_, nested.outer_scores_)):
        shown = ", ".join(f"{key.split('__')[-1]}={value}" for key, value in params.items())
        lines.append(f"    fold {fold:2d}: {shown:<22s} test {score:.4f}")
    return "\n".join(lines)


def run_demo(*, n_jobs=None, random_state=0, outer_cv=10, file=None):
    """Run NestedCV for each demo model on the breast cancer data and print the results.

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
    for name, (estimator, grid) in demo_models().items():
        start = time.perf_counter()
        nested = NestedCV(
            estimator,
            grid,
            outer_cv=outer_cv,
            n_refits=3,
            n_jobs=n_jobs,
            random_state=random_state,
            refit=False,
        ).fit(X, y)
        results[name] = nested
        print(format_result(name, nested), file=file)
        print(f"  ({time.perf_counter() - start:.1f} s)\n", file=file)
    return results
