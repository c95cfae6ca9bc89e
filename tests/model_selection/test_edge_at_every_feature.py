"""A grid whose largest value is every feature (``pca__n_components`` up to ``X``'s columns)
cannot be extended past that edge: NestedCV no longer tells the user to (carried NOISE-1),
while a grid that stops short of the features still gets the warning."""

import warnings

from sklearn.datasets import make_classification
from sklearn.decomposition import PCA
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import SearchSpaceEdgeWarning


def _edge_warnings(n_features, grid):
    X, y = make_classification(
        n_samples=300,
        n_features=n_features,
        n_informative=n_features,
        n_redundant=0,
        random_state=0,
    )
    nested = NestedCV(
        make_pipeline(PCA(), LogisticRegression()),
        {"pca__n_components": grid},
        outer_cv=3,
        inner_cv=3,
        n_refits=1,
        random_state=0,
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nested.fit(X, y)
    chosen = [params["pca__n_components"] for params in nested.best_params_per_fold_]
    return chosen, [w for w in caught if issubclass(w.category, SearchSpaceEdgeWarning)]


def test_every_feature_is_an_edge_no_grid_extends_past():
    chosen, caught = _edge_warnings(8, [2, 4, 8])
    assert chosen.count(8) >= 2  # the edge was selected: the warning's condition
    assert caught == []


def test_a_grid_that_stops_short_of_the_features_is_still_told_to_extend():
    chosen, caught = _edge_warnings(12, [2, 4, 8])
    assert chosen.count(8) >= 2
    assert len(caught) == 1 and "pca__n_components=8, on the edge" in str(caught[0].message)
