"""The user's own PyG objects: a pandas Series of graphs, a dataset with a random transform,
graphs with no node features."""

import numpy as np
import pandas as pd
import pytest
import torch
import torch_geometric.transforms as T
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from torch_geometric.data import Data, InMemoryDataset
from torch_geometric.transforms import BaseTransform

from sklearn_fair import NestedCV
from sklearn_fair.graph import GIN, GraphClassifier, GraphCollection
from sklearn_fair.model_selection._nested._inputs import prepare_data
from sklearn_fair.utils import check_graphs, read_graph_labels


def make_graphs(n_graphs=24, seed=0):
    """Small graphs of two classes, each of its own size, node features and label."""
    rng = np.random.default_rng(seed)
    graphs = []
    for index in range(n_graphs):
        n_nodes, label = int(rng.integers(3, 7)), index % 3 % 2
        x = rng.normal(label, 1.0, size=(n_nodes, 2)).astype(np.float32)
        ring = np.arange(n_nodes)
        edges = np.stack([ring, np.roll(ring, 1)])
        graphs.append(
            Data(
                x=torch.from_numpy(x),
                edge_index=torch.from_numpy(np.concatenate([edges, edges[::-1]], axis=1)),
                y=torch.tensor([label]),
            )
        )
    return graphs


def tiny_clf(**params):
    defaults = dict(module__hidden_units=[4], max_epochs=2, patience=None, random_state=0)
    return GraphClassifier(GIN, **{**defaults, **params})


class Noise(BaseTransform):
    """A random transform, as a user writes one: Gaussian noise on the node features."""

    def forward(self, data):
        data = data.clone()
        data.x = data.x + torch.randn_like(data.x)
        return data


def noisy_dataset(graphs):
    dataset = InMemoryDataset(transform=Noise())
    dataset.data, dataset.slices = InMemoryDataset.collate(graphs)
    return dataset


# -- a pandas Series of graphs is read by position, as scikit-learn reads it ------------------


@pytest.mark.parametrize(
    "index",
    [np.random.default_rng(1).permutation(24), [f"g{i}" for i in range(24)]],
    ids=["shuffled-int-index", "str-index"],
)
def test_series_of_graphs_is_read_by_position(index):
    graphs = make_graphs()
    series = pd.Series(graphs, index=index)
    in_order = list(series)  # iterating a Series goes by position
    labels = pd.Series([int(g.y) for g in graphs], index=index)

    assert np.array_equal(read_graph_labels(series), [int(g.y) for g in in_order])
    expected_x = np.concatenate([g.x.numpy() for g in in_order])
    assert np.array_equal(check_graphs(series)["x"], expected_x)

    from_series = tiny_clf().fit(series, labels)
    from_list = tiny_clf().fit(in_order, labels.to_numpy())
    test = series.iloc[::-1]
    np.testing.assert_array_equal(
        from_series.predict_proba(test), from_list.predict_proba(list(test))
    )
    assert from_list.score(test, labels.iloc[::-1]) == from_list.score(
        list(test), labels.iloc[::-1].to_numpy()
    )


def test_series_of_graphs_in_cross_val_score_pairs_rows_by_position():
    graphs = make_graphs()
    order = np.random.default_rng(2).permutation(len(graphs))
    series = pd.Series(graphs).iloc[order]  # shuffled: its labels are no longer positions
    labels = pd.Series([int(g.y) for g in graphs]).iloc[order]
    cv = StratifiedKFold(2)
    with_series = cross_val_score(tiny_clf(), series, labels, cv=cv, error_score="raise")
    with_list = cross_val_score(tiny_clf(), list(series), labels.to_numpy(), cv=cv)
    np.testing.assert_array_equal(with_series, with_list)


# -- a random transform of a PyG dataset: prediction seeded as fit is -------------------------


