"""Data holding objects of a class defined in the user's script (``__main__``) reach the
worker processes: a PyG data set with a transform of the script's own ran under scikit-learn's
``cross_val_score(n_jobs=2)`` but not under NestedCV(n_jobs=2)."""

import json
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """
    import json, warnings
    import numpy as np
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import KFold
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import FunctionTransformer
    from sklearn_fair import NestedCV

    class Reading:  # a class of the user's script: pickled by name, __main__.Reading
        def __init__(self, values):
            self.values = values

    def as_numbers(X):
        return np.array([reading.values for reading in X[:, 0]])

    numbers, y = make_classification(n_samples=60, n_features=4, random_state=0)
    X = np.empty((60, 1), dtype=object)
    X[:, 0] = [Reading(row) for row in numbers]
    model = make_pipeline(FunctionTransformer(as_numbers), LogisticRegression())
    warnings.simplefilter("ignore")
    out = {}
    for n_jobs in (1, 2):
        nested = NestedCV(
            model, {"logisticregression__C": [0.1, 1.0]}, outer_cv=KFold(3), inner_cv=2,
            n_refits=1, random_state=0, n_jobs=n_jobs,
        ).fit(X, y)
        out[n_jobs] = nested.outer_scores_.tolist()
    print(json.dumps(out))
    """
)


def _run_as_the_users_script(text, folder):
    """Run ``text`` as a script of its own (its classes are ``__main__``'s) in ``folder``, and
    read the JSON its last line prints."""
    script = folder / "user_script.py"
    script.write_text(text)
    run = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=folder
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_a_class_of_the_users_script_in_the_data_reaches_the_workers(tmp_path):
    # NestedCV wrote the data for its workers with joblib.dump, which pickles such a class by
    # name: each worker raised "Can't get attribute 'Reading' on <module ... popen_loky_posix>"
    # (hunt DOC12)
    out = _run_as_the_users_script(SCRIPT, tmp_path)
    assert out["2"] == out["1"]
    assert all(0.5 < score <= 1.0 for score in out["2"])


IN_PLACE = textwrap.dedent(
    """
    import json
    import numpy as np
    from sklearn.base import BaseEstimator, TransformerMixin
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn_fair import NestedCV

    class CentredInPlace(TransformerMixin, BaseEstimator):
        def fit(self, X, y=None):
            return self

        def transform(self, X):
            features = []
            for series in X:
                series -= series.mean()  # in place, as many signal processing helpers do
                features.append([series.std(), series.max(), len(series)])
            return np.array(features)

    rng = np.random.default_rng(0)
    y = np.arange(80) % 2
    X = np.empty(80, dtype=object)
    X[:] = [rng.normal(label, 1 + label, size=rng.integers(5, 30)) for label in y]
    out = {}
    for n_jobs in (1, 2):
        nested = NestedCV(
            make_pipeline(CentredInPlace(), LogisticRegression()),
            {"logisticregression__C": [0.1, 1.0]},
            outer_cv=4, inner_cv=2, n_refits=1, random_state=0, n_jobs=n_jobs,
        ).fit(X.copy(), y)
        out[n_jobs] = [nested.outer_scores_.tolist(), len(nested.failed_tasks_)]
    print(json.dumps(out))
    """
)


def test_the_arrays_of_an_object_array_reach_the_workers_writable(tmp_path):
    # written for the workers through the data file, an object array's arrays were read back
    # memory-mapped, read-only: "output array is read-only" in every fit (review36)
    out = _run_as_the_users_script(IN_PLACE, tmp_path)
    assert out["2"] == out["1"]
    assert out["2"][1] == 0  # no failed fit
