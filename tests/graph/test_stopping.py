"""Early stopping as the reference code of Errica et al. decides it, on scripted score sequences.

The expected epochs are worked out by hand from the rules of diningphil/gnn-comparison's
``models/utils/EarlyStopper.py`` (``Patience`` and ``GLStopper``): a tie counts as an
improvement, epochs count from 1. skorch's ``EarlyStopping`` (a strict improvement) is run on
the same sequences to show where the two disagree.
"""

import math
from types import SimpleNamespace

import pytest
import torch
from skorch.callbacks import EarlyStopping
from skorch.history import History

from sklearn_fair.graph import GraphClassifier, GraphCollection
from sklearn_fair.graph._stopping import StoppingRule


def run_rule(scores, criterion="patience", lower_is_better=False, patience=2, alpha=5.0, start=0):
    rule = StoppingRule(
        criterion,
        lower_is_better=lower_is_better,
        patience=patience,
        alpha=alpha,
        start_epoch=start,
    )
    for epoch, score in enumerate(scores, 1):
        _, stop = rule.update(epoch, score)
        if stop:
            return epoch, rule.best_epoch
    return len(scores), rule.best_epoch


def run_skorch(scores, lower_is_better, patience):
    """Where skorch's EarlyStopping stops and which epoch it keeps, on the same scores."""
    stopper = EarlyStopping(
        monitor="score",
        patience=patience,
        lower_is_better=lower_is_better,
        threshold=0.0,
        threshold_mode="abs",
    )
    net = SimpleNamespace(history=History(), verbose=0)
    stopper.on_train_begin(net)
    for epoch, score in enumerate(scores, 1):
        net.history.new_epoch()
        net.history.record("epoch", epoch)
        net.history.record("score", score)
        try:
            stopper.on_epoch_end(net)
        except KeyboardInterrupt:
            return epoch, stopper.best_epoch_
    return len(scores), stopper.best_epoch_


ACCURACY_WITH_TIES = [0.5, 0.6, 0.6, 0.55, 0.6, 0.5, 0.5]


def test_patience_on_accuracy_keeps_the_latest_tie_and_restarts_the_count():
    # epochs 2, 3 and 5 tie at 0.6: the latest (5) is kept; 6 and 7 miss -> stop at 7
    assert run_rule(ACCURACY_WITH_TIES, patience=2) == (7, 5)
    # skorch needs a strict improvement: it keeps epoch 2 and stops at epoch 4
    assert run_skorch(ACCURACY_WITH_TIES, lower_is_better=False, patience=2) == (4, 2)


def test_patience_on_loss():
    losses = [1.0, 0.8, 0.8, 0.9, 0.95, 0.7]
    assert run_rule(losses, lower_is_better=True, patience=2) == (5, 3)
    assert run_rule(losses, lower_is_better=True, patience=3) == (6, 6)


def test_generalization_loss_on_loss_ignores_early_epochs():
    # epochs 1-2 are ignored (start=2), even their low losses; from epoch 3 on the best is
    # 1.0, 0.9, then the tie at epoch 5; epoch 6: 100 * (0.94 / 0.9 - 1) = 4.4 <= 5 goes on;
    # epoch 7: 100 * (0.95 / 0.9 - 1) = 5.6 > 5 stops.
    losses = [0.5, 0.1, 1.0, 0.9, 0.9, 0.94, 0.95, 0.1]
    assert run_rule(losses, "generalization_loss", lower_is_better=True, start=2) == (7, 5)


def test_generalization_loss_on_accuracy_is_a_ratio_not_a_percentage():
    # the reference compares best / acc - 1 with alpha (no factor 100 for the accuracy)
    # epoch 3: 0.6 / 0.5 - 1 = 0.2; epoch 4: 0.6 / 0.39 - 1 = 0.54
    accuracies = [0.6, 0.6, 0.5, 0.39]
    assert run_rule(accuracies, "generalization_loss", alpha=0.5) == (4, 2)
    # as a percentage (20 at epoch 3) it would stop at epoch 3 with alpha=5; it does not
    assert run_rule(accuracies, "generalization_loss", alpha=5.0) == (4, 2)


def test_a_nan_score_is_never_the_best_epoch():
    assert run_rule([0.5, math.nan, math.nan], patience=2) == (3, 1)
    assert run_rule([math.nan, 0.4], lower_is_better=True, patience=5) == (2, 2)


