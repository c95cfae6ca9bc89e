"""find_duplicates compares values, whatever container holds them: lists, records, graphs."""

import numpy as np
import pandas as pd
import pytest

from sklearn_fair.leakage import find_duplicates


def _duplicated(report, n):
    """find_duplicates' answer in the shape of pandas' ``duplicated(keep=False)``."""
    flags = np.zeros(n, bool)
    for group in report.groups:
        flags[group] = True
    return flags.tolist()


@pytest.mark.parametrize(
    "rows",
    [
        [[1, "a"], [1.0, "a"], [True, "a"], ["1", "a"]],
        [[2, "b"], ["2", "b"], [2.0, "b"], ["x", "b"]],
        [[0.0, "s"], [-0.0, "s"], ["0", "s"], ["0.0", "s"]],
    ],
)
def test_a_list_of_mixed_rows_keeps_the_types_of_its_values(rows):
    # NumPy made strings of every value ("1" of 1): 1 and "1" were duplicates, 1 and 1.0 not
    expected = pd.DataFrame(rows).duplicated(keep=False).tolist()
    assert _duplicated(find_duplicates(rows), len(rows)) == expected
    assert _duplicated(find_duplicates(np.array(rows, dtype=object)), len(rows)) == expected


def test_a_1d_list_of_mixed_values_keeps_their_types():
    values = [1, 1.0, True, "1", "a"]
    expected = pd.Series(values).duplicated(keep=False).tolist()
    assert _duplicated(find_duplicates(values), len(values)) == expected


def test_records_are_compared_by_key_in_any_order():
    records = [{"a": 1, "b": "x"}, {"b": "x", "a": 1}, {"a": 1.0, "b": "x"}, {"a": 1, "b": "y"}]
    # the reference: pandas reads the records by key, as Python's == compares dicts
    expected = pd.DataFrame(records).duplicated(keep=False).tolist()
    assert expected == [records[0] == r for r in records]
    assert _duplicated(find_duplicates(records), len(records)) == expected
    # another key set is another record
    assert find_duplicates([{"a": 1}, {"a": 1, "b": 0}]).groups == []


# ---- graphs ---------------------------------------------------------------------------------

torch = pytest.importorskip("torch")
Data = pytest.importorskip("torch_geometric.data").Data


def _graph(x, **fields):
    edge_index = torch.tensor([[0, 1], [1, 0]])
    return Data(x=torch.tensor(x), edge_index=edge_index, y=torch.tensor([0]), **fields)


def test_graphs_with_a_signed_zero_in_x_are_duplicates():
    a, b = _graph([[0.0], [1.0]]), _graph([[-0.0], [1.0]])
    assert torch.equal(a.x, b.x)  # the reference: equal node features
    assert [g.tolist() for g in find_duplicates([a, b]).groups] == [[0, 1]]
    assert find_duplicates([a, _graph([[0.0], [2.0]])]).groups == []


def test_a_graph_that_stores_its_num_nodes_is_the_same_graph():
    a, c = _graph([[0.0], [1.0]]), _graph([[0.0], [1.0]], num_nodes=2)
    assert a.num_nodes == c.num_nodes and "num_nodes" in c.to_dict()
    assert [g.tolist() for g in find_duplicates([a, c]).groups] == [[0, 1]]
    # a count that is not the rows of x is kept: it says something else
    assert find_duplicates([a, _graph([[0.0], [1.0]], num_nodes=3)]).groups == []
