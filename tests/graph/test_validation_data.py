"""Which graphs GraphClassifier trains and early-stops on, counted in the module's forward passes.

The node feature of every graph is its id, and a recording module notes the ids of each forward
pass in training mode (training steps) and evaluation mode (validation steps).
"""

import numpy as np
import pytest
import sklearn
import torch
from sklearn.pipeline import Pipeline
from skorch.dataset import ValidSplit

from sklearn_fair.graph import GraphClassifier, GraphCollection


class GraphIdRecorder(torch.nn.Module):
    """Logits from a linear layer on a constant; records the graph ids of every batch."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.linear = torch.nn.Linear(1, out_channels)
        self.seen = {"train": [], "valid": []}
        self.threads = []

    def forward(self, batch):
        ids = batch.x[batch.ptr[:-1], 0].long()
        self.seen["train" if self.training else "valid"].append(ids.clone())
        self.threads.append(torch.get_num_threads())
        return self.linear(torch.ones(len(ids), 1))


def seen_ids(clf, kind):
    return torch.cat(clf.module_.seen[kind]).numpy()


@pytest.fixture(scope="module")
def id_graphs(mutag):
    """MUTAG's structure and labels, with each graph's id as its only node feature."""
    ids = np.repeat(np.arange(len(mutag)), mutag.node_counts).astype(np.float32)
    return GraphCollection(
        ids.reshape(-1, 1), mutag.edge_index, mutag.node_ptr, mutag.edge_ptr, y=mutag.y
    )


def make_clf(**params):
    defaults = dict(max_epochs=3, batch_size=16, random_state=0, lr=0.01)
    return GraphClassifier(GraphIdRecorder, **{**defaults, **params})


def assert_each_epoch_sees(ids, expected, n_epochs):
    assert len(ids) == n_epochs * len(expected)
    for epoch in np.split(ids, n_epochs):
        np.testing.assert_array_equal(np.sort(epoch), np.sort(expected))


@pytest.mark.parametrize("labels", ["from the graphs", "given"])
def test_x_val_trains_on_all_of_x_and_stops_on_exactly_x_val(labels, id_graphs):
    train = np.arange(0, 188, 2)
    valid = np.arange(1, 120, 3)
    X, X_val = id_graphs[train], id_graphs[valid]
    y_val = None if labels == "from the graphs" else id_graphs.y[valid]
    clf = make_clf(validation_fraction=0.3).fit(X, X_val=X_val, y_val=y_val)
    assert_each_epoch_sees(seen_ids(clf, "train"), train, 3)
    assert_each_epoch_sees(seen_ids(clf, "valid"), valid, 3)


@pytest.mark.parametrize("X_kind", ["list", "object array"])
def test_x_val_as_a_list_of_data(X_kind, id_graphs):
    X = list(id_graphs[:100])
    X_val = list(id_graphs[100:150])
    if X_kind == "object array":
        X_val = np.array(X_val + [None], dtype=object)[:-1]
    clf = make_clf(max_epochs=1).fit(X, X_val=X_val)
    assert_each_epoch_sees(seen_ids(clf, "valid"), np.arange(100, 150), 1)


def test_validation_fraction_holds_out_a_stratified_seeded_split(id_graphs):
    clf = make_clf(validation_fraction=0.25).fit(id_graphs)
    trained, validated = seen_ids(clf, "train"), seen_ids(clf, "valid")
    held_out = np.unique(validated)
    assert_each_epoch_sees(trained, np.setdiff1d(np.arange(188), held_out), 3)
    assert len(held_out) == 47
    counts = np.bincount(id_graphs.y[held_out])
    np.testing.assert_allclose(counts / 47, np.bincount(id_graphs.y) / 188, atol=0.02)
    again = make_clf(validation_fraction=0.25).fit(id_graphs)
    np.testing.assert_array_equal(np.unique(seen_ids(again, "valid")), held_out)


def test_train_split_may_be_skorchs_valid_split(id_graphs):
    splitter = ValidSplit(0.2, stratified=True, random_state=3)
    clf = make_clf(train_split=splitter).fit(id_graphs)
    _, expected = splitter(np.arange(188), id_graphs.y)
    assert_each_epoch_sees(seen_ids(clf, "valid"), np.asarray(expected.indices), 3)


def test_no_validation_fraction_and_no_x_val_means_no_early_stopping(id_graphs):
    clf = make_clf(validation_fraction=None, max_epochs=4, patience=1).fit(id_graphs)
    assert len(clf.history) == 4 and clf.best_epoch_ is None
    assert clf.module_.seen["valid"] == []
    assert "valid_loss" not in clf.history[-1]


def test_metadata_routing_hands_x_val_to_fit(id_graphs):
    X, X_val = id_graphs[:120], id_graphs[120:]
    with sklearn.config_context(enable_metadata_routing=True):
        clf = make_clf(max_epochs=2).set_fit_request(X_val=True, y_val=True)
        pipeline = Pipeline([("gnn", clf)]).fit(X, X.y, X_val=X_val, y_val=X_val.y)
    fitted = pipeline.named_steps["gnn"]
    assert_each_epoch_sees(seen_ids(fitted, "train"), np.arange(120), 2)
    assert_each_epoch_sees(seen_ids(fitted, "valid"), np.arange(120, 188), 2)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(y_val=[0, 1]), "y_val was passed to fit without X_val"),
        (dict(X_val="val", y_val=np.full(20, 7)), r"y_val holds labels \[7\]"),
        (dict(X_val="val", y_val=np.zeros(3)), "X_val holds 20 graphs but y_val holds 3"),
        (dict(X_val="narrow"), "X_val has 2 node features"),
    ],
)
def test_bad_validation_data(kwargs, match, id_graphs):
    if isinstance(kwargs.get("X_val"), str):
        X_val = id_graphs[150:170]
        if kwargs["X_val"] == "narrow":
            X_val = GraphCollection(
                np.ones((len(X_val.x), 2)),
                X_val.edge_index,
                X_val.node_ptr,
                X_val.edge_ptr,
                y=X_val.y,
            )
        kwargs = {**kwargs, "X_val": X_val}
    with pytest.raises(ValueError, match=match):
        make_clf(max_epochs=1).fit(id_graphs[:150], **kwargs)


@pytest.mark.parametrize("torch_threads, inside", [(1, 1), (None, 2), (3, 3)])
def test_torch_threads_are_set_for_fit_and_predict_and_restored(torch_threads, inside, id_graphs):
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        clf = make_clf(max_epochs=1, torch_threads=torch_threads).fit(id_graphs[:60])
        assert torch.get_num_threads() == 2
        clf.module_.threads.clear()
        clf.predict(id_graphs[60:80])
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)
    assert set(clf.module_.threads) == {inside}


class ConstantWithAuxiliaryLoss(torch.nn.Module):
    """Logits 0 (cross-entropy log 2 for two classes) and an auxiliary loss of 0.5."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.bias = torch.nn.Parameter(torch.zeros(out_channels))
        self.auxiliary_loss = None

    def forward(self, batch):
        self.auxiliary_loss = torch.tensor(0.5)
        return self.bias.expand(batch.num_graphs, -1) * 0.0


