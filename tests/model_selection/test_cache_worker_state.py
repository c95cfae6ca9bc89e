"""A cache entry written by a worker process holds what that worker computed: its estimator
must be the one the entry's key describes, built in the process that runs NestedCV."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_fair.model_selection._nested import _cache_key
from sklearn_fair.model_selection._nested._candidates import configure
from sklearn_fair.model_selection._nested._tasks import SELECTION, FitTask, TaskKey

MODULE = textwrap.dedent(
    """
    import numpy as np
    from sklearn.base import BaseEstimator, TransformerMixin

    import collections

    Settings = collections.namedtuple("Settings", "offset")
    FACTOR = 1.0
    SETTINGS = Settings(0.0)
    CALLS = {}
    RNG = np.random.default_rng(0)


    def rounded(X):
        CALLS[X.shape] = CALLS.get(X.shape, 0) + 1  # a counter: state that fits change
        return np.round(X * FACTOR) + SETTINGS.offset + 0 * RNG.random()


    class Rounded(TransformerMixin, BaseEstimator):
        def fit(self, X, y=None):
            return self

        def transform(self, X):
            return rounded(X)
    """
)

# runs NestedCV once per [cache_dir or None, FACTOR, n_jobs] of argv[1], in one process, and
# prints for each its outer scores and cache counts, or the error it raised; a class and a
# function of the script (which reach the workers by value) read a global set at run time
SCRIPT = textwrap.dedent(
    """
    import json
    import sys

    from sklearn.base import BaseEstimator, TransformerMixin
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import FunctionTransformer

    import worker_state_module
    from sklearn_fair import NestedCV

    SHIFT = 0.0


    class Shift(TransformerMixin, BaseEstimator):
        def fit(self, X, y=None):
            return self

        def transform(self, X):
            return X + SHIFT


    def halve(X):
        return X / 2 + SHIFT


    SHIFT = 0.5
    X, y = make_classification(n_samples=90, n_features=6, random_state=0)
    results = []
    for cache_dir, factor, n_jobs in json.loads(sys.argv[1]):
        worker_state_module.FACTOR = factor
        steps = [worker_state_module.Rounded(), LogisticRegression()]
        if sys.argv[2] == "script":
            steps[:0] = [Shift(), FunctionTransformer(halve), FunctionTransformer(lambda X: X * 3)]
        model = NestedCV(
            make_pipeline(*steps), {"logisticregression__C": [0.01, 1.0]}, outer_cv=3,
            inner_cv=3, n_refits=1, random_state=0, cache_dir=cache_dir, n_jobs=n_jobs,
        )
        try:
            model.fit(X, y)
        except ValueError as exc:
            results.append({"error": str(exc)})
            continue
        results.append({"outer": model.outer_scores_.tolist(), "cache": model.cache_info_})
    print(json.dumps(results))
    """
)


def run_script(tmp_path, runs, steps="module"):
    """The results of ``runs`` in a fresh process, whose loky workers import the module from
    its file (those of an earlier test in this process have another path)."""
    (tmp_path / "worker_state_module.py").write_text(MODULE)
    (tmp_path / "script.py").write_text(SCRIPT)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    done = subprocess.run(
        [sys.executable, str(tmp_path / "script.py"), json.dumps(runs), steps],
        env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def entries(folder):
    return sorted(Path(folder).glob("*/*.json"))


def test_a_global_set_at_run_time_that_workers_do_not_see_is_refused(tmp_path):
    cache = str(tmp_path / "cache")
    in_workers, served, fresh, from_file = run_script(
        tmp_path,
        [[cache, 0.3, 2], [cache, 0.3, 1], [None, 0.3, 1], [None, 1.0, 1]],
    )
    # the workers compute with the file's FACTOR (1.0), the key says 0.3: nothing is stored
    assert "error" in in_workers, in_workers
    message = in_workers["error"]
    assert "the global 'FACTOR' is 0.3 in the process that runs NestedCV and 1.0 in the " in (
        message
    )
    assert "worker_state_module.rounded" in message
    assert "n_jobs=1" in message
    # the values give other scores, so an entry of the file's numbers would be told
    assert fresh["outer"] != from_file["outer"]
    # a later run with the value set at run time finds no entry: it computes its own numbers
    assert served["cache"]["hits"] == 0
    assert served["outer"] == fresh["outer"]


def test_unchanged_globals_and_code_sent_by_value_are_cached_from_workers(tmp_path):
    cache = str(tmp_path / "cache")
    first, second, alone = run_script(
        tmp_path, [[cache, 1.0, 2], [cache, 1.0, 2], [None, 1.0, 1]], steps="script"
    )
    assert "error" not in first, first
    assert first["cache"]["hits"] == 0
    assert len(entries(cache)) == first["cache"]["computed"] - 1  # all but the final fit
    assert second["cache"] == {"hits": first["cache"]["computed"] - 1, "computed": 1}
    assert first["outer"] == second["outer"] == alone["outer"]


@pytest.fixture
def factor_module(tmp_path, monkeypatch):
    (tmp_path / "worker_state_module.py").write_text(MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    import worker_state_module

    yield worker_state_module
    sys.modules.pop("worker_state_module", None)


def selection_task(C):
    return FitTask(TaskKey(SELECTION, 0, 0, 0), {"logisticregression__C": C}, "train")


def test_a_worker_describes_each_estimator_of_the_keys_once(factor_module, monkeypatch):
    from sklearn.linear_model import LogisticRegression

    estimator = make_pipeline(StandardScaler(), factor_module.Rounded(), LogisticRegression())

    def key_of(task):  # as the process that runs NestedCV describes it
        return {"estimator": real(_cache_key.Describer(), configure(estimator, task.params))}

    real = _cache_key.Describer.describe
    described = []

    def counted(self, value, *args):
        if not args:
            described.append(value)
        return real(self, value, *args)

    monkeypatch.setattr(_cache_key, "_CHECKED", set())
    monkeypatch.setattr(_cache_key.Describer, "describe", counted)
    factor_module.FACTOR = 0.3
    task = selection_task(0.5)
    description = key_of(task)
    for _ in range(3):
        _cache_key.check_in_worker(task, estimator, description)
    assert len(described) == 1
    # a key built where the module's global had another value than this process's
    factor_module.FACTOR = 1.0
    other = selection_task(2.0)
    description = key_of(other)
    factor_module.FACTOR = 0.3
    with pytest.raises(ValueError, match=r"'FACTOR' is 1\.0 in the process .* and 0\.3 in the"):
        _cache_key.check_in_worker(other, estimator, description)
    assert len(described) == 2


def test_module_state_that_the_workers_own_fits_change_is_not_a_difference(factor_module):
    # a counter dict and a random generator of the module: the worker's earlier fits changed
    # them since the key saw them, and every later check raised ("the global 'CALLS' is []
    # in the process that runs NestedCV and [[...]] in the worker")
    from sklearn.linear_model import LogisticRegression

    estimator = make_pipeline(factor_module.Rounded(), LogisticRegression())
    task = selection_task(0.5)
    description = {"estimator": _cache_key.Describer().describe(configure(estimator, task.params))}
    factor_module.rounded(np.zeros((3, 2)))  # a fit in this worker, after the key was built
    _cache_key._CHECKED.clear()
    _cache_key.check_in_worker(task, estimator, description)  # raises nothing
    # a number, or a named tuple, set at run time is still told apart
    factor_module.FACTOR = 0.3
    _cache_key._CHECKED.clear()
    with pytest.raises(ValueError, match=r"'FACTOR' is 1\.0 in the process .* and 0\.3 in the"):
        _cache_key.check_in_worker(task, estimator, description)
    factor_module.FACTOR = 1.0
    factor_module.SETTINGS = factor_module.Settings(0.5)
    _cache_key._CHECKED.clear()
    with pytest.raises(ValueError, match=r"'SETTINGS' is .*0\.0.* in the process .*0\.5.* in the"):
        _cache_key.check_in_worker(task, estimator, description)
