"""Early stopping as the reference code of Errica et al. (2020) does it.

The ``Patience`` and ``GLStopper`` of diningphil/gnn-comparison (``models/utils/EarlyStopper.py``,
called by ``models/gnn_wrapper/NetWrapper.py`` once per epoch, from 1); the rules are told in
GraphClassifier's ``early_stopping`` parameter. The reference reports the metrics of the best
epoch; GraphClassifier restores that epoch's weights, which gives the same test predictions.
"""

import copy
import math

from skorch.callbacks import Callback

__all__ = ["ReferenceEarlyStopping", "StoppingRule"]


class StoppingRule:
    """The decision of the reference's stoppers, one epoch at a time (``lower_is_better`` is
    its ``use_loss``; ``patience`` is read by ``"patience"``, ``alpha`` and ``start_epoch`` by
    ``"generalization_loss"``)."""

    def __init__(self, criterion, *, lower_is_better, patience, alpha, start_epoch):
        self.criterion = criterion
        self.lower_is_better = lower_is_better
        self.patience = patience
        self.alpha = alpha
        self.start_epoch = start_epoch
        self.best_score = math.inf if lower_is_better else -math.inf
        self.best_epoch = None
        # the reference's Patience starts at -1: before any best epoch (NaN scores) one more
        # epoch passes before it stops; every best epoch resets it to 0
        self.counter = -1

    def update(self, epoch, score):
        """Record the score of ``epoch`` (1-based); return ``(is_best, stop)``."""
        if self.criterion == "generalization_loss" and epoch <= self.start_epoch:
            return False, False
        # comparisons as the reference writes them: a NaN score is never an improvement
        improved = score <= self.best_score if self.lower_is_better else score >= self.best_score
        if improved:
            self.best_score, self.best_epoch, self.counter = score, epoch, 0
            return True, False
        if self.criterion == "patience":
            self.counter += 1
            return False, self.counter >= self.patience
        return False, self._generalization_loss(score) > self.alpha

    def _generalization_loss(self, score):
        best = self.best_score
        if self.lower_is_better:
            return 100 * (score / best - 1) if best else math.inf
        return best / score - 1 if score else math.inf


class ReferenceEarlyStopping(Callback):
    """Stop a skorch fit by :class:`StoppingRule` and restore the best epoch's weights.

    Records ``stopping_best`` in the history of every epoch with validation data, and
    ``best_epoch_`` (1-based, ``None`` if no epoch qualified). With ``criterion="patience"``
    and ``patience=None`` it does nothing: training runs to the end with the last weights.
    """

    def __init__(self, monitor, criterion, *, patience, alpha, start_epoch):
        self.monitor = monitor
        self.criterion = criterion
        self.patience = patience
        self.alpha = alpha
        self.start_epoch = start_epoch

    def on_train_begin(self, net, **kwargs):
        self.best_state_ = None
        self.best_epoch_ = None
        self.rule_ = None
        if self.criterion == "patience" and self.patience is None:
            return
        self.rule_ = StoppingRule(
            self.criterion,
            lower_is_better=self.monitor.endswith("loss"),
            patience=self.patience,
            alpha=self.alpha,
            start_epoch=self.start_epoch,
        )

    def on_epoch_end(self, net, **kwargs):
        if self.rule_ is None or self.monitor not in net.history[-1]:
            return  # no rule, or a fit without validation data
        epoch = len(net.history)
        is_best, stop = self.rule_.update(epoch, net.history[-1, self.monitor])
        net.history.record("stopping_best", is_best)
        if is_best:
            self.best_state_ = copy.deepcopy(net.module_.state_dict())
            self.best_epoch_ = epoch
        if stop:
            raise KeyboardInterrupt  # skorch's way to end fit_loop; on_train_end still runs

    def on_train_end(self, net, **kwargs):
        if self.best_state_ is not None:
            net.module_.load_state_dict(self.best_state_)
            self.best_state_ = None  # not kept in the fitted estimator's pickle
