"""A DataFrame with a column named ``y`` has an attribute ``y``, as a graph has: tabular data,
and a pair ``(df, y)``, must never be read as graphs."""

from types import SimpleNamespace

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score

from sklearn_fair import benchmark
from sklearn_fair.utils import fingerprint, is_graph_data

pd = pytest.importorskip("pandas")


def _points():
    rng = np.random.RandomState(0)
    df = pd.DataFrame({"x": rng.randn(60), "y": rng.randn(60)})  # coordinates as features
    return df, (df.x + df.y > 0).astype(int).to_numpy()


def test_a_pair_of_tabular_data_and_labels_is_not_graphs():
    df, target = _points()
    assert hasattr(df, "y")  # the column, as an attribute
    for tabular in (df, df.to_numpy(), sp.csr_matrix(df.to_numpy())):
        assert not is_graph_data(tabular)
        assert not is_graph_data((tabular, target))
        assert not is_graph_data([tabular])
    # graphs still are: a list, a tuple and an object array of objects with a .y
    graphs = [SimpleNamespace(x=np.ones((2, 1)), y=1), SimpleNamespace(x=np.ones((3, 1)), y=0)]
    as_array = np.empty(2, dtype=object)
    as_array[:] = graphs
    assert is_graph_data(graphs) and is_graph_data(tuple(graphs)) and is_graph_data(as_array)


def test_fingerprint_of_a_pair_hashes_the_dataframe_as_a_table():
    df, target = _points()
    # as the same pair whose column is named otherwise: a DataFrame, not a graph's fields
    # (vars() of a DataFrame raised TypeError)
    renamed = df.rename(columns={"y": "b"})
    assert fingerprint((df, target)) != fingerprint((renamed, target))
    assert fingerprint((df, target)) == fingerprint((df.copy(), target.copy()))


def test_benchmark_takes_a_dataframe_with_a_column_y():
    df, target = _points()
    # benchmark read (df, target) as a list of graphs: "TypeError: vars() argument must
    # have __dict__ attribute"
    result = benchmark(
        {"lr": LogisticRegression()},
        {"pts": (df, target)},
        outer_cv=StratifiedKFold(3),
        n_refits=1,
        random_state=0,
    )
    # one model without a grid: each outer score is scikit-learn's cross_val_score
    expected = cross_val_score(LogisticRegression(), df, target, cv=StratifiedKFold(3))
    assert np.allclose(result.scores.score.to_numpy(), expected)


def test_a_graph_with_a_field_named_shape_is_a_graph():
    # review_30: an item with a shape is tabular where its class has one (a DataFrame); a PyG
    # graph may hold a field of that name
    torch = pytest.importorskip("torch")
    from torch_geometric.data import Data

    graphs = [Data(x=torch.ones(2, 1), edge_index=torch.tensor([[0], [1]]), y=torch.tensor([i % 2]))
              for i in range(4)]  # fmt: skip
    for graph in graphs:
        graph.shape = torch.tensor([2])
    assert is_graph_data(graphs)
