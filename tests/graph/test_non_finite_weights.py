"""A GraphClassifier whose training diverged (weights NaN or inf) is refused, as scikit-learn's
MLPClassifier refuses it ("Solver produced non-finite parameter weights"): its outputs are NaN,
the argmax of NaN is 0, and it would predict classes_[0] for every graph. An epoch whose
validation outputs are NaN has no validation accuracy, so early stopping never selects it."""

import math

import numpy as np
import pytest
from sklearn.exceptions import FitFailedWarning, NotFittedError
from sklearn.utils.validation import check_is_fitted
from skorch.callbacks import Callback

from sklearn_fair import NestedCV
from sklearn_fair.graph import DeepMultisets, GraphClassifier
from sklearn_fair.model_selection import StratifiedGraphKFold


def make_clf(**params):
    defaults = dict(module__hidden_units=8, max_epochs=2, random_state=0)
    return GraphClassifier(DeepMultisets, **{**defaults, **params})


class _RecordHistory(Callback):
    """Keeps each epoch's validation accuracy and selection, readable after a failed fit."""

    def on_train_begin(self, net, **kwargs):
        self.train_loss, self.valid_acc, self.selected = [], [], []

    def on_epoch_end(self, net, **kwargs):
        self.train_loss.append(net.history[-1, "train_loss"])
        self.valid_acc.append(net.history[-1].get("valid_acc"))
        self.selected.append(net.history[-1].get("stopping_best"))


class _DivergeFrom(Callback):
    """Sets a learning rate that blows the weights up from epoch ``epoch`` (1-based) on."""

    def __init__(self, epoch):
        self.epoch = epoch

    def on_epoch_begin(self, net, **kwargs):
        if len(net.history) == self.epoch:  # the net's own on_epoch_begin added its row
            for group in net.optimizer_.param_groups:
                group["lr"] = 1e30


@pytest.fixture(scope="module")
def graphs(mutag):
    # the majority class first in classes_: the class a NaN output's argmax predicted
    y = np.where(np.asarray(mutag.y) == 1, "a_majority", "b_minority")
    return mutag, y


@pytest.mark.parametrize(
    "patience, diverged",
    # without validation graphs all 40 train, in other batches: the loss goes NaN later
    [(10, "train_loss was not finite in epochs 1, 2;"), (None, "in epoch 2.")],
    ids=["early-stopping", "no-validation"],
)
def test_a_fit_whose_weights_go_nan_is_refused_naming_lr(graphs, patience, diverged):
    X, y = graphs
    record = _RecordHistory()
    clf = make_clf(lr=1e30, patience=patience, callbacks=[("record", record)])
    with pytest.raises(ValueError, match=r"non-finite weights") as error:
        clf.fit(X[:40], y[:40])
    message = str(error.value)
    assert "smaller lr than lr=1e+30" in message and "DeepMultisets" in message
    assert diverged in message
    nan_epochs = [epoch for epoch, loss in enumerate(record.train_loss, 1) if np.isnan(loss)]
    assert nan_epochs == ([1, 2] if patience else [2])
    # a failed fit leaves the classifier unfitted, as any fit that fails while training
    with pytest.raises(NotFittedError):
        check_is_fitted(clf, ["classes_", "module_"])
    if patience is not None:
        # NaN outputs have no accuracy: no epoch is selected (the argmax of NaN would have
        # scored the share of classes_[0] among the validation graphs and been selected)
        assert all(math.isnan(acc) for acc in record.valid_acc)
        assert record.selected == [False, False]


def test_a_diverged_epoch_is_never_selected_and_the_last_finite_one_is_restored(graphs):
    # epochs 1 and 2 train with lr=0.01 and epochs 3 and 4 diverge: early stopping restores
    # the best of epochs 1 and 2, which a fit of 2 epochs with the same seeds selects alike
    X, y = graphs
    train, val = slice(0, 120), slice(120, 160)
    record = _RecordHistory()
    diverged = make_clf(
        lr=0.01, max_epochs=4, callbacks=[("diverge", _DivergeFrom(3)), ("record", record)]
    ).fit(X[train], y[train], X_val=X[val], y_val=y[val])
    reference = make_clf(lr=0.01, max_epochs=2).fit(X[train], y[train], X_val=X[val], y_val=y[val])
    assert all(math.isnan(acc) for acc in record.valid_acc[2:])
    assert record.selected[2:] == [False, False]
    assert diverged.best_epoch_ == reference.best_epoch_ in (1, 2)
    np.testing.assert_allclose(
        diverged.predict_proba(X[160:]), reference.predict_proba(X[160:]), rtol=1e-6
    )


def test_nested_cv_counts_a_diverging_candidate_as_failed(graphs):
    X, y = graphs

    def nested(grid):
        return NestedCV(
            make_clf(max_epochs=3, patience=2),
            grid,
            outer_cv=StratifiedGraphKFold(n_splits=3, random_state=0),
            n_refits=1,
            n_jobs=1,
            random_state=0,
        ).fit(X, y)

    with pytest.warns(FitFailedWarning, match="4 of the 12 fits of NestedCV failed"):
        both = nested({"lr": [1e30, 1e-3]})
    alone = nested({"lr": [1e-3]})
    assert both.best_params_per_fold_ == [{"lr": 1e-3}] * 3 == alone.best_params_per_fold_
    # the failed fits: the diverging candidate in each outer fold and on all the data
    failed = [(task["key"]["outer_fold"], task["key"]["candidate"]) for task in both.failed_tasks_]
    assert sorted(failed, key=str) == sorted([(0, 0), (1, 0), (2, 0), (None, 0)], key=str)
    assert all("non-finite weights" in task["error"] for task in both.failed_tasks_)
    np.testing.assert_array_equal(both.outer_scores_, alone.outer_scores_)
    np.testing.assert_array_equal(
        both.best_estimator_.predict_proba(X[:10]), alone.best_estimator_.predict_proba(X[:10])
    )
    assert np.isfinite(both.best_estimator_.predict_proba(X)).all()