def test_random_transform_predictions_do_not_depend_on_the_global_torch_state():
    graphs = make_graphs()
    clf = tiny_clf().fit(noisy_dataset(graphs[:16]))
    test = noisy_dataset(graphs[16:])
    results = []
    for global_seed in (5, 6):
        torch.manual_seed(global_seed)
        results.append((clf.predict_proba(test), clf.score(test)))
    np.testing.assert_array_equal(results[0][0], results[1][0])
    assert results[0][1] == results[1][1]

    # the graphs as read from the fitted seed, by hand: what prediction is documented to see
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(clf.seeds_["data"])
        read = [test[i] for i in range(len(test))]
    np.testing.assert_array_equal(results[0][0], clf.predict_proba(read))
    expected = np.mean(clf.classes_[results[0][0].argmax(axis=1)] == test.y.numpy())
    assert results[0][1] == expected


def test_nested_cv_with_a_random_transform_does_not_depend_on_the_global_torch_state():
    dataset = noisy_dataset(make_graphs())
    scores = []
    for global_seed in (5, 6):
        torch.manual_seed(global_seed)
        search = NestedCV(
            tiny_clf(max_epochs=1), {"lr": [0.01, 0.1]}, outer_cv=StratifiedKFold(3),
            inner_cv=StratifiedKFold(2), n_refits=1, random_state=0, refit=False,
        )  # fmt: skip
        scores.append(search.fit(dataset).outer_scores_)
    np.testing.assert_array_equal(scores[0], scores[1])


def test_nested_cv_reads_the_graphs_without_moving_the_global_torch_state():
    dataset = noisy_dataset(make_graphs())
    torch.manual_seed(3)
    before = torch.get_rng_state()
    prepare_data(dataset, None, None)
    assert torch.equal(torch.get_rng_state(), before)


# -- graphs without node features ---------------------------------------------------------------


def test_graphs_with_zero_node_features_are_refused_as_scikit_learn_refuses_them():
    with pytest.raises(ValueError, match=r"0 feature\(s\) .* while a minimum of 1 is required"):
        LogisticRegression().fit(np.zeros((4, 0)), [0, 1, 0, 1])
    graphs = make_graphs()
    for graph in graphs:
        graph.x = graph.x[:, :0]
    match = (
        r"Found 0 node feature\(s\) in 'x' of the graphs of X \(graph 0: shape "
        rf"\({graphs[0].num_nodes}, 0\)\) while a minimum of 1 is required"
    )
    with pytest.raises(ValueError, match=match):
        tiny_clf().fit(graphs)
    with pytest.raises(ValueError, match=r"0 node feature\(s\) in 'x' of the graphs of X"):
        NestedCV(tiny_clf(), {"lr": [0.01]}, outer_cv=2, inner_cv=2).fit(graphs)
    stacked = check_graphs(make_graphs(3))
    with pytest.raises(ValueError, match=r"0 node feature\(s\) in 'x' of the graphs of GraphColl"):
        GraphCollection(
            stacked["x"][:, :0], stacked["edge_index"], stacked["node_ptr"], stacked["edge_ptr"]
        )


def test_graphs_with_zero_edge_features_train_as_graphs_without_them():
    # PyG's TUDataset keeps an edge_attr of width 0 for a data set with edge attributes
    # loaded with use_edge_attr=False: no edge feature, not a graph to refuse
    graphs = make_graphs(8)
    with_empty = [graph.clone() for graph in graphs]
    for graph in with_empty:
        graph.edge_attr = torch.zeros(graph.num_edges, 0)
    expected = tiny_clf().fit(graphs).predict_proba(graphs)
    np.testing.assert_array_equal(tiny_clf().fit(with_empty).predict_proba(with_empty), expected)


def test_graphs_without_x_are_told_the_pyg_transform_that_gives_them_features():
    graphs = make_graphs()
    for graph in graphs:
        graph.num_nodes = graph.x.shape[0]
        del graph.x
    with pytest.raises(ValueError, match=r"transforms\.Constant\(\)") as info:
        tiny_clf().fit(graphs)
    assert "transforms.OneHotDegree(max_degree)" in str(info.value)
    # the hint works: PyG's Constant gives each node the one feature 1
    fitted = tiny_clf().fit([T.Constant()(graph) for graph in graphs])
    assert fitted.num_node_features_ == 1
