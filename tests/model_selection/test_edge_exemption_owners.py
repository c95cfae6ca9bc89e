"""The edge at every feature is exempt from SearchSpaceEdgeWarning only for an owner whose
parameter is bounded by the number of features (PCA's ``n_components``, SelectKBest's ``k``),
not for any parameter of that name: KernelPCA, Nystroem or RBFSampler fit more components
than features, so a grid that ends at every feature can be extended (hunt DOC14-1)."""

import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose
from sklearn.base import clone
from sklearn.cross_decomposition import CCA, PLSSVD, PLSCanonical, PLSRegression
from sklearn.datasets import make_classification
from sklearn.decomposition import (
    NMF,
    PCA,
    DictionaryLearning,
    FactorAnalysis,
    FastICA,
    IncrementalPCA,
    KernelPCA,
    SparsePCA,
    TruncatedSVD,
)
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.ensemble import (
    BaggingClassifier,
    ExtraTreesClassifier,
    GradientBoostingClassifier,
    IsolationForest,
    RandomForestClassifier,
)
from sklearn.feature_selection import RFE, SelectFromModel, SelectKBest, SequentialFeatureSelector
from sklearn.kernel_approximation import Nystroem, RBFSampler
from sklearn.linear_model import LogisticRegression
from sklearn.manifold import LocallyLinearEmbedding
from sklearn.neighbors import KNeighborsClassifier, NeighborhoodComponentsAnalysis
from sklearn.neural_network import BernoulliRBM
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.random_projection import GaussianRandomProjection, SparseRandomProjection
from sklearn.tree import DecisionTreeClassifier, ExtraTreeClassifier

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import SearchSpaceEdgeWarning
from sklearn_fair.model_selection._nested._selection import _every_feature

N_FEATURES = 8


class SubclassedPCA(PCA):
    """A user's subclass of a bounded owner: bounded as PCA is."""


def _data():
    return make_classification(
        300, N_FEATURES, n_informative=N_FEATURES, n_redundant=0, random_state=0
    )


