"""Fits running in threads of a pool (Dask's worker threads, the threading backend) run under
the caller's warning filters and have their warnings recorded, shown once per run and kept in
the cache, as fits in the caller's main thread and in loky's workers do."""

import logging
import os
import sys
import threading
import time
import warnings

import joblib
import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from sklearn_fair import NestedCV
from sklearn_fair.model_selection._nested._task_warnings import recorded_warnings

distributed = pytest.importorskip("dask.distributed")

X = np.random.RandomState(0).normal(size=(36, 3))
Y = (X[:, 0] > 0).astype(int)

# Dask's workers import the estimator's class by name: it is written to a module on their path
MODULE = '''
import time
import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning


class SlowWarnsBelowOne(ClassifierMixin, BaseEstimator):
    """Right below C=1, where its fit raises a ConvergenceWarning as it ends; wrong from 1 on.
    A fit takes between 0.3 and 1.3 times ``pause`` s, by its rows: fits in two threads
    start and end at different times."""

    def __init__(self, C=1.0, pause=0.3, started=None):
        self.C, self.pause, self.started = C, pause, started

    def fit(self, X, y):
        if self.started is not None:
            open(self.started, "w").close()
        time.sleep(self.pause * (0.3 + float(np.sum(X) * 1000 + self.C) % 1))
        if self.C < 1:
            warnings.warn("did not converge below C=1", ConvergenceWarning)
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        truth = (np.asarray(X)[:, 0] > 0).astype(int)
        return truth if self.C < 1 else 1 - truth
'''


@pytest.fixture(scope="module")
def estimator_class(tmp_path_factory):
    folder = tmp_path_factory.mktemp("estimator")
    (folder / "slow_warns_below_one.py").write_text(MODULE)
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(folder))
        patch.setenv("PYTHONPATH", os.pathsep.join([str(folder), *sys.path]))
        from slow_warns_below_one import SlowWarnsBelowOne

        yield SlowWarnsBelowOne


@pytest.fixture(scope="module")
def cluster(estimator_class):
    # one worker process with two threads: two fits at once in one process
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=2,
        processes=True,
        dashboard_address=":0",
        silence_logs=logging.CRITICAL,
    ) as cluster:
        yield cluster


def nested(estimator, grid=None, **kwargs):
    options = dict(outer_cv=3, inner_cv=2, n_refits=1, refit=False, random_state=0)
    return NestedCV(estimator, grid or {"C": [0.5, 2.0]}, **{**options, **kwargs})


def fingerprint(model):
    return (
        model.outer_scores_.tolist(),
        model.best_params_per_fold_,
        sorted(str(task["key"]) for task in model.failed_tasks_),
    )


def test_a_task_ending_in_another_thread_leaves_the_shipped_filters_in_force(monkeypatch):
    # how a worker process with two threads (Dask's) runs two tasks: each task's
    # catch_warnings restored the worker's own filters as it ended, while the other thread's
    # fit ran on: that fit's ConvergenceWarning, which the caller turned into an error, did not
    # fail it (a candidate that warns could be scored and selected)
    from sklearn_fair.model_selection._nested import _running

    first_in, second_in, first_done = threading.Event(), threading.Event(), threading.Event()

    def first_fit():
        first_in.set()
        second_in.wait(10)
        return {"error": None}

    def second_fit():
        second_in.set()
        first_done.wait(10)  # the first task has ended
        warnings.warn("did not converge", ConvergenceWarning, stacklevel=1)
        return {"error": None}

    class Task:  # a PlanTask: its fit, context and plan
        def __init__(self, fit):
            self.task, self.context, self.index = fit, None, 0

    class Data:
        def resolve(self):
            return self

        def part(self, index):
            return None

    monkeypatch.setattr(_running, "run_fit_task", lambda fit, context, data: fit())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        warnings.simplefilter("error", ConvergenceWarning)
        # the caller's filters, as another process (id 0) ships them
        shipped = (0, _running._portable_filters()[1])
    outcomes = {}

    def run(name, fit, done=None):
        try:
            outcomes[name] = _running.execute(Task(fit), Data(), None, filters=shipped)
        except ConvergenceWarning as error:
            outcomes[name] = error
        if done is not None:
            done.set()

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the worker's own filters
        own_filters = warnings.filters[:]
        first = threading.Thread(target=run, args=("first", first_fit, first_done))
        first.start()
        first_in.wait(10)
        second = threading.Thread(target=run, args=("second", second_fit))
        second.start()
        first.join(20)
        second.join(20)
        own_filters_after = warnings.filters[:]
    assert outcomes["first"] == {"error": None}
    assert isinstance(outcomes["second"], ConvergenceWarning)
    # the worker's own filters are back once both tasks ended
    assert own_filters_after == own_filters


