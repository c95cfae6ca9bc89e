"""A GraphClassifier whose early stopping is off trains each refit on its whole outer training
fold under NestedCV: no validation rows are held out for nothing (``patience=None``)."""

import numpy as np
import pytest

pytest.importorskip("torch_geometric")
pytest.importorskip("skorch")

from sklearn_fair import NestedCV  # noqa: E402
from sklearn_fair.graph import DeepMultisets, GraphClassifier, load_mutag  # noqa: E402
from sklearn_fair.model_selection import StratifiedGraphKFold  # noqa: E402


def classifier(**params):
    return GraphClassifier(
        DeepMultisets, module__hidden_units=8, max_epochs=2, batch_size=32, patience=None,
        validation_fraction=None, **params,
    )  # fmt: skip


def test_a_refit_without_early_stopping_equals_a_fit_on_the_whole_outer_training_fold():
    graphs = load_mutag()
    nested = NestedCV(
        classifier(), {"lr": [0.01]}, outer_cv=StratifiedGraphKFold(2, random_state=0),
        inner_cv=2, n_refits=1, random_state=0, refit=False,
    ).fit(graphs)  # fmt: skip
    for result in nested.outer_results_:
        assert "early_stopping_indices" not in result
        train, test = result["train_indices"], result["test_indices"]
        (seed,) = result["refit_seeds"]
        by_hand = classifier(random_state=seed, **result["best_params"]).fit(graphs[train])
        np.testing.assert_allclose(result["test_scores"], [by_hand.score(graphs[test])])
