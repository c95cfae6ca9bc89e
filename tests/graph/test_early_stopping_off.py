"""A GraphClassifier whose early stopping is off trains each refit on its whole outer training
fold under NestedCV: no validation rows are held out for nothing (``patience=None``)."""

import numpy as np
import pytest
import sklearn.metrics

pytest.importorskip("torch_geometric")
pytest.importorskip("skorch")

from sklearn_fair import NestedCV  # noqa: E402
from sklearn_fair.graph import DeepMultisets, GraphClassifier, load_mutag  # noqa: E402
from sklearn_fair.model_selection import StratifiedGraphKFold  # noqa: E402


def classifier(**params):
    # validation_fraction left at its default (0.1): it held out 10% for nothing
    return GraphClassifier(
        DeepMultisets, module__hidden_units=8, max_epochs=2, batch_size=32, patience=None,
        **params,
    )  # fmt: skip


def test_a_refit_without_early_stopping_equals_a_fit_on_the_whole_outer_training_fold():
    graphs = load_mutag()
    nested = NestedCV(
        classifier(), {"lr": [0.01]}, outer_cv=StratifiedGraphKFold(2, random_state=0),
        inner_cv=2, n_refits=1, random_state=0, refit=False, scoring="neg_log_loss",
    ).fit(graphs)  # fmt: skip
    for result in nested.outer_results_:
        assert "early_stopping_indices" not in result
        train, test = result["train_indices"], result["test_indices"]
        (seed,) = result["refit_seeds"]
        whole = classifier(random_state=seed, validation_fraction=None, **result["best_params"])
        by_hand = whole.fit(graphs[train])
        log_loss = -sklearn.metrics.log_loss(
            graphs.y[test], by_hand.predict_proba(graphs[test]), labels=by_hand.classes_
        )
        np.testing.assert_allclose(result["test_scores"], [log_loss], rtol=1e-6)


@pytest.mark.parametrize(
    "stopping",
    [{"patience": None}, {"early_stopping": "generalization_loss", "gl_start_epoch": 2}],
    ids=["patience=None", "gl_start_epoch>=max_epochs"],
)
def test_a_fit_without_early_stopping_trains_on_every_graph(stopping):
    graphs = load_mutag()
    params = dict(module__hidden_units=8, max_epochs=2, batch_size=32, random_state=0)
    off = GraphClassifier(DeepMultisets, **params, **stopping).fit(graphs)
    whole = GraphClassifier(DeepMultisets, **params, **stopping, validation_fraction=None)
    np.testing.assert_array_equal(
        off.predict_proba(graphs), whole.fit(graphs).predict_proba(graphs)
    )
    assert "valid_loss" not in off.history[-1]  # nothing was validated
    # early stopping on: the default 10% is held out for it (19 of MUTAG's 188 graphs)
    on = GraphClassifier(DeepMultisets, **params, patience=5).fit(graphs)
    assert "valid_loss" in on.history[-1]
    assert len(on.get_split_datasets(graphs, graphs.y)[1]) == 19


def test_a_callback_that_monitors_a_validation_score_keeps_the_validation_split():
    # early stopping off, but a ReduceLROnPlateau on valid_loss needs validation scores:
    # the fit failed ("'valid_loss' was not found in history") once nothing was held out
    from skorch.callbacks import LRScheduler
    from torch.optim.lr_scheduler import ReduceLROnPlateau

    graphs = load_mutag()
    plateau = LRScheduler(policy=ReduceLROnPlateau, monitor="valid_loss", patience=0, factor=0.5)
    fitted = GraphClassifier(
        DeepMultisets, module__hidden_units=8, max_epochs=3, batch_size=32, patience=None,
        random_state=0, callbacks=[("plateau", plateau)],
    ).fit(graphs)  # fmt: skip
    assert "valid_loss" in fitted.history[-1]
    assert len(fitted.get_split_datasets(graphs, graphs.y)[1]) == 19  # 10% of 188, as before
    assert fitted._stops_early()  # so NestedCV holds out its validation rows too
