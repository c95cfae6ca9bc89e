"""BenchmarkResult.from_results of a benchmark's cells bootstraps with the seed the cells
record: its IQM intervals are those of the benchmark's own table."""

import warnings

import pytest
from sklearn.datasets import load_iris
from sklearn.dummy import DummyClassifier
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import BenchmarkResult, benchmark
from sklearn_fair.report import result_to_dict

MODELS = {
    "prior": DummyClassifier(),
    "tree": (DecisionTreeClassifier(max_features=1), {"max_depth": [1, 2, 3]}),
}


@pytest.fixture(scope="module")
def run():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return benchmark(
            MODELS, {"iris": load_iris(return_X_y=True)}, outer_cv=5, n_refits=2, random_state=7
        )


def _saved(result):
    return {key: result_to_dict(cell.estimator) for key, cell in result.cells.items()}


def test_the_iqm_intervals_are_the_benchmarks(run):
    saved = _saved(run)
    assert {document["random_state"] for document in saved.values()} == {7}
    rebuilt = BenchmarkResult.from_results(saved)
    table = rebuilt.table(statistic="iqm", n_resamples=300)
    expected = run.table(statistic="iqm", n_resamples=300)
    assert table.to_dict() == expected.to_dict()
    assert rebuilt.random_state == 7


def test_cells_of_several_seeds_give_none(run):
    saved = _saved(run)
    saved["iris", "prior"] = {**saved["iris", "prior"], "random_state": 8}
    saved["iris", "prior"].pop("checksum")
    rebuilt = BenchmarkResult.from_results(saved, verify=None)
    assert rebuilt.random_state is None
