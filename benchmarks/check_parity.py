"""The parity set of issue 32: the same numbers before and after a redesign.

NestedCV (a pipeline's grid with 1 and 2 workers, a seeded tree with refits, two metrics, a
regression), the three functions, a 3-model x 3-data-set benchmark, an experiment file run and
dry-run. Prints one JSON of the numbers (outer and validation scores, selections, seeds, fit
counts). Usage, from a folder outside both checkouts (so that PYTHONPATH decides which
sklearn_fair is imported):

    PYTHONPATH=<old checkout> python <this file> > old.json
    PYTHONPATH=<new checkout> python <this file> > new.json
    python <this file> --compare old.json new.json
"""

import json
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np

EXPERIMENT = """[experiment]
name = "parity"
random_state = 0
progress = false
[data]
dataset = "sklearn:iris"
[protocol]
outer_cv = 3
n_refits = 2
[models.tree]
estimator = "sklearn.tree.DecisionTreeClassifier"
grid = { max_depth = [1, 3] }
[models.logistic]
estimator = "sklearn.linear_model.LogisticRegression"
params = { max_iter = 500 }
grid = { C = [0.1, 1.0] }
"""


def _summary(nested):
    return {
        "outer": nested.outer_scores_.round(12).tolist(),
        "validation": nested.validation_scores_.round(12).tolist(),
        "params": [repr(p) for p in nested.best_params_per_fold_],
        "seeds": repr(nested.refit_seeds_),
    }


def parity_set():
    from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris, load_wine
    from sklearn.dummy import DummyClassifier
    from sklearn.linear_model import LogisticRegression, Ridge
    from sklearn.model_selection import GridSearchCV, KFold
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    import sklearn_fair
    from sklearn_fair import NestedCV, benchmark
    from sklearn_fair import nested_cross_val_predict as predict
    from sklearn_fair import nested_cross_val_score as score
    from sklearn_fair import nested_cross_validate as validate
    from sklearn_fair.experiment import dry_run, run_experiment

    out = {"package": sklearn_fair.__file__}
    X, y = load_breast_cancer(return_X_y=True)
    X, y = X[:300], y[:300]
    pipe = make_pipeline(StandardScaler(), LogisticRegression(max_iter=500))
    grid = {"logisticregression__C": [0.01, 0.1, 1.0]}
    common = dict(random_state=0, refit=False)
    for jobs in (None, 2):
        nested = NestedCV(pipe, grid, outer_cv=4, n_refits=2, n_jobs=jobs, **common)
        out[f"nested_grid_{jobs}"] = _summary(nested.fit(X, y))
    tree = NestedCV(DecisionTreeClassifier(), {"max_depth": [2, 4]}, outer_cv=4, n_refits=3,
                    random_state=1, refit=False)  # fmt: skip
    out["nested_tree_seeded"] = _summary(tree.fit(X, y))
    two = NestedCV(pipe, grid, outer_cv=3, scoring=["accuracy", "roc_auc"], refit="roc_auc",
                   random_state=0)  # fmt: skip
    out["nested_multimetric"] = _summary(two.fit(X, y))
    ridge = NestedCV(Ridge(), {"alpha": [0.1, 1, 10]}, outer_cv=4, inner_cv=3,
                     scoring="neg_root_mean_squared_error", **common)  # fmt: skip
    out["nested_regression"] = _summary(ridge.fit(*load_diabetes(return_X_y=True)))
    search = GridSearchCV(pipe, grid, cv=3)
    cv = validate(search, X, y, cv=4, return_nested_info=True)
    out["functions_validate"] = {
        k: np.asarray(v).round(12).tolist()
        for k, v in cv.items()
        if k.startswith(("test_", "validation_"))
    }
    shuffled = KFold(3, shuffle=True, random_state=0)
    out["functions_score"] = score(search, X, y, cv=shuffled).round(12).tolist()
    out["functions_predict"] = predict(pipe, X, y, param_grid=grid, cv=3).tolist()
    models = {"prior": DummyClassifier(), "logistic": (pipe, grid),
              "tree": (DecisionTreeClassifier(random_state=0), {"max_depth": [1, 3]})}  # fmt: skip
    datasets = {"cancer": (X, y), "iris": load_iris(return_X_y=True),
                "wine": load_wine(return_X_y=True)}  # fmt: skip
    result = benchmark(models, datasets, outer_cv=4, n_refits=2, random_state=0)
    out["benchmark"] = {f"{d}/{m}": _summary(n) for (d, m), n in result.estimators.items()}
    path = Path(tempfile.mkdtemp()) / "experiment.toml"
    path.write_text(EXPERIMENT)
    run = run_experiment(path)
    out["runner"] = {
        name: [round(f["test_score"], 12) for f in saved.get("result", saved)["outer_results"]]
        for name, saved in run.results.items()
    }
    out["dry_run_fits"] = dry_run(path, timing=False).total_fits
    return out


def main():
    if sys.argv[1:2] == ["--compare"]:
        old, new = (json.loads(Path(p).read_text()) for p in sys.argv[2:4])
        keys = sorted((set(old) | set(new)) - {"package"})
        for key in keys:
            print("same     " if old.get(key) == new.get(key) else "DIFFERENT", key)
        return int(any(old.get(k) != new.get(k) for k in keys))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        print(json.dumps(parity_set(), sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