def test_auxiliary_loss_counts_in_training_and_validation_losses(id_graphs):
    clf = GraphClassifier(ConstantWithAuxiliaryLoss, max_epochs=2, random_state=0).fit(
        id_graphs[:100], X_val=id_graphs[100:]
    )
    expected = np.log(2) + 0.5
    np.testing.assert_allclose(clf.history[:, "train_loss"], expected, rtol=1e-6)
    np.testing.assert_allclose(clf.history[:, "valid_loss"], expected, rtol=1e-6)
    np.testing.assert_allclose(clf.predict_proba(id_graphs[:5]), 0.5)
    assert clf.module_.auxiliary_loss is None  # consumed, not left behind by predict


def test_a_y_other_than_the_graphs_labels_needs_y_val_for_early_stopping(id_graphs):
    train, val = id_graphs[np.arange(0, 120)], id_graphs[np.arange(120, 188)]
    other = (train.node_counts > np.median(train.node_counts)).astype(int)
    assert not np.array_equal(other, train.y)
    with pytest.raises(ValueError, match="Pass y_val") as caught:
        make_clf().fit(train, other, X_val=val)
    assert "X_val without y_val" in str(caught.value)
    other_val = (val.node_counts > np.median(train.node_counts)).astype(int)
    make_clf().fit(train, other, X_val=val, y_val=other_val)
    # the graphs' own labels, given or read, early-stop on the validation graphs' own labels
    for y in (None, train.y, list(train.y)):
        clf = make_clf().fit(train, y, X_val=val)
        assert set(seen_ids(clf, "valid")) == set(range(120, 188))
