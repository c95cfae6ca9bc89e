"""Determinism matrix: n_jobs=1, n_jobs=2, a real dask.distributed LocalCluster, a cached re-run."""

import joblib
import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier

from sklearn_fair import NestedCV, nested_cross_validate

distributed = pytest.importorskip("dask.distributed")  # the `dask` extra, installed on CI


def make_model(**kwargs):
    # random_state=None inside: NestedCV's own seed must make the run reproducible
    return NestedCV(
        RandomForestClassifier(n_estimators=8),
        {"max_depth": [2, 4, None]},
        outer_cv=4,
        inner_cv=2,
        n_refits=2,
        random_state=0,
        refit=False,
        **kwargs,
    )


def fingerprint(model):
    return (
        model.outer_scores_.tolist(),
        model.validation_scores_.tolist(),
        model.best_params_per_fold_,
        [fold["test_scores"].tolist() for fold in model.outer_results_],
    )


@pytest.fixture(scope="module")
def data():
    return make_classification(n_samples=100, n_features=8, flip_y=0.1, random_state=3)


@pytest.fixture(scope="module")
def dask_client():
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def test_results_identical_across_n_jobs_dask_and_cache(data, dask_client, tmp_path):
    X, y = data
    sequential = make_model(n_jobs=1).fit(X, y)
    two_processes = make_model(n_jobs=2).fit(X, y)
    with distributed.get_task_stream(dask_client) as stream:
        with joblib.parallel_backend("dask"):
            on_dask = make_model().fit(X, y)
    cold = make_model(cache_dir=tmp_path).fit(X, y)
    warm = make_model(cache_dir=tmp_path).fit(X, y)

    expected = fingerprint(sequential)
    assert fingerprint(two_processes) == expected
    assert fingerprint(on_dask) == expected
    assert fingerprint(cold) == expected
    assert fingerprint(warm) == expected
    assert warm.cache_info_["computed"] == 0
    # the fits really ran on the cluster's two worker processes
    workers = {task["worker"] for task in stream.data}
    assert len(stream.data) > 0 and len(workers) == 2


def test_nested_cross_validate_on_dask_matches_sequential(data, dask_client):
    X, y = data
    kwargs = dict(
        param_grid={"max_depth": [2, None]},
        outer_cv=3,
        n_refits=1,
        random_state=1,
        return_nested_info=True,
    )
    sequential = nested_cross_validate(RandomForestClassifier(n_estimators=5), X, y, **kwargs)
    with joblib.parallel_backend("dask"):
        on_dask = nested_cross_validate(RandomForestClassifier(n_estimators=5), X, y, **kwargs)
    np.testing.assert_array_equal(on_dask["test_score"], sequential["test_score"])
    assert on_dask["best_params"] == sequential["best_params"]
