"""A grid whose largest value is every feature (``pca__n_components`` up to ``X``'s columns)
cannot be extended past that edge: NestedCV no longer tells the user to (carried NOISE-1),
while a grid that stops short of the features still gets the warning."""

import warnings

import pytest
from sklearn.datasets import make_classification
from sklearn.decomposition import PCA
from sklearn.feature_selection import SelectKBest
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MinMaxScaler, PolynomialFeatures, StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import SearchSpaceEdgeWarning


def _edge_warnings(n_features, grid, before=()):
    X, y = make_classification(
        n_samples=300,
        n_features=n_features,
        n_informative=n_features,
        n_redundant=0,
        random_state=0,
    )
    nested = NestedCV(
        make_pipeline(*before, PCA(), LogisticRegression()),
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


@pytest.mark.parametrize(
    "before",
    [StandardScaler(), MinMaxScaler(), SimpleImputer(), "passthrough"],
    ids=["StandardScaler", "MinMaxScaler", "SimpleImputer", "passthrough"],
)
def test_every_feature_after_steps_that_keep_the_width_is_an_edge_too(before):
    # kept after round 38: StandardScaler -> PCA with n_components [2, 4, 8] on 8 features
    # was told to "Extend the grid beyond that edge", which PCA refuses (n_components=9 on
    # 8 columns raises in scikit-learn)
    chosen, caught = _edge_warnings(8, [2, 4, 8], before=[before])
    assert chosen.count(8) >= 2
    assert caught == []
    X, y = make_classification(50, 8, random_state=0)
    with pytest.raises(ValueError, match="n_components=9"):
        make_pipeline(before, PCA(n_components=9)).fit(X, y)


def test_a_grid_that_stops_short_of_the_features_is_still_told_to_extend():
    chosen, caught = _edge_warnings(12, [2, 4, 8])
    assert chosen.count(8) >= 2
    assert len(caught) == 1 and "pca__n_components=8, on the edge" in str(caught[0].message)


@pytest.mark.parametrize(
    "estimator, grid",
    [
        # max_depth is no count of features: 4 on 4 columns can be extended
        (DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2, 4]}),
        # SelectKBest sees PolynomialFeatures' 14 columns, not X's 4
        (
            make_pipeline(
                PolynomialFeatures(2), StandardScaler(), SelectKBest(k=2), LogisticRegression()
            ),
            {"selectkbest__k": [1, 2, 4]},
        ),
    ],
    ids=["max_depth", "k after PolynomialFeatures"],
)
def test_an_edge_equal_to_the_width_of_x_but_not_every_feature_still_warns(estimator, grid):
    # review37: the exemption took any integer edge equal to X's width
    X, y = make_classification(
        400, n_features=4, n_informative=4, n_redundant=0, n_clusters_per_class=3, random_state=0
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nested = NestedCV(estimator, grid, outer_cv=3, inner_cv=3, n_refits=1, random_state=0)
        nested.fit(X, y)
    [(name, values)] = grid.items()
    assert [params[name] for params in nested.best_params_per_fold_] == [4, 4, 4]
    edge = [w for w in caught if issubclass(w.category, SearchSpaceEdgeWarning)]
    assert len(edge) == 1 and f"{name}=4, on the edge" in str(edge[0].message)
