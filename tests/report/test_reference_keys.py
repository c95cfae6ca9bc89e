"""BenchmarkResult.compare_to_reference refuses a reference none of whose keys names a cell
(keys swapped to (model, dataset), a misspelt name), and warns of the keys that name none
where others do: it returned an empty table, without a word."""

import warnings

import pytest

from sklearn_fair import BenchmarkResult
from sklearn_fair.exceptions import SklearnFairWarning

from ._saved_folds import saved_folds

COLUMNS = [
    "dataset", "model", "mean", "std", "reference_mean", "reference_std", "reference_se",
    "difference", "in_reference_se",
]  # fmt: skip


@pytest.fixture(scope="module")
def result():
    cells = {
        (d, m): saved_folds([0.90, 0.94, 0.92, 0.96])
        for d in ("iris #1", "wine")
        for m in ("tree, depth", "knn")
    }
    return BenchmarkResult.from_results(cells, metric="accuracy")


def test_keys_in_the_documented_order_compare(result):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        table = result.compare_to_reference({("iris #1", "tree, depth"): (95.0, 4.0)}, scale=100)
    assert list(table.columns) == COLUMNS
    assert table[["dataset", "model"]].values.tolist() == [["iris #1", "tree, depth"]]
    assert table["mean"][0] == pytest.approx(93.0)


def test_swapped_keys_are_refused_and_said_to_look_swapped(result):
    with pytest.raises(ValueError) as error:
        result.compare_to_reference({("tree, depth", "iris #1"): (95.0, 4.0)}, scale=100)
    message = str(error.value)
    assert "'reference' parameter of compare_to_reference" in message
    assert "('tree, depth', 'iris #1') (it looks swapped: ('iris #1', 'tree, depth')" in message
    assert "(dataset, model) pair" in message
    assert "'iris #1', 'wine'" in message and "'tree, depth', 'knn'" in message


@pytest.mark.parametrize(
    "reference, got",
    [
        ({("iris", "tree, depth"): (95.0, 4.0)}, "('iris', 'tree, depth')"),
        ({}, "an empty dict"),
        (
            {("d", m): (1.0, 1.0) for m in range(5)},
            "('d', 0), ('d', 1), ('d', 2) (and 2 more)",
        ),
    ],
)
def test_a_reference_that_names_no_cell_is_refused(result, reference, got):
    with pytest.raises(ValueError, match="must name at least one cell") as error:
        result.compare_to_reference(reference)
    assert f"Got {got}." in str(error.value) or f"name none: {got}." in str(error.value)
    assert "looks swapped" not in str(error.value)


def test_keys_that_name_no_cell_beside_others_are_named_and_left_out(result):
    # a paper's table may hold models that were not run
    reference = {("iris #1", "knn"): (95.0, 4.0), ("iris #1", "GIN"): (70.0, 4.0)}
    with pytest.warns(SklearnFairWarning, match=r"name no cell .*\('iris #1', 'GIN'\); they"):
        table = result.compare_to_reference(reference, scale=100)
    assert list(table.columns) == COLUMNS
    assert table[["dataset", "model"]].values.tolist() == [["iris #1", "knn"]]
