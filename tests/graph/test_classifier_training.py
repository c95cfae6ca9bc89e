"""GraphClassifier's training loop: the arithmetic of a hand-written loop, and every callback."""

import numpy as np
import pytest
import torch
from skorch.callbacks import Callback

from sklearn_fair.graph import GIN, GraphClassifier
from sklearn_fair.graph._batching import GraphDataset, GraphLoader

PARAMS = dict(module__hidden_units=[16, 16], module__dropout=0.5, batch_size=16, lr=0.01)


def hand_loop(clf, graphs, epochs, graphs_val=None):
    """The loop one writes by hand, with the seeds of ``clf.seeds_`` (a fitted classifier's)."""
    labels = np.searchsorted(clf.classes_, graphs.y)
    generator = torch.Generator().manual_seed(clf.seeds_["order"])
    loader = GraphLoader(
        GraphDataset(graphs, torch.as_tensor(labels)),
        batch_size=16,
        shuffle=True,
        generator=generator,
    )
    with torch.random.fork_rng():
        torch.manual_seed(clf.seeds_["torch"])
        model = GIN(graphs.num_node_features, len(clf.classes_), hidden_units=[16, 16])
        optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
        criterion = torch.nn.CrossEntropyLoss()
        for _ in range(epochs):
            model.train()
            for batch, y in loader:
                optimizer.zero_grad()
                criterion(model(batch), y).backward()
                optimizer.step()
            if graphs_val is not None:  # evaluation mode: draws nothing, changes nothing
                model.eval()
                validation = GraphDataset(
                    graphs_val, torch.zeros(len(graphs_val), dtype=torch.long)
                )
                with torch.no_grad():
                    for batch, _ in GraphLoader(validation, batch_size=16):
                        model(batch)
    return model.state_dict()


@pytest.mark.parametrize("with_validation", [False, True])
def test_training_is_the_hand_written_loop_bit_for_bit(with_validation, mutag):
    """Same batches in the same order, the same dropout draws, the same updates: the
    parameters of a seeded fit equal, bit for bit, those of the hand loop with its seeds."""
    graphs, graphs_val = mutag[:120], mutag[120:170]
    clf = GraphClassifier(
        GIN, max_epochs=3, patience=None, validation_fraction=None, random_state=5, **PARAMS
    )
    clf.fit(graphs, X_val=graphs_val if with_validation else None)
    expected = hand_loop(clf, graphs, 3, graphs_val if with_validation else None)
    fitted = clf.module_.state_dict()
    assert list(fitted) == list(expected)
    for name, value in expected.items():
        assert torch.equal(fitted[name], value), name
    # the check can fail: another seed trains other weights
    other = GraphClassifier(
        GIN, max_epochs=3, patience=None, validation_fraction=None, random_state=6, **PARAMS
    ).fit(graphs)
    assert not torch.equal(
        other.module_.state_dict()["readouts.0.weight"], expected["readouts.0.weight"]
    )


class _Counter(Callback):
    """Counts the per-batch hooks and checks their order around the optimizer's step."""

    def initialize(self):
        self.calls = {"on_batch_begin": 0, "on_batch_end": 0, "on_grad_computed": 0}
        self.training = {True: 0, False: 0}
        self.stepped_after_grads = []
        return self

    def on_batch_begin(self, net, batch=None, training=False, **kwargs):
        self.calls["on_batch_begin"] += 1

    def on_grad_computed(self, net, named_parameters, batch=None, training=False, **kwargs):
        self.calls["on_grad_computed"] += 1
        named = dict(named_parameters)
        assert list(named) == [name for name, _ in net.module_.named_parameters()]
        assert all(param.grad is not None for param in named.values())  # this batch's gradients
        self.before_step_ = named["readouts.0.weight"].detach().clone()

    def on_batch_end(self, net, batch=None, training=False, **kwargs):
        self.calls["on_batch_end"] += 1
        self.training[training] += 1
        if training:  # the optimizer stepped between on_grad_computed and on_batch_end
            after = dict(net.module_.named_parameters())["readouts.0.weight"]
            self.stepped_after_grads.append(not torch.equal(after, self.before_step_))


@pytest.mark.parametrize("optimizer", [torch.optim.Adam, torch.optim.SGD, torch.optim.LBFGS])
def test_user_callbacks_get_every_per_batch_hook(optimizer, mutag):
    graphs, graphs_val = mutag[:100], mutag[100:140]  # 7 training and 3 validation batches
    counter = _Counter()
    clf = GraphClassifier(
        GIN,
        max_epochs=2,
        optimizer=optimizer,
        random_state=0,
        callbacks=[("counter", counter)],
        **PARAMS,
    )
    clf.fit(graphs, X_val=graphs_val)
    counter = dict(clf.callbacks_)["counter"]
    train, valid = 2 * 7, 2 * 3
    # LBFGS evaluates its closure (forward, backward, on_grad_computed) more than once a step
    grads = counter.calls["on_grad_computed"]
    assert grads == train if optimizer is not torch.optim.LBFGS else grads > train
    assert counter.calls["on_batch_begin"] == counter.calls["on_batch_end"] == train + valid
    assert counter.training == {True: train, False: valid}
    assert len(counter.stepped_after_grads) == train
    if optimizer is not torch.optim.LBFGS:  # which may stop on its last evaluation
        assert all(counter.stepped_after_grads)
    assert clf.history[-1, "train_batch_count"] == 7
    assert [row["train_batch_size"] for row in clf.history[-1, "batches"][:7]] == [16] * 6 + [4]
