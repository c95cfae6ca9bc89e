"""A NestedCV refit that early-stops can be rebuilt by hand from ``outer_results_`` (hunt
SEEDGNN-1): a seeded GraphClassifier shuffles its training graphs from the order they are
given, so the rows alone, sorted, gave another model (test accuracy 0.714 against the
recorded 0.667 on MUTAG); ``early_stopping_train_indices`` keeps them in their order."""

import numpy as np
import pytest
import sklearn.metrics

pytest.importorskip("torch_geometric")
pytest.importorskip("skorch")

from sklearn_fair import NestedCV  # noqa: E402
from sklearn_fair.graph import GIN, GraphClassifier, load_mutag  # noqa: E402
from sklearn_fair.model_selection import StratifiedGraphKFold  # noqa: E402


def classifier(**params):
    return GraphClassifier(
        GIN, module__hidden_units=[8], max_epochs=3, batch_size=16, patience=3, **params
    )


def test_each_refit_is_the_fit_on_its_recorded_rows_in_their_order():
    graphs = load_mutag()
    nested = NestedCV(
        classifier(), {"lr": [0.01]}, outer_cv=StratifiedGraphKFold(3, random_state=0),
        inner_cv=2, n_refits=2, random_state=0, refit=False, scoring="neg_log_loss",
    ).fit(graphs)  # fmt: skip
    orders_matter = False
    for result in nested.outer_results_:
        train, stop = result["early_stopping_train_indices"], result["early_stopping_indices"]
        test = result["test_indices"]
        # the refits' rows: the outer training fold, split in two
        np.testing.assert_array_equal(
            np.sort(np.concatenate([train, stop])), np.sort(result["train_indices"])
        )
        for seed, score in zip(result["refit_seeds"], result["test_scores"]):
            model = classifier(random_state=seed, **result["best_params"])
            in_order = _log_loss(model, graphs, train, stop, test)
            sorted_rows = _log_loss(model, graphs, np.sort(train), stop, test)
            # float32 sums in another thread layout differ in the 6th digit
            np.testing.assert_allclose(in_order, score, rtol=1e-4)
            orders_matter |= not np.isclose(sorted_rows, score, rtol=1e-3)
    assert orders_matter  # the case: the rows sorted give another model


def _log_loss(model, graphs, train, stop, test):
    model.fit(graphs[train], X_val=graphs[stop])
    proba = model.predict_proba(graphs[test])
    return -sklearn.metrics.log_loss(graphs.y[test], proba, labels=model.classes_)