class ScriptedAccuracy(torch.nn.Module):
    """Validation accuracy follows a script; the weights change every training step.

    Node feature 0 is the graph's label, so in evaluation mode the module can answer right
    for the first ``script[epoch] * n`` graphs of the (single) validation batch and wrong for
    the rest. It keeps a copy of its weights at every validation pass.
    """

    def __init__(self, in_channels, out_channels, script=()):
        super().__init__()
        self.bias = torch.nn.Parameter(torch.zeros(out_channels))
        self.script = list(script)
        self.snapshots = []

    def forward(self, batch):
        labels = batch.x[batch.ptr[:-1], 0].long()
        n_graphs = len(labels)
        if self.training:
            return self.bias.expand(n_graphs, -1) + 0.0
        self.snapshots.append(self.bias.detach().clone())
        n_right = round(self.script[len(self.snapshots) - 1] * n_graphs)
        answer = torch.where(torch.arange(n_graphs) < n_right, labels, 1 - labels)
        return 10.0 * torch.nn.functional.one_hot(answer, 2).float() + self.bias


def labelled_graphs(n_graphs):
    """One-node graphs whose node feature is their label; 2 of 3 are class 0, so the
    training gradient of the bias is not zero."""
    labels = (torch.arange(n_graphs) % 3 == 0).long()
    return GraphCollection(
        labels.float().reshape(-1, 1).numpy(),
        torch.zeros(2, 0, dtype=torch.long).numpy(),
        range(n_graphs + 1),
        [0] * (n_graphs + 1),
        y=labels.numpy(),
    )


@pytest.mark.parametrize(
    "criterion, params, script, stop, best",
    [
        ("patience", dict(patience=2), [0.5, 0.6, 0.6, 0.5, 0.6, 0.5, 0.5, 0.9], 7, 5),
        ("generalization_loss", dict(gl_alpha=0.5), [0.4, 0.8, 0.8, 0.7, 0.5, 0.9], 5, 3),
        ("generalization_loss", dict(gl_start_epoch=3), [0.9, 0.9, 0.9], 3, None),
    ],
)
def test_graph_classifier_stops_and_restores_the_selected_epoch(
    criterion, params, script, stop, best
):
    X, X_val = labelled_graphs(20), labelled_graphs(10)
    clf = GraphClassifier(
        ScriptedAccuracy,
        module__script=script,
        early_stopping=criterion,
        batch_size=-1,
        lr=0.1,
        max_epochs=len(script),
        random_state=0,
        **params,
    ).fit(X, X_val=X_val)
    assert len(clf.history) == stop
    assert clf.best_epoch_ == best
    snapshots = clf.module_.snapshots
    restored = clf.module_.bias.detach()
    if best is None:  # no epoch selected: the last weights stay
        assert torch.equal(restored, snapshots[-1])
    else:
        assert torch.equal(restored, snapshots[best - 1])
        assert not torch.equal(restored, snapshots[-1])
    assert clf.history[:, "valid_acc"] == pytest.approx(script[:stop])


def test_patience_none_keeps_the_last_weights():
    X, X_val = labelled_graphs(20), labelled_graphs(10)
    clf = GraphClassifier(
        ScriptedAccuracy,
        module__script=[0.9, 0.1, 0.1],
        patience=None,
        batch_size=-1,
        lr=0.1,
        max_epochs=3,
        random_state=0,
    ).fit(X, X_val=X_val)
    assert len(clf.history) == 3 and clf.best_epoch_ is None
    assert torch.equal(clf.module_.bias.detach(), clf.module_.snapshots[-1])


def test_before_any_best_epoch_patience_counts_from_minus_one_as_the_reference():
    # the reference's Patience starts its counter at -1: three NaN losses then 0.5 is not a
    # stop at epoch 3 with patience 3 (the counter reaches 2); it selects epoch 4. Its counter
    # started at 0 here, which stopped at epoch 3 before the epoch the reference selects
    losses = [math.nan, math.nan, math.nan, 0.5, 0.4]
    assert run_rule(losses, lower_is_better=True, patience=3) == (5, 5)
    assert run_rule([math.nan] * 4, lower_is_better=True, patience=3) == (4, None)