def _best_params_and_edge_warnings(estimator, param_grid, X, y):
    nested = NestedCV(estimator, param_grid, outer_cv=3, inner_cv=3, n_refits=1, random_state=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nested.fit(X, y)
    edge = [w for w in caught if issubclass(w.category, SearchSpaceEdgeWarning)]
    return nested.best_params_per_fold_, edge


def _selected_and_edge_warnings(estimator, name):
    best, edge = _best_params_and_edge_warnings(estimator, {name: [1, 2, N_FEATURES]}, *_data())
    return [params[name] for params in best], edge


@pytest.mark.parametrize(
    "step, name",
    [
        (KernelPCA(kernel="rbf", gamma=0.02), "kernelpca__n_components"),
        (Nystroem(gamma=0.1, random_state=0), "nystroem__n_components"),
        (RBFSampler(gamma=0.01, random_state=0), "rbfsampler__n_components"),
    ],
    ids=["KernelPCA", "Nystroem", "RBFSampler"],
)
def test_an_edge_at_every_feature_of_an_unbounded_count_is_told_to_extend(step, name):
    # the grid can be extended: 16 components of 8 features
    X, _ = _data()
    assert clone(step).set_params(n_components=16).fit_transform(X).shape == (len(X), 16)

    selected, edge = _selected_and_edge_warnings(make_pipeline(step, LogisticRegression()), name)
    assert selected == [N_FEATURES] * 3
    assert len(edge) == 1
    assert f"{name}={N_FEATURES}, on the edge" in str(edge[0].message)
    assert "Extend the grid beyond that edge" in str(edge[0].message)


@pytest.mark.parametrize(
    "estimator, name",
    [
        (make_pipeline(PCA(), LogisticRegression()), "pca__n_components"),
        (make_pipeline(SelectKBest(), LogisticRegression()), "selectkbest__k"),
        (make_pipeline(SubclassedPCA(), LogisticRegression()), "subclassedpca__n_components"),
        (DecisionTreeClassifier(random_state=0), "max_features"),
    ],
    ids=["PCA", "SelectKBest", "subclass of PCA", "tree max_features"],
)
def test_an_edge_at_every_feature_of_a_bounded_count_is_not_told_to_extend(estimator, name):
    selected, edge = _selected_and_edge_warnings(estimator, name)
    assert selected.count(N_FEATURES) >= 2  # the edge was selected: the warning's condition
    assert edge == []


def _fitted_output(owner, param, value, X, y):
    owner = clone(owner).set_params(**{param: value})
    if "random_state" in owner.get_params():
        owner.set_params(random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # FastICA and SelectKBest say that they cap the value
        owner.fit(X, y)
    return owner.transform(X) if hasattr(owner, "transform") else owner.predict(X)


@pytest.mark.parametrize(
    "owner, param",
    [
        (PCA(), "n_components"),
        (SubclassedPCA(), "n_components"),
        (IncrementalPCA(), "n_components"),
        (TruncatedSVD(), "n_components"),
        (FastICA(), "n_components"),
        # randomized SVD draws other projections for 8 and 9 components, both capped at 8
        (FactorAnalysis(svd_method="lapack"), "n_components"),
        (PLSRegression(), "n_components"),
        (PLSCanonical(), "n_components"),
        (CCA(), "n_components"),
        (PLSSVD(), "n_components"),
        (LinearDiscriminantAnalysis(), "n_components"),
        (NeighborhoodComponentsAnalysis(max_iter=5), "n_components"),
        (LocallyLinearEmbedding(n_neighbors=12), "n_components"),
        (SelectKBest(), "k"),
        (RFE(LogisticRegression()), "n_features_to_select"),
        (SequentialFeatureSelector(LogisticRegression()), "n_features_to_select"),
        (SelectFromModel(LogisticRegression(), threshold=-np.inf), "max_features"),
        (DecisionTreeClassifier(), "max_features"),
        (ExtraTreeClassifier(), "max_features"),
        (RandomForestClassifier(10), "max_features"),
        (ExtraTreesClassifier(10), "max_features"),
        (GradientBoostingClassifier(n_estimators=10), "max_features"),
        (BaggingClassifier(n_estimators=5), "max_features"),
        (IsolationForest(n_estimators=5), "max_features"),
    ],
    ids=lambda value: type(value).__name__ if not isinstance(value, str) else value,
)
def test_a_bounded_owner_refuses_or_caps_more_than_every_feature_and_is_exempt(owner, param):
    X, y = make_classification(60, N_FEATURES, n_informative=4, random_state=0)
    assert _every_feature(owner, param, N_FEATURES, X)
    try:
        wider = _fitted_output(owner, param, N_FEATURES + 1, X, y)
    except ValueError:
        return  # refused
    assert_allclose(wider, _fitted_output(owner, param, N_FEATURES, X, y))  # capped


@pytest.mark.parametrize(
    "owner",
    [
        KernelPCA(),
        Nystroem(),
        RBFSampler(),
        BernoulliRBM(n_iter=2),
        NMF(max_iter=20),
        DictionaryLearning(max_iter=5),
        SparsePCA(max_iter=5),
        GaussianRandomProjection(),
        SparseRandomProjection(),
    ],
    ids=lambda owner: type(owner).__name__,
)
def test_an_owner_that_fits_more_components_than_features_is_not_exempt(owner):
    X, y = make_classification(60, N_FEATURES, n_informative=4, random_state=0)
    X = np.abs(X)  # NMF and BernoulliRBM take no negative values
    wider = _fitted_output(owner, "n_components", N_FEATURES + 1, X, y)
    assert wider.shape == (len(X), N_FEATURES + 1)
    assert not _every_feature(owner, "n_components", N_FEATURES, X)
    pipeline = make_pipeline(owner, LogisticRegression())
    step = pipeline.steps[0][0]
    assert not _every_feature(pipeline, f"{step}__n_components", N_FEATURES, X)


# -- the step a grid puts in place owns the parameter (review38 REV-2) -------------------------


def _reduce_then_classify(reduce):
    return Pipeline([("reduce", reduce), ("clf", LogisticRegression())])


def _n_components_grid(*reducers):
    return {"reduce": list(reducers), "reduce__n_components": [2, 4, N_FEATURES]}


def test_a_bounded_step_the_grid_puts_in_place_of_passthrough_is_exempt():
    # PCA cannot go past every feature, although the template holds "passthrough" there
    best, edge = _best_params_and_edge_warnings(
        _reduce_then_classify("passthrough"), _n_components_grid(PCA()), *_data()
    )
    assert [type(params["reduce"]) for params in best] == [PCA] * 3
    assert [params["reduce__n_components"] for params in best] == [N_FEATURES] * 3
    assert edge == []


def test_an_unbounded_step_the_grid_puts_in_place_of_a_bounded_one_is_told_to_extend():
    # KernelPCA fits 16 components of 8 features, although the template holds PCA there
    best, edge = _best_params_and_edge_warnings(
        _reduce_then_classify(PCA()),
        _n_components_grid(KernelPCA(kernel="rbf", gamma=0.02)),
        *_data(),
    )
    assert [type(params["reduce"]) for params in best] == [KernelPCA] * 3
    assert [params["reduce__n_components"] for params in best] == [N_FEATURES] * 3
    assert len(edge) == 1
    assert f"reduce__n_components={N_FEATURES}, on the edge" in str(edge[0].message)
    assert "in 3 of 3 outer folds" in str(edge[0].message)
    assert "Extend the grid beyond that edge" in str(edge[0].message)


@pytest.mark.parametrize(
    "template, gamma, winners, selected, told",
    [
        (PCA(), 0.1, [KernelPCA] * 3, [4, N_FEATURES, N_FEATURES], "in 2 of 3 outer folds"),
        (KernelPCA(), 3.0, [PCA] * 3, [N_FEATURES] * 3, None),
    ],
    ids=["KernelPCA selected", "PCA selected"],
)
def test_of_a_grid_of_both_steps_the_selected_step_decides(
    template, gamma, winners, selected, told
):
    best, edge = _best_params_and_edge_warnings(
        _reduce_then_classify(template),
        _n_components_grid(PCA(), KernelPCA(kernel="rbf", gamma=gamma)),
        *_data(),
    )
    assert [type(params["reduce"]) for params in best] == winners
    assert [params["reduce__n_components"] for params in best] == selected
    if told is None:
        assert edge == []
    else:
        assert len(edge) == 1
        assert f"reduce__n_components={N_FEATURES}, on the edge" in str(edge[0].message)
        assert told in str(edge[0].message)


def test_a_closed_bound_of_the_step_the_grid_puts_in_place_is_exempt():
    # one neighbour, KNeighborsClassifier's closed lower bound, wins on a fine checkerboard;
    # the template's LogisticRegression has no n_neighbors
    X = np.random.RandomState(0).uniform(size=(300, 2))
    y = (np.floor(6 * X).sum(axis=1) % 2).astype(int)
    best, edge = _best_params_and_edge_warnings(
        _reduce_then_classify("passthrough"),
        {"clf": [KNeighborsClassifier()], "clf__n_neighbors": [1, 3, 5]},
        X,
        y,
    )
    assert [type(params["clf"]) for params in best] == [KNeighborsClassifier] * 3
    assert [params["clf__n_neighbors"] for params in best] == [1] * 3
    assert edge == []
