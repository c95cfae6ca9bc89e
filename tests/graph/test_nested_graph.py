"""The fair protocol end to end: NestedCV with StratifiedGraphKFold on MUTAG."""

import numpy as np
import pytest

from sklearn_fair import NestedCV
from sklearn_fair.graph import GIN, SMALL_GRIDS, DeepMultisets, GraphClassifier
from sklearn_fair.model_selection import StratifiedGraphKFold


def small_grid(module, **overrides):
    grid = {**SMALL_GRIDS[module.__name__], "max_epochs": [4], "patience": [2], **overrides}
    # NestedCV checks candidate names against get_params(), where skorch lists a
    # module__* name only once it is set: start from the grid's first values.
    first = {name: values[0] for name, values in grid.items() if name.startswith("module__")}
    return GraphClassifier(module, **first), grid


@pytest.mark.parametrize("module", [DeepMultisets, GIN], ids=lambda m: m.__name__)
def test_nested_cv_on_mutag(module, mutag):
    estimator, grid = small_grid(module)
    nested = NestedCV(
        estimator,
        grid,
        outer_cv=StratifiedGraphKFold(n_splits=3, random_state=0),
        n_refits=2,
        random_state=0,
    ).fit(mutag)  # no y: the labels are read from the graphs
    assert nested.outer_scores_.shape == (3,)
    assert np.all((nested.outer_scores_ >= 0) & (nested.outer_scores_ <= 1))
    assert len(nested.best_params_per_fold_) == 3
    assert nested.predict(mutag[:4]).shape == (4,)


def test_nested_cv_is_reproducible(mutag):
    estimator, grid = small_grid(DeepMultisets)
    runs = [
        NestedCV(
            estimator,
            grid,
            outer_cv=StratifiedGraphKFold(n_splits=3, random_state=0),
            n_refits=1,
            refit=False,
            random_state=0,
        )
        .fit(mutag)
        .outer_scores_
        for _ in range(2)
    ]
    np.testing.assert_array_equal(runs[0], runs[1])


def test_score_reads_the_graphs_labels_as_fit_does(mutag):
    estimator, _ = small_grid(DeepMultisets)
    nested = NestedCV(
        estimator, {"max_epochs": [2]}, outer_cv=StratifiedGraphKFold(n_splits=3, random_state=0),
        n_refits=1, random_state=0, scoring="roc_auc",
    ).fit(mutag)  # fmt: skip
    labels = np.array([int(graph.y) for graph in mutag])
    assert nested.score(mutag) == nested.score(mutag, labels)
