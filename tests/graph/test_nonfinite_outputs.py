"""A GraphClassifier with finite weights whose outputs overflow on some graphs (sum pooling over
graphs larger than the training graphs, hunt NANS-1) refuses to predict or score them: the
argmax of a NaN row is 0, so predict called them classes_[0] and accuracy counted them, while
roc_auc failed. Under NestedCV the fold fails with that reason, whatever the metric."""

import warnings

import numpy as np
import pytest
import torch

from sklearn_fair import NestedCV
from sklearn_fair.graph import DeepMultisets, GraphClassifier, load_mutag

OVERFLOWING = [1, 4, 10]  # node features near float32's maximum: their sums overflow


def make_clf():
    return GraphClassifier(
        DeepMultisets,
        module__hidden_units=8,
        max_epochs=1,
        validation_fraction=None,
        random_state=0,
    )


def overflowing(graphs, rows):
    """The graphs as a list, those of ``rows`` with (finite) node features of 3e38."""
    graphs = [graph.clone() for graph in graphs]
    for row in rows:
        graphs[row].x = graphs[row].x * 3e38
    return graphs


@pytest.fixture(scope="module")
def fitted(mutag):
    return make_clf().fit(mutag[:40])


def test_outputs_that_overflow_are_refused_by_every_prediction_method(mutag, fitted):
    X = overflowing(mutag[40:60], OVERFLOWING)
    # the weights are finite, so fit raised nothing; the module's outputs on these graphs
    # are NaN, which argmax would have called classes_[0]
    outputs = fitted.forward(X).numpy()
    assert np.flatnonzero(np.isnan(outputs).any(axis=1)).tolist() == OVERFLOWING
    expected = (
        r"module \(DeepMultisets\) gave non-finite outputs \(NaN, \+inf, or -inf for every "
        r"class\) for 3 of 20 "
        r"graphs \(indices \[1, 4, 10\]\).*smaller lr than lr=0\.001.*gradient clipping"
        r".*rescaled node features"
    )
    for method in (fitted.predict_proba, fitted.predict, fitted.score):
        with pytest.raises(ValueError, match=expected):
            method(X)
    # the other graphs are predicted as before
    finite = np.delete(np.arange(20), OVERFLOWING)
    np.testing.assert_array_equal(
        fitted.predict_proba([X[row] for row in finite]),
        fitted.predict_proba(mutag[40:60])[finite],
    )


@pytest.mark.parametrize("scoring", ["accuracy", "roc_auc"])
def test_nested_cv_fails_the_fold_whose_outputs_overflow(mutag, scoring):
    # train on graphs 20-59, test on graphs 0-19, three of which overflow
    X = overflowing(mutag[:60], OVERFLOWING)
    nested = NestedCV(
        make_clf(),
        {"lr": [1e-3]},
        outer_cv=[(np.arange(20, 60), np.arange(20))],
        n_refits=1,
        refit=False,
        random_state=0,
        scoring=scoring,
        error_score=-1.0,
    )
    with pytest.warns(UserWarning, match="Scoring failed"):
        nested.fit(X)
    np.testing.assert_array_equal(nested.outer_scores_, [-1.0])
    [task] = nested.failed_tasks_
    assert task["key"]["outer_fold"] == 0
    assert (
        "gave non-finite outputs (NaN, +inf, or -inf for every class) for 3 of 20 graphs"
        in task["error"]
    )


class _NaNInTheThirdValidationPass(DeepMultisets):
    """DeepMultisets whose validation outputs are NaN for one graph in the third epoch only."""

    passes = 0

    def forward(self, data):
        out = super().forward(data)
        if not self.training and not torch.is_grad_enabled():
            type(self).passes += 1
            if type(self).passes == 3:
                out = out.clone()
                out[0] = float("nan")
        return out


def test_an_epoch_scorer_of_the_user_records_an_epoch_of_nan_outputs_without_aborting_the_fit():
    # the refusal of non-finite outputs raised inside skorch's EpochScoring("accuracy") of
    # the user, which predicts during fit: the whole fit aborted (review36); the default
    # early stopping records such an epoch as NaN, and the fit goes on in both cases
    from skorch.callbacks import EpochScoring

    graphs = load_mutag()[:150]
    user = EpochScoring("accuracy", lower_is_better=False, name="valid_acc_user")
    _NaNInTheThirdValidationPass.passes = 0
    fitted = GraphClassifier(
        _NaNInTheThirdValidationPass, module__hidden_units=8, max_epochs=6, random_state=0,
        patience=5, batch_size=200, callbacks=[("user", user)],
    ).fit(graphs)  # fmt: skip
    assert len(fitted.history) == 6
    assert np.isnan(fitted.history[2]["valid_acc"])
    assert all(np.isfinite(row["valid_acc_user"]) for row in fitted.history)
    assert fitted.best_epoch_ != 3


def _log_of_underflowing_softmax(outputs):
    # a user's log-probabilities: the softmax of sharpened outputs underflows to 0 for the
    # classes far below the best, whose log is -inf (review36 REV-6)
    return torch.log(torch.softmax(outputs * 1e4, dim=-1))


def test_log_probabilities_of_zero_from_the_users_nonlinearity_are_predictions(mutag):
    clf = make_clf().set_params(predict_nonlinearity=_log_of_underflowing_softmax)
    clf.fit(mutag[:40])
    log_proba = clf.predict_proba(mutag[40:80])
    assert np.isneginf(log_proba).any(axis=1).sum() >= 10  # refused before: "non-finite"
    assert not np.isnan(log_proba).any() and not np.isposinf(log_proba).any()
    expected = clf.classes_[np.argmax(log_proba, axis=1)]
    np.testing.assert_array_equal(clf.predict(mutag[40:80]), expected)
    truth = np.array([int(graph.y) for graph in mutag[40:80]])
    assert clf.score(mutag[40:80]) == pytest.approx(np.mean(expected == truth))


def test_early_stopping_that_reads_no_finite_validation_score_warns(mutag):
    # one overflowing validation graph made every epoch's validation accuracy NaN: early
    # stopping selected no epoch and ended the fit after `patience` epochs, silently (hunt
    # DOC13)
    X_val = overflowing(mutag[100:140], [0])
    y_val = np.array([int(graph.y) for graph in X_val])
    clf = make_clf().set_params(validation_fraction=0.2, patience=3, max_epochs=8)
    with pytest.warns(UserWarning, match=r"read no finite valid_acc in any of the 4 epochs"):
        clf.fit(mutag[:100], X_val=X_val, y_val=y_val)
    assert clf.best_epoch_ is None
    assert np.isnan([row["valid_acc"] for row in clf.history]).all()
    # with finite validation graphs, no such warning
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        make_clf().set_params(patience=3, max_epochs=4).fit(
            mutag[:100], X_val=mutag[101:140], y_val=y_val[1:]
        )


@pytest.mark.parametrize(
    "params",
    [{"patience": None}, {"validation_fraction": None}],
    ids=["patience=None", "no validation data"],
)
def test_no_validation_score_is_no_warning(mutag, params):
    # review37: an epoch that recorded no validation score counted as a NaN one, so every
    # fit without validation warned of non-finite outputs (NestedCV's refits among them)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        clf = make_clf().set_params(max_epochs=2, **params).fit(mutag[:60])
    assert clf.best_epoch_ is None
