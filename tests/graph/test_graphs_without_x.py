"""Hunt GUIDEB-1: graphs without a node-feature matrix ``x`` are refused in the same words
by check_graphs, GraphCollection, GraphClassifier.fit and NestedCV, naming the feature
schemes; graphs of which none has ``x`` are refused only where ``x`` is needed."""

import re

import numpy as np
import pytest
import torch
from sklearn.dummy import DummyClassifier
from sklearn.model_selection import GridSearchCV
from torch_geometric.data import Data

from sklearn_fair import NestedCV
from sklearn_fair.graph import GIN, GraphClassifier, GraphCollection
from sklearn_fair.utils import check_graphs

SCHEMES = r"features='constant'.*features='degree'.*transforms\.Constant\(\)"


def make_graphs(n_graphs=12, without_x=()):
    """Paths of 4 nodes (3 node features), the graphs ``without_x`` (or all: None) without x."""
    graphs = []
    for index in range(n_graphs):
        has_x = without_x is not None and index not in without_x
        features = {"x": torch.ones(4, 3)} if has_x else {}
        edge_index = torch.tensor([[0, 1, 1, 2, 2, 3], [1, 0, 2, 1, 3, 2]])
        label = torch.tensor([index % 2])
        graphs.append(Data(edge_index=edge_index, y=label, num_nodes=4, **features))
    return graphs


def gin():
    return GraphClassifier(GIN, module__hidden_units=[4], max_epochs=1, batch_size=4)


def message(call):
    with pytest.raises(ValueError) as info:
        call()
    return str(info.value)


def test_one_graph_without_x_is_refused_in_the_same_words_everywhere():
    graphs = make_graphs(without_x={3})
    words = message(lambda: check_graphs(graphs))
    assert words.startswith("Graph 3 of X has no node-feature matrix 'x' but graph 0 has one")
    assert words == message(lambda: gin().fit(graphs))
    nested = NestedCV(gin(), {"lr": [0.01]}, outer_cv=2, inner_cv=2, random_state=0)
    assert words == message(lambda: nested.fit(graphs))
    from_list = message(lambda: GraphCollection.from_data_list(graphs))
    assert from_list == words.replace("of X", "of data_list")
    assert re.search(SCHEMES, words)


def test_graphs_with_no_x_at_all_are_refused_where_x_is_needed():
    graphs = make_graphs(without_x=None)
    # taken by the general check (an estimator may read only structure or labels): the node
    # counts come from num_nodes, 4 per graph
    arrays = check_graphs(graphs)
    assert arrays["x"] is None
    np.testing.assert_array_equal(arrays["node_ptr"], np.arange(0, 4 * 12 + 1, 4))
    words = message(lambda: check_graphs(graphs, require_x=True))
    assert words.startswith("Graph 0 of X has no node-feature matrix 'x'. Graphs without node")
    assert re.search(SCHEMES, words)
    assert words == message(lambda: gin().fit(graphs))
    from_list = message(lambda: GraphCollection.from_data_list(graphs))
    assert from_list == words.replace("of X", "of data_list")


@pytest.mark.parametrize("searched", [False, True])
def test_nested_cv_refuses_graphs_without_x_for_a_graph_classifier_before_any_fit(searched):
    graphs = make_graphs(without_x=None)
    words = message(lambda: check_graphs(graphs, require_x=True))
    estimator, grid = gin(), {"lr": [0.01]}
    if searched:
        estimator, grid = GridSearchCV(estimator, grid), None
    nested = NestedCV(estimator, grid, outer_cv=2, inner_cv=2, random_state=0, refit=False)
    assert message(lambda: nested.fit(graphs)) == words  # not "All the 2 fits failed"
    # an estimator that does not read x takes them
    dummy = NestedCV(DummyClassifier(), {"strategy": ["prior"]}, outer_cv=2, inner_cv=2)
    dummy.fit(graphs)
