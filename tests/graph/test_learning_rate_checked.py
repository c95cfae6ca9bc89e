"""GraphClassifier refuses a learning rate that is not a positive number before any epoch."""

import pytest
from sklearn.utils._param_validation import InvalidParameterError
from skorch.callbacks import Callback

from sklearn_fair.graph import DeepMultisets, GraphClassifier


class _CountEpochs(Callback):
    def __init__(self):
        self.epochs = 0

    def on_epoch_begin(self, net, **kwargs):
        self.epochs += 1


@pytest.mark.parametrize("lr", [0, 0.0, -0.01, "0.01", True, None])
def test_a_learning_rate_that_is_not_positive_is_refused_before_training(mutag, lr):
    counter = _CountEpochs()
    clf = GraphClassifier(
        DeepMultisets, module__hidden_units=8, lr=lr, max_epochs=2, random_state=0,
        callbacks=[("count", counter)],
    )  # fmt: skip
    with pytest.raises(InvalidParameterError, match=r"The 'lr' parameter of GraphClassifier "
                       r"must be a float in the range \(0.0, inf\)"):  # fmt: skip
        clf.fit(mutag[:20])
    assert counter.epochs == 0


def test_a_positive_learning_rate_trains(mutag):
    counter = _CountEpochs()
    clf = GraphClassifier(
        DeepMultisets, module__hidden_units=8, lr=0.01, max_epochs=2, random_state=0,
        callbacks=[("count", counter)],
    ).fit(mutag[:20])  # fmt: skip
    assert counter.epochs == 2 and len(clf.history) == 2