def test_an_error_filter_holds_for_every_fit_of_a_dask_worker_with_two_threads(
    estimator_class, cluster
):
    # the run end to end: each selection fit below C=1 fails, as in the caller's process
    grid = {"C": [0.25, 0.5, 2.0]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        warnings.simplefilter("error", ConvergenceWarning)
        reference = nested(estimator_class(pause=0.15), grid=grid).fit(X, Y)  # in this process
        with distributed.Client(cluster), joblib.parallel_config(backend="dask"):
            model = nested(estimator_class(pause=0.15), grid=grid).fit(X, Y)
    # every selection fit below C=1 (3 outer folds, 2 candidates, 2 inner splits) failed
    assert reference.best_params_per_fold_ == [{"C": 2.0}] * 3
    assert reference.outer_scores_.tolist() == [0.0, 0.0, 0.0]
    assert len(reference.failed_tasks_) == 12
    assert fingerprint(model) == fingerprint(reference)
    assert all("ConvergenceWarning" in task["error"] for task in model.failed_tasks_)


def converging_warnings(run):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = run()
    return model, [w for w in caught if w.category is ConvergenceWarning]


@pytest.fixture
def reference_warning(estimator_class):
    with pytest.warns(ConvergenceWarning) as caught:  # the estimator's own, outside NestedCV
        estimator_class(C=0.5, pause=0).fit(X, Y)
    return caught[0]


def check_computed_then_served(computed, served, reference):
    """A run that computed its fits, then one served from their cache entries: each showed
    the fits' warning once, as the estimator raises it."""
    (model, shown), (model_served, shown_served) = computed, served
    assert model.cache_info_["computed"] > 0
    assert model_served.cache_info_["computed"] == 0
    check_shown_once(shown, reference)
    check_shown_once(shown_served, reference)


def check_shown_once(shown, reference):
    assert [str(w.message) for w in shown] == [str(reference.message)]  # once per run
    assert shown[0].filename == reference.filename
    assert shown[0].lineno == reference.lineno


def test_the_warnings_of_fits_on_dask_worker_threads_are_shown_and_cached(
    estimator_class, cluster, reference_warning, tmp_path
):
    # they printed in the worker's stderr only, and the cache entries written there held
    # none: a run served from them showed none either
    def run():
        return nested(estimator_class(pause=0.05), cache_dir=tmp_path).fit(X, Y)

    with distributed.Client(cluster), joblib.parallel_config(backend="dask"):
        computed = converging_warnings(run)
    check_computed_then_served(computed, converging_warnings(run), reference_warning)


def test_the_warnings_of_fits_on_threads_are_shown_once_and_cached(
    estimator_class, reference_warning, tmp_path
):
    # each fit's warning showed as it was raised (once per fit under "always"), and the cache
    # entries written held none
    def run():
        return nested(estimator_class(pause=0.01), cache_dir=tmp_path, n_jobs=2).fit(X, Y)

    # (served on threads too: the estimator's module is not importable by a loky worker that
    # an earlier test started)
    with joblib.parallel_config(backend="threading"):
        computed = converging_warnings(run)
        check_computed_then_served(computed, converging_warnings(run), reference_warning)
    # a filter turned into an error still fails the fits that warn
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        warnings.simplefilter("error", ConvergenceWarning)
        with joblib.parallel_config(backend="threading"):
            model = nested(estimator_class(pause=0.01), n_jobs=2).fit(X, Y)
    assert model.best_params_per_fold_ == [{"C": 2.0}] * 3
    assert len(model.failed_tasks_) == 6


def test_threads_recording_at_once_each_record_their_own_warnings():
    # each thread's result holds what it raised (one raised by both in each), a thread that
    # records nothing shows its warning as before, and an error filter still raises
    both_inside = threading.Barrier(3)
    results = [{}, {}]

    def record(number):
        with recorded_warnings(results[number]):
            both_inside.wait()
            warnings.warn(f"from thread {number}", UserWarning, stacklevel=1)
            time.sleep(0.05)
            warnings.warn("from both", UserWarning, stacklevel=1)

    def not_recording():
        both_inside.wait()
        warnings.warn("from a thread that does not record", UserWarning, stacklevel=1)

    errors = []

    def fails():
        try:
            with recorded_warnings({}):
                warnings.warn("an error", ConvergenceWarning, stacklevel=1)
        except ConvergenceWarning as error:
            errors.append(error)

    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("default")
        warnings.filterwarnings("error", category=ConvergenceWarning)
        threads = [threading.Thread(target=record, args=(n,)) for n in (0, 1)]
        threads += [threading.Thread(target=not_recording), threading.Thread(target=fails)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    for number, result in enumerate(results):
        messages = [item[2] for item in result["warnings"]]
        assert messages == [f"from thread {number}", "from both"]
    assert [str(w.message) for w in shown] == ["from a thread that does not record"]
    assert [str(error) for error in errors] == ["an error"]


def test_a_dask_client_closed_during_the_run_raises_saying_so(estimator_class, cluster, tmp_path):
    # it raised AttributeError: 'NoneType' object has no attribute 'scatter'
    started = tmp_path / "started"
    client = distributed.Client(cluster)

    def close_once_a_fit_started():
        end = time.monotonic() + 60
        while not started.exists() and time.monotonic() < end:
            time.sleep(0.01)
        client.close()

    closer = threading.Thread(target=close_once_a_fit_started, daemon=True)
    closer.start()
    try:
        with joblib.parallel_config(backend="dask"):
            with pytest.raises(RuntimeError, match="The Dask client was closed during the run"):
                nested(estimator_class(started=str(started))).fit(X, Y)
    finally:
        closer.join()
        client.close()


def test_a_dask_client_that_is_not_the_default_one_runs_the_fits(estimator_class, cluster):
    # Dask's wait took the default client: with none, "ValueError: No clients found"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        reference = nested(estimator_class(pause=0.01)).fit(X, Y)
        with distributed.Client(cluster, set_as_default=False) as client:
            with joblib.parallel_config(backend="dask", client=client):
                model = nested(estimator_class(pause=0.01)).fit(X, Y)
    assert fingerprint(model) == fingerprint(reference)
