"""Mini-batches cut from stacked arrays: the same tensors and draws as PyG's batching."""

import numpy as np
import pytest
import torch
from torch_geometric.data import Batch
from torch_geometric.loader import DataLoader

from sklearn_fair.graph import GIN, GraphClassifier, GraphCollection, load_tu_dataset
from sklearn_fair.graph._batching import GraphDataset, GraphLoader, collate_graphs


@pytest.fixture(scope="module")
def mutag_with_edge_labels(mutag_root):
    return load_tu_dataset("MUTAG", mutag_root, use_edge_attr=True)


@pytest.mark.parametrize("seed", range(3))
def test_batches_equal_pyg_batches(seed, mutag_with_edge_labels):
    graphs = mutag_with_edge_labels
    indices = np.random.default_rng(seed).choice(len(graphs), size=17, replace=True)
    ours = collate_graphs(graphs, indices)
    theirs = Batch.from_data_list([graphs[int(i)] for i in indices])
    assert sorted(ours.keys()) == sorted(theirs.keys())
    for key in ("x", "edge_index", "edge_attr", "y", "batch", "ptr"):
        assert torch.equal(ours[key], theirs[key]), key
        assert ours[key].dtype == theirs[key].dtype
    assert ours.num_graphs == theirs.num_graphs == 17
    # no private attributes of PyG are written (issue 22.5): taking a batch apart into graphs
    # is left to PyG's own batches, with PyG's own error
    with pytest.raises(RuntimeError, match="from_data_list"):
        ours.get_example(0)


def test_batches_of_graphs_without_edges_or_with_one_node(random_graphs):
    graphs = random_graphs(edge_features=True)
    collection = GraphCollection.from_data_list(graphs)
    ours = collate_graphs(collection, [3, 5, 3, 0])
    theirs = Batch.from_data_list([graphs[3], graphs[5], graphs[3], graphs[0]])
    for key in theirs.keys():
        assert torch.equal(ours[key], theirs[key]), key


@pytest.mark.parametrize("shuffle, seeded", [(True, True), (True, False), (False, False)])
@pytest.mark.parametrize("subset", [False, True])
def test_loader_draws_what_pyg_dataloader_draws(shuffle, seeded, subset, mutag):
    """Same batches in the same order, and the same global random state afterwards."""
    dataset = GraphDataset(mutag[:70], torch.as_tensor(mutag.y[:70]))
    if subset:
        dataset = torch.utils.data.Subset(dataset, np.arange(3, 70, 2))
    results = []
    for loader_class in (GraphLoader, DataLoader):
        torch.manual_seed(0)
        generator = torch.Generator().manual_seed(5) if seeded else None
        loader = loader_class(dataset, batch_size=16, shuffle=shuffle, generator=generator)
        passes = [
            [(batch.x.clone(), batch.edge_index, labels) for batch, labels in loader]
            for _ in range(3)
        ]
        results.append((passes, torch.rand(1), len(loader)))
    (ours, ours_after, ours_len), (theirs, theirs_after, theirs_len) = results
    assert ours_len == theirs_len
    for ours_pass, theirs_pass in zip(ours, theirs, strict=True):
        assert len(ours_pass) == len(theirs_pass)
        for ours_batch, theirs_batch in zip(ours_pass, theirs_pass, strict=True):
            for ours_tensor, theirs_tensor in zip(ours_batch, theirs_batch, strict=True):
                assert torch.equal(ours_tensor, theirs_tensor)
    assert torch.equal(ours_after, theirs_after)


def test_classifier_gives_the_same_model_as_with_pyg_dataloader(mutag):
    """With validation split and dropout: identical weights, so identical predictions."""
    params = dict(
        module__hidden_units=[16, 16],
        module__dropout=0.5,
        max_epochs=3,
        batch_size=16,
        validation_fraction=0.2,
        random_state=0,
    )
    ours = GraphClassifier(GIN, **params).fit(mutag[:120])
    theirs = GraphClassifier(
        GIN, iterator_train=DataLoader, iterator_valid=DataLoader, **params
    ).fit(mutag[:120])
    np.testing.assert_array_equal(
        ours.predict_proba(mutag[120:]), theirs.predict_proba(mutag[120:])
    )
    assert ours.history[:, "valid_loss"] == theirs.history[:, "valid_loss"]
