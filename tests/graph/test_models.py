"""Every model of the paper trains on MUTAG and beats the majority class on held-out graphs."""

import pytest
import torch
from torch_geometric.data import Batch, Data

from sklearn_fair.graph import (
    DGCNN,
    ECC,
    GIN,
    DeepMultisets,
    DiffPool,
    GraphClassifier,
    GraphSAGE,
    MolecularFingerprint,
)

# Small models and few epochs: each fit takes about a second on one CPU thread.
FAST_CONFIGS = {
    MolecularFingerprint: dict(module__hidden_units=32, lr=0.01, max_epochs=15),
    DeepMultisets: dict(module__hidden_units=32, lr=0.01, max_epochs=15),
    GIN: dict(module__hidden_units=[32, 32], module__dropout=0.0, lr=0.01, max_epochs=15),
    GraphSAGE: dict(module__dim_embedding=32, module__num_layers=2, lr=0.01, max_epochs=15),
    DGCNN: dict(module__embedding_dim=32, module__num_layers=2, lr=0.01, max_epochs=15),
    DiffPool: dict(
        module__gnn_dim_hidden=16,
        module__dim_embedding=16,
        module__dim_embedding_MLP=16,
        lr=0.01,
        max_epochs=15,
    ),
    ECC: dict(module__num_layers=1, module__dim_embedding=16, lr=0.001, max_epochs=15),
}


@pytest.mark.parametrize("module", list(FAST_CONFIGS), ids=lambda m: m.__name__)
def test_model_beats_majority_class_on_mutag(module, mutag_split):
    X_train, X_test, majority = mutag_split
    clf = GraphClassifier(module, validation_fraction=None, random_state=0, **FAST_CONFIGS[module])
    clf.fit(X_train)
    assert clf.score(X_test) > majority


def _graph(num_nodes, edges, features=3):
    edge_index = torch.tensor(edges, dtype=torch.long).t().reshape(2, -1)
    return Data(x=torch.randn(num_nodes, features), edge_index=edge_index)


MODULE_KWARGS = {
    MolecularFingerprint: dict(hidden_units=8),
    DeepMultisets: dict(hidden_units=8),
    GIN: dict(hidden_units=[8, 8]),
    GraphSAGE: dict(dim_embedding=8, num_layers=2),
    DGCNN: dict(k=10, embedding_dim=8, num_layers=2, dense_dim=8),
    DiffPool: dict(gnn_dim_hidden=8, dim_embedding=8, dim_embedding_MLP=8, max_num_nodes=12),
    ECC: dict(num_layers=1, dim_embedding=8),
}


@pytest.mark.parametrize("module", list(MODULE_KWARGS), ids=lambda m: m.__name__)
def test_graphs_without_edges_and_isolated_nodes(module):
    graphs = [
        _graph(4, []),  # no edges at all
        _graph(5, [(0, 1), (1, 0)]),  # nodes 2, 3, 4 isolated
        _graph(3, [(0, 1), (1, 2), (2, 0)]),
    ]
    model = module(3, 2, **MODULE_KWARGS[module])
    out = model(Batch.from_data_list(graphs))
    assert out.shape == (3, 2)
    assert torch.isfinite(out).all()
    out.sum().backward()  # gradients flow through empty neighbourhoods as well


def test_classifier_trains_on_graphs_without_edges():
    generator = torch.Generator().manual_seed(0)
    graphs = []
    for index in range(24):
        label = index % 2
        x = torch.randn(4, 2, generator=generator) + 2 * label
        graphs.append(
            Data(x=x, edge_index=torch.empty(2, 0, dtype=torch.long), y=torch.tensor([label]))
        )
    clf = GraphClassifier(GIN, module__hidden_units=[8], max_epochs=2, random_state=0)
    clf.fit(graphs)
    assert clf.predict(graphs).shape == (24,)


def test_dgcnn_k_from_quantile_of_graph_sizes():
    assert DGCNN(3, 2, k=0.5, node_counts=list(range(1, 41))).k == 20
    assert DGCNN(3, 2, k=0.6, node_counts=[4, 5, 6]).k == 10  # never below 10
    assert DGCNN(3, 2, k=35).k == 35
    with pytest.raises(ValueError, match="node_counts"):
        DGCNN(3, 2, k=0.6)
    with pytest.raises(ValueError, match="'k' parameter of DGCNN"):
        DGCNN(3, 2, k=1.5)


def test_model_parameters_are_checked():
    with pytest.raises(ValueError, match="'aggregation' parameter of GIN"):
        GIN(3, 2, aggregation="max")
    with pytest.raises(ValueError, match="'aggregation' parameter of GraphSAGE"):
        GraphSAGE(3, 2, aggregation="lstm")
    with pytest.raises(ValueError, match="node_counts or max_num_nodes"):
        DiffPool(3, 2)


def test_diffpool_adds_its_auxiliary_loss_and_pickles(mutag_split):
    import pickle

    X_train, _, _ = mutag_split
    clf = GraphClassifier(
        DiffPool,
        module__gnn_dim_hidden=8,
        module__dim_embedding=8,
        module__dim_embedding_MLP=8,
        max_epochs=1,
        validation_fraction=None,
        random_state=0,
    )
    clf.fit(X_train[:40])
    assert clf.module_.auxiliary_loss is None  # consumed by the loss
    pickle.loads(pickle.dumps(clf)).predict(X_train[:3])


def test_ecc_conditions_on_edge_features_when_present():
    graphs = [_graph(4, [(0, 1), (1, 2), (2, 3)]) for _ in range(2)]
    for graph in graphs:
        graph.edge_attr = torch.randn(graph.num_edges, 5)
    model = ECC(3, 2, num_layers=1, dim_embedding=8, edge_dim=5)
    assert model.convs[0].conv.nn[0].in_features == 5
    assert model(Batch.from_data_list(graphs)).shape == (2, 2)
